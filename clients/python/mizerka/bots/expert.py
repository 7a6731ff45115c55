"""``expert``: determinised Monte Carlo search, with the rules engine (``mizerka_engine``) as a library.

For each decision the bot samples the cards its seat cannot see, consistent with all it has seen
(its hand, its exchange, the talon of its pick exchange, every card played, and the suits a seat
showed it lacks by not following), rebuilds the deal on the sample with :meth:`Game.at_deal` and
replays the deal's actions, then plays every candidate action out to the end of the deal with a
fast greedy policy (:func:`rollout_action`) for all seats. The action with the best mean wins; every
candidate is tried on the same samples, so their differences are not blurred by the luck of the deal.

- Outcome: the seat's points in the deal, minus the mean points its contract earns a declarer on a
  random hand when the deal spends one of its contracts (:func:`contract_baselines`): every contract
  is declared once, so a contract is worth choosing now by how much better than average it fits.
- Contracts and majors: every legal one is searched. Exchanges (too many discard sets to search):
  the candidates are the greedy policy's exchange of 0, 1, ... cards, each searched.
- Budget: at most ``simulations`` (400) playouts per decision, stopped early before a sample would
  pass the decision's time budget: ``budget_ms`` (200), never more than half the turn's time left
  (or a fiftieth of the bank when the turn has no time of its own). Samples are drawn from the seed,
  the deal and the turn number, so the answers depend only on the seed whenever the playout count,
  not the clock, ends the searches (tests give a large time budget; a busy machine hits the clock).

The engine is an optional dependency of the SDK: :mod:`mizerka.bots` registers this bot only when
``mizerka_engine`` can be imported (``pip install mizerka-client[expert]``, or with the server).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import NamedTuple

from mizerka.bot import Bot
from mizerka.turn import EXCHANGE, Turn
from mizerka_engine import Action, Choose, Deal, Exchange, Game, Major, Phase, Play, Ruleset, load_ruleset
from mizerka_engine.actions import PASS
from mizerka_engine.cards import FULL_DECK, SUIT_MASKS, card_mask, format_card, format_cards, mask_cards, parse_card
from mizerka_engine.game import trick_winner
from mizerka_proto import game_pb2, referee_pb2

__all__ = ["ExpertBot", "Knowledge", "contract_baselines", "knowledge", "rebuild", "rollout_action", "sample_deal"]

_WAITING = Phase.WAITING
_EXCHANGE_ORDER_LIMIT = 8  # exchange candidates searched: of 0..7 cards


# ------------------------------------------------------------------------------ what the seat knows
class Knowledge(NamedTuple):
    """Everything one seat knows about the current deal, as engine values (cards as ints, masks)."""

    rules: Ruleset
    seat: int
    caller: int
    declarer: int
    used: tuple[int, ...]  # per seat: bit i = contract i used
    totals: tuple[int, ...]
    tiebreak: bool
    hand: int  # the seat's visible cards (mask)
    unseen_own: int  # own cards not shown yet (choose_after = 6, before the contract)
    hand_counts: tuple[int, ...]
    announcements: tuple[Action, ...]  # Choose / Major actions in order, with their seats
    announcers: tuple[int, ...]
    exchanged: tuple[int | None, ...]
    discards: tuple[int, ...]  # the seat's own discards, in order
    taken: tuple[int, ...]  # the seat's own taken cards, in talon order
    talon: tuple[int, ...] | None  # the talon, when the seat has seen it
    plays: tuple[tuple[int, int], ...]  # (seat, card) of the deal in order
    voids: tuple[int, ...]  # per seat: bit s = known void in suit s


def _enum_text(enum: object, prefix: str, value: int) -> str:
    """``DECLARER_MODE_CONTINUOUS_DEALER`` -> ``"continuous-dealer"`` (the engine's option text)."""
    return enum.Name(value).removeprefix(prefix).lower().replace("_", "-")  # type: ignore[attr-defined]


@lru_cache(maxsize=32)
def _rules_from_bytes(data: bytes) -> Ruleset:
    wire = game_pb2.Ruleset.FromString(data)
    options = {
        "declarer": _enum_text(game_pb2.DeclarerMode, "DECLARER_MODE_", wire.declarer),
        "deals": wire.deals,
        "revoke": _enum_text(game_pb2.RevokeMode, "REVOKE_MODE_", wire.revoke),
        "tiebreak": _enum_text(game_pb2.TiebreakMode, "TIEBREAK_MODE_", wire.tiebreak),
        "tiebreak_max": wire.tiebreak_max,
        "quotas_plus": list(wire.quotas_plus),
        "quotas_minus": list(wire.quotas_minus),
        "choose_after": "all" if wire.choose_after_all else 6,
        "trumps_allow_spades": wire.trumps_allow_spades,
    }
    return load_ruleset(wire.preset, options)


def engine_rules(wire: game_pb2.Ruleset) -> Ruleset:
    """The engine's Ruleset for a wire Ruleset (every option in force travels on the wire)."""
    return _rules_from_bytes(wire.SerializeToString(deterministic=True))


def knowledge(turn: Turn) -> Knowledge:
    """What ``turn``'s seat knows, read off its SeatView."""
    rules = engine_rules(turn.ruleset)
    view = turn.view
    names = [c.name for c in rules.contracts]
    players = view.players
    me = players[turn.seat]
    plays: list[tuple[int, int]] = []
    voids = [0] * rules.players
    for trick in view.tricks:
        led = -1
        for p in trick.plays:
            card = parse_card(p.card)
            if led < 0:
                led = card // 13
            elif card // 13 != led:
                voids[p.seat] |= 1 << led
            plays.append((p.seat, card))
    announcements: list[Action] = []
    trump = "SHDC".find(view.trump) if view.trump else None
    for a in view.announcements:
        if a.kind == game_pb2.ANNOUNCEMENT_KIND_CONTRACT:
            contract = rules.contract(a.contract)
            announcements.append(Choose(a.contract, trump if contract is not None and contract.names_trump else None))
        else:
            announcements.append(Major(a.contract or None))
    hand = card_mask(parse_card(c) for c in me.hand)
    return Knowledge(
        rules=rules,
        seat=turn.seat,
        caller=view.caller,
        declarer=view.declarer,
        used=tuple(sum(1 << names.index(n) for n in p.used_contracts) for p in players),
        totals=tuple(p.total for p in players),
        tiebreak=view.tiebreak,
        hand=hand,
        unseen_own=me.hand_count - hand.bit_count(),
        hand_counts=tuple(p.hand_count for p in players),
        announcements=tuple(announcements),
        announcers=tuple(a.seat for a in view.announcements),
        exchanged=tuple(p.exchanged if p.HasField("exchanged") else None for p in players),
        discards=tuple(parse_card(c) for c in me.discarded),
        taken=tuple(parse_card(c) for c in me.taken),
        talon=tuple(parse_card(c) for c in turn.talon) or None,
        plays=tuple(plays),
        voids=tuple(voids),
    )


# ------------------------------------------------------------------------------------ sampling
class Sample(NamedTuple):
    """One deal consistent with a seat's knowledge, and the exchanges to replay on it."""

    deal: Deal
    discards: tuple[tuple[int, ...], ...]  # per seat, as exchanged (empty where not yet)
    taken: tuple[tuple[int, ...], ...]  # per seat, in talon order


def _draw(mask: int, count: int, rng: random.Random) -> int:
    """``count`` cards of ``mask`` drawn at random, as a mask."""
    return card_mask(rng.sample(mask_cards(mask), count)) if count else 0


def _fill_hidden_hands(pool: int, need: dict[int, int], allowed: dict[int, int], rng: random.Random) -> dict[int, int]:
    """Each seat's hidden hand: ``need[j]`` cards of ``pool`` within ``allowed[j]`` (its non-void suits).

    Card by card, each draw keeps Hall's condition for the hands still to fill: every group of them
    must find at least as many allowed cards in the pool as it still needs, so a draw never strands a
    later hand (the other slots of a sample take any card)."""
    seats = sorted(need, key=lambda j: (allowed[j] & pool).bit_count() - need[j])
    left = dict(need)
    hands = dict.fromkeys(need, 0)
    groups = [[s for i, s in enumerate(seats) if k >> i & 1] for k in range(1, 1 << len(seats))]

    def feasible(pool_now: int) -> bool:
        for group in groups:
            union = 0
            for s in group:
                union |= allowed[s]
            if (union & pool_now).bit_count() < sum(left[s] for s in group):
                return False
        return True

    for j in seats:
        while left[j]:
            options = mask_cards(pool & allowed[j])
            rng.shuffle(options)
            left[j] -= 1
            for card in options:
                if feasible(pool & ~(1 << card)):
                    break
            else:  # pragma: no cover -- the real deal satisfies every constraint, so a draw always exists
                raise ValueError("the seat's knowledge admits no deal")
            pool &= ~(1 << card)
            hands[j] |= 1 << card
    return hands


def sample_deal(k: Knowledge, rng: random.Random) -> Sample:
    """A deal (hands as dealt, talon in order) on which the deal so far replays exactly as ``k`` saw it.

    The hidden cards (others' hands now, others' discards, the rest of the talon, own cards not shown
    yet) are drawn from the cards the seat has not seen; a seat known void in a suit gets none of it.
    The cards another seat took in a blind exchange are drawn from what it held after it."""
    me, n = k.seat, k.rules.players
    played = [0] * n
    for s, c in k.plays:
        played[s] |= 1 << c
    seen = k.hand | card_mask(k.discards) | card_mask(k.taken) | card_mask(k.talon or ()) | sum(played)
    pool = FULL_DECK & ~seen
    others = [j for j in range(n) if j != me]
    allowed = {j: FULL_DECK & ~sum(SUIT_MASKS[s] for s in range(4) if k.voids[j] >> s & 1) for j in others}
    hidden = _fill_hidden_hands(pool, {j: k.hand_counts[j] for j in others}, allowed, rng)
    for j in others:
        pool &= ~hidden[j]
    hidden[me] = k.hand | _draw(pool, k.unseen_own, rng)
    pool &= ~hidden[me]
    discards: list[tuple[int, ...]] = [()] * n
    taken: list[tuple[int, ...]] = [()] * n
    discards[me], taken[me] = k.discards, k.taken
    for j in others:
        count = k.exchanged[j] or 0
        drawn = _draw(pool, count, rng)
        pool &= ~drawn
        discards[j] = tuple(mask_cards(drawn))
        taken[j] = tuple(rng.sample(mask_cards(hidden[j] | played[j]), count))
    if k.talon is not None:
        talon = k.talon
    else:
        order = [(k.declarer + i) % n for i in range(n)]  # the blind exchange's order; pick: one seat takes
        rest = mask_cards(pool)
        rng.shuffle(rest)
        talon = tuple(c for j in order for c in taken[j]) + tuple(rest)
    hands = tuple(
        tuple(mask_cards((hidden[j] | played[j]) & ~card_mask(taken[j]) | card_mask(discards[j]))) for j in range(n)
    )
    return Sample(Deal(hands, talon, k.caller), tuple(discards), tuple(taken))


def rebuild(k: Knowledge, sample: Sample) -> Game:
    """The game at the seat's decision on ``sample``: the deal started with :meth:`Game.at_deal`, then
    the announcements, exchanges and plays the seat saw, replayed by the engine."""
    game = Game.at_deal(k.rules, sample.deal, k.caller, k.used, k.totals, k.tiebreak)
    for seat, action in zip(k.announcers, k.announcements):
        game.apply(seat, action)
    pick = k.rules.exchange == "pick"
    while game.phase == Phase.EXCHANGE and k.exchanged[game.to_act] is not None:
        seat = game.to_act
        game.apply(seat, Exchange(sample.discards[seat], sample.taken[seat] if pick else None))
    for seat, card in k.plays:
        game.apply(seat, Play(card))
    return game


# ------------------------------------------------------------------------------ the playout policy
def _card_value(card: int, trump: int | None, minus: bool) -> int:
    """How much a card is worth keeping: high cards and trumps in plus contracts, low cards in minus."""
    rank = card % 13
    if minus:
        return 12 - rank
    return rank + (13 if card // 13 == trump else 0)


def exchange_candidates(game: Game) -> list[Exchange]:
    """The greedy exchanges of 0, 1, 2, ... cards (the searched exchange candidates): the least
    valuable held cards go; a pick exchange takes as many of the most valuable talon cards."""
    d = game.decision()
    assert d is not None
    contract = game.contract
    assert contract is not None
    minus = contract.minus

    def value(card: int) -> int:
        return _card_value(card, game.trump, minus)

    worst = sorted(mask_cards(game.hands[d.seat]), key=value)
    if not d.pick:
        return [Exchange(tuple(worst[:k])) for k in range(min(d.max_exchange, _EXCHANGE_ORDER_LIMIT - 1) + 1)]
    best_talon = sorted(d.talon, key=value, reverse=True)
    out = [Exchange((), ())]
    for k in range(1, min(d.max_exchange, len(worst), _EXCHANGE_ORDER_LIMIT - 1) + 1):
        if value(best_talon[k - 1]) <= value(worst[k - 1]):
            break  # taking a card worth less than the one it replaces helps no one
        out.append(Exchange(tuple(worst[:k]), tuple(best_talon[:k])))
    return out


def _greedy_exchange(game: Game) -> Exchange:
    """Discard low side cards (plus contracts) or high cards (minus), keeping what beats the average."""
    options = exchange_candidates(game)
    contract = game.contract
    assert contract is not None
    for i, option in enumerate(options[1:], 1):
        card = option.discard[-1]
        if _card_value(card, game.trump, contract.minus) >= 6:  # worth as much as a middling card: stop
            return options[i - 1]
    return options[-1]


def _play(game: Game) -> Play:
    """Plus contracts: lead high, win as cheaply as possible, else throw the lowest side card.
    Minus contracts: lead low, play the highest card that still loses, else the highest."""
    cards = mask_cards(game.legal_plays())
    trump = game.trump
    contract = game.contract
    assert contract is not None
    trick = game.trick
    if not trick:
        return Play(min(cards, key=_rank) if contract.minus else max(cards, key=_rank))
    seat = game.to_act
    beating = [c for c in cards if trick_winner((*trick, (seat, c)), trump) == seat]
    if contract.minus:
        losing = [c for c in cards if c not in beating]
        return Play(max(losing or cards, key=_rank))
    if beating:
        return Play(min(beating, key=_rank))
    return Play(min(cards, key=lambda c: (c // 13 == trump, c % 13)))


def _rank(card: int) -> int:
    return card % 13


def rollout_action(game: Game) -> Action:
    """The fast default policy every seat follows in a playout: greedy card play and exchange, no majors."""
    phase = game.phase
    if phase == Phase.PLAY:
        return _play(game)
    if phase == Phase.EXCHANGE:
        return _greedy_exchange(game)
    if phase == Phase.MAJOR:
        return PASS
    return game.legal_actions()[0]


def play_out(game: Game) -> None:
    """Play the deal to its end with :func:`rollout_action` for every seat."""
    while game.phase < _WAITING:
        game.apply(game.to_act, rollout_action(game))


# ------------------------------------------------------------------------------ contract baselines
_BASELINE_DEALS = 48


@lru_cache(maxsize=32)
def contract_baselines(rules: Ruleset) -> dict[str, float]:
    """Mean points of a declarer of each contract on random deals, all seats playing the playout
    policy (a ``trumps`` declarer names its longest suit): what a contract is worth when it is
    declared later on an average hand. Seeded, so every bot computes the same table."""
    rng = random.Random(f"expert-baselines:{rules.preset}")
    n, size = rules.players, rules.hand_size
    totals: dict[str, float] = {c.name: 0.0 for c in rules.contracts}
    for _ in range(_BASELINE_DEALS):
        deck = list(range(52))
        rng.shuffle(deck)
        deal = Deal(tuple(tuple(deck[s * size:(s + 1) * size]) for s in range(n)), tuple(deck[n * size:]), 0)
        for contract in rules.contracts:
            game = Game.at_deal(rules, deal, 0)
            trump = None
            if contract.names_trump:
                hand = game.hands[0]
                trump = max(rules.trump_suits(), key=lambda s: (hand & SUIT_MASKS[s]).bit_count())
            game.apply(0, Choose(contract.name, trump))
            play_out(game)
            totals[contract.name] += game.results[-1].points[0]
    return {name: total / _BASELINE_DEALS for name, total in totals.items()}


def outcome(game: Game, seat: int, baselines: dict[str, float]) -> float:
    """A finished playout's worth to ``seat``: its points, less the average worth of the contract
    the deal spent for it (see :func:`contract_baselines`)."""
    result = game.results[-1]
    spent = result.declarer == seat and not result.tiebreak and not result.void
    return result.points[seat] - (baselines[result.contract] if spent else 0.0)


# ------------------------------------------------------------------------------------- search
class SearchStats(NamedTuple):
    """One decision's search: samples drawn, playouts run, and the mean outcome per candidate."""

    samples: int
    playouts: int
    means: tuple[float, ...]


def search(
    k: Knowledge, rng: random.Random, simulations: int, deadline: float,
    candidates_of: Callable[[Game], Sequence[Action]],
) -> tuple[Action, SearchStats]:
    """The candidate with the best mean outcome over samples (every candidate on every sample),
    stopping before ``simulations`` playouts or before a sample would end past ``deadline``
    (``time.monotonic``; the next sample may take as long as the slowest so far), after one sample
    at least."""
    baselines = contract_baselines(k.rules)
    root = rebuild(k, sample_deal(k, rng))
    candidates = list(candidates_of(root))
    if len(candidates) == 1:
        return candidates[0], SearchStats(0, 0, (0.0,))
    sums = [0.0] * len(candidates)
    samples = playouts = 0
    slowest = 0.0  # the longest sample so far: the next one is not started unless that much time is left
    while True:
        began = time.monotonic()
        for i, action in enumerate(candidates):
            game = root.copy()
            game.apply(k.seat, action)
            play_out(game)
            sums[i] += outcome(game, k.seat, baselines)
        samples += 1
        playouts += len(candidates)
        now = time.monotonic()
        slowest = max(slowest, now - began)
        if playouts + len(candidates) > simulations or now + slowest > deadline:
            break  # another sample would pass the playout or the time budget
        root = rebuild(k, sample_deal(k, rng))
    best = max(range(len(candidates)), key=lambda i: (sums[i], -i))
    return candidates[best], SearchStats(samples, playouts, tuple(s / samples for s in sums))


def _candidates(game: Game) -> Sequence[Action]:
    if game.phase == Phase.EXCHANGE:
        return exchange_candidates(game)
    return game.legal_actions()


# ---------------------------------------------------------------------------------------- bot
class ExpertBot(Bot):
    """Determinised Monte Carlo search with the engine (see the module doc)."""

    name = "expert"
    version = "1"

    def __init__(self, seed: int | str | None = None, simulations: int = 400, budget_ms: float = 200.0) -> None:
        self.seed = 0 if seed is None else seed
        self.simulations = simulations
        self.budget_ms = budget_ms
        self.last: SearchStats | None = None  #: the last decision's search (for benchmarks and tests)

    def budget_for(self, turn: Turn) -> float:
        """Milliseconds to think about ``turn``: ``budget_ms``, at most half the turn's own time, or a
        fiftieth of the bank when the turn has none."""
        if turn.time_left_ms > 0:
            return min(self.budget_ms, turn.time_left_ms / 2)
        if turn.bank_ms > 0:
            return min(self.budget_ms, turn.bank_ms / 50)
        return self.budget_ms

    def on_game_start(self, start: referee_pb2.GameStart) -> None:
        """Work out the contract baselines before the clock runs (once per ruleset and process)."""
        contract_baselines(engine_rules(start.ruleset))

    def decide(self, turn: Turn) -> game_pb2.Action:
        start = time.monotonic()
        k = knowledge(turn)
        rng = random.Random(f"{self.seed}:{turn.deal}:{turn.view.redeal}:{turn.number}")
        action, self.last = search(k, rng, self.simulations, start + self.budget_for(turn) / 1000, _candidates)
        return to_wire(turn, action)


def to_wire(turn: Turn, action: Action) -> game_pb2.Action:
    """The engine action as the turn's Action."""
    if isinstance(action, Play):
        return turn.play(format_card(action.card))
    if isinstance(action, Choose):
        return turn.choose(action.contract, None if action.trump is None else "SHDC"[action.trump])
    if isinstance(action, Major):
        return turn.major(action.contract) if action.contract else turn.pass_major()
    assert turn.kind == EXCHANGE
    return turn.exchange(format_cards(action.discard), format_cards(action.take or ()))
