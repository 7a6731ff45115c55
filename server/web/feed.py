"""A match's feed on the web page: server-sent events of the spectator's WatchUpdates
(:func:`server.watch.watch_updates`, never the admin's), paced so that spectators cost the referee a
bounded amount however fast bots play, and one :class:`Broadcast` per live match whose bytes every
spectator of it shares; a spectator too far behind is dropped, not waited for.
"""

from __future__ import annotations

import asyncio
import contextlib

import structlog

from server.arena import Arena
from server.replays import Encoding
from server.storage.store import MatchRow
from server.watch import Update, watch_updates
from server.web.updates import WebUpdate

log = structlog.get_logger("web")

# At most one update per live match per PACE_S, whatever its number of spectators (Broadcast): what
# changed meanwhile comes folded into the next one (server/watch.py), so spectators cost the referee
# a bounded amount however fast bots play.
PACE_S = 0.3  # about three a second: enough to see the cards, cheap for the referee (BENCHMARKS.md, "Spectators on the web page")
END = b"event: end\ndata: {}\n\n"
DROPPED = b""  # a spectator too far behind: its feed is closed without an end, and its browser reconnects
MAX_BEHIND = 50  # updates a spectator's connection may fall behind its match's feed (15 s at PACE_S)


class Framer:
    """Updates as one feed sends them: the ruleset and the names (the header) only in the first
    update of each game it sends; the page keeps them."""

    def __init__(self) -> None:
        self.started: set[int] = set()  # the games whose header was sent

    def frame(self, update: WebUpdate) -> bytes:
        first = update.game_number not in self.started
        self.started.add(update.game_number)
        return update.frame(first)


def as_web(update: Update) -> WebUpdate:
    """An update of a feed the page asked for as Encoding.WEB: JSON, live or ended."""
    assert isinstance(update, WebUpdate), "the page asks for its updates as Encoding.WEB"
    return update


class Broadcast:
    """A live match's feed for every spectator of it on the page: one :func:`watch_updates` (one
    projection per change, folded when changes come faster than ``pace_s``; the view and the
    board's frame of it, without the events), each update made JSON once, the same bytes written
    to all. A spectator who joins first gets the latest update of each game so far, with its
    header. Once the match has ended its games come from the renderer (server/replays.py) and new
    spectators get a feed of their own."""

    def __init__(self, arena: Arena, row: MatchRow, pace_s: float, casts: dict[str, Broadcast]) -> None:
        self.arena = arena
        self.row = row
        self.pace_s = pace_s
        self.casts = casts  # the page's live feeds by match id: this one leaves it once nobody may join
        self.framer = Framer()
        self.latest: dict[int, WebUpdate] = {}  # game number -> its latest live update, for late joiners
        self.spectators: set[asyncio.Queue[bytes | None]] = set()
        self.task = asyncio.create_task(self._run(), name=f"web feed {row.id}")

    def join(self) -> asyncio.Queue[bytes | None]:
        queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        for update in self.latest.values():
            queue.put_nowait(update.frame(True))
        self.spectators.add(queue)
        return queue

    def leave(self, queue: asyncio.Queue[bytes | None]) -> None:
        self.spectators.discard(queue)
        if not self.spectators:  # nobody watches: stop projecting (or rendering)
            self._detach()
            self.task.cancel()

    def _detach(self) -> None:
        """No spectator joins this feed any more."""
        if self.casts.get(self.row.id) is self:
            del self.casts[self.row.id]

    def _send(self, message: bytes | None) -> None:
        for queue in list(self.spectators):
            if message is not None and queue.qsize() >= MAX_BEHIND:
                queue.put_nowait(DROPPED)
                self.spectators.discard(queue)
            else:
                queue.put_nowait(message)

    async def _run(self) -> None:
        end: bytes | None = DROPPED  # stopped (the referee shuts down) or failed: the browsers reconnect
        try:
            async with contextlib.aclosing(watch_updates(self.arena, self.row, False, f"page {self.row.id}", Encoding.WEB,
                                                         events=False, pace_s=self.pace_s)) as updates:
                async for update in updates:
                    data = as_web(update)
                    if data.live:
                        self.latest[data.game_number] = data
                    else:  # the match has ended: its games are sent as they come, kept by no one
                        self._detach()
                        self.latest.clear()
                    self._send(self.framer.frame(data))
            end = None  # the feed's end
        except Exception:  # a store error
            log.exception("web feed failed", match_id=self.row.id)
        finally:
            self._detach()
            self._send(end)
