'use strict';
// The Mizerka Arena SDK for Node.js: the Play-stream runtime every bot needs, so that a bot is only
// its decisions. It reads the launch contract (MIZERKA_SERVER, MIZERKA_TOKEN, MIZERKA_PARALLEL and
// the MIZERKA_TLS* settings), opens one Play stream per parallel game, says Hello, hands every
// message to the bot's callbacks, answers refusals, and reconnects with a capped, jittered backoff.
// See README.md; the wire is documented in docs/protocol.md and proto/mizerka/v1/*.proto.

const fs = require('fs');
const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const helpers = require('./helpers');

const SDK_VERSION = '0.2.0';
/** The proto files: bundled in the package (npm pack copies them), else the repository's proto/. */
const PROTO_ROOT = [path.join(__dirname, 'proto'), path.resolve(__dirname, '..', '..', '..', 'proto')]
  .find((dir) => fs.existsSync(path.join(dir, 'mizerka', 'v1', 'referee.proto')));
/**
 * The @grpc/proto-loader options the SDK, its TypeScript types (types/) and the docs assume. With
 * proto-loader's defaults a bot gets camelCase names, numeric enums, no way to tell which oneof
 * arrived, and a missing `seat` when it is 0: none of which matches the docs.
 */
const LOADER_OPTIONS = Object.freeze({
  keepCase: true, // field names as in the .proto: legal_actions, play_card, ...
  longs: String, // uint64 seeds as strings
  enums: String, // kind === 'DECISION_KIND_PLAY'
  defaults: true, // proto3 zero values present: seat 0 is 0, repeated fields are []; `optional` ones stay unset
  oneofs: true, // message.message === 'decision_request', event.kind === 'card_played', ...
});
// The largest message this channel receives or sends; the referee's own messages fit in gRPC's default.
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
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
// Statuses a new stream may cure (the referee is restarting, the network dropped).
const TRANSIENT = new Set([grpc.status.UNAVAILABLE, grpc.status.CANCELLED, grpc.status.INTERNAL, grpc.status.UNKNOWN]);

/** A bad setting: the message names the variable (a program exits 2 on it). */
class SettingsError extends Error {}

function log(...args) {
  console.log(`[${new Date().toISOString()}]`, ...args);
}

/** The mizerka.v1 package (Referee and Arena services, every message), loaded with LOADER_OPTIONS. */
function loadProto(protoRoot = PROTO_ROOT) {
  if (!protoRoot) throw new Error('no proto/ folder found: pass the folder that holds mizerka/v1/*.proto');
  const definition = protoLoader.loadSync(['mizerka/v1/referee.proto', 'mizerka/v1/arena.proto'],
    { ...LOADER_OPTIONS, includeDirs: [protoRoot] });
  return grpc.loadPackageDefinition(definition).mizerka.v1;
}

/** The PEM file's bytes; a SettingsError naming the variable and the file otherwise. */
function readPem(variable, file, marker) {
  let data;
  try {
    data = fs.readFileSync(file);
  } catch (err) {
    throw new SettingsError(`${variable}: cannot read ${file}: ${err.message}`);
  }
  if (!data.includes('-----BEGIN ') || !data.includes(marker)) throw new SettingsError(`${variable}: ${file} is not a PEM ${marker} file`);
  return data;
}

/** Where the referee is and how to reach it: { server: 'host:port', tls: null | { ca, cert, key, serverName } }. */
function connection(env) {
  let server = (env.MIZERKA_SERVER || '127.0.0.1:50051').trim();
  const https = server.toLowerCase().startsWith('https://');
  if (https) server = server.slice('https://'.length).replace(/\/+$/, '');
  const flag = (env.MIZERKA_TLS || '').trim().toLowerCase();
  if (!['', '0', 'false', 'no', 'off', '1', 'true', 'yes', 'on'].includes(flag)) {
    throw new SettingsError(`MIZERKA_TLS must be 1 (use TLS) or 0, not ${JSON.stringify(env.MIZERKA_TLS)}`);
  }
  const [ca, cert, key, serverName] = ['CA', 'CERT', 'KEY', 'SERVER_NAME'].map((v) => env[`MIZERKA_TLS_${v}`] || '');
  if (!(https || ['1', 'true', 'yes', 'on'].includes(flag) || ca || cert || key || serverName)) return { server, tls: null };
  if (!cert !== !key) throw new SettingsError('MIZERKA_TLS_CERT and MIZERKA_TLS_KEY go together: set both or neither');
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

/** The launch contract read from `env`, plus `name`, `version`, `liveEvents` and `games` given in code. */
function settings(env, given = {}) {
  const token = env.MIZERKA_TOKEN || '';
  if (!token) throw new SettingsError('no bot token: set MIZERKA_TOKEN (Arena.RegisterBot gives one)');
  const parallelText = env.MIZERKA_PARALLEL === undefined || env.MIZERKA_PARALLEL === '' ? '1' : env.MIZERKA_PARALLEL;
  if (!/^\s*\d+\s*$/.test(parallelText) || Number(parallelText) < 1) {
    throw new SettingsError(`MIZERKA_PARALLEL must be a whole number of at least 1, not ${JSON.stringify(parallelText)}`);
  }
  const games = given.games || 0;
  if (!Number.isInteger(games) || games < 0) throw new SettingsError(`games must be a whole number, not ${given.games}`);
  return {
    ...connection(env),
    token,
    parallel: Number(parallelText),
    games,
    name: given.name || 'node-bot',
    version: given.version || SDK_VERSION,
    liveEvents: Boolean(given.liveEvents),
  };
}

/** A capped exponential backoff with jitter: a delay in [d/2, d], d = initial * 2^(failures-1). */
function backoff(failures) {
  const d = Math.min(BACKOFF_MAX_MS, BACKOFF_INITIAL_MS * 2 ** Math.max(0, failures - 1));
  return d / 2 + Math.random() * (d / 2);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const newGame = () => ({ events: 0, batched: 0, folded: 0, deals: 0 });

/** What all streams share: settings, the bot, counters and the games budget. */
class Runner {
  constructor(bot, opts, client) {
    this.bot = bot;
    this.opts = opts;
    this.client = client;
    this.seats = [];
    this.gamesPlayed = 0;
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

/** One Play stream (one seat at a time) across reconnects; handed to the bot's callbacks. */
class Seat {
  constructor(runner, index) {
    this.runner = runner;
    this.index = index;
    this.call = null;
    this.inGame = false;
    this.closing = false;
    this.failures = 0;
    this.pending = null; // the DecisionRequest being answered
    this.game = null; // per-game counters
  }

  log(...args) {
    log(`stream ${this.index}:`, ...args);
  }

  /** Send an Action (a plain object: { turn, play_card: { card } }, ...) on this stream. */
  send(action) {
    if (this.call) this.call.write({ action });
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
      if (!TRANSIENT.has(status.code)) throw new Error(`${r.opts.server}: the stream ended with ${grpc.status[status.code]}: ${status.details}`);
      if (this.inGame) this.log('lost the stream during a game: the referee plays the rest of it by default');
      this.inGame = false;
      this.pending = null;
      this.failures += 1;
      const delay = backoff(this.failures);
      this.log(`${grpc.status[status.code]}: ${status.details}; reconnecting to ${r.opts.server} in ${Math.round(delay)} ms`);
      await sleep(delay);
    }
  }

  /** One Play call: Hello, then every message until the call ends; resolves with its status. */
  session() {
    const { opts, client } = this.runner;
    return new Promise((resolve) => {
      let settled = false;
      const finish = (status) => {
        if (!settled) {
          settled = true;
          resolve(status);
        }
      };
      const call = client.Play();
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
      call.write({ hello: { token: opts.token, name: opts.name, version: opts.version, live_events: opts.liveEvents } });
    });
  }

  handle(message) {
    const r = this.runner;
    const bot = r.bot;
    switch (message.message) {
      case 'welcome': {
        const w = message.welcome;
        this.failures = 0;
        this.log(`connected as ${w.name} (${w.bot_id}), referee ${w.server_version || '?'}`);
        if (r.done) this.closeIfIdle();
        break;
      }
      case 'game_start': {
        const g = message.game_start;
        this.inGame = true;
        this.game = newGame();
        this.log(`game ${g.game_number + 1}/${g.games} of match ${g.match_id} starts: ${g.ruleset.preset}, seat ${g.seat}, players ${g.names.join(', ')}`);
        if (bot.onGameStart) bot.onGameStart(g, this);
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
        if (bot.onGameEnd) bot.onGameEnd(end, this);
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
    if (event.kind === 'deal_ended') g.deals += 1;
    else if (event.kind === 'default_applied') this.log(`the referee decided turn ${event.default_applied.turn} for us (${event.default_applied.reason})`);
    else if (event.kind === 'strike_counted') this.log(`strike ${event.strike_counted.strikes} counted (turn ${event.strike_counted.turn})`);
    if (this.runner.bot.onEvent) this.runner.bot.onEvent(event, this);
  }

  /** Ask the bot; it returns an Action, or null when it answers by itself (seat.send). */
  decide(request) {
    this.runner.stats.decisions += 1;
    this.pending = request;
    let action;
    try {
      action = this.runner.bot.decide(request, this);
    } catch (err) {
      this.log('the bot failed; sending the default action:', err && err.stack ? err.stack : err);
      action = helpers.defaultAction(request);
    }
    if (action === undefined) action = helpers.defaultAction(request);
    if (action !== null) this.send({ ...action, turn: request.turn });
  }

  /** A refusal: logged; with retry for the pending turn, the default action goes instead. */
  onError(error) {
    this.runner.stats.refusals += 1;
    this.log(`action refused: ${error.code} (turn ${error.turn}, retry ${error.retry}, strikes ${error.strikes}): ${error.message}`);
    const pending = this.pending;
    if (this.runner.bot.onError) this.runner.bot.onError(error, this);
    if (error.retry && pending && pending.turn === error.turn) {
      this.log(`retrying turn ${pending.turn} with the default action`);
      this.send(helpers.defaultAction(pending));
    }
  }
}

/**
 * Play with `bot` ({ decide(request, seat), onGameStart?, onEvent?, onError?, onGameEnd? }) until
 * every stream has ended. `options`: { env = process.env, name, version, liveEvents, games }.
 * Resolves with the counters; rejects with a SettingsError for bad settings, an Error when the
 * referee refuses the bot for good.
 */
async function run(bot, options = {}) {
  const opts = settings(options.env || process.env, options);
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
  const client = new (loadProto().Referee)(opts.server, credentials, channelOptions);
  const runner = new Runner(bot, opts, client);
  log(`${opts.name} ${opts.version}: ${opts.parallel} stream(s) to ${opts.server}${tls ? ' over TLS' : ''}`);
  const stop = () => {
    log('interrupted: closing the streams');
    for (const seat of runner.seats) if (seat.call) seat.call.cancel();
    process.exit(130);
  };
  process.on('SIGINT', stop);
  try {
    await runner.run();
  } finally {
    process.removeListener('SIGINT', stop);
    client.close();
  }
  const s = runner.stats;
  log(`done: ${s.games} games, ${s.decisions} decisions, ${s.refusals} refusals, `
    + `${s.batchedEvents} events in ${s.batches} batches, ${s.foldedEvents} events folded into decisions`);
  return s;
}

/** `run` for a program: exit 2 on bad settings, 1 when the referee refused the bot, 0 when done. */
async function main(bot, options = {}) {
  const program = options.name || 'mizerka-node-bot';
  try {
    await run(bot, options);
  } catch (err) {
    console.error(`${program}: ${err.message}`);
    process.exit(err instanceof SettingsError ? 2 : 1);
  }
}

module.exports = {
  LOADER_OPTIONS, PROTO_ROOT, SDK_VERSION, SettingsError, backoff, connection, helpers, loadProto, main, run, settings,
};
