// Original file: ../../../proto/mizerka/v1/arena.proto


/**
 * One seat of a match.
 */
export interface MatchSeat {
  /**
   * The seat, 0..players-1.
   */
  'seat'?: (number);
  /**
   * The bot seated there.
   */
  'bot_id'?: (string);
  /**
   * The bot's name.
   */
  'name'?: (string);
  /**
   * True when the seat was forfeited from the start (CreateMatchRequest.forfeit_seats).
   */
  'forfeited'?: (boolean);
}

/**
 * One seat of a match.
 */
export interface MatchSeat__Output {
  /**
   * The seat, 0..players-1.
   */
  'seat': (number);
  /**
   * The bot seated there.
   */
  'bot_id': (string);
  /**
   * The bot's name.
   */
  'name': (string);
  /**
   * True when the seat was forfeited from the start (CreateMatchRequest.forfeit_seats).
   */
  'forfeited': (boolean);
}
