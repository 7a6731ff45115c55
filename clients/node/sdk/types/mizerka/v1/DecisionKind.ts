// Original file: ../../../proto/mizerka/v1/referee.proto

/**
 * The kind of a decision (what Action.action must be).
 */
export const DecisionKind = {
  /**
   * Never sent.
   */
  DECISION_KIND_UNSPECIFIED: 'DECISION_KIND_UNSPECIFIED',
  /**
   * Announce a contract: answer with ChooseContract.
   */
  DECISION_KIND_CONTRACT: 'DECISION_KIND_CONTRACT',
  /**
   * Announce a major or pass: answer with AnnounceMajor.
   */
  DECISION_KIND_MAJOR: 'DECISION_KIND_MAJOR',
  /**
   * Exchange with the talon: answer with ExchangeCards.
   */
  DECISION_KIND_EXCHANGE: 'DECISION_KIND_EXCHANGE',
  /**
   * Play a card: answer with PlayCard.
   */
  DECISION_KIND_PLAY: 'DECISION_KIND_PLAY',
} as const;

/**
 * The kind of a decision (what Action.action must be).
 */
export type DecisionKind =
  /**
   * Never sent.
   */
  | 'DECISION_KIND_UNSPECIFIED'
  | 0
  /**
   * Announce a contract: answer with ChooseContract.
   */
  | 'DECISION_KIND_CONTRACT'
  | 1
  /**
   * Announce a major or pass: answer with AnnounceMajor.
   */
  | 'DECISION_KIND_MAJOR'
  | 2
  /**
   * Exchange with the talon: answer with ExchangeCards.
   */
  | 'DECISION_KIND_EXCHANGE'
  | 3
  /**
   * Play a card: answer with PlayCard.
   */
  | 'DECISION_KIND_PLAY'
  | 4

/**
 * The kind of a decision (what Action.action must be).
 */
export type DecisionKind__Output = typeof DecisionKind[keyof typeof DecisionKind]
