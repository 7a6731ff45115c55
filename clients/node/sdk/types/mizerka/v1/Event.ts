// Original file: ../../../proto/mizerka/v1/events.proto

import type { DealStarted as _mizerka_v1_DealStarted, DealStarted__Output as _mizerka_v1_DealStarted__Output } from '../../mizerka/v1/DealStarted';
import type { ContractAnnounced as _mizerka_v1_ContractAnnounced, ContractAnnounced__Output as _mizerka_v1_ContractAnnounced__Output } from '../../mizerka/v1/ContractAnnounced';
import type { MajorAnnounced as _mizerka_v1_MajorAnnounced, MajorAnnounced__Output as _mizerka_v1_MajorAnnounced__Output } from '../../mizerka/v1/MajorAnnounced';
import type { ContractSettled as _mizerka_v1_ContractSettled, ContractSettled__Output as _mizerka_v1_ContractSettled__Output } from '../../mizerka/v1/ContractSettled';
import type { CardsExchanged as _mizerka_v1_CardsExchanged, CardsExchanged__Output as _mizerka_v1_CardsExchanged__Output } from '../../mizerka/v1/CardsExchanged';
import type { CardPlayed as _mizerka_v1_CardPlayed, CardPlayed__Output as _mizerka_v1_CardPlayed__Output } from '../../mizerka/v1/CardPlayed';
import type { TrickWon as _mizerka_v1_TrickWon, TrickWon__Output as _mizerka_v1_TrickWon__Output } from '../../mizerka/v1/TrickWon';
import type { Revoked as _mizerka_v1_Revoked, Revoked__Output as _mizerka_v1_Revoked__Output } from '../../mizerka/v1/Revoked';
import type { DealEnded as _mizerka_v1_DealEnded, DealEnded__Output as _mizerka_v1_DealEnded__Output } from '../../mizerka/v1/DealEnded';
import type { DefaultApplied as _mizerka_v1_DefaultApplied, DefaultApplied__Output as _mizerka_v1_DefaultApplied__Output } from '../../mizerka/v1/DefaultApplied';
import type { StrikeCounted as _mizerka_v1_StrikeCounted, StrikeCounted__Output as _mizerka_v1_StrikeCounted__Output } from '../../mizerka/v1/StrikeCounted';

/**
 * Something that happened in the game, sent in order as it happens. Events are for keeping track;
 * you never need to answer one, and a stateless bot may ignore them all (each DecisionRequest holds
 * the full view).
 */
export interface Event {
  /**
   * A deal starts (also a redeal after a void deal).
   */
  'deal_started'?: (_mizerka_v1_DealStarted | null);
  /**
   * The declarer announced a contract.
   */
  'contract_announced'?: (_mizerka_v1_ContractAnnounced | null);
  /**
   * A player announced a major or passed (manni-major).
   */
  'major_announced'?: (_mizerka_v1_MajorAnnounced | null);
  /**
   * The contract and the effective declarer are fixed; the exchange begins.
   */
  'contract_settled'?: (_mizerka_v1_ContractSettled | null);
  /**
   * A player exchanged with the talon.
   */
  'cards_exchanged'?: (_mizerka_v1_CardsExchanged | null);
  /**
   * A card was played to the current trick.
   */
  'card_played'?: (_mizerka_v1_CardPlayed | null);
  /**
   * A trick was completed and won.
   */
  'trick_won'?: (_mizerka_v1_TrickWon | null);
  /**
   * A card failed to follow suit under revoke = penalty: the deal is void (DealEnded follows).
   */
  'revoked'?: (_mizerka_v1_Revoked | null);
  /**
   * A deal ended, with its result and the totals after it.
   */
  'deal_ended'?: (_mizerka_v1_DealEnded | null);
  /**
   * The referee took one of your decisions for you (sent only to the seat concerned).
   */
  'default_applied'?: (_mizerka_v1_DefaultApplied | null);
  /**
   * A strike was counted against you (sent only to the seat concerned).
   */
  'strike_counted'?: (_mizerka_v1_StrikeCounted | null);
  /**
   * Exactly one kind is set.
   */
  'kind'?: "deal_started"|"contract_announced"|"major_announced"|"contract_settled"|"cards_exchanged"|"card_played"|"trick_won"|"revoked"|"deal_ended"|"default_applied"|"strike_counted";
}

/**
 * Something that happened in the game, sent in order as it happens. Events are for keeping track;
 * you never need to answer one, and a stateless bot may ignore them all (each DecisionRequest holds
 * the full view).
 */
export interface Event__Output {
  /**
   * A deal starts (also a redeal after a void deal).
   */
  'deal_started'?: (_mizerka_v1_DealStarted__Output | null);
  /**
   * The declarer announced a contract.
   */
  'contract_announced'?: (_mizerka_v1_ContractAnnounced__Output | null);
  /**
   * A player announced a major or passed (manni-major).
   */
  'major_announced'?: (_mizerka_v1_MajorAnnounced__Output | null);
  /**
   * The contract and the effective declarer are fixed; the exchange begins.
   */
  'contract_settled'?: (_mizerka_v1_ContractSettled__Output | null);
  /**
   * A player exchanged with the talon.
   */
  'cards_exchanged'?: (_mizerka_v1_CardsExchanged__Output | null);
  /**
   * A card was played to the current trick.
   */
  'card_played'?: (_mizerka_v1_CardPlayed__Output | null);
  /**
   * A trick was completed and won.
   */
  'trick_won'?: (_mizerka_v1_TrickWon__Output | null);
  /**
   * A card failed to follow suit under revoke = penalty: the deal is void (DealEnded follows).
   */
  'revoked'?: (_mizerka_v1_Revoked__Output | null);
  /**
   * A deal ended, with its result and the totals after it.
   */
  'deal_ended'?: (_mizerka_v1_DealEnded__Output | null);
  /**
   * The referee took one of your decisions for you (sent only to the seat concerned).
   */
  'default_applied'?: (_mizerka_v1_DefaultApplied__Output | null);
  /**
   * A strike was counted against you (sent only to the seat concerned).
   */
  'strike_counted'?: (_mizerka_v1_StrikeCounted__Output | null);
  /**
   * Exactly one kind is set.
   */
  'kind'?: "deal_started"|"contract_announced"|"major_announced"|"contract_settled"|"cards_exchanged"|"card_played"|"trick_won"|"revoked"|"deal_ended"|"default_applied"|"strike_counted";
}
