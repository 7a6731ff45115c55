// Original file: ../../../proto/mizerka/v1/arena.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AbortMatchesRequest as _mizerka_v1_AbortMatchesRequest, AbortMatchesRequest__Output as _mizerka_v1_AbortMatchesRequest__Output } from '../../mizerka/v1/AbortMatchesRequest';
import type { AbortMatchesResponse as _mizerka_v1_AbortMatchesResponse, AbortMatchesResponse__Output as _mizerka_v1_AbortMatchesResponse__Output } from '../../mizerka/v1/AbortMatchesResponse';
import type { CreateMatchRequest as _mizerka_v1_CreateMatchRequest, CreateMatchRequest__Output as _mizerka_v1_CreateMatchRequest__Output } from '../../mizerka/v1/CreateMatchRequest';
import type { CreateMatchResponse as _mizerka_v1_CreateMatchResponse, CreateMatchResponse__Output as _mizerka_v1_CreateMatchResponse__Output } from '../../mizerka/v1/CreateMatchResponse';
import type { GetBotRequest as _mizerka_v1_GetBotRequest, GetBotRequest__Output as _mizerka_v1_GetBotRequest__Output } from '../../mizerka/v1/GetBotRequest';
import type { GetBotResponse as _mizerka_v1_GetBotResponse, GetBotResponse__Output as _mizerka_v1_GetBotResponse__Output } from '../../mizerka/v1/GetBotResponse';
import type { GetMatchRequest as _mizerka_v1_GetMatchRequest, GetMatchRequest__Output as _mizerka_v1_GetMatchRequest__Output } from '../../mizerka/v1/GetMatchRequest';
import type { GetMatchResponse as _mizerka_v1_GetMatchResponse, GetMatchResponse__Output as _mizerka_v1_GetMatchResponse__Output } from '../../mizerka/v1/GetMatchResponse';
import type { ListMatchesRequest as _mizerka_v1_ListMatchesRequest, ListMatchesRequest__Output as _mizerka_v1_ListMatchesRequest__Output } from '../../mizerka/v1/ListMatchesRequest';
import type { ListMatchesResponse as _mizerka_v1_ListMatchesResponse, ListMatchesResponse__Output as _mizerka_v1_ListMatchesResponse__Output } from '../../mizerka/v1/ListMatchesResponse';
import type { PublishMatchesRequest as _mizerka_v1_PublishMatchesRequest, PublishMatchesRequest__Output as _mizerka_v1_PublishMatchesRequest__Output } from '../../mizerka/v1/PublishMatchesRequest';
import type { PublishMatchesResponse as _mizerka_v1_PublishMatchesResponse, PublishMatchesResponse__Output as _mizerka_v1_PublishMatchesResponse__Output } from '../../mizerka/v1/PublishMatchesResponse';
import type { RegisterBotRequest as _mizerka_v1_RegisterBotRequest, RegisterBotRequest__Output as _mizerka_v1_RegisterBotRequest__Output } from '../../mizerka/v1/RegisterBotRequest';
import type { RegisterBotResponse as _mizerka_v1_RegisterBotResponse, RegisterBotResponse__Output as _mizerka_v1_RegisterBotResponse__Output } from '../../mizerka/v1/RegisterBotResponse';
import type { WaitMatchRequest as _mizerka_v1_WaitMatchRequest, WaitMatchRequest__Output as _mizerka_v1_WaitMatchRequest__Output } from '../../mizerka/v1/WaitMatchRequest';
import type { WaitMatchResponse as _mizerka_v1_WaitMatchResponse, WaitMatchResponse__Output as _mizerka_v1_WaitMatchResponse__Output } from '../../mizerka/v1/WaitMatchResponse';

/**
 * Administration: register bots, create matches, follow their progress.
 */
export interface ArenaClient extends grpc.Client {
  /**
   * Stop unfinished matches: every PENDING or RUNNING match of a group, and/or matches by id. Each
   * stops at once: the bots seated in its running game get GameEnd with aborted set and the
   * reason, and the match is stored ABORTED with the reason as Match.abort_reason (games it
   * finished before stay in Match.results). A match that has already ended is left as it is.
   * Used by an organiser whose own side failed (the league runner, whose bots died with it, stops
   * its league's matches before playing them again). An unknown match id: NOT_FOUND, and nothing
   * is aborted.
   */
  AbortMatches(argument: _mizerka_v1_AbortMatchesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_AbortMatchesResponse__Output>): grpc.ClientUnaryCall;
  AbortMatches(argument: _mizerka_v1_AbortMatchesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_mizerka_v1_AbortMatchesResponse__Output>): grpc.ClientUnaryCall;
  AbortMatches(argument: _mizerka_v1_AbortMatchesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_AbortMatchesResponse__Output>): grpc.ClientUnaryCall;
  AbortMatches(argument: _mizerka_v1_AbortMatchesRequest, callback: grpc.requestCallback<_mizerka_v1_AbortMatchesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Stop unfinished matches: every PENDING or RUNNING match of a group, and/or matches by id. Each
   * stops at once: the bots seated in its running game get GameEnd with aborted set and the
   * reason, and the match is stored ABORTED with the reason as Match.abort_reason (games it
   * finished before stay in Match.results). A match that has already ended is left as it is.
   * Used by an organiser whose own side failed (the league runner, whose bots died with it, stops
   * its league's matches before playing them again). An unknown match id: NOT_FOUND, and nothing
   * is aborted.
   */
  abortMatches(argument: _mizerka_v1_AbortMatchesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_AbortMatchesResponse__Output>): grpc.ClientUnaryCall;
  abortMatches(argument: _mizerka_v1_AbortMatchesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_mizerka_v1_AbortMatchesResponse__Output>): grpc.ClientUnaryCall;
  abortMatches(argument: _mizerka_v1_AbortMatchesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_AbortMatchesResponse__Output>): grpc.ClientUnaryCall;
  abortMatches(argument: _mizerka_v1_AbortMatchesRequest, callback: grpc.requestCallback<_mizerka_v1_AbortMatchesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Create a match: a number of games of one ruleset between the bots seated. It starts (RUNNING)
   * as soon as every seated bot has an idle Play stream, one stream per seat.
   */
  CreateMatch(argument: _mizerka_v1_CreateMatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_CreateMatchResponse__Output>): grpc.ClientUnaryCall;
  CreateMatch(argument: _mizerka_v1_CreateMatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_mizerka_v1_CreateMatchResponse__Output>): grpc.ClientUnaryCall;
  CreateMatch(argument: _mizerka_v1_CreateMatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_CreateMatchResponse__Output>): grpc.ClientUnaryCall;
  CreateMatch(argument: _mizerka_v1_CreateMatchRequest, callback: grpc.requestCallback<_mizerka_v1_CreateMatchResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Create a match: a number of games of one ruleset between the bots seated. It starts (RUNNING)
   * as soon as every seated bot has an idle Play stream, one stream per seat.
   */
  createMatch(argument: _mizerka_v1_CreateMatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_CreateMatchResponse__Output>): grpc.ClientUnaryCall;
  createMatch(argument: _mizerka_v1_CreateMatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_mizerka_v1_CreateMatchResponse__Output>): grpc.ClientUnaryCall;
  createMatch(argument: _mizerka_v1_CreateMatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_CreateMatchResponse__Output>): grpc.ClientUnaryCall;
  createMatch(argument: _mizerka_v1_CreateMatchRequest, callback: grpc.requestCallback<_mizerka_v1_CreateMatchResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * A registered bot and how many Play streams it has open now (to see that a bot process is up).
   * Unknown id: NOT_FOUND.
   */
  GetBot(argument: _mizerka_v1_GetBotRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_GetBotResponse__Output>): grpc.ClientUnaryCall;
  GetBot(argument: _mizerka_v1_GetBotRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_mizerka_v1_GetBotResponse__Output>): grpc.ClientUnaryCall;
  GetBot(argument: _mizerka_v1_GetBotRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_GetBotResponse__Output>): grpc.ClientUnaryCall;
  GetBot(argument: _mizerka_v1_GetBotRequest, callback: grpc.requestCallback<_mizerka_v1_GetBotResponse__Output>): grpc.ClientUnaryCall;
  /**
   * A registered bot and how many Play streams it has open now (to see that a bot process is up).
   * Unknown id: NOT_FOUND.
   */
  getBot(argument: _mizerka_v1_GetBotRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_GetBotResponse__Output>): grpc.ClientUnaryCall;
  getBot(argument: _mizerka_v1_GetBotRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_mizerka_v1_GetBotResponse__Output>): grpc.ClientUnaryCall;
  getBot(argument: _mizerka_v1_GetBotRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_GetBotResponse__Output>): grpc.ClientUnaryCall;
  getBot(argument: _mizerka_v1_GetBotRequest, callback: grpc.requestCallback<_mizerka_v1_GetBotResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * One match: its status, seats and the results so far.
   */
  GetMatch(argument: _mizerka_v1_GetMatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_GetMatchResponse__Output>): grpc.ClientUnaryCall;
  GetMatch(argument: _mizerka_v1_GetMatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_mizerka_v1_GetMatchResponse__Output>): grpc.ClientUnaryCall;
  GetMatch(argument: _mizerka_v1_GetMatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_GetMatchResponse__Output>): grpc.ClientUnaryCall;
  GetMatch(argument: _mizerka_v1_GetMatchRequest, callback: grpc.requestCallback<_mizerka_v1_GetMatchResponse__Output>): grpc.ClientUnaryCall;
  /**
   * One match: its status, seats and the results so far.
   */
  getMatch(argument: _mizerka_v1_GetMatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_GetMatchResponse__Output>): grpc.ClientUnaryCall;
  getMatch(argument: _mizerka_v1_GetMatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_mizerka_v1_GetMatchResponse__Output>): grpc.ClientUnaryCall;
  getMatch(argument: _mizerka_v1_GetMatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_GetMatchResponse__Output>): grpc.ClientUnaryCall;
  getMatch(argument: _mizerka_v1_GetMatchRequest, callback: grpc.requestCallback<_mizerka_v1_GetMatchResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Matches, newest first, optionally only those of one status, a page at a time.
   */
  ListMatches(argument: _mizerka_v1_ListMatchesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_ListMatchesResponse__Output>): grpc.ClientUnaryCall;
  ListMatches(argument: _mizerka_v1_ListMatchesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_mizerka_v1_ListMatchesResponse__Output>): grpc.ClientUnaryCall;
  ListMatches(argument: _mizerka_v1_ListMatchesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_ListMatchesResponse__Output>): grpc.ClientUnaryCall;
  ListMatches(argument: _mizerka_v1_ListMatchesRequest, callback: grpc.requestCallback<_mizerka_v1_ListMatchesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Matches, newest first, optionally only those of one status, a page at a time.
   */
  listMatches(argument: _mizerka_v1_ListMatchesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_ListMatchesResponse__Output>): grpc.ClientUnaryCall;
  listMatches(argument: _mizerka_v1_ListMatchesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_mizerka_v1_ListMatchesResponse__Output>): grpc.ClientUnaryCall;
  listMatches(argument: _mizerka_v1_ListMatchesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_ListMatchesResponse__Output>): grpc.ClientUnaryCall;
  listMatches(argument: _mizerka_v1_ListMatchesRequest, callback: grpc.requestCallback<_mizerka_v1_ListMatchesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Make the full records of sealed matches public (CreateMatchRequest.group): every match of a
   * group, and/or matches by id. A match still running becomes public when it ends. Publishing is
   * final. An unknown match id: NOT_FOUND, and nothing is published.
   */
  PublishMatches(argument: _mizerka_v1_PublishMatchesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_PublishMatchesResponse__Output>): grpc.ClientUnaryCall;
  PublishMatches(argument: _mizerka_v1_PublishMatchesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_mizerka_v1_PublishMatchesResponse__Output>): grpc.ClientUnaryCall;
  PublishMatches(argument: _mizerka_v1_PublishMatchesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_PublishMatchesResponse__Output>): grpc.ClientUnaryCall;
  PublishMatches(argument: _mizerka_v1_PublishMatchesRequest, callback: grpc.requestCallback<_mizerka_v1_PublishMatchesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Make the full records of sealed matches public (CreateMatchRequest.group): every match of a
   * group, and/or matches by id. A match still running becomes public when it ends. Publishing is
   * final. An unknown match id: NOT_FOUND, and nothing is published.
   */
  publishMatches(argument: _mizerka_v1_PublishMatchesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_PublishMatchesResponse__Output>): grpc.ClientUnaryCall;
  publishMatches(argument: _mizerka_v1_PublishMatchesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_mizerka_v1_PublishMatchesResponse__Output>): grpc.ClientUnaryCall;
  publishMatches(argument: _mizerka_v1_PublishMatchesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_PublishMatchesResponse__Output>): grpc.ClientUnaryCall;
  publishMatches(argument: _mizerka_v1_PublishMatchesRequest, callback: grpc.requestCallback<_mizerka_v1_PublishMatchesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Register a bot and get its id and token. The token is shown only here; a bot presents it in
   * Hello. A name already registered: ALREADY_EXISTS.
   */
  RegisterBot(argument: _mizerka_v1_RegisterBotRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_RegisterBotResponse__Output>): grpc.ClientUnaryCall;
  RegisterBot(argument: _mizerka_v1_RegisterBotRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_mizerka_v1_RegisterBotResponse__Output>): grpc.ClientUnaryCall;
  RegisterBot(argument: _mizerka_v1_RegisterBotRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_RegisterBotResponse__Output>): grpc.ClientUnaryCall;
  RegisterBot(argument: _mizerka_v1_RegisterBotRequest, callback: grpc.requestCallback<_mizerka_v1_RegisterBotResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Register a bot and get its id and token. The token is shown only here; a bot presents it in
   * Hello. A name already registered: ALREADY_EXISTS.
   */
  registerBot(argument: _mizerka_v1_RegisterBotRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_RegisterBotResponse__Output>): grpc.ClientUnaryCall;
  registerBot(argument: _mizerka_v1_RegisterBotRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_mizerka_v1_RegisterBotResponse__Output>): grpc.ClientUnaryCall;
  registerBot(argument: _mizerka_v1_RegisterBotRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_RegisterBotResponse__Output>): grpc.ClientUnaryCall;
  registerBot(argument: _mizerka_v1_RegisterBotRequest, callback: grpc.requestCallback<_mizerka_v1_RegisterBotResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Wait until a match is FINISHED or ABORTED (or until the timeout), then return it.
   */
  WaitMatch(argument: _mizerka_v1_WaitMatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_WaitMatchResponse__Output>): grpc.ClientUnaryCall;
  WaitMatch(argument: _mizerka_v1_WaitMatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_mizerka_v1_WaitMatchResponse__Output>): grpc.ClientUnaryCall;
  WaitMatch(argument: _mizerka_v1_WaitMatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_WaitMatchResponse__Output>): grpc.ClientUnaryCall;
  WaitMatch(argument: _mizerka_v1_WaitMatchRequest, callback: grpc.requestCallback<_mizerka_v1_WaitMatchResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Wait until a match is FINISHED or ABORTED (or until the timeout), then return it.
   */
  waitMatch(argument: _mizerka_v1_WaitMatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_WaitMatchResponse__Output>): grpc.ClientUnaryCall;
  waitMatch(argument: _mizerka_v1_WaitMatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_mizerka_v1_WaitMatchResponse__Output>): grpc.ClientUnaryCall;
  waitMatch(argument: _mizerka_v1_WaitMatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_mizerka_v1_WaitMatchResponse__Output>): grpc.ClientUnaryCall;
  waitMatch(argument: _mizerka_v1_WaitMatchRequest, callback: grpc.requestCallback<_mizerka_v1_WaitMatchResponse__Output>): grpc.ClientUnaryCall;
  
}

/**
 * Administration: register bots, create matches, follow their progress.
 */
export interface ArenaHandlers extends grpc.UntypedServiceImplementation {
  /**
   * Stop unfinished matches: every PENDING or RUNNING match of a group, and/or matches by id. Each
   * stops at once: the bots seated in its running game get GameEnd with aborted set and the
   * reason, and the match is stored ABORTED with the reason as Match.abort_reason (games it
   * finished before stay in Match.results). A match that has already ended is left as it is.
   * Used by an organiser whose own side failed (the league runner, whose bots died with it, stops
   * its league's matches before playing them again). An unknown match id: NOT_FOUND, and nothing
   * is aborted.
   */
  AbortMatches: grpc.handleUnaryCall<_mizerka_v1_AbortMatchesRequest__Output, _mizerka_v1_AbortMatchesResponse>;
  
  /**
   * Create a match: a number of games of one ruleset between the bots seated. It starts (RUNNING)
   * as soon as every seated bot has an idle Play stream, one stream per seat.
   */
  CreateMatch: grpc.handleUnaryCall<_mizerka_v1_CreateMatchRequest__Output, _mizerka_v1_CreateMatchResponse>;
  
  /**
   * A registered bot and how many Play streams it has open now (to see that a bot process is up).
   * Unknown id: NOT_FOUND.
   */
  GetBot: grpc.handleUnaryCall<_mizerka_v1_GetBotRequest__Output, _mizerka_v1_GetBotResponse>;
  
  /**
   * One match: its status, seats and the results so far.
   */
  GetMatch: grpc.handleUnaryCall<_mizerka_v1_GetMatchRequest__Output, _mizerka_v1_GetMatchResponse>;
  
  /**
   * Matches, newest first, optionally only those of one status, a page at a time.
   */
  ListMatches: grpc.handleUnaryCall<_mizerka_v1_ListMatchesRequest__Output, _mizerka_v1_ListMatchesResponse>;
  
  /**
   * Make the full records of sealed matches public (CreateMatchRequest.group): every match of a
   * group, and/or matches by id. A match still running becomes public when it ends. Publishing is
   * final. An unknown match id: NOT_FOUND, and nothing is published.
   */
  PublishMatches: grpc.handleUnaryCall<_mizerka_v1_PublishMatchesRequest__Output, _mizerka_v1_PublishMatchesResponse>;
  
  /**
   * Register a bot and get its id and token. The token is shown only here; a bot presents it in
   * Hello. A name already registered: ALREADY_EXISTS.
   */
  RegisterBot: grpc.handleUnaryCall<_mizerka_v1_RegisterBotRequest__Output, _mizerka_v1_RegisterBotResponse>;
  
  /**
   * Wait until a match is FINISHED or ABORTED (or until the timeout), then return it.
   */
  WaitMatch: grpc.handleUnaryCall<_mizerka_v1_WaitMatchRequest__Output, _mizerka_v1_WaitMatchResponse>;
  
}

export interface ArenaDefinition extends grpc.ServiceDefinition {
  AbortMatches: MethodDefinition<_mizerka_v1_AbortMatchesRequest, _mizerka_v1_AbortMatchesResponse, _mizerka_v1_AbortMatchesRequest__Output, _mizerka_v1_AbortMatchesResponse__Output>
  CreateMatch: MethodDefinition<_mizerka_v1_CreateMatchRequest, _mizerka_v1_CreateMatchResponse, _mizerka_v1_CreateMatchRequest__Output, _mizerka_v1_CreateMatchResponse__Output>
  GetBot: MethodDefinition<_mizerka_v1_GetBotRequest, _mizerka_v1_GetBotResponse, _mizerka_v1_GetBotRequest__Output, _mizerka_v1_GetBotResponse__Output>
  GetMatch: MethodDefinition<_mizerka_v1_GetMatchRequest, _mizerka_v1_GetMatchResponse, _mizerka_v1_GetMatchRequest__Output, _mizerka_v1_GetMatchResponse__Output>
  ListMatches: MethodDefinition<_mizerka_v1_ListMatchesRequest, _mizerka_v1_ListMatchesResponse, _mizerka_v1_ListMatchesRequest__Output, _mizerka_v1_ListMatchesResponse__Output>
  PublishMatches: MethodDefinition<_mizerka_v1_PublishMatchesRequest, _mizerka_v1_PublishMatchesResponse, _mizerka_v1_PublishMatchesRequest__Output, _mizerka_v1_PublishMatchesResponse__Output>
  RegisterBot: MethodDefinition<_mizerka_v1_RegisterBotRequest, _mizerka_v1_RegisterBotResponse, _mizerka_v1_RegisterBotRequest__Output, _mizerka_v1_RegisterBotResponse__Output>
  WaitMatch: MethodDefinition<_mizerka_v1_WaitMatchRequest, _mizerka_v1_WaitMatchResponse, _mizerka_v1_WaitMatchRequest__Output, _mizerka_v1_WaitMatchResponse__Output>
}
