// Original file: ../../../proto/mizerka/v1/events.proto

import type { DealResult as _mizerka_v1_DealResult, DealResult__Output as _mizerka_v1_DealResult__Output } from '../../mizerka/v1/DealResult';

/**
 * A deal is over.
 */
export interface DealEnded {
  /**
   * Its result and the totals after it.
   */
  'result'?: (_mizerka_v1_DealResult | null);
}

/**
 * A deal is over.
 */
export interface DealEnded__Output {
  /**
   * Its result and the totals after it.
   */
  'result': (_mizerka_v1_DealResult__Output | null);
}
