// Original file: ../../../proto/mizerka/v1/arena.proto


/**
 * Wait for a match to end.
 */
export interface WaitMatchRequest {
  /**
   * The match id. Unknown: NOT_FOUND.
   */
  'match_id'?: (string);
  /**
   * Wait at most this many milliseconds; 0 waits until the match ends (bounded only by the call's
   * gRPC deadline, if any).
   */
  'timeout_ms'?: (number);
}

/**
 * Wait for a match to end.
 */
export interface WaitMatchRequest__Output {
  /**
   * The match id. Unknown: NOT_FOUND.
   */
  'match_id': (string);
  /**
   * Wait at most this many milliseconds; 0 waits until the match ends (bounded only by the call's
   * gRPC deadline, if any).
   */
  'timeout_ms': (number);
}
