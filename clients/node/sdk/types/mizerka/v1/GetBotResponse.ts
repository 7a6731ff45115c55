// Original file: ../../../proto/mizerka/v1/arena.proto


/**
 * A registered bot.
 */
export interface GetBotResponse {
  /**
   * The bot id.
   */
  'bot_id'?: (string);
  /**
   * The registered name.
   */
  'name'?: (string);
  /**
   * Play streams of this bot open now (said Hello and not closed).
   */
  'streams'?: (number);
  /**
   * Of those, the streams not seated in a game now.
   */
  'idle_streams'?: (number);
}

/**
 * A registered bot.
 */
export interface GetBotResponse__Output {
  /**
   * The bot id.
   */
  'bot_id': (string);
  /**
   * The registered name.
   */
  'name': (string);
  /**
   * Play streams of this bot open now (said Hello and not closed).
   */
  'streams': (number);
  /**
   * Of those, the streams not seated in a game now.
   */
  'idle_streams': (number);
}
