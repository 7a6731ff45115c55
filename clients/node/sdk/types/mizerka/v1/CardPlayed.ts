// Original file: ../../../proto/mizerka/v1/events.proto


/**
 * A card was played to the current trick.
 */
export interface CardPlayed {
  /**
   * Who played.
   */
  'seat'?: (number);
  /**
   * The card.
   */
  'card'?: (string);
}

/**
 * A card was played to the current trick.
 */
export interface CardPlayed__Output {
  /**
   * Who played.
   */
  'seat': (number);
  /**
   * The card.
   */
  'card': (string);
}
