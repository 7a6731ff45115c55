// Original file: ../../../proto/mizerka/v1/game.proto


/**
 * Announce a contract (answer to a DecisionRequest of kind CONTRACT).
 */
export interface ChooseContract {
  /**
   * The contract's name, one of Ruleset.contracts[].name that you have not used yet. A name the
   * ruleset lacks is refused with UNKNOWN_CONTRACT, a used one with CONTRACT_USED.
   */
  'contract'?: (string);
  /**
   * The trump suit for a contract with names_trump ("H", "D", "C", or "S" when allowed): missing
   * -> TRUMP_REQUIRED, not allowed -> TRUMP_NOT_ALLOWED. Must be "" for every other contract
   * (else TRUMP_NOT_ALLOWED). Anything but one suit letter is MALFORMED.
   */
  'trump'?: (string);
}

/**
 * Announce a contract (answer to a DecisionRequest of kind CONTRACT).
 */
export interface ChooseContract__Output {
  /**
   * The contract's name, one of Ruleset.contracts[].name that you have not used yet. A name the
   * ruleset lacks is refused with UNKNOWN_CONTRACT, a used one with CONTRACT_USED.
   */
  'contract': (string);
  /**
   * The trump suit for a contract with names_trump ("H", "D", "C", or "S" when allowed): missing
   * -> TRUMP_REQUIRED, not allowed -> TRUMP_NOT_ALLOWED. Must be "" for every other contract
   * (else TRUMP_NOT_ALLOWED). Anything but one suit letter is MALFORMED.
   */
  'trump': (string);
}
