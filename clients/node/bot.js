#!/usr/bin/env node
'use strict';
// An example Mizerka Arena bot in JavaScript: a gRPC client of mizerka.v1.Referee.Play.
//
// It loads the contract straight from the repository's proto/ folder (no generated code, no copies),
// opens MIZERKA_PARALLEL Play streams to MIZERKA_SERVER with the token MIZERKA_TOKEN, and plays
// every game the referee seats it in with the card sense of strategy.js.
//
// Environment (the launch contract every Mizerka bot follows):
//   MIZERKA_SERVER    host:port of the referee (default 127.0.0.1:50051)
//   MIZERKA_TOKEN     the bot's token from Arena.RegisterBot (required)
//   MIZERKA_PARALLEL  how many Play streams to open = games it may play at once (default 1)
//   MIZERKA_GAMES     optional: stop after this many games in all (streams close between games)
//   MIZERKA_NAME      optional: the name sent in Hello (default "node-heuristic")
//   MIZERKA_VERBOSE   optional: 1 logs every deal result
//   MIZERKA_LIVE_EVENTS  optional: 1 asks for every event at once in an EventBatch (Hello.live_events);
//                     by default the events ride on the next DecisionRequest
//   MIZERKA_TEST_BAD_FIRST  test hook: 1 makes the first card decision start with a stale-turn
//                     action and a card not held, to exercise the referee's refusals
// TLS (docs/protocol.md, TLS): used when MIZERKA_SERVER starts with https://, when MIZERKA_TLS=1,
// or when any of these is set:
//   MIZERKA_TLS_CA    PEM file of the CA certificates to trust (default: the system's roots)
//   MIZERKA_TLS_CERT, MIZERKA_TLS_KEY  this bot's certificate chain and key, for mutual TLS
//   MIZERKA_TLS_SERVER_NAME  the name the referee's certificate carries, if not the server's host
// Exit codes: 0 when every stream ended (the referee closed it, or MIZERKA_GAMES were played),
// 1 when the referee refused the bot for good (bad token, ...), 2 for bad settings.

const fs = require('fs');
const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const strategy = require('./strategy');

const VERSION = '1.0.0';
const PROTO_ROOT = path.resolve(__dirname, '..', '..', 'proto');
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
const BACKOFF_INITIAL_MS = 200;
const BACKOFF_MAX_MS = 10000;
// Statuses no reconnect can fix: stop and say why.
const FATAL = new Map([
  [grpc.status.UNAUTHENTICATED, 'the referee refused the token (check MIZERKA_TOKEN)'],
  [grpc.status.PERMISSION_DENIED, 'the referee refused this bot'],
  [grpc.status.FAILED_PRECONDITION, 'the referee refused the stream opening'],
  [grpc.status.RESOURCE_EXHAUSTED, 'a message was too large for the referee'],
  [grpc.status.INVALID_ARGUMENT, 'the referee refused a message as invalid'],
  [grpc.status.UNIMPLEMENTED, 'no mizerka.v1.Referee service at this address'],
]);

function log(...args) {
  console.log(`[${new Date().toISOString()}]`, ...args);
}

function loadReferee() {
  const definition = protoLoader.loadSync('mizerka/v1/referee.proto', {
    includeDirs: [PROTO_ROOT],
    keepCase: true, // field names as in the .proto: legal_actions, play_card, ...
    longs: String,
    enums: String, // kind === 'DECISION_KIND_PLAY'
    defaults: true, // repeated fields are [] and scalars 0 / "" when absent; optional fields stay undefined
    oneofs: true, // message.message === 'decision_request', ...
  });
  return grpc.loadPackageDefinition(definition).mizerka.v1;
}

/** The PEM file's bytes; a clear error naming the variable and the file otherwise. */
function readPem(variable, file, marker) {
  let data;
  try {
    data = fs.readFileSync(file);
  } catch (err) {
    throw new Error(`${variable}: cannot read ${file}: ${err.message}`);
  }
  if (!data.includes('-----BEGIN ') || !data.includes(marker)) throw new Error(`${variable}: ${file} is not a PEM ${marker} file`);
  return data;
}

/** Where the referee is and how to reach it: { server: 'host:port', tls: null | { ca, cert, key, serverName } }. */
function connection(env) {
  let server = (env.MIZERKA_SERVER || '127.0.0.1:50051').trim();
  const https = server.toLowerCase().startsWith('https://');
  if (https) server = server.slice('https://'.length).replace(/\/+$/, '');
  const flag = (env.MIZERKA_TLS || '').trim().toLowerCase();
  if (!['', '0', 'false', 'no', 'off', '1', 'true', 'yes', 'on'].includes(flag)) {
    throw new Error(`MIZERKA_TLS must be 1 (use TLS) or 0, not ${JSON.stringify(env.MIZERKA_TLS)}`);
  }
  const [ca, cert, key, serverName] = ['CA', 'CERT', 'KEY', 'SERVER_NAME'].map((v) => env[`MIZERKA_TLS_${v}`] || '');
  if (!(https || ['1', 'true', 'yes', 'on'].includes(flag) || ca || cert || key || serverName)) return { server, tls: null };
  if (!cert !== !key) throw new Error('MIZERKA_TLS_CERT and MIZERKA_TLS_KEY go together: set both or neither');
  return {
    server,
    tls: {
      ca: ca ? readPem('MIZERKA_TLS_CA', ca, 'CERTIFICATE') : null,
      cert: cert ? readPem('MIZERKA_TLS_CERT', cert, 'CERTIFICATE') : null,
      key: key ? readPem('MIZERKA_TLS_KEY', key, 'PRIVATE KEY') : null,
      serverName: serverName || null,
    },
  };
}

function settings(env) {
  const token = env.MIZERKA_TOKEN || '';
  if (!token) throw new Error('no bot token: set MIZERKA_TOKEN (Arena.RegisterBot gives one)');
  const parallelText = env.MIZERKA_PARALLEL === undefined || env.MIZERKA_PARALLEL === '' ? '1' : env.MIZERKA_PARALLEL;
  if (!/^\s*\d+\s*$/.test(parallelText) || Number(parallelText) < 1) {
    throw new Error(`MIZERKA_PARALLEL must be a whole number of at least 1, not ${JSON.stringify(parallelText)}`);
  }
  const games = env.MIZERKA_GAMES ? Number(env.MIZERKA_GAMES) : 0;
  if (!Number.isInteger(games) || games < 0) throw new Error(`MIZERKA_GAMES must be a whole number, not ${env.MIZERKA_GAMES}`);
  return {
    ...connection(env),
    token,
    parallel: Number(parallelText),
    games,
    name: env.MIZERKA_NAME || 'node-heuristic',
    verbose: env.MIZERKA_VERBOSE === '1',
    liveEvents: env.MIZERKA_LIVE_EVENTS === '1',
    badFirst: env.MIZERKA_TEST_BAD_FIRST === '1',
  };
}

/** A capped exponential backoff with jitter: a delay in [d/2, d], d = initial * 2^(failures-1). */
function backoff(failures) {
  const d = Math.min(BACKOFF_MAX_MS, BACKOFF_INITIAL_MS * 2 ** Math.max(0, failures - 1));
  return d / 2 + Math.random() * (d / 2);
}

const newGame = () => ({ events: 0, batched: 0, folded: 0, deals: 0, defaults: 0 });

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** What all streams share: settings, counters, and the games budget. */
class Runner {
  constructor(opts, client) {
    this.opts = opts;
    this.client = client;
    this.seats = [];
    this.gamesPlayed = 0;
    this.badFirstUsed = false;
    this.stats = { games: 0, decisions: 0, refusals: 0, batches: 0, batchedEvents: 0, foldedEvents: 0 };
  }

  get done() {
    return this.opts.games > 0 && this.gamesPlayed >= this.opts.games;
  }

  gameOver() {
    this.gamesPlayed += 1;
    if (this.done) for (const seat of this.seats) seat.closeIfIdle();
  }

  async run() {
    for (let i = 0; i < this.opts.parallel; i++) this.seats.push(new Seat(this, i));
    const outcomes = await Promise.allSettled(this.seats.map((s) => s.run()));
    const failed = outcomes.find((o) => o.status === 'rejected');
    if (failed) throw failed.reason;
  }
}

/** One Play stream (one seat) across reconnects. */
class Seat {
  constructor(runner, index) {
    this.runner = runner;
    this.index = index;
    this.call = null;
    this.inGame = false;
    this.closing = false;
    this.failures = 0;
    this.pending = null; // the DecisionRequest we are answering
    this.sentLegal = null; // the last Action we chose for it
    this.game = null; // per-game counters
  }

  log(...args) {
    log(`stream ${this.index}:`, ...args);
  }

  /** Close our side between games: the referee then ends the stream with status OK. */
  closeIfIdle() {
    if (this.call && !this.inGame && !this.closing) {
      this.closing = true;
      this.call.end();
    }
  }

  async run() {
    const r = this.runner;
    for (;;) {
      if (r.done && !this.inGame) return;
      const status = await this.session();
      this.call = null;
      if (status.code === grpc.status.OK) {
        this.log('the stream ended (status OK); leaving');
        return;
      }
      if (FATAL.has(status.code)) {
        throw new Error(`${r.opts.server}: ${grpc.status[status.code]}: ${FATAL.get(status.code)} (referee said: ${status.details})`);
      }
      if (this.closing || r.done) return;
      if (status.code !== grpc.status.UNAVAILABLE && status.code !== grpc.status.CANCELLED
        && status.code !== grpc.status.INTERNAL && status.code !== grpc.status.UNKNOWN) {
        throw new Error(`${r.opts.server}: the stream ended with ${grpc.status[status.code]}: ${status.details}`);
      }
      if (this.inGame) this.log('lost the stream during a game: the referee plays the rest of it by default');
      this.inGame = false;
      this.pending = null;
      this.failures += 1;
      const delay = backoff(this.failures);
      this.log(`${grpc.status[status.code]}: ${status.details}; reconnecting to ${r.opts.server} in ${Math.round(delay)} ms`);
      await sleep(delay);
    }
  }

  /** One Play call: Hello, then handle every message until the call ends; resolves with its status. */
  session() {
    const r = this.runner;
    return new Promise((resolve) => {
      let settled = false;
      const finish = (status) => {
        if (!settled) {
          settled = true;
          resolve(status);
        }
      };
      const call = r.client.Play();
      this.call = call;
      this.closing = false;
      call.on('data', (message) => {
        try {
          this.handle(message);
        } catch (err) {
          this.log('error handling a message:', err && err.stack ? err.stack : err);
        }
      });
      // 'error' carries a non-OK status (and is followed by 'status'); without a listener Node would throw.
      call.on('error', (err) => finish({ code: err.code, details: err.details || err.message }));
      call.on('status', (status) => finish(status));
      call.write({ hello: { token: r.opts.token, name: r.opts.name, version: VERSION, live_events: r.opts.liveEvents } });
    });
  }

  send(action) {
    if (this.call) this.call.write({ action });
  }

  handle(message) {
    const r = this.runner;
    switch (message.message) {
      case 'welcome': {
        const w = message.welcome;
        this.failures = 0;
        this.log(`connected as ${w.name} (${w.bot_id}), referee ${w.server_version || '?'}`);
        if (w.max_message_bytes > MAX_MESSAGE_BYTES) {
          this.log(`warning: the referee accepts ${w.max_message_bytes} bytes; this channel receives ${MAX_MESSAGE_BYTES}`);
        }
        if (r.done) this.closeIfIdle();
        break;
      }
      case 'game_start': {
        const g = message.game_start;
        this.inGame = true;
        this.game = newGame();
        this.log(`game ${g.game_number + 1}/${g.games} of match ${g.match_id} starts: ${g.ruleset.preset}, seat ${g.seat}, players ${g.names.join(', ')}`);
        break;
      }
      case 'event_batch':
        r.stats.batches += 1;
        r.stats.batchedEvents += message.event_batch.events.length;
        if (this.game) this.game.batched += message.event_batch.events.length;
        for (const event of message.event_batch.events) this.onEvent(event);
        break;
      case 'decision_request': {
        const request = message.decision_request;
        // The events since our previous message ride on the request; the view already reflects them.
        r.stats.foldedEvents += request.events.length;
        if (this.game) this.game.folded += request.events.length;
        for (const event of request.events) this.onEvent(event);
        this.decide(request);
        break;
      }
      case 'action_error':
        this.onError(message.action_error);
        break;
      case 'game_end': {
        const end = message.game_end;
        const mine = end.seats[end.seat] || {};
        this.inGame = false;
        this.pending = null;
        r.stats.games += 1;
        const g = this.game || newGame();
        this.log(`game over${end.aborted ? ` (aborted: ${end.abort_reason})` : ''}: rank ${end.rank}, totals [${end.totals.join(', ')}], `
          + `refusals ${mine.refusals || 0}, defaults ${mine.defaults_applied || 0}; ${g.events} events `
          + `(${g.batched} in EventBatches, ${g.folded} with decisions), ${g.deals} deals ended`);
        r.gameOver();
        break;
      }
      default:
        this.log(`ignoring an unknown message ${message.message}`);
    }
  }

  onEvent(event) {
    const g = this.game || (this.game = newGame());
    g.events += 1;
    switch (event.kind) {
      case 'deal_ended': {
        g.deals += 1;
        const res = event.deal_ended.result;
        if (this.runner.opts.verbose) {
          this.log(`deal ${res.deal}: ${res.contract} by seat ${res.declarer}, tricks [${res.tricks.join(', ')}], points [${res.points.join(', ')}]`);
        }
        break;
      }
      case 'default_applied':
        g.defaults += 1;
        this.log(`the referee decided turn ${event.default_applied.turn} for us (${event.default_applied.reason})`);
        break;
      case 'strike_counted':
        this.log(`strike ${event.strike_counted.strikes} counted (turn ${event.strike_counted.turn})`);
        break;
      default:
        break;
    }
  }

  decide(request) {
    const r = this.runner;
    r.stats.decisions += 1;
    this.pending = request;
    let action;
    try {
      action = strategy.decide(request);
    } catch (err) {
      this.log('the strategy failed; sending the first legal action:', err && err.stack ? err.stack : err);
      action = strategy.fallback(request);
    }
    if (r.opts.badFirst && !r.badFirstUsed && request.kind === 'DECISION_KIND_PLAY') {
      // Test hook: a stale turn (refused with retry = false) and a card we do not hold (refused
      // with retry = true); the real answer then follows the refusals.
      r.badFirstUsed = true;
      const me = request.view.players[request.view.seat] || { hand: [] };
      const notHeld = strategy.DECK.find((c) => !me.hand.includes(c));
      this.log(`test: sending a stale turn and ${notHeld} (not held) for turn ${request.turn}`);
      this.send({ turn: request.turn + 1000, play_card: { card: notHeld } });
      this.send({ turn: request.turn, play_card: { card: notHeld } });
      return; // answered on the ActionError (retry = true)
    }
    this.send(action);
  }

  onError(error) {
    this.runner.stats.refusals += 1;
    this.log(`action refused: ${error.code} (turn ${error.turn}, retry ${error.retry}, strikes ${error.strikes}): ${error.message}`);
    const pending = this.pending;
    if (error.retry && pending && pending.turn === error.turn) {
      const action = strategy.fallback(pending);
      this.log(`retrying turn ${pending.turn} with the first legal action`);
      this.send(action);
    }
  }
}

async function main() {
  let opts;
  try {
    opts = settings(process.env);
  } catch (err) {
    console.error(`mizerka-node-bot: ${err.message}`);
    process.exit(2);
  }
  const Referee = loadReferee().Referee;
  const channelOptions = {
    'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
    // Keep gRPC's own reconnect backoff close to ours, so a restarted referee is found quickly.
    'grpc.initial_reconnect_backoff_ms': BACKOFF_INITIAL_MS,
    'grpc.max_reconnect_backoff_ms': BACKOFF_MAX_MS,
  };
  const { tls } = opts;
  if (tls && tls.serverName) channelOptions['grpc.ssl_target_name_override'] = tls.serverName;
  // Over TLS the tokens are encrypted; createSsl(null, ...) trusts the system's CA roots.
  const credentials = tls ? grpc.credentials.createSsl(tls.ca, tls.key, tls.cert) : grpc.credentials.createInsecure();
  const client = new Referee(opts.server, credentials, channelOptions);
  const runner = new Runner(opts, client);
  log(`mizerka-node-bot ${VERSION}: ${opts.parallel} stream(s) to ${opts.server}${tls ? ' over TLS' : ''}`);
  const stop = () => {
    log('interrupted: closing the streams');
    for (const seat of runner.seats) if (seat.call) seat.call.cancel();
    process.exit(130);
  };
  process.on('SIGINT', stop);
  try {
    await runner.run();
  } catch (err) {
    console.error(`mizerka-node-bot: ${err.message}`);
    client.close();
    process.exit(1);
  }
  const s = runner.stats;
  log(`done: ${s.games} games, ${s.decisions} decisions, ${s.refusals} refusals, `
    + `${s.batchedEvents} events in ${s.batches} batches, ${s.foldedEvents} events folded into decisions`);
  client.close();
}

if (require.main === module) main();

module.exports = { settings, connection, backoff };
