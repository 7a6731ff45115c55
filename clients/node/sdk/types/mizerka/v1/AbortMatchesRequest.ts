// Original file: ../../../proto/mizerka/v1/arena.proto


/**
 * What to abort; at least one of group and match_ids.
 */
export interface AbortMatchesRequest {
  /**
   * Every unfinished match created with this CreateMatchRequest.group.
   */
  'group'?: (string);
  /**
   * These matches. Unknown: NOT_FOUND.
   */
  'match_ids'?: (string)[];
  /**
   * Why, for Match.abort_reason and the bots' GameEnd.abort_reason, at most 200 characters (longer is cut).
   * "" means "aborted by the admin".
   */
  'reason'?: (string);
}

/**
 * What to abort; at least one of group and match_ids.
 */
export interface AbortMatchesRequest__Output {
  /**
   * Every unfinished match created with this CreateMatchRequest.group.
   */
  'group': (string);
  /**
   * These matches. Unknown: NOT_FOUND.
   */
  'match_ids': (string)[];
  /**
   * Why, for Match.abort_reason and the bots' GameEnd.abort_reason, at most 200 characters (longer is cut).
   * "" means "aborted by the admin".
   */
  'reason': (string);
}
