// Original file: ../../../proto/mizerka/v1/game.proto


/**
 * The clock of a game: how long each seat may think. The referee measures from sending a
 * DecisionRequest to receiving the Action it accepts, so network time counts.
 */
export interface Clock {
  /**
   * Milliseconds allowed for each decision before the time bank is drawn on.
   */
  'decision_ms'?: (number);
  /**
   * Milliseconds in each seat's time bank at the start of a game. Time a decision takes beyond
   * decision_ms comes out of the bank; when the bank is also empty the decision times out: the
   * referee applies the default action for you (DefaultApplied, reason TIMEOUT) and counts a strike.
   */
  'bank_ms'?: (number);
  /**
   * Milliseconds added to your bank after every decision you answer in time.
   */
  'increment_ms'?: (number);
  /**
   * Strikes after which the seat is forfeited for the rest of the game: every later decision is
   * taken by the default action without asking (reason FORFEITED). 0 = never. A strike is a
   * timeout, or more than max_retries refused or malformed Actions for one decision.
   */
  'max_strikes'?: (number);
  /**
   * Refused or malformed Actions tolerated for one decision: each gets an ActionError with
   * retry = true; the one after them gets retry = false, a strike and the default action (reason
   * REFUSED). Unset: 5.
   */
  'max_retries'?: (number);
  '_max_retries'?: "max_retries";
}

/**
 * The clock of a game: how long each seat may think. The referee measures from sending a
 * DecisionRequest to receiving the Action it accepts, so network time counts.
 */
export interface Clock__Output {
  /**
   * Milliseconds allowed for each decision before the time bank is drawn on.
   */
  'decision_ms': (number);
  /**
   * Milliseconds in each seat's time bank at the start of a game. Time a decision takes beyond
   * decision_ms comes out of the bank; when the bank is also empty the decision times out: the
   * referee applies the default action for you (DefaultApplied, reason TIMEOUT) and counts a strike.
   */
  'bank_ms': (number);
  /**
   * Milliseconds added to your bank after every decision you answer in time.
   */
  'increment_ms': (number);
  /**
   * Strikes after which the seat is forfeited for the rest of the game: every later decision is
   * taken by the default action without asking (reason FORFEITED). 0 = never. A strike is a
   * timeout, or more than max_retries refused or malformed Actions for one decision.
   */
  'max_strikes': (number);
  /**
   * Refused or malformed Actions tolerated for one decision: each gets an ActionError with
   * retry = true; the one after them gets retry = false, a strike and the default action (reason
   * REFUSED). Unset: 5.
   */
  'max_retries'?: (number);
  '_max_retries'?: "max_retries";
}
