// Original file: ../../../proto/mizerka/v1/arena.proto

import type { Match as _mizerka_v1_Match, Match__Output as _mizerka_v1_Match__Output } from '../../mizerka/v1/Match';

/**
 * The created match.
 */
export interface CreateMatchResponse {
  /**
   * The new match's id.
   */
  'match_id'?: (string);
  /**
   * The match as created (status PENDING).
   */
  'match'?: (_mizerka_v1_Match | null);
}

/**
 * The created match.
 */
export interface CreateMatchResponse__Output {
  /**
   * The new match's id.
   */
  'match_id': (string);
  /**
   * The match as created (status PENDING).
   */
  'match': (_mizerka_v1_Match__Output | null);
}
