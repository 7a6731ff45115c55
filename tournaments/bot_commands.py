"""Whether a league's bot commands can start on this host, checked before the league starts: a
mistyped program would otherwise be restarted and disabled while its games are played by default
moves. Each command's program is looked up on the PATH its process gets (:func:`bot_env`), and so
is the program a bridge runs for it (``mizerka-bot stdio -- PROG``, ``mizerka bot stdio -- PROG``,
``mizerka bot sandbox -- PROG``, nested as deep as they go). `league run` refuses a league that
fails (exit 2); a worker says ``cannot-play`` and leaves it to other hosts (tournaments/workers/worker.py).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from mizerka.stdio.cli import program_command
from tournaments.commands.sandbox import sandboxed_command
from tournaments.config import BotSpec, League, LeagueError
from tournaments.runner import bot_env

SDK_PROGRAM = "mizerka-bot"  # the SDK's command: `mizerka-bot stdio [options] -- PROG` runs PROG
ARENA_PROGRAM = "mizerka"  # the arena's: `mizerka bot stdio|sandbox [options] -- PROG` runs PROG


class BotCommandError(LeagueError):
    """A bot's command (or the program it runs) cannot be started here: the message names the bot,
    the path and why."""


@dataclass(frozen=True, slots=True)
class Unstartable:
    """One program of a bot's command that cannot start."""

    bot: str
    program: str  # as the command gives it
    path: str  # where it was looked for: the file, or the PATH searched
    reason: str
    wrapped_by: str = ""  # the bridge that would run it, if not the command itself

    def __str__(self) -> str:
        what = f"the program its {self.wrapped_by} runs" if self.wrapped_by else "its command"
        return f"bot {self.bot}: {what}, {self.program!r}, cannot start: {self.reason} ({self.path})"


def check_commands(league: League, cwd: Path | None = None) -> None:
    """BotCommandError naming every bot of ``league`` (run here, not remote) whose command, or a
    program a bridge in it runs, cannot be found or is not executable."""
    problems = [p for spec in league.bots if not spec.remote for p in unstartable(spec, cwd or Path.cwd())]
    if problems:
        raise BotCommandError("; ".join(map(str, problems)))


def unstartable(spec: BotSpec, cwd: Path) -> list[Unstartable]:
    """What of the bot's command cannot start, as its process would look for it."""
    path = bot_env(spec, "", "", 1)["PATH"]
    found = []
    for command, wrapper in programs(spec.command):
        reason, where = _why_not(command[0], path, cwd)
        if reason:
            found.append(Unstartable(spec.name, command[0], where, reason, wrapper))
    return found


def programs(command: Sequence[str]) -> Iterator[tuple[list[str], str]]:
    """The command, then each command a bridge in it runs, with the bridge's name ("" for the
    command itself)."""
    wrapper = ""
    current: list[str] | None = list(command)
    while current:
        yield current, wrapper
        name, args = Path(current[0]).name, current[1:]
        if name == SDK_PROGRAM and args[:1] == ["stdio"]:
            current, wrapper = program_command(args[1:]), f"{SDK_PROGRAM} stdio"
        elif name == ARENA_PROGRAM and args[:2] == ["bot", "stdio"]:
            current, wrapper = program_command(args[2:]), f"{ARENA_PROGRAM} bot stdio"
        elif name == ARENA_PROGRAM and args[:2] == ["bot", "sandbox"]:
            current, wrapper = sandboxed_command(args[2:]), f"{ARENA_PROGRAM} bot sandbox"
        else:
            return


def _why_not(program: str, path: str, cwd: Path) -> tuple[str, str]:
    """Why ``program`` cannot be executed (empty if it can), and where it was looked for."""
    if "/" not in program:
        found = shutil.which(program, path=path)
        if found is not None:
            return "", found
        there = next((Path(d, program) for d in path.split(os.pathsep) if d and Path(d, program).is_file()), None)
        if there is None:
            return "not found on the bots' PATH", f"PATH={path}"
        program = str(there)
    file = cwd / program
    if not file.exists():
        return "no such file", str(file)
    if file.is_dir():
        return "it is a directory", str(file)
    if not os.access(file, os.X_OK):
        return f"not executable (mode {file.stat().st_mode & 0o777:o}: chmod +x it, or run it with its interpreter)", str(file)
    return "", str(file)
