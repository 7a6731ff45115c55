// Original file: ../../../proto/mizerka/v1/arena.proto


/**
 * A registered bot's credentials.
 */
export interface RegisterBotResponse {
  /**
   * The bot's id, used to seat it in CreateMatchRequest.seats.
   */
  'bot_id'?: (string);
  /**
   * The secret the bot sends in Hello.token. Shown only once.
   */
  'token'?: (string);
}

/**
 * A registered bot's credentials.
 */
export interface RegisterBotResponse__Output {
  /**
   * The bot's id, used to seat it in CreateMatchRequest.seats.
   */
  'bot_id': (string);
  /**
   * The secret the bot sends in Hello.token. Shown only once.
   */
  'token': (string);
}
