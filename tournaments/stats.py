"""Standings from finished games: OpenSkill ratings, mean points with confidence intervals over
duplicate sets, head-to-head counts and fault counts. Pure: games in, numbers out.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from openskill.models import PlackettLuce

# Two-sided 95% Student t quantiles by degrees of freedom; above 30 the nearest lower entry is
# used (conservative), and 1.96 beyond 120.
_T975 = {
    1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228,
    11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093,
    20: 2.086, 21: 2.080, 22: 2.074, 23: 2.069, 24: 2.064, 25: 2.060, 26: 2.056, 27: 2.052, 28: 2.048,
    29: 2.045, 30: 2.042, 40: 2.021, 60: 2.000, 120: 1.980,
}
FAULTS = ("timeouts", "refusals", "defaults", "forfeits", "disconnects")


def t975(df: int) -> float:
    if df > 120:
        return 1.96
    return _T975[max(d for d in _T975 if d <= df)]


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished league game as the statistics need it."""

    key: str
    unit: str  # duplicate set: same table, same seed
    seats: tuple[str, ...]  # bot names in seat order
    totals: tuple[int, ...]
    faults: tuple[Mapping[str, int], ...] = ()  # per seat, keys of FAULTS


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

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "bots": [asdict(b) for b in self.bots],
            "head_to_head": self.head_to_head,
            "rating_history": {k: [list(p) for p in v] for k, v in self.rating_history.items()},
        }


def ranks(totals: Sequence[int]) -> list[int]:
    """Finishing places: 1 + the number of strictly higher totals (ties share a place)."""
    return [1 + sum(t > mine for t in totals) for mine in totals]


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
        if len(unit_means) >= 2:
            line.ci95 = t975(len(unit_means) - 1) * statistics.stdev(unit_means) / math.sqrt(len(unit_means))
        line.crashes = (crashes or {}).get(bot, 0)
        line.disabled = bot in set(disabled)
    order = sorted(lines.values(), key=lambda b: (-b.ordinal, -b.mean, b.name))
    return Standings(order, h2h, history, count)
