"""Finished games as spectators get them, rendered away from the matches being played.

A spectator of an ended match (a web feed, a Watch stream) is owed every game of it, rebuilt from
the store: its log replayed through the engine, projected, encoded. That is pure Python, a few
milliseconds a game, and a match may have thousands: done on the referee's event loop, or in one of
its threads (which take the interpreter lock from the loop), it would stall every running match.
So the games are rendered in a worker process (``REPLAY_WORKERS``, at a lower CPU priority) that
opens the store itself and hands back bytes, one game at a time: a game's update is sent before the
next is rendered, so a request holds one game whatever the match's length, and its first message
comes at once. The referee only forwards bytes, kept in a cache bounded by bytes (``CACHE_BYTES``),
so opening the same match again costs writes (a match of more than a quarter of the cache is not
kept: read through, it would only push out every other match's games).

What one host may make it do is bounded too (:class:`Replays`): a token bucket on opening ended
matches (``mizerka serve --finished-feeds-per-minute``, ``--finished-feeds-burst``), at most one
game of each host rendered at a time, so one host cannot queue the worker for everyone, and a pace
on what its ended matches are sent (``--finished-feeds-kib-per-s``), so that reading as fast as it
can does not take the loop for the writes.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import multiprocessing
import os
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from mizerka_engine.views import SPECTATOR, project
from server.codec.protocol import results_to_proto, view_to_proto
from server.frames import game_frames, live_frame, scoresheet
from server.records import FinishedGame, finished_update, replay_finished
from server.settings import StreamLimits
from server.storage.store import Store
from server.transport.limits import HostBuckets
from server.web.updates import WebUpdate, web_update

REPLAY_WORKERS = 1  # processes rendering finished games for every spectator of the referee
REPLAY_NICE = 10  # their CPU priority below the referee's (os.nice): the matches come first
CACHE_BYTES = 32 * 1024 * 1024  # rendered games kept for the next spectator of the same match
ADMIN = "admin"  # the admin's renders queue apart from every host's


class Encoding(enum.Enum):
    """What a finished game is rendered as: a WatchUpdate's bytes (gRPC Watch) or its JSON (the web page)."""

    PROTO = "proto"
    WEB = "web"


Rendered = bytes | WebUpdate


@dataclass(frozen=True, slots=True)
class Job:
    """One game to render, as the worker process takes it."""

    game: FinishedGame
    encoding: Encoding

    @property
    def key(self) -> tuple[str, int, bool, bool, Encoding]:
        """What its rendering depends on: a stored game never changes."""
        g = self.game
        return g.match_id, g.index, g.full, g.last, self.encoding


# ------------------------------------------------------------------------------ in the worker
_store: Store | None = None  # the worker process's own connection to the referee's database


def _start_worker(url: str) -> None:
    global _store
    os.nice(REPLAY_NICE)
    _store = Store(url)


def render_in_worker(job: Job) -> Rendered | None:
    """The worker's part: one finished game's update, encoded; None if the game is not stored. A
    record for the web page carries the board's frames and the score sheet too (server/frames.py):
    the page steps through a full one with the report's board, and draws a spectator's last view."""
    assert _store is not None, "render runs in a worker started by _start_worker"
    replayed = replay_finished(_store, job.game)
    if replayed is None:
        return None
    update = finished_update(_store, job.game, replayed)
    if job.encoding is Encoding.PROTO:
        return update.SerializeToString()
    board = {"frames": game_frames(replayed)} if job.game.full else {"frame": live_frame(replayed.rules, view_to_proto(project(replayed, SPECTATOR)))}
    return web_update(update, board | {"scoresheet": scoresheet(replayed.rules, results_to_proto(replayed.results), replayed.totals)})


# ------------------------------------------------------------------------------ in the referee
class RenderedCache:
    """Rendered games, the least recently used dropped first once they hold more than ``max_bytes``."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._items: OrderedDict[tuple[str, int, bool, bool, Encoding], Rendered] = OrderedDict()

    def get(self, job: Job) -> Rendered | None:
        found = self._items.get(job.key)
        if found is not None:
            self._items.move_to_end(job.key)
        return found

    def put(self, job: Job, rendered: Rendered) -> None:
        if len(rendered) > self.max_bytes or job.key in self._items:
            return
        self._items[job.key] = rendered
        self.bytes += len(rendered)
        while self.bytes > self.max_bytes:
            _, dropped = self._items.popitem(last=False)
            self.bytes -= len(dropped)

    def __len__(self) -> int:
        return len(self._items)


@dataclass(slots=True)
class _Turn:
    """One host's place at the renderer: its renders go one at a time."""

    lock: asyncio.Lock
    users: int = 0


Renderer = Callable[[Job], Awaitable[Rendered | None]]


class Replays:
    """The referee's side of the renderer (one per Arena): the worker pool, the cache, the hosts'
    buckets and turns."""

    def __init__(self, url: str, limits: StreamLimits, *, workers: int = REPLAY_WORKERS,
                 cache_bytes: int = CACHE_BYTES, clock: Callable[[], float] = time.monotonic) -> None:
        """``url``: the referee's database, which the workers open themselves; ``limits``: how many
        ended matches a host may open (``finished_feeds_burst``, ``finished_feeds_per_minute``)."""
        self.url = url
        self.workers = workers
        self.cache = RenderedCache(cache_bytes)
        self.buckets = HostBuckets(limits.finished_feeds_per_minute / 60, limits.finished_feeds_burst, clock)
        rate = limits.finished_feeds_kib_per_s * 1024
        self.paces = HostBuckets(rate, rate, clock)  # bytes sent, per host
        self.sleep = asyncio.sleep  # the pace's wait (the tests count it)
        self.turns: dict[str, _Turn] = {}  # host -> its renders waiting or under way
        self._pool: ProcessPoolExecutor | None = None
        self.render: Renderer = self._in_pool  # one game in the pool (the tests wrap it to count renders)

    def admit(self, host: str) -> float:
        """A host opens an ended match: 0 if it may, else the seconds until it may."""
        return self.buckets.take(host)

    async def games(self, games: Sequence[FinishedGame], encoding: Encoding, host: str, paced: bool = True) -> AsyncIterator[Rendered]:
        """Each of ``games`` rendered, in order, each only once the one before was taken, at the
        host's pace unless not ``paced`` (the organiser); a game the store lost meanwhile is left out."""
        share = self.cache.max_bytes // (4 * max(1, len(games)))  # what a game of these may take of the cache
        for game in games:
            job = Job(game, encoding)
            rendered = self.cache.get(job)
            if rendered is None:
                async with self._turn(host):
                    rendered = await self.render(job)
                if rendered is None:
                    continue
                if len(rendered) <= share:
                    self.cache.put(job, rendered)
            if paced and (wait := self.paces.spend(host, len(rendered))):
                await self.sleep(wait)
            yield rendered

    @contextlib.asynccontextmanager
    async def _turn(self, host: str) -> AsyncIterator[None]:
        turn = self.turns.get(host)
        if turn is None:
            turn = self.turns[host] = _Turn(asyncio.Lock())
        turn.users += 1
        try:
            async with turn.lock:
                yield
        finally:
            turn.users -= 1
            if not turn.users:
                del self.turns[host]

    async def _in_pool(self, job: Job) -> Rendered | None:
        if self._pool is None:  # started at the first ended match watched
            self._pool = ProcessPoolExecutor(self.workers, multiprocessing.get_context("spawn"),
                                             initializer=_start_worker, initargs=(self.url,))
        pool = self._pool
        try:
            return await asyncio.wrap_future(pool.submit(render_in_worker, job))
        except BrokenProcessPool:  # a worker died (killed, out of memory): the next spectator gets new ones
            if self._pool is pool:
                self._pool = None
            raise

    def close(self) -> None:
        """Stop the workers (the renders under way are abandoned)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
