"""The server's commands of ``mizerka``: rules, demo, serve, health (``tournaments.cli`` adds the rest).

Each command's module is imported by its loader below, only when the command runs (server.commands):
the imports inside these functions are deferred for start-up time, never to dodge a cycle."""

from __future__ import annotations

from typing import ClassVar

import typer

from server.commands import Lazy, LazyGroup


def _rules(ctx: typer.Context) -> typer.Typer:
    from server.rules_cli import rules_app
    return rules_app


def _demo(ctx: typer.Context) -> typer.Typer:
    from server.demo_cli import demo_app
    return demo_app


def _serve(ctx: typer.Context) -> typer.Typer:
    from server.serve_cli import serve_app
    return serve_app


def _health(ctx: typer.Context) -> typer.Typer:
    from server.serve_cli import health_app
    return health_app


class ServerCommands(LazyGroup):
    """The referee's commands, in the order --help lists them."""

    lazy: ClassVar[dict[str, Lazy]] = {
        "rules": Lazy("Rules conformance cases (docs/conformance.md).", _rules),
        "demo": Lazy("Play one full game of built-in random players and print the score sheet.", _demo),
        "serve": Lazy("Run the referee: bots connect to play, admins create matches, anyone may watch.", _serve),
        "health": Lazy("Ask a referee whether it serves (the standard gRPC health check, plain text).", _health),
    }


app = typer.Typer(cls=ServerCommands, no_args_is_help=True, rich_markup_mode=None)


@app.callback()
def arena() -> None:
    """Mizerka Arena: rules engine, referee and leagues for Mizerka bots."""
