// Original file: ../../../proto/mizerka/v1/arena.proto

import type { SeatRecord as _mizerka_v1_SeatRecord, SeatRecord__Output as _mizerka_v1_SeatRecord__Output } from '../../mizerka/v1/SeatRecord';
import type { DealResult as _mizerka_v1_DealResult, DealResult__Output as _mizerka_v1_DealResult__Output } from '../../mizerka/v1/DealResult';

/**
 * One game of a match, finished or in progress.
 */
export interface GameSummary {
  /**
   * The game's number within the match, from 0.
   */
  'game_number'?: (number);
  /**
   * True when the game has ended (normally or aborted).
   */
  'finished'?: (boolean);
  /**
   * Totals so far, per seat.
   */
  'totals'?: (number)[];
  /**
   * Every seat's record, in seat order (ranks are final only when finished).
   */
  'seats'?: (_mizerka_v1_SeatRecord)[];
  /**
   * Every finished deal, in order.
   */
  'results'?: (_mizerka_v1_DealResult)[];
}

/**
 * One game of a match, finished or in progress.
 */
export interface GameSummary__Output {
  /**
   * The game's number within the match, from 0.
   */
  'game_number': (number);
  /**
   * True when the game has ended (normally or aborted).
   */
  'finished': (boolean);
  /**
   * Totals so far, per seat.
   */
  'totals': (number)[];
  /**
   * Every seat's record, in seat order (ranks are final only when finished).
   */
  'seats': (_mizerka_v1_SeatRecord__Output)[];
  /**
   * Every finished deal, in order.
   */
  'results': (_mizerka_v1_DealResult__Output)[];
}
