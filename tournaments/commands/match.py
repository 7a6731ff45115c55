"""``mizerka match list|export``: the matches of a database, and their games as match logs
(docs/match-log.md). ``match list`` reads the store alone (tournaments.commands.match_store); the league
files and the log's format, which load the engine, are tournaments.commands.stored_matches', loaded to export."""

from __future__ import annotations

import datetime
import sys
from pathlib import Path
from typing import Annotated

import typer

from server.text import printable
from tournaments.commands.match_options import DEFAULT_DB, DbOption, LeagueOption, source
from tournaments.commands.match_store import open_store

match_app = typer.Typer(help="Stored matches: list them, export their games as match logs (docs/match-log.md).",
                        no_args_is_help=True, add_completion=False)


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
            names = [printable(n) for n in store.seat_names(row.seats)]
            totals = [sum(r["totals"][s] for r in full.results) for s in range(len(row.seats))] if full.results else None
            seats = ", ".join(n if totals is None else f"{n} {totals[s]:+d}" for s, n in enumerate(names))
            created = datetime.datetime.fromtimestamp(row.created_at, datetime.UTC).strftime("%Y-%m-%d %H:%M:%S")
            games = f"{len(full.results)}/{row.games}"
            key = printable(str(keys[row.id])) if row.id in keys else "-"
            print(f"{row.id:<20} {row.status:<9} {row.preset:<14} {games:>7}  {key:<{width}}  {created:<19}  {seats}")
    finally:
        store.close()


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
    from tournaments.commands.stored_matches import exported_text  # the match log's format (the engine): `match list` needs none
    text = exported_text(match_id, db, game)
    if output is not None:
        output.write_text(text)
    else:
        sys.stdout.write(text)
