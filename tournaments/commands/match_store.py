"""How a command opens the store it reads (``--db``): the referee's tables and the leagues', or a
usage error. Alone in its module so that ``mizerka match list`` loads the store (SQLAlchemy) and
nothing more: the league files and the match log's format (both on the engine) are
tournaments.commands.stored_matches'."""

from __future__ import annotations

from pathlib import Path

from server.commands import usage_error
from server.storage.store import DatabaseError
from tournaments.store import LeagueStore


def open_store(db: str) -> LeagueStore:
    """The referee's tables and the leagues' (one schema): a match and the league game it played."""
    if "://" not in db and not Path(db).exists():
        raise usage_error(f"no database at {db} (give the referee's file with --db)")
    try:
        return LeagueStore(db)
    except DatabaseError as e:
        raise usage_error(str(e)) from None
