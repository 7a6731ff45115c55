// Original file: ../../../proto/mizerka/v1/referee.proto

import type { ActionErrorCode as _mizerka_v1_ActionErrorCode, ActionErrorCode__Output as _mizerka_v1_ActionErrorCode__Output } from '../../mizerka/v1/ActionErrorCode';

/**
 * The referee refused your last message. Nothing in the game changed.
 */
export interface ActionError {
  /**
   * The turn of the refused Action (0 for a refused Hello).
   */
  'turn'?: (number);
  /**
   * Why, as text: the name of error_code without its prefix ACTION_ERROR_CODE_, e.g. "MUST_FOLLOW"
   * (see ActionErrorCode for every code). It came before error_code and is kept, always filled, for
   * bots written against it; a new bot may switch on either. New codes may be added; treat an
   * unknown code like a refusal with the given retry.
   */
  'code'?: (string);
  /**
   * An explanation for people, e.g. "must follow hearts: you hold 4H, QH". Do not parse it.
   */
  'message'?: (string);
  /**
   * True when the decision of this error's turn is still pending: send another Action for that turn,
   * within your time. Always false for NOT_YOUR_TURN and STALE_TURN (that turn is not pending; answer
   * the pending DecisionRequest as usual). False when nothing is pending for you, or when this was one refusal too many for the
   * decision (more than Clock.max_retries): a strike and the default action follow.
   */
  'retry'?: (boolean);
  /**
   * Strikes counted against you in this game so far (timeouts, and decisions with more than
   * Clock.max_retries refusals).
   */
  'strikes'?: (number);
  /**
   * When retry: milliseconds left for this decision before your bank is drawn on, counted from
   * when the referee sent this error (the time you already used is taken off).
   */
  'time_left_ms'?: (number);
  /**
   * When retry: milliseconds left in your time bank after that.
   */
  'bank_ms'?: (number);
  /**
   * Why, as an enum: the same code as `code` (the referee fills both). An older referee fills only
   * `code`, and this field is then ACTION_ERROR_CODE_UNSPECIFIED.
   */
  'error_code'?: (_mizerka_v1_ActionErrorCode);
}

/**
 * The referee refused your last message. Nothing in the game changed.
 */
export interface ActionError__Output {
  /**
   * The turn of the refused Action (0 for a refused Hello).
   */
  'turn': (number);
  /**
   * Why, as text: the name of error_code without its prefix ACTION_ERROR_CODE_, e.g. "MUST_FOLLOW"
   * (see ActionErrorCode for every code). It came before error_code and is kept, always filled, for
   * bots written against it; a new bot may switch on either. New codes may be added; treat an
   * unknown code like a refusal with the given retry.
   */
  'code': (string);
  /**
   * An explanation for people, e.g. "must follow hearts: you hold 4H, QH". Do not parse it.
   */
  'message': (string);
  /**
   * True when the decision of this error's turn is still pending: send another Action for that turn,
   * within your time. Always false for NOT_YOUR_TURN and STALE_TURN (that turn is not pending; answer
   * the pending DecisionRequest as usual). False when nothing is pending for you, or when this was one refusal too many for the
   * decision (more than Clock.max_retries): a strike and the default action follow.
   */
  'retry': (boolean);
  /**
   * Strikes counted against you in this game so far (timeouts, and decisions with more than
   * Clock.max_retries refusals).
   */
  'strikes': (number);
  /**
   * When retry: milliseconds left for this decision before your bank is drawn on, counted from
   * when the referee sent this error (the time you already used is taken off).
   */
  'time_left_ms': (number);
  /**
   * When retry: milliseconds left in your time bank after that.
   */
  'bank_ms': (number);
  /**
   * Why, as an enum: the same code as `code` (the referee fills both). An older referee fills only
   * `code`, and this field is then ACTION_ERROR_CODE_UNSPECIFIED.
   */
  'error_code': (_mizerka_v1_ActionErrorCode__Output);
}
