// Original file: ../../../proto/mizerka/v1/events.proto


/**
 * The declarer announced a contract. In manni-major a plus contract then opens the major round.
 */
export interface ContractAnnounced {
  /**
   * The declarer who announced.
   */
  'seat'?: (number);
  /**
   * The contract's name, e.g. "hearts".
   */
  'contract'?: (string);
  /**
   * The trump suit it brings ("S", "H", "D", "C"), or "" for none.
   */
  'trump'?: (string);
}

/**
 * The declarer announced a contract. In manni-major a plus contract then opens the major round.
 */
export interface ContractAnnounced__Output {
  /**
   * The declarer who announced.
   */
  'seat': (number);
  /**
   * The contract's name, e.g. "hearts".
   */
  'contract': (string);
  /**
   * The trump suit it brings ("S", "H", "D", "C"), or "" for none.
   */
  'trump': (string);
}
