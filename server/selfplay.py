"""SDK bots against each other in-process: the referee's exchange of messages, without a network.

Each decision goes through the real wire messages: the DecisionRequest is built by
:func:`server.protocol.decision_to_proto` from the seat's projection, events by
:class:`server.protocol.EventEncoder` from :func:`server.engine.views.project_events`, and the bot's
Action is read back with :func:`server.protocol.action_from_proto`. A refused action gets an
ActionError (``retry``) and the bot answers again, at most :data:`MAX_RETRIES` times; then the
referee's default action is applied. A bot therefore sees exactly what it would see on a Play stream.

:func:`play_game` plays one game; :func:`compare` plays duplicate sets of two bots and measures the
difference with a 95% confidence interval.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mizerka.bot import Bot, answer, call_hook, retry_answer
from mizerka.turn import Turn
from mizerka_proto import game_pb2, referee_pb2

from server import protocol
from server.engine.game import Game, IllegalAction
from server.engine.rules import Ruleset, load_ruleset
from server.engine.views import project, project_events
from server.policies import default_action

__all__ = ["MAX_RETRIES", "CompareStats", "Totals", "compare", "play_game", "seatings"]

MAX_RETRIES = 3
TIME_LEFT_MS = 2000
BANK_MS = 30000


class Totals(list[int]):
    """A game's final totals per seat (a list), with what happened on the way.

    ``refusals[s]``: actions of seat s the referee refused; ``fallbacks[s]``: answers the SDK made
    for seat s because its bot raised or answered garbage; ``defaults[s]``: decisions settled by the
    default action after too many refusals; ``decisions``: decisions per seat; ``results``: the
    game's deal results (engine DealResult).
    """

    refusals: list[int]
    fallbacks: list[int]
    defaults: list[int]
    decisions: list[int]
    results: list[Any]


def _names(bots: Sequence[Bot]) -> list[str]:
    out = []
    for s, b in enumerate(bots):
        out.append(f"{b.name or type(b).__name__}-{s}")
    return out


def play_game(
    bots: Sequence[Bot],
    rules: Ruleset | str,
    seed: int | str = 0,
    *,
    names: Sequence[str] | None = None,
    match_id: str = "selfplay",
    game_number: int = 0,
) -> Totals:
    """Play one game of ``rules`` (a Ruleset or a preset name) with one bot per seat; the totals.

    Every bot gets on_game_start, its events, DecisionRequests (and ActionErrors) and on_game_end,
    as on a Play stream.
    """
    if isinstance(rules, str):
        rules = load_ruleset(rules)
    n = rules.players
    if len(bots) != n:
        raise ValueError(f"{rules.preset} needs {n} bots, got {len(bots)}")
    names = list(names) if names is not None else _names(bots)
    game = Game(rules, seed=seed)
    ruleset = protocol.ruleset_to_proto(rules)
    starts = [
        referee_pb2.GameStart(match_id=match_id, game_number=game_number, games=1, seat=s, names=names, ruleset=ruleset)
        for s in range(n)
    ]
    encoders = [protocol.EventEncoder(rules) for _ in range(n)]
    cursors = [0] * n
    refusals, fallbacks, defaults, decisions = [0] * n, [0] * n, [0] * n, [0] * n

    def flush() -> None:
        end = len(game.log)
        for s in range(n):
            start, cursors[s] = cursors[s], end
            if start == end:
                continue
            for event in encoders[s].encode_all(project_events(game, s, start)):
                call_hook(bots[s], "on_event", event)

    for s in range(n):
        call_hook(bots[s], "on_game_start", starts[s])
    turn_no = 0
    while not game.finished:
        flush()
        decision = game.decision()
        assert decision is not None, "the game waits for cards: selfplay deals from the seed"
        seat = decision.seat
        bot = bots[seat]
        turn_no += 1
        decisions[seat] += 1
        request = protocol.decision_to_proto(
            turn_no, decision, project(game, seat), TIME_LEFT_MS, BANK_MS, names, rules
        )
        turn = Turn(request, starts[seat])
        ans = answer(bot, turn)
        fallbacks[seat] += ans.fallback
        sent = [ans.action]
        action_msg: game_pb2.Action | None = ans.action
        errors = 0
        while True:
            assert action_msg is not None
            error = _try(game, seat, turn_no, action_msg)
            if error is None:
                break
            refusals[seat] += 1
            errors += 1
            error.retry = errors <= MAX_RETRIES
            error.time_left_ms, error.bank_ms = TIME_LEFT_MS, BANK_MS
            nxt = retry_answer(bot, turn, error, sent)
            if nxt is None or not error.retry:
                action = default_action(decision)
                game.apply(seat, action)
                defaults[seat] += 1
                call_hook(bot, "on_event", protocol.default_applied_to_proto(turn_no, action, "REFUSED"))
                break
            fallbacks[seat] += nxt.fallback
            action_msg = nxt.action
    flush()

    totals = Totals(game.totals)
    totals.refusals, totals.fallbacks, totals.defaults, totals.decisions = refusals, fallbacks, defaults, decisions
    totals.results = list(game.results)
    ranks = protocol.ranks(totals)
    results = protocol.results_to_proto(game.results)
    seats = [
        game_pb2.SeatRecord(seat=s, name=names[s], total=totals[s], rank=ranks[s], refusals=refusals[s],
                            defaults_applied=defaults[s])
        for s in range(n)
    ]
    for s in range(n):
        end = referee_pb2.GameEnd(match_id=match_id, game_number=game_number, seat=s, rank=ranks[s],
                                  totals=list(totals), results=results, seats=seats)
        call_hook(bots[s], "on_game_end", end)
    return totals


def _try(game: Game, seat: int, turn: int, msg: game_pb2.Action) -> referee_pb2.ActionError | None:
    """Apply the Action if it answers ``turn`` and is legal; otherwise the ActionError to send."""
    if msg.turn != turn:
        return referee_pb2.ActionError(turn=msg.turn, code="STALE_TURN",
                                       message=f"turn {msg.turn} is not pending; the pending turn is {turn}")
    try:
        game.apply(seat, protocol.action_from_proto(msg))
    except (protocol.ProtocolError, IllegalAction) as e:
        return referee_pb2.ActionError(turn=turn, code=e.code, message=e.message)
    return None


# --------------------------------------------------------------------------- duplicate play
def seatings(players: int) -> list[tuple[int, ...]]:
    """Every seating of two bots (0 = A, 1 = B) in which both play: all rotations of every mix."""
    return [s for s in itertools.product((0, 1), repeat=players) if 0 < sum(s) < players]


@dataclass
class CompareStats:
    """Duplicate comparison of bot A with bot B (points are game totals per seat)."""

    preset: str
    seeds: int  #: seed sets played
    games: int  #: games played (seeds x seatings)
    mean_a: float  #: A's mean points per game (per seat it occupies)
    mean_b: float  #: B's mean points per game
    diff: float  #: mean over seed sets of (A's mean - B's mean) in that set
    ci95: tuple[float, float]  #: 95% confidence interval of diff (t over seed sets)
    per_seed: list[float] = field(default_factory=list)  #: the per-set differences
    refusals: tuple[int, int] = (0, 0)  #: refused actions of A's seats, B's seats
    fallbacks: tuple[int, int] = (0, 0)

    def __str__(self) -> str:
        lo, hi = self.ci95
        return (f"{self.preset}: {self.games} games ({self.seeds} seeds x {self.games // max(1, self.seeds)} seatings): "
                f"A {self.mean_a:+.2f} vs B {self.mean_b:+.2f} points/game; A - B = {self.diff:+.2f} "
                f"(95% CI {lo:+.2f} .. {hi:+.2f})")


# Two-sided 95% Student t quantiles by degrees of freedom (1..30); 1.96 beyond.
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def _t95(df: int) -> float:
    return _T95[df - 1] if 1 <= df <= len(_T95) else 1.96


def compare(
    bot_a_factory: Callable[[], Bot],
    bot_b_factory: Callable[[], Bot],
    preset: str | Ruleset = "mizerka",
    games: int = 10,
    seed: int | str = 0,
    *,
    options: dict[str, Any] | None = None,
) -> CompareStats:
    """Play ``games`` duplicate sets of bot A against bot B and compare their points.

    A set is one seed played in every seating of the two bots (:func:`seatings`: for 3 players
    A-B-B, B-A-B, B-B-A, A-A-B, A-B-A, B-A-A), each with fresh bots from the factories, so both bots
    hold the same cards in the same seats equally often. Per set the statistic is A's mean points per
    game per seat minus B's; its mean over the sets comes with a 95% t confidence interval.
    """
    rules = preset if isinstance(preset, Ruleset) else load_ruleset(preset, options or {})
    layouts = seatings(rules.players)
    per_seed: list[float] = []
    all_a: list[float] = []
    all_b: list[float] = []
    ref_a = ref_b = fb_a = fb_b = 0
    for k in range(games):
        game_seed = f"{seed}:{k}"
        diffs = []
        for layout in layouts:
            bots = [bot_a_factory() if who == 0 else bot_b_factory() for who in layout]
            totals = play_game(bots, rules, game_seed)
            a = [totals[s] for s, who in enumerate(layout) if who == 0]
            b = [totals[s] for s, who in enumerate(layout) if who == 1]
            all_a.append(statistics.fmean(a))
            all_b.append(statistics.fmean(b))
            diffs.append(all_a[-1] - all_b[-1])
            ref_a += sum(totals.refusals[s] for s, who in enumerate(layout) if who == 0)
            ref_b += sum(totals.refusals[s] for s, who in enumerate(layout) if who == 1)
            fb_a += sum(totals.fallbacks[s] for s, who in enumerate(layout) if who == 0)
            fb_b += sum(totals.fallbacks[s] for s, who in enumerate(layout) if who == 1)
        per_seed.append(statistics.fmean(diffs))
    diff = statistics.fmean(per_seed)
    if len(per_seed) > 1:
        half = _t95(len(per_seed) - 1) * statistics.stdev(per_seed) / math.sqrt(len(per_seed))
    else:
        half = math.inf
    return CompareStats(
        preset=rules.preset,
        seeds=games,
        games=games * len(layouts),
        mean_a=statistics.fmean(all_a),
        mean_b=statistics.fmean(all_b),
        diff=diff,
        ci95=(diff - half, diff + half),
        per_seed=per_seed,
        refusals=(ref_a, ref_b),
        fallbacks=(fb_a, fb_b),
    )
