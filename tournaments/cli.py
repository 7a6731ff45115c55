"""The ``mizerka`` command: the server's commands (``server.cli``) with leagues, reports, match logs
and built-in bots, which need the layers above the server (tournaments, the bot SDK).

As in ``server.cli``, each command's module is imported by its loader below, only when the command
runs (server.commands): the imports inside these functions are deferred for start-up time, never to
dodge a cycle."""

from __future__ import annotations

from typing import ClassVar

import typer

from server.cli import ServerCommands, arena
from server.commands import Lazy


def _serve(ctx: typer.Context) -> typer.Typer:
    """The referee's ``serve``, told how to show the leagues of its database (``--http-port``)."""
    from server.serve_cli import serve_app
    from server.web.page import WebExtras
    from tournaments.web_board import DatabaseLeagues
    ctx.obj = WebExtras(boards=DatabaseLeagues)
    return serve_app


def _league(ctx: typer.Context) -> typer.Typer:
    from tournaments.commands.league import league_app
    return league_app


def _worker(ctx: typer.Context) -> typer.Typer:
    from tournaments.commands.league import worker_app
    return worker_app


def _report(ctx: typer.Context) -> typer.Typer:
    from tournaments.commands.league import report_app
    return report_app


def _match(ctx: typer.Context) -> typer.Typer:
    from tournaments.commands.match import match_app
    return match_app


def _replay(ctx: typer.Context) -> typer.Typer:
    from tournaments.commands.replay import replay_app
    return replay_app


def _rerun(ctx: typer.Context) -> typer.Typer:
    from tournaments.commands.rerun import rerun_app
    return rerun_app


def _bot(ctx: typer.Context) -> typer.Typer:
    from tournaments.commands.bot import bot_app
    return bot_app


def _author(ctx: typer.Context) -> typer.Typer:
    from tournaments.commands.authors import author_app
    return author_app


def _submit(ctx: typer.Context) -> typer.Typer:
    from tournaments.commands.authors import submit_app
    return submit_app


def _bots(ctx: typer.Context) -> typer.Typer:
    from tournaments.commands.authors import bots_app
    return bots_app


class ArenaCommands(ServerCommands):
    """The server's commands and those of the layers above, in the order --help lists them."""

    lazy: ClassVar[dict[str, Lazy]] = ServerCommands.lazy | {
        "serve": Lazy(ServerCommands.lazy["serve"].summary, _serve),
        "league": Lazy("Leagues: round-robins and gauntlets of bot programs.", _league),
        "match": Lazy("Stored matches: list them, export their games as match logs (docs/match-log.md).", _match),
        "replay": Lazy("Re-execute a match log through the engine and verify every recorded outcome.", _replay),
        "rerun": Lazy("Play a logged game's seed again with other bots in some seats; print the new score sheet and both totals.", _rerun),
        "bot": Lazy("Connect a built-in bot to a referee (mizerka bot NAME --help), or run a bot program in the league's sandbox (mizerka bot sandbox --help).", _bot),
        "worker": Lazy("Play the games of leagues submitted to a PostgreSQL database (docs/scale-out.md).", _worker),
        "author": Lazy("(Organiser) Create bot authors, or register yourself with an invite code (docs/submitting.md).", _author),
        "submit": Lazy("Upload a bot's folder to a referee: it becomes a new version of the bot (docs/submitting.md).", _submit),
        "bots": Lazy("Your submitted bots: their versions and states, their logs; retire them.", _bots),
        "report": Lazy("Write a league's static web report: standings, rating chart, head to head, failures, replays.", _report),
    }


app = typer.Typer(cls=ArenaCommands, no_args_is_help=True, rich_markup_mode=None)
app.callback()(arena)


def main() -> None:
    app()
