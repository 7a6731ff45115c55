// Original file: ../../../proto/mizerka/v1/arena.proto

import type { Match as _mizerka_v1_Match, Match__Output as _mizerka_v1_Match__Output } from '../../mizerka/v1/Match';

/**
 * One page of matches.
 */
export interface ListMatchesResponse {
  /**
   * The matches, newest first.
   */
  'matches'?: (_mizerka_v1_Match)[];
  /**
   * The token of the next page; "" when this is the last page.
   */
  'next_page_token'?: (string);
}

/**
 * One page of matches.
 */
export interface ListMatchesResponse__Output {
  /**
   * The matches, newest first.
   */
  'matches': (_mizerka_v1_Match__Output)[];
  /**
   * The token of the next page; "" when this is the last page.
   */
  'next_page_token': (string);
}
