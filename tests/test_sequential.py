"""Leagues that stop when the order is known (tournaments/standings/sequential.py), on simulated results: no
games are played here (the real league that stops early is in tests/test_league.py).

* the interval is exactly where the t-test's mixture martingale crosses 1/alpha;
* bots of clearly different strength: every league stops with the true order, long before its
  schedule ends;
* identical bots: over 500 seeded leagues a difference is ever declared in no more than alpha of
  them (with a binomial margin), while 95% t intervals looked at after every round fail that test;
* the league's side: the schedule stored round by round, a stored league that says when it settled,
  and a league submitted to workers that is closed once settled (the workers claim no more of it).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import trio
from scipy import integrate
from scipy.special import stdtrit
from scipy.stats import binom

from server.storage.store import FINISHED, PENDING
from tournaments import progress
from tournaments.config import League, StopRule, parse_league
from tournaments.runner import fingerprint
from tournaments.schedule import batches, game_number, schedule
from tournaments.standings.league import load_results, settled
from tournaments.standings.sequential import EFFECT_PRIOR, Verdict, confidence_sequence, round_means, separation
from tournaments.standings.stats import GameResult, Standings, standings
from tournaments.store import LeagueStore, ScheduledGame
from tournaments.workers.leases import LeagueState, Leases, in_flight, new_worker_id
from tournaments.workers.submitter import submit_league

from pg import pg_server, pg_url  # noqa: F401 (fixtures)

SD = 8.5  # points per game on full mizerka (issue 13)
FAULTS = [{"timeouts": 0, "refusals": 0, "defaults": 0, "forfeits": 0, "disconnects": 0}] * 3
LEAGUES = 500
Noise = Callable[[np.random.Generator, tuple[int, int]], np.ndarray]


def league_text(bots: tuple[str, ...] = ("a", "b", "c"), extra: str = 'stop = "settled"\nmax_games = 300') -> str:
    lines = ['name = "seq"', 'preset = "mizerka"', extra]
    for bot in bots:
        lines += ["[[bots]]", f'name = "{bot}"', 'command = "x"']
    return "\n".join(lines) + "\n"


def gaussian(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    """Zero-sum totals (rows: games, columns: seats) with a standard deviation of SD per seat."""
    x = rng.normal(0.0, SD * math.sqrt(shape[1] / (shape[1] - 1)), shape)
    return x - x.mean(axis=1, keepdims=True)


def skewed(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    """Zero-sum totals from exponential draws: long right tails, far from normal."""
    x = rng.exponential(SD, shape)
    return x - x.mean(axis=1, keepdims=True)


def play(league: League, strength: dict[str, float], noise: Noise, rng: np.random.Generator) -> list[GameResult]:
    """Every scheduled game's whole-number, zero-sum totals: the seats' strengths (centred at the
    table) plus noise."""
    slots = schedule(league, "secret")
    base = np.array([[strength[b] for b in slot.seats] for slot in slots])
    totals = np.rint(base - base.mean(axis=1, keepdims=True) + noise(rng, base.shape)).astype(int)
    totals[:, -1] = -totals[:, :-1].sum(axis=1)
    return [GameResult(slot.key, slot.unit, slot.seats, tuple(t.tolist())) for slot, t in zip(slots, totals)]


def mixture_martingale(d: np.ndarray, mu: float) -> float:
    """M_n(mu) of the module docstring, written from the sums."""
    n, s, v = len(d), float(np.sum(d - mu)), float(np.sum((d - mu) ** 2))
    g = EFFECT_PRIOR
    return (1 + n * g) ** -0.5 * (1 - n * g / (1 + n * g) * s * s / (n * v)) ** (-n / 2)


# ---------------------------------------------------------------------------- the interval
def test_the_closed_form_is_the_t_tests_bayes_factor() -> None:
    """M_n is the Bayes factor of mean = mu + theta sd, theta ~ N(0, g), against mean = mu, with
    the right Haar measure d(sd)/sd on the unknown spread: integrated numerically here."""
    d = np.random.default_rng(1).normal(0.3, 2.0, 12)
    for mu in (0.0, 1.0, -1.5):
        y = d - mu

        def alternative(theta: float, log_sd: float, y: np.ndarray = y) -> float:
            sd = math.exp(log_sd)
            prior = math.exp(-theta * theta / (2 * EFFECT_PRIOR)) / math.sqrt(2 * math.pi * EFFECT_PRIOR)
            return math.exp(-float(np.sum((y - theta * sd) ** 2)) / (2 * sd * sd) - len(y) * log_sd) * prior

        def null(log_sd: float, y: np.ndarray = y) -> float:
            sd = math.exp(log_sd)
            return math.exp(-float(np.sum(y**2)) / (2 * sd * sd) - len(y) * log_sd)

        factor = integrate.dblquad(alternative, -8, 8, -8, 8)[0] / integrate.quad(null, -8, 8)[0]
        assert mixture_martingale(d, mu) == pytest.approx(factor, rel=1e-5)


def test_the_interval_is_where_the_martingale_reaches_one_over_alpha_after_any_round() -> None:
    alpha = 0.05
    d = np.random.default_rng(2).normal(1.0, 3.0, 40)
    lo, hi = confidence_sequence(d, alpha)
    assert lo < float(d.mean()) < hi

    def worst(mu: float) -> float:  # the largest M_k(mu) over the prefixes that have an interval
        return max(mixture_martingale(d[:k], mu) for k in range(2, len(d) + 1))

    assert worst(lo) == pytest.approx(1 / alpha, rel=1e-6) or worst(hi) == pytest.approx(1 / alpha, rel=1e-6)
    assert worst(lo + 1e-6) < 1 / alpha and worst(hi - 1e-6) < 1 / alpha
    assert worst(lo - 1e-3) > 1 / alpha and worst(hi + 1e-3) > 1 / alpha


def test_a_few_rounds_give_no_interval_and_a_steady_lead_settles() -> None:
    assert confidence_sequence([3.0], 0.05) == (-math.inf, math.inf)
    assert confidence_sequence([3.0, 1.0, 2.0], 0.05) == (-math.inf, math.inf)  # the spread of 3 values: no trust yet
    steady = [2.0 + 0.1 * (i % 3) for i in range(30)]
    lo, hi = confidence_sequence(steady, 0.05)
    assert 2.0 < lo < 2.1 < hi < 2.2  # the mean; the values run from 2.0 to 2.2
    assert confidence_sequence([-x for x in steady], 0.05) == pytest.approx((-hi, -lo))


def test_the_rounds_are_the_complete_ones_and_the_pairs_follow_the_standings() -> None:
    league = parse_league(league_text(), Path("seq.toml"))
    games = play(league, {"a": 0.0, "b": 0.0, "c": 0.0}, gaussian, np.random.default_rng(3))
    assert league.round_games == 3 and len(games) == 300
    means = round_means(["a", "b", "c"], games[:7], 3)  # rounds 0 and 1, and one game of round 2
    assert means.shape == (2, 3)
    assert means[1, 0] == pytest.approx(np.mean([g.totals[g.seats.index("a")] for g in games[3:6]]))
    assert round_means(["a", "b", "c"], games[3:9], 3).shape == (0, 3)  # round 0 missing: nothing counts yet
    evidence = separation(["c", "a", "b"], games[:7], 3, 0.9, 300)
    assert [(p.upper, p.lower) for p in evidence.pairs] == [("c", "a"), ("a", "b")]
    assert (evidence.rounds, evidence.games, evidence.scheduled) == (2, 6, 300)
    assert all(p.verdict is Verdict.OPEN and p.lo is None for p in evidence.pairs) and not evidence.settled
    assert evidence.to_json()["pairs"][0]["verdict"] == "open" and evidence.to_json()["settled"] is False


# ------------------------------------------------------------------------- simulated leagues
def test_bots_of_different_strength_stop_early_in_the_true_order() -> None:
    """Three bots 6 points per game apart (0.7 sd of a round's difference): every league settles,
    with the order of the standings (ratings) the true one, within a quarter of its 900-game schedule."""
    league = parse_league(league_text(extra='stop = "settled"\nmax_games = 900'), Path("seq.toml"))
    strength = {"a": 6.0, "b": 0.0, "c": -6.0}
    rng = np.random.default_rng(13)
    stops = []
    for _ in range(20):
        games = play(league, strength, gaussian, rng)
        for played in range(league.round_games, len(games) + 1, league.round_games):
            result = standings(["a", "b", "c"], games[:played])
            order = [b.name for b in result.bots]
            evidence = separation(order, games[:played], league.round_games, league.confidence, len(games))
            if evidence.settled:
                break
        assert evidence.settled and order == ["a", "b", "c"], (played, evidence)
        stops.append(played)
    assert max(stops) <= len(games) // 4
    assert 75 <= np.median(stops) <= 150  # one pair 6 apart takes 25 rounds in half the leagues (docs/standings.md); here two


@pytest.mark.parametrize("noise", [gaussian, skewed], ids=["normal", "skewed"])
def test_identical_bots_are_told_apart_in_no_more_than_alpha_of_the_leagues(noise: Noise) -> None:
    """A difference is declared if any pair, in whichever order the standings put the bots, ever
    has an interval without 0 (the intervals are intersected over the rounds, so the last round
    covers every earlier look; the three rotations of a, b, c make every pair adjacent once). With a true rate of alpha, more than the bound happens with chance 0.1%;
    the method's rate is far below alpha (the Bonferroni split, Ville's bound)."""
    league = parse_league(league_text(), Path("seq.toml"))
    alpha = 1 - league.confidence
    bound = binom.isf(0.001, LEAGUES, alpha)  # 41 of 500 at alpha = 0.05
    rng = np.random.default_rng(7)
    declared = peeking = 0
    for _ in range(LEAGUES):
        games = play(league, {"a": 0.0, "b": 0.0, "c": 0.0}, noise, rng)
        declared += any(p.verdict is not Verdict.OPEN for order in ("abc", "bca", "cab")
                        for p in separation(order, games, 3, league.confidence, len(games)).pairs)
        means = round_means(["a", "b", "c"], games, 3)
        peeking += any(_t_interval_ever_excludes_zero(means[:, i] - means[:, j], alpha / 3)
                       for i, j in itertools.combinations(range(3), 2))
    assert declared <= bound, f"{declared} of {LEAGUES} leagues of identical bots declared a difference"
    assert peeking > bound  # the same test catches fixed-sample intervals looked at after every round


def _t_interval_ever_excludes_zero(d: np.ndarray, alpha: float) -> bool:
    """The naive rule: a (1 - alpha) Student t interval after every round, stop when it excludes 0."""
    n = np.arange(2, len(d) + 1)
    mean = np.cumsum(d)[1:] / n
    sd = np.sqrt(np.maximum(np.cumsum(d * d)[1:] - n * mean * mean, 0) / (n - 1))
    return bool(np.any(np.abs(mean) > stdtrit(n - 1, 1 - alpha / 2) * sd / np.sqrt(n)))


# ---------------------------------------------------------------------- the league's side
def test_a_settled_schedule_is_stored_round_by_round_and_played_a_round_at_a_time() -> None:
    league = parse_league(league_text(("a", "b", "c", "d"), 'stop = "settled"\nmax_games = 40'), Path("seq.toml"))
    assert league.stop is StopRule.SETTLED and league.round_games == 12 and league.games_per_table == 3
    slots = schedule(league, "s")
    assert len(slots) == 36 and [s.game for s in slots] == sorted(s.game for s in slots)
    assert {s.key for s in slots} == {s.key for s in schedule(parse_league(league_text(("a", "b", "c", "d"), "games_per_table = 3"),
                                                                           Path("x.toml")), "s")}
    rows = [ScheduledGame(s.key, i, s.unit, s.seats, s.seed) for i, s in enumerate(reversed(slots))]
    assert [[game_number(r.unit) for r in batch] for batch in batches(league, rows)] == [[0] * 12, [1] * 12, [2] * 12]
    whole = parse_league(league_text(extra="games_per_table = 2"), Path("x.toml"))
    assert whole.stop is StopRule.SCHEDULE and batches(whole, rows) == [rows] and batches(whole, []) == []


def test_the_stored_league_says_when_it_is_settled(tmp_path: Path) -> None:
    """Results written to a league's database round by round: ``settled`` answers None until every
    adjacent pair is separated, and the standings' JSON carries the evidence."""
    league = parse_league(league_text(), tmp_path / "seq.toml")
    store = LeagueStore(tmp_path / "league.sqlite")
    try:
        store.open_league(league.name, fingerprint(league), "secret")
        slots = schedule(league, "secret")
        store.add_schedule(league.name, slots)
        games = play(league, {"a": 20.0, "b": 0.0, "c": -20.0}, gaussian, np.random.default_rng(5))
        evidence = None
        for played, g in enumerate(games, 1):
            store.finish_league_game(league.name, g.key, "m", list(g.totals), FAULTS)
            if played % 3 == 0 and (evidence := settled(store, league)) is not None:
                break
        assert evidence is not None and evidence.games == played < 60 and evidence.scheduled == 300
        result = load_results(store, league).to_json()
        assert [b["name"] for b in result["bots"]] == ["a", "b", "c"] and result["separation"]["settled"]
        assert [p["verdict"] for p in result["separation"]["pairs"]] == ["settled", "settled"]
        assert all(p["lo"] > 0 for p in result["separation"]["pairs"])
        whole = parse_league(league_text(extra="games_per_table = 100"), tmp_path / "seq.toml")
        assert settled(store, whole) is None  # a league without stop = "settled" plays its schedule
    finally:
        store.close()


def test_a_submitted_league_is_closed_once_settled_and_the_workers_claim_no_more(pg_url: str, tmp_path: Path) -> None:  # noqa: F811
    """`league run` on PostgreSQL with stop = "settled", against a stand-in worker that claims a round,
    writes simulated results and waits until the submitter has seen them: the submitter closes the
    league at the first settled round, the worker's next claim gets nothing, the rest stays PENDING."""
    path = tmp_path / "seq.toml"
    path.write_text(league_text(extra=f'stop = "settled"\nmax_games = 300\ndb = "{pg_url}"'))
    league = parse_league(path.read_text(), path)
    results = {g.key: list(g.totals) for g in play(league, {"a": 20.0, "b": 0.0, "c": -20.0}, gaussian,
                                                            np.random.default_rng(11))}
    events: list[progress.Event] = []
    store = LeagueStore(pg_url)

    async def worker() -> int:
        while not any(isinstance(e, progress.Submitted) for e in events):
            await trio.sleep(0.01)
        leases = Leases(store, new_worker_id(), 30)
        await trio.to_thread.run_sync(leases.join, 1)
        done = 0
        while claims := await trio.to_thread.run_sync(leases.claim, league.name, league.round_games):
            for c in claims:
                assert await trio.to_thread.run_sync(leases.finish, c.lease, "m", results[c.lease.key], FAULTS)
            done += len(claims)
            while sum(isinstance(e, progress.Game) for e in events) < done:  # the submitter has looked at these
                await trio.sleep(0.01)
        return done

    async def main() -> tuple[int, Standings]:
        async with trio.open_nursery() as nursery:
            out: dict[str, Standings] = {}

            async def submitter() -> None:
                out["result"] = await submit_league(league, events.append, poll_s=0.01)

            nursery.start_soon(submitter)
            played = await worker()
        return played, out["result"]

    try:
        played, result = trio.run(main)
        evidence = result.separation
        assert evidence is not None and evidence.settled and evidence.games == played < 60 and evidence.scheduled == 300
        assert [e for e in events if isinstance(e, progress.Settled)] == [progress.Settled(played, played // 3, 300, 0.95)]
        statuses = [r.status for r in store.league_games(league.name)]
        assert statuses.count(FINISHED) == played and statuses.count(PENDING) == 300 - played
        assert store.league_state(league.name) == LeagueState.DONE and in_flight(store, league.name) == 0
        assert Leases(store, new_worker_id(), 30).claim(league.name, 10) == []
        events.clear()
        again = trio.run(submit_league, league, events.append, False, 0.01)  # resume: nothing to do
        assert again.separation is not None and again.separation.settled and again.games == played
        assert [e.name for e in events if isinstance(e, progress.Submitted | progress.Settled | progress.Published)] == ["settled", "published"]
        assert store.league_state(league.name) == LeagueState.DONE
    finally:
        store.close()
