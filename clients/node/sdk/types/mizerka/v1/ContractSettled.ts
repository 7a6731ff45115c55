// Original file: ../../../proto/mizerka/v1/events.proto


/**
 * The contract is settled: who plays it, what it is, and every seat's quota. The exchange follows.
 */
export interface ContractSettled {
  /**
   * The effective declarer, who exchanges first (or alone, in a pick exchange) and leads.
   */
  'declarer'?: (number);
  /**
   * The contract label: "spades", "mizerka", "hearts major", ...
   */
  'contract'?: (string);
  /**
   * The trump suit ("S", "H", "D", "C"), or "" for none.
   */
  'trump'?: (string);
  /**
   * Each seat's quota in this deal (per seat).
   */
  'quotas'?: (number)[];
  /**
   * True for a major contract (quotas 14 and 1; bonus scoring for 15 or 16 tricks).
   */
  'major'?: (boolean);
  /**
   * True for a minus contract (tricks are bad).
   */
  'minus'?: (boolean);
}

/**
 * The contract is settled: who plays it, what it is, and every seat's quota. The exchange follows.
 */
export interface ContractSettled__Output {
  /**
   * The effective declarer, who exchanges first (or alone, in a pick exchange) and leads.
   */
  'declarer': (number);
  /**
   * The contract label: "spades", "mizerka", "hearts major", ...
   */
  'contract': (string);
  /**
   * The trump suit ("S", "H", "D", "C"), or "" for none.
   */
  'trump': (string);
  /**
   * Each seat's quota in this deal (per seat).
   */
  'quotas': (number)[];
  /**
   * True for a major contract (quotas 14 and 1; bonus scoring for 15 or 16 tricks).
   */
  'major': (boolean);
  /**
   * True for a minus contract (tricks are bad).
   */
  'minus': (boolean);
}
