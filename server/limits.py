"""What a stranger may cost the referee, however often it asks.

:class:`HostBuckets`: one token bucket per host (the web page's clients, keyed by address):
``burst`` requests at once, then ``rate_per_s`` a second. At most ``max_hosts`` hosts are remembered
(the least recently seen are forgotten: a forgotten host starts again with a full bucket), so a
crowd of addresses cannot grow the table without bound. :class:`SharedAnswer`: an answer computed
at most once per interval and shared, as bytes, by everyone who asks meanwhile. Clocks are
injectable for tests.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable

MAX_HOSTS = 4096


class HostBuckets:
    """A token bucket per host; :meth:`take` says whether the host may go on now."""

    def __init__(self, rate_per_s: float, burst: float, clock: Callable[[], float] = time.monotonic,
                 max_hosts: int = MAX_HOSTS) -> None:
        if rate_per_s <= 0 or burst < 1 or max_hosts < 1:
            raise ValueError(f"a rate limit needs rate_per_s > 0, burst >= 1 and max_hosts >= 1, not "
                             f"{rate_per_s}, {burst}, {max_hosts}")
        self.rate_per_s = rate_per_s
        self.burst = burst
        self.clock = clock
        self.max_hosts = max_hosts
        self._buckets: OrderedDict[Hashable, tuple[float, float]] = OrderedDict()  # host -> (tokens, at)

    def take(self, host: Hashable) -> bool:
        """Take one token of ``host``'s bucket: True if there was one (go on), False if it is empty."""
        now = self.clock()
        tokens, at = self._buckets.get(host, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate_per_s)
        allowed = tokens >= 1
        self._buckets[host] = (tokens - 1 if allowed else tokens, now)
        self._buckets.move_to_end(host)
        while len(self._buckets) > self.max_hosts:
            self._buckets.popitem(last=False)
        return allowed


class SharedAnswer:
    """An answer anyone may ask for as often as they like (``/api/arena``): ``compute`` (blocking:
    it reads the store) runs in a worker thread at most once per ``every_s``, counted from the end
    of the last run, and every asker meanwhile gets the same bytes; those who ask while it runs wait
    for that run. So the askers cost the referee one computation a period, however many they are."""

    def __init__(self, compute: Callable[[], bytes], every_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.compute = compute
        self.every_s = every_s
        self.clock = clock
        self._answer = b""
        self._at = -math.inf  # when the answer was computed
        self._running: asyncio.Future[bytes] | None = None

    async def get(self) -> bytes:
        if self.clock() - self._at < self.every_s:
            return self._answer
        if self._running is None:
            self._running = asyncio.ensure_future(self._refresh())
        return await asyncio.shield(self._running)  # an asker who leaves does not cancel the others' answer

    async def _refresh(self) -> bytes:
        try:
            answer = await asyncio.to_thread(self.compute)
            self._answer, self._at = answer, self.clock()
            return answer
        finally:
            self._running = None
