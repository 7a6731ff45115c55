"""Upgrading a database's schema with Alembic (``server/storage/migrations``): loaded by
:func:`server.storage.database.migrate` only for a database that is not at the newest revision, since
importing Alembic costs more than the rest of a read-only command's start-up.

It knows nothing of the program's errors: :class:`NewerSchema` and SQLAlchemy's own errors are
what :mod:`server.storage.database` turns into a :class:`~server.storage.database.DatabaseError`."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

MIGRATIONS = Path(__file__).with_name("migrations")
# Held (transaction-scoped) while a PostgreSQL database is upgraded: two referees or league runners
# starting at once must not both create the tables. Any fixed 64-bit number; this one spells "mizerka".
UPGRADE_LOCK = 0x6D697A65726B61


class NewerSchema(Exception):
    """The database is at a revision this program does not know: a newer version wrote it."""

    def __init__(self, revision: str) -> None:
        super().__init__(revision)
        self.revision = revision


def _config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    return config


def head_revision() -> str:
    """The newest schema revision of the migrations folder."""
    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert head is not None
    return head


def _check_known(script: ScriptDirectory, current: tuple[str, ...]) -> None:
    known = {s.revision for s in script.walk_revisions()}
    for rev in current:
        if rev not in known:
            raise NewerSchema(rev)


@contextmanager
def _upgrade_transaction(engine: sa.Engine, on_connect: Callable[[Any, Any], None]) -> Iterator[sa.Connection]:
    """A transaction no other process upgrades in at the same time (released when it ends)."""
    if engine.dialect.name == "sqlite":
        # pysqlite would begin only at the first INSERT, after the DDL: take the write lock first.
        locking = sa.create_engine(engine.url, poolclass=sa.pool.NullPool)
        sa.event.listen(locking, "connect", on_connect)
        sa.event.listen(locking, "connect", _autocommit_driver)
        sa.event.listen(locking, "begin", lambda conn: conn.exec_driver_sql("BEGIN IMMEDIATE"))
        try:
            with locking.begin() as conn:
                yield conn
        finally:
            locking.dispose()
        return
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": UPGRADE_LOCK})
        yield conn


def _autocommit_driver(conn: Any, _record: Any) -> None:
    """Leave BEGIN to SQLAlchemy's ``begin`` event (pysqlite's own would come too late)."""
    conn.isolation_level = None


def upgrade(engine: sa.Engine, on_connect: Callable[[Any, Any], None]) -> None:
    """Bring the database to the head revision; :class:`NewerSchema` for one a newer version
    wrote. A database from before versioning (tables, no alembic_version) is completed by the
    first revision, which only adds what is missing, and stamped. ``on_connect`` sets up each
    SQLite connection (the engine's own pragmas) of the locking engine made here."""
    config = _config()
    script = ScriptDirectory.from_config(config)
    with engine.connect() as conn:
        current = MigrationContext.configure(conn).get_current_heads()
    _check_known(script, current)
    if current == (script.get_current_head(),):
        return
    with _upgrade_transaction(engine, on_connect) as conn:
        _check_known(script, MigrationContext.configure(conn).get_current_heads())  # another process may have won
        config.attributes["connection"] = conn
        command.upgrade(config, "head")
