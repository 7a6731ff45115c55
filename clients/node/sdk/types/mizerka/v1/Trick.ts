// Original file: ../../../proto/mizerka/v1/game.proto

import type { TrickPlay as _mizerka_v1_TrickPlay, TrickPlay__Output as _mizerka_v1_TrickPlay__Output } from '../../mizerka/v1/TrickPlay';

/**
 * One trick of the current deal.
 */
export interface Trick {
  /**
   * The seat that led to the trick.
   */
  'leader'?: (number);
  /**
   * The cards played so far, in play order (the first is the lead).
   */
  'plays'?: (_mizerka_v1_TrickPlay)[];
  /**
   * The seat that won the trick; absent while the trick is in progress.
   */
  'winner'?: (number);
  /**
   * The seat whose card wins the trick so far, by the referee's own rule (the highest trump
   * played, else the highest card of the suit led): the leader after the first card, then updated
   * with every card; equal to winner once the trick is complete. Absent only in a trick with no
   * card, which is never sent. Read it rather than recompute it: "can my card still win?" is then
   * one comparison with this seat's card.
   */
  'winning'?: (number);
  '_winner'?: "winner";
  '_winning'?: "winning";
}

/**
 * One trick of the current deal.
 */
export interface Trick__Output {
  /**
   * The seat that led to the trick.
   */
  'leader': (number);
  /**
   * The cards played so far, in play order (the first is the lead).
   */
  'plays': (_mizerka_v1_TrickPlay__Output)[];
  /**
   * The seat that won the trick; absent while the trick is in progress.
   */
  'winner'?: (number);
  /**
   * The seat whose card wins the trick so far, by the referee's own rule (the highest trump
   * played, else the highest card of the suit led): the leader after the first card, then updated
   * with every card; equal to winner once the trick is complete. Absent only in a trick with no
   * card, which is never sent. Read it rather than recompute it: "can my card still win?" is then
   * one comparison with this seat's card.
   */
  'winning'?: (number);
  '_winner'?: "winner";
  '_winning'?: "winning";
}
