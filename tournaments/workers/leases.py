"""How workers on many hosts share a league's games through its PostgreSQL database: leases.

A worker claims a game by a lease on its row (``SELECT ... FOR UPDATE SKIP LOCKED``, then a
conditional update that bumps the game's ``attempt``), keeps the lease alive by a heartbeat, and
writes the result only while its lease holds: the row's key is unique, and the finishing update
names the attempt and checks the expiry in the same statement, so a late result from an expired or
retaken lease changes nothing (it is *refused*). A game whose lease expired (its worker died, or
lost the network or the database) is claimable again: the next claim records the lost match in
``discarded`` and marks it ABORTED, and plays the game from its seed. Every time is the database's
clock, so the hosts' clocks need not agree.

Games dealing the same cards (``duplicate = true``) are claimable one at a time, in schedule order:
a game is claimable only when every earlier game of its deal group has its result, so no two of
them can ever be in flight at once, whatever the number of workers (docs/leagues.md, Duplicate
deals).

No broker, no cluster manager: the database's row locks and one conditional UPDATE per step are
the whole protocol (docs/scale-out.md).
"""

from __future__ import annotations

import os
import socket
import time
import uuid
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from server.storage.store import ABORTED, FINISHED, PENDING, RUNNING, StoreError, matches
from tournaments.store import LeagueStore, ScheduledGame, league_games, leagues, workers


class LeagueState(StrEnum):
    """``leagues.state``: who plays the league's games (NULL: one runner on its own host)."""

    OPEN = "OPEN"  # submitted: workers take its games
    DONE = "DONE"  # every game has its result, or the league settled (stop = "settled"); workers take no more


@dataclass(frozen=True, slots=True)
class Lease:
    """The right to play one attempt of one game, and to write its result while it holds."""

    league: str
    key: str
    attempt: int
    owner: str  # workers.id


@dataclass(frozen=True, slots=True)
class Claim:
    lease: Lease
    row: ScheduledGame
    retaken_from: str | None = None  # the worker whose lease on it had expired, if any


@dataclass(frozen=True, slots=True)
class Submitted:
    """A league open to workers: what a worker needs to play its games."""

    name: str
    text: str  # the league file
    path: Path  # where it was read (relative paths in it are relative to its folder)
    secret: str


@dataclass(slots=True)
class Progress:
    """A league's games by status, and the games each worker holds and has finished."""

    total: int = 0
    finished: int = 0
    running: int = 0
    by_worker: dict[str, dict[str, int]] = field(default_factory=dict)  # worker host/pid -> running, finished


def db_now(conn: sa.Connection) -> float:
    """The database's clock in seconds since the epoch: one clock for every host's leases."""
    if conn.dialect.name == "postgresql":
        return float(conn.execute(sa.text("SELECT extract(epoch FROM clock_timestamp())")).scalar_one())
    return float(conn.execute(sa.text("SELECT (julianday('now') - 2440587.5) * 86400.0")).scalar_one())


def _held(lease: Lease, now: float) -> sa.ColumnElement[bool]:
    """The lease still holds: same attempt, same owner, not expired, no result yet."""
    g = league_games.c
    return sa.and_(g.league == lease.league, g.key == lease.key, g.attempt == lease.attempt, g.lease_owner == lease.owner,
                   g.status == RUNNING, g.lease_expires >= now)


class Leases:
    """One worker's side of the protocol; every method is one short transaction (call them from a
    thread: they block on the database)."""

    def __init__(self, store: LeagueStore, owner: str, lease_s: float) -> None:
        if store.engine.dialect.name != "postgresql":
            raise StoreError("workers share leagues through a PostgreSQL database (--db postgresql://...); a SQLite "
                             "file is for one host: play the league there with `mizerka league run`")
        self.store = store
        self.owner = owner
        self.lease_s = lease_s

    # ------------------------------------------------------------------------------- leagues
    def open_league(self, skip: Collection[str] = ()) -> Submitted | None:
        """The oldest league open to workers that has a game to claim now, if any (not one of ``skip``)."""
        with self.store.engine.connect() as conn:
            now = db_now(conn)
            row = conn.execute(
                sa.select(leagues.c.name, leagues.c.spec, leagues.c.secret)
                .where(leagues.c.state == LeagueState.OPEN, sa.exists().where(_claimable(leagues.c.name, now)),
                       leagues.c.name.notin_(list(skip)))
                .order_by(leagues.c.created_at).limit(1)
            ).first()
        if row is None:
            return None
        return Submitted(row.name, row.spec["text"], Path(row.spec["path"]), row.secret)

    # --------------------------------------------------------------------------------- games
    def claim(self, league: str, n: int) -> list[Claim]:
        """Lease up to ``n`` claimable games of ``league``, in schedule order; none once the league
        is closed (stop = "settled" closes it with games left)."""
        g = league_games.c
        out: list[Claim] = []
        with self.store.engine.begin() as conn:
            # a lost match's row may be locked by its referee's session on a host cut off mid-write:
            # give up this round (the caller tries again) rather than wait for that session to die
            conn.execute(sa.text("SET LOCAL lock_timeout = '2s'"))
            now = db_now(conn)
            still_open = sa.exists().where(leagues.c.name == league, leagues.c.state == LeagueState.OPEN)
            rows = conn.execute(
                sa.select(g.key, g.attempt, g.status, g.match_id, g.lease_owner, g.discarded, g.unit, g.seats, g.seed,
                          g.position)
                .where(_claimable(league, now), still_open).order_by(g.position).limit(n)
                .with_for_update(skip_locked=True, of=league_games)
            ).mappings().all()
            for row in rows:
                attempt = (row["attempt"] or 0) + 1
                lost = row["match_id"] if row["status"] == RUNNING else None
                values: dict[str, Any] = {"status": RUNNING, "attempt": attempt, "lease_owner": self.owner,
                                          "lease_expires": now + self.lease_s, "match_id": None}
                if lost:
                    values["discarded"] = [*(row["discarded"] or []), lost]
                done = conn.execute(league_games.update().where(
                    g.league == league, g.key == row["key"], sa.func.coalesce(g.attempt, 0) == (row["attempt"] or 0),
                    g.status != FINISHED).values(**values))
                if done.rowcount != 1:
                    continue
                if lost:
                    conn.execute(matches.update().where(matches.c.id == lost, matches.c.status.notin_((FINISHED, ABORTED)))
                                 .values(status=ABORTED, finished_at=time.time(),
                                         error="the lease of the worker playing it expired; the game was played again"))
                retaken = row["lease_owner"] if row["status"] == RUNNING else None
                out.append(Claim(Lease(league, row["key"], attempt, self.owner), ScheduledGame.of(row), retaken))
        return out

    def started(self, lease: Lease, match_id: str) -> bool:
        """Note the game's match; False if the lease no longer holds (the match must be aborted)."""
        with self.store.engine.begin() as conn:
            now = db_now(conn)
            done = conn.execute(league_games.update().where(_held(lease, now)).values(match_id=match_id))
        return done.rowcount == 1

    def renew(self, held: Sequence[Lease]) -> list[Lease]:
        """Extend every lease in ``held``; returns those that no longer hold (expired or retaken)."""
        lost = []
        with self.store.engine.begin() as conn:
            now = db_now(conn)
            for lease in held:
                done = conn.execute(league_games.update().where(_held(lease, now)).values(lease_expires=now + self.lease_s))
                if done.rowcount != 1:
                    lost.append(lease)
            conn.execute(workers.update().where(workers.c.id == self.owner).values(seen_at=now))
        return lost

    def finish(self, lease: Lease, match_id: str, totals: Sequence[int], faults: Sequence[Mapping[str, int]]) -> bool:
        """Write the game's result, exactly once and only while the lease holds; False: refused."""
        with self.store.engine.begin() as conn:
            now = db_now(conn)
            done = conn.execute(league_games.update().where(_held(lease, now)).values(
                status=FINISHED, match_id=match_id, totals=list(totals), faults=[dict(f) for f in faults],
                finished_at=time.time(), lease_expires=None))
        return done.rowcount == 1

    def release(self, held: Sequence[Lease], match_ids: Mapping[str, str]) -> int:
        """Hand games back (a worker stopping): PENDING again at once, their matches (aborted by
        the worker) kept in ``discarded``. Returns how many were handed back."""
        g = league_games.c
        count = 0
        with self.store.engine.begin() as conn:
            now = db_now(conn)
            for lease in held:
                row = conn.execute(sa.select(g.discarded).where(_held(lease, now))).first()
                if row is None:
                    continue
                lost = match_ids.get(lease.key)
                discarded = [*(row.discarded or []), lost] if lost else row.discarded
                conn.execute(league_games.update().where(_held(lease, now)).values(
                    status=PENDING, match_id=None, lease_owner=None, lease_expires=None, discarded=discarded))
                count += 1
        return count

    # ------------------------------------------------------------------------------- workers
    def join(self, slots: int) -> None:
        """Enter this worker in the workers table (what `league run` shows)."""
        with self.store.engine.begin() as conn:
            now = db_now(conn)
            conn.execute(workers.insert().values(id=self.owner, host=socket.gethostname(), pid=os.getpid(), slots=slots,
                                                 started_at=now, seen_at=now))

    def leave(self) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(workers.update().where(workers.c.id == self.owner).values(stopped_at=db_now(conn)))


def new_worker_id() -> str:
    return f"w-{uuid.uuid4().hex[:12]}"


def _claimable(league: str | sa.ColumnElement[str], now: float) -> sa.ColumnElement[bool]:
    """A game with no result, not held by a live lease (never claimed, handed back, expired, or left
    RUNNING by a runner that stopped), and no earlier game of its deal group without a result."""
    g = league_games.c
    earlier = league_games.alias("earlier")
    waiting = sa.exists().where(earlier.c.league == g.league, earlier.c.seed == g.seed,
                                earlier.c.position < g.position, earlier.c.status != FINISHED)
    free = sa.or_(g.status == PENDING, g.lease_expires.is_(None), g.lease_expires < now)
    return sa.and_(g.league == league, g.status != FINISHED, free, ~waiting)


# ----------------------------------------------------------------------------- the submitter
def submit(store: LeagueStore, name: str, text: str, path: Path) -> None:
    """Open a stored league (schedule and bots in place) to the workers."""
    with store.engine.begin() as conn:
        conn.execute(leagues.update().where(leagues.c.name == name).values(
            state=LeagueState.OPEN, spec={"text": text, "path": str(path.resolve())}))


def close(store: LeagueStore, name: str) -> None:
    with store.engine.begin() as conn:
        conn.execute(leagues.update().where(leagues.c.name == name).values(state=LeagueState.DONE))


def in_flight(store: LeagueStore, name: str) -> int:
    """Games of the league under a live lease: a league closed early is published once none is left
    (an expired lease's match is stopped by its worker, or died with it)."""
    g = league_games.c
    with store.engine.connect() as conn:
        now = db_now(conn)
        return int(conn.execute(sa.select(sa.func.count()).where(
            g.league == name, g.status == RUNNING, g.lease_expires >= now)).scalar_one())


def progress(store: LeagueStore, name: str) -> Progress:
    """Counts for `league run`'s live view: games by status, and by the worker holding them."""
    g = league_games.c
    out = Progress()
    with store.engine.connect() as conn:
        names = {r.id: f"{r.host}/{r.pid}" for r in conn.execute(sa.select(workers.c.id, workers.c.host, workers.c.pid))}
        for status, owner, count in conn.execute(
            sa.select(g.status, g.lease_owner, sa.func.count()).where(g.league == name).group_by(g.status, g.lease_owner)
        ):
            out.total += count
            if status == FINISHED:
                out.finished += count
            elif status == RUNNING:
                out.running += count
            if owner is not None and status in (FINISHED, RUNNING):
                mine = out.by_worker.setdefault(names.get(owner, owner), {"running": 0, "finished": 0})
                mine["running" if status == RUNNING else "finished"] += count
    return out
