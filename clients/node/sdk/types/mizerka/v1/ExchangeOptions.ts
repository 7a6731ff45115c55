// Original file: ../../../proto/mizerka/v1/referee.proto


/**
 * What an exchange decision allows (DecisionRequest of kind EXCHANGE).
 */
export interface ExchangeOptions {
  /**
   * The most cards you may exchange (a blind exchange: the cards left in the talon; pick: the talon
   * size). Discarding 0 cards is always legal.
   */
  'max_cards'?: (number);
  /**
   * True for a pick exchange: name the talon cards you take in ExchangeCards.take (as many as you
   * discard). False for a blind exchange: leave take empty; you receive the talon's top cards.
   */
  'pick'?: (boolean);
  /**
   * Pick exchange: the talon cards, which you (the declarer) now see. Empty in a blind exchange.
   */
  'talon'?: (string)[];
}

/**
 * What an exchange decision allows (DecisionRequest of kind EXCHANGE).
 */
export interface ExchangeOptions__Output {
  /**
   * The most cards you may exchange (a blind exchange: the cards left in the talon; pick: the talon
   * size). Discarding 0 cards is always legal.
   */
  'max_cards': (number);
  /**
   * True for a pick exchange: name the talon cards you take in ExchangeCards.take (as many as you
   * discard). False for a blind exchange: leave take empty; you receive the talon's top cards.
   */
  'pick': (boolean);
  /**
   * Pick exchange: the talon cards, which you (the declarer) now see. Empty in a blind exchange.
   */
  'talon': (string)[];
}
