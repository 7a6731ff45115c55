// Original file: ../../../proto/mizerka/v1/game.proto


/**
 * One card played to a trick.
 */
export interface TrickPlay {
  /**
   * Who played it.
   */
  'seat'?: (number);
  /**
   * The card, e.g. "QH".
   */
  'card'?: (string);
}

/**
 * One card played to a trick.
 */
export interface TrickPlay__Output {
  /**
   * Who played it.
   */
  'seat': (number);
  /**
   * The card, e.g. "QH".
   */
  'card': (string);
}
