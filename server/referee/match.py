"""The live referee: one game's turn loop (:class:`~server.referee.session.GameSession`) driven over
seat ports and the event loop's clock.

Transport-agnostic: each seat is a :class:`SeatPort` that moves protocol messages. Time is the
event loop's monotonic clock (``loop.time()``), so tests run it on a fake loop clock, instantly and
exactly. A deadline is one ``asyncio.timeout_at`` around one ``await port.receive()``; the port's
queue is fed by its own reader task, so a timeout never touches the underlying stream.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Protocol

from mizerka_proto import referee_pb2
from server.engine.game import Game
from server.engine.rules import Ruleset
from server.referee.session import Disconnected, GameRecord, GameSession, SeatInfo
from server.settings import ClockSettings

YIELD_EVERY = 16  # answers worked through in a row before the referee lets the other matches run


class SeatPort(Protocol):
    """A seat's two directions. ``receive`` raises Disconnected once the bot's side has ended.

    ``send`` must not wait on the bot (queue the message and return): a bot that stops reading
    must never stall the match for the others; the port declares it disconnected instead.

    A port may also have (GameRunner calls them if present; :class:`server.streams.StreamSeat`
    does): ``turn_started(turn)`` just before the seat's DecisionRequest goes out,
    ``turn_settled(strikes)`` once that turn is settled, and ``out_of_turn``, the Actions it
    refused by itself in this game (STALE_TURN, NOT_YOUR_TURN), counted as the seat's ``stale``.
    """

    live_events: bool  # Hello.live_events: send events as they happen, not only with decisions

    async def send(self, message: referee_pb2.RefereeMessage) -> None: ...

    async def receive(self) -> referee_pb2.BotMessage: ...


def game_seed(match_seed: str, game_index: int) -> str:
    """Game i of a match deals from its own seed, the same for every match with this seed (duplicates)."""
    return f"{match_seed}/{game_index}"


def seat_info(port: SeatPort | None) -> SeatInfo:
    """What the session needs to know of a port (a port may go away mid-game; Hello stays recorded)."""
    if port is None:
        return SeatInfo(present=False)
    return SeatInfo(True, port.live_events, getattr(port, "version", None), getattr(port, "hello_name", None))


class GameRunner:
    """Plays one game on the given ports and returns its record; never raises for a bot's fault."""

    def __init__(
        self,
        match_id: str,
        rules: Ruleset,
        seed: str,
        game_index: int,
        ports: Sequence[SeatPort | None],
        names: Sequence[str],
        clock: ClockSettings,
        games: int = 1,
        on_update: Callable[[Game], None] | None = None,
    ) -> None:
        self.ports = list(ports)  # None once a seat's bot is gone
        self._ports = list(ports)  # as given, for their hooks and counts
        self._counted = False
        self.game_index = game_index
        self.session = GameSession(
            match_id, rules, seed, game_index, [seat_info(p) for p in self.ports], names, clock, games, on_update
        )

    @property
    def game(self) -> Game:
        return self.session.game

    async def _flush(self) -> None:
        """Send what the session queued; a port found gone is reported back to it."""
        session = self.session
        while session.outbox:
            for out in session.take():
                port = self.ports[out.seat]
                if port is None or not session.connected[out.seat]:
                    continue
                try:
                    await port.send(out.message)
                except Disconnected:
                    self.ports[out.seat] = None
                    session.disconnect(out.seat)

    def _tell(self, seat: int, hook: str, value: int) -> None:
        method = getattr(self._ports[seat], hook, None)
        if method is not None:
            method(value)

    def _count_out_of_turn(self) -> None:
        """Add the answers the ports refused by themselves to the seats' records (once)."""
        if not self._counted:
            self._counted = True
            for seat, port in enumerate(self._ports):
                self.session.records[seat].stale += getattr(port, "out_of_turn", 0)

    async def run(self) -> GameRecord:
        session = self.session
        session.start()
        await self._flush()
        loop = asyncio.get_running_loop()
        while (ask := session.next_ask()) is not None:
            self._tell(ask.seat, "turn_started", ask.turn)
            await self._flush()
            port = self.ports[ask.seat]
            started = loop.time()  # the clock runs from the moment the request is handed to the transport
            deadline = started + ask.allowed_ms / 1000.0
            answers = 0
            while session.pending is ask and port is not None:
                try:
                    async with asyncio.timeout_at(deadline):
                        message = await port.receive()
                except TimeoutError:
                    session.time_out(overshoot_ms=(loop.time() - deadline) * 1000.0)
                except Disconnected:
                    self.ports[ask.seat] = None
                    session.disconnect(ask.seat, (loop.time() - started) * 1000.0)
                else:
                    session.answer(message, (loop.time() - started) * 1000.0)
                    answers += 1
                await self._flush()
                if answers >= YIELD_EVERY:  # a queue full of one bot's answers never holds up the other matches
                    answers = 0
                    await asyncio.sleep(0)
            self._tell(ask.seat, "turn_settled", session.records[ask.seat].strikes)
        await self._flush()
        self._count_out_of_turn()
        return session.record()

    async def abort(self, reason: str) -> GameRecord:
        """Tell every seat the game stops here (server shutdown); returns the record so far."""
        self._count_out_of_turn()
        record = self.session.abort(reason)
        await self._flush()
        return record
