// Original file: ../../../proto/mizerka/v1/events.proto


/**
 * A player exchanged with the talon.
 */
export interface CardsExchanged {
  /**
   * Who exchanged.
   */
  'seat'?: (number);
  /**
   * How many cards it exchanged (0 = pass). Public.
   */
  'count'?: (number);
  /**
   * True when discarded and taken are filled in: your own exchange, or a full disclosure.
   */
  'cards_known'?: (boolean);
  /**
   * The cards discarded (own exchange only).
   */
  'discarded'?: (string)[];
  /**
   * The cards taken from the talon (own exchange only).
   */
  'taken'?: (string)[];
}

/**
 * A player exchanged with the talon.
 */
export interface CardsExchanged__Output {
  /**
   * Who exchanged.
   */
  'seat': (number);
  /**
   * How many cards it exchanged (0 = pass). Public.
   */
  'count': (number);
  /**
   * True when discarded and taken are filled in: your own exchange, or a full disclosure.
   */
  'cards_known': (boolean);
  /**
   * The cards discarded (own exchange only).
   */
  'discarded': (string)[];
  /**
   * The cards taken from the talon (own exchange only).
   */
  'taken': (string)[];
}
