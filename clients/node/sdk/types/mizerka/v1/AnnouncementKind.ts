// Original file: ../../../proto/mizerka/v1/game.proto

/**
 * What kind of announcement an Announcement records.
 */
export const AnnouncementKind = {
  /**
   * Never sent.
   */
  ANNOUNCEMENT_KIND_UNSPECIFIED: 'ANNOUNCEMENT_KIND_UNSPECIFIED',
  /**
   * The declarer announced a contract.
   */
  ANNOUNCEMENT_KIND_CONTRACT: 'ANNOUNCEMENT_KIND_CONTRACT',
  /**
   * A player announced "<contract> major" or passed (manni-major).
   */
  ANNOUNCEMENT_KIND_MAJOR: 'ANNOUNCEMENT_KIND_MAJOR',
} as const;

/**
 * What kind of announcement an Announcement records.
 */
export type AnnouncementKind =
  /**
   * Never sent.
   */
  | 'ANNOUNCEMENT_KIND_UNSPECIFIED'
  | 0
  /**
   * The declarer announced a contract.
   */
  | 'ANNOUNCEMENT_KIND_CONTRACT'
  | 1
  /**
   * A player announced "<contract> major" or passed (manni-major).
   */
  | 'ANNOUNCEMENT_KIND_MAJOR'
  | 2

/**
 * What kind of announcement an Announcement records.
 */
export type AnnouncementKind__Output = typeof AnnouncementKind[keyof typeof AnnouncementKind]
