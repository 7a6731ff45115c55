"""The options every command reading stored matches takes: where the database is (``--db``) and a
league's game by its key (``--league FILE KEY``), and what they name (:func:`source`). Apart from
the commands and the store, so that ``replay`` of a log file shares them without loading the store."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from server.commands import usage_error

DEFAULT_DB = "data/arena.sqlite"
DbOption = Annotated[str, typer.Option("--db", help="SQLite file, or a PostgreSQL URL (as for `mizerka serve`).")]
LeagueOption = Annotated[tuple[Path, str] | None, typer.Option(
    "--league", metavar="FILE KEY", help="A league's game by its key in the standings (e.g. --league tournaments/demo.toml t0/g0/s2), "
                                        "instead of a match id: the league file names the database.")]


def source(file_or_id: str | None, league: tuple[Path, str] | None, db: str, what: str) -> tuple[str, str]:
    """(the file or match id, the database) a command reads: FILE_OR_ID in --db, or --league FILE KEY
    (the league file and the store are loaded for that alone)."""
    if league is None:
        if file_or_id is None:
            raise usage_error(f"give {what} or --league FILE KEY")
        return file_or_id, db
    if file_or_id is not None:
        raise usage_error(f"give {what} or --league FILE KEY, not both")
    if db != DEFAULT_DB:
        raise usage_error("--league reads the league's own database (its file names it): leave out --db")
    from tournaments.commands.stored_matches import league_match
    league_db, match_id = league_match(*league)
    return match_id, league_db
