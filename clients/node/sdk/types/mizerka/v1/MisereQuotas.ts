// Original file: ../../../proto/mizerka/v1/game.proto

/**
 * How the quota table of minus (misère) contracts is derived (option `misere_quotas`).
 */
export const MisereQuotas = {
  /**
   * Never sent.
   */
  MISERE_QUOTAS_UNSPECIFIED: 'MISERE_QUOTAS_UNSPECIFIED',
  /**
   * "reversed" (default): the minus table is the plus table reversed by position (7,5,1 -> 1,5,7).
   */
  MISERE_QUOTAS_REVERSED: 'MISERE_QUOTAS_REVERSED',
  /**
   * "same": the minus table equals the plus table; only the scoring is reversed.
   */
  MISERE_QUOTAS_SAME: 'MISERE_QUOTAS_SAME',
} as const;

/**
 * How the quota table of minus (misère) contracts is derived (option `misere_quotas`).
 */
export type MisereQuotas =
  /**
   * Never sent.
   */
  | 'MISERE_QUOTAS_UNSPECIFIED'
  | 0
  /**
   * "reversed" (default): the minus table is the plus table reversed by position (7,5,1 -> 1,5,7).
   */
  | 'MISERE_QUOTAS_REVERSED'
  | 1
  /**
   * "same": the minus table equals the plus table; only the scoring is reversed.
   */
  | 'MISERE_QUOTAS_SAME'
  | 2

/**
 * How the quota table of minus (misère) contracts is derived (option `misere_quotas`).
 */
export type MisereQuotas__Output = typeof MisereQuotas[keyof typeof MisereQuotas]
