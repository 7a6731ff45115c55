"""SDK bots against each other in this process, through the referee's own turn loop.

:func:`play_game` plays one game: every seat is an :class:`~tournaments.local_bots.SdkSeat`, driven by
:func:`server.referee.offline.play` -- the same :class:`~server.referee.session.GameSession` the live
referee runs, so a bot sees exactly what it would see on a Play stream (refusals, retries up to
``Clock.max_retries``, stale turns, defaults, strikes). No clock runs: an answer takes no time, and
a bot that stops answering is timed out. :func:`compare` plays duplicate sets of two bots and
measures the difference with a 95% confidence interval.
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mizerka.bot import Bot
from mizerka_engine.game import DealResult
from mizerka_engine.rules import Ruleset, load_ruleset
from server.referee.offline import play
from server.settings import ClockSettings
from tournaments.local_bots import SdkSeat
from tournaments.standings.stats import mean_ci95

__all__ = ["CompareStats", "Totals", "compare", "play_game", "seatings"]


class Totals(list[int]):
    """A game's final totals per seat (a list), with what happened on the way.

    ``refusals[s]``: actions of seat s the referee refused (malformed ones included);
    ``fallbacks[s]``: answers the SDK made for seat s because its bot raised or answered garbage;
    ``defaults[s]``: decisions settled by the referee's default; ``decisions[s]``: requests seat s
    was sent; ``results``: the game's deal results.
    """

    refusals: list[int]
    fallbacks: list[int]
    defaults: list[int]
    decisions: list[int]
    results: list[DealResult]


def _names(bots: Sequence[Bot]) -> list[str]:
    return [f"{b.name or type(b).__name__}-{s}" for s, b in enumerate(bots)]


def play_game(
    bots: Sequence[Bot],
    rules: Ruleset | str,
    seed: int | str = 0,
    *,
    names: Sequence[str] | None = None,
    clock: ClockSettings | None = None,
    match_id: str = "selfplay",
    game_number: int = 0,
) -> Totals:
    """Play one game of ``rules`` (a Ruleset or a preset name) with one bot per seat; the totals."""
    if isinstance(rules, str):
        rules = load_ruleset(rules)
    if len(bots) != rules.players:
        raise ValueError(f"{rules.preset} needs {rules.players} bots, got {len(bots)}")
    seats = [SdkSeat(b) for b in bots]
    record = play(rules, str(seed), seats, list(names) if names is not None else _names(bots), clock,
                  match_id=match_id, game_index=game_number)
    totals = Totals(record.totals)
    totals.refusals = [r.refusals + r.malformed for r in record.seats]
    totals.fallbacks = [s.fallbacks for s in seats]
    totals.defaults = [r.defaults for r in record.seats]
    totals.decisions = [s.requests for s in seats]
    totals.results = list(record.game.results)
    return totals


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
    ci95: tuple[float, float]  #: 95% confidence interval of diff (t over seed sets; infinite for one set)
    per_seed: list[float] = field(default_factory=list)  #: the per-set differences
    refusals: tuple[int, int] = (0, 0)  #: refused actions of A's seats, B's seats
    fallbacks: tuple[int, int] = (0, 0)

    def __str__(self) -> str:
        lo, hi = self.ci95
        return (f"{self.preset}: {self.games} games ({self.seeds} seeds x {self.games // max(1, self.seeds)} seatings): "
                f"A {self.mean_a:+.2f} vs B {self.mean_b:+.2f} points/game; A - B = {self.diff:+.2f} "
                f"(95% CI {lo:+.2f} .. {hi:+.2f})")


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
    refusals, fallbacks = [0, 0], [0, 0]
    for k in range(games):
        diffs = []
        for layout in layouts:
            bots = [bot_a_factory() if who == 0 else bot_b_factory() for who in layout]
            totals = play_game(bots, rules, f"{seed}:{k}")
            a = [totals[s] for s, who in enumerate(layout) if who == 0]
            b = [totals[s] for s, who in enumerate(layout) if who == 1]
            all_a.append(statistics.fmean(a))
            all_b.append(statistics.fmean(b))
            diffs.append(all_a[-1] - all_b[-1])
            for s, who in enumerate(layout):
                refusals[who] += totals.refusals[s]
                fallbacks[who] += totals.fallbacks[s]
        per_seed.append(statistics.fmean(diffs))
    diff = mean_ci95(per_seed)
    return CompareStats(
        preset=rules.preset,
        seeds=games,
        games=games * len(layouts),
        mean_a=statistics.fmean(all_a),
        mean_b=statistics.fmean(all_b),
        diff=diff.mean,
        ci95=(diff.lo if diff.lo is not None else -float("inf"), diff.hi if diff.hi is not None else float("inf")),
        per_seed=per_seed,
        refusals=(refusals[0], refusals[1]),
        fallbacks=(fallbacks[0], fallbacks[1]),
    )
