// Original file: ../../../proto/mizerka/v1/events.proto

/**
 * Why the referee took a decision for you.
 */
export const DefaultReason = {
  /**
   * Never sent.
   */
  DEFAULT_REASON_UNSPECIFIED: 'DEFAULT_REASON_UNSPECIFIED',
  /**
   * You did not answer within your time (decision time plus bank); a strike is counted too.
   */
  DEFAULT_REASON_TIMEOUT: 'DEFAULT_REASON_TIMEOUT',
  /**
   * You reached Clock.max_strikes: the rest of this game is played for you without asking.
   */
  DEFAULT_REASON_FORFEITED: 'DEFAULT_REASON_FORFEITED',
  /**
   * Your stream closed: the rest of the game is played for you.
   */
  DEFAULT_REASON_DISCONNECTED: 'DEFAULT_REASON_DISCONNECTED',
  /**
   * You sent more than Clock.max_retries refused or malformed Actions for this decision; a strike is
   * counted too.
   */
  DEFAULT_REASON_REFUSED: 'DEFAULT_REASON_REFUSED',
} as const;

/**
 * Why the referee took a decision for you.
 */
export type DefaultReason =
  /**
   * Never sent.
   */
  | 'DEFAULT_REASON_UNSPECIFIED'
  | 0
  /**
   * You did not answer within your time (decision time plus bank); a strike is counted too.
   */
  | 'DEFAULT_REASON_TIMEOUT'
  | 1
  /**
   * You reached Clock.max_strikes: the rest of this game is played for you without asking.
   */
  | 'DEFAULT_REASON_FORFEITED'
  | 2
  /**
   * Your stream closed: the rest of the game is played for you.
   */
  | 'DEFAULT_REASON_DISCONNECTED'
  | 3
  /**
   * You sent more than Clock.max_retries refused or malformed Actions for this decision; a strike is
   * counted too.
   */
  | 'DEFAULT_REASON_REFUSED'
  | 4

/**
 * Why the referee took a decision for you.
 */
export type DefaultReason__Output = typeof DefaultReason[keyof typeof DefaultReason]
