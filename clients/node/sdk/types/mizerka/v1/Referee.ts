// Original file: ../../../proto/mizerka/v1/referee.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { BotMessage as _mizerka_v1_BotMessage, BotMessage__Output as _mizerka_v1_BotMessage__Output } from '../../mizerka/v1/BotMessage';
import type { RefereeMessage as _mizerka_v1_RefereeMessage, RefereeMessage__Output as _mizerka_v1_RefereeMessage__Output } from '../../mizerka/v1/RefereeMessage';
import type { WatchRequest as _mizerka_v1_WatchRequest, WatchRequest__Output as _mizerka_v1_WatchRequest__Output } from '../../mizerka/v1/WatchRequest';
import type { WatchUpdate as _mizerka_v1_WatchUpdate, WatchUpdate__Output as _mizerka_v1_WatchUpdate__Output } from '../../mizerka/v1/WatchUpdate';

/**
 * The referee: bots play through Play; anyone may watch a match through Watch.
 */
export interface RefereeClient extends grpc.Client {
  /**
   * One seat's conversation with the referee, for as many games as the referee seats it in.
   * The first message must be Hello; otherwise the stream ends with status FAILED_PRECONDITION.
   * Statuses that end the stream early:
   * UNAUTHENTICATED     the token is unknown;
   * DEADLINE_EXCEEDED   no Hello within the referee's Hello timeout (`mizerka serve
   * --hello-timeout-s`, 10 s by default) of opening the stream;
   * RESOURCE_EXHAUSTED  a message larger than Welcome.max_message_bytes; more Play streams for
   * this bot than the referee allows at once (--max-streams-per-bot, 64 by
   * default); too many messages sent without being asked (Actions while no
   * decision of yours is pending; --max-unasked-messages, 256 by default);
   * or too many messages left unread by the bot (it does not read its stream).
   * The status details say which. Between games the stream stays open and idle
   * until the referee seats it in another game; the bot may close its side between games to leave.
   * Closing (or losing) the stream during a game makes the seat DISCONNECTED: the referee plays its
   * remaining decisions with the default action.
   */
  Play(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_mizerka_v1_BotMessage, _mizerka_v1_RefereeMessage__Output>;
  Play(options?: grpc.CallOptions): grpc.ClientDuplexStream<_mizerka_v1_BotMessage, _mizerka_v1_RefereeMessage__Output>;
  /**
   * One seat's conversation with the referee, for as many games as the referee seats it in.
   * The first message must be Hello; otherwise the stream ends with status FAILED_PRECONDITION.
   * Statuses that end the stream early:
   * UNAUTHENTICATED     the token is unknown;
   * DEADLINE_EXCEEDED   no Hello within the referee's Hello timeout (`mizerka serve
   * --hello-timeout-s`, 10 s by default) of opening the stream;
   * RESOURCE_EXHAUSTED  a message larger than Welcome.max_message_bytes; more Play streams for
   * this bot than the referee allows at once (--max-streams-per-bot, 64 by
   * default); too many messages sent without being asked (Actions while no
   * decision of yours is pending; --max-unasked-messages, 256 by default);
   * or too many messages left unread by the bot (it does not read its stream).
   * The status details say which. Between games the stream stays open and idle
   * until the referee seats it in another game; the bot may close its side between games to leave.
   * Closing (or losing) the stream during a game makes the seat DISCONNECTED: the referee plays its
   * remaining decisions with the default action.
   */
  play(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_mizerka_v1_BotMessage, _mizerka_v1_RefereeMessage__Output>;
  play(options?: grpc.CallOptions): grpc.ClientDuplexStream<_mizerka_v1_BotMessage, _mizerka_v1_RefereeMessage__Output>;
  
  /**
   * Follow one match as a spectator. A live match sends public information only. A match that has
   * ended sends its full record, hands and talons included, only once it is public: a match created
   * without CreateMatchRequest.group is public when it ends; one with a group (every league match)
   * when the admin publishes it (Arena.PublishMatches; a league when it has finished). Until then
   * an ended match sends only what a spectator saw. The admin gets full records at any time by
   * sending the call metadata `authorization: Bearer <admin token>`. Unknown match id: NOT_FOUND.
   * A live match sends at most one update every 0.3 s per game: the changes in between come in the
   * next one, with all their events. A referee serves at most 16 Watch streams at once, all callers
   * but the admin together (mizerka serve --max-watchers), and at most 4 of them from one host, the
   * caller's address (--max-watchers-per-host): one more gets RESOURCE_EXHAUSTED, naming the limit.
   */
  Watch(argument: _mizerka_v1_WatchRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_mizerka_v1_WatchUpdate__Output>;
  Watch(argument: _mizerka_v1_WatchRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_mizerka_v1_WatchUpdate__Output>;
  /**
   * Follow one match as a spectator. A live match sends public information only. A match that has
   * ended sends its full record, hands and talons included, only once it is public: a match created
   * without CreateMatchRequest.group is public when it ends; one with a group (every league match)
   * when the admin publishes it (Arena.PublishMatches; a league when it has finished). Until then
   * an ended match sends only what a spectator saw. The admin gets full records at any time by
   * sending the call metadata `authorization: Bearer <admin token>`. Unknown match id: NOT_FOUND.
   * A live match sends at most one update every 0.3 s per game: the changes in between come in the
   * next one, with all their events. A referee serves at most 16 Watch streams at once, all callers
   * but the admin together (mizerka serve --max-watchers), and at most 4 of them from one host, the
   * caller's address (--max-watchers-per-host): one more gets RESOURCE_EXHAUSTED, naming the limit.
   */
  watch(argument: _mizerka_v1_WatchRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_mizerka_v1_WatchUpdate__Output>;
  watch(argument: _mizerka_v1_WatchRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_mizerka_v1_WatchUpdate__Output>;
  
}

/**
 * The referee: bots play through Play; anyone may watch a match through Watch.
 */
export interface RefereeHandlers extends grpc.UntypedServiceImplementation {
  /**
   * One seat's conversation with the referee, for as many games as the referee seats it in.
   * The first message must be Hello; otherwise the stream ends with status FAILED_PRECONDITION.
   * Statuses that end the stream early:
   * UNAUTHENTICATED     the token is unknown;
   * DEADLINE_EXCEEDED   no Hello within the referee's Hello timeout (`mizerka serve
   * --hello-timeout-s`, 10 s by default) of opening the stream;
   * RESOURCE_EXHAUSTED  a message larger than Welcome.max_message_bytes; more Play streams for
   * this bot than the referee allows at once (--max-streams-per-bot, 64 by
   * default); too many messages sent without being asked (Actions while no
   * decision of yours is pending; --max-unasked-messages, 256 by default);
   * or too many messages left unread by the bot (it does not read its stream).
   * The status details say which. Between games the stream stays open and idle
   * until the referee seats it in another game; the bot may close its side between games to leave.
   * Closing (or losing) the stream during a game makes the seat DISCONNECTED: the referee plays its
   * remaining decisions with the default action.
   */
  Play: grpc.handleBidiStreamingCall<_mizerka_v1_BotMessage__Output, _mizerka_v1_RefereeMessage>;
  
  /**
   * Follow one match as a spectator. A live match sends public information only. A match that has
   * ended sends its full record, hands and talons included, only once it is public: a match created
   * without CreateMatchRequest.group is public when it ends; one with a group (every league match)
   * when the admin publishes it (Arena.PublishMatches; a league when it has finished). Until then
   * an ended match sends only what a spectator saw. The admin gets full records at any time by
   * sending the call metadata `authorization: Bearer <admin token>`. Unknown match id: NOT_FOUND.
   * A live match sends at most one update every 0.3 s per game: the changes in between come in the
   * next one, with all their events. A referee serves at most 16 Watch streams at once, all callers
   * but the admin together (mizerka serve --max-watchers), and at most 4 of them from one host, the
   * caller's address (--max-watchers-per-host): one more gets RESOURCE_EXHAUSTED, naming the limit.
   */
  Watch: grpc.handleServerStreamingCall<_mizerka_v1_WatchRequest__Output, _mizerka_v1_WatchUpdate>;
  
}

export interface RefereeDefinition extends grpc.ServiceDefinition {
  Play: MethodDefinition<_mizerka_v1_BotMessage, _mizerka_v1_RefereeMessage, _mizerka_v1_BotMessage__Output, _mizerka_v1_RefereeMessage__Output>
  Watch: MethodDefinition<_mizerka_v1_WatchRequest, _mizerka_v1_WatchUpdate, _mizerka_v1_WatchRequest__Output, _mizerka_v1_WatchUpdate__Output>
}
