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
import json
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
from tournaments.standings.stats import mean_ci95

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
    clock_stops: int = 0  # decisions whose search the clock ended (not the playout count)


class TimedExpert(ExpertBot):
    """The expert, recording how long each decision takes (in the worker's own list)."""

    times: list[float] = []
    clock_stops = 0

    def decide(self, turn: Turn) -> Any:
        start = time.perf_counter()
        try:
            return super().decide(turn)
        finally:
            self.times.append(time.perf_counter() - start)
            if self.last is not None and self.last.stop == "clock":
                TimedExpert.clock_stops += 1


def run_set(task: Task) -> Done:
    """One duplicate set (every seating of one seed) in a worker process."""
    TimedExpert.times = []
    TimedExpert.clock_stops = 0
    seeds = iter(range(10**6))

    def expert() -> Bot:
        return TimedExpert(seed=next(seeds), simulations=task.simulations, budget_ms=task.budget_ms)

    opponent: Callable[[], Bot] = BOTS[task.opponent]
    options = {"deals": task.deals} if task.deals else {}
    stats = compare(expert, opponent, task.preset, games=1, seed=f"bench-expert:{task.index}", options=options)
    assert stats.fallbacks[0] == 0 and stats.refusals[0] == 0, f"the expert fell back or was refused: {stats}"
    return Done(task, stats.diff, list(TimedExpert.times), TimedExpert.clock_stops)


def p99(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def set_line(d: Done) -> str:
    """One finished set, printed as it finishes (a run stopped early keeps every finished set)."""
    t = d.task
    return (f"  set {t.index} vs {t.opponent} on {t.preset}: {d.diff:+.2f}; {len(d.times)} decisions, mean "
            f"{1000 * statistics.fmean(d.times):.1f} ms, p99 {1000 * p99(d.times):.1f} ms, max "
            f"{1000 * max(d.times):.1f} ms, clock ended {d.clock_stops}")


def save(d: Done, path: str) -> None:
    """Append one finished set to a JSON-lines file (``--out``; read back with ``--summarize``)."""
    with open(path, "a") as f:
        f.write(json.dumps({"task": d.task._asdict(), "diff": d.diff, "times": d.times,
                            "clock_stops": d.clock_stops}) + "\n")


def load(paths: list[str]) -> list[Done]:
    done = []
    for path in paths:
        with open(path) as f:
            for line in f:
                if line.strip():
                    row = json.loads(line)
                    done.append(Done(Task(**row["task"]), row["diff"], row["times"], row.get("clock_stops", 0)))
    return done


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
    p.add_argument("--out", help="append each finished set (with its decision times) to this JSON-lines file")
    p.add_argument("--summarize", nargs="+", metavar="FILE",
                   help="play nothing: print the tables for the sets saved in these --out files")
    args = p.parse_args()
    if args.summarize:
        done = load(args.summarize)
        lines = sorted({(d.task.opponent, d.task.preset) for d in done},
                       key=lambda line: (line != ("heuristic", "mizerka"), line[1], line[0]))
        for d in sorted(done, key=lambda d: (d.task.opponent, d.task.preset, d.task.index)):
            print(set_line(d))
        report(done, lines)
        return

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
    try:
        with multiprocessing.get_context("fork").Pool(args.processes) as pool:
            for result in pool.imap_unordered(run_set, todo):
                done.append(result)
                print(set_line(result), flush=True)
                if args.out:
                    save(result, args.out)
    except KeyboardInterrupt:  # stopped early (Ctrl-C, kill -INT): report the sets that finished
        print(f"# interrupted after {len(done)} of {len(todo)} sets")
    print(f"# {len(done)} sets in {time.time() - started:.0f} s")
    report(done, [(opponent, preset) for opponent, preset, _ in lines])


def report(done: list[Done], lines: list[tuple[str, str]]) -> None:
    """The table per line, the verdict on the target and the time per decision."""
    print("| opponent | preset | games | expert - opponent, points/game | 95% interval |")
    print("|---|---|---:|---:|---:|")
    for opponent, preset in lines:
        diffs = [d.diff for d in done if d.task.opponent == opponent and d.task.preset == preset]
        if not diffs:
            continue
        players = PRESETS[preset].players
        games = len(diffs) * (2**players - 2)
        ci = mean_ci95(diffs)
        interval = "n/a (one set)" if ci.lo is None else f"{ci.lo:+.2f} .. {ci.hi:+.2f}"
        print(f"| {opponent} | {preset} | {games} | {ci.mean:+.2f} | {interval} |")
    main_diffs = [d.diff for d in done if (d.task.opponent, d.task.preset) == ("heuristic", "mizerka")]
    if main_diffs:
        ci = mean_ci95(main_diffs)
        lo = ci.lo if ci.lo is not None else float("-inf")
        met = ci.mean >= TARGET and lo > FLOOR
        verdict = "met" if met else (f"missed: mean short by {max(0.0, TARGET - ci.mean):.2f}, "
                                     f"lower bound short by {max(0.0, FLOOR - lo):.2f}")
        print(f"target vs heuristic on mizerka (>= {TARGET:+.0f}, interval above {FLOOR:+.0f}): {ci.mean:+.2f} "
              f"({lo:+.2f} .. {ci.hi if ci.hi is not None else float('inf'):+.2f}): {verdict}")
    times = [t for d in done for t in d.times]
    if not times:
        return
    print(f"time per decision over {len(times)} expert decisions: mean {1000 * statistics.fmean(times):.1f} ms, "
          f"p99 {1000 * p99(times):.1f} ms, max {1000 * max(times):.1f} ms; the clock ended "
          f"{sum(d.clock_stops for d in done)} searches")


if __name__ == "__main__":
    main()
