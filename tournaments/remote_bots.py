"""What the owner of a remote bot needs to connect it to a league's referee: the launch variables
(address, token, TLS) as a command line to paste, printed by the runner and kept in
DATA/remote-bots.txt (0600: it holds tokens). docs/leagues.md, Remote bots."""

from __future__ import annotations

import os
import shlex
import socket
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["REMOTE_BOTS_FILE", "RemoteBot", "advertised", "write_remote_bots"]

REMOTE_BOTS_FILE = "remote-bots.txt"
# Addresses that mean "every interface": a bot elsewhere cannot connect to them as they are.
_WILDCARDS = ("0.0.0.0", "::", "[::]", "")


@dataclass(frozen=True)
class RemoteBot:
    """One remote bot of the league and the environment its program needs (launch contract)."""

    name: str
    env: Mapping[str, str]  #: MIZERKA_SERVER, MIZERKA_TOKEN and, over TLS, the MIZERKA_TLS* variables

    @property
    def command(self) -> str:
        """A shell command line that starts the bot's program with its environment: append the program."""
        return shlex.join(["env", *(f"{k}={v}" for k, v in self.env.items())])


def advertised(address: str) -> str:
    """``host:port`` as a bot on another machine reaches it: a wildcard host becomes this machine's name."""
    host, _, port = address.rpartition(":")
    return f"{socket.getfqdn()}:{port}" if host in _WILDCARDS else address


def write_remote_bots(path: Path, league: str, server: str, bots: Sequence[RemoteBot]) -> None:
    """Write the league's remote bots to ``path``, readable by its user only (the tokens are secrets)."""
    lines = [f"# league {league}: the referee is at {server}. One line per remote bot: its name, a tab, then",
             "# the command that starts it (append the bot's program and its arguments). docs/leagues.md",
             *(f"{b.name}\t{b.command}" for b in bots)]
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)  # also when the file was there before
    with os.fdopen(fd, "w") as f:
        f.write("\n".join(lines) + "\n")
