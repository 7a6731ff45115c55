// Original file: ../../../proto/mizerka/v1/game.proto

import type { ContractInfo as _mizerka_v1_ContractInfo, ContractInfo__Output as _mizerka_v1_ContractInfo__Output } from '../../mizerka/v1/ContractInfo';
import type { ExchangeKind as _mizerka_v1_ExchangeKind, ExchangeKind__Output as _mizerka_v1_ExchangeKind__Output } from '../../mizerka/v1/ExchangeKind';
import type { DeclarerMode as _mizerka_v1_DeclarerMode, DeclarerMode__Output as _mizerka_v1_DeclarerMode__Output } from '../../mizerka/v1/DeclarerMode';
import type { RevokeMode as _mizerka_v1_RevokeMode, RevokeMode__Output as _mizerka_v1_RevokeMode__Output } from '../../mizerka/v1/RevokeMode';
import type { TiebreakMode as _mizerka_v1_TiebreakMode, TiebreakMode__Output as _mizerka_v1_TiebreakMode__Output } from '../../mizerka/v1/TiebreakMode';
import type { MisereQuotas as _mizerka_v1_MisereQuotas, MisereQuotas__Output as _mizerka_v1_MisereQuotas__Output } from '../../mizerka/v1/MisereQuotas';

/**
 * The ruleset of a game: the preset and every option in force (docs/rules.md sections 2 and 9).
 */
export interface Ruleset {
  /**
   * The preset name: "mizerka", "mizerka-4p", "mizerka-short", "spoileri", "trjamann" or
   * "manni-major".
   */
  'preset'?: (string);
  /**
   * Number of players (seats): 3 or 4.
   */
  'players'?: (number);
  /**
   * Cards in each hand, which is also the number of tricks in a deal.
   */
  'hand_size'?: (number);
  /**
   * Cards in the talon (52 - players * hand_size).
   */
  'talon_size'?: (number);
  /**
   * The contracts, in the ruleset's order (the default action picks the first one still open).
   */
  'contracts'?: (_mizerka_v1_ContractInfo)[];
  /**
   * Blind or pick exchange.
   */
  'exchange'?: (_mizerka_v1_ExchangeKind);
  /**
   * True when major contracts are announced and contested (manni-major).
   */
  'majors'?: (boolean);
  /**
   * Quotas of plus contracts by position (position = (seat - declarer) % players; 0 is the
   * declarer). Sums to hand_size. The current deal's quota of every seat is already in
   * PlayerState.quota: these tables are for planning contracts ahead.
   */
  'quotas_plus'?: (number)[];
  /**
   * Quotas of minus contracts by position. Sums to hand_size. (A major contract always uses 14 for
   * its declarer and 1 for each other player, whatever these tables say.)
   */
  'quotas_minus'?: (number)[];
  /**
   * True for choose_after = "all": the declarer sees its whole hand before choosing the contract.
   */
  'choose_after_all'?: (boolean);
  /**
   * How many of its cards the declarer sees when it chooses the contract: 6 for choose_after = 6,
   * hand_size for "all". Other players see none of their cards before the contract is announced.
   */
  'cards_seen_before_choice'?: (number);
  /**
   * Who declares each deal.
   */
  'declarer'?: (_mizerka_v1_DeclarerMode);
  /**
   * Number of regular deals in the game (players x contracts unless option `deals` shortens it).
   */
  'deals'?: (number);
  /**
   * What a failure to follow suit does.
   */
  'revoke'?: (_mizerka_v1_RevokeMode);
  /**
   * Tie-break rule at the end of the game.
   */
  'tiebreak'?: (_mizerka_v1_TiebreakMode);
  /**
   * At most this many (non-void) tie-break deals.
   */
  'tiebreak_max'?: (number);
  /**
   * How the minus quota table was derived.
   */
  'misere_quotas'?: (_mizerka_v1_MisereQuotas);
  /**
   * True when spades may be named in a "trumps" contract.
   */
  'trumps_allow_spades'?: (boolean);
  /**
   * The no-trump contract played in tie-break deals: "notrump", "rami" or "grand".
   */
  'tiebreak_contract'?: (string);
}

/**
 * The ruleset of a game: the preset and every option in force (docs/rules.md sections 2 and 9).
 */
export interface Ruleset__Output {
  /**
   * The preset name: "mizerka", "mizerka-4p", "mizerka-short", "spoileri", "trjamann" or
   * "manni-major".
   */
  'preset': (string);
  /**
   * Number of players (seats): 3 or 4.
   */
  'players': (number);
  /**
   * Cards in each hand, which is also the number of tricks in a deal.
   */
  'hand_size': (number);
  /**
   * Cards in the talon (52 - players * hand_size).
   */
  'talon_size': (number);
  /**
   * The contracts, in the ruleset's order (the default action picks the first one still open).
   */
  'contracts': (_mizerka_v1_ContractInfo__Output)[];
  /**
   * Blind or pick exchange.
   */
  'exchange': (_mizerka_v1_ExchangeKind__Output);
  /**
   * True when major contracts are announced and contested (manni-major).
   */
  'majors': (boolean);
  /**
   * Quotas of plus contracts by position (position = (seat - declarer) % players; 0 is the
   * declarer). Sums to hand_size. The current deal's quota of every seat is already in
   * PlayerState.quota: these tables are for planning contracts ahead.
   */
  'quotas_plus': (number)[];
  /**
   * Quotas of minus contracts by position. Sums to hand_size. (A major contract always uses 14 for
   * its declarer and 1 for each other player, whatever these tables say.)
   */
  'quotas_minus': (number)[];
  /**
   * True for choose_after = "all": the declarer sees its whole hand before choosing the contract.
   */
  'choose_after_all': (boolean);
  /**
   * How many of its cards the declarer sees when it chooses the contract: 6 for choose_after = 6,
   * hand_size for "all". Other players see none of their cards before the contract is announced.
   */
  'cards_seen_before_choice': (number);
  /**
   * Who declares each deal.
   */
  'declarer': (_mizerka_v1_DeclarerMode__Output);
  /**
   * Number of regular deals in the game (players x contracts unless option `deals` shortens it).
   */
  'deals': (number);
  /**
   * What a failure to follow suit does.
   */
  'revoke': (_mizerka_v1_RevokeMode__Output);
  /**
   * Tie-break rule at the end of the game.
   */
  'tiebreak': (_mizerka_v1_TiebreakMode__Output);
  /**
   * At most this many (non-void) tie-break deals.
   */
  'tiebreak_max': (number);
  /**
   * How the minus quota table was derived.
   */
  'misere_quotas': (_mizerka_v1_MisereQuotas__Output);
  /**
   * True when spades may be named in a "trumps" contract.
   */
  'trumps_allow_spades': (boolean);
  /**
   * The no-trump contract played in tie-break deals: "notrump", "rami" or "grand".
   */
  'tiebreak_contract': (string);
}
