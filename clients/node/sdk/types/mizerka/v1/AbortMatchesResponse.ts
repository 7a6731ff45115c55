// Original file: ../../../proto/mizerka/v1/arena.proto


/**
 * What was aborted.
 */
export interface AbortMatchesResponse {
  /**
   * The matches that were unfinished and are now ABORTED (none when all had ended already).
   */
  'match_ids'?: (string)[];
}

/**
 * What was aborted.
 */
export interface AbortMatchesResponse__Output {
  /**
   * The matches that were unfinished and are now ABORTED (none when all had ended already).
   */
  'match_ids': (string)[];
}
