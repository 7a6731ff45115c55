// Original file: ../../../proto/mizerka/v1/game.proto


/**
 * One seat's record of a game: its score and how it behaved.
 */
export interface SeatRecord {
  /**
   * The seat.
   */
  'seat'?: (number);
  /**
   * The bot's name.
   */
  'name'?: (string);
  /**
   * The seat's final total.
   */
  'total'?: (number);
  /**
   * Its rank: 1 + the number of seats with a strictly higher total (ties share a rank: 1, 1, 3).
   */
  'rank'?: (number);
  /**
   * Decisions that timed out (each one a strike).
   */
  'timeouts'?: (number);
  /**
   * Actions refused with an ActionError (rules refusals and MALFORMED or NOT_EXPECTED messages; a
   * late answer discarded with STALE_TURN does not count).
   */
  'refusals'?: (number);
  /**
   * Decisions the referee took with the default action (timeouts, forfeit, disconnection).
   */
  'defaults_applied'?: (number);
  /**
   * True when the seat reached Clock.max_strikes and was forfeited.
   */
  'forfeited'?: (boolean);
  /**
   * True when the seat's stream closed before the game ended.
   */
  'disconnected'?: (boolean);
}

/**
 * One seat's record of a game: its score and how it behaved.
 */
export interface SeatRecord__Output {
  /**
   * The seat.
   */
  'seat': (number);
  /**
   * The bot's name.
   */
  'name': (string);
  /**
   * The seat's final total.
   */
  'total': (number);
  /**
   * Its rank: 1 + the number of seats with a strictly higher total (ties share a rank: 1, 1, 3).
   */
  'rank': (number);
  /**
   * Decisions that timed out (each one a strike).
   */
  'timeouts': (number);
  /**
   * Actions refused with an ActionError (rules refusals and MALFORMED or NOT_EXPECTED messages; a
   * late answer discarded with STALE_TURN does not count).
   */
  'refusals': (number);
  /**
   * Decisions the referee took with the default action (timeouts, forfeit, disconnection).
   */
  'defaults_applied': (number);
  /**
   * True when the seat reached Clock.max_strikes and was forfeited.
   */
  'forfeited': (boolean);
  /**
   * True when the seat's stream closed before the game ended.
   */
  'disconnected': (boolean);
}
