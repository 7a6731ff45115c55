"""The options every command reading stored matches takes: where the database is (``--db``) and a
league's game by its key (``--league FILE KEY``). Apart from the commands, so that ``replay`` of a
log file shares them without loading the store."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

DEFAULT_DB = "data/arena.sqlite"
DbOption = Annotated[str, typer.Option("--db", help="SQLite file, or a PostgreSQL URL (as for `mizerka serve`).")]
LeagueOption = Annotated[tuple[Path, str] | None, typer.Option(
    "--league", metavar="FILE KEY", help="A league's game by its key in the standings (e.g. --league tournaments/demo.toml t0/g0/s2), "
                                        "instead of a match id: the league file names the database.")]
