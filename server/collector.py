"""CPython's garbage collector, tuned for a referee that holds many matches.

A full collection walks every object the collector tracks: with a thousand matches and three
thousand streams some 600,000 of them (grpc.aio's coroutines, tasks and futures of every stream,
every game's records), a stall of 0.3 to 0.7 s every few seconds during which no clock, stream or
admin call moves. Almost all of them live long (a stream, a game) and end by reference counting,
not in a cycle that only the collector can free. So what survives a collection of the older
young generation is frozen (``gc.freeze``: never walked again, still freed by reference counting
as usual), and every ``full_every_s`` all is unfrozen and collected once, which frees any cycle
that formed among frozen objects. Young collections, which walk only new objects, run as before.
"""

from __future__ import annotations

import asyncio
import gc
from typing import Any

__all__ = ["Collector"]


class Collector:
    """The policy above, from :meth:`start` (on the server's event loop) to :meth:`stop`."""

    def __init__(self, full_every_s: float = 300.0) -> None:
        self.full_every_s = full_every_s
        self.full_collections = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._freeze_queued = False
        self._timer: asyncio.TimerHandle | None = None

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        gc.freeze()  # what the server holds from its start (modules, stubs, grpc) is never walked again
        gc.callbacks.append(self._collected)
        self._timer = loop.call_later(self.full_every_s, self._collect_all)

    def stop(self) -> None:
        if self._collected in gc.callbacks:
            gc.callbacks.remove(self._collected)
        if self._timer is not None:
            self._timer.cancel()
        gc.unfreeze()

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        """A gc callback (in whatever thread collected): freeze the survivors, on the loop."""
        if phase == "stop" and info["generation"] >= 1 and not self._freeze_queued and self._loop is not None:
            self._freeze_queued = True
            self._loop.call_soon_threadsafe(self._freeze)

    def _freeze(self) -> None:
        self._freeze_queued = False
        gc.freeze()

    def _collect_all(self) -> None:
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.full_collections += 1
        assert self._loop is not None
        self._timer = self._loop.call_later(self.full_every_s, self._collect_all)
