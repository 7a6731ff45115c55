// Original file: ../../../proto/mizerka/v1/game.proto

import type { AnnouncementKind as _mizerka_v1_AnnouncementKind, AnnouncementKind__Output as _mizerka_v1_AnnouncementKind__Output } from '../../mizerka/v1/AnnouncementKind';

/**
 * One announcement of the current deal, in the order made.
 */
export interface Announcement {
  /**
   * Who announced.
   */
  'seat'?: (number);
  /**
   * A contract announcement or a major announcement.
   */
  'kind'?: (_mizerka_v1_AnnouncementKind);
  /**
   * The contract announced; for a major announcement the contract played major, or "" for a pass.
   * (The trump named with a "trumps" contract is in SeatView.trump.)
   */
  'contract'?: (string);
}

/**
 * One announcement of the current deal, in the order made.
 */
export interface Announcement__Output {
  /**
   * Who announced.
   */
  'seat': (number);
  /**
   * A contract announcement or a major announcement.
   */
  'kind': (_mizerka_v1_AnnouncementKind__Output);
  /**
   * The contract announced; for a major announcement the contract played major, or "" for a pass.
   * (The trump named with a "trumps" contract is in SeatView.trump.)
   */
  'contract': (string);
}
