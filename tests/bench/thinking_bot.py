"""A bot for the workers' benchmark: the heuristic bot, thinking a fixed time per decision
($THINK_MS, default 50), so a league's speed is set by how many games run at once."""

from __future__ import annotations

import os
import time
from typing import Any

from mizerka.bots import HeuristicBot
from mizerka.runtime import run
from mizerka.turn import Turn

THINK_S = int(os.environ.get("THINK_MS", "50")) / 1000


class ThinkingBot(HeuristicBot):
    def decide(self, turn: Turn) -> Any:
        time.sleep(THINK_S)  # the SDK runs decide in a thread: other games of this process go on
        return super().decide(turn)


if __name__ == "__main__":
    run(ThinkingBot)
