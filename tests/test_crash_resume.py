"""Results that survive any crash: the league runner killed (kill -9, SIGTERM) while games are in
flight, with its own referee and with a referee that outlives it, then the same command again. A
game whose bots died with the runner must be played again, never counted: the final standings equal
an uninterrupted run's, and no bot carries a fault (default, forfeit, disconnect, crash) it did not
cause. Real processes throughout: `mizerka league run`, `mizerka serve`, built-in bots (deterministic
for a given deal, and the league's `seed` fixes every deal)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import grpc
import pytest

from mizerka_proto import arena_pb2
from tournaments.config import load_league

from harness import ADMIN, need_sandbox, referee

BIN = Path(sys.executable).parent
MIZERKA = str(BIN / "mizerka")
BOTS = ("heuristic", "greedy", "cautious", "heuristic2")
NO_FAULTS = {"timeouts": 0, "refusals": 0, "defaults": 0, "forfeits": 0, "disconnects": 0}
ENDED = ("FINISHED", "ABORTED")


def league_file(tmp: Path) -> Path:
    """12 short games, two at a time (so a game is nearly always in flight), on a clock no bot
    comes near: every fault in the standings would be one the runner caused."""
    lines = ['name = "crash"', 'preset = "mizerka-short"', 'seed = "fixed"', f'data = "{tmp / "data"}"', "concurrency = 2",
             "[clock]", "decision_ms = 10000", "bank_ms = 60000"]
    for bot in BOTS:
        lines += ["[[bots]]", f'name = "{bot}"', f'command = ["mizerka-bot", "{bot.rstrip("0123456789")}"]']
    path = tmp / "crash.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def start(path: Path, *args: str) -> subprocess.Popen[str]:
    env = dict(os.environ, MIZERKA_ADMIN_TOKEN=ADMIN)
    return subprocess.Popen([MIZERKA, "league", "run", str(path), *args], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=env)


def run(path: Path, *args: str) -> str:
    proc = start(path, *args)
    out, _ = proc.communicate(timeout=300)
    assert proc.returncode == 0, out
    return out


def standings(path: Path) -> dict[str, Any]:
    out = subprocess.run([MIZERKA, "league", "standings", str(path), "--json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def query(db: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    if not db.exists():  # not yet: connecting would create it
        return []
    con = sqlite3.connect(db, timeout=30)
    try:
        return con.execute(sql, args).fetchall()
    except sqlite3.OperationalError as e:  # polled while the runner is still creating its tables
        assert "no such table" in str(e)
        return []
    finally:
        con.close()


def counted(path: Path) -> dict[str, str]:
    """Finished games of the league: key -> the match whose result counts."""
    league = load_league(path)
    rows = query(league.db_path, "select key, match_id from league_games where league = ? and status = 'FINISHED'", league.name)
    return dict(rows)


def running(path: Path) -> set[str]:
    """Matches of the games the league has RUNNING: once the runner is gone, those in flight when it stopped."""
    league = load_league(path)
    rows = query(league.db_path, "select match_id from league_games where league = ? and status = 'RUNNING'", league.name)
    return {m for (m,) in rows}


def mid_game(proc: subprocess.Popen[str], path: Path, referee_db: Path, games: int) -> None:
    """Wait until at least ``games`` results are stored and the referee is playing a game of the league."""
    deadline = time.monotonic() + 180
    while True:
        assert proc.poll() is None and time.monotonic() < deadline, "the league ended or stalled before the kill"
        if len(counted(path)) >= games and any(
            query(referee_db, "select 1 from matches where id = ? and status = 'RUNNING'", m) for m in running(path)
        ):
            return
        time.sleep(0.02)


def defaults(referee_db: Path, match_id: str) -> int:
    """Default moves the referee made in a match's finished game."""
    return sum(seat["defaults"] for (seats,) in query(referee_db, "select seats from games where match_id = ?", match_id)
               for seat in json.loads(seats))


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid`` (bots, the local referee, what they started)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != "Z":
            parents[int(stat.parent.name)] = int(fields[1])
    found, todo = set(), [pid]
    while todo:
        parent = todo.pop()
        kids = {p for p, pp in parents.items() if pp == parent}
        todo.extend(kids - found)
        found |= kids
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def kill_9(proc: subprocess.Popen[str]) -> None:
    """kill -9 the runner; its referee (if its own) and its bots must die with it."""
    children = descendants(proc.pid)
    assert len(children) >= len(BOTS), children
    proc.kill()
    proc.communicate()
    deadline = time.monotonic() + 30
    while left := [p for p in children if alive(p)]:
        assert time.monotonic() < deadline, f"processes outlived the runner: {left}"
        time.sleep(0.05)


def check(path: Path, reference: dict[str, Any], lost: set[str]) -> None:
    """The standings of an uninterrupted run, no fault anywhere, and no lost match counted."""
    got = standings(path)
    assert got == reference
    for bot in got["bots"]:
        assert bot["faults"] == NO_FAULTS and bot["crashes"] == 0 and not bot["disabled"], bot
    assert lost and not lost & set(counted(path).values())


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The standings of the league played without interruption (its own referee)."""
    need_sandbox()
    path = league_file(tmp_path_factory.mktemp("reference"))
    run(path)
    result = standings(path)
    assert result["games"] == 12
    for bot in result["bots"]:
        assert bot["faults"] == NO_FAULTS and bot["crashes"] == 0, bot
    return result


@pytest.mark.timeout(600)
def test_kill_9_of_the_runner_with_its_own_referee_replays_the_games_in_flight(tmp_path: Path, reference: dict[str, Any]) -> None:
    path = league_file(tmp_path)
    db = load_league(path).db_path
    lost: set[str] = set()
    for games in (2, 7):  # the first run, then the resumed one
        proc = start(path)
        mid_game(proc, path, db, games)
        kill_9(proc)
        left = running(path)
        lost |= left
    out = run(path)
    assert "in flight when the league stopped" in out or not left, out
    check(path, reference, lost)


@pytest.mark.timeout(600)
def test_a_referee_that_outlives_the_runner_does_not_count_games_its_bots_left(tmp_path: Path, reference: dict[str, Any]) -> None:
    """--server: the referee plays on after the runner (and so the bots) died; the seats of the games
    in flight are then played by default moves, which must not count."""
    path = league_file(tmp_path)
    (tmp_path / "referee").mkdir()
    with referee(tmp_path / "referee") as ref:
        server = ("--server", ref.address)
        proc = start(path, *server)
        mid_game(proc, path, ref.db, 3)
        kill_9(proc)
        lost = running(path)
        deadline = time.monotonic() + 120  # let the orphaned games end, played by default moves
        while any(query(ref.db, "select 1 from matches where id = ? and status not in ('FINISHED', 'ABORTED')", m) for m in lost):
            assert time.monotonic() < deadline, "the orphaned matches never ended"
            time.sleep(0.05)

        proc = start(path, *server)  # resumed, then stopped with SIGTERM mid-game
        mid_game(proc, path, ref.db, 7)
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=60)
        assert proc.returncode == 128 + signal.SIGTERM and "stopped" in out, out
        assert all(s in ENDED for (s,) in query(ref.db, "select status from matches"))  # nothing plays on
        errors = dict(query(ref.db, "select id, error from matches where status = 'ABORTED'"))
        stopped = running(path)
        for match_id in stopped:  # aborted before the bots stopped, or played to its end just before
            assert "league runner is stopping" in errors.get(match_id, "") or not defaults(ref.db, match_id), match_id
        lost |= stopped

        out = run(path, *server)
        assert "in flight when the league stopped" in out or not stopped, out
        check(path, reference, lost)


def test_abort_matches_stops_a_group_s_unfinished_matches_and_says_why(tmp_path: Path) -> None:
    """Arena.AbortMatches, which the runner calls for its league's group: running and pending matches
    of the group stop (ABORTED, with the reason given); ended ones and other groups are left alone."""
    with referee(tmp_path) as ref:
        admin = ref.arena()
        ids = []
        for i, mode in enumerate(("hang", "play", "play")):
            bot_id, token = admin.register(f"bot{i}")
            ref.protobot(token, mode)
            ids.append(bot_id)
        absent, _ = admin.register("never-connects")

        def create(seats: list[str], group: str) -> str:
            request = arena_pb2.CreateMatchRequest(preset="mizerka-short", seed_text="s", seats=seats, group=group)
            return admin.stub.CreateMatch(request, metadata=admin.metadata).match_id

        running = create(ids, "league#1")
        pending = create([absent, absent, absent], "league#1")
        other = create([absent, absent, absent], "league#2")
        deadline = time.monotonic() + 30
        while admin.get(running).status != arena_pb2.MATCH_STATUS_RUNNING:
            assert time.monotonic() < deadline, "the match never started"
            time.sleep(0.05)
        request = arena_pb2.AbortMatchesRequest(group="league#1", reason="the league runner stopped")
        reply = admin.stub.AbortMatches(request, metadata=admin.metadata)
        assert sorted(reply.match_ids) == sorted([running, pending])
        for match_id in (running, pending):
            match = admin.get(match_id)
            assert match.status == arena_pb2.MATCH_STATUS_ABORTED and match.abort_reason == "the league runner stopped"
        assert admin.get(other).status in (arena_pb2.MATCH_STATUS_PENDING, arena_pb2.MATCH_STATUS_RUNNING)  # waits for seats
        again = admin.stub.AbortMatches(arena_pb2.AbortMatchesRequest(match_ids=[running, other]), metadata=admin.metadata)
        assert list(again.match_ids) == [other]  # an ended match is left as it is
        assert admin.get(other).abort_reason == "aborted by the admin"
        for bad, code in ((arena_pb2.AbortMatchesRequest(), grpc.StatusCode.INVALID_ARGUMENT),
                          (arena_pb2.AbortMatchesRequest(match_ids=["m-nope"]), grpc.StatusCode.NOT_FOUND)):
            with pytest.raises(grpc.RpcError) as err:
                admin.stub.AbortMatches(bad, metadata=admin.metadata)
            assert err.value.code() == code
