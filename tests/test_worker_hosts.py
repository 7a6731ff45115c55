"""Workers as hosts of their own: network namespaces and veth pairs made by the test (tests/netns.py).

A "db" namespace holds a bridge, a PostgreSQL server of its own listening on the bridge's address,
and the submitter (`mizerka league run`); two host namespaces, "a" and "b", each linked to the
bridge by a veth pair with an address of its own, run one `mizerka worker` each (its referee and
bots on 127.0.0.1 inside its host). All traffic stays on loopback or inside these namespaces.

Host A's link is cut while it plays. A host's referee stores every game in the same database, so
no match can end on a host while it is cut off: the result a cut host can hold is that of a game
its referee stored just before the cut and its worker had not yet written under its lease. The
test makes that moment certain: it holds A's worker process (SIGSTOP; its referee and bots play on)
until its referee has ended the match, cuts A's link, and lets the worker go on behind the cut
(SIGCONT). Then: A's games are taken over by B once their leases expire, and played again to the
end; A keeps trying to write its result until the link is back, and the database refuses it; the
league finishes with every game counted once, no bot charged with a fault, and the standings of
one host playing the same league (the built-in bots are deterministic, `seed` fixes every deal).

The cut can also fall inside a transaction of the host, between a statement and its COMMIT: the
second test puts it there (the test's own session holds a row lock that the host's statement waits
for until the link is cut) and wants the league finished by the other host all the same.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from netns import Host, NetnsPostgres, Network
from test_crash_resume import NO_FAULTS
from test_workers import MIZERKA, Db, single_host_standings
from test_workers import league_file as workers_league_file

from tournaments.runner import WAIT_POLL_MS

from harness import need_sandbox

LEASE_S = 6
# Long enough that host B is still busy (its referee and bots up) when the cut host's leases expire.
GAMES_PER_TABLE = 6
GAMES = 4 * 3 * GAMES_PER_TABLE  # 4 tables x 3 seatings


def league_file(tmp: Path, db: str | None = None) -> Path:
    return workers_league_file(tmp, db, name="hosts", games_per_table=GAMES_PER_TABLE)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The standings of the league played on one host (SQLite, its own referee), uninterrupted."""
    need_sandbox()
    return single_host_standings(league_file(tmp_path_factory.mktemp("single")), GAMES)


@pytest.fixture
def network() -> Iterator[Network]:
    net = Network(["a", "b"])
    try:
        yield net
    finally:
        net.close()


@pytest.fixture
def postgres(network: Network) -> Iterator[NetnsPostgres]:
    server = NetnsPostgres(network.db, network.subnet)
    try:
        yield server
    finally:
        server.stop()


def start_worker(host: Host, db: str, folder: Path) -> subprocess.Popen[str]:
    log = open(folder.with_suffix(".log"), "w")  # noqa: SIM115 (closed with the process)
    return host.popen(MIZERKA, "worker", "--db", db, "--slots", "2", "--lease-s", str(LEASE_S), "--data", str(folder),
                      "--log-format", "json", stdout=log, stderr=subprocess.STDOUT)


def events(log: Path) -> list[dict[str, Any]]:
    """The JSON events of a log (a traceback's lines, if any, are not events)."""
    out = []
    for line in log.read_text().splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict) and "event" in event:
            out.append(event)
    return out


def when(event: dict[str, Any]) -> float:
    return datetime.fromisoformat(event["timestamp"].replace("Z", "+00:00")).timestamp()


def summary(log: Path) -> str:
    """A worker's events, one short line each (and the end of a traceback), for a failure's message."""
    skip = {"event", "timestamp", "level", "seats", "totals"}
    lines = [f"{e['timestamp'][11:23]} {e['event']} {({k: v for k, v in e.items() if k not in skip})}"
             for e in events(log)] or ["(no events)"]
    text = log.read_text()
    if "Traceback" in text:
        lines.append(text[text.index("Traceback"):][-3000:])
    return "\n".join(lines)


def backends(db: Db) -> str:
    """What the database's sessions are doing (a session of the cut host left in a transaction, a
    claim waiting for its lock...), for a failure's message."""
    rows = db.rows("select pid, client_addr, state, wait_event_type, wait_event, pg_blocking_pids(pid) as blocked_by, "
                   "round(extract(epoch from now() - xact_start)) as xact_s, left(query, 120) as query "
                   "from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()")
    return "\n".join(str(tuple(r)) for r in rows)


class Scene:
    """The running processes, their logs and the database, for waiting with a useful failure."""

    def __init__(self, db: Db, procs: dict[str, subprocess.Popen[str]], logs: dict[str, Path]) -> None:
        self.db = db
        self.procs = procs
        self.logs = logs

    def explain(self) -> str:
        shown = "".join(f"\n--- {name}:\n{summary(log)}" for name, log in self.logs.items() if log.exists())
        return f"the database's sessions:\n{backends(self.db)}{shown}"

    def wait(self, what: str, check: Callable[[], Any], timeout: float, live: tuple[str, ...] = ("submitter", "a", "b")) -> Any:
        deadline = time.monotonic() + timeout
        while not (found := check()):
            ended = [name for name in live if self.procs[name].poll() is not None]
            if ended or time.monotonic() > deadline:
                why = f"{', '.join(ended)} ended early" if ended else f"not within {timeout:g} s"
                pytest.fail(f"{what}: {why}; {self.explain()}", pytrace=False)
            time.sleep(0.02)
        return found


def hold_a_result(scene: Scene, a: subprocess.Popen[str], id_a: str) -> tuple[str, str, float]:
    """Stop A's worker process (SIGSTOP) holding the result of a game its referee has ended and
    stored, not yet written under its lease; returns the game, its match and when A was stopped.

    The worker learns that its match ended from its referee's WaitMatch, a long poll that the
    referee answers as soon as the match ends (or after WAIT_POLL_MS): the answer must be in the
    stopped worker's socket before the cut. So A is stopped 0.25 s after its game's match was made
    (its poll is out by then), and the game is kept only if its match ended within that poll and A
    had not written the result; else A goes on, and the next game is tried.
    """
    tried: dict[str, float] = {}  # match -> how long it took
    for _ in range(30):
        game, match = scene.wait("host A starting a game", lambda: scene.db.rows((
            "select key, match_id from league_games where lease_owner = :a and status = 'RUNNING' and match_id is not null "
            "and not match_id = any(:tried) limit 1"), a=id_a, tried=list(tried)), 180)[0]
        time.sleep(0.25)
        os.kill(a.pid, signal.SIGSTOP)
        held_at = time.monotonic()
        ended = scene.wait("A's referee ending its match", lambda m=match: scene.db.rows(
            "select status, finished_at - created_at as took from matches where id = :m and status in "
            "('FINISHED', 'ABORTED')", m=m), 60)[0]
        assert ended.status == "FINISHED", ended
        tried[match] = round(ended.took, 2)
        row = scene.db.rows("select status, lease_owner from league_games where key = :k", k=game)[0]
        if ended.took < WAIT_POLL_MS / 1000 - 0.05 and row.status == "RUNNING" and row.lease_owner == id_a:
            time.sleep(1.0)  # the referee reads the match back and answers
            return game, match, held_at
        os.kill(a.pid, signal.SIGCONT)
    pytest.fail(f"host A never held a result: its matches took {sorted(tried.values())} s", pytrace=False)


def worker_id(scene: Scene, name: str) -> str:
    return scene.wait(f"worker {name} starting", lambda: next(
        (e["worker"] for e in events(scene.logs[name]) if e["event"] == "worker-start"), None), 120)


@dataclass
class Hosts:
    """A league submitted in the db namespace and played by one worker on each of hosts a and b."""

    network: Network
    path: Path  # the league file
    db: Db
    scene: Scene
    a: subprocess.Popen[str]
    b: subprocess.Popen[str]
    submitter: subprocess.Popen[str]
    id_a: str = ""
    id_b: str = ""


@contextmanager
def league_on_two_hosts(network: Network, postgres: NetnsPostgres, tmp_path: Path) -> Iterator[Hosts]:
    """The league running: the submitter in the db namespace, a worker on each host, both past
    their start (referee and bots up, a game finished each); every process killed at the end."""
    postgres.create("league")
    url = postgres.url("league")  # the hosts reach the database on the db namespace's address
    path = league_file(tmp_path, url)
    db = Db(postgres.local_url("league"))  # the test process reaches it through the server's Unix socket
    logs = {"a": tmp_path / "a.log", "b": tmp_path / "b.log", "submitter": tmp_path / "submitter.log"}
    submitter = network.db.popen(MIZERKA, "league", "run", str(path), stdout=open(logs["submitter"], "w"),  # noqa: SIM115
                                 stderr=subprocess.STDOUT)
    a = start_worker(network.hosts["a"], url, tmp_path / "a")
    b = start_worker(network.hosts["b"], url, tmp_path / "b")
    scene = Scene(db, {"submitter": submitter, "a": a, "b": b}, logs)
    run = Hosts(network, path, db, scene, a, b, submitter)
    try:
        run.id_a, run.id_b = worker_id(scene, "a"), worker_id(scene, "b")
        scene.wait("both hosts finishing games", lambda: {run.id_a, run.id_b} <= {r.lease_owner for r in db.rows(
            "select lease_owner from league_games where status = 'FINISHED'")}, 180)
        yield run
    finally:
        os.kill(a.pid, signal.SIGCONT)  # if still held
        for p in (submitter, a, b):
            if p.poll() is None:
                p.kill()
                p.wait()
        db.engine.dispose()


def check_league(run: Hosts, reference: dict[str, Any]) -> None:
    """Every game finished exactly once, each by a match of its own; the standings of one host;
    no bot charged with a fault."""
    counted = run.db.finished()
    assert len(counted) == GAMES and len(set(counted.values())) == GAMES
    done = run.network.db.run(MIZERKA, "league", "standings", str(run.path), "--json")
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got == reference
    for bot in got["bots"]:
        assert bot["faults"] == NO_FAULTS and bot["crashes"] == 0 and not bot["disabled"], bot


@pytest.mark.timeout(900)
def test_a_host_cut_off_mid_game_loses_its_games_to_another_and_its_late_result_is_refused(
    network: Network, postgres: NetnsPostgres, tmp_path: Path, reference: dict[str, Any]
) -> None:
    host_a = network.hosts["a"]
    with league_on_two_hosts(network, postgres, tmp_path) as run:
        db, scene, id_a, id_b = run.db, run.scene, run.id_a, run.id_b
        # A's worker holds the result of a game its referee has ended (see hold_a_result)
        game, match, held_at = hold_a_result(scene, run.a, id_a)
        # cut A's link, and let its worker go on behind the cut, holding a result it has not written
        host_a.link(up=False)
        cut_at = time.time()
        os.kill(run.a.pid, signal.SIGCONT)
        held_s = time.monotonic() - held_at
        held = {r.key: r for r in db.rows(
            "select key, attempt, match_id, lease_expires from league_games where lease_owner = :a and status = 'RUNNING'",
            a=id_a)}
        assert game in held, (game, held)

        # B takes A's games over once their leases expire, and plays them to the end
        def taken_over() -> bool:
            rows = db.rows("select key, status, attempt, lease_owner from league_games where key = any(:k)", k=list(held))
            return all(r.status == "FINISHED" and r.lease_owner == id_b and r.attempt > held[r.key].attempt for r in rows)

        scene.wait("host B finishing the games of the cut host", taken_over, 240)
        host_a.link(up=True)
        restored_at = time.time()

        # A's late result is refused once the link is back (it tries again every few seconds)
        scene.wait("the database refusing A's late result", lambda: [
            e for e in events(scene.logs["a"]) if e["event"] in ("refused", "game") and e.get("game") == game], 60, ("a",))
        assert run.submitter.wait(timeout=600) == 0, scene.logs["submitter"].read_text()[-5000:]
        assert run.a.poll() is None and run.b.poll() is None, scene.explain()  # done: both wait for the next league

        log_a, log_b = events(scene.logs["a"]), events(scene.logs["b"])
        # A's referee ended the match before the cut; A's worker wrote its result behind the cut (a
        # request waiting in the dead link, or tries again), and the database refused it once it answered
        ends = [e for e in events(next((tmp_path / "a").rglob("referee.log")))
                if e["event"] == "match ended" and e.get("match_id") == match]
        assert [e["status"] for e in ends] == ["FINISHED"] and when(ends[0]) < cut_at, ends
        refused = [e for e in log_a if e["event"] == "refused"]
        assert [(e["game"], e["match"]) for e in refused if e["game"] == game] == [(game, match)], (
            f"A's worker was held {held_s:.1f} s before the cut\n{summary(scene.logs['a'])}")
        assert all(when(e) >= restored_at for e in refused if e["game"] in held), refused
        gave_up = [e for e in log_a if e.get("gave_up")]  # a write given up is logged as refused too: not this
        assert not gave_up, summary(scene.logs["a"])
        assert not [e for e in log_a if e["event"] == "game" and e["game"] in held], summary(scene.logs["a"])  # none counted
        # B retook each of A's games once its lease had expired (the database's clock: the same machine's)
        retaken = {e["game"]: e for e in log_b if e["event"] == "retaken"}
        for key, row in held.items():
            assert key in retaken and retaken[key]["from"] == id_a, (key, summary(scene.logs["b"]))
            assert when(retaken[key]) >= row.lease_expires - 0.5, (key, row.lease_expires, retaken[key])
        # the game's result is that of B's match; A's finished match is kept aside, not counted
        row = db.rows("select status, match_id, lease_owner, discarded from league_games where key = :k", k=game)[0]
        assert row.status == "FINISHED" and row.lease_owner == id_b and row.match_id != match, row
        assert match in row.discarded, row
        referees = {r.id: (r.status, r.referee) for r in db.rows(
            "select id, status, referee from matches where id = any(:m)", m=[match, row.match_id])}
        assert referees == {match: ("FINISHED", f"worker-{id_a}"), row.match_id: ("FINISHED", f"worker-{id_b}")}, referees
        assert not {r.match_id for r in held.values() if r.match_id} & set(db.finished().values())
        check_league(run, reference)


# The session of the cut host that the test keeps waiting for a row lock, so that the cut falls
# inside one of its transactions: its worker renewing its leases (league_games), or its referee
# storing the end of a match (matches; FOR NO KEY UPDATE lets the game's row in, whose foreign key
# takes a KEY SHARE lock on the match, and stops the match's status update).
# The lock the test takes on a game host A is playing, and the statement of A's it then holds up. The
# lock asks for the row only while the game still runs: one that ended since the test chose it would
# never be written by A again, and the league's own last statements would be the ones to wait.
INSIDE = {
    "worker": ("select 1 from league_games where key = :key and status = 'RUNNING' for update", "UPDATE league_games"),
    "referee": ("select 1 from matches where id = :match and status = 'RUNNING' for no key update", "UPDATE matches"),
}


def lock_a_game_of_host_a(run: Hosts, conn: sa.Connection, lock: str) -> None:
    """Hold ``lock`` on a game host A is playing, in ``conn``'s open transaction; a game that ends
    between being chosen and being locked is let go, and another one chosen."""
    for _ in range(20):
        key, match = run.scene.wait("host A playing a game", lambda: run.db.rows(
            "select g.key, g.match_id from league_games g join matches m on m.id = g.match_id where g.lease_owner = :a "
            "and g.status = 'RUNNING' and m.status = 'RUNNING' limit 1", a=run.id_a), 180)[0]
        conn.execute(sa.text("set lock_timeout = '10s'"))
        if conn.execute(sa.text(lock), {"key": key, "match": match}).first() is not None:
            return
        conn.rollback()
    raise AssertionError("20 games of host A in a row ended between being chosen and being locked")


@pytest.mark.timeout(900)
@pytest.mark.parametrize("session", sorted(INSIDE))
def test_a_host_cut_off_inside_a_transaction_does_not_hold_its_games_forever(
    session: str, network: Network, postgres: NetnsPostgres, tmp_path: Path, reference: dict[str, Any]
) -> None:
    """A link cut between a statement and its COMMIT leaves the host's session open on the server,
    in its transaction, holding its row locks, for as long as the server takes to notice that the
    client is gone (the operating system's TCP keepalive: two hours by default). The league must not
    wait for that: the other host takes the games over and the league finishes."""
    host_a = network.hosts["a"]
    with league_on_two_hosts(network, postgres, tmp_path) as run:
        db, scene = run.db, run.scene
        lock, statement = INSIDE[session]
        with db.engine.connect() as conn:
            lock_a_game_of_host_a(run, conn, lock)
            me = conn.execute(sa.text("select pg_backend_pid()")).scalar_one()
            # waiting for this very lock: a session that waits for another of host A's own (its referee's,
            # say) would wait on after the cut, until its keepalives end it, never idle in its transaction
            waiting = scene.wait(f"a session of host A waiting in {statement} for the test's lock", lambda: db.rows(
                "select pid from pg_stat_activity where client_addr = :ip and wait_event_type = 'Lock' and query like :q "
                "and :me = any(pg_blocking_pids(pid))", ip=host_a.address, q=statement + "%", me=me), 60)
            host_a.link(up=False)
            conn.rollback()
        # the host's statement has gone through; its COMMIT never comes
        scene.wait("the cut host's session left inside its transaction", lambda: db.rows(
            "select 1 from pg_stat_activity where pid = :pid and state like 'idle in transaction%'", pid=waiting[0].pid), 30)
        scene.wait("host B finishing the league without the cut host", lambda: run.submitter.poll() is not None, 150,
                   ("submitter", "b"))
        assert run.submitter.returncode == 0, scene.logs["submitter"].read_text()[-5000:]
        host_a.link(up=True)
        time.sleep(LEASE_S)
        assert run.a.poll() is None, f"the cut host's worker died\n{summary(scene.logs['a'])}"
        check_league(run, reference)
