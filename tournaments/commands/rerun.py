"""``mizerka rerun``: a logged game's seed played again with other bots in some seats (the format
of the log is docs/match-log.md; reading and verifying it is tournaments.commands.replay's). Exit codes
as replay's: 0 done, 1 the log does not verify, 2 a usage error or a file that is no match log."""

from __future__ import annotations

import os
import shlex
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from mizerka.bots import BOTS
from mizerka_engine.game import ranks
from server.commands import usage_error
from server.describe import signed
from server.referee.offline import play
from server.scoresheet import name_cell, render_scoresheet
from tournaments.commands.match_options import DEFAULT_DB, DbOption, LeagueOption, source
from tournaments.commands.replay import load_games, one_game, verified
from tournaments.local_bots import BotSpecError, ProgramFault, SdkSeat, StdioSeat, builtin_style, make_seat

rerun_app = typer.Typer(add_completion=False)

def _short(label: str) -> str:
    """A score sheet column name: the built-in bot's name, or the program's file name."""

    if label.startswith("builtin:"):
        return label.removeprefix("builtin:")
    try:
        words = shlex.split(label)
    except ValueError:
        words = label.split()
    return os.path.basename(words[-1]) if words else label


@rerun_app.command("rerun")
def rerun_command(
    file_or_id: Annotated[str | None, typer.Argument(metavar="[FILE_OR_ID]", help="A match log (JSON Lines) or a match id in --db.")] = None,
    bot: Annotated[list[str] | None, typer.Option("--bot", metavar="SEAT=BOT",
                                                  help="Seat SEAT is played by BOT: builtin:NAME or the command line of "
                                                       "a stdio program. Repeat for several seats.")] = None,
    db: DbOption = DEFAULT_DB,
    league: LeagueOption = None,
    game: Annotated[int | None, typer.Option(help="The game of the file or match (from 0).")] = None,
    answer_timeout: Annotated[float, typer.Option(help="Seconds a stdio program may take to answer one decision.")] = 10.0,
) -> None:
    """Play a logged game's seed again with other bots in some seats; print the new score sheet and both totals.

    Seats not given keep their bot when the log shows a built-in one (its Hello named a bot of `mizerka bot NAME` with that bot's version); any other seat is played by the referee's default policy.
    """

    file_or_id, db = source(file_or_id, league, db, "a match log or match id")
    g = one_game(load_games(file_or_id, db, game), file_or_id, "rerun")
    n = g.rules.players
    given: dict[int, str] = {}
    for spec in bot or []:
        head, sep, rest = spec.partition("=")
        if not sep or not head.strip().isdigit() or not rest.strip():
            raise usage_error(f"--bot {spec!r}: write SEAT=BOT, e.g. --bot 1=builtin:cautious or --bot '2=python3 mybot.py'")
        s = int(head)
        if not 0 <= s < n:
            raise usage_error(f"--bot {spec!r}: {g.rules.preset} has seats 0..{n - 1}")
        if s in given:
            raise usage_error(f"--bot: seat {s} is given twice")
        given[s] = rest.strip()
    logged = verified(g)
    drivers: list[SdkSeat | StdioSeat | None] = []
    labels: list[str] = []
    try:
        for s in range(n):
            if s in given:
                drivers.append(make_seat(given[s], answer_timeout))
                labels.append(given[s])
                continue
            style = builtin_style(g.header["seats"][s])
            if style is not None:
                drivers.append(SdkSeat(BOTS[style](), f"builtin:{style}"))
                labels.append(f"builtin:{style}")
            else:
                drivers.append(None)
                labels.append("default policy")
    except BotSpecError as e:
        raise usage_error(str(e)) from None
    names = [f"{s}:{_short(label)}" for s, label in enumerate(labels)]
    try:
        result = play(g.rules, g.seed, drivers, names, g.clock, match_id=f"rerun:{g.match}", game_index=g.game)
    except ProgramFault as e:  # no such program, or one that broke the protocol's limits
        raise usage_error(str(e)) from None
    finally:
        for driver in drivers:
            if driver is not None:
                driver.close()
    defaults = [r.defaults for r in result.seats]
    console = Console(width=max(Console().width, 120))
    console.print(render_scoresheet(g.rules, result.game.results, names, title=f"rerun of game {g.game}, seed {g.seed!r}"))
    table = Table(title="Totals: the log and the rerun")
    for col in ("seat", "in the log", "log total", "rerun by", "rerun total", "change"):
        table.add_column(col, justify="right" if "total" in col or col in ("seat", "change") else "left")
    new_totals = list(result.game.totals)
    for s in range(n):
        table.add_row(str(s), name_cell(g.names[s]), f"{logged.totals[s]:+d}", labels[s], f"{new_totals[s]:+d}",
                      f"{new_totals[s] - logged.totals[s]:+d}")
    console.print(table)
    print(f"log:   totals {signed(logged.totals)}, ranks {' '.join(map(str, logged.ranks))}")
    print(f"rerun: totals {signed(new_totals)}, ranks {' '.join(map(str, ranks(new_totals)))}"
          + (f"; defaults applied {' '.join(map(str, defaults))}" if any(defaults) else ""))
