"""What a stranger may cost the referee, however often it asks.

:class:`HostBuckets`: one token bucket per host (keyed by address): ``burst`` requests at once, then
``rate_per_s`` a second. :class:`Cooldowns`: hosts told to come back later (a 429), whose new
connections the web page closes as soon as they are accepted until then, so that a client asking
again at once costs an accept, not a parse and an answer. Both remember at most ``max_hosts``
hosts (the least recently seen are forgotten: a forgotten host starts again with a full bucket, or
cooled down), so a crowd of addresses cannot grow them without bound. :class:`SharedAnswer`: an
answer computed at most once per interval and shared, as bytes, by everyone who asks meanwhile.
Clocks are injectable for tests.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

MAX_HOSTS = 4096


class HostBuckets:
    """A token bucket per host; :meth:`take` says how long the host must wait (0: it may go on now)."""

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

    def take(self, host: Hashable) -> float:
        """Take one token of ``host``'s bucket: 0 if there was one (go on), else the seconds until
        there is one."""
        now = self.clock()
        tokens, at = self._buckets.get(host, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate_per_s)
        allowed = tokens >= 1
        self._buckets[host] = (tokens - 1 if allowed else tokens, now)
        _remembered(self._buckets, host, self.max_hosts)
        return 0.0 if allowed else (1 - tokens) / self.rate_per_s

    def spend(self, host: Hashable, amount: float) -> float:
        """Take ``amount`` tokens of ``host``'s bucket, going into debt if it has fewer: the seconds
        until the debt is paid (0 if there was no debt), which the caller waits before going on: a
        pace, not a refusal."""
        now = self.clock()
        tokens, at = self._buckets.get(host, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate_per_s) - amount
        self._buckets[host] = (tokens, now)
        _remembered(self._buckets, host, self.max_hosts)
        return max(0.0, -tokens / self.rate_per_s)


class Cooldowns:
    """Hosts that must wait before they ask again: :meth:`start` when one is refused, :meth:`cooling`
    while it must still wait."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, max_hosts: int = MAX_HOSTS) -> None:
        self.clock = clock
        self.max_hosts = max_hosts
        self._until: OrderedDict[Hashable, float] = OrderedDict()  # host -> when it may ask again

    def start(self, host: Hashable, seconds: float) -> None:
        self._until[host] = max(self._until.get(host, -math.inf), self.clock() + seconds)
        _remembered(self._until, host, self.max_hosts)

    def cooling(self, host: Hashable) -> bool:
        until = self._until.get(host)
        if until is None:
            return False
        if self.clock() < until:
            return True
        del self._until[host]
        return False


def _remembered(table: OrderedDict[Hashable, Any], host: Hashable, max_hosts: int) -> None:
    """``host`` made the most recently seen of ``table``, and the least recently seen forgotten
    beyond ``max_hosts``."""
    table.move_to_end(host)
    while len(table) > max_hosts:
        table.popitem(last=False)


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
