"""Pacing the bots' messages across event-loop iterations, so that no iteration runs long.

asyncio runs every callback that is ready in one iteration of its loop, and grpc.aio takes a new
RPC from gRPC core only every few iterations (it asks for one call at a time). Unpaced, a thousand
matches whose bots answer at once make every iteration tens of milliseconds long: new Play streams
then wait in gRPC's queue until gRPC cancels them (after 30 s), admin calls and clocks lag. Paced,
an iteration lasts about a millisecond whatever the number of matches: the work is the same, only
spread over more iterations, and streams, admin calls and timers get their turn between them.

Pacing is for a loop that has more to do than it can: while iterations are long (over four times
the target) or messages have waited ``standing_s`` without a break (a backlog that never empties,
as CoDel tells overload), the allowance follows the iterations' length; otherwise it doubles at
every iteration, back to ``most``. Following the length alone leaves a loop that keeps up with a
backlog of its own: a few long iterations (a young collection, a burst of writes) cut the
allowance, and at a steady load below saturation an iteration lasts about the target whatever the
allowance, so the allowance settles at the arrivals per iteration and the messages behind wait tens
of milliseconds (measured with 1,000 matches of bots thinking 500 ms and the referee at 0.7 of a
core: tests/bench/bench_load.py; the runs are in BENCHMARKS.md's history, `git show a3fa597`).
"""

from __future__ import annotations

import asyncio
from collections import deque

__all__ = ["Pacer"]


class Pacer:
    """Each :meth:`turn` stands for one unit of work (a message from a bot and what it sets off). At
    most ``allowance`` turns start per loop iteration; the others wait, in arrival order. While the
    loop is overloaded (the module docstring) the allowance shrinks while an iteration takes longer
    than ``iteration_s`` and grows while it takes less; otherwise it grows back to ``most``."""

    def __init__(self, iteration_s: float = 0.001, most: int = 256, standing_s: float = 0.1) -> None:
        self.iteration_s = iteration_s
        self.most = most
        self.standing_s = standing_s
        self._waiting_since: float | None = None  # since when turns have waited without a break
        self.allowance = float(most)
        self.used = 0  # turns started since the last tick
        self.waiting: deque[asyncio.Future[None]] = deque()
        self._armed = False
        self._ticked_at: float | None = None  # when the last tick ran, while ticks run back to back

    async def turn(self) -> None:
        """Return when this unit of work may start: at once while the allowance lasts."""
        if not self.waiting and self.used < self.allowance:
            self.used += 1
            self._arm()
            return
        future = asyncio.get_running_loop().create_future()
        self.waiting.append(future)
        self._arm()
        await future  # cancelled: _tick skips it

    def _arm(self) -> None:
        if not self._armed:
            self._armed = True
            asyncio.get_running_loop().call_soon(self._tick)

    def _tick(self) -> None:
        """Once an iteration while there is work: adapt the allowance (to how long the last iteration
        took, if overloaded), then let the longest waiting start."""
        self._armed = False
        now = asyncio.get_running_loop().time()
        if not self.waiting:
            self._waiting_since = None
        elif self._waiting_since is None:
            self._waiting_since = now
        if self._ticked_at is not None:  # the last tick ran one iteration ago
            iteration = now - self._ticked_at
            standing = self._waiting_since is not None and now - self._waiting_since >= self.standing_s
            if standing or iteration > 4 * self.iteration_s:  # overloaded
                factor = min(2.0, max(0.5, (self.iteration_s / max(iteration, 1e-6)) ** 0.5))
            else:
                factor = 2.0  # keeping up: nothing to hold back
            self.allowance = min(float(self.most), max(1.0, self.allowance * factor))
        busy = self.used > 0
        self.used = 0
        while self.waiting and self.used < self.allowance:
            future = self.waiting.popleft()
            if not future.done():
                future.set_result(None)
                self.used += 1
        if busy or self.used or self.waiting:
            self._ticked_at = now
            self._arm()
        else:
            self._ticked_at = None
