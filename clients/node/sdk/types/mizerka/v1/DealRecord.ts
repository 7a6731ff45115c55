// Original file: ../../../proto/mizerka/v1/game.proto

import type { DealResult as _mizerka_v1_DealResult, DealResult__Output as _mizerka_v1_DealResult__Output } from '../../mizerka/v1/DealResult';
import type { SeatCards as _mizerka_v1_SeatCards, SeatCards__Output as _mizerka_v1_SeatCards__Output } from '../../mizerka/v1/SeatCards';
import type { Announcement as _mizerka_v1_Announcement, Announcement__Output as _mizerka_v1_Announcement__Output } from '../../mizerka/v1/Announcement';
import type { ExchangeRecord as _mizerka_v1_ExchangeRecord, ExchangeRecord__Output as _mizerka_v1_ExchangeRecord__Output } from '../../mizerka/v1/ExchangeRecord';
import type { Trick as _mizerka_v1_Trick, Trick__Output as _mizerka_v1_Trick__Output } from '../../mizerka/v1/Trick';

/**
 * Everything about one finished deal, disclosed in full: sent only for finished matches (Watch).
 */
export interface DealRecord {
  /**
   * The outcome (deal number, dealer, declarer, contract, tricks, points, totals).
   */
  'result'?: (_mizerka_v1_DealResult | null);
  /**
   * Each seat's hand as dealt, in the order dealt (with choose_after = 6 the first 6 are the cards
   * the declarer saw before choosing).
   */
  'hands'?: (_mizerka_v1_SeatCards)[];
  /**
   * The talon as dealt, top card first.
   */
  'talon'?: (string)[];
  /**
   * Every announcement of the deal, in order.
   */
  'announcements'?: (_mizerka_v1_Announcement)[];
  /**
   * Every exchange of the deal, in order, with its cards.
   */
  'exchanges'?: (_mizerka_v1_ExchangeRecord)[];
  /**
   * Every trick of the deal, in order (up to the revoke in a void deal).
   */
  'tricks'?: (_mizerka_v1_Trick)[];
  /**
   * The card that revoked, in a void deal; "" otherwise.
   */
  'revoke_card'?: (string);
}

/**
 * Everything about one finished deal, disclosed in full: sent only for finished matches (Watch).
 */
export interface DealRecord__Output {
  /**
   * The outcome (deal number, dealer, declarer, contract, tricks, points, totals).
   */
  'result': (_mizerka_v1_DealResult__Output | null);
  /**
   * Each seat's hand as dealt, in the order dealt (with choose_after = 6 the first 6 are the cards
   * the declarer saw before choosing).
   */
  'hands': (_mizerka_v1_SeatCards__Output)[];
  /**
   * The talon as dealt, top card first.
   */
  'talon': (string)[];
  /**
   * Every announcement of the deal, in order.
   */
  'announcements': (_mizerka_v1_Announcement__Output)[];
  /**
   * Every exchange of the deal, in order, with its cards.
   */
  'exchanges': (_mizerka_v1_ExchangeRecord__Output)[];
  /**
   * Every trick of the deal, in order (up to the revoke in a void deal).
   */
  'tricks': (_mizerka_v1_Trick__Output)[];
  /**
   * The card that revoked, in a void deal; "" otherwise.
   */
  'revoke_card': (string);
}
