// Original file: ../../../proto/mizerka/v1/game.proto

/**
 * What happens when the highest total is shared at the end of a game (option `tiebreak`).
 */
export const TiebreakMode = {
  /**
   * Never sent.
   */
  TIEBREAK_MODE_UNSPECIFIED: 'TIEBREAK_MODE_UNSPECIFIED',
  /**
   * "none" (default): the tie stands.
   */
  TIEBREAK_MODE_NONE: 'TIEBREAK_MODE_NONE',
  /**
   * "random": extra no-trump deals with a declarer drawn from the game's seeded generator.
   */
  TIEBREAK_MODE_RANDOM: 'TIEBREAK_MODE_RANDOM',
  /**
   * "lowest": extra no-trump deals declared by the player with the lowest total (lowest seat on a
   * tie).
   */
  TIEBREAK_MODE_LOWEST: 'TIEBREAK_MODE_LOWEST',
} as const;

/**
 * What happens when the highest total is shared at the end of a game (option `tiebreak`).
 */
export type TiebreakMode =
  /**
   * Never sent.
   */
  | 'TIEBREAK_MODE_UNSPECIFIED'
  | 0
  /**
   * "none" (default): the tie stands.
   */
  | 'TIEBREAK_MODE_NONE'
  | 1
  /**
   * "random": extra no-trump deals with a declarer drawn from the game's seeded generator.
   */
  | 'TIEBREAK_MODE_RANDOM'
  | 2
  /**
   * "lowest": extra no-trump deals declared by the player with the lowest total (lowest seat on a
   * tie).
   */
  | 'TIEBREAK_MODE_LOWEST'
  | 3

/**
 * What happens when the highest total is shared at the end of a game (option `tiebreak`).
 */
export type TiebreakMode__Output = typeof TiebreakMode[keyof typeof TiebreakMode]
