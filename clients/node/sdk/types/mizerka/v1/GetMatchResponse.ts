// Original file: ../../../proto/mizerka/v1/arena.proto

import type { Match as _mizerka_v1_Match, Match__Output as _mizerka_v1_Match__Output } from '../../mizerka/v1/Match';

/**
 * The match asked for.
 */
export interface GetMatchResponse {
  /**
   * The match.
   */
  'match'?: (_mizerka_v1_Match | null);
}

/**
 * The match asked for.
 */
export interface GetMatchResponse__Output {
  /**
   * The match.
   */
  'match': (_mizerka_v1_Match__Output | null);
}
