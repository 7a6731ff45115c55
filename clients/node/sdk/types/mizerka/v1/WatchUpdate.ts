// Original file: ../../../proto/mizerka/v1/referee.proto

import type { Ruleset as _mizerka_v1_Ruleset, Ruleset__Output as _mizerka_v1_Ruleset__Output } from '../../mizerka/v1/Ruleset';
import type { SeatView as _mizerka_v1_SeatView, SeatView__Output as _mizerka_v1_SeatView__Output } from '../../mizerka/v1/SeatView';
import type { Event as _mizerka_v1_Event, Event__Output as _mizerka_v1_Event__Output } from '../../mizerka/v1/Event';
import type { DealRecord as _mizerka_v1_DealRecord, DealRecord__Output as _mizerka_v1_DealRecord__Output } from '../../mizerka/v1/DealRecord';

/**
 * One update of a watched match. For a live match (status RUNNING, or PENDING until it starts):
 * the first update of each game carries the spectator view and every public event of that game so
 * far; each later update carries the new public events and the view after them; the game's last
 * update has game_over = true. Spectators never see a hand, the talon or a discard while the match
 * runs (the same deals may come back in a later game of the match, or in another match).
 * Once the match has ended (also right after following it live): one update per finished game,
 * with game_over = true. If the match is public (see Referee.Watch) or you are the admin, it has
 * full = true: the full view at the game's end, every event with full details (DealStarted with
 * hands and talon, CardsExchanged with cards) and a DealRecord per deal. Otherwise full = false:
 * the spectator view at the game's end and the game's public events, exactly what a live spectator
 * saw, and no DealRecord. After the match's last update (match_over = true) the stream ends with
 * status OK; a match that ended before any game finished sends nothing.
 */
export interface WatchUpdate {
  /**
   * The match watched.
   */
  'match_id'?: (string);
  /**
   * The game this update is about, from 0.
   */
  'game_number'?: (number);
  /**
   * True for the full disclosure of a public finished match; false for public information only.
   */
  'full'?: (boolean);
  /**
   * The bot names, in seat order.
   */
  'names'?: (string)[];
  /**
   * The game's ruleset.
   */
  'ruleset'?: (_mizerka_v1_Ruleset | null);
  /**
   * The view after the events below: a spectator view (AUDIENCE_SPECTATOR), or a full view
   * (AUDIENCE_FULL) when full.
   */
  'view'?: (_mizerka_v1_SeatView | null);
  /**
   * The events since the previous update of this game, in order (all of the game's events in its
   * first update and when full).
   */
  'events'?: (_mizerka_v1_Event)[];
  /**
   * When full: every deal of the game, disclosed completely. Empty otherwise.
   */
  'deals'?: (_mizerka_v1_DealRecord)[];
  /**
   * True in the last update of a game.
   */
  'game_over'?: (boolean);
  /**
   * True in the last update of the stream: the match is over.
   */
  'match_over'?: (boolean);
}

/**
 * One update of a watched match. For a live match (status RUNNING, or PENDING until it starts):
 * the first update of each game carries the spectator view and every public event of that game so
 * far; each later update carries the new public events and the view after them; the game's last
 * update has game_over = true. Spectators never see a hand, the talon or a discard while the match
 * runs (the same deals may come back in a later game of the match, or in another match).
 * Once the match has ended (also right after following it live): one update per finished game,
 * with game_over = true. If the match is public (see Referee.Watch) or you are the admin, it has
 * full = true: the full view at the game's end, every event with full details (DealStarted with
 * hands and talon, CardsExchanged with cards) and a DealRecord per deal. Otherwise full = false:
 * the spectator view at the game's end and the game's public events, exactly what a live spectator
 * saw, and no DealRecord. After the match's last update (match_over = true) the stream ends with
 * status OK; a match that ended before any game finished sends nothing.
 */
export interface WatchUpdate__Output {
  /**
   * The match watched.
   */
  'match_id': (string);
  /**
   * The game this update is about, from 0.
   */
  'game_number': (number);
  /**
   * True for the full disclosure of a public finished match; false for public information only.
   */
  'full': (boolean);
  /**
   * The bot names, in seat order.
   */
  'names': (string)[];
  /**
   * The game's ruleset.
   */
  'ruleset': (_mizerka_v1_Ruleset__Output | null);
  /**
   * The view after the events below: a spectator view (AUDIENCE_SPECTATOR), or a full view
   * (AUDIENCE_FULL) when full.
   */
  'view': (_mizerka_v1_SeatView__Output | null);
  /**
   * The events since the previous update of this game, in order (all of the game's events in its
   * first update and when full).
   */
  'events': (_mizerka_v1_Event__Output)[];
  /**
   * When full: every deal of the game, disclosed completely. Empty otherwise.
   */
  'deals': (_mizerka_v1_DealRecord__Output)[];
  /**
   * True in the last update of a game.
   */
  'game_over': (boolean);
  /**
   * True in the last update of the stream: the match is over.
   */
  'match_over': (boolean);
}
