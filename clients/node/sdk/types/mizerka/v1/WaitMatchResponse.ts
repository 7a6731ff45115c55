// Original file: ../../../proto/mizerka/v1/arena.proto

import type { Match as _mizerka_v1_Match, Match__Output as _mizerka_v1_Match__Output } from '../../mizerka/v1/Match';

/**
 * The match after waiting.
 */
export interface WaitMatchResponse {
  /**
   * The match: FINISHED or ABORTED, or still PENDING/RUNNING when the timeout passed.
   */
  'match'?: (_mizerka_v1_Match | null);
  /**
   * True when the timeout passed before the match ended.
   */
  'timed_out'?: (boolean);
}

/**
 * The match after waiting.
 */
export interface WaitMatchResponse__Output {
  /**
   * The match: FINISHED or ABORTED, or still PENDING/RUNNING when the timeout passed.
   */
  'match': (_mizerka_v1_Match__Output | null);
  /**
   * True when the timeout passed before the match ended.
   */
  'timed_out': (boolean);
}
