// Original file: ../../../proto/mizerka/v1/referee.proto

import type { DealResult as _mizerka_v1_DealResult, DealResult__Output as _mizerka_v1_DealResult__Output } from '../../mizerka/v1/DealResult';
import type { SeatRecord as _mizerka_v1_SeatRecord, SeatRecord__Output as _mizerka_v1_SeatRecord__Output } from '../../mizerka/v1/SeatRecord';

/**
 * The game is over (or was aborted). The stream stays open for the next game.
 */
export interface GameEnd {
  /**
   * The match the game belongs to.
   */
  'match_id'?: (string);
  /**
   * The game's number within the match, from 0.
   */
  'game_number'?: (number);
  /**
   * Your seat in this game.
   */
  'seat'?: (number);
  /**
   * Your rank: 1 + the number of seats with a strictly higher total (ties share a rank).
   */
  'rank'?: (number);
  /**
   * Final totals, per seat.
   */
  'totals'?: (number)[];
  /**
   * Every deal's result, in order (void deals included).
   */
  'results'?: (_mizerka_v1_DealResult)[];
  /**
   * Every seat's record (total, rank, timeouts, refusals, defaults applied, forfeited,
   * disconnected), in seat order.
   */
  'seats'?: (_mizerka_v1_SeatRecord)[];
  /**
   * True when the game was stopped before its end (an admin aborted the match, or the server
   * failed); totals and results are those reached.
   */
  'aborted'?: (boolean);
  /**
   * Why the game was aborted, for people; "" otherwise.
   */
  'abort_reason'?: (string);
}

/**
 * The game is over (or was aborted). The stream stays open for the next game.
 */
export interface GameEnd__Output {
  /**
   * The match the game belongs to.
   */
  'match_id': (string);
  /**
   * The game's number within the match, from 0.
   */
  'game_number': (number);
  /**
   * Your seat in this game.
   */
  'seat': (number);
  /**
   * Your rank: 1 + the number of seats with a strictly higher total (ties share a rank).
   */
  'rank': (number);
  /**
   * Final totals, per seat.
   */
  'totals': (number)[];
  /**
   * Every deal's result, in order (void deals included).
   */
  'results': (_mizerka_v1_DealResult__Output)[];
  /**
   * Every seat's record (total, rank, timeouts, refusals, defaults applied, forfeited,
   * disconnected), in seat order.
   */
  'seats': (_mizerka_v1_SeatRecord__Output)[];
  /**
   * True when the game was stopped before its end (an admin aborted the match, or the server
   * failed); totals and results are those reached.
   */
  'aborted': (boolean);
  /**
   * Why the game was aborted, for people; "" otherwise.
   */
  'abort_reason': (string);
}
