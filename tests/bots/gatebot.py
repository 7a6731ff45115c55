"""A bot whose games wait for the test, so that a test sees a league mid-way by construction rather
than by being quicker than the bots (an SDK bot: it plays as many games at once as the runner asks).

Usage: gatebot.py DIR  (server, token and streams from MIZERKA_SERVER / MIZERKA_TOKEN / MIZERKA_PARALLEL)

Each stream counts its games from 0. In its game k the bot plays the referee's default answer at
once, except at its first turn to play to a trick that already has a card: there it waits until
the file DIR/k exists (the test opens game k's gate by creating it). The game is then held with a
card on the table: a spectator sees the trick in progress. DIR is an argument of its own so that
a sandboxed bot is let read it (a sandbox shows a command's folders).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from mizerka.bot import Bot
from mizerka.runtime import run
from mizerka.turn import PLAY, Turn
from mizerka_proto import referee_pb2

POLL_S = 0.02  # how often a closed gate is looked at again


class GateBot(Bot):
    """One stream's bot: waits at game k's gate (see the module's docstring)."""

    name = "gatebot"

    def __init__(self, gates: Path) -> None:
        self.gates = gates
        self.game = 0
        self.passed = False  # this game's gate passed: the rest of the game is played at once

    def decide(self, turn: Turn) -> object:
        if turn.kind == PLAY and turn.trick and not self.passed:
            gate = self.gates / str(self.game)
            while not gate.exists():
                time.sleep(POLL_S)
            self.passed = True
        return turn.fallback()

    def on_game_end(self, end: referee_pb2.GameEnd) -> None:
        self.game += 1
        self.passed = False


def main() -> None:
    gates = Path(sys.argv[1])
    if not gates.is_dir():
        sys.exit(f"gatebot.py: {gates} is not a folder")
    stats = run(lambda: GateBot(gates))
    sys.exit(130 if stats.interrupted else 0)


if __name__ == "__main__":
    main()
