// Original file: ../../../proto/mizerka/v1/arena.proto


/**
 * Get one match.
 */
export interface GetMatchRequest {
  /**
   * The match id. Unknown: NOT_FOUND.
   */
  'match_id'?: (string);
}

/**
 * Get one match.
 */
export interface GetMatchRequest__Output {
  /**
   * The match id. Unknown: NOT_FOUND.
   */
  'match_id': (string);
}
