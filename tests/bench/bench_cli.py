"""How long the command line takes to start: ``mizerka --help``, ``rules run CASE``, ``replay LOG``,
``match list`` and ``mizerka-bot --help``, each against a bare ``python -c "import typer"`` timed in
the same run, the commands interleaved round by round so load on the machine falls on all alike.

A benchmark, not a timed test (tests/test_cli_startup.py checks what the commands import). Goals:
``mizerka --help`` within 2x of the bare typer import, no listed command over 3x (the medians).
Two more references show what is not ours: a typer command with one option (what parsing and
running a command costs before any code of ours) and ``import sqlalchemy`` (what ``match list``
reads the store with).

Every command runs with its bytecode cached, as an installed program's is (pip compiles
site-packages; a source checkout's __pycache__ is written on the first run): the commands write it
under the run's temporary folder (PYTHONPYCACHEPREFIX) in their first, untimed run, even where
PYTHONDONTWRITEBYTECODE is set, so our modules are not compiled from source at every start while
typer's and SQLAlchemy's are read from .pyc files.

    .venv/bin/python tests/bench/bench_cli.py [--rounds 15]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: the harness
sys.path.insert(0, str(Path(__file__).resolve().parent))  # tests/bench: sysinfo

from sysinfo import machine  # noqa: E402

from mizerka_proto import arena_pb2  # noqa: E402

from harness import referee  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
CASES = ROOT / "tests" / "conformance" / "cases"


@dataclass(frozen=True)
class Command:
    name: str
    argv: list[str]
    goal: float | None  # the most it may take, in multiples of the bare typer import


def played(folder: Path) -> tuple[Path, Path]:
    """A real referee's database with one finished game of three built-in bots, and that game's
    match log (``mizerka match export``): what ``match list`` and ``replay`` read."""
    with referee(folder) as ref:
        admin = ref.arena()
        seats = []
        for name in ("heuristic", "cautious", "greedy"):
            bot_id, token = admin.register(name)
            ref.bot(token, str(BIN / "mizerka-bot"), name, games=1, log=folder / f"{name}.log")
            seats.append(bot_id)
        match_id = admin.create("mizerka-short", seats, seed="bench-cli")
        if admin.wait(match_id).status != arena_pb2.MATCH_STATUS_FINISHED:
            raise SystemExit("the benchmark's match did not finish")
        exported = subprocess.run([str(BIN / "mizerka"), "match", "export", match_id, "--db", str(ref.db)],
                                  check=True, capture_output=True, text=True)
        db = Path(ref.db)
    log = folder / "match.jsonl"
    log.write_text(exported.stdout)
    return db, log


def commands(folder: Path) -> list[Command]:
    case = sorted(CASES.rglob("*.json"))[0]
    db, log = played(folder)
    mizerka = str(BIN / "mizerka")
    return [
        Command("python -c 'import typer'", [sys.executable, "-c", "import typer"], None),
        Command("typer command, one option (the floor)", [sys.executable, str(Path(__file__).with_name("typer_floor.py")), "--name", "y"], None),
        Command("python -c 'import sqlalchemy'", [sys.executable, "-c", "import sqlalchemy"], None),
        Command("mizerka --help", [mizerka, "--help"], 2.0),
        Command(f"mizerka rules run {case.name}", [mizerka, "rules", "run", str(case)], 3.0),
        Command("mizerka replay LOG", [mizerka, "replay", str(log)], 3.0),
        Command("mizerka match list", [mizerka, "match", "list", "--db", str(db)], 3.0),
        Command("mizerka-bot --help", [str(BIN / "mizerka-bot"), "--help"], 3.0),
    ]


def time_once(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr}")
    return took


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=15, help="runs of each command (default 15)")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        listed = commands(Path(tmp))
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        times: dict[str, list[float]] = {c.name: [] for c in listed}
        for c in listed:  # once each first: the file cache warm and the bytecode written for all
            time_once(c.argv, env)
        for _ in range(args.rounds):
            for c in listed:
                times[c.name].append(time_once(c.argv, env))
    base = statistics.median(times[listed[0].name])
    print(f"machine: {machine()}")
    print(f"{args.rounds} rounds, interleaved; medians (min) in ms, and the median's ratio to the bare typer import")
    print(f"{'command':<44} {'median':>8} {'min':>8} {'ratio':>6}  goal")
    failed = []
    for c in listed:
        median = statistics.median(times[c.name])
        ratio = median / base
        verdict = "" if c.goal is None else f"<= {c.goal:g}x " + ("ok" if ratio <= c.goal else "MISSED")
        if c.goal is not None and ratio > c.goal:
            failed.append(c.name)
        print(f"{c.name:<44} {median * 1000:>8.0f} {min(times[c.name]) * 1000:>8.0f} {ratio:>5.2f}x  {verdict}")
    print(json.dumps({c.name: round(statistics.median(times[c.name]) / base, 2) for c in listed}))
    if failed:
        raise SystemExit(f"goal missed: {', '.join(failed)}")


if __name__ == "__main__":
    main()
