"""When a league may stop: anytime-valid separation of adjacent bots in the standings.

A round is every seating of every table once (tournaments/schedule.py), so each round is a small
balanced league of its own and rounds are independent repetitions of the same experiment: fresh
deals, the same tables and seats. For two bots A and B, the per-round difference
``d_r = (A's points per game in round r) - (B's)`` is therefore a sequence of independent, identically
distributed values whose mean is the difference of their expected points per game in this league.
The evidence for a pair is a confidence sequence on that mean: intervals that hold at every round
at once with probability at least the confidence, so the standings may be looked at after every
round (the runner does) and the league stopped at any of them without spoiling the error rate.

The method: the confidence sequence of the one-sample t-test for a normal mean with unknown
variance, from the scale-invariant mixture martingale (Lai's 1976 construction, with the normal
mixture over the effect of Wang & Ramdas): with ``n`` rounds, ``S = sum(d - mu)``, ``V = sum((d - mu)**2)`` and a N(0, g) mixture over
the standardised difference ``(mean - mu) / sd``, the Bayes factor

    M_n(mu) = (1 + n g) ** -1/2 * (1 - (n g / (1 + n g)) * S**2 / (n V)) ** -n/2

is a nonnegative martingale with ``M_1 = 1`` under the hypothesis mean = mu, whatever the variance,
so by Ville's inequality it reaches 1/alpha with probability at most alpha, ever. The interval at
round n is ``{mu : M_n(mu) < 1/alpha}``, in closed form below; it is infinite until a few rounds
have shown the spread (a t-test cannot trust a variance from two values, and neither does this).
Intervals are intersected over the rounds (still valid, and a pair once settled stays settled).

Why this method rather than the others that stay valid under continuous monitoring:

* no bounds needed: the rules bound a game's points only loosely (a hundred points and more, while
  the standard deviation is about 8.5 on full ``mizerka``), and empirical-Bernstein or betting
  confidence sequences (Howard et al. 2021; Waudby-Smith & Ramdas 2024) pay for that range;
* no variance plugged in: the asymptotic confidence sequence (Waudby-Smith et al. 2024) is valid only
  in the limit, and the early rounds, with a variance estimated from a handful of values, are exactly
  where a false stop would come from; this one is exact for normal rounds;
* a round's difference is a mean over several games of sums over 9 to 24 deals, so close to normal;
  tests/test_sequential.py checks the error rate on skewed, whole-number simulated results too;
* no indifference zone: a sequential probability ratio test (fishtest's GSPRT on Elo) needs the two
  hypotheses' bounds and answers "H0 or H1", where a league asks which of two bots is ahead.

Family-wise: which pairs are adjacent depends on the results, so the error rate ``1 - confidence`` is
split over every pair of bots (Bonferroni): then, with probability at least the confidence, every
interval ever shown holds its pair's true difference, and every pair shown as settled is in the
right order. The assumption: rounds are alike (bots that do not learn across games or crash midway).

References: T. L. Lai, "On confidence sequences", Ann. Statist. 4(2), 1976. H. Wang and A. Ramdas,
"Anytime-valid t-tests and confidence sequences for Gaussian means with unknown variance",
arXiv:2310.03722. S. R. Howard, A. Ramdas, J. McAuliffe and J. Sekhon, "Time-uniform, nonparametric,
nonasymptotic confidence sequences", Ann. Statist. 49(2), 2021. I. Waudby-Smith and A. Ramdas,
"Estimating means of bounded random variables by betting", J. R. Stat. Soc. B 86(1), 2024.
I. Waudby-Smith, D. Arbour,
R. Sinha, E. H. Kennedy and A. Ramdas, "Time-uniform central limit theory and asymptotic confidence
sequences", Ann. Statist. 52(6), 2024.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any

import numpy as np

from tournaments.schedule import game_number
from tournaments.standings.results import GameResult

# g, the variance of the mixture over the standardised difference per round (difference / its sd):
# a compromise for differences of 0.3 to 1 sd, the range of docs/standings.md's table, where g = 0.1
# or g = 1 would need from 6% fewer to 22% more rounds to separate a pair at 95% among three bots.
EFFECT_PRIOR = 0.3


class Verdict(StrEnum):
    SETTLED = "settled"  # the upper bot of the pair scores more per game, at the league's confidence
    OPEN = "open"  # not separated (yet)
    REVERSED = "reversed"  # the lower bot scores more per game: its rating (places) and its points disagree


@dataclass(frozen=True, slots=True)
class PairEvidence:
    """Two bots next to each other in the standings, and what the rounds say about their order."""

    upper: str
    lower: str
    difference: float | None  # mean over the rounds of (upper's points per game - lower's); None before a round
    lo: float | None  # the interval on that difference; None: unbounded (too few rounds)
    hi: float | None
    verdict: Verdict


@dataclass(frozen=True, slots=True)
class Separation:
    """The evidence for every adjacent pair of the standings, from the complete rounds."""

    confidence: float
    rounds: int  # complete rounds (0, 1, ... up to the first one with a game missing)
    games: int  # the games of those rounds
    scheduled: int  # games in the whole schedule: the most the league plays
    pairs: tuple[PairEvidence, ...]  # top down

    @property
    def settled(self) -> bool:
        """Every adjacent pair is separated: a league with stop = "settled" plays no more."""
        return all(p.verdict is Verdict.SETTLED for p in self.pairs)

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "settled": self.settled}


def confidence_sequence(diffs: Sequence[float] | np.ndarray, alpha: float) -> tuple[float, float]:
    """The interval on the mean of ``diffs`` after all of them: the intersection over every prefix
    of the (1 - alpha) confidence sequence above; (-inf, inf) while it is unbounded."""
    d = np.asarray(diffs, dtype=float)
    if len(d) < 2:
        return -math.inf, math.inf
    n = np.arange(1, len(d) + 1, dtype=float)
    shift = float(d.mean())  # the sums of squares below are shift-invariant; shifting keeps them exact
    s1 = np.cumsum(d - shift)
    mean = s1 / n
    ss = np.maximum(np.cumsum((d - shift) ** 2) - s1 * mean, 0.0)  # sum of squares about each prefix's mean
    ng = n * EFFECT_PRIOR
    # M_n(mu) < 1/alpha  <=>  S^2 / (nV) < r  <=>  n (mean - mu)^2 < ss * r / (1 - r)
    r = -np.expm1((2 * math.log(alpha) - np.log1p(ng)) / n) * (1 + ng) / ng
    with np.errstate(divide="ignore", invalid="ignore"):
        half = np.where(r < 1, np.sqrt(ss / n * r / (1 - r)), np.inf)
    return float(np.max(mean + shift - half)), float(np.min(mean + shift + half))


def round_means(bots: Sequence[str], games: Iterable[GameResult], round_games: int) -> np.ndarray:
    """Each bot's points per game in each complete round: rows are rounds 0, 1, ... up to the first
    one with a game missing (later rounds wait for it), columns are ``bots``."""
    index = {b: i for i, b in enumerate(bots)}
    by_round: dict[int, list[GameResult]] = {}
    for g in games:
        by_round.setdefault(game_number(g.unit), []).append(g)
    rows = []
    for r in itertools.count():
        played = by_round.get(r, [])
        if len(played) < round_games:
            break
        points, count = np.zeros(len(bots)), np.zeros(len(bots))
        for g in played:
            for bot, total in zip(g.seats, g.totals):
                points[index[bot]] += total
                count[index[bot]] += 1
        rows.append(points / count)  # every bot plays in every round
    return np.array(rows, dtype=float).reshape(len(rows), len(bots))


def separation(order: Sequence[str], games: Iterable[GameResult], round_games: int, confidence: float,
               scheduled: int) -> Separation:
    """The evidence for each adjacent pair of ``order`` (the standings, top down), at the family-wise
    ``confidence`` over every pair of bots."""
    means = round_means(order, games, round_games)
    alpha = (1 - confidence) / math.comb(len(order), 2)
    pairs = []
    for i, (upper, lower) in enumerate(itertools.pairwise(order)):
        d = means[:, i] - means[:, i + 1]
        lo, hi = confidence_sequence(d, alpha)
        verdict = Verdict.SETTLED if lo > 0 else Verdict.REVERSED if hi < 0 else Verdict.OPEN
        pairs.append(PairEvidence(upper, lower, float(d.mean()) if len(d) else None,
                                  lo if math.isfinite(lo) else None, hi if math.isfinite(hi) else None, verdict))
    return Separation(confidence, len(means), len(means) * round_games, scheduled, tuple(pairs))
