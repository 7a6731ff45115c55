// Original file: ../../../proto/mizerka/v1/referee.proto

import type { Ruleset as _mizerka_v1_Ruleset, Ruleset__Output as _mizerka_v1_Ruleset__Output } from '../../mizerka/v1/Ruleset';
import type { Clock as _mizerka_v1_Clock, Clock__Output as _mizerka_v1_Clock__Output } from '../../mizerka/v1/Clock';

/**
 * A game starts, and this stream plays one seat of it.
 */
export interface GameStart {
  /**
   * The match this game belongs to.
   */
  'match_id'?: (string);
  /**
   * The game's number within the match, from 0.
   */
  'game_number'?: (number);
  /**
   * How many games the match has.
   */
  'games'?: (number);
  /**
   * Your seat, 0..players-1.
   */
  'seat'?: (number);
  /**
   * Every seat's bot name, in seat order (names[seat] is yours).
   */
  'names'?: (string)[];
  /**
   * The ruleset: preset and every option in force.
   */
  'ruleset'?: (_mizerka_v1_Ruleset | null);
  /**
   * The clock: decision time, time bank, increment, strikes.
   */
  'clock'?: (_mizerka_v1_Clock | null);
}

/**
 * A game starts, and this stream plays one seat of it.
 */
export interface GameStart__Output {
  /**
   * The match this game belongs to.
   */
  'match_id': (string);
  /**
   * The game's number within the match, from 0.
   */
  'game_number': (number);
  /**
   * How many games the match has.
   */
  'games': (number);
  /**
   * Your seat, 0..players-1.
   */
  'seat': (number);
  /**
   * Every seat's bot name, in seat order (names[seat] is yours).
   */
  'names': (string)[];
  /**
   * The ruleset: preset and every option in force.
   */
  'ruleset': (_mizerka_v1_Ruleset__Output | null);
  /**
   * The clock: decision time, time bank, increment, strikes.
   */
  'clock': (_mizerka_v1_Clock__Output | null);
}
