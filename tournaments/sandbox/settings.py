"""The bot sandbox's settings from the league file: whether bots must run in one (``sandbox = "on"``,
the default), may run without one where bubblewrap is missing (``"if-available"``) or never do
(``"off"``), and the limits of each bot process (a ``[sandbox]`` table, overridden per bot with
``sandbox = { ... }`` in its ``[[bots]]`` entry). How bots are started in it: tournaments/sandbox/bwrap.py;
what it isolates: docs/security.md, The sandbox.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any


class SandboxError(RuntimeError):
    """Bots cannot be started as the league asks: the sandbox is required but cannot be used here,
    or a bot's folder would show it the league's secrets. The message says what to change."""


class SandboxMode(StrEnum):
    """Whether a league's bot programs run in the sandbox."""

    ON = "on"  # always; a host without a working bubblewrap refuses to play the league
    IF_AVAILABLE = "if-available"  # where bubblewrap works; elsewhere without one, with a loud warning
    OFF = "off"  # never (bots the organiser trusts); said at start and under the standings


@dataclass(frozen=True, slots=True)
class Limits:
    """What one bot process may use; 0 is no limit. Memory is the kernel's data limit (RLIMIT_DATA:
    heap, private mappings and thread stacks, not the address space that gRPC and V8 reserve
    without using) and, where the runner can make one, the limit of the bot's memory cgroup
    (shared memory included: tournaments/sandbox/cgroups.py); processes count threads too and are counted
    per sandbox; CPU time is per process, over its whole life (a bot restarted after a crash
    starts again from zero)."""

    memory_mb: int = 2048
    processes: int = 256
    cpu_s: int = 0
    read: tuple[Path, ...] = ()  # more files or folders the bot may read, besides its command's

    def describe(self) -> str:
        """The limits as the runner announces them."""
        memory = f"memory {self.memory_mb} MiB" if self.memory_mb else "memory unlimited"
        processes = f"{self.processes} processes" if self.processes else "processes unlimited"
        cpu = f"CPU time {self.cpu_s} s per process" if self.cpu_s else "CPU time unlimited"
        return f"{memory}, {processes}, {cpu}"


@dataclass(frozen=True, slots=True)
class SandboxSettings:
    mode: SandboxMode = SandboxMode.ON
    limits: Limits = Limits()  # every bot's, unless its own [[bots]] entry overrides some


_NUMBERS = {"memory_mb": "MiB of memory", "processes": "processes (threads included)", "cpu_s": "seconds of CPU time"}
_MODES = ", ".join(f'"{m}"' for m in SandboxMode)


def parse_sandbox(value: Any, where: str, base: Path) -> SandboxSettings:
    """The league file's ``sandbox``: a mode (``sandbox = "off"``) or a table with an optional
    ``mode`` and the limits. ``base`` is the league file's folder (``read`` paths are relative to it)."""
    if value is None:
        return SandboxSettings()
    if isinstance(value, str):
        return SandboxSettings(_mode(value, f"{where}: sandbox"))
    if not isinstance(value, dict):
        raise ValueError(f"{where}: sandbox must be one of {_MODES} or a table of limits ([sandbox]), got {value!r}")
    table = dict(value)
    mode = _mode(table.pop("mode"), f"{where}: [sandbox]: mode") if "mode" in table else SandboxMode.ON
    return SandboxSettings(mode, bot_limits(table, Limits(), f"{where}: [sandbox]", base))


def bot_limits(table: Any, limits: Limits, where: str, base: Path) -> Limits:
    """``limits`` with what ``table`` (a ``[sandbox]`` table or a bot's ``sandbox = {...}``) sets;
    a ValueError naming the key for anything else."""
    if not isinstance(table, dict):
        raise ValueError(f"{where} must be a table of limits, e.g. {{ memory_mb = 1024 }}, got {table!r}")
    changes: dict[str, Any] = {}
    for key, value in table.items():
        if key == "read":
            if not isinstance(value, list) or not all(isinstance(p, str) and p for p in value):
                raise ValueError(f"{where}: read must be a list of paths (files or folders the bot may read), got {value!r}")
            changes["read"] = limits.read + tuple((base / p).absolute() for p in value)
        elif key in _NUMBERS:
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{where}: {key} must be a whole number of {_NUMBERS[key]} (0: no limit), got {value!r}")
            changes[key] = value
        else:
            raise ValueError(f"{where}: unknown key {key!r}; expected one of {', '.join([*_NUMBERS, 'read'])}"
                             + (" (mode is set for the whole league, in [sandbox])" if key == "mode" else ""))
    return dataclasses.replace(limits, **changes)


def _mode(value: Any, where: str) -> SandboxMode:
    try:
        return SandboxMode(value)
    except ValueError:
        raise ValueError(f"{where} must be one of {_MODES}, got {value!r}") from None
