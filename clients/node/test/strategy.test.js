'use strict';
// Unit tests of the card sense, on hand-built DecisionRequests (as @grpc/proto-loader decodes them).
// Run: npm test   (node's built-in test runner; no referee needed)
const test = require('node:test');
const assert = require('node:assert/strict');
const { decide, DECK } = require('../strategy');

const CONTRACTS = [
  { name: 'spades', minus: false, trump: 'S' }, { name: 'hearts', minus: false, trump: 'H' },
  { name: 'diamonds', minus: false, trump: 'D' }, { name: 'clubs', minus: false, trump: 'C' },
  { name: 'notrump', minus: false, trump: '' }, { name: 'mizerka', minus: true, trump: '' },
];
const RULESET = { preset: 'mizerka', players: 3, hand_size: 13, contracts: CONTRACTS };

// `trick`: the trick in progress as [seat, card] pairs; `winning`: the seat the referee says wins it;
// `takes`: DecisionRequest.takes_trick, the referee's word on which legal card would take the trick.
function request({ kind, hand, contract = '', trump = '', trick = null, winning, legal = [], takes = [], exchange = null,
  seat = 0, defaultAction = null }) {
  const players = [0, 1, 2].map((s) => ({ seat: s, hand: s === seat ? hand : [], discarded: [], taken: [] }));
  const tricks = trick ? [{ leader: trick[0][0], plays: trick.map(([s, card]) => ({ seat: s, card })), winning }] : [];
  const info = CONTRACTS.find((c) => c.name === contract);
  return {
    turn: 7, kind, ruleset: RULESET, events: [], exchange,
    view: {
      seat, players, tricks, contract, contract_name: contract, contract_major: false,
      contract_minus: Boolean(info && info.minus), trump, talon: [], talon_known: false,
    },
    legal_actions: legal.map((body) => ({ turn: 7, ...body })),
    takes_trick: takes,
    default_action: defaultAction && { turn: 7, ...defaultAction, action: Object.keys(defaultAction)[0] },
  };
}
const plays = (cards) => cards.map((card) => ({ play_card: { card } }));
const card = (action) => action.play_card.card;

test('plus contract, last to play: the cheapest card that wins', () => {
  const r = request({ kind: 'DECISION_KIND_PLAY', hand: ['7H', 'JH', 'AH', '2S'], contract: 'spades', trump: 'S',
    trick: [[1, '9H'], [2, 'TH']], winning: 2, legal: plays(['7H', 'JH', 'AH']), takes: [false, true, true] });
  assert.equal(card(decide(r)), 'JH');
});

test('plus contract: a ruff is not overtaken by following (no card takes the trick)', () => {
  const r = request({ kind: 'DECISION_KIND_PLAY', hand: ['7H', 'JH', 'AH', '2D'], contract: 'spades', trump: 'S',
    trick: [[1, '9H'], [2, '2S']], winning: 2, legal: plays(['7H', 'JH', 'AH']), takes: [false, false, false] });
  assert.equal(card(decide(r)), '7H');
});

test('plus contract, cannot win: the cheapest card', () => {
  const r = request({ kind: 'DECISION_KIND_PLAY', hand: ['7H', '8H', '2S'], contract: 'notrump',
    trick: [[1, 'AH']], winning: 1, legal: plays(['7H', '8H']), takes: [false, false] });
  assert.equal(card(decide(r)), '7H');
});

test('plus contract, void in the led suit: ruff as low as wins', () => {
  const r = request({ kind: 'DECISION_KIND_PLAY', hand: ['5S', 'KS', '2D'], contract: 'spades', trump: 'S',
    trick: [[1, '9H'], [2, 'AH']], winning: 2, legal: plays(['5S', 'KS', '2D']), takes: [true, true, false] });
  assert.equal(card(decide(r)), '5S');
});

test('minus contract: the highest card that still loses', () => {
  const r = request({ kind: 'DECISION_KIND_PLAY', hand: ['7H', '8H', 'JH', 'AS'], contract: 'mizerka',
    trick: [[1, '9H'], [2, 'TH']], winning: 2, legal: plays(['7H', '8H', 'JH']), takes: [false, false, true] });
  assert.equal(card(decide(r)), '8H');
});

test('which card takes the trick is the referee\'s word (takes_trick), not worked out from the ranks', () => {
  // Flags that card ranks contradict: a bot that compared ranks itself would play JH, then 8H.
  const plus = request({ kind: 'DECISION_KIND_PLAY', hand: ['7H', 'JH', 'AH', '2S'], contract: 'spades', trump: 'S',
    trick: [[1, '9H'], [2, 'TH']], winning: 2, legal: plays(['7H', 'JH', 'AH']), takes: [true, false, false] });
  assert.equal(card(decide(plus)), '7H'); // the cheapest card the referee says takes it
  const minus = request({ kind: 'DECISION_KIND_PLAY', hand: ['7H', '8H', 'JH', 'AS'], contract: 'mizerka',
    trick: [[1, '9H'], [2, 'TH']], winning: 2, legal: plays(['7H', '8H', 'JH']), takes: [true, false, false] });
  assert.equal(card(decide(minus)), 'JH'); // the highest card the referee says loses
});

test('minus contract, void: throw the most dangerous card', () => {
  const r = request({ kind: 'DECISION_KIND_PLAY', hand: ['3S', 'KS', 'AD', '2C'], contract: 'mizerka',
    trick: [[1, '9H']], winning: 1, legal: plays(['3S', 'KS', 'AD', '2C']), takes: [false, false, false, false] });
  assert.equal(card(decide(r)), 'AD');
});

test('contract from the first six cards: a long strong suit names trumps, low cards the minus contract', () => {
  const legal = CONTRACTS.map((c) => ({ choose_contract: { contract: c.name, trump: '' } }));
  const strong = request({ kind: 'DECISION_KIND_CONTRACT', hand: ['AH', 'KH', 'QH', 'JH', 'TH', '2C'], legal });
  assert.equal(decide(strong).choose_contract.contract, 'hearts');
  const low = request({ kind: 'DECISION_KIND_CONTRACT', hand: ['2S', '3S', '2H', '4H', '3D', '2C'], legal });
  assert.equal(decide(low).choose_contract.contract, 'mizerka');
});

test('blind exchange: discards held cards only, at most max_cards, takes nothing', () => {
  const hand = ['2S', '3S', 'AS', 'KH', '2H', '9D', 'TD', '3C', '4C', 'QC', 'KC', 'AC', '5D'];
  const r = request({ kind: 'DECISION_KIND_EXCHANGE', hand, contract: 'mizerka',
    exchange: { max_cards: 3, pick: false, talon: [] } });
  const { discard, take } = decide(r).exchange_cards;
  assert.ok(discard.length <= 3 && discard.length > 0);
  assert.ok(discard.every((c) => hand.includes(c)));
  assert.equal(new Set(discard).size, discard.length);
  assert.deepEqual(take, []);
  assert.ok(discard.every((c) => 'QKA'.includes(c[0])), `minus contract discards high cards: ${discard}`);
});

test('pick exchange: takes the better talon cards, as many as it discards', () => {
  const hand = ['2S', '3S', 'AH', 'KH', 'QH', 'JH', 'TH', '9H', '2D', '3D', '4D', '5C', '6C', '7C', '8C', '9C'];
  const talon = ['8H', '7H', 'AS', '2C'];
  const r = request({ kind: 'DECISION_KIND_EXCHANGE', hand, contract: 'hearts', trump: 'H',
    exchange: { max_cards: 4, pick: true, talon } });
  const { discard, take } = decide(r).exchange_cards;
  assert.equal(discard.length, take.length);
  assert.ok(take.includes('8H') && take.includes('7H'));
  assert.ok(take.every((c) => talon.includes(c)) && discard.every((c) => hand.includes(c)));
});

test('a decision it has no answer for (a kind it does not know) gets the referee\'s default action', () => {
  const r = request({ kind: 'DECISION_KIND_UNSPECIFIED', hand: [], defaultAction: { choose_contract: { contract: 'mizerka', trump: '' } } });
  assert.deepEqual([decide(r).turn, decide(r).choose_contract.contract], [7, 'mizerka']);
});

test('every play is one of the legal actions', () => {
  const hand = DECK.filter((_, i) => i % 4 === 0);
  for (const contract of ['spades', 'notrump', 'mizerka']) {
    for (const led of ['2H', 'AD', '7C']) {
      const follow = hand.filter((c) => c[1] === led[1]);
      const legal = follow.length ? follow : hand;
      const r = request({ kind: 'DECISION_KIND_PLAY', hand, contract, trump: contract === 'spades' ? 'S' : '',
        trick: [[2, led]], winning: 2, legal: plays(legal), takes: legal.map((c, i) => i % 2 === 0) });
      assert.ok(legal.includes(card(decide(r))));
    }
  }
});
