"""``mizerka match list|export``: the matches of a database, and their games as match logs
(docs/match-log.md); also how ``replay`` and ``rerun`` find a stored match."""

from __future__ import annotations

import datetime
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from server import matchlog
from server.commands import usage_error
from server.store import FINISHED, DatabaseError
from server.text import printable
from tournaments.config import LeagueError, load_league
from tournaments.match_options import DEFAULT_DB, DbOption, LeagueOption
from tournaments.store import LeagueStore

match_app = typer.Typer(help="Stored matches: list them, export their games as match logs (docs/match-log.md).",
                        no_args_is_help=True, add_completion=False)

def open_store(db: str) -> LeagueStore:
    """The referee's tables and the leagues' (one schema): a match and the league game it played."""
    if "://" not in db and not Path(db).exists():
        raise usage_error(f"no database at {db} (give the referee's file with --db)")
    try:
        return LeagueStore(db)
    except DatabaseError as e:
        raise usage_error(str(e)) from None


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
            keys = [g["key"] for g in store.league_games(league.name)]
            near = f" (its keys run {keys[0]} .. {keys[-1]})" if keys else " (it has no scheduled games yet)"
            raise usage_error(f"league {league.name!r} has no game {key!r}{near}")
        if row["status"] != FINISHED or not row["match_id"]:
            raise usage_error(f"game {key} of league {league.name!r} is {row['status'].lower()}: no finished match yet")
        return league.database, row["match_id"]
    finally:
        store.close()


def source(file_or_id: str | None, league: tuple[Path, str] | None, db: str, what: str) -> tuple[str, str]:
    """(the file or match id, the database) a command reads: FILE_OR_ID in --db, or --league FILE KEY."""
    if league is None:
        if file_or_id is None:
            raise usage_error(f"give {what} or --league FILE KEY")
        return file_or_id, db
    if file_or_id is not None:
        raise usage_error(f"give {what} or --league FILE KEY, not both")
    if db != DEFAULT_DB:
        raise usage_error("--league reads the league's own database (its file names it): leave out --db")
    league_db, match_id = league_match(*league)
    return match_id, league_db


# ------------------------------------------------------------------------------ match list / export
@match_app.command("list")
def match_list(
    db: DbOption = DEFAULT_DB,
    status: Annotated[str | None, typer.Option(help="Only matches in this status: PENDING, RUNNING, FINISHED or ABORTED.")] = None,
    limit: Annotated[int, typer.Option(help="At most this many matches, newest first.")] = 100,
) -> None:
    """List stored matches, newest first: id, status, preset, games stored/planned, the league and game key
    it played (as the standings name it), created, seats with their totals over the stored games."""

    store = open_store(db)
    try:
        rows = store.list_matches(status.upper() if status else None, limit)
        if not rows:
            print("no matches")
            return
        keys = store.games_of_matches([row.id for row in rows])
        width = max([len("league game"), *(len(printable(str(k))) for k in keys.values())])
        print(f"{'match':<20} {'status':<9} {'preset':<14} {'games':>7}  {'league game':<{width}}  {'created (UTC)':<19}  "
              "seats (totals)")
        for row in rows:
            full = store.match(row.id) or row
            names = [printable(b.name if (b := store.bot(i)) is not None else i) for i in row.seats]
            totals = [sum(r["totals"][s] for r in full.results) for s in range(len(row.seats))] if full.results else None
            seats = ", ".join(n if totals is None else f"{n} {totals[s]:+d}" for s, n in enumerate(names))
            created = datetime.datetime.fromtimestamp(row.created_at, datetime.UTC).strftime("%Y-%m-%d %H:%M:%S")
            games = f"{len(full.results)}/{row.games}"
            key = printable(str(keys[row.id])) if row.id in keys else "-"
            print(f"{row.id:<20} {row.status:<9} {row.preset:<14} {games:>7}  {key:<{width}}  {created:<19}  {seats}")
    finally:
        store.close()


def stored_lines(store: Any, match_id: str, game: int | None) -> list[dict[str, Any]]:
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


@match_app.command("export")
def match_export(
    match_id: Annotated[str | None, typer.Argument(help="The match id (see `mizerka match list`).")] = None,
    game: Annotated[int | None, typer.Option(help="Only this game (from 0); default: every finished game, one after another.")] = None,
    db: DbOption = DEFAULT_DB,
    league: LeagueOption = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write here instead of standard output.")] = None,
) -> None:
    """Write a match's log as JSON Lines (docs/match-log.md): header, entries, end, per game."""

    match_id, db = source(match_id, league, db, "a match id")
    store = open_store(db)
    try:
        text = matchlog.dumps(stored_lines(store, match_id, game))
    finally:
        store.close()
    if output is not None:
        output.write_text(text)
    else:
        sys.stdout.write(text)



def stored_log_text(match_id: str, db: str, game: int | None) -> str:
    """The match log (JSON Lines) of stored match ``match_id``'s finished games (or game ``game``)."""
    if "://" not in db and not Path(db).exists():
        raise usage_error(f"{match_id}: no such file (and no database at {db} to look for a match with that id)")
    store = open_store(db)
    try:
        if store.match(match_id) is None:
            raise usage_error(f"{match_id}: no such file, and no match with that id in {db}")
        return matchlog.dumps(stored_lines(store, match_id, game))
    finally:
        store.close()
