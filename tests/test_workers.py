"""Leagues across worker processes on a real PostgreSQL server (tests/pg.py): `mizerka league run`
submits the league and follows it, three `mizerka worker` processes play it; one is killed with
kill -9 mid-game, another stopped with SIGTERM mid-game. No game is lost or counted twice, no lost
match counts, no bot carries a fault it did not cause, and the standings equal a single-host run of
the same league (the built-in bots are deterministic for a given deal, and `seed` fixes every deal).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from test_crash_resume import NO_FAULTS, alive, descendants, standings

from server.storage.database import database_url

from harness import logged_port, need_sandbox, scrape
from pg import pg_server, pg_url  # noqa: F401 (fixtures)

BIN = Path(sys.executable).parent
MIZERKA = str(BIN / "mizerka")
BOTS = ("heuristic", "greedy", "cautious", "heuristic2")
GAMES = 24  # 4 tables x 3 seatings x 2 games


def league_file(tmp: Path, db: str | None = None, name: str = "spread", games_per_table: int = 2) -> Path:
    lines = [f'name = "{name}"', 'preset = "mizerka-short"', 'seed = "fixed"', f'data = "{tmp / "data"}"', "concurrency = 2",
             f"games_per_table = {games_per_table}", "[clock]", "decision_ms = 10000", "bank_ms = 60000"]
    if db is not None:
        lines.insert(4, f'db = "{db}"')
    for bot in BOTS:
        lines += ["[[bots]]", f'name = "{bot}"', f'command = ["mizerka-bot", "{bot.rstrip("0123456789")}"]']
    path = tmp / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The standings of the league played on one host (SQLite, its own referee), uninterrupted."""
    need_sandbox()
    return single_host_standings(league_file(tmp_path_factory.mktemp("single")), GAMES)


def single_host_standings(path: Path, games: int) -> dict[str, Any]:
    """Play the league file ``path`` (no ``db``) on one host, uninterrupted; its standings."""
    done = subprocess.run([MIZERKA, "league", "run", str(path)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    result = standings(path)
    assert result["games"] == games
    return result


def start_worker(db: str, folder: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """A worker logging to FOLDER.log; ``env``: variables added to its environment."""
    log = open(folder.with_suffix(".log"), "w")  # noqa: SIM115 (closed with the process)
    return subprocess.Popen([MIZERKA, "worker", "--db", db, "--data", str(folder), "--log-format", "json", *args],
                            stdout=log, stderr=subprocess.STDOUT, text=True, env={**os.environ, **(env or {})})


class Db:
    def __init__(self, url: str) -> None:
        self.engine = sa.create_engine(database_url(url))

    def rows(self, sql: str, **args: Any) -> list[Any]:
        with self.engine.connect() as conn:
            try:
                return list(conn.execute(sa.text(sql), args))
            except sa.exc.ProgrammingError:  # polled before the submitter made the tables
                return []

    def playing(self, pid: int) -> list[str]:
        """Matches the worker of ``pid`` is playing now (its lease holds, its referee runs them)."""
        return [r.match_id for r in self.rows(
            "select g.match_id from league_games g join workers w on w.id = g.lease_owner join matches m on m.id = g.match_id "
            "where w.pid = :pid and g.status = 'RUNNING' and m.status = 'RUNNING'", pid=pid)]

    def finished(self) -> dict[str, str]:
        return {r.key: r.match_id for r in self.rows("select key, match_id from league_games where status = 'FINISHED'")}


def wait_playing(db: Db, procs: list[subprocess.Popen[str]]) -> tuple[int, list[str]]:
    """The first of ``procs`` seen playing a game (its index) and the matches it plays. Which
    worker gets the next game is the machine's timing (a loaded host starts one late and another
    plays the rest), so the test takes whichever plays rather than waiting for a chosen one."""
    deadline = time.monotonic() + 180
    while True:
        for i, proc in enumerate(procs):
            if matches := db.playing(proc.pid):
                return i, matches
        assert all(p.poll() is None for p in procs), "a process ended early"
        assert time.monotonic() < deadline, "no worker played a game"
        time.sleep(0.02)


@pytest.mark.timeout(900)
def test_three_workers_one_killed_one_stopped_give_the_single_host_standings(
    pg_url: str, tmp_path: Path, reference: dict[str, Any]  # noqa: F811
) -> None:
    path = league_file(tmp_path, pg_url)
    submitter = subprocess.Popen([MIZERKA, "league", "run", str(path)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 text=True)
    db = Db(pg_url)
    workers = [start_worker(pg_url, tmp_path / f"w{i}", "--slots", "2", "--lease-s", "4", "--metrics-port", "0")
               for i in range(3)]
    try:
        ports = [logged_port((tmp_path / f"w{i}").with_suffix(".log"), "metrics listening") for i in range(3)]
        # kill -9 of the first worker seen playing, mid-game: first its metrics while it plays (its
        # leases and its referee's live matches, on one endpoint); then it dies, and its referee and
        # bots with it; its games are retaken later
        killed, matches = wait_playing(db, workers)
        deadline = time.monotonic() + 30  # a scrape between two of its games may find none in flight: look again
        while not ((during := scrape(ports[killed]))["mizerka_worker_games_in_flight"] >= 1
                   and during.get("mizerka_live_matches", 0) >= 1):
            assert time.monotonic() < deadline and workers[killed].poll() is None, during
            time.sleep(0.05)
        assert during["mizerka_worker_slots"] == 2, during
        matches = db.playing(workers[killed].pid) or matches  # what it plays now, as it is killed
        lost = set(matches)
        children = descendants(workers[killed].pid)
        assert len(children) >= len(BOTS) + 1, children  # its referee and the league's bots
        workers[killed].kill()
        workers[killed].wait()
        deadline = time.monotonic() + 30
        while left := [p for p in children if alive(p)]:
            assert time.monotonic() < deadline, f"processes outlived the killed worker: {left}"
            time.sleep(0.05)
        # SIGTERM of the next one seen playing, mid-game (the killed worker's games are still to be
        # retaken when its leases expire): it aborts its matches and hands its games back, then exits
        rest = [i for i in range(3) if i != killed]
        which, matches = wait_playing(db, [workers[i] for i in rest])
        stopped, survivor = rest[which], rest[1 - which]
        handed = set(matches)
        workers[stopped].send_signal(signal.SIGTERM)
        assert workers[stopped].wait(timeout=60) == 128 + signal.SIGTERM
        out, _ = submitter.communicate(timeout=600)
        assert submitter.returncode == 0, out
        after = scrape(ports[survivor])  # every game stored: the surviving worker's counts against the store
        mine = db.rows("select g.key, g.attempt from league_games g join workers w on w.id = g.lease_owner "
                       "where w.pid = :pid and g.status = 'FINISHED'", pid=workers[survivor].pid)
        assert after["mizerka_worker_games_finished_total"] == len(mine) >= 1, after
        assert after["mizerka_worker_games_claimed_total"] >= len(mine)
        assert after["mizerka_worker_results_refused_total"] == 0 and after["mizerka_worker_games_in_flight"] == 0
        assert after["mizerka_worker_games_retaken_total"] <= sum(1 for r in mine if r.attempt > 1) + after[
            "mizerka_worker_leases_lost_total"]
    finally:
        for p in [submitter, *workers]:
            if p.poll() is None:
                p.kill()
                p.wait()
    events = [json.loads(line) for line in (tmp_path / f"w{stopped}.log").read_text().splitlines() if line.startswith("{")]
    handed_back = [e for e in events if e.get("event") == "handed-back"]
    assert len(handed_back) == 1 and handed_back[0]["games"] >= 1, events[-20:]
    # no game lost or doubled, no lost match counted, and every lost match kept as discarded
    counted = db.finished()
    assert len(counted) == GAMES and len(set(counted.values())) == GAMES
    assert not (lost | handed) & set(counted.values())
    discarded = {m for (d,) in db.rows("select discarded from league_games where discarded is not null") for m in d}
    assert lost | handed <= discarded
    ended = {r.id: r for r in db.rows("select id, status, error from matches where id = any(:ids)", ids=list(lost | handed))}
    # a lost match ended one way or another (it may have finished as its worker died: never counted, above)
    assert len(ended) == len(lost | handed) and {r.status for r in ended.values()} <= {"ABORTED", "FINISHED"}
    assert all(ended[m].status == "ABORTED" and "stopping" in ended[m].error for m in handed)  # handed back, not expired
    # the standings of one host, and no fault on any bot
    got = standings(path)
    assert got == reference
    for bot in got["bots"]:
        assert bot["faults"] == NO_FAULTS and bot["crashes"] == 0 and not bot["disabled"], bot
    assert "published" in out or "standings after 24 games" in out
    attempts = db.rows("select max(attempt) as m from league_games")[0].m
    assert attempts >= 2  # the lost games really were played again
    db.engine.dispose()


def test_a_worker_needs_postgresql_and_says_so(tmp_path: Path) -> None:
    done = subprocess.run([MIZERKA, "worker", "--db", str(tmp_path / "x.sqlite")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "PostgreSQL" in done.stderr


def test_submitting_a_league_with_remote_bots_points_to_the_central_referee(pg_url: str, tmp_path: Path) -> None:  # noqa: F811
    path = tmp_path / "r.toml"
    path.write_text(f'name = "r"\npreset = "mizerka-short"\ndb = "{pg_url}"\n'
                    '[[bots]]\nname = "a"\nremote = true\n[[bots]]\nname = "b"\ncommand = ["mizerka-bot", "random"]\n'
                    '[[bots]]\nname = "c"\ncommand = ["mizerka-bot", "random"]\n')
    done = subprocess.run([MIZERKA, "league", "run", str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--server" in done.stderr, done.stdout + done.stderr


def test_a_host_that_cannot_run_a_bot_leaves_the_league_to_others_and_charges_no_bot(
    pg_url: str, tmp_path: Path  # noqa: F811
) -> None:
    """A bot command missing on a worker's host (here the program its stdio bridge would run) is
    the organiser's setup, not the bot's fault: the worker says so, naming the bot, the path and
    why, and claims nothing; no crash is counted, no game is taken."""
    path = tmp_path / "missing.toml"
    path.write_text(f'name = "missing"\npreset = "mizerka-short"\ndb = "{pg_url}"\n'
                    '[[bots]]\nname = "a"\ncommand = ["mizerka-bot", "random"]\n'
                    '[[bots]]\nname = "b"\ncommand = ["mizerka-bot", "random"]\n'
                    '[[bots]]\nname = "c"\ncommand = ["mizerka-bot", "stdio", "--", "/nonexistent/bot-c"]\n')
    submitter = subprocess.Popen([MIZERKA, "league", "run", str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = start_worker(pg_url, tmp_path / "w", "--lease-s", "4")
    db = Db(pg_url)
    log = tmp_path / "w.log"
    try:
        deadline = time.monotonic() + 120
        while '"cannot-play"' not in log.read_text():
            assert worker.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
    finally:
        for p in (worker, submitter):
            p.terminate()
            p.wait(timeout=60)
    said = next(e for e in map(json.loads, log.read_text().splitlines()) if e.get("event") == "cannot-play")
    assert said["error"] == ("bot c: the program its mizerka-bot stdio runs, '/nonexistent/bot-c', cannot start: "
                             "no such file (/nonexistent/bot-c)"), said
    assert db.rows("select count(*) as n from league_games where status != 'PENDING' or attempt is not null")[0].n == 0
    assert db.rows("select sum(crashes) as n from league_bots")[0].n == 0
    db.engine.dispose()


def test_a_worker_serves_the_web_page_of_the_league_it_plays(pg_url: str, tmp_path: Path) -> None:  # noqa: F811
    """`mizerka worker --http-port 0`: its referee serves the web page while it plays a league, with
    that league's progress and standings; the worker logs the page's URL ("web-page")."""
    need_sandbox()
    slow = json.dumps([sys.executable, str(Path(__file__).parent / "bots" / "protobot.py"), "slow:20"])
    path = tmp_path / "watched.toml"
    path.write_text(f'name = "watched"\npreset = "mizerka-short"\ndb = "{pg_url}"\ngames_per_table = 2\n'
                    + "".join(f'[[bots]]\nname = "{b}"\ncommand = {slow}\n' for b in "abc"))
    submitter = subprocess.Popen([MIZERKA, "league", "run", str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = start_worker(pg_url, tmp_path / "w", "--http-port", "0")
    log = tmp_path / "w.log"
    try:
        deadline = time.monotonic() + 120
        while not (said := [e for e in map(json.loads, log.read_text().splitlines()) if e.get("event") == "web-page"]):
            assert worker.poll() is None and submitter.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        url = said[0]["url"]
        with urllib.request.urlopen(url, timeout=10) as page:
            assert b'data-page="arena"' in page.read()
        with urllib.request.urlopen(f"{url}api/arena", timeout=10) as answer:
            arena = json.loads(answer.read())
        assert [(lg["name"], lg["games"]) for lg in arena["leagues"]] == [("watched", 6)], arena
        with urllib.request.urlopen(f"{url}api/league/watched", timeout=10) as answer:
            league = json.loads(answer.read())
        assert sorted(b["name"] for b in league["standings"]["bots"]) == ["a", "b", "c"] and league["games"] == 6
    finally:
        for p in (worker, submitter):
            p.terminate()
            p.wait(timeout=60)
