// The SDK's API. The message types are generated from proto/ by `npm run types` (proto-loader-gen-types
// with the options of LOADER_OPTIONS): `X__Output` is a message as the SDK hands it to you, `X` one
// you send.
import type { Action } from './types/mizerka/v1/Action';
import type { ActionError__Output } from './types/mizerka/v1/ActionError';
import type { ContractInfo__Output } from './types/mizerka/v1/ContractInfo';
import type { DecisionRequest__Output } from './types/mizerka/v1/DecisionRequest';
import type { Event__Output } from './types/mizerka/v1/Event';
import type { GameEnd__Output } from './types/mizerka/v1/GameEnd';
import type { GameStart__Output } from './types/mizerka/v1/GameStart';
import type { PlayerState__Output } from './types/mizerka/v1/PlayerState';
import type { Trick__Output } from './types/mizerka/v1/Trick';
import type { TrickPlay__Output } from './types/mizerka/v1/TrickPlay';

export type { Action, ActionError__Output, DecisionRequest__Output, Event__Output, GameEnd__Output, GameStart__Output };

export declare const SDK_VERSION: string;
/** The folder holding mizerka/v1/*.proto that the SDK loads. */
export declare const PROTO_ROOT: string | undefined;
/** The @grpc/proto-loader options the SDK and its types assume. */
export declare const LOADER_OPTIONS: Readonly<{
  keepCase: true; longs: StringConstructor; enums: StringConstructor; defaults: true; oneofs: true;
}>;

/** A bad setting; the message names the variable. `main` exits 2 on it. */
export declare class SettingsError extends Error {}

/** One Play stream, handed to the bot's callbacks. */
export interface Seat {
  readonly index: number;
  /** Send an Action on this stream (for a bot that answers by itself: `decide` returned null). */
  send(action: Action): void;
  log(...args: unknown[]): void;
}

/** A bot: its decisions, and what it wants to hear about. */
export interface Bot {
  /** An Action for the request (its turn is filled in), null if the bot sends one itself, undefined for the default action. */
  decide(request: DecisionRequest__Output, seat: Seat): Action | null | undefined;
  onGameStart?(start: GameStart__Output, seat: Seat): void;
  onEvent?(event: Event__Output, seat: Seat): void;
  /** A refusal; with retry for the pending turn the SDK then sends the default action. */
  onError?(error: ActionError__Output, seat: Seat): void;
  onGameEnd?(end: GameEnd__Output, seat: Seat): void;
}

export interface RunOptions {
  /** Where the launch contract is read (MIZERKA_SERVER, MIZERKA_TOKEN, MIZERKA_PARALLEL, MIZERKA_TLS*); default process.env. */
  env?: Record<string, string | undefined>;
  /** The name and version sent in Hello. */
  name?: string;
  version?: string;
  /** Hello.live_events: every event at once in an EventBatch. */
  liveEvents?: boolean;
  /** Stop after this many games in all (0: no limit). */
  games?: number;
}

export interface Stats {
  games: number; decisions: number; refusals: number; batches: number; batchedEvents: number; foldedEvents: number;
}

/** Play until every stream has ended; rejects with SettingsError, or Error when the referee refuses the bot. */
export declare function run(bot: Bot, options?: RunOptions): Promise<Stats>;
/** `run` for a program: exits 2 on bad settings, 1 when refused. */
export declare function main(bot: Bot, options?: RunOptions): Promise<void>;
/** The capped, jittered reconnect delay in ms after `failures` failures in a row. */
export declare function backoff(failures: number): number;
/** The mizerka.v1 package loaded with LOADER_OPTIONS (Referee and Arena service constructors, messages). */
export declare function loadProto(protoRoot?: string): any;

export declare namespace helpers {
  const RANKS: string;
  const SUITS: string;
  function rank(card: string): number;
  function suit(card: string): string;
  function me(request: DecisionRequest__Output): PlayerState__Output;
  function hand(request: DecisionRequest__Output): string[];
  function legalOf(request: DecisionRequest__Output, which: 'play_card' | 'choose_contract' | 'announce_major'): Action[];
  function legalCards(request: DecisionRequest__Output): string[];
  function playAction(request: DecisionRequest__Output, card: string): Action | undefined;
  function currentTrick(request: DecisionRequest__Output): Trick__Output | null;
  function winningPlay(request: DecisionRequest__Output): TrickPlay__Output | null;
  function contract(request: DecisionRequest__Output): { name: string; trump: string; minus: boolean; major: boolean } | null;
  function contractInfo(request: DecisionRequest__Output, name: string): ContractInfo__Output | undefined;
  /** DecisionRequest.default_action (what the referee plays on a timeout); from an older referee, a pass or legal_actions[0]. */
  function defaultAction(request: DecisionRequest__Output): Action;
  /** DecisionRequest.takes_trick for a legal card; undefined for another card or when the referee did not say. */
  function takesTrick(request: DecisionRequest__Output, card: string): boolean | undefined;
  function exchangeAction(request: DecisionRequest__Output, discard: string[], take?: string[]): Action;
}
