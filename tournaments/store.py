"""A league's database: the referee's tables (bots, matches, games) plus the league's own.

The league runner, its local referee and ``league standings`` share one SQLite file. The referee
opens it with :class:`server.storage.store.Store`, which knows only bots, matches and their games; the
league's schedule, results and bot processes are kept here, in tables of their own that the
referee never reads. The tables are created and migrated with the referee's (server/storage/migrations,
one schema for both); those below are this module's view of them.

Secrets here: the deal secret and each bot's token in plain text (the runner must hand every bot
process its token, and the referee only keeps their hashes), so the file is its user's alone (0600,
see :func:`server.storage.store.database_url`). The admin token is not kept: the runner reads it from the
referee's DB.admin-token file; the column stays, emptied, for older files.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

import sqlalchemy as sa

from server.storage.store import FINISHED, PENDING, RUNNING, Store, StoreError
from tournaments.standings.results import GameResult

if TYPE_CHECKING:
    from tournaments.schedule import Slot

metadata = sa.MetaData()

leagues = sa.Table(
    "leagues",
    metadata,
    sa.Column("name", sa.String(200), primary_key=True),
    sa.Column("fingerprint", sa.JSON, nullable=False),  # what the schedule depends on
    sa.Column("admin_token", sa.String(200), nullable=False),  # always "": no longer kept (see above)
    sa.Column("created_at", sa.Float, nullable=False),
    # The key every game seed derives from (tournaments/schedule.py): random unless the league file
    # gives a seed. Whoever reads it can compute every deal of the league.
    sa.Column("secret", sa.String(200)),
    # NULL: played by one runner (`league run` on its own host). OPEN: submitted to the workers
    # (`league run` on a PostgreSQL database), who take its games; DONE: every game has a result, or
    # the league settled early (stop = "settled", tournaments/standings/sequential.py): the workers take no more.
    sa.Column("state", sa.String(16)),
    sa.Column("spec", sa.JSON),  # for the workers: the league file's text and path (tournaments/workers/leases.py)
)

league_bots = sa.Table(
    "league_bots",
    metadata,
    sa.Column("league", sa.String(200), sa.ForeignKey("leagues.name"), primary_key=True),
    sa.Column("name", sa.String(200), primary_key=True),
    sa.Column("bot_id", sa.String(64), nullable=False),
    sa.Column("token", sa.String(200), nullable=False),  # the runner launches the bot with it
    sa.Column("crashes", sa.Integer, nullable=False, default=0),
    sa.Column("disabled", sa.Text),  # why, once disabled
)

league_games = sa.Table(
    "league_games",
    metadata,
    sa.Column("league", sa.String(200), sa.ForeignKey("leagues.name"), primary_key=True),
    sa.Column("key", sa.String(100), primary_key=True),
    sa.Column("position", sa.Integer, nullable=False),  # schedule order
    sa.Column("unit", sa.String(100), nullable=False),
    sa.Column("seats", sa.JSON, nullable=False),  # bot names in seat order
    sa.Column("seed", sa.String(200), nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),  # PENDING, RUNNING, FINISHED
    sa.Column("match_id", sa.String(64)),
    sa.Column("totals", sa.JSON),
    sa.Column("faults", sa.JSON),
    sa.Column("finished_at", sa.Float),
    # Matches of this game that were in flight when a run of the league stopped (a crash, kill -9,
    # Ctrl-C): their results, if any, were discarded and the game played again (docs/leagues.md).
    sa.Column("discarded", sa.JSON),
    # A worker's lease on the game (tournaments/workers/leases.py): it plays the game while the lease holds,
    # and its result counts only if the lease still holds. ``attempt`` counts the claims.
    sa.Column("attempt", sa.Integer),
    sa.Column("lease_owner", sa.String(64)),  # workers.id
    sa.Column("lease_expires", sa.Float),  # the database's clock, seconds since the epoch
)

workers = sa.Table(
    "workers",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("host", sa.String(200), nullable=False),
    sa.Column("pid", sa.Integer, nullable=False),
    sa.Column("slots", sa.Integer, nullable=False),
    sa.Column("started_at", sa.Float, nullable=False),
    sa.Column("seen_at", sa.Float, nullable=False),  # its last heartbeat (the database's clock)
    sa.Column("stopped_at", sa.Float),
)


@dataclass(frozen=True, slots=True)
class GameKey:
    """A league's name for one of its games: the league and the game's key (``t0/g0/s2``)."""

    league: str
    key: str

    def __str__(self) -> str:
        return f"{self.league} {self.key}"


class Row:
    """A record of a league table's row: its columns by name (JSON arrays as tuples)."""

    __slots__ = ()

    @classmethod
    def of(cls, row: Mapping[Any, Any]) -> Self:
        """The record of ``row``, which has (at least) a column for each of its fields."""
        return cls(**{f.name: _frozen(row[f.name]) for f in fields(cls)})  # type: ignore[arg-type]


def _frozen(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


@dataclass(frozen=True, slots=True)
class ScheduledGame(Row):
    """A game of the league's schedule, as stored: what playing it takes."""

    key: str  # its name in the league (``t0/g0/s2``)
    position: int  # schedule order
    unit: str  # its set (tournaments/schedule.py)
    seats: tuple[str, ...]  # bot names in seat order
    seed: str


@dataclass(frozen=True, slots=True)
class LeagueGame(ScheduledGame):
    """A row of ``league_games``: a scheduled game, where it stands, and its result once it has one."""

    league: str
    status: str  # PENDING, RUNNING or FINISHED
    match_id: str | None  # its match: the one playing (RUNNING) or the one its result is of (FINISHED)
    totals: tuple[int, ...] | None
    faults: tuple[Mapping[str, int], ...] | None  # per seat, keys of tournaments.standings.stats.FAULTS
    finished_at: float | None
    discarded: tuple[str, ...] | None  # matches of it in flight when a run stopped (see the table)
    attempt: int | None  # a worker's claims of it (tournaments/workers/leases.py)
    lease_owner: str | None
    lease_expires: float | None

    @property
    def result(self) -> GameResult | None:
        """The game as the statistics read it, once it has its result."""
        if self.status != FINISHED or self.totals is None:
            return None
        return GameResult(self.key, self.unit, self.seats, self.totals, self.faults or ())


@dataclass(frozen=True, slots=True)
class LeagueBot(Row):
    """A row of ``league_bots``: a league's bot as registered with the referee, and its crashes."""

    league: str
    name: str
    bot_id: str
    token: str  # the runner starts its processes with it
    crashes: int  # every runner's and worker's of the league together
    disabled: str | None  # why, once disabled


class LeagueStore(Store):
    """The referee's store plus leagues: a report reads a league's games through the referee's
    tables (matches, logs, bot names), so one object opens both."""

    def __init__(self, url: str | Path) -> None:
        super().__init__(url)  # one schema: opening the store migrated the league tables too

    def open_league(self, name: str, fingerprint: Mapping[str, Any], secret: str) -> str:
        """Create the league, or check that an existing one has the same schedule; returns the
        league's deal secret, kept from its first run (a resumed league deals the same cards). An
        admin token that an older version kept here is erased."""
        with self.engine.begin() as conn:
            row = conn.execute(sa.select(leagues).where(leagues.c.name == name)).first()
            if row is None:
                conn.execute(leagues.insert().values(name=name, fingerprint=dict(fingerprint), admin_token="",
                                                     created_at=time.time(), secret=secret))
                return secret
            changed = sorted(k for k in set(row.fingerprint) | set(fingerprint) if row.fingerprint.get(k) != fingerprint.get(k))
            if changed:
                raise StoreError(
                    f"league {name!r} was started with a different {', '.join(changed)}; its results would not fit the "
                    "new schedule: restore the league file, rename the league, or start over with --fresh"
                )
            if row.secret is None:  # a league created before leagues had secrets
                conn.execute(leagues.update().where(leagues.c.name == name).values(secret=secret))
            if row.admin_token:
                conn.execute(leagues.update().where(leagues.c.name == name).values(admin_token=""))
        return row.secret or secret

    def league_names(self) -> list[str]:
        """Every league this database holds (a data folder's file is shared by the leagues that name it)."""
        with self.engine.connect() as conn:
            return list(conn.execute(sa.select(leagues.c.name).order_by(leagues.c.name)).scalars())

    def league_state(self, name: str) -> str | None:
        """None: a league of one runner (or none yet); else its state among the workers (leases.LeagueState)."""
        with self.engine.connect() as conn:
            return conn.execute(sa.select(leagues.c.state).where(leagues.c.name == name)).scalar_one_or_none()

    def add_schedule(self, league: str, slots: Sequence[Slot]) -> None:
        """Insert the games of the league's whole schedule (tournaments/schedule.py) not yet stored (a
        resumed league keeps its rows)."""
        with self.engine.begin() as conn:
            have = {r.key for r in conn.execute(sa.select(league_games.c.key).where(league_games.c.league == league))}
            rows = [{"league": league, "key": s.key, "position": i, "unit": s.unit, "seats": list(s.seats), "seed": s.seed,
                     "status": PENDING} for i, s in enumerate(slots) if s.key not in have]
            if rows:
                conn.execute(league_games.insert(), rows)

    def league_games(self, league: str) -> list[LeagueGame]:
        """The league's games in schedule order."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(league_games).where(league_games.c.league == league).order_by(league_games.c.position)
            ).mappings().all()
        return [LeagueGame.of(r) for r in rows]

    def league_game(self, league: str, key: str) -> LeagueGame | None:
        """Game ``key`` of the league (``t0/g0/s2``): what a user names a game by, from the standings."""
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(league_games).where(league_games.c.league == league, league_games.c.key == key)
            ).mappings().first()
        return LeagueGame.of(row) if row else None

    def games_of_matches(self, match_ids: Sequence[str]) -> dict[str, GameKey]:
        """The league game each of ``match_ids`` played, for those a league played: a match id is
        the referee's name of a game, its league and key the standings' name."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(league_games.c.league, league_games.c.key, league_games.c.match_id)
                .where(league_games.c.match_id.in_(list(match_ids)))
            ).all()
        return {r.match_id: GameKey(r.league, r.key) for r in rows}

    def start_league_game(self, league: str, key: str, match_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                league_games.update()
                .where(league_games.c.league == league, league_games.c.key == key, league_games.c.status != FINISHED)
                .values(status=RUNNING, match_id=match_id)
            )

    def discard_in_flight(self, league: str) -> list[str]:
        """Games an earlier run left RUNNING were in flight when it stopped: their bots may have died
        with it, so whatever their matches gave must not count. Back to PENDING (to be played
        again), their match ids kept in ``discarded``; returns their keys."""
        with self.engine.begin() as conn:
            rows = conn.execute(
                sa.select(league_games.c.key, league_games.c.match_id, league_games.c.discarded)
                .where(league_games.c.league == league, league_games.c.status == RUNNING)
            ).all()
            for row in rows:
                conn.execute(
                    league_games.update()
                    .where(league_games.c.league == league, league_games.c.key == row.key, league_games.c.status == RUNNING)
                    .values(status=PENDING, match_id=None, discarded=[*(row.discarded or []), row.match_id])
                )
        return [row.key for row in rows]

    def finish_league_game(self, league: str, key: str, match_id: str, totals: Sequence[int], faults: Sequence[Mapping[str, int]]) -> bool:
        """Record a result exactly once; False if the game already had one."""
        with self.engine.begin() as conn:
            done = conn.execute(
                league_games.update()
                .where(league_games.c.league == league, league_games.c.key == key, league_games.c.status != FINISHED)
                .values(status=FINISHED, match_id=match_id, totals=list(totals), faults=[dict(f) for f in faults],
                        finished_at=time.time())
            )
        return done.rowcount == 1

    def league_bot(self, league: str, name: str) -> LeagueBot | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(league_bots).where(league_bots.c.league == league, league_bots.c.name == name)
            ).mappings().first()
        return LeagueBot.of(row) if row else None

    def league_bots(self, league: str) -> list[LeagueBot]:
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(league_bots).where(league_bots.c.league == league)).mappings().all()
        return [LeagueBot.of(r) for r in rows]

    def add_league_bot(self, league: str, name: str, bot_id: str, token: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(league_bots.insert().values(league=league, name=name, bot_id=bot_id, token=token, crashes=0))

    def count_crash(self, league: str, name: str) -> int:
        with self.engine.begin() as conn:
            conn.execute(
                league_bots.update()
                .where(league_bots.c.league == league, league_bots.c.name == name)
                .values(crashes=league_bots.c.crashes + 1)
            )
            return conn.execute(
                sa.select(league_bots.c.crashes).where(league_bots.c.league == league, league_bots.c.name == name)
            ).scalar_one()

    def disable_league_bot(self, league: str, name: str, reason: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                league_bots.update().where(league_bots.c.league == league, league_bots.c.name == name).values(disabled=reason)
            )

    def drop_league(self, league: str) -> None:
        """Forget a league's schedule, results and bots (``--fresh``)."""
        with self.engine.begin() as conn:
            for table in (league_games, league_bots, leagues):
                conn.execute(table.delete().where((table.c.league if table is not leagues else table.c.name) == league))
