// Original file: ../../../proto/mizerka/v1/game.proto


/**
 * Announce "<contract> major" or pass (answer to a DecisionRequest of kind MAJOR, manni-major).
 */
export interface AnnounceMajor {
  /**
   * The contract to play major, or "" to pass. A contract you may not announce now is refused with
   * BAD_MAJOR; the DecisionRequest lists the ones you may.
   */
  'contract'?: (string);
}

/**
 * Announce "<contract> major" or pass (answer to a DecisionRequest of kind MAJOR, manni-major).
 */
export interface AnnounceMajor__Output {
  /**
   * The contract to play major, or "" to pass. A contract you may not announce now is refused with
   * BAD_MAJOR; the DecisionRequest lists the ones you may.
   */
  'contract': (string);
}
