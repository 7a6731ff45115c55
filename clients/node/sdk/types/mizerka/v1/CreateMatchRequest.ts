// Original file: ../../../proto/mizerka/v1/arena.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../google/protobuf/Struct';
import type { Clock as _mizerka_v1_Clock, Clock__Output as _mizerka_v1_Clock__Output } from '../../mizerka/v1/Clock';
import type { Long } from '@grpc/proto-loader';

/**
 * Create a match.
 */
export interface CreateMatchRequest {
  /**
   * The preset: "mizerka", "mizerka-4p", "mizerka-short", "spoileri", "trjamann" or
   * "manni-major". Unknown: INVALID_ARGUMENT.
   */
  'preset'?: (string);
  /**
   * Options of docs/rules.md section 9 as JSON-like values, e.g. {"deals": 9, "revoke": "penalty",
   * "quotas_plus": [8, 4, 4], "choose_after": "all", "trumps_allow_spades": true}. Numbers must be
   * whole where the option wants a whole number. An unknown option or a bad value:
   * INVALID_ARGUMENT with the rules' explanation. Empty: the preset as it is.
   */
  'options'?: (_google_protobuf_Struct | null);
  /**
   * A text seed, at most 200 characters. "" counts as unset.
   */
  'seed_text'?: (string);
  /**
   * A numeric seed.
   */
  'seed_number'?: (number | string | Long);
  /**
   * Number of games in the match; 0 means 1.
   */
  'games'?: (number);
  /**
   * The clock for every game of the match. Unset: the server's default clock.
   */
  'clock'?: (_mizerka_v1_Clock | null);
  /**
   * The bot ids in seat order (seats[0] sits in seat 0); exactly Ruleset.players entries. A bot may
   * be seated more than once (it then needs one Play stream per seat).
   */
  'seats'?: (string)[];
  /**
   * Seats (indexes into seats) whose bot is not waited for: the referee plays them with the default
   * action from the start and records them forfeited. A league uses this for a bot it has disabled.
   */
  'forfeit_seats'?: (number)[];
  /**
   * Empty (the default): the match's full record becomes public when the match ends. A group name
   * (same rules as a bot name): the match is sealed, its full record admin-only even after it ends,
   * until PublishMatches publishes the group or the match. Use it for matches that share deals or
   * must stay secret together (a league's duplicate sets): a finished one would otherwise show the
   * cards of one still running. The league runner uses one group per league and publishes it when
   * the league has finished.
   */
  'group'?: (string);
  /**
   * The seed the deals are drawn from: the same seed deals the same cards, so anyone who knows it
   * can compute every hand of the match. Unset: the server draws a fresh secret one from a
   * cryptographic random source (every unseeded match has other cards). A seed is never shown to
   * bots or spectators, only to the admin (Match.seed).
   */
  'seed'?: "seed_text"|"seed_number";
}

/**
 * Create a match.
 */
export interface CreateMatchRequest__Output {
  /**
   * The preset: "mizerka", "mizerka-4p", "mizerka-short", "spoileri", "trjamann" or
   * "manni-major". Unknown: INVALID_ARGUMENT.
   */
  'preset': (string);
  /**
   * Options of docs/rules.md section 9 as JSON-like values, e.g. {"deals": 9, "revoke": "penalty",
   * "quotas_plus": [8, 4, 4], "choose_after": "all", "trumps_allow_spades": true}. Numbers must be
   * whole where the option wants a whole number. An unknown option or a bad value:
   * INVALID_ARGUMENT with the rules' explanation. Empty: the preset as it is.
   */
  'options': (_google_protobuf_Struct__Output | null);
  /**
   * A text seed, at most 200 characters. "" counts as unset.
   */
  'seed_text'?: (string);
  /**
   * A numeric seed.
   */
  'seed_number'?: (string);
  /**
   * Number of games in the match; 0 means 1.
   */
  'games': (number);
  /**
   * The clock for every game of the match. Unset: the server's default clock.
   */
  'clock': (_mizerka_v1_Clock__Output | null);
  /**
   * The bot ids in seat order (seats[0] sits in seat 0); exactly Ruleset.players entries. A bot may
   * be seated more than once (it then needs one Play stream per seat).
   */
  'seats': (string)[];
  /**
   * Seats (indexes into seats) whose bot is not waited for: the referee plays them with the default
   * action from the start and records them forfeited. A league uses this for a bot it has disabled.
   */
  'forfeit_seats': (number)[];
  /**
   * Empty (the default): the match's full record becomes public when the match ends. A group name
   * (same rules as a bot name): the match is sealed, its full record admin-only even after it ends,
   * until PublishMatches publishes the group or the match. Use it for matches that share deals or
   * must stay secret together (a league's duplicate sets): a finished one would otherwise show the
   * cards of one still running. The league runner uses one group per league and publishes it when
   * the league has finished.
   */
  'group': (string);
  /**
   * The seed the deals are drawn from: the same seed deals the same cards, so anyone who knows it
   * can compute every hand of the match. Unset: the server draws a fresh secret one from a
   * cryptographic random source (every unseeded match has other cards). A seed is never shown to
   * bots or spectators, only to the admin (Match.seed).
   */
  'seed'?: "seed_text"|"seed_number";
}
