// Original file: ../../../proto/mizerka/v1/referee.proto


/**
 * The referee refused your last message. Nothing in the game changed.
 */
export interface ActionError {
  /**
   * The turn of the refused Action (0 for a refused Hello).
   */
  'turn'?: (number);
  /**
   * A stable code you may switch on:
   * rules (from the engine): WRONG_PHASE (an action of another kind than asked),
   * CARD_NOT_HELD, MUST_FOLLOW (failed to follow suit under revoke = reject), CONTRACT_USED,
   * UNKNOWN_CONTRACT, TRUMP_REQUIRED, TRUMP_NOT_ALLOWED, BAD_EXCHANGE (too many cards, cards not
   * held, repeated cards, take in a blind exchange, take not from the talon or of another size),
   * BAD_MAJOR (a major you may not announce now);
   * transport: NOT_YOUR_TURN (no decision of yours is pending and Action.turn was never asked of
   * you: answered at once), STALE_TURN (Action.turn is not the pending turn: a turn of yours
   * already answered or decided for you, or, while a decision of yours is pending, any other
   * turn), MALFORMED (not an action at all: no action set, a card that is not a card
   * like "1Z", a trump that is not one suit letter), NOT_EXPECTED (nothing of yours is pending,
   * e.g. an Action between games, or a second Hello).
   * New codes may be added; treat an unknown code like a refusal with the given retry.
   */
  'code'?: (string);
  /**
   * An explanation for people, e.g. "must follow hearts: you hold 4H, QH". Do not parse it.
   */
  'message'?: (string);
  /**
   * True when the decision of this error's turn is still pending: send another Action for that turn,
   * within your time. Always false for NOT_YOUR_TURN and STALE_TURN (that turn is not pending; answer
   * the pending DecisionRequest as usual). False when nothing is pending for you, or when this was one refusal too many for the
   * decision (more than Clock.max_retries): a strike and the default action follow.
   */
  'retry'?: (boolean);
  /**
   * Strikes counted against you in this game so far (timeouts, and decisions with more than
   * Clock.max_retries refusals).
   */
  'strikes'?: (number);
  /**
   * When retry: milliseconds left for this decision before your bank is drawn on, counted from
   * when the referee sent this error (the time you already used is taken off).
   */
  'time_left_ms'?: (number);
  /**
   * When retry: milliseconds left in your time bank after that.
   */
  'bank_ms'?: (number);
}

/**
 * The referee refused your last message. Nothing in the game changed.
 */
export interface ActionError__Output {
  /**
   * The turn of the refused Action (0 for a refused Hello).
   */
  'turn': (number);
  /**
   * A stable code you may switch on:
   * rules (from the engine): WRONG_PHASE (an action of another kind than asked),
   * CARD_NOT_HELD, MUST_FOLLOW (failed to follow suit under revoke = reject), CONTRACT_USED,
   * UNKNOWN_CONTRACT, TRUMP_REQUIRED, TRUMP_NOT_ALLOWED, BAD_EXCHANGE (too many cards, cards not
   * held, repeated cards, take in a blind exchange, take not from the talon or of another size),
   * BAD_MAJOR (a major you may not announce now);
   * transport: NOT_YOUR_TURN (no decision of yours is pending and Action.turn was never asked of
   * you: answered at once), STALE_TURN (Action.turn is not the pending turn: a turn of yours
   * already answered or decided for you, or, while a decision of yours is pending, any other
   * turn), MALFORMED (not an action at all: no action set, a card that is not a card
   * like "1Z", a trump that is not one suit letter), NOT_EXPECTED (nothing of yours is pending,
   * e.g. an Action between games, or a second Hello).
   * New codes may be added; treat an unknown code like a refusal with the given retry.
   */
  'code': (string);
  /**
   * An explanation for people, e.g. "must follow hearts: you hold 4H, QH". Do not parse it.
   */
  'message': (string);
  /**
   * True when the decision of this error's turn is still pending: send another Action for that turn,
   * within your time. Always false for NOT_YOUR_TURN and STALE_TURN (that turn is not pending; answer
   * the pending DecisionRequest as usual). False when nothing is pending for you, or when this was one refusal too many for the
   * decision (more than Clock.max_retries): a strike and the default action follow.
   */
  'retry': (boolean);
  /**
   * Strikes counted against you in this game so far (timeouts, and decisions with more than
   * Clock.max_retries refusals).
   */
  'strikes': (number);
  /**
   * When retry: milliseconds left for this decision before your bank is drawn on, counted from
   * when the referee sent this error (the time you already used is taken off).
   */
  'time_left_ms': (number);
  /**
   * When retry: milliseconds left in your time bank after that.
   */
  'bank_ms': (number);
}
