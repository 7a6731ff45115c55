// Original file: ../../../proto/mizerka/v1/game.proto


/**
 * One seat's exchange, with its cards (only in full disclosures: DealRecord).
 */
export interface ExchangeRecord {
  /**
   * Who exchanged.
   */
  'seat'?: (number);
  /**
   * The cards discarded.
   */
  'discarded'?: (string)[];
  /**
   * The cards taken from the talon.
   */
  'taken'?: (string)[];
}

/**
 * One seat's exchange, with its cards (only in full disclosures: DealRecord).
 */
export interface ExchangeRecord__Output {
  /**
   * Who exchanged.
   */
  'seat': (number);
  /**
   * The cards discarded.
   */
  'discarded': (string)[];
  /**
   * The cards taken from the talon.
   */
  'taken': (string)[];
}
