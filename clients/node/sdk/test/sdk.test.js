'use strict';
// The SDK under node's test runner. The settings and helpers tests need nothing; the last test plays
// one real game and runs when tests/test_node_bot.py gives it a referee (MIZERKA_SERVER and
// MIZERKA_TOKEN of a bot seated in a match): `npm test` alone skips it.
const test = require('node:test');
const assert = require('node:assert/strict');
const sdk = require('..');

const { helpers } = sdk;

test('settings: the launch contract, with errors naming the variable', () => {
  const s = sdk.settings({ MIZERKA_SERVER: 'https://arena.example:443/', MIZERKA_TOKEN: 't', MIZERKA_PARALLEL: '3' });
  assert.deepEqual([s.server, s.parallel, s.tls.serverName], ['arena.example:443', 3, null]);
  assert.equal(sdk.settings({ MIZERKA_TOKEN: 't' }).tls, null);
  assert.throws(() => sdk.settings({}), (e) => e instanceof sdk.SettingsError && /MIZERKA_TOKEN/.test(e.message));
  assert.throws(() => sdk.settings({ MIZERKA_TOKEN: 't', MIZERKA_PARALLEL: '0' }), /MIZERKA_PARALLEL/);
  assert.throws(() => sdk.settings({ MIZERKA_TOKEN: 't', MIZERKA_TLS_CA: '/missing.pem' }), /MIZERKA_TLS_CA: cannot read \/missing.pem/);
  assert.throws(() => sdk.settings({ MIZERKA_TOKEN: 't', MIZERKA_TLS_CERT: 'c.pem' }), /go together/);
});

test('backoff: jittered, doubling, capped', () => {
  for (let failures = 1; failures <= 12; failures++) {
    const d = Math.min(10000, 200 * 2 ** (failures - 1));
    const delay = sdk.backoff(failures);
    assert.ok(delay >= d / 2 && delay <= d, `${failures}: ${delay}`);
  }
});

test('helpers read the request: legal cards, the winning play, which card takes the trick, contract facts, the default action', () => {
  const request = {
    turn: 9, kind: 'DECISION_KIND_PLAY',
    view: { seat: 1, contract: 'hearts', contract_name: 'hearts', trump: 'H', contract_minus: false, contract_major: false,
      players: [{ hand: [] }, { hand: ['4D', '8D', 'JH'] }, { hand: [] }],
      tricks: [{ leader: 0, plays: [{ seat: 0, card: 'AC' }], winning: 0, winner: 0 },
        { leader: 0, plays: [{ seat: 0, card: '2D' }, { seat: 2, card: 'QD' }], winning: 2 }] },
    legal_actions: [{ turn: 9, play_card: { card: '4D' } }, { turn: 9, play_card: { card: '8D' } }],
    // The referee's word, read as told (here against the ranks, which say neither beats QD).
    takes_trick: [false, true],
    default_action: { turn: 9, play_card: { card: '8D' }, action: 'play_card' },
    ruleset: { contracts: [{ name: 'hearts', trump: 'H', minus: false }, { name: 'mizerka', trump: '', minus: true }] },
  };
  assert.deepEqual(helpers.legalCards(request), ['4D', '8D']);
  assert.deepEqual(helpers.winningPlay(request), { seat: 2, card: 'QD' });
  assert.deepEqual(helpers.contract(request), { name: 'hearts', trump: 'H', minus: false, major: false });
  assert.equal(helpers.contractInfo(request, 'mizerka').minus, true);
  assert.equal(helpers.playAction(request, 'JH'), undefined); // not legal: it must follow diamonds
  assert.deepEqual([helpers.takesTrick(request, '4D'), helpers.takesTrick(request, '8D')], [false, true]);
  assert.equal(helpers.takesTrick(request, 'JH'), undefined); // not a legal card
  assert.deepEqual(helpers.defaultAction(request), { turn: 9, play_card: { card: '8D' }, action: 'play_card' });
});

test('from a referee older than default_action and takes_trick: a legal default of its own, flags not told', () => {
  const play = { turn: 9, kind: 'DECISION_KIND_PLAY', default_action: null, takes_trick: [],
    legal_actions: [{ turn: 9, play_card: { card: '4D' } }, { turn: 9, play_card: { card: '8D' } }] };
  assert.equal(helpers.takesTrick(play, '4D'), undefined);
  assert.equal(helpers.defaultAction(play).play_card.card, '4D');
  const major = { turn: 3, kind: 'DECISION_KIND_MAJOR', default_action: null, takes_trick: [],
    legal_actions: [{ turn: 3, announce_major: { contract: 'spades' } }, { turn: 3, announce_major: { contract: '' } }] };
  assert.deepEqual(helpers.defaultAction(major), { turn: 3, announce_major: { contract: '' } }); // a pass
  const exchange = { turn: 2, kind: 'DECISION_KIND_EXCHANGE', default_action: null, takes_trick: [], legal_actions: [] };
  assert.deepEqual(helpers.defaultAction(exchange), { turn: 2, exchange_cards: { discard: [], take: [] } });
});

const referee = process.env.MIZERKA_TOKEN ? test : test.skip;

referee('a bot of helpers alone plays a real game without a fault', async () => {
  const ends = [];
  let decisions = 0;
  const bot = {
    decide(request) {
      decisions += 1;
      assert.equal(typeof request.view.seat, 'number'); // defaults: true, so seat 0 is there
      for (const a of helpers.legalOf(request, 'choose_contract')) {
        assert.ok(helpers.contractInfo(request, a.choose_contract.contract), 'the ruleset comes with every request');
      }
      assert.equal(request.default_action.turn, request.turn); // every request tells the default action
      if (request.kind !== 'DECISION_KIND_PLAY') return undefined; // the default action
      const cards = helpers.legalCards(request);
      assert.ok(cards.some((c) => c === request.default_action.play_card.card));
      assert.equal(request.takes_trick.length, cards.length);
      if (!helpers.currentTrick(request)) assert.ok(cards.every((c) => helpers.takesTrick(request, c) === true)); // a lead
      const low = cards.reduce((a, b) => (helpers.rank(a) <= helpers.rank(b) ? a : b));
      return helpers.playAction(request, low);
    },
    onGameEnd(end) {
      ends.push(end);
    },
  };
  const stats = await sdk.run(bot, { games: 1, name: 'sdk-test' });
  assert.equal(stats.games, 1);
  assert.equal(stats.refusals, 0);
  assert.ok(decisions > 0);
  const [end] = ends;
  assert.equal(end.aborted, false);
  const mine = end.seats[end.seat];
  assert.deepEqual([mine.refusals, mine.timeouts, mine.defaults_applied, mine.forfeited], [0, 0, 0, false]);
});
