"""Opening the database behind ``--db``: a SQLite file (the default, nothing to install) or a
PostgreSQL server (``postgresql://`` URLs, driven by psycopg 3), with one schema on both.

The schema is versioned by Alembic (``server/storage/migrations``, driven by :mod:`server.storage.schema_upgrade`):
opening a database brings it to the newest revision this program knows, so every command works on
a database of any earlier version, and one written by a newer version is refused with a message
instead of being misread. Problems the
user must fix (unreachable server, newer schema) are :class:`DatabaseError` with a one-line message.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from server.private_files import private_dir, private_file

# The newest schema revision (server/storage/migrations/versions) this program knows: a database at it is
# used at once, without Alembic (whose import alone is most of a read-only command's start-up);
# tests/test_database.py checks it is Alembic's head.
SCHEMA_HEAD = "0004"
POSTGRES_SCHEMES = ("postgresql", "postgres", "postgresql+psycopg")
SQLITE_BUSY_S = 10  # how long a SQLite connection waits for a lock another process holds
# libpq waits forever by default for a host that drops packets: give up connecting after 10 s, and
# on an open connection notice a dead link (keepalives while idle; unacknowledged data for 15 s),
# so a worker cut off from the database gets an error to retry on instead of hanging for minutes.
# The server side needs the same: a session whose client vanished (a cut link) would otherwise keep
# its transaction, and the row locks other hosts wait for, until the kernel's keepalive gives up
# (2 hours by default). So each session asks the server to probe its client the same way and to end
# a transaction left idle for 30 s (ours last milliseconds).
SERVER_SESSION = ("-c tcp_keepalives_idle=5 -c tcp_keepalives_interval=2 -c tcp_keepalives_count=3 "
                  "-c tcp_user_timeout=15000 -c idle_in_transaction_session_timeout=30000")
LIBPQ_DEFAULTS = {"connect_timeout": 10, "keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2,
                  "keepalives_count": 3, "tcp_user_timeout": 15_000, "options": SERVER_SESSION}


class DatabaseError(RuntimeError):
    """A database this program cannot use as it is; the message says why and what to do."""


def is_postgres(path_or_url: str | Path) -> bool:
    """Is ``--db`` a PostgreSQL URL (not a SQLite file)?"""
    text = str(path_or_url)
    return "://" in text and text.split("://", 1)[0] in POSTGRES_SCHEMES


def database_url(path_or_url: str | Path) -> str:
    """A SQLAlchemy URL from a file path (SQLite) or a URL; PostgreSQL URLs get the psycopg 3
    driver (the only one installed). A database file holds bot token hashes, seeds and every hand
    (a league's also its bots' tokens), so it is its user's alone: created 0600 (its -wal and -shm
    follow; see :func:`server.private_files.private_file`) in folders created 0700."""
    text = str(path_or_url)
    if "://" not in text:
        private_dir(Path(text).parent)
        private_file(Path(text))
        return f"sqlite:///{Path(text).resolve()}"
    scheme, rest = text.split("://", 1)
    if scheme in POSTGRES_SCHEMES:
        return f"postgresql+psycopg://{rest}"
    return text


# What a database out of reach raises (refused, timed out, a link that died under a query).
DB_ERRORS = (sa.exc.OperationalError, sa.exc.InterfaceError)


def db_error_text(error: BaseException) -> str:
    """The driver's first line about a database error, for logs (never empty)."""
    text = str(getattr(error, "orig", None) or error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def describe(url: sa.URL) -> str:
    """Where a database is, for messages: never its password (one may be in the URL)."""
    if url.get_backend_name() == "sqlite":
        return f"SQLite file {url.database}"
    socket = url.query.get("host")
    where = f"{url.host}:{url.port or 5432}" if url.host else f"the local socket {socket or '(libpq default)'}"
    return f"PostgreSQL at {where}, database {url.database!r}" + (f" as {url.username!r}" if url.username else "")


def _reason(error: sa.exc.DBAPIError) -> str:
    """What the driver says went wrong (refused, timeout, no such database), on one line."""
    return " ".join(line.strip() for line in str(error.orig).splitlines() if line.strip()) or type(error.orig).__name__


def _sqlite_pragmas(conn: Any, _record: Any) -> None:
    """WAL: readers (a league runner, `standings`) never block the referee's writes; wait up to
    10 s for a lock another process holds."""
    cur = conn.cursor()
    cur.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_S * 1000:.0f}")  # first: switching to WAL needs a lock, and must wait for it
    _switch_to_wal(cur)
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()


def _switch_to_wal(cur: sqlite3.Cursor) -> None:
    """``PRAGMA journal_mode=WAL``, waiting as long as the busy timeout. Connections opening a
    new file at once all switch it; SQLite answers BUSY at once, without waiting, to the one
    whose wait could deadlock, so that one tries again (the file is in WAL by then)."""
    deadline = time.monotonic() + SQLITE_BUSY_S
    while True:
        try:
            cur.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as e:
            if e.sqlite_errorcode != sqlite3.SQLITE_BUSY or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def open_engine(path_or_url: str | Path) -> sa.Engine:
    """An engine on an up-to-date schema; DatabaseError if it cannot be reached or is too new."""
    url = database_url(path_or_url)
    if url.startswith("sqlite"):
        engine = sa.create_engine(url)
        sa.event.listen(engine, "connect", _sqlite_pragmas)
    else:
        parsed = sa.make_url(url)
        args = {k: v for k, v in LIBPQ_DEFAULTS.items() if k not in parsed.query}  # the URL's own settings win
        engine = sa.create_engine(url, connect_args=args, pool_pre_ping=True)
    try:
        migrate(engine)
    except BaseException:
        engine.dispose()
        raise
    return engine


def stored_revisions(conn: sa.Connection) -> tuple[str, ...]:
    """The schema revisions a database says it is at (Alembic's table); none before versioning."""
    if not sa.inspect(conn).has_table("alembic_version"):
        return ()
    return tuple(conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalars())


def migrate(engine: sa.Engine) -> None:
    """Bring the database to the newest revision: nothing to do, usually, after one read. Only a
    database at another revision loads Alembic (a deferred import, for start-up time alone: the
    upgrade module imports nothing of this one's callers)."""
    try:
        with engine.connect() as conn:
            current = stored_revisions(conn)
    except sa.exc.OperationalError as e:
        raise DatabaseError(f"cannot use the database ({describe(engine.url)}): {_reason(e)}") from None
    if current == (SCHEMA_HEAD,):
        return
    from server.storage.schema_upgrade import NewerSchema, upgrade
    try:
        upgrade(engine, _sqlite_pragmas)
    except NewerSchema as e:
        raise DatabaseError(f"this database was written by a newer version of Mizerka Arena (schema revision {e.revision}); "
                            "upgrade this program") from None
    except sa.exc.OperationalError as e:
        raise DatabaseError(f"cannot use the database ({describe(engine.url)}): {_reason(e)}") from None
