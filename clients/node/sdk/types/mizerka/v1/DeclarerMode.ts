// Original file: ../../../proto/mizerka/v1/game.proto

/**
 * Who declares each deal (docs/rules.md sections 3.3 and 9, option `declarer`).
 */
export const DeclarerMode = {
  /**
   * Never sent.
   */
  DECLARER_MODE_UNSPECIFIED: 'DECLARER_MODE_UNSPECIFIED',
  /**
   * "alternate" (default): the declarer role passes to the left after every deal; the dealer is the
   * player to the declarer's right.
   */
  DECLARER_MODE_ALTERNATE: 'DECLARER_MODE_ALTERNATE',
  /**
   * "continuous": a player declares as many consecutive deals as it has contracts, then the player
   * to its left; the dealer is the player to the declarer's right.
   */
  DECLARER_MODE_CONTINUOUS: 'DECLARER_MODE_CONTINUOUS',
  /**
   * "dealer": the dealer is also the declarer (quotas still go by position from the declarer).
   */
  DECLARER_MODE_DEALER: 'DECLARER_MODE_DEALER',
  /**
   * "continuous-dealer": both of the above.
   */
  DECLARER_MODE_CONTINUOUS_DEALER: 'DECLARER_MODE_CONTINUOUS_DEALER',
} as const;

/**
 * Who declares each deal (docs/rules.md sections 3.3 and 9, option `declarer`).
 */
export type DeclarerMode =
  /**
   * Never sent.
   */
  | 'DECLARER_MODE_UNSPECIFIED'
  | 0
  /**
   * "alternate" (default): the declarer role passes to the left after every deal; the dealer is the
   * player to the declarer's right.
   */
  | 'DECLARER_MODE_ALTERNATE'
  | 1
  /**
   * "continuous": a player declares as many consecutive deals as it has contracts, then the player
   * to its left; the dealer is the player to the declarer's right.
   */
  | 'DECLARER_MODE_CONTINUOUS'
  | 2
  /**
   * "dealer": the dealer is also the declarer (quotas still go by position from the declarer).
   */
  | 'DECLARER_MODE_DEALER'
  | 3
  /**
   * "continuous-dealer": both of the above.
   */
  | 'DECLARER_MODE_CONTINUOUS_DEALER'
  | 4

/**
 * Who declares each deal (docs/rules.md sections 3.3 and 9, option `declarer`).
 */
export type DeclarerMode__Output = typeof DeclarerMode[keyof typeof DeclarerMode]
