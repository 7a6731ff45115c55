// Original file: ../../../proto/mizerka/v1/arena.proto


/**
 * What to publish; at least one of the two.
 */
export interface PublishMatchesRequest {
  /**
   * Every match created with this CreateMatchRequest.group.
   */
  'group'?: (string);
  /**
   * These matches. Unknown: NOT_FOUND.
   */
  'match_ids'?: (string)[];
}

/**
 * What to publish; at least one of the two.
 */
export interface PublishMatchesRequest__Output {
  /**
   * Every match created with this CreateMatchRequest.group.
   */
  'group': (string);
  /**
   * These matches. Unknown: NOT_FOUND.
   */
  'match_ids': (string)[];
}
