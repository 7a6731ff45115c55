#!/usr/bin/env node
'use strict';
// An example Mizerka Arena bot in JavaScript, on the Node SDK (./sdk): the SDK runs the Play
// streams (launch contract, TLS, parallel games, Hello, refusals, reconnects); this file adds only
// the card sense of strategy.js and a few settings of its own.
//
// Environment (the launch contract every Mizerka bot follows; see sdk/README.md):
//   MIZERKA_SERVER, MIZERKA_TOKEN, MIZERKA_PARALLEL, MIZERKA_TLS* (read by the SDK)
//   MIZERKA_GAMES     optional: stop after this many games in all (streams close between games)
//   MIZERKA_NAME      optional: the name sent in Hello (default "node-heuristic")
//   MIZERKA_VERBOSE   optional: 1 logs every deal result
//   MIZERKA_LIVE_EVENTS  optional: 1 asks for every event at once in an EventBatch (Hello.live_events);
//                     by default the events ride on the next DecisionRequest
//   MIZERKA_TEST_BAD_FIRST  test hook: 1 makes the first card decision start with a stale-turn
//                     action and a card not held, to exercise the referee's refusals
// Exit codes: 0 when every stream ended (the referee closed it, or MIZERKA_GAMES were played),
// 1 when the referee refused the bot for good (bad token, ...), 2 for bad settings.

const sdk = require('./sdk');
const strategy = require('./strategy');

const VERSION = '1.1.0';

/** The bot: the strategy's decisions, with the test hook and the verbose deal log. */
function heuristicBot(env) {
  let badFirst = env.MIZERKA_TEST_BAD_FIRST === '1';
  return {
    decide(request, seat) {
      if (badFirst && request.kind === 'DECISION_KIND_PLAY') {
        // Test hook: a stale turn (refused with retry = false) and a card we do not hold (refused
        // with retry = true); the SDK answers the retry with the default action.
        badFirst = false;
        const held = sdk.helpers.hand(request);
        const notHeld = strategy.DECK.find((c) => !held.includes(c));
        seat.log(`test: sending a stale turn and ${notHeld} (not held) for turn ${request.turn}`);
        seat.send({ turn: request.turn + 1000, play_card: { card: notHeld } });
        seat.send({ turn: request.turn, play_card: { card: notHeld } });
        return null; // answered on the ActionError (retry = true)
      }
      return strategy.decide(request);
    },
    onEvent(event, seat) {
      if (event.kind === 'deal_ended' && env.MIZERKA_VERBOSE === '1') {
        const res = event.deal_ended.result;
        seat.log(`deal ${res.deal}: ${res.contract} by seat ${res.declarer}, tricks [${res.tricks.join(', ')}], points [${res.points.join(', ')}]`);
      }
    },
  };
}

function options(env) {
  const games = env.MIZERKA_GAMES ? Number(env.MIZERKA_GAMES) : 0;
  if (!Number.isInteger(games) || games < 0) {
    console.error(`mizerka-node-bot: MIZERKA_GAMES must be a whole number, not ${env.MIZERKA_GAMES}`);
    process.exit(2);
  }
  return { env, games, name: env.MIZERKA_NAME || 'node-heuristic', version: VERSION, liveEvents: env.MIZERKA_LIVE_EVENTS === '1' };
}

if (require.main === module) sdk.main(heuristicBot(process.env), options(process.env));

module.exports = { heuristicBot };
