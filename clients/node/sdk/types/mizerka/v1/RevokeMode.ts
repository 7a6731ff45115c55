// Original file: ../../../proto/mizerka/v1/game.proto

/**
 * What happens to a card that fails to follow suit (option `revoke`).
 */
export const RevokeMode = {
  /**
   * Never sent.
   */
  REVOKE_MODE_UNSPECIFIED: 'REVOKE_MODE_UNSPECIFIED',
  /**
   * "reject" (default): the card is refused with ActionError MUST_FOLLOW and the same player plays
   * again; nothing changes.
   */
  REVOKE_MODE_REJECT: 'REVOKE_MODE_REJECT',
  /**
   * "penalty": the card is a revoke: the deal is void, the revoker scores -10 (others 0), and the
   * same dealer and declarer redeal (a Revoked event, then DealEnded with void = true).
   */
  REVOKE_MODE_PENALTY: 'REVOKE_MODE_PENALTY',
} as const;

/**
 * What happens to a card that fails to follow suit (option `revoke`).
 */
export type RevokeMode =
  /**
   * Never sent.
   */
  | 'REVOKE_MODE_UNSPECIFIED'
  | 0
  /**
   * "reject" (default): the card is refused with ActionError MUST_FOLLOW and the same player plays
   * again; nothing changes.
   */
  | 'REVOKE_MODE_REJECT'
  | 1
  /**
   * "penalty": the card is a revoke: the deal is void, the revoker scores -10 (others 0), and the
   * same dealer and declarer redeal (a Revoked event, then DealEnded with void = true).
   */
  | 'REVOKE_MODE_PENALTY'
  | 2

/**
 * What happens to a card that fails to follow suit (option `revoke`).
 */
export type RevokeMode__Output = typeof RevokeMode[keyof typeof RevokeMode]
