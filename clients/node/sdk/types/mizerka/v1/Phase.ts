// Original file: ../../../proto/mizerka/v1/game.proto

/**
 * The stage a deal is in, which is also the kind of decision pending in it.
 */
export const Phase = {
  /**
   * Never sent; a message with this value is from a newer or broken peer.
   */
  PHASE_UNSPECIFIED: 'PHASE_UNSPECIFIED',
  /**
   * The declarer announces a contract (and, for a contract like "trumps", the trump suit).
   */
  PHASE_CONTRACT: 'PHASE_CONTRACT',
  /**
   * manni-major only: players announce or contest "<contract> major", or pass.
   */
  PHASE_MAJOR: 'PHASE_MAJOR',
  /**
   * The exchange with the talon: blind (every player in turn from the declarer) or pick (the
   * declarer alone), see ExchangeKind.
   */
  PHASE_EXCHANGE: 'PHASE_EXCHANGE',
  /**
   * Trick play.
   */
  PHASE_PLAY: 'PHASE_PLAY',
  /**
   * Between deals, before the next deal's cards are dealt. Bots normally never see this phase.
   */
  PHASE_WAITING: 'PHASE_WAITING',
  /**
   * The game is over; SeatView.finished is true.
   */
  PHASE_OVER: 'PHASE_OVER',
} as const;

/**
 * The stage a deal is in, which is also the kind of decision pending in it.
 */
export type Phase =
  /**
   * Never sent; a message with this value is from a newer or broken peer.
   */
  | 'PHASE_UNSPECIFIED'
  | 0
  /**
   * The declarer announces a contract (and, for a contract like "trumps", the trump suit).
   */
  | 'PHASE_CONTRACT'
  | 1
  /**
   * manni-major only: players announce or contest "<contract> major", or pass.
   */
  | 'PHASE_MAJOR'
  | 2
  /**
   * The exchange with the talon: blind (every player in turn from the declarer) or pick (the
   * declarer alone), see ExchangeKind.
   */
  | 'PHASE_EXCHANGE'
  | 3
  /**
   * Trick play.
   */
  | 'PHASE_PLAY'
  | 4
  /**
   * Between deals, before the next deal's cards are dealt. Bots normally never see this phase.
   */
  | 'PHASE_WAITING'
  | 5
  /**
   * The game is over; SeatView.finished is true.
   */
  | 'PHASE_OVER'
  | 6

/**
 * The stage a deal is in, which is also the kind of decision pending in it.
 */
export type Phase__Output = typeof Phase[keyof typeof Phase]
