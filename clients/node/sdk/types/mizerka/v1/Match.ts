// Original file: ../../../proto/mizerka/v1/arena.proto

import type { MatchStatus as _mizerka_v1_MatchStatus, MatchStatus__Output as _mizerka_v1_MatchStatus__Output } from '../../mizerka/v1/MatchStatus';
import type { Ruleset as _mizerka_v1_Ruleset, Ruleset__Output as _mizerka_v1_Ruleset__Output } from '../../mizerka/v1/Ruleset';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../google/protobuf/Struct';
import type { Clock as _mizerka_v1_Clock, Clock__Output as _mizerka_v1_Clock__Output } from '../../mizerka/v1/Clock';
import type { MatchSeat as _mizerka_v1_MatchSeat, MatchSeat__Output as _mizerka_v1_MatchSeat__Output } from '../../mizerka/v1/MatchSeat';
import type { GameSummary as _mizerka_v1_GameSummary, GameSummary__Output as _mizerka_v1_GameSummary__Output } from '../../mizerka/v1/GameSummary';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../google/protobuf/Timestamp';

/**
 * A match as the admin sees it.
 */
export interface Match {
  /**
   * The match id.
   */
  'match_id'?: (string);
  /**
   * Where it stands.
   */
  'status'?: (_mizerka_v1_MatchStatus);
  /**
   * The ruleset in force (preset with the options applied).
   */
  'ruleset'?: (_mizerka_v1_Ruleset | null);
  /**
   * The options as given in CreateMatchRequest.
   */
  'options'?: (_google_protobuf_Struct | null);
  /**
   * The seed in force, as text (a numeric seed in decimal).
   */
  'seed'?: (string);
  /**
   * Number of games in the match.
   */
  'games'?: (number);
  /**
   * The clock.
   */
  'clock'?: (_mizerka_v1_Clock | null);
  /**
   * The seats, in seat order.
   */
  'seats'?: (_mizerka_v1_MatchSeat)[];
  /**
   * The games played or being played, in order.
   */
  'results'?: (_mizerka_v1_GameSummary)[];
  /**
   * Why the match was aborted; "" otherwise.
   */
  'abort_reason'?: (string);
  /**
   * When the match was created.
   */
  'create_time'?: (_google_protobuf_Timestamp | null);
  /**
   * When it finished or was aborted; unset before.
   */
  'end_time'?: (_google_protobuf_Timestamp | null);
  /**
   * The group given in CreateMatchRequest.group; "" for none.
   */
  'group'?: (string);
  /**
   * True while the full record is admin-only: the match has a group not yet published.
   */
  'sealed'?: (boolean);
}

/**
 * A match as the admin sees it.
 */
export interface Match__Output {
  /**
   * The match id.
   */
  'match_id': (string);
  /**
   * Where it stands.
   */
  'status': (_mizerka_v1_MatchStatus__Output);
  /**
   * The ruleset in force (preset with the options applied).
   */
  'ruleset': (_mizerka_v1_Ruleset__Output | null);
  /**
   * The options as given in CreateMatchRequest.
   */
  'options': (_google_protobuf_Struct__Output | null);
  /**
   * The seed in force, as text (a numeric seed in decimal).
   */
  'seed': (string);
  /**
   * Number of games in the match.
   */
  'games': (number);
  /**
   * The clock.
   */
  'clock': (_mizerka_v1_Clock__Output | null);
  /**
   * The seats, in seat order.
   */
  'seats': (_mizerka_v1_MatchSeat__Output)[];
  /**
   * The games played or being played, in order.
   */
  'results': (_mizerka_v1_GameSummary__Output)[];
  /**
   * Why the match was aborted; "" otherwise.
   */
  'abort_reason': (string);
  /**
   * When the match was created.
   */
  'create_time': (_google_protobuf_Timestamp__Output | null);
  /**
   * When it finished or was aborted; unset before.
   */
  'end_time': (_google_protobuf_Timestamp__Output | null);
  /**
   * The group given in CreateMatchRequest.group; "" for none.
   */
  'group': (string);
  /**
   * True while the full record is admin-only: the match has a group not yet published.
   */
  'sealed': (boolean);
}
