// Original file: ../../../proto/mizerka/v1/referee.proto


/**
 * Who the bot is. The first message of a Play stream. Sending it again later is refused with
 * ActionError NOT_EXPECTED.
 */
export interface Hello {
  /**
   * The token Arena.RegisterBot gave for this bot. Wrong or missing: the stream ends with status
   * UNAUTHENTICATED.
   */
  'token'?: (string);
  /**
   * The bot's name, for logs; the name registered with the token is the one shown to others. At
   * most 100 characters, all printable (letters, digits, punctuation, symbols, plain spaces; no
   * control characters such as newlines or ESC, no format characters such as bidi overrides):
   * otherwise the stream ends with status INVALID_ARGUMENT naming the field and the limit.
   */
  'name'?: (string);
  /**
   * The bot's own version string (free text, for logs and results). At most 200 characters, all
   * printable, as for name (else INVALID_ARGUMENT).
   */
  'version'?: (string);
  /**
   * False (the default): the events of a game reach you inside your next DecisionRequest (its
   * `events`), and any left at the game's end in an EventBatch just before GameEnd; you learn
   * everything, in order, before you must decide, at the lowest cost to the referee.
   * True: events are sent as they happen, in an EventBatch after every action, for bots that think
   * on the others' time; a DecisionRequest's `events` then holds only what was not sent yet. Either
   * way every event reaches you exactly once, in order.
   */
  'live_events'?: (boolean);
}

/**
 * Who the bot is. The first message of a Play stream. Sending it again later is refused with
 * ActionError NOT_EXPECTED.
 */
export interface Hello__Output {
  /**
   * The token Arena.RegisterBot gave for this bot. Wrong or missing: the stream ends with status
   * UNAUTHENTICATED.
   */
  'token': (string);
  /**
   * The bot's name, for logs; the name registered with the token is the one shown to others. At
   * most 100 characters, all printable (letters, digits, punctuation, symbols, plain spaces; no
   * control characters such as newlines or ESC, no format characters such as bidi overrides):
   * otherwise the stream ends with status INVALID_ARGUMENT naming the field and the limit.
   */
  'name': (string);
  /**
   * The bot's own version string (free text, for logs and results). At most 200 characters, all
   * printable, as for name (else INVALID_ARGUMENT).
   */
  'version': (string);
  /**
   * False (the default): the events of a game reach you inside your next DecisionRequest (its
   * `events`), and any left at the game's end in an EventBatch just before GameEnd; you learn
   * everything, in order, before you must decide, at the lowest cost to the referee.
   * True: events are sent as they happen, in an EventBatch after every action, for bots that think
   * on the others' time; a DecisionRequest's `events` then holds only what was not sent yet. Either
   * way every event reaches you exactly once, in order.
   */
  'live_events': (boolean);
}
