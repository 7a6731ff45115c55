// Original file: ../../../proto/mizerka/v1/arena.proto

/**
 * Where a match stands.
 */
export const MatchStatus = {
  /**
   * Never sent; as a ListMatches filter it means "any status".
   */
  MATCH_STATUS_UNSPECIFIED: 'MATCH_STATUS_UNSPECIFIED',
  /**
   * Created, waiting for every seated bot to have an idle Play stream.
   */
  MATCH_STATUS_PENDING: 'MATCH_STATUS_PENDING',
  /**
   * Being played.
   */
  MATCH_STATUS_RUNNING: 'MATCH_STATUS_RUNNING',
  /**
   * Every game was played to its end.
   */
  MATCH_STATUS_FINISHED: 'MATCH_STATUS_FINISHED',
  /**
   * Stopped before its end (by the server or an admin); Match.abort_reason says why.
   */
  MATCH_STATUS_ABORTED: 'MATCH_STATUS_ABORTED',
} as const;

/**
 * Where a match stands.
 */
export type MatchStatus =
  /**
   * Never sent; as a ListMatches filter it means "any status".
   */
  | 'MATCH_STATUS_UNSPECIFIED'
  | 0
  /**
   * Created, waiting for every seated bot to have an idle Play stream.
   */
  | 'MATCH_STATUS_PENDING'
  | 1
  /**
   * Being played.
   */
  | 'MATCH_STATUS_RUNNING'
  | 2
  /**
   * Every game was played to its end.
   */
  | 'MATCH_STATUS_FINISHED'
  | 3
  /**
   * Stopped before its end (by the server or an admin); Match.abort_reason says why.
   */
  | 'MATCH_STATUS_ABORTED'
  | 4

/**
 * Where a match stands.
 */
export type MatchStatus__Output = typeof MatchStatus[keyof typeof MatchStatus]
