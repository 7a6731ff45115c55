"""Benchmark: games/s of one league played by 1, 2 and 3 workers (`mizerka worker`) on a
throwaway PostgreSQL server, with bots that think a fixed time per decision, so what the workers
add is visible: each worker plays ``--slots`` games at once with its own referee and bot processes.

For each number of workers: a fresh database, `mizerka league run` submits the league and follows it,
the workers start at once; the time is from the submitter's start to its exit (every game stored,
published, standings printed). Options: --workers 1,2,3 --slots 2 --think-ms 50 --games-per-table 2.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import sqlalchemy as sa
from sysinfo import machine

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from server.storage.database import database_url  # noqa: E402

from pg import new_database, postgres_server  # noqa: E402 (tests/ is not a package)

BIN = Path(sys.executable).parent
MIZERKA = str(BIN / "mizerka")


def league_file(folder: Path, db: str, games: int, think_ms: int) -> Path:
    bot = Path(__file__).with_name("thinking_bot.py")
    lines = ['name = "bench"', 'preset = "mizerka-short"', 'seed = "bench"', f'data = "{folder / "data"}"', f'db = "{db}"',
             f"games_per_table = {games}", "[clock]", "decision_ms = 10000", "bank_ms = 60000"]
    for name in ("a", "b", "c", "d"):
        lines += ["[[bots]]", f'name = "{name}"', f'command = ["{sys.executable}", "{bot}"]', "[bots.env]",
                  f'THINK_MS = "{think_ms}"']
    path = folder / "bench.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def one_run(server: str, workers: int, slots: int, games: int, think_ms: int) -> tuple[int, float, Counter[str]]:
    folder = Path(tempfile.mkdtemp(prefix="bench-workers-"))
    db = new_database(server)
    path = league_file(folder, db, games, think_ms)
    start = time.monotonic()
    submitter = subprocess.Popen([MIZERKA, "league", "run", str(path)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 text=True)
    procs = [subprocess.Popen([MIZERKA, "worker", "--db", db, "--slots", str(slots), "--data", str(folder / f"w{i}"),
                               "--log-format", "json", "--lease-s", "30"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL) for i in range(workers)]
    try:
        out, _ = submitter.communicate(timeout=3600)
        elapsed = time.monotonic() - start
        if submitter.returncode != 0:
            raise SystemExit(f"the league failed:\n{out}")
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait()
    engine = sa.create_engine(database_url(db))
    with engine.connect() as conn:
        rows = conn.execute(sa.text("select w.pid from league_games g join workers w on w.id = g.lease_owner "
                                    "where g.status = 'FINISHED'")).all()
    engine.dispose()
    return len(rows), elapsed, Counter(str(r.pid) for r in rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--workers", default="1,2,3")
    parser.add_argument("--slots", type=int, default=2)
    parser.add_argument("--think-ms", type=int, default=50)
    parser.add_argument("--games-per-table", type=int, default=2)
    args = parser.parse_args()
    print(f"machine: {machine()}")
    print(f"date:    {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load average {os.getloadavg()[0]:.2f}")
    print(f"league:  4 bots, mizerka-short, {args.games_per_table} games per table and seating "
          f"({12 * args.games_per_table} games), bots think {args.think_ms} ms per decision; --slots {args.slots}")
    base = None
    with postgres_server() as server:
        for n in (int(x) for x in args.workers.split(",")):
            games, elapsed, share = one_run(server, n, args.slots, args.games_per_table, args.think_ms)
            rate = games / elapsed
            base = base or rate
            print(f"  {n} worker{'s' if n > 1 else ' '}: {games} games in {elapsed:6.1f} s = {rate:.3f} games/s "
                  f"({rate / base:.2f}x one worker); games per worker {sorted(share.values(), reverse=True)}; "
                  f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
