"""Stored matches as the commands read them: a league game's match (``--league FILE KEY``) and a
stored match's games as a match log (docs/match-log.md), for ``match export``, ``replay`` and
``rerun``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from server.codec import matchlog
from server.commands import usage_error
from server.storage.store import FINISHED
from tournaments.commands.match_store import open_store
from tournaments.config import LeagueError, load_league


def league_match(league_file: Path, key: str) -> tuple[str, str]:
    """The database and match id of game ``key`` of a league file's league."""
    try:
        league = load_league(league_file)
    except LeagueError as e:
        raise usage_error(str(e)) from None
    if not league.has_database:
        raise usage_error(f"league {league.name!r} has no results yet ({league.db_path} does not exist): run it first")
    store = open_store(league.database)
    try:
        row = store.league_game(league.name, key)
        if row is None:
            keys = [g.key for g in store.league_games(league.name)]
            near = f" (its keys run {keys[0]} .. {keys[-1]})" if keys else " (it has no scheduled games yet)"
            raise usage_error(f"league {league.name!r} has no game {key!r}{near}")
        if row.status != FINISHED or not row.match_id:
            raise usage_error(f"game {key} of league {league.name!r} is {row.status.lower()}: no finished match yet")
        return league.database, row.match_id
    finally:
        store.close()


def _stored_lines(store: Any, match_id: str, game: int | None) -> list[dict[str, Any]]:
    """The log lines of stored match ``match_id``'s finished games (or game ``game``)."""
    row = store.match(match_id)
    if row is None:
        raise usage_error(f"no match {match_id!r} in the database")
    indexes = [r["game_index"] for r in row.results]
    if game is not None:
        if game not in indexes:
            stored = ", ".join(map(str, indexes)) or "none yet"
            raise usage_error(f"match {match_id} has no finished game {game} (stored games: {stored})")
        indexes = [game]
    if not indexes:
        raise usage_error(f"match {match_id} has no finished game yet ({row.status})")
    lines: list[dict[str, Any]] = []
    for i in indexes:
        lines += matchlog.stored_game_lines(store, match_id, i) or []
    return lines


def exported_text(match_id: str, db: str, game: int | None) -> str:
    """``match export``'s JSON Lines: the log of stored match ``match_id`` in ``db``."""
    store = open_store(db)
    try:
        return matchlog.dumps(_stored_lines(store, match_id, game))
    finally:
        store.close()


def stored_log_text(match_id: str, db: str, game: int | None) -> str:
    """The match log (JSON Lines) of stored match ``match_id``'s finished games (or game ``game``),
    for a command given a file or a match id: the errors say that no such file was found either."""
    if "://" not in db and not Path(db).exists():
        raise usage_error(f"{match_id}: no such file (and no database at {db} to look for a match with that id)")
    store = open_store(db)
    try:
        if store.match(match_id) is None:
            raise usage_error(f"{match_id}: no such file, and no match with that id in {db}")
        return matchlog.dumps(_stored_lines(store, match_id, game))
    finally:
        store.close()
