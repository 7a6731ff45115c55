"""A league of bots in four languages -- Python (SDK), JavaScript (clients/node), C++ (clients/cpp)
and Perl over the stdio bridge -- run by `mizerka league run` with its own referee: it completes
with no fault of any kind and every bot plays every seat. Where bubblewrap is installed the bots
run in the sandbox and reach the referee through its Unix socket (tournaments/sandbox/bwrap.py)."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path

import foreign_bots
from needs import missing

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
NODE_BOT = ROOT / "clients" / "node" / "bot.js"
CPP_BOT = foreign_bots.CPP_BOT
PERL_BOT = ROOT / "clients" / "stdio" / "bot.pl"


def _require() -> None:
    """Skip, saying why, when a language's toolchain is missing (`make clients` builds the bots)."""
    foreign_bots.installed_node()
    foreign_bots.built_cpp_bot()
    if shutil.which("perl") is None:
        missing("perl is not installed")


def test_a_league_of_python_node_cpp_and_stdio_bots_completes_cleanly(tmp_path: Path) -> None:
    _require()
    bots = {
        "python": ["mizerka-bot", "heuristic"],
        "node": ["node", str(NODE_BOT)],
        "cpp": [str(CPP_BOT)],
        "perl": ["mizerka-bot", "stdio", "--", "perl", str(PERL_BOT)],
    }
    lines = ['name = "polyglot"', 'preset = "mizerka-short"', 'seed = "poly"', 'seatings = "rotate"', "concurrency = 2",
             f'data = "{tmp_path / "data"}"', "[clock]", "decision_ms = 5000", "bank_ms = 30000"]
    for name, command in bots.items():
        lines += ["[[bots]]", f'name = "{name}"', f"command = {json.dumps(command)}"]
        if name == "node":  # in the sandbox: it loads the .proto files from the repository
            lines.append(f"sandbox = {{ read = [{json.dumps(str(ROOT / 'proto'))}] }}")
    league = tmp_path / "polyglot.toml"
    league.write_text("\n".join(lines) + "\n")
    run = subprocess.run([str(BIN / "mizerka"), "league", "run", str(league)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "crash" not in run.stdout and "disabled" not in run.stdout, run.stdout

    standings = json.loads(subprocess.run([str(BIN / "mizerka"), "league", "standings", str(league), "--json"],
                                          capture_output=True, text=True, check=True).stdout)
    assert standings["games"] == 12  # C(4,3) tables x 3 rotations
    for line in standings["bots"]:
        assert line["games"] == 9 and line["crashes"] == 0 and not line["disabled"], line
        assert all(count == 0 for count in line["faults"].values()), line

    rows = sqlite3.connect(tmp_path / "data" / "league.sqlite").execute("select seats from league_games").fetchall()
    seats = Counter((bot, seat) for (names,) in rows for seat, bot in enumerate(json.loads(names)))
    assert seats == {(bot, seat): 3 for bot in bots for seat in range(3)}  # every bot in every seat, equally
