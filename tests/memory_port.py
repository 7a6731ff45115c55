"""An in-memory SeatPort for GameRunner tests (test_referee.py, test_matchlog.py): the referee's
messages to the bot go on one queue, the bot's answers on another."""

from __future__ import annotations

import asyncio
from typing import Any

from mizerka_proto import referee_pb2
from server.referee.match import Disconnected, SeatPort

_CLOSE = object()


class MemoryPort(SeatPort):
    """A SeatPort over two queues; ``close()`` is the bot hanging up. ``hello_name`` and ``version``
    are what a StreamSeat keeps from Hello (None: as a port without them); the other optional parts
    are SeatPort's defaults."""

    def __init__(self, live_events: bool = False, hello_name: str | None = None, version: str | None = None) -> None:
        self.live_events = live_events
        self.hello_name = hello_name
        self.version = version
        self.to_bot: asyncio.Queue[referee_pb2.RefereeMessage] = asyncio.Queue()
        self.to_referee: asyncio.Queue[Any] = asyncio.Queue()
        self.closed = False

    async def send(self, message: referee_pb2.RefereeMessage) -> None:
        if self.closed:
            raise Disconnected()
        self.to_bot.put_nowait(message)

    async def receive(self) -> referee_pb2.BotMessage:
        item = await self.to_referee.get()
        if item is _CLOSE:
            self.to_referee.put_nowait(_CLOSE)
            raise Disconnected()
        return item

    def close(self) -> None:
        self.closed = True
        self.to_referee.put_nowait(_CLOSE)
