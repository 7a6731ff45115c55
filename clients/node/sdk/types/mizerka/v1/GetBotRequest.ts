// Original file: ../../../proto/mizerka/v1/arena.proto


/**
 * Which bot to look up.
 */
export interface GetBotRequest {
  /**
   * The bot id from RegisterBot.
   */
  'bot_id'?: (string);
}

/**
 * Which bot to look up.
 */
export interface GetBotRequest__Output {
  /**
   * The bot id from RegisterBot.
   */
  'bot_id': (string);
}
