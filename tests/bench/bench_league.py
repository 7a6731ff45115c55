"""Benchmark: wall time of the demo league (tournaments/demo.toml), and the referee's CPU share.

The referee is started here (not by the runner) so that its CPU time can be read from /proc; the
league then runs with ``--server``, exactly as it would against a shared referee. Bar 60 s, goal
15 s on the 2-core reference machine (see BENCHMARKS.md).
"""

from __future__ import annotations

import argparse
import os
import resource
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sysinfo import cpu_seconds, machine

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--league", type=Path, default=ROOT / "tournaments" / "demo.toml")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-league-"))
    token = secrets.token_urlsafe(16)
    ready = work / "ready"
    referee = subprocess.Popen(
        [str(BIN / "mizerka"), "serve", "--port", "0", "--db", str(work / "referee.sqlite"), "--admin-token", token,
         "--ready-file", str(ready), "--log-format", "json"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        while not (ready.exists() and ready.read_text().strip()):
            time.sleep(0.02)
        address = ready.read_text().strip()
        league = work / "league.toml"
        text = args.league.read_text().replace('data = "data/demo"', f'data = "{work / "data"}"')
        league.write_text(text)
        cpu0 = cpu_seconds(referee.pid)
        start = time.monotonic()
        subprocess.run(
            [str(BIN / "mizerka"), "league", "run", str(league), "--server", address, "--admin-token", token],
            check=True, stdout=subprocess.DEVNULL, env=dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}"),
        )
        wall = time.monotonic() - start
        referee_cpu = cpu_seconds(referee.pid) - cpu0
    finally:
        referee.terminate()
        referee.wait()
    others = resource.getrusage(resource.RUSAGE_CHILDREN)
    runner_and_bots = others.ru_utime + others.ru_stime - referee_cpu
    print(f"machine: {machine()}")
    print(f"date: {time.strftime('%Y-%m-%d %H:%M %Z')}")
    print(f"league: {args.league.name}")
    print(f"wall time: {wall:.1f} s   (bar 60 s, goal 15 s)")
    print(f"referee CPU: {referee_cpu:.1f} s = {referee_cpu / wall:.0%} of one core over the run, "
          f"{referee_cpu / (referee_cpu + runner_and_bots):.0%} of all CPU used")
    print(f"runner + bots CPU: {runner_and_bots:.1f} s")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
