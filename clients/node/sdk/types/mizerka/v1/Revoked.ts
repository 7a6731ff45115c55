// Original file: ../../../proto/mizerka/v1/events.proto


/**
 * A revoke under revoke = penalty: the card did not follow suit although the player could. The card
 * is not added to the trick; the deal is void (DealEnded with void = true follows) and is redealt
 * by the same dealer and declarer.
 */
export interface Revoked {
  /**
   * The revoker; it scores -10 for the void deal.
   */
  'seat'?: (number);
  /**
   * The card it tried to play.
   */
  'card'?: (string);
}

/**
 * A revoke under revoke = penalty: the card did not follow suit although the player could. The card
 * is not added to the trick; the deal is void (DealEnded with void = true follows) and is redealt
 * by the same dealer and declarer.
 */
export interface Revoked__Output {
  /**
   * The revoker; it scores -10 for the void deal.
   */
  'seat': (number);
  /**
   * The card it tried to play.
   */
  'card': (string);
}
