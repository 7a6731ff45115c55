"""Workers on a real PostgreSQL server (tests/pg.py) when something stops or fails: the database
out of reach when a worker starts, the database going down mid-play and coming back, SIGINT to a
worker and to `league run` (docs/scale-out.md, When something fails), the hand-back's metrics
(docs/metrics.md), and a bot's crashes counted across workers.

The bots are tests/bots/protobot.py in the league's sandbox. A worker started with
LC_PROTOBOT_MODE=hang has bots that never answer (the league's clock is long): its games stay in
flight for as long as the test needs, and only the worker the test starts next, with bots that
play, finishes them; bots started as hang-once hang the first time they run, and play once their
worker starts them again. Nothing here waits on a wall-clock time: every step waits for an event in a
log, a row in the database or a process's end (the deadlines only turn a hang into a failure).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import grpc
import pytest
import sqlalchemy as sa
from test_crash_resume import NO_FAULTS, descendants, standings
from test_hostile_streams import Stream
from test_worker_hosts import events, summary
from test_workers import MIZERKA, Db, start_worker

from tournaments.workers.worker import HANDED_BACK

from harness import ROOT, logged_port, need_sandbox, referee, refused_port, scrape
from pg import new_database, pg_server, pg_url, stoppable_postgres  # noqa: F401 (fixtures)

PROTOBOT = [sys.executable, str(ROOT / "tests" / "bots" / "protobot.py")]
HANG = {"LC_PROTOBOT_MODE": "hang"}  # this worker's bots never answer: its games stay in flight
LONG_LEASE = ("--lease-s", "300")  # no heartbeat (every 100 s) while the test holds the worker's row


def league_file(tmp: Path, db: str, name: str, modes: dict[str, str], *extra: str) -> Path:
    """Three protobots (by name: their MODE), one table, three games; a clock no hung bot runs out."""
    lines = [f'name = "{name}"', 'preset = "mizerka-short"', 'seed = "fixed"', f'db = "{db}"', "games_per_table = 1",
             *extra, "[clock]", "decision_ms = 600000", "bank_ms = 0"]
    for bot, mode in modes.items():
        lines += ["[[bots]]", f'name = "{bot}"', f"command = {json.dumps([*PROTOBOT, mode])}"]
    path = tmp / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def wait_for(what: str, check: Callable[[], Any], procs: Sequence[subprocess.Popen[str]], logs: Sequence[Path],
             timeout_s: float = 180) -> Any:
    """``check()``'s first true answer; a failure with the workers' events if one of ``procs``
    ends first (or nothing comes within ``timeout_s``, a hang)."""
    deadline = time.monotonic() + timeout_s
    while not (found := check()):
        ended = [" ".join(map(str, p.args[:3])) for p in procs if p.poll() is not None]
        if ended or time.monotonic() > deadline:
            why = f"{', '.join(ended)} ended early" if ended else f"not within {timeout_s:g} s"
            shown = "".join(f"\n--- {log.name}:\n{summary(log)}" for log in logs if log.exists())
            pytest.fail(f"{what}: {why}{shown}", pytrace=False)
        time.sleep(0.05)
    return found


def said(log: Path, event: str, **fields: Any) -> list[dict[str, Any]]:
    """The events ``event`` of a worker's log that have ``fields``."""
    return [e for e in events(log) if e["event"] == event and all(e.get(k) == v for k, v in fields.items())]


def stop_all(*procs: subprocess.Popen[str]) -> None:
    for p in procs:
        if p.poll() is None:
            p.kill()
            p.wait()


def test_a_worker_that_cannot_reach_its_database_says_which_and_exits_2(tmp_path: Path) -> None:
    """Started while the database is out of reach: one line naming the server (never the
    password), status 2 (Compose restarts it), nothing started."""
    with refused_port() as port:
        url = f"postgresql://arena:secretpw@127.0.0.1:{port}/arena"
        done = subprocess.run([MIZERKA, "worker", "--db", url, "--data", str(tmp_path / "w")], capture_output=True,
                              text=True, timeout=60)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stdout + done.stderr
    assert lines[0].startswith("error: cannot use the database (") and f"127.0.0.1:{port}" in lines[0], lines
    assert "secretpw" not in done.stdout + done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "w").exists()


@pytest.mark.timeout(600)
def test_sigint_stops_league_run_and_a_worker_with_130_and_the_handed_back_games_are_counted_and_played_later(
    pg_url: str, tmp_path: Path  # noqa: F811
) -> None:
    """Ctrl-C on `league run` stops only the view (130), the workers play on; SIGINT to a worker
    aborts its two games in flight and hands them back (130), its metrics say so at once, and the
    next worker plays them, not as retaken games; `league run` again follows the league to its end."""
    need_sandbox()
    path = league_file(tmp_path, pg_url, "handback", {"a": "play", "b": "play", "c": "play"})
    db = Db(pg_url)
    log_a, log_b = tmp_path / "a.log", tmp_path / "b.log"
    submitter = subprocess.Popen([MIZERKA, "league", "run", str(path)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 text=True)
    a = start_worker(pg_url, tmp_path / "a", "--slots", "2", *LONG_LEASE, "--metrics-port", "0", env=HANG)
    b: subprocess.Popen[str] | None = None
    try:
        port_a = logged_port(log_a, "metrics listening")
        playing = wait_for("worker a playing two games", lambda: sorted(now) if len(now := db.playing(a.pid)) == 2 else [],
                           [submitter, a], [log_a])
        submitter.send_signal(signal.SIGINT)
        out, _ = submitter.communicate(timeout=60)
        assert submitter.returncode == 130, out
        assert "the workers go on playing it" in out, out
        assert sorted(db.playing(a.pid)) == playing  # only the view stopped
        worker = said(log_a, "worker-start")[0]["worker"]
        # the worker's last write is its row's stopped_at (Leases.leave), after the hand-back: the test
        # holds that row, so the worker is still up, its metrics served, when the hand-back is over
        with db.engine.connect() as conn:
            conn.execute(sa.text("select 1 from workers where id = :id for update"), {"id": worker})
            me = conn.execute(sa.text("select pg_backend_pid()")).scalar_one()
            a.send_signal(signal.SIGINT)
            wait_for("worker a waiting for its row to note that it stops", lambda: db.rows(
                "select pid from pg_stat_activity where wait_event_type = 'Lock' and query like 'UPDATE workers%' "
                "and :me = any(pg_blocking_pids(pid))", me=me), [a], [log_a])
            metrics = scrape(port_a)
            conn.rollback()
        assert a.wait(timeout=60) == 130, summary(log_a)
        assert [e["games"] for e in said(log_a, "handed-back")] == [2], summary(log_a)
        assert metrics["mizerka_worker_games_handed_back_total"] == 2, metrics
        assert metrics["mizerka_worker_games_in_flight"] == 0, metrics
        assert metrics["mizerka_worker_games_claimed_total"] == 2 and metrics["mizerka_worker_games_finished_total"] == 0
        games = db.rows("select key, status, lease_owner, attempt, discarded from league_games order by position")
        assert [g.status for g in games] == ["PENDING"] * 3 and not any(g.lease_owner for g in games), games
        assert sorted(m for g in games for m in g.discarded or []) == playing, games
        aborted = db.rows("select status, error from matches where id = any(:ids)", ids=playing)
        assert [(m.status, m.error) for m in aborted] == [("ABORTED", HANDED_BACK)] * 2, aborted

        b = start_worker(pg_url, tmp_path / "b", "--slots", "2", "--metrics-port", "0")
        port_b = logged_port(log_b, "metrics listening")
        again = subprocess.run([MIZERKA, "league", "run", str(path)], capture_output=True, text=True, timeout=300)
        assert again.returncode == 0, again.stdout + again.stderr + summary(log_b)
        assert "standings after 3 games" in again.stdout, again.stdout
        after_b = scrape(port_b)
        assert after_b["mizerka_worker_games_finished_total"] == 3, after_b
        assert after_b["mizerka_worker_games_retaken_total"] == 0, after_b  # handed back: no lease had to expire
        assert not said(log_b, "retaken"), summary(log_b)
    finally:
        stop_all(submitter, a, *([b] if b else []))
    counted = db.finished()
    assert len(counted) == 3 and not set(counted.values()) & set(playing)
    for bot in standings(path)["bots"]:
        assert bot["faults"] == NO_FAULTS and bot["crashes"] == 0 and not bot["disabled"], bot
    db.engine.dispose()


@pytest.mark.timeout(600)
def test_a_bot_crashing_once_on_each_of_two_workers_is_disabled_at_max_crashes_in_all(
    pg_url: str, tmp_path: Path  # noqa: F811
) -> None:
    """max_crashes = 2: bot x crashes once on worker a (which restarts it: one crash is below the
    limit there), then once on worker b, and that second crash of the league disables it, on b at
    once: the count is the database's, all workers together, not each worker's own."""
    need_sandbox()
    path = league_file(tmp_path, pg_url, "crashes", {"a": "play", "b": "play", "x": "crash-once"}, "max_crashes = 2",
                       "seat_timeout_s = 2")
    db = Db(pg_url)
    log_a, log_b = tmp_path / "a.log", tmp_path / "b.log"
    submitter = subprocess.Popen([MIZERKA, "league", "run", str(path)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 text=True)
    a = start_worker(pg_url, tmp_path / "a", "--slots", "2", *LONG_LEASE, env=HANG)
    b: subprocess.Popen[str] | None = None
    try:
        wait_for("bot x crashing on worker a", lambda: said(log_a, "bot-crash", bot="x"), [submitter, a], [log_a])
        # restarted there (its scratch folder says it crashed once already), it stays up
        wait_for("worker a playing", lambda: len(db.playing(a.pid)) == 2, [submitter, a], [log_a])
        a.send_signal(signal.SIGTERM)
        assert a.wait(timeout=60) == 128 + signal.SIGTERM, summary(log_a)
        assert [(e["crashes"], e["max"]) for e in said(log_a, "bot-crash", bot="x")] == [(1, 2)], summary(log_a)
        assert not said(log_a, "bot-disabled"), summary(log_a)
        b = start_worker(pg_url, tmp_path / "b", "--slots", "2")
        out, _ = submitter.communicate(timeout=300)
        assert submitter.returncode == 0, out + summary(log_b)
    finally:
        stop_all(submitter, a, *([b] if b else []))
    assert not said(log_b, "bot-crash", bot="x"), summary(log_b)  # b's first crash of x is the league's second
    disabled = said(log_b, "bot-disabled", bot="x")
    assert len(disabled) == 1 and disabled[0]["reason"].startswith("disabled after 2 crashes"), summary(log_b)
    rows = {r.name: r for r in db.rows("select name, crashes, disabled from league_bots")}
    assert rows["x"].crashes == 2 and rows["x"].disabled == disabled[0]["reason"], rows
    assert (rows["a"].crashes, rows["b"].crashes, rows["a"].disabled, rows["b"].disabled) == (0, 0, None, None), rows
    got = {bot["name"]: bot for bot in standings(path)["bots"]}
    assert got["x"]["crashes"] == 2 and got["x"]["disabled"], got["x"]
    db.engine.dispose()


def bot_processes(pid: int) -> list[int]:
    """The protobot processes below ``pid`` (inside their sandboxes; not bwrap itself)."""
    found = []
    for child in descendants(pid):
        with contextlib.suppress(OSError):
            args = Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")
            if args[0] == sys.executable.encode() and args[1].endswith(b"protobot.py"):
                found.append(child)
    return found


@pytest.mark.timeout(600)
def test_the_database_down_mid_play_past_the_lease_then_back_the_league_completes_with_each_game_counted_once(
    tmp_path: Path,
) -> None:
    """The PostgreSQL server stops (as in a crash) while the worker plays two games, and stays down
    past the lease: the worker says at once that the database cannot be reached, gives both games
    up when their leases have expired, leaves the league and keeps looking; a bot killed meanwhile
    is restarted, its exit not charged (the organiser's side is failing); `league run` says the
    database cannot be reached and keeps following. The server comes back on the same port and
    data: the worker retakes the two games and plays them again, and the third; the league
    completes, each game with one result from one finished match, the lost matches aborted and
    uncounted, no fault, crash or forfeit charged to a bot. The bots hang the first time they run
    (hang-once): the two games stay in flight until the outage takes them, and the bots the worker
    starts once the database is back play."""
    need_sandbox()
    with stoppable_postgres() as server:
        url = new_database(server.url)
        path = league_file(tmp_path, url, "outage", {"a": "hang-once", "b": "hang-once", "c": "hang-once"})
        db = Db(url)
        log, run_log = tmp_path / "w.log", tmp_path / "run.log"
        with run_log.open("w") as out:
            submitter = subprocess.Popen([MIZERKA, "league", "run", str(path)], stdout=out, stderr=subprocess.STDOUT,
                                         text=True)
        worker = start_worker(url, tmp_path / "w", "--slots", "2", "--lease-s", "3")
        try:
            playing = wait_for("the worker playing two games",
                               lambda: sorted(now) if len(now := db.playing(worker.pid)) == 2 else [], [submitter, worker], [log])
            me = said(log, "worker-start")[0]["worker"]
            referee_log = tmp_path / "w" / "outage" / me / "logs" / "referee.log"
            wait_for("the three bots connected", lambda: len(said(referee_log, "bot connected")) == 3, [submitter, worker], [log])
            db.engine.dispose()  # the test's own sessions go with the server
            server.stop()
            os.kill(bot_processes(worker.pid)[0], signal.SIGKILL)
            wait_for("the worker seeing the bot end", lambda: said(log, "bot-exit"), [submitter, worker], [log])
            wait_for("the worker giving both games up", lambda: len(said(log, "lease-lost")) == 2, [submitter, worker], [log])
            assert sorted(e["match"] for e in said(log, "lease-lost")) == playing, summary(log)
            # out of the league (its referee and bots stopped), looking for one, the database still down
            wait_for("the worker looking for a league", lambda: said(log, "database-unreachable", retrying="open_league"),
                     [submitter, worker], [log])
            wait_for("league run saying the database cannot be reached",
                     lambda: "the database cannot be reached" in run_log.read_text(), [submitter, worker], [log])
            server.start()
            assert submitter.wait(timeout=300) == 0, run_log.read_text() + summary(log)
            assert "standings after 3 games" in run_log.read_text(), run_log.read_text()
            assert worker.poll() is None, summary(log)  # the outage did not end it: it looks for the next league
            worker.send_signal(signal.SIGTERM)
            assert worker.wait(timeout=60) == 128 + signal.SIGTERM, summary(log)
        finally:
            stop_all(submitter, worker)
        # said at the first failed heartbeat; the games given up a lease later, once
        outage = [e["event"] for e in events(log) if e["event"] in ("database-unreachable", "database-lost", "lease-lost")]
        assert outage[:3] == ["database-unreachable", "database-lost", "lease-lost"], summary(log)
        assert said(log, "database-unreachable")[0]["retrying"] == "renew" and len(said(log, "database-lost")) == 1, summary(log)
        assert all(not e["charged"] for e in said(log, "bot-exit")), summary(log)
        assert sorted(e["game"] for e in said(log, "retaken", **{"from": me})) == sorted(
            e["game"] for e in said(log, "lease-lost")), summary(log)
        assert not said(log, "bot-crash") and not said(log, "league-error") and not said(log, "game-error"), summary(log)
        assert "Traceback" not in log.read_text(), summary(log)
        games = db.rows("select key, status, match_id, discarded from league_games order by position")
        assert len(games) == 3 and all(g.status == "FINISHED" for g in games), games
        counted = [g.match_id for g in games]
        assert len(set(counted)) == 3 and not set(counted) & set(playing), games
        assert sorted(m for g in games for m in g.discarded or []) == playing, games  # each lost match, once
        matches = {r.id: r for r in db.rows("select m.id, m.status, count(g.game_index) as stored from matches m "
                                            "left join games g on g.match_id = m.id group by m.id, m.status")}
        assert {m for m, r in matches.items() if r.status == "FINISHED"} == set(counted), matches  # no game played out twice
        assert all(matches[m].stored == 1 for m in counted) and all(matches[m].status == "ABORTED" for m in playing), matches
        for bot in standings(path)["bots"]:
            assert bot["faults"] == NO_FAULTS and bot["crashes"] == 0 and not bot["disabled"], bot
        db.engine.dispose()


def test_a_bot_connecting_while_the_referees_database_is_down_hears_it_is_unavailable_and_not_where_it_is(
        tmp_path: Path) -> None:
    """A Hello whose token the referee has not seen yet needs the database. While PostgreSQL is down the
    stream ends UNAVAILABLE, saying to connect again later; the driver's text (the server's address and
    port) stays in the referee's log, out of the bot's reach. Back up, the same token is let in."""
    with stoppable_postgres() as server:
        url = new_database(server.url)
        with referee(tmp_path, db=url) as ref:
            _, token = ref.arena().register("early")
            server.stop()
            try:
                # the referee cached the bot it registered itself: a token registered elsewhere is not
                stranger = Stream(ref.address, "a-token-this-referee-never-saw")
                code, details = stranger.ended()
                assert code == grpc.StatusCode.UNAVAILABLE, (code, details)
                assert "database is out of reach" in details and "connect again later" in details
                assert str(server.port) not in details and "127.0.0.1" not in details and "psycopg" not in details
                logged = [line for line in ref.log_lines() if line["event"] == "stream refused: the database is out of reach"]
                assert logged and str(server.port) in logged[0]["error"], logged
            finally:
                server.start()
            assert Stream(ref.address, token).until("welcome").name == "early"
            unknown = Stream(ref.address, "a-token-this-referee-never-saw")
            assert unknown.ended()[0] == grpc.StatusCode.UNAUTHENTICATED
