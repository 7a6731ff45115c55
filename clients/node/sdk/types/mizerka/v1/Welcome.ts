// Original file: ../../../proto/mizerka/v1/referee.proto


/**
 * The referee accepted the Hello. Games follow when an admin seats this bot in a match.
 */
export interface Welcome {
  /**
   * The bot's id (as given by Arena.RegisterBot).
   */
  'bot_id'?: (string);
  /**
   * The bot's registered name, as other players and spectators see it.
   */
  'name'?: (string);
  /**
   * The largest message, in bytes, the referee accepts from you on this stream (your Hello and
   * Actions, far smaller); a bigger one ends the stream with RESOURCE_EXHAUSTED. It is no limit on
   * what the referee sends: its messages stay within gRPC's default receive limit (4 MiB), so keep
   * your channel's receive limit at least at that default.
   */
  'max_message_bytes'?: (number);
  /**
   * The referee's version (free text).
   */
  'server_version'?: (string);
}

/**
 * The referee accepted the Hello. Games follow when an admin seats this bot in a match.
 */
export interface Welcome__Output {
  /**
   * The bot's id (as given by Arena.RegisterBot).
   */
  'bot_id': (string);
  /**
   * The bot's registered name, as other players and spectators see it.
   */
  'name': (string);
  /**
   * The largest message, in bytes, the referee accepts from you on this stream (your Hello and
   * Actions, far smaller); a bigger one ends the stream with RESOURCE_EXHAUSTED. It is no limit on
   * what the referee sends: its messages stay within gRPC's default receive limit (4 MiB), so keep
   * your channel's receive limit at least at that default.
   */
  'max_message_bytes': (number);
  /**
   * The referee's version (free text).
   */
  'server_version': (string);
}
