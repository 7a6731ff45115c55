// Original file: ../../../proto/mizerka/v1/referee.proto

/**
 * Why the referee refused a message: ActionError.error_code. Each value is ActionError.code with
 * the prefix ACTION_ERROR_CODE_ (ACTION_ERROR_CODE_MUST_FOLLOW is code "MUST_FOLLOW").
 * New codes may be added; treat one your stubs do not know (a number without a name) like any
 * refusal, with the given retry.
 */
export const ActionErrorCode = {
  /**
   * Not set: a referee older than this field (read ActionError.code instead). Never sent otherwise.
   */
  ACTION_ERROR_CODE_UNSPECIFIED: 'ACTION_ERROR_CODE_UNSPECIFIED',
  /**
   * An action of another kind than the decision asks for (e.g. a card during the exchange, a major
   * outside the major round).
   */
  ACTION_ERROR_CODE_WRONG_PHASE: 'ACTION_ERROR_CODE_WRONG_PHASE',
  /**
   * A card you do not hold.
   */
  ACTION_ERROR_CODE_CARD_NOT_HELD: 'ACTION_ERROR_CODE_CARD_NOT_HELD',
  /**
   * A card that does not follow the suit led although you hold that suit (under revoke = reject).
   */
  ACTION_ERROR_CODE_MUST_FOLLOW: 'ACTION_ERROR_CODE_MUST_FOLLOW',
  /**
   * A contract you have already declared in this game.
   */
  ACTION_ERROR_CODE_CONTRACT_USED: 'ACTION_ERROR_CODE_CONTRACT_USED',
  /**
   * A contract the ruleset does not have.
   */
  ACTION_ERROR_CODE_UNKNOWN_CONTRACT: 'ACTION_ERROR_CODE_UNKNOWN_CONTRACT',
  /**
   * A contract whose declarer names the trump suit (trumps), without a trump.
   */
  ACTION_ERROR_CODE_TRUMP_REQUIRED: 'ACTION_ERROR_CODE_TRUMP_REQUIRED',
  /**
   * A trump suit that contract may not name, or any trump with a contract that has its own (or none).
   */
  ACTION_ERROR_CODE_TRUMP_NOT_ALLOWED: 'ACTION_ERROR_CODE_TRUMP_NOT_ALLOWED',
  /**
   * An exchange that is not allowed: too many cards, cards not held, a card named twice, take in a
   * blind exchange, take cards not from the talon or of another number than the discards.
   */
  ACTION_ERROR_CODE_BAD_EXCHANGE: 'ACTION_ERROR_CODE_BAD_EXCHANGE',
  /**
   * A major you may not announce now.
   */
  ACTION_ERROR_CODE_BAD_MAJOR: 'ACTION_ERROR_CODE_BAD_MAJOR',
  /**
   * No decision of yours is pending and Action.turn was never asked of you (answered at once,
   * retry = false).
   */
  ACTION_ERROR_CODE_NOT_YOUR_TURN: 'ACTION_ERROR_CODE_NOT_YOUR_TURN',
  /**
   * Action.turn is not the pending turn: a turn of yours already answered or decided for you, or,
   * while a decision of yours is pending, any other turn (retry = false; answer the pending
   * DecisionRequest as usual).
   */
  ACTION_ERROR_CODE_STALE_TURN: 'ACTION_ERROR_CODE_STALE_TURN',
  /**
   * Not an action at all: no action set, a card that is not a card like "1Z", a trump that is not
   * one suit letter.
   */
  ACTION_ERROR_CODE_MALFORMED: 'ACTION_ERROR_CODE_MALFORMED',
  /**
   * Nothing of yours is pending, e.g. an Action between games, or a second Hello.
   */
  ACTION_ERROR_CODE_NOT_EXPECTED: 'ACTION_ERROR_CODE_NOT_EXPECTED',
  /**
   * An action after the deal is over, before the next one is dealt.
   */
  ACTION_ERROR_CODE_DEAL_OVER: 'ACTION_ERROR_CODE_DEAL_OVER',
  /**
   * An action after the game is over.
   */
  ACTION_ERROR_CODE_GAME_OVER: 'ACTION_ERROR_CODE_GAME_OVER',
  /**
   * A value that is no action at all.
   */
  ACTION_ERROR_CODE_UNKNOWN_ACTION: 'ACTION_ERROR_CODE_UNKNOWN_ACTION',
} as const;

/**
 * Why the referee refused a message: ActionError.error_code. Each value is ActionError.code with
 * the prefix ACTION_ERROR_CODE_ (ACTION_ERROR_CODE_MUST_FOLLOW is code "MUST_FOLLOW").
 * New codes may be added; treat one your stubs do not know (a number without a name) like any
 * refusal, with the given retry.
 */
export type ActionErrorCode =
  /**
   * Not set: a referee older than this field (read ActionError.code instead). Never sent otherwise.
   */
  | 'ACTION_ERROR_CODE_UNSPECIFIED'
  | 0
  /**
   * An action of another kind than the decision asks for (e.g. a card during the exchange, a major
   * outside the major round).
   */
  | 'ACTION_ERROR_CODE_WRONG_PHASE'
  | 1
  /**
   * A card you do not hold.
   */
  | 'ACTION_ERROR_CODE_CARD_NOT_HELD'
  | 2
  /**
   * A card that does not follow the suit led although you hold that suit (under revoke = reject).
   */
  | 'ACTION_ERROR_CODE_MUST_FOLLOW'
  | 3
  /**
   * A contract you have already declared in this game.
   */
  | 'ACTION_ERROR_CODE_CONTRACT_USED'
  | 4
  /**
   * A contract the ruleset does not have.
   */
  | 'ACTION_ERROR_CODE_UNKNOWN_CONTRACT'
  | 5
  /**
   * A contract whose declarer names the trump suit (trumps), without a trump.
   */
  | 'ACTION_ERROR_CODE_TRUMP_REQUIRED'
  | 6
  /**
   * A trump suit that contract may not name, or any trump with a contract that has its own (or none).
   */
  | 'ACTION_ERROR_CODE_TRUMP_NOT_ALLOWED'
  | 7
  /**
   * An exchange that is not allowed: too many cards, cards not held, a card named twice, take in a
   * blind exchange, take cards not from the talon or of another number than the discards.
   */
  | 'ACTION_ERROR_CODE_BAD_EXCHANGE'
  | 8
  /**
   * A major you may not announce now.
   */
  | 'ACTION_ERROR_CODE_BAD_MAJOR'
  | 9
  /**
   * No decision of yours is pending and Action.turn was never asked of you (answered at once,
   * retry = false).
   */
  | 'ACTION_ERROR_CODE_NOT_YOUR_TURN'
  | 10
  /**
   * Action.turn is not the pending turn: a turn of yours already answered or decided for you, or,
   * while a decision of yours is pending, any other turn (retry = false; answer the pending
   * DecisionRequest as usual).
   */
  | 'ACTION_ERROR_CODE_STALE_TURN'
  | 11
  /**
   * Not an action at all: no action set, a card that is not a card like "1Z", a trump that is not
   * one suit letter.
   */
  | 'ACTION_ERROR_CODE_MALFORMED'
  | 12
  /**
   * Nothing of yours is pending, e.g. an Action between games, or a second Hello.
   */
  | 'ACTION_ERROR_CODE_NOT_EXPECTED'
  | 13
  /**
   * An action after the deal is over, before the next one is dealt.
   */
  | 'ACTION_ERROR_CODE_DEAL_OVER'
  | 14
  /**
   * An action after the game is over.
   */
  | 'ACTION_ERROR_CODE_GAME_OVER'
  | 15
  /**
   * A value that is no action at all.
   */
  | 'ACTION_ERROR_CODE_UNKNOWN_ACTION'
  | 16

/**
 * Why the referee refused a message: ActionError.error_code. Each value is ActionError.code with
 * the prefix ACTION_ERROR_CODE_ (ACTION_ERROR_CODE_MUST_FOLLOW is code "MUST_FOLLOW").
 * New codes may be added; treat one your stubs do not know (a number without a name) like any
 * refusal, with the given retry.
 */
export type ActionErrorCode__Output = typeof ActionErrorCode[keyof typeof ActionErrorCode]
