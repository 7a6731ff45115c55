"""``mizerka bot NAME`` (a built-in bot, as ``mizerka-bot NAME``) and ``mizerka bot sandbox -- COMMAND``."""

from __future__ import annotations

import typer

from mizerka.cli import main as bot_main
from tournaments.commands.sandbox import sandbox_main

bot_app = typer.Typer(add_completion=False)


@bot_app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []})
def bot(ctx: typer.Context) -> None:
    """Connect a built-in bot to a referee: mizerka bot NAME [--server HOST:PORT] [--token T] [--parallel N] (see --help);
    mizerka bot sandbox [--help] -- COMMAND runs a bot program in the sandbox a league runs it in."""
    if ctx.args[:1] == ["sandbox"]:
        raise typer.Exit(sandbox_main(ctx.args[1:]))
    raise typer.Exit(bot_main(list(ctx.args), prog="mizerka bot"))
