// Original file: ../../../proto/mizerka/v1/referee.proto


/**
 * Which match to watch.
 */
export interface WatchRequest {
  /**
   * The match id (from Arena.CreateMatch or ListMatches).
   */
  'match_id'?: (string);
}

/**
 * Which match to watch.
 */
export interface WatchRequest__Output {
  /**
   * The match id (from Arena.CreateMatch or ListMatches).
   */
  'match_id': (string);
}
