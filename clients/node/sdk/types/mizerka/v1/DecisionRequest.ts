// Original file: ../../../proto/mizerka/v1/referee.proto

import type { DecisionKind as _mizerka_v1_DecisionKind, DecisionKind__Output as _mizerka_v1_DecisionKind__Output } from '../../mizerka/v1/DecisionKind';
import type { SeatView as _mizerka_v1_SeatView, SeatView__Output as _mizerka_v1_SeatView__Output } from '../../mizerka/v1/SeatView';
import type { Action as _mizerka_v1_Action, Action__Output as _mizerka_v1_Action__Output } from '../../mizerka/v1/Action';
import type { ExchangeOptions as _mizerka_v1_ExchangeOptions, ExchangeOptions__Output as _mizerka_v1_ExchangeOptions__Output } from '../../mizerka/v1/ExchangeOptions';
import type { Ruleset as _mizerka_v1_Ruleset, Ruleset__Output as _mizerka_v1_Ruleset__Output } from '../../mizerka/v1/Ruleset';
import type { Event as _mizerka_v1_Event, Event__Output as _mizerka_v1_Event__Output } from '../../mizerka/v1/Event';

/**
 * It is your turn. Answer with one Action carrying this turn within the time given. The clock
 * runs from when the referee sends this message until it accepts your Action; refused Actions do not
 * stop it.
 */
export interface DecisionRequest {
  /**
   * The turn number: unique within this stream's game and increasing (not necessarily by 1), from 1.
   * Copy it into Action.turn.
   */
  'turn'?: (number);
  /**
   * What to decide.
   */
  'kind'?: (_mizerka_v1_DecisionKind);
  /**
   * Your full legal view of the game (your cards, the table, scores): everything a stateless bot
   * needs, together with ruleset below.
   */
  'view'?: (_mizerka_v1_SeatView | null);
  /**
   * The legal actions, ready to send back unchanged (their turn is set), for kinds CONTRACT, MAJOR
   * (a pass is the AnnounceMajor with contract "") and PLAY. Empty for EXCHANGE, whose legal
   * actions are too many to list: see exchange.
   */
  'legal_actions'?: (_mizerka_v1_Action)[];
  /**
   * Set for kind EXCHANGE only.
   */
  'exchange'?: (_mizerka_v1_ExchangeOptions | null);
  /**
   * Milliseconds allowed for this decision before your bank is drawn on.
   */
  'time_left_ms'?: (number);
  /**
   * Milliseconds left in your time bank. You time out when time_left_ms + bank_ms have passed,
   * counted on the referee's clock less its own pauses (a garbage collection of a few hundred
   * milliseconds at a thousand matches): while the referee stands still, your clock does too.
   * An Action that reaches the referee in time is in time, however long a busy referee takes to
   * get to it, and you are charged only until it arrived.
   */
  'bank_ms'?: (number);
  /**
   * The ruleset (the same as in GameStart), repeated so that a stateless bot needs nothing else.
   */
  'ruleset'?: (_mizerka_v1_Ruleset | null);
  /**
   * The events since the referee's previous message to you, in order; they happened before this
   * decision (the referee folds them in here rather than sending an EventBatch first). The view
   * already reflects them.
   */
  'events'?: (_mizerka_v1_Event)[];
  /**
   * The action the referee plays for you if you time out (or are forfeited or disconnected), ready
   * to send back unchanged (its turn is set): the first contract still open (in the ruleset's order,
   * trumps in the first allowed suit), a pass in major rounds (AnnounceMajor with contract ""), no
   * exchange (ExchangeCards with discard and take empty), the lowest legal card (by suit S, H, D, C,
   * then rank). It is legal and always set; for CONTRACT, MAJOR and PLAY it is one of
   * legal_actions. Send it to play as the referee would, or use it as a fallback of your own.
   * Referees before this field leave it unset (no action in the oneof).
   */
  'default_action'?: (_mizerka_v1_Action | null);
  /**
   * Kind PLAY only: for each of legal_actions, at the same index, whether that card would take the
   * trick as it stands -- win it if nobody played after you (docs/rules.md §4.5: the highest card of
   * the suit led, unless trumped; the highest trump wins). When you lead, every entry is true (your
   * card alone holds the trick). It says nothing about the cards still to come. So
   * takes_trick.size() == legal_actions.size() for PLAY, and takes_trick is empty for the other kinds
   * (and from referees before this field: an empty list with legal cards means "not told").
   */
  'takes_trick'?: (boolean)[];
}

/**
 * It is your turn. Answer with one Action carrying this turn within the time given. The clock
 * runs from when the referee sends this message until it accepts your Action; refused Actions do not
 * stop it.
 */
export interface DecisionRequest__Output {
  /**
   * The turn number: unique within this stream's game and increasing (not necessarily by 1), from 1.
   * Copy it into Action.turn.
   */
  'turn': (number);
  /**
   * What to decide.
   */
  'kind': (_mizerka_v1_DecisionKind__Output);
  /**
   * Your full legal view of the game (your cards, the table, scores): everything a stateless bot
   * needs, together with ruleset below.
   */
  'view': (_mizerka_v1_SeatView__Output | null);
  /**
   * The legal actions, ready to send back unchanged (their turn is set), for kinds CONTRACT, MAJOR
   * (a pass is the AnnounceMajor with contract "") and PLAY. Empty for EXCHANGE, whose legal
   * actions are too many to list: see exchange.
   */
  'legal_actions': (_mizerka_v1_Action__Output)[];
  /**
   * Set for kind EXCHANGE only.
   */
  'exchange': (_mizerka_v1_ExchangeOptions__Output | null);
  /**
   * Milliseconds allowed for this decision before your bank is drawn on.
   */
  'time_left_ms': (number);
  /**
   * Milliseconds left in your time bank. You time out when time_left_ms + bank_ms have passed,
   * counted on the referee's clock less its own pauses (a garbage collection of a few hundred
   * milliseconds at a thousand matches): while the referee stands still, your clock does too.
   * An Action that reaches the referee in time is in time, however long a busy referee takes to
   * get to it, and you are charged only until it arrived.
   */
  'bank_ms': (number);
  /**
   * The ruleset (the same as in GameStart), repeated so that a stateless bot needs nothing else.
   */
  'ruleset': (_mizerka_v1_Ruleset__Output | null);
  /**
   * The events since the referee's previous message to you, in order; they happened before this
   * decision (the referee folds them in here rather than sending an EventBatch first). The view
   * already reflects them.
   */
  'events': (_mizerka_v1_Event__Output)[];
  /**
   * The action the referee plays for you if you time out (or are forfeited or disconnected), ready
   * to send back unchanged (its turn is set): the first contract still open (in the ruleset's order,
   * trumps in the first allowed suit), a pass in major rounds (AnnounceMajor with contract ""), no
   * exchange (ExchangeCards with discard and take empty), the lowest legal card (by suit S, H, D, C,
   * then rank). It is legal and always set; for CONTRACT, MAJOR and PLAY it is one of
   * legal_actions. Send it to play as the referee would, or use it as a fallback of your own.
   * Referees before this field leave it unset (no action in the oneof).
   */
  'default_action': (_mizerka_v1_Action__Output | null);
  /**
   * Kind PLAY only: for each of legal_actions, at the same index, whether that card would take the
   * trick as it stands -- win it if nobody played after you (docs/rules.md §4.5: the highest card of
   * the suit led, unless trumped; the highest trump wins). When you lead, every entry is true (your
   * card alone holds the trick). It says nothing about the cards still to come. So
   * takes_trick.size() == legal_actions.size() for PLAY, and takes_trick is empty for the other kinds
   * (and from referees before this field: an empty list with legal cards means "not told").
   */
  'takes_trick': (boolean)[];
}
