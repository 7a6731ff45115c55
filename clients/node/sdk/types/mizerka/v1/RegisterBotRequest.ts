// Original file: ../../../proto/mizerka/v1/arena.proto


/**
 * Register a bot.
 */
export interface RegisterBotRequest {
  /**
   * The bot's display name: 1 to 64 characters (blanks around it are dropped), unique on the
   * server, without control or invisible characters (Unicode categories C*, Zl, Zp: no newline,
   * tab, bidi override or zero-width character). Otherwise INVALID_ARGUMENT.
   */
  'name'?: (string);
}

/**
 * Register a bot.
 */
export interface RegisterBotRequest__Output {
  /**
   * The bot's display name: 1 to 64 characters (blanks around it are dropped), unique on the
   * server, without control or invisible characters (Unicode categories C*, Zl, Zp: no newline,
   * tab, bidi override or zero-width character). Otherwise INVALID_ARGUMENT.
   */
  'name': (string);
}
