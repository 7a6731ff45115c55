// Original file: ../../../proto/mizerka/v1/game.proto

import type { ChooseContract as _mizerka_v1_ChooseContract, ChooseContract__Output as _mizerka_v1_ChooseContract__Output } from '../../mizerka/v1/ChooseContract';
import type { AnnounceMajor as _mizerka_v1_AnnounceMajor, AnnounceMajor__Output as _mizerka_v1_AnnounceMajor__Output } from '../../mizerka/v1/AnnounceMajor';
import type { ExchangeCards as _mizerka_v1_ExchangeCards, ExchangeCards__Output as _mizerka_v1_ExchangeCards__Output } from '../../mizerka/v1/ExchangeCards';
import type { PlayCard as _mizerka_v1_PlayCard, PlayCard__Output as _mizerka_v1_PlayCard__Output } from '../../mizerka/v1/PlayCard';

/**
 * A bot's answer to one DecisionRequest. Every turn is taken explicitly, even when only one action
 * is legal. DecisionRequest.legal_actions lists ready-made Actions you may send back as they are.
 */
export interface Action {
  /**
   * The turn of the DecisionRequest answered. An Action for any other turn is refused with
   * STALE_TURN (and ignored).
   */
  'turn'?: (number);
  /**
   * For DECISION_KIND_CONTRACT.
   */
  'choose_contract'?: (_mizerka_v1_ChooseContract | null);
  /**
   * For DECISION_KIND_MAJOR.
   */
  'announce_major'?: (_mizerka_v1_AnnounceMajor | null);
  /**
   * For DECISION_KIND_EXCHANGE.
   */
  'exchange_cards'?: (_mizerka_v1_ExchangeCards | null);
  /**
   * For DECISION_KIND_PLAY.
   */
  'play_card'?: (_mizerka_v1_PlayCard | null);
  /**
   * Exactly one of these must be set, matching the decision's kind (else MALFORMED if none,
   * WRONG_PHASE if another kind).
   */
  'action'?: "choose_contract"|"announce_major"|"exchange_cards"|"play_card";
}

/**
 * A bot's answer to one DecisionRequest. Every turn is taken explicitly, even when only one action
 * is legal. DecisionRequest.legal_actions lists ready-made Actions you may send back as they are.
 */
export interface Action__Output {
  /**
   * The turn of the DecisionRequest answered. An Action for any other turn is refused with
   * STALE_TURN (and ignored).
   */
  'turn': (number);
  /**
   * For DECISION_KIND_CONTRACT.
   */
  'choose_contract'?: (_mizerka_v1_ChooseContract__Output | null);
  /**
   * For DECISION_KIND_MAJOR.
   */
  'announce_major'?: (_mizerka_v1_AnnounceMajor__Output | null);
  /**
   * For DECISION_KIND_EXCHANGE.
   */
  'exchange_cards'?: (_mizerka_v1_ExchangeCards__Output | null);
  /**
   * For DECISION_KIND_PLAY.
   */
  'play_card'?: (_mizerka_v1_PlayCard__Output | null);
  /**
   * Exactly one of these must be set, matching the decision's kind (else MALFORMED if none,
   * WRONG_PHASE if another kind).
   */
  'action'?: "choose_contract"|"announce_major"|"exchange_cards"|"play_card";
}
