// Original file: ../../../proto/mizerka/v1/events.proto

import type { Action as _mizerka_v1_Action, Action__Output as _mizerka_v1_Action__Output } from '../../mizerka/v1/Action';
import type { DefaultReason as _mizerka_v1_DefaultReason, DefaultReason__Output as _mizerka_v1_DefaultReason__Output } from '../../mizerka/v1/DefaultReason';

/**
 * The referee applied the default action for you. The default action is: the first contract you
 * have not used, in the ruleset's order (a "trumps" contract with the first allowed suit); a pass in
 * a major round; no exchange (discard nothing); the lowest legal card (by suit S, H, D, C, then rank).
 */
export interface DefaultApplied {
  /**
   * The turn it answered. An Action you send for it afterwards is refused with STALE_TURN.
   */
  'turn'?: (number);
  /**
   * The action applied.
   */
  'action'?: (_mizerka_v1_Action | null);
  /**
   * Why.
   */
  'reason'?: (_mizerka_v1_DefaultReason);
}

/**
 * The referee applied the default action for you. The default action is: the first contract you
 * have not used, in the ruleset's order (a "trumps" contract with the first allowed suit); a pass in
 * a major round; no exchange (discard nothing); the lowest legal card (by suit S, H, D, C, then rank).
 */
export interface DefaultApplied__Output {
  /**
   * The turn it answered. An Action you send for it afterwards is refused with STALE_TURN.
   */
  'turn': (number);
  /**
   * The action applied.
   */
  'action': (_mizerka_v1_Action__Output | null);
  /**
   * Why.
   */
  'reason': (_mizerka_v1_DefaultReason__Output);
}
