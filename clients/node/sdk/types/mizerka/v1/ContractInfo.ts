// Original file: ../../../proto/mizerka/v1/game.proto


/**
 * One contract of the ruleset.
 */
export interface ContractInfo {
  /**
   * The contract's name, as sent in ChooseContract.contract: "spades", "notrump", "mizerka", ...
   */
  'name'?: (string);
  /**
   * True for a minus contract (misère: tricks are bad, score = quota - tricks, no trumps).
   */
  'minus'?: (boolean);
  /**
   * The contract's fixed trump suit ("S", "H", "D" or "C"), or "" for no trumps or for a contract
   * whose declarer names the trump (see names_trump).
   */
  'trump'?: (string);
  /**
   * True for a contract (like "trumps") whose declarer names the trump suit in
   * ChooseContract.trump; false means ChooseContract.trump must be empty.
   */
  'names_trump'?: (boolean);
  /**
   * The suits that may be named when names_trump is true, e.g. ["H", "D", "C"]; empty otherwise.
   */
  'trump_choices'?: (string)[];
  /**
   * Rank for major contests (manni-major): higher beats lower (grand 5 > hearts 4 > spades 3 >
   * diamonds 2 > clubs 1); 0 means the contract can never be played major.
   */
  'major_rank'?: (number);
}

/**
 * One contract of the ruleset.
 */
export interface ContractInfo__Output {
  /**
   * The contract's name, as sent in ChooseContract.contract: "spades", "notrump", "mizerka", ...
   */
  'name': (string);
  /**
   * True for a minus contract (misère: tricks are bad, score = quota - tricks, no trumps).
   */
  'minus': (boolean);
  /**
   * The contract's fixed trump suit ("S", "H", "D" or "C"), or "" for no trumps or for a contract
   * whose declarer names the trump (see names_trump).
   */
  'trump': (string);
  /**
   * True for a contract (like "trumps") whose declarer names the trump suit in
   * ChooseContract.trump; false means ChooseContract.trump must be empty.
   */
  'names_trump': (boolean);
  /**
   * The suits that may be named when names_trump is true, e.g. ["H", "D", "C"]; empty otherwise.
   */
  'trump_choices': (string)[];
  /**
   * Rank for major contests (manni-major): higher beats lower (grand 5 > hearts 4 > spades 3 >
   * diamonds 2 > clubs 1); 0 means the contract can never be played major.
   */
  'major_rank': (number);
}
