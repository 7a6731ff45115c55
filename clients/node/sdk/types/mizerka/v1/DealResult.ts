// Original file: ../../../proto/mizerka/v1/game.proto


/**
 * The result of one finished deal, with the totals after it.
 */
export interface DealResult {
  /**
   * The deal number, from 0. A void deal (revoke penalty) is redealt under the same number.
   */
  'deal'?: (number);
  /**
   * How many times this deal number was redealt before this one (0 for the first dealing).
   */
  'redeal'?: (number);
  /**
   * True for an extra tie-break deal.
   */
  'tiebreak'?: (boolean);
  /**
   * The dealer.
   */
  'dealer'?: (number);
  /**
   * The effective declarer: who played the contract (after a major contest it may differ from
   * caller).
   */
  'declarer'?: (number);
  /**
   * The declarer who announced first.
   */
  'caller'?: (number);
  /**
   * The contract played, e.g. "spades", "mizerka", "hearts major".
   */
  'contract'?: (string);
  /**
   * The trump suit ("S", "H", "D", "C") or "" for none.
   */
  'trump'?: (string);
  /**
   * Tricks won by each seat (per seat). In a void deal, the tricks completed before the revoke.
   */
  'tricks'?: (number)[];
  /**
   * The deal's points per seat; they sum to zero except in a void deal (revoker -10, others 0).
   */
  'points'?: (number)[];
  /**
   * True when a revoke voided the deal (revoke = penalty).
   */
  'void'?: (boolean);
  /**
   * The seat that revoked, in a void deal.
   */
  'revoker'?: (number);
  /**
   * Each seat's game total after this deal (per seat).
   */
  'totals'?: (number)[];
  /**
   * True when the contract was played major (contract then reads "<name> major"; quotas 14 and 1).
   */
  'major'?: (boolean);
  '_revoker'?: "revoker";
}

/**
 * The result of one finished deal, with the totals after it.
 */
export interface DealResult__Output {
  /**
   * The deal number, from 0. A void deal (revoke penalty) is redealt under the same number.
   */
  'deal': (number);
  /**
   * How many times this deal number was redealt before this one (0 for the first dealing).
   */
  'redeal': (number);
  /**
   * True for an extra tie-break deal.
   */
  'tiebreak': (boolean);
  /**
   * The dealer.
   */
  'dealer': (number);
  /**
   * The effective declarer: who played the contract (after a major contest it may differ from
   * caller).
   */
  'declarer': (number);
  /**
   * The declarer who announced first.
   */
  'caller': (number);
  /**
   * The contract played, e.g. "spades", "mizerka", "hearts major".
   */
  'contract': (string);
  /**
   * The trump suit ("S", "H", "D", "C") or "" for none.
   */
  'trump': (string);
  /**
   * Tricks won by each seat (per seat). In a void deal, the tricks completed before the revoke.
   */
  'tricks': (number)[];
  /**
   * The deal's points per seat; they sum to zero except in a void deal (revoker -10, others 0).
   */
  'points': (number)[];
  /**
   * True when a revoke voided the deal (revoke = penalty).
   */
  'void': (boolean);
  /**
   * The seat that revoked, in a void deal.
   */
  'revoker'?: (number);
  /**
   * Each seat's game total after this deal (per seat).
   */
  'totals': (number)[];
  /**
   * True when the contract was played major (contract then reads "<name> major"; quotas 14 and 1).
   */
  'major': (boolean);
  '_revoker'?: "revoker";
}
