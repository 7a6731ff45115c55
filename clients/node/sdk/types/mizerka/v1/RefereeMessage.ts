// Original file: ../../../proto/mizerka/v1/referee.proto

import type { Welcome as _mizerka_v1_Welcome, Welcome__Output as _mizerka_v1_Welcome__Output } from '../../mizerka/v1/Welcome';
import type { GameStart as _mizerka_v1_GameStart, GameStart__Output as _mizerka_v1_GameStart__Output } from '../../mizerka/v1/GameStart';
import type { EventBatch as _mizerka_v1_EventBatch, EventBatch__Output as _mizerka_v1_EventBatch__Output } from '../../mizerka/v1/EventBatch';
import type { DecisionRequest as _mizerka_v1_DecisionRequest, DecisionRequest__Output as _mizerka_v1_DecisionRequest__Output } from '../../mizerka/v1/DecisionRequest';
import type { ActionError as _mizerka_v1_ActionError, ActionError__Output as _mizerka_v1_ActionError__Output } from '../../mizerka/v1/ActionError';
import type { GameEnd as _mizerka_v1_GameEnd, GameEnd__Output as _mizerka_v1_GameEnd__Output } from '../../mizerka/v1/GameEnd';

/**
 * A message from the referee to a bot.
 */
export interface RefereeMessage {
  /**
   * The answer to Hello; sent once.
   */
  'welcome'?: (_mizerka_v1_Welcome | null);
  /**
   * A game starts on this stream.
   */
  'game_start'?: (_mizerka_v1_GameStart | null);
  /**
   * What happened in the game since the referee's previous message to you, in order (one or
   * more events; when they are sent depends on Hello.live_events).
   */
  'event_batch'?: (_mizerka_v1_EventBatch | null);
  /**
   * It is your turn: answer with an Action.
   */
  'decision_request'?: (_mizerka_v1_DecisionRequest | null);
  /**
   * Your last message was refused.
   */
  'action_error'?: (_mizerka_v1_ActionError | null);
  /**
   * The game is over.
   */
  'game_end'?: (_mizerka_v1_GameEnd | null);
  /**
   * Exactly one is set.
   */
  'message'?: "welcome"|"game_start"|"event_batch"|"decision_request"|"action_error"|"game_end";
}

/**
 * A message from the referee to a bot.
 */
export interface RefereeMessage__Output {
  /**
   * The answer to Hello; sent once.
   */
  'welcome'?: (_mizerka_v1_Welcome__Output | null);
  /**
   * A game starts on this stream.
   */
  'game_start'?: (_mizerka_v1_GameStart__Output | null);
  /**
   * What happened in the game since the referee's previous message to you, in order (one or
   * more events; when they are sent depends on Hello.live_events).
   */
  'event_batch'?: (_mizerka_v1_EventBatch__Output | null);
  /**
   * It is your turn: answer with an Action.
   */
  'decision_request'?: (_mizerka_v1_DecisionRequest__Output | null);
  /**
   * Your last message was refused.
   */
  'action_error'?: (_mizerka_v1_ActionError__Output | null);
  /**
   * The game is over.
   */
  'game_end'?: (_mizerka_v1_GameEnd__Output | null);
  /**
   * Exactly one is set.
   */
  'message'?: "welcome"|"game_start"|"event_batch"|"decision_request"|"action_error"|"game_end";
}
