// Original file: ../../../proto/mizerka/v1/arena.proto

import type { MatchStatus as _mizerka_v1_MatchStatus, MatchStatus__Output as _mizerka_v1_MatchStatus__Output } from '../../mizerka/v1/MatchStatus';

/**
 * List matches.
 */
export interface ListMatchesRequest {
  /**
   * Only matches with this status; MATCH_STATUS_UNSPECIFIED lists all.
   */
  'status'?: (_mizerka_v1_MatchStatus);
  /**
   * At most this many matches per page; 0 means 50, more than 500 is treated as 500.
   */
  'page_size'?: (number);
  /**
   * "" for the first page, else next_page_token of the previous response (with the same status).
   * Anything else: INVALID_ARGUMENT.
   */
  'page_token'?: (string);
}

/**
 * List matches.
 */
export interface ListMatchesRequest__Output {
  /**
   * Only matches with this status; MATCH_STATUS_UNSPECIFIED lists all.
   */
  'status': (_mizerka_v1_MatchStatus__Output);
  /**
   * At most this many matches per page; 0 means 50, more than 500 is treated as 500.
   */
  'page_size': (number);
  /**
   * "" for the first page, else next_page_token of the previous response (with the same status).
   * Anything else: INVALID_ARGUMENT.
   */
  'page_token': (string);
}
