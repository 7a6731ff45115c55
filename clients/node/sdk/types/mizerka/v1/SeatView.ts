// Original file: ../../../proto/mizerka/v1/game.proto

import type { Audience as _mizerka_v1_Audience, Audience__Output as _mizerka_v1_Audience__Output } from '../../mizerka/v1/Audience';
import type { Phase as _mizerka_v1_Phase, Phase__Output as _mizerka_v1_Phase__Output } from '../../mizerka/v1/Phase';
import type { PlayerState as _mizerka_v1_PlayerState, PlayerState__Output as _mizerka_v1_PlayerState__Output } from '../../mizerka/v1/PlayerState';
import type { Announcement as _mizerka_v1_Announcement, Announcement__Output as _mizerka_v1_Announcement__Output } from '../../mizerka/v1/Announcement';
import type { Trick as _mizerka_v1_Trick, Trick__Output as _mizerka_v1_Trick__Output } from '../../mizerka/v1/Trick';
import type { DealResult as _mizerka_v1_DealResult, DealResult__Output as _mizerka_v1_DealResult__Output } from '../../mizerka/v1/DealResult';

/**
 * A game as one audience may see it: the "legal view" of docs/rules.md section 10. The same message
 * serves a seat (in DecisionRequest), a spectator and a full view (Watch); field comments say what
 * each audience gets. A stateless bot can decide from a DecisionRequest's view alone.
 */
export interface SeatView {
  /**
   * Who this view is for.
   */
  'audience'?: (_mizerka_v1_Audience);
  /**
   * Your seat, when audience is AUDIENCE_SEAT; 0 and meaningless otherwise.
   */
  'seat'?: (number);
  /**
   * The current phase.
   */
  'phase'?: (_mizerka_v1_Phase);
  /**
   * The seat whose decision is pending; absent between deals and after the game.
   */
  'to_act'?: (number);
  /**
   * The current deal number, from 0 (after the last deal: the number the next deal would have).
   */
  'deal'?: (number);
  /**
   * How many times the current deal was redealt after a void deal (0 normally).
   */
  'redeal'?: (number);
  /**
   * True during extra tie-break deals.
   */
  'tiebreak'?: (boolean);
  /**
   * The current dealer; absent in PHASE_WAITING.
   */
  'dealer'?: (number);
  /**
   * The declarer who announces the contract (first); absent in PHASE_WAITING.
   */
  'caller'?: (number);
  /**
   * The effective declarer: equal to caller until a major contest gives the contract to another
   * seat; absent in PHASE_WAITING.
   */
  'declarer'?: (number);
  /**
   * "" before the contract is announced; during the major round the contract announced by the
   * caller; once settled the label played, e.g. "hearts" or "hearts major" (for people: bots read
   * contract_name, contract_major and contract_minus).
   */
  'contract'?: (string);
  /**
   * The trump suit ("S", "H", "D", "C") once announced; "" for none or not yet announced.
   */
  'trump'?: (string);
  /**
   * One entry per seat, in seat order: hands (as the audience may see them), exchange, tricks won,
   * quota, used contracts, total.
   */
  'players'?: (_mizerka_v1_PlayerState)[];
  /**
   * True when `talon` is known: in a full view, or to the declarer of a pick exchange from the
   * exchange on. Nobody else ever sees the talon.
   */
  'talon_known'?: (boolean);
  /**
   * The talon as dealt (top card first), when talon_known.
   */
  'talon'?: (string)[];
  /**
   * Every announcement of the current deal, in order.
   */
  'announcements'?: (_mizerka_v1_Announcement)[];
  /**
   * The completed tricks of the current deal in order, then the trick in progress (if any).
   */
  'tricks'?: (_mizerka_v1_Trick)[];
  /**
   * Every finished deal of the game so far, in order (void deals included).
   */
  'results'?: (_mizerka_v1_DealResult)[];
  /**
   * True once the game is over.
   */
  'finished'?: (boolean);
  /**
   * The name of `contract` as in Ruleset.contracts, without " major": the key to its ContractInfo.
   * "" when contract is "".
   */
  'contract_name'?: (string);
  /**
   * True once a major contract is settled (manni-major; contract then reads "<name> major"): the
   * effective declarer's quota is 14 and every other seat's 1, whatever the quota tables say.
   */
  'contract_major'?: (boolean);
  /**
   * True once a minus (misère) contract is announced: tricks are bad and a seat scores
   * quota - tricks. A major contract is never minus.
   */
  'contract_minus'?: (boolean);
  '_to_act'?: "to_act";
  '_dealer'?: "dealer";
  '_caller'?: "caller";
  '_declarer'?: "declarer";
}

/**
 * A game as one audience may see it: the "legal view" of docs/rules.md section 10. The same message
 * serves a seat (in DecisionRequest), a spectator and a full view (Watch); field comments say what
 * each audience gets. A stateless bot can decide from a DecisionRequest's view alone.
 */
export interface SeatView__Output {
  /**
   * Who this view is for.
   */
  'audience': (_mizerka_v1_Audience__Output);
  /**
   * Your seat, when audience is AUDIENCE_SEAT; 0 and meaningless otherwise.
   */
  'seat': (number);
  /**
   * The current phase.
   */
  'phase': (_mizerka_v1_Phase__Output);
  /**
   * The seat whose decision is pending; absent between deals and after the game.
   */
  'to_act'?: (number);
  /**
   * The current deal number, from 0 (after the last deal: the number the next deal would have).
   */
  'deal': (number);
  /**
   * How many times the current deal was redealt after a void deal (0 normally).
   */
  'redeal': (number);
  /**
   * True during extra tie-break deals.
   */
  'tiebreak': (boolean);
  /**
   * The current dealer; absent in PHASE_WAITING.
   */
  'dealer'?: (number);
  /**
   * The declarer who announces the contract (first); absent in PHASE_WAITING.
   */
  'caller'?: (number);
  /**
   * The effective declarer: equal to caller until a major contest gives the contract to another
   * seat; absent in PHASE_WAITING.
   */
  'declarer'?: (number);
  /**
   * "" before the contract is announced; during the major round the contract announced by the
   * caller; once settled the label played, e.g. "hearts" or "hearts major" (for people: bots read
   * contract_name, contract_major and contract_minus).
   */
  'contract': (string);
  /**
   * The trump suit ("S", "H", "D", "C") once announced; "" for none or not yet announced.
   */
  'trump': (string);
  /**
   * One entry per seat, in seat order: hands (as the audience may see them), exchange, tricks won,
   * quota, used contracts, total.
   */
  'players': (_mizerka_v1_PlayerState__Output)[];
  /**
   * True when `talon` is known: in a full view, or to the declarer of a pick exchange from the
   * exchange on. Nobody else ever sees the talon.
   */
  'talon_known': (boolean);
  /**
   * The talon as dealt (top card first), when talon_known.
   */
  'talon': (string)[];
  /**
   * Every announcement of the current deal, in order.
   */
  'announcements': (_mizerka_v1_Announcement__Output)[];
  /**
   * The completed tricks of the current deal in order, then the trick in progress (if any).
   */
  'tricks': (_mizerka_v1_Trick__Output)[];
  /**
   * Every finished deal of the game so far, in order (void deals included).
   */
  'results': (_mizerka_v1_DealResult__Output)[];
  /**
   * True once the game is over.
   */
  'finished': (boolean);
  /**
   * The name of `contract` as in Ruleset.contracts, without " major": the key to its ContractInfo.
   * "" when contract is "".
   */
  'contract_name': (string);
  /**
   * True once a major contract is settled (manni-major; contract then reads "<name> major"): the
   * effective declarer's quota is 14 and every other seat's 1, whatever the quota tables say.
   */
  'contract_major': (boolean);
  /**
   * True once a minus (misère) contract is announced: tricks are bad and a seat scores
   * quota - tricks. A major contract is never minus.
   */
  'contract_minus': (boolean);
  '_to_act'?: "to_act";
  '_dealer'?: "dealer";
  '_caller'?: "caller";
  '_declarer'?: "declarer";
}
