"""Pacing the bots' messages across event-loop iterations, so that no iteration runs long.

asyncio runs every callback that is ready in one iteration of its loop, and grpc.aio takes a new
RPC from gRPC core only every few iterations (it asks for one call at a time). Unpaced, a thousand
matches whose bots answer at once make every iteration tens of milliseconds long: new Play streams
then wait in gRPC's queue until gRPC cancels them (after 30 s), admin calls and clocks lag. Paced,
an iteration lasts about a millisecond whatever the number of matches: the work is the same, only
spread over more iterations, and streams, admin calls and timers get their turn between them.
"""

from __future__ import annotations

import asyncio
from collections import deque

__all__ = ["Pacer"]


class Pacer:
    """Each :meth:`turn` stands for one unit of work (a message from a bot and what it sets off). At
    most ``allowance`` turns start per loop iteration; the others wait, in arrival order. The
    allowance follows the iterations' length: it shrinks while an iteration takes longer than
    ``iteration_s`` and grows (up to ``most``) while it takes less."""

    def __init__(self, iteration_s: float = 0.001, most: int = 256) -> None:
        self.iteration_s = iteration_s
        self.most = most
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
        """Once an iteration while there is work: adapt the allowance to how long the last iteration
        took, then let the longest waiting start."""
        self._armed = False
        now = asyncio.get_running_loop().time()
        if self._ticked_at is not None:  # the last tick ran one iteration ago
            ratio = self.iteration_s / max(now - self._ticked_at, 1e-6)
            self.allowance = min(float(self.most), max(1.0, self.allowance * min(2.0, max(0.5, ratio**0.5))))
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
