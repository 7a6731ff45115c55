"""Standings from finished games: OpenSkill ratings, mean points with confidence intervals over
duplicate sets, head-to-head counts and fault counts. Pure: games in, numbers out. Whether adjacent
bots are separated (tournaments/standings/sequential.py) is added by the caller, who knows the schedule.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, NamedTuple

from openskill.models import PlackettLuce
from scipy.special import stdtrit  # t quantiles, as scipy.stats.t.ppf; lighter import

from mizerka_engine.game import ranks
from tournaments.standings.results import GameResult as GameResult  # re-exported: the statistics' input
from tournaments.standings.sequential import Separation

FAULTS = ("timeouts", "refusals", "defaults", "forfeits", "disconnects")


class MeanCI(NamedTuple):
    """A mean with its 95% confidence interval; ``lo`` and ``hi`` are None when there is none."""

    mean: float
    lo: float | None
    hi: float | None

    @property
    def half_width(self) -> float | None:
        return None if self.hi is None else self.hi - self.mean


def mean_ci95(values: Sequence[float]) -> MeanCI:
    """The mean of ``values`` with its two-sided 95% Student t interval (exact quantiles for every
    sample size, so small and large samples are treated alike). One value has no spread to
    estimate: its interval is None rather than a made-up width."""
    if not values:
        raise ValueError("a mean needs at least one value")
    mean = statistics.fmean(values)
    if len(values) < 2:
        return MeanCI(mean, None, None)
    half = float(stdtrit(len(values) - 1, 0.975)) * statistics.stdev(values) / math.sqrt(len(values))
    return MeanCI(mean, mean - half, mean + half)


@dataclass(slots=True)
class BotLine:
    name: str
    games: int = 0
    points: float = 0.0
    mean: float = 0.0
    ci95: float | None = None  # half-width over duplicate sets; None with fewer than 2 sets
    sets: int = 0
    wins: float = 0.0  # first places, shared first places split
    mu: float = 25.0
    sigma: float = 25.0 / 3
    ordinal: float = 0.0
    faults: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FAULTS, 0))
    crashes: int = 0
    disabled: bool = False


@dataclass(slots=True)
class Standings:
    bots: list[BotLine]
    head_to_head: dict[str, dict[str, dict[str, int]]]  # a -> b -> {"ahead", "behind", "tied"}
    rating_history: dict[str, list[tuple[int, float]]]  # bot -> (games rated so far, ordinal)
    games: int
    separation: Separation | None = None  # the adjacent pairs' evidence (tournaments.standings.league.load_results)

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "bots": [asdict(b) for b in self.bots],
            "head_to_head": self.head_to_head,
            "rating_history": {k: [list(p) for p in v] for k, v in self.rating_history.items()},
            "separation": None if self.separation is None else self.separation.to_json(),
        }


def standings(
    bots: Sequence[str], games: Iterable[GameResult], crashes: Mapping[str, int] | None = None,
    disabled: Iterable[str] = (),
) -> Standings:
    """Standings over ``games`` in the order given (ratings depend on it: pass schedule order)."""
    model = PlackettLuce()
    ratings = {b: model.rating(name=b) for b in bots}
    lines = {b: BotLine(b) for b in bots}
    h2h: dict[str, dict[str, dict[str, int]]] = {a: {b: {"ahead": 0, "behind": 0, "tied": 0} for b in bots if b != a} for a in bots}
    history: dict[str, list[tuple[int, float]]] = {b: [] for b in bots}
    per_unit: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    count = 0
    for g in games:
        count += 1
        places = ranks(g.totals)
        rated = model.rate([[ratings[b]] for b in g.seats], ranks=places)
        for seat, bot in enumerate(g.seats):
            ratings[bot] = rated[seat][0]
            line = lines[bot]
            line.games += 1
            line.points += g.totals[seat]
            if places[seat] == 1:
                line.wins += 1 / places.count(1)
            per_unit[bot][g.unit].append(g.totals[seat])
            if g.faults:
                for k in FAULTS:
                    line.faults[k] += int(g.faults[seat].get(k, 0))
            history[bot].append((line.games, ratings[bot].ordinal()))
            for other_seat, other in enumerate(g.seats):
                if other != bot:
                    diff = g.totals[seat] - g.totals[other_seat]
                    h2h[bot][other]["ahead" if diff > 0 else "behind" if diff < 0 else "tied"] += 1
    for bot, line in lines.items():
        r = ratings[bot]
        line.mu, line.sigma, line.ordinal = r.mu, r.sigma, r.ordinal()
        line.mean = line.points / line.games if line.games else 0.0
        unit_means = [statistics.fmean(v) for v in per_unit[bot].values()]
        line.sets = len(unit_means)
        line.ci95 = mean_ci95(unit_means).half_width if unit_means else None
        line.crashes = (crashes or {}).get(bot, 0)
        line.disabled = bot in set(disabled)
    order = sorted(lines.values(), key=lambda b: (-b.ordinal, -b.mean, b.name))
    return Standings(order, h2h, history, count)
