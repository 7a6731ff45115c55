// Original file: ../../../proto/mizerka/v1/game.proto

/**
 * Who a SeatView was projected for, which decides which cards it may contain.
 */
export const Audience = {
  /**
   * Never sent.
   */
  AUDIENCE_UNSPECIFIED: 'AUDIENCE_UNSPECIFIED',
  /**
   * One player (SeatView.seat): its own cards only, as docs/rules.md section 10 allows.
   */
  AUDIENCE_SEAT: 'AUDIENCE_SEAT',
  /**
   * A spectator of a live match: public information only, no hand and no talon.
   */
  AUDIENCE_SPECTATOR: 'AUDIENCE_SPECTATOR',
  /**
   * Everything, including every hand and the talon: only for finished matches (Watch) and logs.
   */
  AUDIENCE_FULL: 'AUDIENCE_FULL',
} as const;

/**
 * Who a SeatView was projected for, which decides which cards it may contain.
 */
export type Audience =
  /**
   * Never sent.
   */
  | 'AUDIENCE_UNSPECIFIED'
  | 0
  /**
   * One player (SeatView.seat): its own cards only, as docs/rules.md section 10 allows.
   */
  | 'AUDIENCE_SEAT'
  | 1
  /**
   * A spectator of a live match: public information only, no hand and no talon.
   */
  | 'AUDIENCE_SPECTATOR'
  | 2
  /**
   * Everything, including every hand and the talon: only for finished matches (Watch) and logs.
   */
  | 'AUDIENCE_FULL'
  | 3

/**
 * Who a SeatView was projected for, which decides which cards it may contain.
 */
export type Audience__Output = typeof Audience[keyof typeof Audience]
