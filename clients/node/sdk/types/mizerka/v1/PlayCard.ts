// Original file: ../../../proto/mizerka/v1/game.proto


/**
 * Play a card (answer to a DecisionRequest of kind PLAY).
 */
export interface PlayCard {
  /**
   * The card, e.g. "7S". Not held -> CARD_NOT_HELD; failing to follow suit -> MUST_FOLLOW (with
   * revoke = reject) or a revoke (with revoke = penalty).
   */
  'card'?: (string);
}

/**
 * Play a card (answer to a DecisionRequest of kind PLAY).
 */
export interface PlayCard__Output {
  /**
   * The card, e.g. "7S". Not held -> CARD_NOT_HELD; failing to follow suit -> MUST_FOLLOW (with
   * revoke = reject) or a revoke (with revoke = penalty).
   */
  'card': (string);
}
