// Original file: ../../../proto/mizerka/v1/game.proto


/**
 * Exchange cards with the talon (answer to a DecisionRequest of kind EXCHANGE).
 */
export interface ExchangeCards {
  /**
   * The cards you discard (distinct, held by you, at most ExchangeOptions.max_cards). Empty = pass.
   */
  'discard'?: (string)[];
  /**
   * Pick exchange only: the talon cards you take, distinct, exactly as many as you discard. Must be
   * empty in a blind exchange (you receive the talon's top cards). Violations: BAD_EXCHANGE.
   */
  'take'?: (string)[];
}

/**
 * Exchange cards with the talon (answer to a DecisionRequest of kind EXCHANGE).
 */
export interface ExchangeCards__Output {
  /**
   * The cards you discard (distinct, held by you, at most ExchangeOptions.max_cards). Empty = pass.
   */
  'discard': (string)[];
  /**
   * Pick exchange only: the talon cards you take, distinct, exactly as many as you discard. Must be
   * empty in a blind exchange (you receive the talon's top cards). Violations: BAD_EXCHANGE.
   */
  'take': (string)[];
}
