"""Play streams as seats: :func:`play` runs one stream from its Hello to its end; an accepted stream
is a :class:`StreamSeat` (a SeatPort) that waits in the :class:`Lobby` until a match takes it.

No bot can stall the arena through its streams (docs/protocol.md, "Limits"):

- One reader task per stream; the referee times out on the seat's queue, never on
  ``context.read()`` (a timeout there breaks the stream). Outgoing messages go through a writer
  task, so the referee never waits on a bot's reading.
- Only what arrives while the referee asks this seat reaches its queue. The reader answers the rest
  itself, at once: an Action while no decision of this seat is pending gets NOT_YOUR_TURN (a turn
  never asked of it) or STALE_TURN (a turn already settled); anything between games NOT_EXPECTED.
- A bot that sends more than ``StreamLimits.max_unasked_messages`` messages without being asked (no
  DecisionRequest and no ActionError with retry in between), or leaves more than
  ``StreamSeat.MAX_BACKLOG`` messages unread, is cut off with RESOURCE_EXHAUSTED; to the match that
  is a disconnect like any other. A bot that just hangs gets a few messages a game, not one a turn:
  once its seat is forfeited it is sent nothing until the game ends (``GameSession``), so it is
  recorded with the timeouts and the forfeit it earned, not cut off for messages piled up by the
  rest of the game played out at full speed.
- A stream must send Hello within ``StreamLimits.hello_timeout_s`` (else DEADLINE_EXCEEDED), with a
  name and a version of at most ``MAX_HELLO_NAME`` and ``MAX_HELLO_VERSION`` printable characters
  (else INVALID_ARGUMENT); a bot holds at most ``StreamLimits.max_streams_per_bot`` streams (else
  RESOURCE_EXHAUSTED).
- Every refusal and cut-off is logged with the peer, rate-limited per host (:class:`RateLimitedLog`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter, deque
from collections.abc import Sequence
from typing import Any, NamedTuple

import grpc
import structlog

from mizerka_engine.game import ActionErrorCode
from mizerka_proto import referee_pb2
from server.codec.protocol import error_to_proto
from server.logs import RateLimitedLog, peer_host
from server.referee.session import Disconnected
from server.settings import StreamLimits
from server.storage.database import DB_ERRORS, db_error_text
from server.storage.store import Bot, Store
from server.text import printable, unprintable
from server.transport.pacing import Pacer

log = structlog.get_logger("service")

VERSION = "0.1.0"
MAX_HELLO_NAME = 100  # characters of Hello.name (referee.proto): INVALID_ARGUMENT beyond
MAX_HELLO_VERSION = 200  # characters of Hello.version
LOGGED_PREFIX = 40  # characters of a refused Hello string that the refusal's log line shows
MAX_MESSAGE_BYTES = 64 * 1024
_CLOSED = object()


class Arrived(NamedTuple):
    """A bot's message on its seat's queue, with how long the referee held it back (the Pacer)."""

    message: referee_pb2.BotMessage
    held_s: float


class StreamSeat:
    """An authenticated Play stream as a SeatPort, with every optional part of one: its Hello, the
    hooks GameRunner calls around each ask (:meth:`turn_started`, :meth:`turn_settled`), the Actions
    it refuses by itself and the time the Pacer holds a message back. It has them all, so it is a
    SeatPort by its shape and needs none of the Protocol's defaults (subclassing it would make this an
    ABC, and every isinstance against it go through ABCMeta's caches)."""

    MAX_BACKLOG = 1024  # unread messages to the bot; above max_unasked_messages, as each unasked message may get an answer

    def __init__(self, context: grpc.aio.ServicerContext, bot: Bot, version: str, limits: StreamLimits | None = None,
                 refusals: RateLimitedLog | None = None, peer: str = "", pacer: Pacer | None = None, *,
                 hello_name: str = "", live_events: bool = False) -> None:
        """``version``, ``hello_name`` and ``live_events``: the stream's Hello."""
        self.context = context
        self.pacer = pacer or Pacer()  # shared by every stream of a server (server.transport.pacing)
        self.bot = bot
        self.version: str | None = version  # typed as SeatPort's (its attributes are invariant)
        self.limits = limits or StreamLimits()
        self.refusals = refusals or RateLimitedLog(log)
        self.peer = peer
        self.hello_name: str | None = hello_name
        self.live_events = live_events
        self.queue: asyncio.Queue[Any] = asyncio.Queue()  # Arrived while asked, then _CLOSED; never above max_unasked_messages
        self.outbox: asyncio.Queue[referee_pb2.RefereeMessage] = asyncio.Queue()
        self.closed = asyncio.Event()
        self.ended: tuple[grpc.StatusCode, str] | None = None  # the status the stream is cut off with
        self.in_game = False
        self.asked = False  # the referee waits for this seat's answer
        self.issued = 0  # the latest turn this seat was asked in the current game
        self.strikes = 0  # this seat's strikes in the current game, as of its last settled turn
        self.out_of_turn = 0  # Actions answered STALE_TURN or NOT_YOUR_TURN here in the current game
        self.unasked = 0  # messages read since the referee last asked for one
        self.held_since: float | None = None  # loop time a message read from the bot began to wait for its turn (Pacer)
        self.held_s = 0.0  # how long the message receive() returned last waited for its turn

    # ------------------------------------------------------------------------ the bot's side
    async def write_loop(self) -> None:
        try:
            while True:
                await self.context.write(await self.outbox.get())
        except (grpc.RpcError, RuntimeError, asyncio.InvalidStateError, asyncio.CancelledError):
            pass
        finally:
            self._close()

    async def read_loop(self) -> None:
        limit = self.limits.max_unasked_messages
        loop = asyncio.get_running_loop()
        try:
            while True:
                message = await self.context.read()
                if message == grpc.aio.EOF:
                    break
                self.held_since = loop.time()
                await self.pacer.turn()
                held_s = loop.time() - self.held_since
                self.held_since = None
                self.unasked += 1
                if self.unasked > limit or self.queue.qsize() >= limit:
                    self.cut_off(grpc.StatusCode.RESOURCE_EXHAUSTED,
                                 f"this bot sent more than {limit} messages without being asked (no DecisionRequest "
                                 "or ActionError with retry in between); send one Action per request",
                                 "bot cut off: it sent too many messages without being asked", limit=limit)
                    break
                if self.asked:
                    self.queue.put_nowait(Arrived(message, held_s))
                else:
                    self._answer_unasked(message)
        except (grpc.RpcError, Disconnected, asyncio.CancelledError):
            pass
        finally:
            self._close()

    def _answer_unasked(self, message: referee_pb2.BotMessage) -> None:
        """Refuse at once a message the referee did not ask for."""
        turn = message.action.turn if message.WhichOneof("message") == "action" else 0
        if not self.in_game:
            code, text = ActionErrorCode.NOT_EXPECTED, "nothing is pending for you: no game is running on this stream"
        elif message.WhichOneof("message") != "action":
            code = ActionErrorCode.NOT_EXPECTED
            text = "nothing is pending for you, and only Actions are answers (Hello comes first, once)"
        elif 0 < turn <= self.issued:
            code, text = ActionErrorCode.STALE_TURN, f"turn {turn} is not pending: it was answered or decided for you already"
        else:
            code = ActionErrorCode.NOT_YOUR_TURN
            text = f"it is not your turn: turn {turn} was never asked of you; wait for your DecisionRequest"
        if code is not ActionErrorCode.NOT_EXPECTED:
            self.out_of_turn += 1
        error = error_to_proto(turn, code, text, strikes=self.strikes if self.in_game else 0)
        self.post(referee_pb2.RefereeMessage(action_error=error))

    # ------------------------------------------------------------------------ the referee's side
    async def send(self, message: referee_pb2.RefereeMessage) -> None:
        self.post(message)

    def post(self, message: referee_pb2.RefereeMessage) -> None:
        """Queue ``message`` for the writer; raises Disconnected once the stream is gone."""
        if self.closed.is_set():
            raise Disconnected()
        backlog = self.outbox.qsize()
        if backlog >= self.MAX_BACKLOG:
            self.cut_off(grpc.StatusCode.RESOURCE_EXHAUSTED,
                         f"{backlog} messages from the referee are waiting unread on this stream: read your stream",
                         "bot cut off: it does not read its stream", backlog=backlog)
            raise Disconnected()
        if message.WhichOneof("message") == "action_error" and message.action_error.retry:
            self.unasked = 0  # asked again
        self.outbox.put_nowait(message)

    async def receive(self) -> referee_pb2.BotMessage:
        item = await self.queue.get()
        if item is _CLOSED:
            self.queue.put_nowait(_CLOSED)  # every later receive sees the end too
            raise Disconnected()
        message, self.held_s = item
        return message

    def turn_started(self, turn: int) -> None:
        """The referee asks this seat for ``turn``: its DecisionRequest goes out next."""
        self.asked, self.issued, self.unasked = True, max(self.issued, turn), 0

    def turn_settled(self, strikes: int) -> None:
        """The asked turn is settled (``strikes``: the seat's strikes now); whatever is still queued
        came unasked and is answered now."""
        self.asked, self.strikes = False, strikes
        left = []
        while not self.queue.empty():
            left.append(self.queue.get_nowait())
        for item in left:
            if item is _CLOSED:
                self.queue.put_nowait(_CLOSED)
                return
            with contextlib.suppress(Disconnected):
                self._answer_unasked(item.message)

    def start_game(self) -> None:
        while not self.queue.empty():  # drop anything left from before this game
            if self.queue.get_nowait() is _CLOSED:
                self.queue.put_nowait(_CLOSED)
                break
        self.in_game, self.asked = True, False
        self.issued = self.strikes = self.out_of_turn = 0

    def end_game(self) -> None:
        self.in_game = self.asked = False

    # ------------------------------------------------------------------------ ending
    def cut_off(self, code: grpc.StatusCode, details: str, event: str, **fields: Any) -> None:
        """End the stream with ``code``: logged (rate-limited), the queue emptied, the referee told."""
        if self.closed.is_set():
            return
        self.ended = (code, details)
        self.refusals.warning((event, peer_host(self.peer)), event, peer=self.peer, bot=self.bot.name,
                              bot_id=self.bot.id, code=code.name, **fields)
        while not self.queue.empty():
            self.queue.get_nowait()
        self._close()

    def _close(self) -> None:
        self.closed.set()
        self.queue.put_nowait(_CLOSED)


class _Wait:
    """A match waiting for its seats: filled (its future's result set) as soon as every bot it
    needs has an idle stream."""

    __slots__ = ("bot_ids", "filed", "future", "need")

    def __init__(self, bot_ids: Sequence[str | None]) -> None:
        self.bot_ids = list(bot_ids)
        self.need = Counter(b for b in bot_ids if b is not None)
        self.future: asyncio.Future[list[StreamSeat | None]] = asyncio.get_running_loop().create_future()
        self.filed: str | None = None  # the bot it waits for


class Lobby:
    """Open streams and idle seats per bot; a match takes all its seats at once, so two matches
    never deadlock.

    Every step is O(1) in the number of matches and streams (a stream's end is O(its bot's
    streams)): a waiting match is filed under one bot it still lacks, and only a seat of that bot
    coming free looks at it again, so a thousand waiting matches and a storm of new streams cost
    no scans."""

    def __init__(self, limits: StreamLimits | None = None, refusals: RateLimitedLog | None = None,
                 pacer: Pacer | None = None) -> None:
        self.limits = limits or StreamLimits()
        self.refusals = refusals or RateLimitedLog(log)
        self.pacer = pacer or Pacer()
        self.idle: dict[str, deque[StreamSeat]] = {}  # per bot, the longest idle first
        self.streams: Counter[str] = Counter()  # open streams per bot, idle or not
        self.open_streams = 0  # their sum, for metrics: one number read from the exporter's thread
        self._lacking: dict[str, dict[_Wait, None]] = {}  # per bot, the matches waiting for it, oldest first

    def open(self, bot_id: str) -> bool:
        """Count a new stream for ``bot_id``; False (nothing counted) if it has the most allowed."""
        if self.streams[bot_id] >= self.limits.max_streams_per_bot:
            return False
        self.streams[bot_id] += 1
        self.open_streams += 1
        return True

    def add(self, seat: StreamSeat) -> None:
        """An opened stream, ready to be seated."""
        self.idle.setdefault(seat.bot.id, deque()).append(seat)
        self._fill(seat.bot.id)

    def remove(self, seat: StreamSeat) -> None:
        """An opened stream has ended."""
        bot_id = seat.bot.id
        self.streams[bot_id] -= 1
        self.open_streams -= 1
        if self.streams[bot_id] <= 0:
            del self.streams[bot_id]
        pool = self.idle.get(bot_id)
        if pool is not None:
            with contextlib.suppress(ValueError):
                pool.remove(seat)
            if not pool:
                del self.idle[bot_id]

    def _pop(self, bot_id: str) -> StreamSeat | None:
        """The longest idle open stream of ``bot_id`` (ended ones still listed are dropped)."""
        pool = self.idle.get(bot_id)
        while pool:
            seat = pool.popleft()
            if not seat.closed.is_set():
                return seat
        return None

    def _take(self, bot_ids: Sequence[str | None], partial: bool) -> list[StreamSeat | None] | None:
        """A stream for every seat, taken out of the lobby and started; None (nothing taken) if a
        bot lacks one, unless ``partial`` (then None in its seats)."""
        out = [self._pop(b) if b is not None else None for b in bot_ids]
        if not partial and any(s is None and b is not None for s, b in zip(out, bot_ids)):
            for seat in reversed(out):
                if seat is not None:
                    self.idle[seat.bot.id].appendleft(seat)
            return None
        for seat in out:
            if seat is not None:
                seat.start_game()
        return out

    def _lacks(self, wait: _Wait) -> str | None:
        """A bot with fewer idle streams than ``wait`` needs of it (counting any that just ended)."""
        return next((b for b, k in wait.need.items() if len(self.idle.get(b, ())) < k), None)

    def _file(self, wait: _Wait) -> None:
        """Fill ``wait`` now, or file it under a bot it lacks."""
        lacking = self._lacks(wait)
        taken = self._take(wait.bot_ids, partial=False) if lacking is None else None
        if taken is not None:
            wait.future.set_result(taken)
            return
        if lacking is None:  # an ended stream was still listed: _take dropped it
            lacking = self._lacks(wait)
            assert lacking is not None
        wait.filed = lacking
        self._lacking.setdefault(lacking, {})[wait] = None

    def _fill(self, bot_id: str) -> None:
        """``bot_id`` has idle streams again: the matches waiting for it, oldest first, take them."""
        waits = self._lacking.pop(bot_id, None)
        while waits and self.idle.get(bot_id):
            wait = next(iter(waits))
            del waits[wait]
            self._file(wait)
        if waits:  # still waiting, and older than any filed under it meanwhile
            waits.update(self._lacking.pop(bot_id, {}))
            self._lacking[bot_id] = waits

    def _forget(self, wait: _Wait) -> None:
        """``wait`` waits no more (it timed out, or its match was cancelled)."""
        waits = self._lacking.get(wait.filed) if wait.filed is not None else None
        if waits is not None:
            waits.pop(wait, None)
            if not waits:
                del self._lacking[wait.filed]  # type: ignore[arg-type]

    async def acquire(self, bot_ids: Sequence[str | None], timeout_s: float) -> list[StreamSeat | None]:
        """A stream for every seat (None: a seat not to fill); after ``timeout_s``, None for the
        seats nobody came for."""
        wait = _Wait(bot_ids)
        self._file(wait)
        try:
            async with asyncio.timeout(timeout_s):
                return await asyncio.shield(wait.future)
        except TimeoutError:
            if wait.future.done():  # filled as the time ran out
                return wait.future.result()
            self._forget(wait)
            return self._take(bot_ids, partial=True)  # type: ignore[return-value]
        except asyncio.CancelledError:
            if wait.future.done():
                self.release(wait.future.result())
            else:
                self._forget(wait)
            raise

    def release(self, seats: Sequence[StreamSeat | None]) -> None:
        """The seats of a game that is over, back to the lobby."""
        bots = []
        for s in seats:
            if s is not None:
                s.end_game()
                if not s.closed.is_set():
                    self.idle.setdefault(s.bot.id, deque()).append(s)
                    bots.append(s.bot.id)
        for bot_id in dict.fromkeys(bots):
            self._fill(bot_id)

    def close_idle(self) -> None:
        """End every idle stream with status OK (server shutdown)."""
        for seats in self.idle.values():
            for seat in seats:
                seat.closed.set()


# ---------------------------------------------------------------------------------- Play
async def play(lobby: Lobby, store: Store, context: grpc.aio.ServicerContext) -> None:
    """Referee.Play: check the Hello, then keep the stream as a seat until either side ends it."""
    limits, peer = lobby.limits, context.peer()
    first = await _first_message(context, limits.hello_timeout_s)
    if first is None:
        await _refuse(lobby, context, grpc.StatusCode.DEADLINE_EXCEEDED,
                      f"no Hello within {limits.hello_timeout_s:g} s of opening the stream: send Hello first",
                      "stream refused: no Hello in time")
    if first == grpc.aio.EOF:
        return
    if first.WhichOneof("message") != "hello":
        await _refuse(lobby, context, grpc.StatusCode.FAILED_PRECONDITION,
                      "the first message of a Play stream must be Hello", "stream refused: the first message is not Hello")
    hello = first.hello
    for field, value, most in (("name", hello.name, MAX_HELLO_NAME), ("version", hello.version, MAX_HELLO_VERSION)):
        problem = hello_problem(field, value, most)
        if problem is not None:
            await _refuse(lobby, context, grpc.StatusCode.INVALID_ARGUMENT, problem, "stream refused: a bad Hello",
                          field=field, length=len(value), start=printable(value, LOGGED_PREFIX))
    try:
        bot = (store.known_bot_by_token(hello.token) or await asyncio.to_thread(store.bot_by_token, hello.token)
               if hello.token else None)
    except DB_ERRORS as e:  # the organiser's failure: the bot hears only that, never where the database is
        bot = None
        await _refuse(lobby, context, grpc.StatusCode.UNAVAILABLE,
                      "the arena cannot check bot tokens just now (its database is out of reach): connect again later",
                      "stream refused: the database is out of reach", error=db_error_text(e), hello_name=hello.name)
    if bot is None:
        await _refuse(lobby, context, grpc.StatusCode.UNAUTHENTICATED,
                      "unknown bot token: register the bot with Arena.RegisterBot and send its token in Hello",
                      "authentication failed: unknown bot token", hello_name=hello.name)
    assert bot is not None
    if not lobby.open(bot.id):
        cap = limits.max_streams_per_bot
        await _refuse(lobby, context, grpc.StatusCode.RESOURCE_EXHAUSTED,
                      f"bot {bot.name!r} already has {cap} open Play streams, the most one bot may have here "
                      f"(max_streams_per_bot = {cap}): close one first", "stream refused: too many streams for one bot",
                      bot=bot.name, bot_id=bot.id, max_streams_per_bot=cap)
    bound = log.bind(bot=bot.name, bot_id=bot.id)
    seat = StreamSeat(context, bot, hello.version, limits, lobby.refusals, peer, lobby.pacer,
                      hello_name=hello.name, live_events=hello.live_events)
    tasks: list[asyncio.Task[None]] = []
    try:
        seat.post(referee_pb2.RefereeMessage(welcome=referee_pb2.Welcome(
            bot_id=bot.id, name=bot.name, max_message_bytes=MAX_MESSAGE_BYTES, server_version=VERSION,
        )))
        bound.info("bot connected", version=hello.version, peer=peer)
        tasks = [asyncio.create_task(seat.read_loop()), asyncio.create_task(seat.write_loop())]
        lobby.add(seat)
        await seat.closed.wait()
        if seat.ended is None:
            with contextlib.suppress(TimeoutError):  # let queued messages (a GameEnd) go out
                async with asyncio.timeout(1.0):
                    while not seat.outbox.empty() and not tasks[1].done():
                        await asyncio.sleep(0.01)
    finally:
        for task in tasks:
            task.cancel()
        lobby.remove(seat)
        bound.info("bot stream closed", cut_off=seat.ended[0].name if seat.ended else None)
    if seat.ended is not None:
        await context.abort(*seat.ended)


def hello_problem(field: str, value: str, most: int) -> str | None:
    """Why Hello's ``field`` (``value``) is refused, else None: it goes into the referee's log and into
    match logs, which a bot must not flood nor fill with terminal escapes (referee.proto, Hello)."""
    if len(value) > most:
        return (f"Hello.{field} is {len(value)} characters long; at most {most} are allowed "
                f"(referee.proto, Hello: name up to {MAX_HELLO_NAME}, version up to {MAX_HELLO_VERSION})")
    bad = unprintable(value)
    if bad is not None:
        return (f"Hello.{field} holds the control or invisible character U+{ord(bad):04X}; "
                "only printable characters and spaces are allowed")
    return None


async def _first_message(context: grpc.aio.ServicerContext, timeout_s: float) -> Any:
    """The stream's first message (or EOF); None if nothing came within ``timeout_s``."""
    read = asyncio.ensure_future(context.read())
    try:
        done, _ = await asyncio.wait({read}, timeout=timeout_s)
    finally:
        if not read.done():
            read.cancel()
    return read.result() if done else None


async def _refuse(lobby: Lobby, context: grpc.aio.ServicerContext, code: grpc.StatusCode, details: str, event: str,
                  **fields: Any) -> None:
    """End the stream with ``code``; logged with the peer, at most a line per host and reason at a time."""
    peer = context.peer()
    lobby.refusals.warning((event, peer_host(peer)), event, peer=peer, code=code.name, **fields)
    await context.abort(code, details)
