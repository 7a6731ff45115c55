'use strict';
// Card and legal-action helpers that read what the referee sends (a DecisionRequest decoded with
// the SDK's LOADER_OPTIONS) instead of re-implementing the rules: the legal actions, the default
// action, which cards would take the trick, the trick in progress and the play winning it, the
// contract's trump and sign, the ruleset's facts.

const RANKS = '23456789TJQKA';
const SUITS = 'SHDC';

/** A card's rank index, 0 for "2" .. 12 for "A" (cards are "AS", "TD", "2C"). */
const rank = (card) => RANKS.indexOf(card[0]);
/** A card's suit letter. */
const suit = (card) => card[1];

/** Your own state in the view (hand, discarded, taken, tricks won, quota, total). */
function me(request) {
  return request.view.players[request.view.seat] || { hand: [] };
}

/** Your cards, as the referee lists them. */
const hand = (request) => me(request).hand;

/** The legal actions of one kind ('play_card', 'choose_contract', 'announce_major'), ready to send. */
const legalOf = (request, which) => request.legal_actions.filter((a) => a[which]);

/** The cards you may play now (empty unless kind is DECISION_KIND_PLAY). */
const legalCards = (request) => legalOf(request, 'play_card').map((a) => a.play_card.card);

/** The legal action that plays `card`; undefined if that card may not be played. */
const playAction = (request, card) => legalOf(request, 'play_card').find((a) => a.play_card.card === card);

/** The trick in progress (its plays so far, and `winning`, the seat winning it), or null when you lead. */
function currentTrick(request) {
  const tricks = request.view.tricks;
  const last = tricks[tricks.length - 1];
  return last && last.winner === undefined ? last : null;
}

/** The play winning the trick in progress so far, { seat, card }, as the referee rules; null when you lead. */
function winningPlay(request) {
  const trick = currentTrick(request);
  if (!trick || trick.winning === undefined) return null;
  return trick.plays.find((p) => p.seat === trick.winning) || null;
}

/** The contract in force: { name, trump ('' for none), minus, major }, or null before it is announced. */
function contract(request) {
  const v = request.view;
  if (!v.contract) return null;
  return { name: v.contract_name, trump: v.trump, minus: v.contract_minus, major: v.contract_major };
}

/** The ruleset's facts about a contract by name (trump, minus, names_trump, trump_choices, major_rank). */
const contractInfo = (request, name) => request.ruleset.contracts.find((c) => c.name === name);

/**
 * The action the referee plays for you on a timeout (DecisionRequest.default_action), ready to send:
 * what the SDK sends when a bot has no answer. A referee older than that field leaves it unset;
 * then a pass stands in (no exchange, no major), else legal_actions[0], so that the SDK still
 * answers legally there.
 */
function defaultAction(request) {
  if (request.default_action && request.default_action.action) return { ...request.default_action, turn: request.turn };
  if (request.kind === 'DECISION_KIND_EXCHANGE' || !request.legal_actions.length) return exchangeAction(request, []);
  if (request.kind === 'DECISION_KIND_MAJOR') return { turn: request.turn, announce_major: { contract: '' } };
  return request.legal_actions[0];
}

/**
 * Whether playing `card` would take the trick as it stands, as the referee rules
 * (DecisionRequest.takes_trick: true for every card when you lead); undefined for a card that is
 * not legal now, and when the referee did not say (not a card play, or a referee older than it).
 */
function takesTrick(request, card) {
  const at = request.legal_actions.findIndex((a) => a.play_card && a.play_card.card === card);
  return at < 0 || request.takes_trick.length !== request.legal_actions.length ? undefined : request.takes_trick[at];
}

/** An exchange of `discard` (and, in a pick exchange, `take` from the talon shown). */
const exchangeAction = (request, discard, take = []) => ({ turn: request.turn, exchange_cards: { discard, take } });

module.exports = {
  RANKS, SUITS, rank, suit, me, hand, legalOf, legalCards, playAction, currentTrick, winningPlay, contract,
  contractInfo, defaultAction, takesTrick, exchangeAction,
};
