"""Strength and speed of ``mizerka-bot expert`` (``make bench-expert``; figures in BENCHMARKS.md).

Duplicate sets (:func:`tournaments.selfplay.compare`: one seed in every seating of the two bots,
through the referee's own offline turn loop) of the expert against the heuristic bot on
``mizerka``, then against every other built-in bot and on every other preset with fewer sets. Each
line gives the expert's points per game minus its opponent's with a 95% interval over the sets; the
first line is checked against the target (at least +3, the interval above +1) and the shortfall is
printed if it misses. Also the expert's mean and p99 time per decision (all lines together).

Full games are slow (an expert decision takes up to its 200 ms budget, a game ~250 decisions per
seat), so the sets run in ``--processes`` worker processes, ``--deals`` can shorten the games on
``mizerka`` and the other presets play ``--other-deals`` deals per player (2 by default).
"""

from __future__ import annotations

import argparse
import datetime
import multiprocessing
import statistics
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from sysinfo import machine

from mizerka.bot import Bot
from mizerka.bots import BOTS, ExpertBot
from mizerka.turn import Turn
from mizerka_engine import PRESETS
from tournaments.selfplay import compare
from tournaments.stats import mean_ci95

TARGET, FLOOR = 3.0, 1.0


class Task(NamedTuple):
    opponent: str
    preset: str
    index: int
    deals: int | None  # option deals (None or 0: the full game)
    simulations: int
    budget_ms: float


class Done(NamedTuple):
    task: Task
    diff: float
    times: list[float]  # seconds per expert decision


class TimedExpert(ExpertBot):
    """The expert, recording how long each decision takes (in the worker's own list)."""

    times: list[float] = []

    def decide(self, turn: Turn) -> Any:
        start = time.perf_counter()
        try:
            return super().decide(turn)
        finally:
            self.times.append(time.perf_counter() - start)


def run_set(task: Task) -> Done:
    """One duplicate set (every seating of one seed) in a worker process."""
    TimedExpert.times = []
    seeds = iter(range(10**6))

    def expert() -> Bot:
        return TimedExpert(seed=next(seeds), simulations=task.simulations, budget_ms=task.budget_ms)

    opponent: Callable[[], Bot] = BOTS[task.opponent]
    options = {"deals": task.deals} if task.deals else {}
    stats = compare(expert, opponent, task.preset, games=1, seed=f"bench-expert:{task.index}", options=options)
    assert stats.fallbacks[0] == 0 and stats.refusals[0] == 0, f"the expert fell back or was refused: {stats}"
    return Done(task, stats.diff, list(TimedExpert.times))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sets", type=int, default=8, help="duplicate sets against heuristic on mizerka (default 8)")
    p.add_argument("--first-set", type=int, default=0, help="number of the first set (to add sets to an earlier run)")
    p.add_argument("--other-sets", type=int, default=1, help="sets per other bot and per other preset (default 1)")
    p.add_argument("--deals", type=int, default=None, help="option deals (default: the preset's full game)")
    p.add_argument("--other-deals", type=int, default=2,
                   help="other presets: deals per player (default 2, a short game; 0: the full game)")
    p.add_argument("--simulations", type=int, default=400, help="the expert's playouts per decision (default 400)")
    p.add_argument("--budget-ms", type=float, default=200.0, help="the expert's time per decision (default 200)")
    p.add_argument("--processes", type=int, default=2, help="worker processes (default 2)")
    p.add_argument("--only-main", action="store_true", help="only the expert-heuristic line on mizerka")
    args = p.parse_args()

    def tasks(opponent: str, preset: str, sets: int) -> list[Task]:
        deals = args.deals if preset == "mizerka" else args.other_deals * PRESETS[preset].players
        first = args.first_set
        return [Task(opponent, preset, i, deals, args.simulations, args.budget_ms) for i in range(first, first + sets)]

    lines = [("heuristic", "mizerka", args.sets)]
    if not args.only_main:
        lines += [(name, "mizerka", args.other_sets) for name in sorted(BOTS) if name not in ("expert", "heuristic")]
        lines += [("heuristic", preset, args.other_sets) for preset in PRESETS if preset != "mizerka"]
    todo = [t for opponent, preset, sets in lines for t in tasks(opponent, preset, sets)]
    started = time.time()
    print(f"# expert: {args.simulations} playouts, {args.budget_ms:.0f} ms per decision; "
          f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC; {machine()}", flush=True)
    done: list[Done] = []
    with multiprocessing.get_context("fork").Pool(args.processes) as pool:
        for result in pool.imap_unordered(run_set, todo):
            done.append(result)
            t = result.task
            print(f"  set {t.index} vs {t.opponent} on {t.preset}: {result.diff:+.2f}", flush=True)
    print(f"# {len(todo)} sets in {time.time() - started:.0f} s")
    print("| opponent | preset | games | expert - opponent, points/game | 95% interval |")
    print("|---|---|---:|---:|---:|")
    for opponent, preset, _ in lines:
        diffs = [d.diff for d in done if d.task.opponent == opponent and d.task.preset == preset]
        players = PRESETS[preset].players
        games = len(diffs) * (2**players - 2)
        ci = mean_ci95(diffs)
        interval = "n/a (one set)" if ci.lo is None else f"{ci.lo:+.2f} .. {ci.hi:+.2f}"
        print(f"| {opponent} | {preset} | {games} | {ci.mean:+.2f} | {interval} |")
    main_diffs = [d.diff for d in done if (d.task.opponent, d.task.preset) == ("heuristic", "mizerka")]
    ci = mean_ci95(main_diffs)
    lo = ci.lo if ci.lo is not None else float("-inf")
    met = ci.mean >= TARGET and lo > FLOOR
    verdict = "met" if met else f"missed: mean short by {max(0.0, TARGET - ci.mean):.2f}, lower bound short by {max(0.0, FLOOR - lo):.2f}"
    print(f"target vs heuristic on mizerka (>= {TARGET:+.0f}, interval above {FLOOR:+.0f}): {ci.mean:+.2f} "
          f"({lo:+.2f} .. {ci.hi if ci.hi is not None else float('inf'):+.2f}): {verdict}")
    times = sorted(t for d in done for t in d.times)
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    print(f"time per decision over {len(times)} expert decisions: mean {1000 * statistics.fmean(times):.1f} ms, "
          f"p99 {1000 * p99:.1f} ms, max {1000 * times[-1]:.1f} ms")


if __name__ == "__main__":
    main()
