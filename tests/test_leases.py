"""The lease protocol on a real PostgreSQL server (tests/pg.py): claims never overlap, a result is
written once and only under a lease that holds, an expired lease's game is retaken and its late
result refused, games of one deal group are never in flight together, a stopping worker's games go
back at once. Expiry is made by moving a lease's end into the past in the database, not by
waiting, so nothing here depends on timing."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
import trio
from prometheus_client import CollectorRegistry

from server.storage.store import ABORTED, FINISHED, PENDING, RUNNING, StoreError
from tournaments import progress
from tournaments.config import parse_league
from tournaments.store import LeagueGame, LeagueStore, league_games
from tournaments.workers.leases import LeagueState, Lease, Leases, new_worker_id, submit
from tournaments.workers.leases import progress as game_counts
from tournaments.workers.submitter import prepare
from tournaments.workers.worker import LeaseLedger, Worker, WorkerSettings

from pg import pg_server, pg_url  # noqa: F401 (fixtures)

FAULTS = [{"timeouts": 0, "refusals": 0, "defaults": 0, "forfeits": 0, "disconnects": 0}] * 3


def league_text(duplicate: bool = False, games: int = 2) -> str:
    lines = ['name = "lz"', 'preset = "mizerka-short"', 'seed = "fixed"', f"games_per_table = {games}",
             f"duplicate = {'true' if duplicate else 'false'}"]
    for bot in ("a", "b", "c", "d"):
        lines += ["[[bots]]", f'name = "{bot}"', 'command = ["mizerka-bot", "random"]']
    return "\n".join(lines) + "\n"


@pytest.fixture
def store(pg_url: str, tmp_path: Path) -> Iterator[LeagueStore]:  # noqa: F811
    s = LeagueStore(pg_url)
    yield s
    s.close()


def submitted(store: LeagueStore, tmp_path: Path, text: str) -> str:
    path = tmp_path / "lz.toml"
    path.write_text(text)
    league = parse_league(text, path)
    prepare(store, league, fresh=False)
    submit(store, league.name, text, path)
    return league.name


def worker(store: LeagueStore, lease_s: float = 30.0) -> Leases:
    leases = Leases(store, new_worker_id(), lease_s)
    leases.join(2)
    return leases


def expire(store: LeagueStore, key: str) -> None:
    """The lease on ``key`` ran out (its worker stopped renewing it)."""
    with store.engine.begin() as conn:
        conn.execute(league_games.update().where(league_games.c.key == key).values(lease_expires=0.0))


def row(store: LeagueStore, key: str) -> LeagueGame:
    return next(r for r in store.league_games("lz") if r.key == key)


def test_a_sqlite_file_is_refused_with_a_reason(tmp_path: Path) -> None:
    s = LeagueStore(tmp_path / "x.sqlite")
    try:
        with pytest.raises(StoreError, match="PostgreSQL"):
            Leases(s, new_worker_id(), 30)
    finally:
        s.close()


def test_claims_of_many_workers_at_once_never_overlap(store: LeagueStore, tmp_path: Path) -> None:
    name = submitted(store, tmp_path, league_text(games=5))  # 4 tables x 3 seatings x 5 = 60 games
    workers = [worker(store) for _ in range(6)]
    got: dict[str, list[str]] = {w.owner: [] for w in workers}
    barrier = threading.Barrier(len(workers))

    def take(w: Leases) -> None:
        barrier.wait()
        while True:
            claims = w.claim(name, 3)  # SKIP LOCKED: empty while others hold the rest, so look again
            got[w.owner] += [c.lease.key for c in claims]
            if not claims and game_counts(store, name).running == 60:
                return

    threads = [threading.Thread(target=take, args=(w,)) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    keys = [k for ks in got.values() for k in ks]
    assert len(keys) == len(set(keys)) == 60
    assert sum(1 for ks in got.values() if ks) >= 2  # they really competed
    rows = store.league_games(name)
    assert all(r.status == RUNNING and r.attempt == 1 for r in rows)
    assert {r.key: r.lease_owner for r in rows} == {k: w for w, ks in got.items() for k in ks}


def test_a_result_is_written_once_and_only_under_the_lease(store: LeagueStore, tmp_path: Path) -> None:
    name = submitted(store, tmp_path, league_text())
    a, b = worker(store), worker(store)
    claim = a.claim(name, 1)[0]
    assert b.claim(name, 1)[0].lease.key != claim.lease.key  # held: not claimable
    assert a.started(claim.lease, "m-a")
    assert a.finish(claim.lease, "m-a", [1, 2, -3], FAULTS)
    assert not a.finish(claim.lease, "m-again", [9, 9, 9], FAULTS)  # exactly once
    r = row(store, claim.lease.key)
    assert r.status == FINISHED and r.match_id == "m-a" and r.totals == (1, 2, -3)


def test_an_expired_lease_is_retaken_and_its_late_result_refused(store: LeagueStore, tmp_path: Path) -> None:
    name = submitted(store, tmp_path, league_text())
    a, b = worker(store), worker(store)
    claim = a.claim(name, 1)[0]
    key = claim.lease.key
    assert a.started(claim.lease, "m-lost")
    with store.engine.begin() as conn:  # the lost match, as its referee stored it
        conn.execute(sa.text("insert into matches (id, status, preset, options, seed, games, clock, seats, forfeits, created_at) "
                             "values ('m-lost', 'RUNNING', 'p', '{}', 's', 1, '{}', '[]', '[]', 0)"))
    assert a.renew([claim.lease]) == []  # renewing keeps it
    expire(store, key)
    assert a.renew([claim.lease]) == [claim.lease]  # too late: lost
    retake = b.claim(name, 1)[0]
    assert retake.lease.key == key and retake.lease.attempt == 2 and retake.retaken_from == a.owner
    assert not a.finish(claim.lease, "m-lost", [5, 5, -10], FAULTS)  # the late result: refused
    assert not a.started(claim.lease, "m-late")
    assert b.started(retake.lease, "m-b") and b.finish(retake.lease, "m-b", [1, 1, -2], FAULTS)
    r = row(store, key)
    assert r.status == FINISHED and r.match_id == "m-b" and r.totals == (1, 1, -2) and r.discarded == ("m-lost",)
    assert store.match("m-lost").status == ABORTED


def test_an_expired_lease_not_yet_retaken_still_refuses_the_late_result(store: LeagueStore, tmp_path: Path) -> None:
    name = submitted(store, tmp_path, league_text())
    a = worker(store)
    claim = a.claim(name, 1)[0]
    expire(store, claim.lease.key)
    assert not a.finish(claim.lease, "m", [0, 0, 0], FAULTS)
    assert row(store, claim.lease.key).status == RUNNING  # claimable again, no result


def test_games_of_one_deal_group_are_never_in_flight_together(store: LeagueStore, tmp_path: Path) -> None:
    name = submitted(store, tmp_path, league_text(duplicate=True))  # 8 deal groups of 3 seatings
    a, b = worker(store), worker(store)
    first = a.claim(name, 100)
    assert len(first) == 8 and len({c.row.seed for c in first}) == 8
    assert b.claim(name, 100) == []  # every group has a game in flight
    done = first[0]
    assert a.finish(done.lease, "m", [0, 0, 0], FAULTS)
    nxt = b.claim(name, 100)
    assert [c.row.seed for c in nxt] == [done.row.seed] and nxt[0].row.position > done.row.position


def test_a_stopping_worker_hands_its_games_back_at_once(store: LeagueStore, tmp_path: Path) -> None:
    name = submitted(store, tmp_path, league_text())
    a, b = worker(store), worker(store)
    claims = a.claim(name, 2)
    assert a.started(claims[0].lease, "m-0")
    assert a.release([c.lease for c in claims], {claims[0].lease.key: "m-0"}) == 2
    for c in claims:
        r = row(store, c.lease.key)
        assert r.status == PENDING and r.lease_owner is None
    assert row(store, claims[0].lease.key).discarded == ("m-0",)
    assert not a.finish(claims[0].lease, "m-0", [0, 0, 0], FAULTS)  # handed back: no longer a's
    again = b.claim(name, 2)
    assert {c.lease.key for c in again} == {c.lease.key for c in claims} and all(c.retaken_from is None for c in again)


def test_progress_counts_games_by_worker(store: LeagueStore, tmp_path: Path) -> None:
    name = submitted(store, tmp_path, league_text())
    a = worker(store)
    claims = a.claim(name, 3)
    a.finish(claims[0].lease, "m", [0, 0, 0], FAULTS)
    seen = game_counts(store, name)
    assert (seen.total, seen.finished, seen.running) == (24, 1, 2)
    assert list(seen.by_worker.values()) == [{"running": 2, "finished": 1}]
    assert store.league_state(name) == LeagueState.OPEN


def test_a_game_that_ends_while_its_lease_is_renewed_is_not_counted_lost(store: LeagueStore, tmp_path: Path) -> None:
    """The heartbeat renews a snapshot of the held leases in a thread; a game recorded meanwhile
    makes the database answer "no longer held". That is the game ending, not a lost lease: no
    `lease-lost`, no count in mizerka_worker_leases_lost. A lease that really expired still is."""
    name = submitted(store, tmp_path, league_text())
    leases = worker(store, lease_s=3.0)
    settings = WorkerSettings(db="unused", lease_s=3.0)
    registry = CollectorRegistry()
    events: list[progress.Event] = []
    w = Worker(settings, events.append, registry)
    ledger = LeaseLedger(leases, w.metrics, w.report)
    ended, expired = leases.claim(name, 2)
    for claim in (ended, expired):
        ledger.held[claim.lease.key] = claim.lease
    renewals = []

    def renew_while_one_ends(held: list[Lease]) -> list[Lease]:
        if not renewals:  # the first renewal: one game is recorded as it runs, the other's lease ran out
            assert leases.finish(ended.lease, "m-ended", [1, 1, -2], FAULTS)
            ledger.forget(ended.lease.key)
            expire(store, expired.lease.key)
        renewals.append(held)
        return Leases.renew(leases, held)

    leases.renew = renew_while_one_ends  # type: ignore[method-assign]

    async def beat() -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(w._heartbeat, leases, ledger, {}, None)
            with trio.fail_after(60):  # the first renewal comes a third of the lease in
                while ledger.held:  # until the renewal's answer is dealt with (the expired lease forgotten)
                    await trio.sleep(0.01)
            nursery.cancel_scope.cancel()

    trio.run(beat)
    assert {lease.key for lease in renewals[0]} == {ended.lease.key, expired.lease.key}
    assert [e.game for e in events if isinstance(e, progress.LeaseLost)] == [expired.lease.key]
    assert registry.get_sample_value("mizerka_worker_leases_lost_total") == 1
    assert ledger.held == {}


def test_a_result_given_up_on_is_counted_apart_from_a_refused_one(store: LeagueStore, tmp_path: Path) -> None:
    """A result the database refused (the lease no longer held) and one never written (the
    database out of reach until the worker gave up) are different news for an organiser."""
    name = submitted(store, tmp_path, league_text())
    leases = worker(store)
    registry = CollectorRegistry()
    events: list[progress.Event] = []
    w = Worker(WorkerSettings(db="unused"), events.append, registry)
    ledger = LeaseLedger(leases, w.metrics, w.report)
    refused, unreachable, written = leases.claim(name, 3)
    for claim in (refused, unreachable, written):
        ledger.held[claim.lease.key] = claim.lease
    expire(store, refused.lease.key)
    assert not ledger.finished(refused.row, "m-late", [0, 0, 0], FAULTS)

    def out_of_reach(*_: object) -> bool:
        raise sa.exc.OperationalError("UPDATE league_games", {}, ConnectionError("server closed the connection"))

    real_finish, leases.finish = leases.finish, out_of_reach  # type: ignore[method-assign]
    ledger.give_up_s = 0.0  # give up at the first failure
    assert not ledger.finished(unreachable.row, "m-cut", [0, 0, 0], FAULTS)
    leases.finish = real_finish  # type: ignore[method-assign]
    assert ledger.finished(written.row, "m-ok", [1, 1, -2], FAULTS)
    counts = {n: registry.get_sample_value(f"mizerka_worker_{n}_total")
              for n in ("results_refused", "results_given_up", "games_finished")}
    assert counts == {"results_refused": 1, "results_given_up": 1, "games_finished": 1}
    assert [e.gave_up for e in events if isinstance(e, progress.DatabaseLost)] == ["out_of_reach"]
