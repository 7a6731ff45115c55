// Original file: ../../../proto/mizerka/v1/game.proto

/**
 * How the talon is exchanged after the contract is settled.
 */
export const ExchangeKind = {
  /**
   * Never sent.
   */
  EXCHANGE_KIND_UNSPECIFIED: 'EXCHANGE_KIND_UNSPECIFIED',
  /**
   * Blind exchange: in turn from the declarer, each player discards k cards face down and receives
   * the top k talon cards, unseen before (k may not exceed the cards left; k = 0 is a pass).
   */
  EXCHANGE_KIND_BLIND: 'EXCHANGE_KIND_BLIND',
  /**
   * Pick exchange: the declarer alone sees the talon and swaps k of its cards for k talon cards of
   * its choice (0 <= k <= talon size).
   */
  EXCHANGE_KIND_PICK: 'EXCHANGE_KIND_PICK',
} as const;

/**
 * How the talon is exchanged after the contract is settled.
 */
export type ExchangeKind =
  /**
   * Never sent.
   */
  | 'EXCHANGE_KIND_UNSPECIFIED'
  | 0
  /**
   * Blind exchange: in turn from the declarer, each player discards k cards face down and receives
   * the top k talon cards, unseen before (k may not exceed the cards left; k = 0 is a pass).
   */
  | 'EXCHANGE_KIND_BLIND'
  | 1
  /**
   * Pick exchange: the declarer alone sees the talon and swaps k of its cards for k talon cards of
   * its choice (0 <= k <= talon size).
   */
  | 'EXCHANGE_KIND_PICK'
  | 2

/**
 * How the talon is exchanged after the contract is settled.
 */
export type ExchangeKind__Output = typeof ExchangeKind[keyof typeof ExchangeKind]
