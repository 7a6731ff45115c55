"""The live referee: one game's turn loop (:class:`~server.referee.session.GameSession`) driven over
seat ports and the event loop's clock.

Transport-agnostic: each seat is a :class:`SeatPort` that moves protocol messages. Time is the
event loop's monotonic clock (``loop.time()``), so tests run it on a fake loop clock, instantly and
exactly, less the referee's own pauses (``pauses``: a full garbage collection stops the loop for a
few hundred milliseconds at 1,000 matches, server/transport/collector.py). A bot's answer that arrives during
such a pause waits unread until it ends: the pause is the organiser's, so it is never charged to
the bot's clock, and a deadline that falls inside it moves by as much. A deadline interrupts one
``await port.receive()`` (:class:`Deadline`); the port's queue is fed by its own reader task, so a
timeout never touches the underlying stream.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Protocol

import structlog

from mizerka_engine.game import Game
from mizerka_engine.rules import Ruleset
from mizerka_proto import referee_pb2
from server.referee.session import Disconnected, GameRecord, GameSession, SeatInfo
from server.settings import ClockSettings

YIELD_EVERY = 16  # answers worked through in a row before the referee lets the other matches run
DEFAULTS_IN_A_ROW = 64  # turns of forfeited seats played in a row (about a millisecond) before the other matches run


class SeatPort(Protocol):
    """A seat's two directions. ``receive`` raises Disconnected once the bot's side has ended.

    ``send`` must not wait on the bot (queue the message and return): a bot that stops reading
    must never stall the match for the others; the port declares it disconnected instead.

    The rest is optional: a port that subclasses SeatPort inherits the defaults below (a port
    without a Hello, that refuses nothing by itself and holds nothing back) and overrides what it
    has; :class:`server.transport.streams.StreamSeat` has every member itself.
    """

    live_events: bool  # Hello.live_events: send events as they happen, not only with decisions
    version: str | None = None  # Hello.version and Hello.name, for match logs
    hello_name: str | None = None
    out_of_turn: int = 0  # Actions it refused by itself in this game (STALE_TURN, NOT_YOUR_TURN): the seat's ``stale``
    # A port that holds messages back on the referee's side (server.transport.pacing.Pacer) says so: how long the
    # message receive() returned last was held (not charged to the bot), and the loop time since which a
    # message that arrived is held, or None (a deadline passing meanwhile waits for that message).
    held_s: float = 0.0
    held_since: float | None = None

    async def send(self, message: referee_pb2.RefereeMessage) -> None: ...

    async def receive(self) -> referee_pb2.BotMessage: ...

    def turn_started(self, turn: int) -> None:
        """Called just before the seat's DecisionRequest for ``turn`` goes out."""

    def turn_settled(self, strikes: int) -> None:
        """Called once the asked turn is settled; ``strikes``: the seat's strikes now."""


Pauses = Callable[[], float]  # seconds the referee's event loop has stood still for its own work, so far


def no_pauses() -> float:
    return 0.0


class Deadline:
    """The asked seat's deadline around ``port.receive()``, on one timer re-armed lazily.

    ``asyncio.timeout_at`` arms and cancels a timer for every receive, which costs more than the
    rest of the wait for an answer (tests/bench/bench_referee.py). This timer, once armed for an
    earlier deadline, is left to fire and re-arms itself for the current one. At the deadline it
    cancels the waiting task and :meth:`receive` turns that into TimeoutError -- unless the task
    was cancelled from outside too, which goes on as CancelledError (as with asyncio.timeout).
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, pauses: Pauses = no_pauses) -> None:
        self.loop = loop
        self.pauses = pauses
        self.when = 0.0  # the current deadline, on the bots' clock (:meth:`now`)
        self.timer: asyncio.TimerHandle | None = None
        self.waiter: asyncio.Task[object] | None = None  # the task inside receive(), if any
        self.port: SeatPort | None = None  # the port it waits on
        self.expired = False

    def now(self) -> float:
        """The bots' clock: the loop's, less the referee's pauses."""
        return self.loop.time() - self.pauses()

    async def receive(self, port: SeatPort, when: float) -> referee_pb2.BotMessage:
        """``port.receive()``, or TimeoutError once the bots' clock reaches ``when``."""
        self.when = when
        at = when + self.pauses()  # on the loop's clock, as far as the pauses so far go
        timer = self.timer
        if timer is None or timer.when() > at:
            if timer is not None:
                timer.cancel()
            self.timer = self.loop.call_at(at, self._fire)
        self.waiter = task = asyncio.current_task()
        self.port = port
        assert task is not None
        cancelling = task.cancelling()
        try:
            return await port.receive()
        except asyncio.CancelledError:
            if self.expired:
                self.expired = False
                if task.uncancel() <= cancelling:
                    raise TimeoutError from None
            raise
        finally:
            self.waiter = None

    def _fire(self) -> None:
        self.timer = None
        if self.waiter is None:  # nobody waits: the next receive arms the timer again
            return
        left = self.when - self.now()
        if left > 0:  # armed for an earlier deadline, or the referee paused since
            self.timer = self.loop.call_at(self.loop.time() + left, self._fire)
            return
        held_since = None if self.port is None else self.port.held_since
        if held_since is not None and held_since - self.pauses() <= self.when:
            return  # a message that came in time waits for its turn in the referee: it decides
        self.expired = True
        self.waiter.cancel()

    def close(self) -> None:
        """Drop the timer (it would keep the game alive until it fires)."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None


def game_seed(match_seed: str, game_index: int) -> str:
    """Game i of a match deals from its own seed, the same for every match with this seed (duplicates)."""
    return f"{match_seed}/{game_index}"


def seat_info(port: SeatPort | None) -> SeatInfo:
    """What the session needs to know of a port (a port may go away mid-game; Hello stays recorded)."""
    if port is None:
        return SeatInfo(present=False)
    return SeatInfo(True, port.live_events, port.version, port.hello_name)


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
        on_decision: Callable[[float], None] | None = None,
        pauses: Pauses = no_pauses,
    ) -> None:
        """``on_decision(ms)``: a seat's Action was accepted ``ms`` after its DecisionRequest went out
        (the referee's metrics); ``on_update(game)``: the game moved on (Watch); ``pauses``: the
        referee's own pauses so far, never charged to a bot (module docstring)."""
        self.pauses = pauses
        self.ports = list(ports)  # None once a seat's bot is gone
        self._ports = list(ports)  # as given, for their counts
        self._started = [None if p is None else p.turn_started for p in ports]  # the hooks, looked up once
        self._settled = [None if p is None else p.turn_settled for p in ports]
        self._counted = False
        self.on_decision = on_decision
        self.game_index = game_index
        self.session = GameSession(
            match_id, rules, seed, game_index, [seat_info(p) for p in self.ports], names, clock, games, on_update,
            log=structlog.get_logger("referee"),
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

    def _count_out_of_turn(self) -> None:
        """Add the answers the ports refused by themselves to the seats' records (once)."""
        if not self._counted:
            self._counted = True
            for seat, port in enumerate(self._ports):
                if port is not None:
                    self.session.records[seat].stale += port.out_of_turn

    async def run(self) -> GameRecord:
        deadline = Deadline(asyncio.get_running_loop(), self.pauses)
        try:
            return await self._run(deadline)
        finally:
            deadline.close()

    async def _run(self, deadline: Deadline) -> GameRecord:
        session = self.session
        on_decision = self.on_decision
        session.start()
        await self._flush()
        while True:
            if (ask := session.next_ask(DEFAULTS_IN_A_ROW)) is None:
                if session.game.finished:
                    break
                await self._flush()  # a game nobody plays any more: the other matches run between its turns
                await asyncio.sleep(0)
                continue
            if (started_hook := self._started[ask.seat]) is not None:
                started_hook(ask.turn)
            await self._flush()
            port = self.ports[ask.seat]
            started = deadline.now()  # the clock runs from the moment the request is handed to the transport
            when = started + ask.allowed_ms / 1000.0
            answers = 0
            while session.pending is ask and port is not None:
                try:
                    message = await deadline.receive(port, when)
                except TimeoutError:
                    session.time_out(overshoot_ms=(deadline.now() - when) * 1000.0)
                except Disconnected:
                    self.ports[ask.seat] = None
                    session.disconnect(ask.seat, (deadline.now() - started) * 1000.0)
                else:  # the time the referee held the message back (a busy referee paces them) is not the bot's
                    elapsed_ms = max(0.0, deadline.now() - started - port.held_s) * 1000.0
                    if session.answer(message, elapsed_ms) and on_decision is not None:
                        on_decision(elapsed_ms)
                    answers += 1
                if session.outbox:  # mostly empty: an accepted answer queues nothing until the next ask
                    await self._flush()
                if answers >= YIELD_EVERY:  # a queue full of one bot's answers never holds up the other matches
                    answers = 0
                    await asyncio.sleep(0)
            if (settled_hook := self._settled[ask.seat]) is not None:
                settled_hook(session.records[ask.seat].strikes)
        await self._flush()
        self._count_out_of_turn()
        return session.record()

    async def abort(self, reason: str) -> GameRecord:
        """Tell every seat the game stops here (server shutdown); returns the record so far."""
        self._count_out_of_turn()
        record = self.session.abort(reason)
        await self._flush()
        return record
