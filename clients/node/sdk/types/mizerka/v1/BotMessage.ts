// Original file: ../../../proto/mizerka/v1/referee.proto

import type { Hello as _mizerka_v1_Hello, Hello__Output as _mizerka_v1_Hello__Output } from '../../mizerka/v1/Hello';
import type { Action as _mizerka_v1_Action, Action__Output as _mizerka_v1_Action__Output } from '../../mizerka/v1/Action';

/**
 * A message from a bot to the referee.
 */
export interface BotMessage {
  /**
   * The first message of every stream, and only the first.
   */
  'hello'?: (_mizerka_v1_Hello | null);
  /**
   * An answer to the pending DecisionRequest.
   */
  'action'?: (_mizerka_v1_Action | null);
  /**
   * Exactly one is set.
   */
  'message'?: "hello"|"action";
}

/**
 * A message from a bot to the referee.
 */
export interface BotMessage__Output {
  /**
   * The first message of every stream, and only the first.
   */
  'hello'?: (_mizerka_v1_Hello__Output | null);
  /**
   * An answer to the pending DecisionRequest.
   */
  'action'?: (_mizerka_v1_Action__Output | null);
  /**
   * Exactly one is set.
   */
  'message'?: "hello"|"action";
}
