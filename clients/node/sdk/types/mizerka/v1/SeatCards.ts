// Original file: ../../../proto/mizerka/v1/game.proto


/**
 * Cards that belong to one seat.
 */
export interface SeatCards {
  /**
   * The seat.
   */
  'seat'?: (number);
  /**
   * The cards (order as stated where used).
   */
  'cards'?: (string)[];
}

/**
 * Cards that belong to one seat.
 */
export interface SeatCards__Output {
  /**
   * The seat.
   */
  'seat': (number);
  /**
   * The cards (order as stated where used).
   */
  'cards': (string)[];
}
