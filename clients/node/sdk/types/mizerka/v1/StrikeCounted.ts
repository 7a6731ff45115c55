// Original file: ../../../proto/mizerka/v1/events.proto


/**
 * A strike was counted against you (a timeout, or too many refused Actions for one decision).
 */
export interface StrikeCounted {
  /**
   * The turn that timed out.
   */
  'turn'?: (number);
  /**
   * Your strikes in this game so far, this one included.
   */
  'strikes'?: (number);
  /**
   * The limit (Clock.max_strikes); 0 = no limit.
   */
  'max_strikes'?: (number);
  /**
   * True when this strike forfeited the seat for the rest of the game.
   */
  'forfeited'?: (boolean);
}

/**
 * A strike was counted against you (a timeout, or too many refused Actions for one decision).
 */
export interface StrikeCounted__Output {
  /**
   * The turn that timed out.
   */
  'turn': (number);
  /**
   * Your strikes in this game so far, this one included.
   */
  'strikes': (number);
  /**
   * The limit (Clock.max_strikes); 0 = no limit.
   */
  'max_strikes': (number);
  /**
   * True when this strike forfeited the seat for the rest of the game.
   */
  'forfeited': (boolean);
}
