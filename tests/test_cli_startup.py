"""The command line starts at once: ``mizerka --help`` and the everyday commands import only what
they use, a ``mizerka-bot NAME`` process only bot NAME. Checked on the installed entry points, run
as real processes under ``python -X importtime`` (what they import, not how long it takes: the time
is ``make bench-cli``'s, BENCHMARKS.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tournaments.store import LeagueStore

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
CASE = ROOT / "tests" / "conformance" / "cases"
# What a start-up of `mizerka` must never pay for unless its command needs it.
HEAVY = ("scipy", "numpy", "sqlalchemy", "alembic", "aiohttp", "grpc", "trio", "structlog", "prometheus_client",
         "mizerka.bots.expert", "mizerka.runtime")
BOT_MODULES = ("mizerka.bots.random_bot", "mizerka.bots.heuristic", "mizerka.bots.greedy", "mizerka.bots.cautious",
               "mizerka.bots.expert")


def imported(script: str, *args: str, cwd: Path = ROOT) -> set[str]:
    """The modules the entry point ``script`` imports to run with ``args`` (its exit status ignored:
    a usage error is a start-up too)."""
    done = subprocess.run([sys.executable, "-X", "importtime", str(BIN / script), *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)
    modules = {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "typer" in modules or script == "mizerka-bot", done.stderr[-2000:]
    return modules - {"module"}  # the table's heading


def loaded(modules: set[str], packages: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == p or m.startswith(p + ".") for p in packages))


def test_help_imports_no_command() -> None:
    modules = imported("mizerka", "--help")
    assert not loaded(modules, (*HEAVY, "mizerka_engine", "mizerka_proto", "google", "tournaments.commands.league",
                                "tournaments.commands.replay", "server.serve_cli", "server.rules_cli")), modules


@pytest.mark.parametrize("command", ["rules", "replay", "match", "league", "serve"])
def test_a_commands_help_loads_that_command_alone(command: str) -> None:
    modules = imported("mizerka", command, "--help")
    others = {"rules": "server.rules_cli", "serve": "server.serve_cli", "league": "tournaments.commands.league",
              "replay": "tournaments.commands.replay", "match": "tournaments.commands.match"}
    assert not loaded(modules, tuple(m for c, m in others.items() if m != others[command])), modules


def test_rules_run_imports_the_engine_not_the_referee(tmp_path: Path) -> None:
    case = sorted(CASE.rglob("*.json"))[0]
    modules = imported("mizerka", "rules", "run", str(case))
    assert "mizerka_engine" in modules
    assert not loaded(modules, (*HEAVY, "rich", "server.scoresheet")), modules  # the score sheet is demo's


def test_replay_of_a_log_file_imports_no_store_nor_network(tmp_path: Path) -> None:
    """A log file is verified by the engine alone, its lines read through the wire's message stubs
    (a line is the JSON form of a wire event, server/codec/matchlog.py): no SQLAlchemy (a match id's
    store), no gRPC nor structlog (the referee's), no statistics; nor what only --seat needs (the
    bot SDK) or --text (rich's score sheet)."""
    log = tmp_path / "match.jsonl"
    log.write_text(json.dumps({"type": "nothing"}) + "\n")  # a usage error, after the command has loaded
    replay = imported("mizerka", "replay", str(log))
    assert "tournaments.commands.replay" in replay and "mizerka_engine" in replay
    assert "mizerka_proto.events_pb2" in replay
    assert not loaded(replay, (*HEAVY, "mizerka", "rich", "tournaments.commands.seat_replay",
                               "tournaments.commands.stored_matches", "tournaments.config")), replay


def test_match_list_imports_the_store_without_alembic_nor_statistics(tmp_path: Path) -> None:
    """SQLAlchemy reads the database; Alembic loads only to upgrade an older one, so a database at
    the newest revision (the one `match list` makes here first) opens without it. Nor the engine:
    the league files and the match log's format (tournaments.commands.stored_matches) are export's."""
    db = str(tmp_path / "arena.sqlite")
    first = subprocess.run([str(BIN / "mizerka"), "match", "list", "--db", db], capture_output=True, text=True, timeout=60)
    assert first.returncode == 2 and "no database at" in first.stderr, first.stderr  # nothing made for a typo
    LeagueStore(db).close()
    listing = imported("mizerka", "match", "list", "--db", db)
    assert "tournaments.commands.match" in listing and "sqlalchemy" in listing and "tournaments.commands.replay" not in listing
    assert not loaded(listing, (*(m for m in HEAVY if m != "sqlalchemy"), "mizerka_engine", "tournaments.commands.stored_matches")), listing


@pytest.mark.parametrize("bot", ["random", "heuristic", "expert"])
def test_a_bot_process_imports_only_its_bot(bot: str) -> None:
    modules = imported("mizerka-bot", bot, "--server", "no-such-host-!:1", "--games", "1")
    assert loaded(modules, BOT_MODULES) == [f"mizerka.bots.{'random_bot' if bot == 'random' else bot}"], modules
    assert not loaded(modules, ("scipy", "numpy", "sqlalchemy", "alembic", "aiohttp", "server", "tournaments", "typer"))


def test_bot_help_names_stdio() -> None:
    done = subprocess.run([str(BIN / "mizerka-bot"), "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    usage = done.stdout.split("\n\n")[0]
    assert "mizerka-bot stdio [options] -- CMD ARGS..." in usage, done.stdout
