// Original file: ../../../proto/mizerka/v1/game.proto


/**
 * Everything one seat knows about one other seat (or itself). Field by field it holds only what
 * the SeatView's audience may know.
 */
export interface PlayerState {
  /**
   * The seat, 0..n-1 (players[i].seat == i).
   */
  'seat'?: (number);
  /**
   * The bot's name.
   */
  'name'?: (string);
  /**
   * True when `hand` is this seat's hand as the audience may see it: your own seat (or every seat
   * in a full view). False means the hand is hidden and `hand` is empty.
   */
  'hand_known'?: (boolean);
  /**
   * The cards held, sorted by suit (S, H, D, C) then rank low to high. Before the contract is
   * announced with choose_after = 6, the declarer sees only its first 6 cards here and everyone
   * else none of theirs (hand_known is still true, hand is empty).
   */
  'hand'?: (string)[];
  /**
   * How many cards the seat holds now (public).
   */
  'hand_count'?: (number);
  /**
   * How many cards the seat exchanged in this deal; absent when it has not exchanged (yet).
   */
  'exchanged'?: (number);
  /**
   * True when `discarded` and `taken` are known to the audience: your own seat, or any seat in a
   * full view. Others' discards and taken cards are never shown.
   */
  'exchange_known'?: (boolean);
  /**
   * The cards this seat discarded in this deal's exchange (known only as exchange_known says).
   */
  'discarded'?: (string)[];
  /**
   * The cards this seat took from the talon in this deal's exchange (known only as exchange_known
   * says).
   */
  'taken'?: (string)[];
  /**
   * Tricks this seat has won in the current deal.
   */
  'tricks_won'?: (number);
  /**
   * This seat's quota in the current deal: the tricks it is to take, as the referee derived it from
   * the quota tables, the seat's position and a major. Absent until the contract is settled.
   */
  'quota'?: (number);
  /**
   * Contracts this seat has used up as declarer in this game (by name, without " major").
   */
  'used_contracts'?: (string)[];
  /**
   * This seat's total points in the game so far.
   */
  'total'?: (number);
  '_exchanged'?: "exchanged";
  '_quota'?: "quota";
}

/**
 * Everything one seat knows about one other seat (or itself). Field by field it holds only what
 * the SeatView's audience may know.
 */
export interface PlayerState__Output {
  /**
   * The seat, 0..n-1 (players[i].seat == i).
   */
  'seat': (number);
  /**
   * The bot's name.
   */
  'name': (string);
  /**
   * True when `hand` is this seat's hand as the audience may see it: your own seat (or every seat
   * in a full view). False means the hand is hidden and `hand` is empty.
   */
  'hand_known': (boolean);
  /**
   * The cards held, sorted by suit (S, H, D, C) then rank low to high. Before the contract is
   * announced with choose_after = 6, the declarer sees only its first 6 cards here and everyone
   * else none of theirs (hand_known is still true, hand is empty).
   */
  'hand': (string)[];
  /**
   * How many cards the seat holds now (public).
   */
  'hand_count': (number);
  /**
   * How many cards the seat exchanged in this deal; absent when it has not exchanged (yet).
   */
  'exchanged'?: (number);
  /**
   * True when `discarded` and `taken` are known to the audience: your own seat, or any seat in a
   * full view. Others' discards and taken cards are never shown.
   */
  'exchange_known': (boolean);
  /**
   * The cards this seat discarded in this deal's exchange (known only as exchange_known says).
   */
  'discarded': (string)[];
  /**
   * The cards this seat took from the talon in this deal's exchange (known only as exchange_known
   * says).
   */
  'taken': (string)[];
  /**
   * Tricks this seat has won in the current deal.
   */
  'tricks_won': (number);
  /**
   * This seat's quota in the current deal: the tricks it is to take, as the referee derived it from
   * the quota tables, the seat's position and a major. Absent until the contract is settled.
   */
  'quota'?: (number);
  /**
   * Contracts this seat has used up as declarer in this game (by name, without " major").
   */
  'used_contracts': (string)[];
  /**
   * This seat's total points in the game so far.
   */
  'total': (number);
  '_exchanged'?: "exchanged";
  '_quota'?: "quota";
}
