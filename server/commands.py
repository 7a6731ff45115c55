"""Command groups whose commands load on dispatch: ``mizerka --help`` lists a command from its
summary alone, and only the command that runs imports its module (and so its libraries: gRPC,
SQLAlchemy, aiohttp, ...). A start-up of ``mizerka`` costs little more than importing typer.

Also ``usage_error``, the one way every command reports bad usage."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import typer
from typer.core import TyperCommand, TyperGroup
from typer.main import get_command


def usage_error(message: str, code: int = 2) -> typer.Exit:
    """Print ``error: MESSAGE`` to stderr; the Exit to raise (code 2: bad usage or input)."""
    print(f"error: {message}", file=sys.stderr)
    return typer.Exit(code)


@dataclass(frozen=True)
class Lazy:
    """A command of a :class:`LazyGroup`: its one-line summary (for the group's --help) and how to
    load it (imports its module; may set up the group context's ``obj`` the command reads)."""

    summary: str
    load: Callable[[typer.Context], typer.Typer]


class LazyGroup(TyperGroup):
    """A typer group of :class:`Lazy` commands (subclasses set ``lazy``): listed from their summaries,
    loaded when dispatched to."""

    lazy: ClassVar[Mapping[str, Lazy]] = {}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        for name, entry in self.lazy.items():  # placeholders: what --help and completion show
            self.commands[name] = TyperCommand(name, short_help=entry.summary, help=entry.summary)

    def resolve_command(self, ctx: typer.Context, args: list[str]) -> tuple[str | None, Any, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        if name in self.lazy:
            command = get_command(self.lazy[name].load(ctx))
        return name, command, rest
