"""``expert``: determinised Monte Carlo search, with the rules engine (``mizerka_engine``) as a library.

For each decision the bot reads its seat's view back into the engine's terms (:func:`engine_view`)
and has the engine resample the game (:func:`mizerka_engine.resample.resample`): the cards the seat
cannot see drawn consistent with all it has seen (its hand, its exchange, the talon of its pick
exchange, every card played, and the suits a seat showed it lacks by not following), the deal
replayed on them. It then plays every candidate action out to the end of the deal with a fast
greedy policy (:func:`rollout_action`) for all seats. The action with the best mean wins; every
candidate is tried on the same samples, so their differences are not blurred by the luck of the deal.

- Outcome: the seat's points in the deal, minus the mean points its contract earns a declarer on a
  random hand when the deal spends one of its contracts (:func:`contract_baselines`): every contract
  is declared once, so a contract is worth choosing now by how much better than average it fits.
- Contracts and majors: every legal one is searched. Exchanges (too many discard sets to search):
  the candidates are the greedy policy's exchange of 0, 1, ... cards, each searched.
- Budget: at most ``simulations`` (400) playouts per decision, and a time budget: ``budget_ms``
  (200), never more than half the turn's time left (or a fiftieth of the bank when the turn has no
  time of its own). The search plans to end within ``aim`` (80%) of it, the rest absorbing what a
  busy machine adds: the clock is read before every playout, and a sample (or playout) expected to
  end past the plan, as long as the slowest so far, is not started (a sample the clock cuts short is
  dropped, see :func:`search`). Samples are drawn from the seed, the deal and the turn number, so
  the answers depend only on the seed whenever the playout count, not the clock, ends the searches
  (tests give a large time budget or a stopped fake clock; a busy machine hits the clock).

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
from mizerka.bots.determinize import engine_rules, engine_view
from mizerka.turn import EXCHANGE, Turn
from mizerka_engine import Action, Choose, Deal, Exchange, Game, Major, Phase, Play, Ruleset
from mizerka_engine.actions import PASS
from mizerka_engine.cards import SUIT_MASKS, format_card, format_cards, mask_cards
from mizerka_engine.resample import resample
from mizerka_engine.views import View
from mizerka_proto import game_pb2, referee_pb2

__all__ = ["ExpertBot", "contract_baselines", "engine_rules", "engine_view", "play_out", "rollout_action", "search", "to_wire"]

_WAITING = Phase.WAITING
_EXCHANGE_ORDER_LIMIT = 8  # exchange candidates searched: of 0..7 cards


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
    beating = [c for c in cards if game.beats >> c & 1]
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
AIM = 0.8  #: the search plans to end within this share of the decision's budget


class SearchStats(NamedTuple):
    """One decision's search: complete samples (each playing out every candidate), playouts run
    (with those of a sample cut short by the clock), the mean outcome per candidate over the
    complete samples, and what ended the search: ``"playouts"`` (the count: deterministic),
    ``"clock"`` or ``"single"`` (one candidate, no search)."""

    samples: int
    playouts: int
    means: tuple[float, ...]
    stop: str = "playouts"


Clock = Callable[[], float]


def search(
    view: View, rules: Ruleset, rng: random.Random, simulations: int, deadline: float,
    candidates_of: Callable[[Game], Sequence[Action]], *, limit: float | None = None,
    clock: Clock = time.monotonic,
) -> tuple[Action, SearchStats]:
    """The candidate with the best mean outcome over games resampled from ``view`` (every candidate on
    every sample).

    ``deadline`` is when the search plans to be done, ``limit`` (default: ``deadline``) when it must
    be, both on ``clock``. The clock is read before every playout:

    - a new sample starts only if ``simulations`` leaves room for all its playouts and, after the
      first sample, if it is expected to end by ``deadline`` (as long as the slowest sample so far);
    - a playout starts only if it is expected to end by ``deadline`` (as long as the slowest playout
      so far), else the sample in progress is dropped; the first sample is only cut at ``limit``,
      and if it is, the best of the candidates it played out so far is chosen.

    When the playout count ends the search the answer depends only on ``rng`` (the clock only
    decides when to stop)."""
    if limit is None:
        limit = deadline
    baselines = contract_baselines(rules)
    seat = view.audience
    root = resample(view, rules, rng)
    candidates = list(candidates_of(root))
    n = len(candidates)
    if n == 1:
        return candidates[0], SearchStats(0, 0, (0.0,), "single")
    sums = [0.0] * n
    samples = playouts = 0
    slowest_sample = slowest_playout = 0.0  # the longest so far: what the next one may take
    now = clock()
    while True:
        began = now
        partial: list[float] = []
        for action in candidates:
            if partial and now + slowest_playout > (deadline if samples else limit):
                break  # the clock cuts this sample short (a sample's first playout was cleared with it)
            game = root.copy()
            game.apply(seat, action)
            play_out(game)
            partial.append(outcome(game, seat, baselines))
            playouts += 1
            then, now = now, clock()
            slowest_playout = max(slowest_playout, now - then)
        else:
            samples += 1
            sums = [a + b for a, b in zip(sums, partial)]
            slowest_sample = max(slowest_sample, now - began)
            if (samples + 1) * n > simulations:
                break  # another sample would pass the playout budget
            if now + slowest_sample > deadline:
                return _best(candidates, sums, samples, playouts, "clock")  # ... or the time budget
            root = resample(view, rules, rng)
            continue
        if samples:  # a sample cut short is dropped: every candidate is judged on the same samples
            return _best(candidates, sums, samples, playouts, "clock")
        best = max(range(len(partial)), key=lambda i: (partial[i], -i))  # the first sample, cut at the limit
        return candidates[best], SearchStats(0, playouts, tuple(partial), "clock")
    return _best(candidates, sums, samples, playouts, "playouts")


def _best(candidates: Sequence[Action], sums: Sequence[float], samples: int, playouts: int,
          stop: str) -> tuple[Action, SearchStats]:
    """The candidate with the best total (the first of equals), and the search's stats."""
    best = max(range(len(sums)), key=lambda i: (sums[i], -i))
    return candidates[best], SearchStats(samples, playouts, tuple(s / samples for s in sums), stop)


def _candidates(game: Game) -> Sequence[Action]:
    if game.phase == Phase.EXCHANGE:
        return exchange_candidates(game)
    return game.legal_actions()


# ---------------------------------------------------------------------------------------- bot
class ExpertBot(Bot):
    """Determinised Monte Carlo search with the engine (see the module doc)."""

    name = "expert"
    version = "1"

    def __init__(self, seed: int | str | None = None, simulations: int = 400, budget_ms: float = 200.0, *,
                 aim: float = AIM, clock: Clock = time.monotonic) -> None:
        self.seed = 0 if seed is None else seed
        self.simulations = simulations
        self.budget_ms = budget_ms
        self.aim = aim  #: the share of the budget the search plans to use (the rest absorbs overshoot)
        self.clock = clock  #: seconds, monotonic (tests inject a fake one)
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

    def deadlines(self, turn: Turn, start: float) -> tuple[float, float]:
        """When the search of ``turn`` begun at ``start`` plans to end (``aim`` of the budget) and
        when it must (the whole budget), in the clock's seconds."""
        budget = self.budget_for(turn) / 1000
        return start + self.aim * budget, start + budget

    def decide(self, turn: Turn) -> game_pb2.Action:
        deadline, limit = self.deadlines(turn, self.clock())
        rng = random.Random(f"{self.seed}:{turn.deal}:{turn.view.redeal}:{turn.number}")
        action, self.last = search(engine_view(turn), engine_rules(turn.ruleset), rng, self.simulations, deadline,
                                   _candidates, limit=limit, clock=self.clock)
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
