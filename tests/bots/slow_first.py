"""The stdio example bot (clients/stdio/bot.py), answering its first decision only after SECONDS
seconds and every later one at once: too slow for a short ``--answer-timeout``, in time for a long
one (tests/test_replay.py).

Usage: slow_first.py SECONDS
"""

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "stdio"))
import bot  # noqa: E402 (the example bot, from its folder)


class SlowFirst(bot.Bot):
    def __init__(self, delay_s: float) -> None:
        super().__init__()
        self.delay_s = delay_s

    def answer(self, body: dict) -> None:
        if self.delay_s:
            time.sleep(self.delay_s)
            self.delay_s = 0.0
        super().answer(body)


def main() -> None:
    player = SlowFirst(float(sys.argv[1]))
    for line in sys.stdin:
        if line.strip():
            player.handle(json.loads(line))


if __name__ == "__main__":
    main()
