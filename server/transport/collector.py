"""CPython's garbage collector, tuned for a referee that holds many matches.

A full collection walks every object the collector tracks: with a thousand matches and three
thousand streams some 600,000 of them (grpc.aio's coroutines, tasks and futures of every stream,
every game's records), a stall of 0.3 to 0.7 s during which no clock, stream or admin call moves.
Almost all of them live long (a stream, a game) and end by reference counting, not in a cycle that
only the collector can free.

CPython's own young collections do not fit this load either. They start when allocations exceed
deallocations by 700, and every object freed counts as a deallocation, however old it was. With
thousands of streams each awaiting a bot, a new coroutine and future for every awaited message
roughly balances an old one freed, so the young generation fills with every live await. Each
young collection then walks all of them again: 40 to 60 ms pauses and 6 to 8% of the referee's
CPU at 1,000 matches (`make bench-load`; the runs are in BENCHMARKS.md's history, `git show 6132343`).

So the automatic collector is off and this one runs on the event loop:

- every ``young_every_s`` it collects the youngest generation: only what was allocated since the
  last tick, a millisecond or two at most. Then it freezes the survivors (``gc.freeze``). A frozen
  object is never walked again and is still freed by reference counting as usual. Each object is
  walked once. A tick that finds next to nothing (under ``quiet_s``) doubles the time to the next,
  up to ``idle_every_s``; a busier one sets it back. An idle referee so wakes twice a second rather
  than fifty times (1.2% of a core down to 0.1%), and the first tick after it wakes walks at most
  half a second of allocations.
- a full collection unfreezes everything, collects and freezes again. This frees any cycle that
  formed among frozen objects. It stops the loop (0.2 to 0.5 s at 1,000 matches): :meth:`paused`
  adds up those stops, which the bots' clocks leave out. It runs every ``full_every_s``, and also when, checked every
  ``check_every_s``, the interpreter's allocated memory blocks (``sys.getallocatedblocks``, live
  or garbage) exceed by ``full_share`` what the last full collection left. That bounds the garbage
  such cycles can hold to a share of what is alive.

Two cheaper-looking triggers do not work. Counting the frozen objects (``gc.get_freeze_count``)
walks all of them: done every tick, it halved the referee's throughput. Counting the objects
frozen since the last full collection ignores those freed since: with thinking bots, every
awaited message survives a tick and is freed half a second later, so that count set off a 0.5 s
full collection every 5 s.
"""

from __future__ import annotations

import asyncio
import gc
import sys
import time
from bisect import bisect_left

import structlog

__all__ = ["LAG_BUCKETS", "Collector"]

# Upper bounds (seconds) of the loop-lag buckets: how late a due timer ran (docs/metrics.md).
LAG_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)

log = structlog.get_logger("collector")


class Collector:
    """The policy above, from :meth:`start` (on the server's event loop) to :meth:`stop`."""

    def __init__(self, young_every_s: float = 0.02, full_every_s: float = 300.0, full_share: float = 0.5,
                 check_every_s: float = 1.0, idle_every_s: float = 0.5, quiet_s: float = 50e-6) -> None:
        self.young_every_s = young_every_s
        self.idle_every_s = idle_every_s
        self.quiet_s = quiet_s
        self.every_s = young_every_s  # to the next young tick
        self.full_every_s = full_every_s
        self.full_share = full_share
        self.check_every_s = check_every_s
        self.young_collections = 0
        self.full_collections = 0
        self._paused_s = 0.0  # the loop's time spent in full collections: the bots' clocks skip it (server/referee/match.py)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._was_enabled = False
        self._young: asyncio.TimerHandle | None = None
        self._full: asyncio.TimerHandle | None = None
        self._check: asyncio.TimerHandle | None = None
        self._blocks = 0  # allocated blocks after the last full collection
        self.lag_buckets = [0] * (len(LAG_BUCKETS) + 1)  # young ticks per lateness bucket (not cumulative), the last above 1 s
        self.lag_s = 0.0  # their lateness added up

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._was_enabled = gc.isenabled()
        gc.disable()
        gc.freeze()  # what the server holds from its start (modules, stubs, grpc) is never walked again
        self._blocks = sys.getallocatedblocks()
        self.every_s = self.young_every_s
        self._young = loop.call_later(self.every_s, self._collect_young)
        self._full = loop.call_later(self.full_every_s, self._collect_all)
        self._check = loop.call_later(self.check_every_s, self._check_growth)

    def paused(self) -> float:
        """Seconds the event loop stood still in full collections so far (young ticks take a
        millisecond or two, like any busy moment of the loop, and are not counted)."""
        return self._paused_s

    def stop(self) -> None:
        for timer in (self._young, self._full, self._check):
            if timer is not None:
                timer.cancel()
        self._young = self._full = self._check = None
        gc.unfreeze()
        if self._was_enabled:
            gc.enable()

    def _collect_young(self) -> None:
        """Also measures the event loop's lag: how long after it was due this tick runs is how long
        the loop was busy (or paused) with everything else before it (the mizerka_event_loop_lag
        metric). One subtraction a tick, so it costs nothing the referee would notice."""
        assert self._loop is not None and self._young is not None
        lag = max(0.0, self._loop.time() - self._young.when())
        self.lag_buckets[bisect_left(LAG_BUCKETS, lag)] += 1
        self.lag_s += lag
        started = time.perf_counter()
        gc.collect(0)
        gc.freeze()
        quiet = time.perf_counter() - started < self.quiet_s
        self.young_collections += 1
        self.every_s = min(self.every_s * 2, self.idle_every_s) if quiet else self.young_every_s
        self._young = self._loop.call_later(self.every_s, self._collect_young)

    def _check_growth(self) -> None:
        assert self._loop is not None
        if sys.getallocatedblocks() > self._blocks * (1 + self.full_share):  # ~0.3 ms at 300 MB
            self._collect_all()
        self._check = self._loop.call_later(self.check_every_s, self._check_growth)

    def _collect_all(self) -> None:
        assert self._loop is not None
        started = self._loop.time()
        gc.unfreeze()
        freed = gc.collect()
        gc.freeze()
        self._blocks = sys.getallocatedblocks()
        self.full_collections += 1
        took = self._loop.time() - started
        self._paused_s += took
        log.info("full garbage collection", freed=freed, memory_blocks=self._blocks,
                 ms=round(took * 1000, 1))  # counting the frozen would walk them again
        if self._full is not None:
            self._full.cancel()
        self._full = self._loop.call_later(self.full_every_s, self._collect_all)
