// Original file: ../../../proto/mizerka/v1/events.proto

import type { SeatCards as _mizerka_v1_SeatCards, SeatCards__Output as _mizerka_v1_SeatCards__Output } from '../../mizerka/v1/SeatCards';

/**
 * A deal starts: the cards are dealt. Your own cards arrive with your next DecisionRequest's view
 * (with choose_after = 6 only the declarer sees any of its cards before the contract is announced).
 */
export interface DealStarted {
  /**
   * The deal number, from 0.
   */
  'deal'?: (number);
  /**
   * 0 for a first dealing; n for the n-th redeal of this deal number after a void deal.
   */
  'redeal'?: (number);
  /**
   * True for an extra tie-break deal: its contract is settled at once (no choice, no majors).
   */
  'tiebreak'?: (boolean);
  /**
   * The dealer.
   */
  'dealer'?: (number);
  /**
   * The declarer, who announces the contract and leads the first trick.
   */
  'declarer'?: (number);
  /**
   * Full disclosure only (a finished match's record): every hand as dealt, in the order dealt.
   * Empty for players and spectators.
   */
  'hands'?: (_mizerka_v1_SeatCards)[];
  /**
   * Full disclosure only: the talon as dealt, top card first. Empty for players and spectators.
   */
  'talon'?: (string)[];
}

/**
 * A deal starts: the cards are dealt. Your own cards arrive with your next DecisionRequest's view
 * (with choose_after = 6 only the declarer sees any of its cards before the contract is announced).
 */
export interface DealStarted__Output {
  /**
   * The deal number, from 0.
   */
  'deal': (number);
  /**
   * 0 for a first dealing; n for the n-th redeal of this deal number after a void deal.
   */
  'redeal': (number);
  /**
   * True for an extra tie-break deal: its contract is settled at once (no choice, no majors).
   */
  'tiebreak': (boolean);
  /**
   * The dealer.
   */
  'dealer': (number);
  /**
   * The declarer, who announces the contract and leads the first trick.
   */
  'declarer': (number);
  /**
   * Full disclosure only (a finished match's record): every hand as dealt, in the order dealt.
   * Empty for players and spectators.
   */
  'hands': (_mizerka_v1_SeatCards__Output)[];
  /**
   * Full disclosure only: the talon as dealt, top card first. Empty for players and spectators.
   */
  'talon': (string)[];
}
