// Original file: ../../../proto/mizerka/v1/events.proto


/**
 * A trick is complete; its winner leads the next one.
 */
export interface TrickWon {
  /**
   * The seat that won the trick.
   */
  'winner'?: (number);
  /**
   * The trick's number within the deal, from 0.
   */
  'trick'?: (number);
}

/**
 * A trick is complete; its winner leads the next one.
 */
export interface TrickWon__Output {
  /**
   * The seat that won the trick.
   */
  'winner': (number);
  /**
   * The trick's number within the deal, from 0.
   */
  'trick': (number);
}
