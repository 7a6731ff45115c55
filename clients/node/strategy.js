'use strict';
// The bot's card sense: a port of the Python SDK's `heuristic` bot
// (clients/python/mizerka/bots/heuristic.py and bots/common.py). Pure functions of one
// DecisionRequest (decoded by @grpc/proto-loader with keepCase, enums as strings, defaults and
// oneofs): no state, no randomness (the contract-fit statistics come from a fixed seed).
//
// - Contract: each contract's fit to the hand (trumps: length and honours in the suit plus side
//   aces; no-trump: high cards; minus: low cards) is standardised against random hands of the same
//   size; the open contract with the highest standardised fit is announced.
// - Majors (manni-major): announce only with nearly every trick sure; else pass.
// - Exchange: blind: swap the cards worth less than an average unseen card; pick: keep the best
//   cards of hand + talon.
// - Play, plus contracts: lead a card no one can beat (trumps first while others may hold some),
//   else low from the longest side suit; follow with the cheapest card that takes the trick (one
//   that cannot be overtaken if there is one), else the cheapest card.
// - Play, minus contracts: lead the card most sure to be beaten; follow with the highest card that
//   still loses (else the highest); void: throw the most dangerous high card.
//
// Every answer is chosen among DecisionRequest.legal_actions (or, for an exchange, from the hand,
// the talon shown and ExchangeOptions.max_cards), so it is legal by construction. Which card would
// take the trick is the referee's word (DecisionRequest.takes_trick), not worked out here; card
// ranks are compared only to plan ahead (could a card still be overtaken by one unseen?).

const { RANKS, SUITS, rank, suit, legalOf, defaultAction, takesTrick } = require('./sdk/helpers');

const DECK = [];
for (const s of SUITS) for (const r of RANKS) DECK.push(r + s);
const HCP = { A: 4, K: 3, Q: 2, J: 1 };

function suitLengths(cards) {
  const out = { S: 0, H: 0, D: 0, C: 0 };
  for (const c of cards) out[c[1]] += 1;
  return out;
}

const countInSuit = (cards, s) => cards.reduce((n, c) => n + (c[1] === s ? 1 : 0), 0);

/** The first element of `items` with the smallest key (keys are numbers or arrays of numbers). */
function minBy(items, key) {
  let best;
  let bestKey;
  for (const item of items) {
    const k = key(item);
    if (best === undefined || compareKeys(k, bestKey) < 0) {
      best = item;
      bestKey = k;
    }
  }
  return best;
}

/** The first element of `items` with the largest key. */
function maxBy(items, key) {
  let best;
  let bestKey;
  for (const item of items) {
    const k = key(item);
    if (best === undefined || compareKeys(k, bestKey) > 0) {
      best = item;
      bestKey = k;
    }
  }
  return best;
}

function compareKeys(a, b) {
  if (!Array.isArray(a)) return a < b ? -1 : a > b ? 1 : 0;
  for (let i = 0; i < a.length; i++) {
    const c = compareKeys(a[i], b[i]);
    if (c !== 0) return c;
  }
  return 0;
}

// ---------------------------------------------------------------------------- contract fit
/** How well `hand` suits a contract of `kind` ("trump" with `trump`, "notrump" or "minus"). */
function fit(kind, trump, hand) {
  if (kind === 'minus') return hand.reduce((n, c) => n + 5 - rank(c), 0);
  if (kind === 'notrump') {
    let hcp = 0;
    let aces = 0;
    for (const c of hand) {
      hcp += HCP[c[0]] || 0;
      if (c[0] === 'A') aces += 1;
    }
    return hcp + 1.5 * aces;
  }
  let value = 0;
  for (const c of hand) {
    if (c[1] === trump) value += 2.5 + (HCP[c[0]] || 0);
    else if (c[0] === 'A') value += 3;
    else if (c[0] === 'K') value += 1;
  }
  return value;
}

/** A small seeded generator (mulberry32), so the fit statistics are the same on every run. */
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const fitStatsCache = new Map();

/** Mean and standard deviation of fit() over 1500 random hands of `size` cards (seeded). */
function fitStats(kind, size) {
  const key = `${kind}:${size}`;
  if (fitStatsCache.has(key)) return fitStatsCache.get(key);
  let seed = 2166136261;
  for (const ch of key) seed = Math.imul(seed ^ ch.charCodeAt(0), 16777619) >>> 0;
  const rnd = mulberry32(seed);
  const values = [];
  const deck = DECK.slice();
  for (let n = 0; n < 1500; n++) {
    for (let i = 0; i < size; i++) {  // partial Fisher-Yates: deck[0..size) is a random sample
      const j = i + Math.floor(rnd() * (deck.length - i));
      [deck[i], deck[j]] = [deck[j], deck[i]];
    }
    values.push(fit(kind, 'H', deck.slice(0, size)));
  }
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length) || 1;
  const stats = [mean, sd];
  fitStatsCache.set(key, stats);
  return stats;
}

/** fit() standardised against random hands of the same size (0 = an average hand). */
function fitZ(kind, trump, hand) {
  if (hand.length === 0) return 0;
  const [mean, sd] = fitStats(kind, hand.length);
  return (fit(kind, trump, hand) - mean) / sd;
}

/** A rough count of the tricks `hand` takes in a plus contract with `trump` ("" for none). */
function sureTricks(hand, trump) {
  let tricks = 0;
  for (const s of SUITS) {
    const cards = hand.filter((c) => c[1] === s).sort((a, b) => rank(b) - rank(a));
    let top = 0;
    for (let i = 0; i < cards.length && rank(cards[i]) === RANKS.length - 1 - i; i++) top += 1;
    if (s === trump && cards.length >= 6) tricks += Math.max(top, cards.length - Math.max(0, 5 - top));
    else tricks += top;
  }
  return tricks;
}

// ------------------------------------------------------------------------ the decision
/** Typed accessors over one DecisionRequest (the SDK's `Turn`, cut down). */
class Turn {
  constructor(request) {
    this.request = request;
    this.view = request.view || { players: [], tricks: [] };
    this.ruleset = request.ruleset || {};
    this.seat = this.view.seat || 0;
    this.me = this.view.players[this.seat] || { hand: [], discarded: [] };
    this.hand = this.me.hand.slice();
    this.players = this.ruleset.players || this.view.players.length;
    this.contracts = new Map((this.ruleset.contracts || []).map((c) => [c.name, c]));
    this.trump = this.view.trump || '';
    this.minus = Boolean(this.view.contract_minus);
    const last = this.view.tricks[this.view.tricks.length - 1];
    const current = last && last.winner === undefined ? last : null;  // the trick in progress
    this.trick = current ? current.plays.map((p) => p.card) : [];
    this.played = new Set();
    for (const t of this.view.tricks) for (const p of t.plays) this.played.add(p.card);
  }

  get leading() { return this.trick.length === 0; }
  get ledSuit() { return this.trick.length ? this.trick[0][1] : null; }
  get toPlayAfterMe() { return this.players - this.trick.length - 1; }

  legalOf(which) {
    return legalOf(this.request, which);
  }

  /** Whether playing `card` takes the trick as it stands, as the referee says (not told: no). */
  takes(card) {
    return takesTrick(this.request, card) === true;
  }

  /** Cards that may still be in another hand: not mine, not played, not out of play to my knowledge. */
  unseen() {
    const out = new Set(DECK);
    for (const c of this.hand) out.delete(c);
    for (const c of this.played) out.delete(c);
    for (const c of this.me.discarded || []) out.delete(c);
    if (this.view.talon_known) for (const c of this.view.talon) out.delete(c);
    return out;
  }

  action(body) {
    return { turn: this.request.turn, ...body };
  }
}

const isMaster = (card, unseen) => ![...unseen].some((c) => c[1] === card[1] && rank(c) > rank(card));

function ruffRisk(turn, card, unseen) {
  const trump = turn.trump;
  if (!trump || card[1] === trump) return false;
  if (![...unseen].some((c) => c[1] === trump)) return false;
  return countInSuit([...unseen], card[1]) < turn.toPlayAfterMe;
}

function chooseContract(turn) {
  const options = turn.legalOf('choose_contract');
  if (options.length <= 1) return options[0];
  let best = options[0];
  let bestZ = -Infinity;
  for (const option of options) {
    const { contract, trump: named } = option.choose_contract;
    const info = turn.contracts.get(contract);
    const trump = named || (info && info.trump) || '';
    const kind = info && info.minus ? 'minus' : trump ? 'trump' : 'notrump';
    const z = fitZ(kind, trump, turn.hand);
    if (z > bestZ) {
      best = option;
      bestZ = z;
    }
  }
  return best;
}

function announceMajor(turn) {
  let best = null;
  let bestTricks = 0;
  for (const option of turn.legalOf('announce_major')) {
    const name = option.announce_major.contract;
    if (!name) continue;
    const info = turn.contracts.get(name);
    const tricks = sureTricks(turn.hand, (info && info.trump) || '');
    if (tricks > bestTricks) {
      best = option;
      bestTricks = tricks;
    }
  }
  const handSize = turn.ruleset.hand_size || turn.hand.length;
  if (best && bestTricks >= handSize - 2) return best;
  return turn.action({ announce_major: { contract: '' } });
}

/** What a card is worth keeping in this contract (higher is better). */
function cardValue(card, minus, trump, lengths) {
  const r = rank(card);
  if (minus) return 12 - r - (lengths[card[1]] <= 1 && r >= 8 ? 0.4 : 0);
  if (trump && card[1] === trump) return 10 + r;
  if (trump) return r + 0.3 * lengths[card[1]];
  return r + 0.6 * lengths[card[1]];
}

function exchange(turn) {
  const options = turn.request.exchange || {};
  const max = options.max_cards || 0;
  const hand = turn.hand;
  const { minus, trump } = turn;
  if (options.pick) {
    const talon = (options.talon && options.talon.length ? options.talon : turn.view.talon) || [];
    const pool = hand.concat(talon);
    const lengths = suitLengths(pool);
    const ranked = pool.slice().sort((a, b) => cardValue(b, minus, trump, lengths) - cardValue(a, minus, trump, lengths));
    const keep = new Set(ranked.slice(0, hand.length));
    const discard = hand.filter((c) => !keep.has(c)).slice(0, max);
    const take = talon.filter((c) => keep.has(c)).slice(0, max);
    return turn.action({ exchange_cards: { discard, take } });
  }
  const lengths = suitLengths(hand);
  const held = new Set(hand);
  const unknown = DECK.filter((c) => !held.has(c));
  const expected = unknown.reduce((a, c) => a + cardValue(c, minus, trump, lengths), 0) / unknown.length;
  const margin = 1;
  const worst = hand.slice().sort((a, b) => cardValue(a, minus, trump, lengths) - cardValue(b, minus, trump, lengths));
  const discard = worst.filter((c) => cardValue(c, minus, trump, lengths) < expected - margin).slice(0, max);
  return turn.action({ exchange_cards: { discard, take: [] } });
}

function playPlus(turn, legal, unseen) {
  const trump = turn.trump;
  const lengths = suitLengths(turn.hand);
  if (turn.leading) {
    const unseenTrumps = trump ? countInSuit([...unseen], trump) : 0;
    const masters = legal.filter((c) => isMaster(c, unseen));
    if (trump && unseenTrumps) {
      const trumpMasters = masters.filter((c) => c[1] === trump);
      if (trumpMasters.length) return maxBy(trumpMasters, rank);
    }
    const sideMasters = masters.filter((c) => c[1] !== trump);
    // Prefer a suit the others still hold (so it is followed, not ruffed), then the highest.
    if (sideMasters.length) return maxBy(sideMasters, (c) => [countInSuit([...unseen], c[1]), rank(c)]);
    if (masters.length) return maxBy(masters, rank);
    const side = legal.filter((c) => c[1] !== trump);
    const pool = side.length ? side : legal;
    const longest = maxBy(pool, (c) => [lengths[c[1]], -rank(c)]);
    return minBy(pool.filter((c) => c[1] === longest[1]), rank);
  }
  const winners = legal.filter((c) => turn.takes(c));
  const cheapest = (cards) => minBy(cards, (c) => [c[1] === trump ? 1 : 0, rank(c)]);
  if (winners.length) {
    if (turn.toPlayAfterMe === 0) return cheapest(winners);
    const safe = winners.filter((c) => isMaster(c, unseen) && (c[1] === trump || !ruffRisk(turn, c, unseen)));
    return cheapest(safe.length ? safe : winners);
  }
  // Cannot win: throw the cheapest card, preferably a side card of a short suit.
  return minBy(legal, (c) => [c[1] === trump ? 1 : 0, rank(c), lengths[c[1]]]);
}

function playMinus(turn, legal, unseen) {
  const lengths = suitLengths(turn.hand);
  const rest = [...unseen];
  if (turn.leading) {
    // The card most sure to be beaten: not the highest outstanding of its suit, few cards below it.
    return minBy(legal, (c) => {
      const below = rest.filter((u) => u[1] === c[1] && rank(u) < rank(c)).length;
      const above = rest.filter((u) => u[1] === c[1] && rank(u) > rank(c)).length;
      return [above === 0 ? 1 : 0, below, rank(c)];
    });
  }
  if (legal[0][1] === turn.ledSuit) {
    const losers = legal.filter((c) => !turn.takes(c));
    return maxBy(losers.length ? losers : legal, rank);
  }
  // Void in the led suit: throw the most dangerous card (high, in a short suit).
  return maxBy(legal, (c) => [rank(c), -lengths[c[1]]]);
}

function play(turn) {
  const options = turn.legalOf('play_card');
  if (options.length <= 1) return options[0];
  const legal = options.map((a) => a.play_card.card);
  const unseen = turn.unseen();
  const card = turn.minus ? playMinus(turn, legal, unseen) : playPlus(turn, legal, unseen);
  return options[legal.indexOf(card)];
}

/** The bot's answer to one DecisionRequest: an Action (a plain object for proto-loader). */
function decide(request) {
  const turn = new Turn(request);
  let action;
  switch (request.kind) {
    case 'DECISION_KIND_CONTRACT': action = chooseContract(turn); break;
    case 'DECISION_KIND_MAJOR': action = announceMajor(turn); break;
    case 'DECISION_KIND_EXCHANGE': action = exchange(turn); break;
    case 'DECISION_KIND_PLAY': action = play(turn); break;
    default: action = undefined;
  }
  return action || defaultAction(request);
}

module.exports = {
  DECK, RANKS, SUITS, rank, suit, fit, fitZ, sureTricks, cardValue, decide, Turn,
};
