"""Persistence for bots, matches and game results behind one interface (SQLAlchemy Core).

Only what the referee needs: leagues keep their own tables beside these (:mod:`tournaments.store`).

SQLite by default (a file, nothing to install); the same code runs on PostgreSQL given a
``postgresql://`` URL (:mod:`server.storage.database` opens both and keeps their schema up to date; the
tables below are the program's view of it, changed only together with a new migration). Every method blocks (SQLite waits up to 10 s for a lock held by
another process), so async callers run them in a worker thread (``asyncio.to_thread``) rather than
stall every game clock on the event loop.
"""

from __future__ import annotations

import hashlib
import secrets
import time
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from server.names import StoreError as StoreError  # re-exported: what callers of Store catch
from server.names import check_name, look_alike, shown
from server.storage.database import DatabaseError as DatabaseError  # re-exported: what callers of Store catch
from server.storage.database import database_url as database_url  # re-exported: where earlier versions had it
from server.storage.database import open_engine
from server.text import skeleton

metadata = sa.MetaData()

bots = sa.Table(
    "bots",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("name", sa.String(200), nullable=False, unique=True),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("created_at", sa.Float, nullable=False),
)

matches = sa.Table(
    "matches",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("preset", sa.String(64), nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("seed", sa.String(200), nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("clock", sa.JSON, nullable=False),
    sa.Column("seats", sa.JSON, nullable=False),  # bot ids in seat order
    sa.Column("forfeits", sa.JSON, nullable=False),  # seats played by the default policy from the start
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("finished_at", sa.Float),
    sa.Column("error", sa.Text),
    # Matches of a group (a league) keep their full record admin-only until the group is published.
    sa.Column("match_group", sa.String(200)),  # NULL or "": no group
    sa.Column("sealed", sa.Boolean),  # True until published; NULL (older rows) is False
    # The id of the referee process running it (``mizerka serve --referee-id``): several referees
    # share one PostgreSQL database, and each, on start, aborts only the matches it left. NULL: "default".
    sa.Column("referee", sa.String(200)),
)

games = sa.Table(
    "games",
    metadata,
    sa.Column("match_id", sa.String(64), sa.ForeignKey("matches.id"), primary_key=True),
    sa.Column("game_index", sa.Integer, primary_key=True),
    sa.Column("seed", sa.String(200), nullable=False),
    sa.Column("totals", sa.JSON, nullable=False),
    sa.Column("ranks", sa.JSON, nullable=False),
    sa.Column("seats", sa.JSON, nullable=False),  # per-seat fault records
    sa.Column("deals", sa.JSON, nullable=False),  # the deal results, as the match log's result lines say them
    sa.Column("log", sa.JSON, nullable=False),  # the match log's entry lines (server/codec/matchlog.py), action lines with turn metadata
    sa.Column("finished_at", sa.Float, nullable=False),
    sa.Column("header", sa.JSON),  # the match log's header line (server/codec/matchlog.py); NULL for older rows
)

PENDING, RUNNING, FINISHED, ABORTED = "PENDING", "RUNNING", "FINISHED", "ABORTED"
MAX_SEED = 200  # characters of a match seed
DEFAULT_REFEREE = "default"  # the referee id of a lone referee (and of matches stored before ids)


@dataclass(frozen=True, slots=True)
class Bot:
    id: str
    name: str


@dataclass(slots=True)
class MatchRow:
    id: str
    status: str
    preset: str
    options: dict[str, Any]
    seed: str
    games: int
    clock: dict[str, Any]
    seats: list[str]
    forfeits: list[int]
    created_at: float
    finished_at: float | None = None
    error: str | None = None
    match_group: str | None = None
    sealed: bool | None = None  # the full record is admin-only until published (None: older rows, not sealed)
    referee: str | None = None  # the referee id running it (None: older rows, the default referee)
    results: list[dict[str, Any]] = field(default_factory=list)

    @property
    def public(self) -> bool:
        """May anyone see the full record (hands, talons, seed)? Only once the match has ended, and
        for a match of a group only once the group is published (docs/protocol.md, Watching)."""
        return self.status in (FINISHED, ABORTED) and not self.sealed


def _hash(token: str) -> str:
    """What the referee keeps of a bot token: it only checks tokens, so a copy of its database lets
    no one play as a bot. A plain SHA-256 suffices for random 192-bit tokens (nothing to guess)."""
    return hashlib.sha256(token.encode()).hexdigest()


class Store:
    def __init__(self, url: str | Path, referee: str = DEFAULT_REFEREE) -> None:
        self.engine = open_engine(url)  # migrated to this program's schema (server/storage/migrations)
        self.referee = referee  # the id written on the matches this Store creates
        # Bots are never changed or removed, so what was once read stays true: a Hello or a new
        # match's seats need no query (and no wait) after the first. Only found bots are kept.
        self._bots: dict[str, Bot] = {}  # by id
        self._bots_by_token: dict[str, Bot] = {}  # by token hash

    def close(self) -> None:
        self.engine.dispose()

    # ----------------------------------------------------------------------------------- bots
    def add_bot(self, name: str) -> tuple[Bot, str]:
        """Register a bot; returns it with its new token (only its hash is kept)."""
        name = check_name(name)
        with self.engine.connect() as conn:
            twin = look_alike(name, conn.execute(sa.select(bots.c.name)).scalars())
        if twin is not None:
            raise StoreError(f"bot name {shown(name)} reads like the registered bot {shown(twin)} (one skeleton, "
                             f"{shown(skeleton(name))}: look-alike letters of other scripts, case, digits as letters); "
                             "choose a name that reads differently")
        token = secrets.token_urlsafe(24)
        bot = Bot(f"bot-{uuid.uuid4().hex[:12]}", name)
        token_hash = _hash(token)
        try:
            with self.engine.begin() as conn:
                conn.execute(bots.insert().values(id=bot.id, name=name, token_hash=token_hash, created_at=time.time()))
        except IntegrityError:
            raise StoreError(f"a bot named {name!r} is already registered") from None
        self._bots[bot.id] = self._bots_by_token[token_hash] = bot
        return bot, token

    def known_bot_by_token(self, token: str) -> Bot | None:
        """The bot with this token if this Store has seen it already; never blocks."""
        return self._bots_by_token.get(_hash(token))

    def bot_by_token(self, token: str) -> Bot | None:
        token_hash = _hash(token)
        bot = self._bots_by_token.get(token_hash)
        if bot is None:
            with self.engine.connect() as conn:
                row = conn.execute(sa.select(bots.c.id, bots.c.name).where(bots.c.token_hash == token_hash)).first()
            if row is not None:
                bot = self._bots[row.id] = self._bots_by_token[token_hash] = Bot(row.id, row.name)
        return bot

    def bot(self, bot_id: str) -> Bot | None:
        bot = self._bots.get(bot_id)
        if bot is None:
            with self.engine.connect() as conn:
                row = conn.execute(sa.select(bots.c.id, bots.c.name).where(bots.c.id == bot_id)).first()
            if row is not None:
                bot = self._bots[bot_id] = Bot(row.id, row.name)
        return bot

    def seat_names(self, seats: Iterable[str]) -> list[str]:
        """The seated bots' registered names, in seat order (an id no bot has stands for itself):
        the one lookup of the names every record, log, page and listing of a match shows."""
        return [(self.bot(b) or Bot(b, b)).name for b in seats]

    # -------------------------------------------------------------------------------- matches
    def create_match(
        self, preset: str, options: Mapping[str, Any], seed: str, games: int, clock: Mapping[str, Any],
        seats: Sequence[str], forfeits: Sequence[int] = (), group: str = "",
    ) -> MatchRow:
        """A new PENDING match, as stored; one of a ``group`` is sealed (its full record admin-only)
        until :meth:`publish`."""
        if len(seed) > MAX_SEED:
            raise StoreError(f"a seed must be at most {MAX_SEED} characters, got {len(seed)}")
        group = check_name(group, "a match group") if group else ""
        missing = [b for b in seats if self.bot(b) is None]
        if missing:
            raise StoreError(f"unknown bot id {shown(missing[0])}")
        row = MatchRow(
            id=f"m-{uuid.uuid4().hex[:16]}", status=PENDING, preset=preset, options=dict(options), seed=seed, games=games,
            clock=dict(clock), seats=list(seats), forfeits=sorted(set(forfeits)), created_at=time.time(),
            match_group=group or None, sealed=bool(group), referee=self.referee,
        )
        values = {f.name: getattr(row, f.name) for f in fields(MatchRow) if f.name != "results"}
        with self.engine.begin() as conn:
            conn.execute(matches.insert().values(**values))
        return row

    def publish(self, group: str = "", match_ids: Sequence[str] = ()) -> int:
        """Unseal every match of ``group`` and the matches named; returns how many were sealed.
        An unknown match id is a StoreError (nothing is published then)."""
        with self.engine.begin() as conn:
            known = {r.id for r in conn.execute(sa.select(matches.c.id).where(matches.c.id.in_(list(match_ids))))}
            missing = [m for m in match_ids if m not in known]
            if missing:
                raise StoreError(f"unknown match id {shown(missing[0])}")
            which = matches.c.id.in_(list(match_ids))
            if group:
                which = which | (matches.c.match_group == group)
            done = conn.execute(matches.update().where(which, matches.c.sealed.is_(True)).values(sealed=False))
        return done.rowcount

    def set_status(self, match_id: str, status: str, error: str | None = None) -> None:
        values: dict[str, Any] = {"status": status, "error": error}
        if status in (FINISHED, ABORTED):
            values["finished_at"] = time.time()
        with self.engine.begin() as conn:
            conn.execute(matches.update().where(matches.c.id == match_id).values(**values))

    def record_game(self, match_id: str, game_index: int, record: Mapping[str, Any]) -> bool:
        """Store one finished game exactly once; False if it was already stored."""
        try:
            with self.engine.begin() as conn:
                conn.execute(games.insert().values(match_id=match_id, game_index=game_index, finished_at=time.time(), **record))
        except IntegrityError:
            return False
        return True

    def match(self, match_id: str, results: bool = True) -> MatchRow | None:
        """The match and its stored games' results; with ``results=False`` each game's index alone
        (what a spectator's feed lists: a match of thousands of games is read in milliseconds)."""
        columns = (games.c.game_index, games.c.seed, games.c.totals, games.c.ranks, games.c.seats, games.c.deals)
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(matches).where(matches.c.id == match_id)).mappings().first()
            if row is None:
                return None
            stored = conn.execute(
                sa.select(*columns if results else columns[:1]).where(games.c.match_id == match_id).order_by(games.c.game_index)
            ).mappings().all()
        return MatchRow(**row, results=[dict(r) for r in stored])

    def game_log(self, match_id: str, game_index: int) -> list[Any] | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(games.c.log).where(games.c.match_id == match_id, games.c.game_index == game_index)
            ).first()
        return None if row is None else row.log

    def game_row(self, match_id: str, game_index: int) -> dict[str, Any] | None:
        """Everything stored for one finished game (seed, totals, ranks, seats, deals, log, header)."""
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(games).where(games.c.match_id == match_id, games.c.game_index == game_index)
            ).mappings().first()
        return None if row is None else dict(row)

    def list_matches(self, status: str | None = None, limit: int = 100, offset: int = 0) -> list[MatchRow]:
        query = sa.select(matches).order_by(matches.c.created_at.desc(), matches.c.id).limit(limit).offset(offset)
        if status:
            query = query.where(matches.c.status == status)
        with self.engine.connect() as conn:
            return [MatchRow(**r) for r in conn.execute(query).mappings().all()]

    def unfinished_matches(self) -> list[MatchRow]:
        """This referee's matches still PENDING or RUNNING (those of other referees sharing the
        database are theirs to finish)."""
        mine = sa.func.coalesce(matches.c.referee, DEFAULT_REFEREE) == self.referee
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(matches).where(matches.c.status.in_((PENDING, RUNNING)), mine)).mappings().all()
        return [MatchRow(**r) for r in rows]
