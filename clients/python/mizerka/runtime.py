"""The client runtime: connect bots to a referee and play.

``run(bot_factory, server, token, parallel=N, games=None)`` opens N ``Referee.Play`` streams on one
``grpc.aio`` channel. Each stream is one seat with its own Bot (a new one from ``bot_factory``);
it says Hello, reads Welcome, then hands every message of the games the referee seats it in to
a :class:`~mizerka.session.BotSession` (hooks, ``decide``, the bounded retry) and sends its answers.

The runner is generic over a :class:`StreamHandler` per stream: the stdio bridge
(:mod:`mizerka.stdio`) plays on the same runner, with its own handler.

Connections are retried politely: UNAVAILABLE or a dropped stream reconnects after a capped,
jittered exponential backoff (0.2 s doubling up to 10 s, reset by every Welcome). UNAUTHENTICATED,
FAILED_PRECONDITION, RESOURCE_EXHAUSTED (and a few other codes no retry can fix) stop the run with
:class:`RefereeRefused`, which names the cause. Ctrl-C or cancelling the task closes every stream.

The launch contract of every bot program: the server address comes from ``MIZERKA_SERVER``, the
token from ``MIZERKA_TOKEN``, the number of games it may be seated in at once (streams to open)
from ``MIZERKA_PARALLEL`` (default 1), TLS from the ``MIZERKA_TLS*`` variables
(:mod:`mizerka.connection`); explicit arguments (command-line flags) override them.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import grpc
import grpc.aio

from mizerka.bot import Bot, bot_name
from mizerka.connection import Connection, ConnectionSettingsError, Tls
from mizerka.errors import MizerkaError as MizerkaError  # re-exported: where it always was
from mizerka.session import BotSession
from mizerka_proto import referee_pb2, referee_pb2_grpc

__all__ = [
    "DEFAULT_SERVER",
    "ENV_PARALLEL",
    "ENV_SERVER",
    "ENV_TOKEN",
    "Backoff",
    "MizerkaError",
    "RefereeRefused",
    "RunStats",
    "StreamHandler",
    "StreamStats",
    "connection_settings",
    "launch_settings",
    "parallel_setting",
    "run",
    "run_async",
]

log = logging.getLogger("mizerka")

ENV_SERVER = "MIZERKA_SERVER"
ENV_TOKEN = "MIZERKA_TOKEN"
ENV_PARALLEL = "MIZERKA_PARALLEL"
DEFAULT_SERVER = "127.0.0.1:50051"
DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024

# Codes no reconnect can fix: stop and say why.
_FATAL = {
    grpc.StatusCode.UNAUTHENTICATED: "the referee refused the token; check MIZERKA_TOKEN or --token "
    "(it must be the token Arena.RegisterBot gave this bot)",
    grpc.StatusCode.PERMISSION_DENIED: "the referee refused this bot",
    grpc.StatusCode.FAILED_PRECONDITION: "the referee refused the stream's opening (the SDK sends Hello "
    "first; is the server a Mizerka referee speaking mizerka.v1?)",
    grpc.StatusCode.RESOURCE_EXHAUSTED: "the referee refused a message as too large (over "
    "Welcome.max_message_bytes) or hit one of its limits",
    grpc.StatusCode.INVALID_ARGUMENT: "the referee refused a message as invalid",
    grpc.StatusCode.UNIMPLEMENTED: "the server has no mizerka.v1.Referee service; check the address",
}


class RefereeRefused(MizerkaError):
    """The referee ended a stream with a status no reconnect can fix (e.g. UNAUTHENTICATED)."""

    def __init__(self, code: grpc.StatusCode, details: str, server: str) -> None:
        self.code = code
        self.details = details
        self.server = server
        why = _FATAL.get(code, "the referee ended the stream")
        super().__init__(f"{server}: {code.name}: {why}" + (f" (referee said: {details})" if details else ""))


class _Dropped(Exception):
    """The stream ended or broke in a way a reconnect may fix."""


@dataclass
class StreamStats:
    """What the runner counts for any handler (filled in as the run goes, also when interrupted)."""

    games: int = 0  #: GameEnd messages received, over all streams
    connects: int = 0  #: Welcomes received (the first connection of each stream included)
    reconnects: int = 0  #: reconnect attempts after a dropped stream
    interrupted: bool = False  #: stopped by Ctrl-C


@dataclass
class RunStats(StreamStats):
    """What a run of SDK bots did."""

    decisions: int = 0  #: DecisionRequests answered
    fallbacks: int = 0  #: answers the SDK sent for a bot that raised, answered garbage or was refused
    refusals: int = 0  #: ActionErrors received


def launch_settings(server: str | None = None, token: str | None = None) -> tuple[str, str]:
    """The (server, token) to use: arguments first, then MIZERKA_SERVER / MIZERKA_TOKEN.

    The server defaults to 127.0.0.1:50051; a missing token is a :class:`MizerkaError`.
    """
    server = server or os.environ.get(ENV_SERVER) or DEFAULT_SERVER
    token = token or os.environ.get(ENV_TOKEN) or ""
    if not token:
        raise MizerkaError(f"no bot token: set {ENV_TOKEN} or pass --token (Arena.RegisterBot gives one)")
    return server, token


def connection_settings(server: str | None = None, tls: Tls | None = None) -> Connection:
    """How to reach the referee: ``server`` else MIZERKA_SERVER else 127.0.0.1:50051, over TLS when
    asked (``tls``, else the MIZERKA_TLS* variables, or an https:// address); the PEM files are read
    now, so a bad one is a :class:`MizerkaError` before any connection is tried."""
    try:
        return Connection.resolve(server or os.environ.get(ENV_SERVER) or DEFAULT_SERVER, tls)
    except ConnectionSettingsError as e:
        raise MizerkaError(str(e)) from None


def parallel_setting(parallel: int | None = None) -> int:
    """How many Play streams to open: ``parallel`` (the ``--parallel`` flag) if given, else
    MIZERKA_PARALLEL (set by the league runner: the games the bot may be seated in at once), else 1.

    An explicit value below 1 is a ValueError; a MIZERKA_PARALLEL that is not a whole number of at
    least 1 is a :class:`MizerkaError` (a broken launch, said plainly rather than guessed around).
    """
    if parallel is not None:
        if parallel < 1:
            raise ValueError("parallel must be at least 1")
        return parallel
    text = os.environ.get(ENV_PARALLEL, "").strip()
    if not text:
        return 1
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise MizerkaError(f"{ENV_PARALLEL}={text!r}: expected a whole number of streams, at least 1")
    return value


@dataclass(frozen=True)
class Backoff:
    """Capped exponential backoff with jitter: the SDK's one reconnect (and restart) schedule.

    The delay after ``failures`` failures in a row is drawn from [d/2, d], d = initial * 2**(failures-1)
    capped at ``cap``: growing, so a referee that is down is not hammered, and jittered, so that many
    bots cut off together do not all come back in the same instant.
    """

    initial: float = 0.2
    cap: float = 10.0

    def delay(self, failures: int) -> float:
        d = min(self.cap, self.initial * 2 ** max(0, failures - 1))
        return random.uniform(d / 2, d)


def _drop_reason(error: grpc.aio.AioRpcError, connection: Connection) -> str:
    """Why a stream dropped (with a hint when TLS settings look wrong); raises RefereeRefused when
    reconnecting cannot help (a bad token...)."""
    code = error.code()
    details = error.details() or ""
    if code in _FATAL:
        raise RefereeRefused(code, details, connection.target) from None
    return f"{code.name}: {details}{connection.hint(details)}"


class StreamHandler(ABC):
    """What plays behind one Play stream. The runner owns the stream (Hello, Welcome, reconnects,
    game counting, closing); a handler only answers. SDK bots and the stdio bridge are two handlers
    on the one runner. The optional steps do nothing by default."""

    @abstractmethod
    def hello(self) -> referee_pb2.Hello:
        """The Hello to open each stream with; the runner fills in the token."""

    @abstractmethod
    async def handle(self, message: referee_pb2.RefereeMessage) -> Sequence[referee_pb2.BotMessage]:
        """One referee message after Welcome; returns the messages to send back, in order."""

    async def open(self) -> None:  # noqa: B027 (an optional hook: doing nothing is the default)
        """Get ready before each new stream (the stdio bridge starts its program here)."""

    async def pump(self, send: Callable[[referee_pb2.BotMessage], Awaitable[None]]) -> None:
        """The bot side's own traffic, beside the referee's messages (the stdio program's lines).
        Returning means the bot side is gone: the runner opens a new stream at once. The default
        has no such traffic and waits until cancelled."""
        await asyncio.Event().wait()

    async def lost(self, in_game: bool, reason: str | None) -> None:  # noqa: B027 (optional hook)
        """The stream ended before the run did: dropped (``reason``) or, with None, after :meth:`pump`
        returned. ``in_game``: a game was in progress (the referee plays the rest of it by default)."""

    async def close(self) -> None:  # noqa: B027 (optional hook)
        """The run is over."""


class _Runner:
    """``parallel`` Play streams on one channel, each with its own handler, until ``games`` games
    are over (None: until cancelled)."""

    def __init__(self, make_handler: Callable[[int], StreamHandler], connection: Connection, token: str,
                 parallel: int, games: int | None, stats: StreamStats, backoff: Backoff, max_reconnects: int | None,
                 max_message_bytes: int) -> None:
        self.make_handler = make_handler
        self.connection = connection
        self.server = str(connection)  # for messages: host:port, marked when over TLS
        self.token = token
        self.parallel = parallel
        self.games = games
        self.stats = stats
        self.backoff = backoff
        self.max_reconnects = max_reconnects
        self.max_message_bytes = max_message_bytes
        self.done = False
        self.streams: list[_Stream] = []

    def game_finished(self, stream: _Stream) -> None:
        self.stats.games += 1
        if self.games is not None and self.stats.games >= self.games and not self.done:
            log.info("%d game(s) played: closing the streams", self.stats.games)
            self.done = True
            for s in self.streams:
                if s is not stream and not s.in_game and s.task is not None:
                    s.task.cancel()  # idle: close it now; streams in a game finish it first

    async def pause_before_reconnect(self, index: int, failures: int, reason: str) -> None:
        """Count a lost connection of stream ``index`` and wait its backoff; MizerkaError once
        ``max_reconnects`` attempts in a row have failed."""
        self.stats.reconnects += 1
        if self.max_reconnects is not None and failures > self.max_reconnects:
            raise MizerkaError(f"{self.server}: gave up after {self.max_reconnects} reconnect attempts; last error: "
                               f"{reason}")
        delay = self.backoff.delay(failures)
        log.warning("stream %d: %s; reconnecting to %s in %.2f s", index, reason, self.server, delay)
        await asyncio.sleep(delay)

    async def run(self) -> None:
        """Play until done; the first stream to fail ends the run with its own exception (a
        RefereeRefused, not an ExceptionGroup), and every handler is closed."""
        channel = self.connection.play_channel(self.max_message_bytes, self.backoff.initial, self.backoff.cap)
        try:
            stub = referee_pb2_grpc.RefereeStub(channel)
            self.streams = [_Stream(self, i, stub, self.make_handler(i)) for i in range(self.parallel)]
            async with asyncio.TaskGroup() as group:
                for s in self.streams:
                    s.task = group.create_task(s.run(), name=f"mizerka-stream-{s.index}")
        except BaseExceptionGroup as failed:
            raise failed.exceptions[0] from None
        finally:
            self.done = True
            await asyncio.gather(*(s.handler.close() for s in self.streams), return_exceptions=True)
            await channel.close(grace=None)


class _Stream:
    """One Play stream (one seat) and its handler, across reconnects."""

    def __init__(self, runner: _Runner, index: int, stub: referee_pb2_grpc.RefereeStub, handler: StreamHandler) -> None:
        self.runner = runner
        self.index = index
        self.stub = stub
        self.handler = handler
        self.task: asyncio.Task[None] | None = None
        self.in_game = False
        self.failures = 0  # failed connections in a row

    async def run(self) -> None:
        r = self.runner
        while not r.done:
            await self.handler.open()
            try:
                if not await self._session():
                    return
                reason = None  # the bot side ended it: a new stream at once, no backoff
            except grpc.aio.AioRpcError as e:
                reason = _drop_reason(e, r.connection)
            except _Dropped as e:
                reason = str(e)
            in_game, self.in_game = self.in_game, False
            if in_game and reason is not None:
                log.warning("stream %d lost during a game: the referee plays the rest of it by default", self.index)
            await self.handler.lost(in_game, reason)
            if r.done or reason is None:
                continue
            self.failures += 1
            await r.pause_before_reconnect(self.index, self.failures, reason)

    async def _session(self) -> bool:
        """One Play stream: False when it closed because the run is over, True when the bot side ended it."""
        call = self.stub.Play()
        try:
            hello = self.handler.hello()
            hello.token = self.runner.token
            await call.write(referee_pb2.BotMessage(hello=hello))
            await self._welcome(call)
            reader = asyncio.create_task(self._read(call))
            pump = asyncio.create_task(self.handler.pump(call.write))
            try:
                done, _ = await asyncio.wait((reader, pump), return_when=asyncio.FIRST_COMPLETED)
                for t in done:
                    t.result()  # raises _Dropped, AioRpcError...
                return reader not in done
            finally:
                for t in (reader, pump):
                    t.cancel()
                await asyncio.gather(reader, pump, return_exceptions=True)
        finally:
            call.cancel()

    async def _welcome(self, call: Any) -> None:
        r = self.runner
        first = await call.read()
        if first is grpc.aio.EOF:
            raise _Dropped("the referee closed the stream before Welcome")
        if first.WhichOneof("message") != "welcome":
            raise MizerkaError(f"{r.server}: expected Welcome after Hello, got {first.WhichOneof('message')}")
        welcome = first.welcome
        self.failures = 0
        r.stats.connects += 1
        log.info("stream %d: connected to %s as %s (%s)%s", self.index, r.server, welcome.name, welcome.bot_id,
                 f", referee {welcome.server_version}" if welcome.server_version else "")
        if welcome.max_message_bytes > r.max_message_bytes:
            log.warning("the referee accepts messages up to %d bytes; this channel receives up to %d",
                        welcome.max_message_bytes, r.max_message_bytes)

    async def _read(self, call: Any) -> None:
        """The referee's messages to the handler, its replies back; returns once the run is over
        and no game is in progress here."""
        r = self.runner
        while not (r.done and not self.in_game):
            msg = await call.read()
            if msg is grpc.aio.EOF:
                if r.done and not self.in_game:
                    return
                raise _Dropped("the referee ended the stream")
            which = msg.WhichOneof("message")
            if which == "welcome":
                log.info("stream %d: a second Welcome (ignored)", self.index)
                continue
            if which == "game_start":
                self.in_game = True
            for reply in await self.handler.handle(msg):
                await call.write(reply)
            if which == "game_end":
                self.in_game = False
                r.game_finished(self)
        await call.done_writing()


class _BotStream(StreamHandler):
    """An SDK bot behind a Play stream: every message goes through its :class:`BotSession`."""

    def __init__(self, bot: Bot, index: int, stats: RunStats, threaded: bool, name: str | None,
                 version: str | None) -> None:
        self.session = BotSession(bot)
        self.index = index
        self.stats = stats
        self.threaded = threaded
        self.name = name
        self.version = version

    def hello(self) -> referee_pb2.Hello:
        bot = self.session.bot
        return referee_pb2.Hello(name=self.name or bot_name(bot),
                                 version=self.version or str(getattr(bot, "version", "") or ""))

    async def handle(self, message: referee_pb2.RefereeMessage) -> Sequence[referee_pb2.BotMessage]:
        if self.threaded:  # the bot's code off the event loop: a slow bot does not stall the other streams
            replies = await asyncio.to_thread(self.session.handle, message)
        else:
            replies = self.session.handle(message)
        which = message.WhichOneof("message")
        if which == "decision_request":
            self.stats.decisions += 1
        elif which == "action_error":
            self.stats.refusals += 1
            e = message.action_error
            log.info("stream %d: turn %d refused %s: %s%s", self.index, e.turn, e.code, e.message,
                     "" if e.retry else " (no retry)")
        elif which == "game_end":
            end = message.game_end
            log.info("stream %d: game %s/%d over: rank %d, totals %s%s", self.index, end.match_id, end.game_number,
                     end.rank, list(end.totals), f" (aborted: {end.abort_reason})" if end.aborted else "")
        if self.session.answer is not None and self.session.answer.fallback:
            self.stats.fallbacks += 1
        return replies


def _factory(bot_factory: Callable[[], Bot] | type[Bot] | Bot, parallel: int) -> Callable[[], Bot]:
    if isinstance(bot_factory, Bot):
        if parallel != 1:
            raise ValueError("pass a factory (e.g. the Bot class), not one Bot instance, to play several streams")
        return lambda: bot_factory  # type: ignore[return-value]
    if not callable(bot_factory):
        raise TypeError(f"bot_factory must be a Bot class or a function returning a Bot, not {bot_factory!r}")
    return bot_factory  # type: ignore[return-value]


async def run_async(
    bot_factory: Callable[[], Bot] | type[Bot] | Bot,
    server: str | None = None,
    token: str | None = None,
    *,
    parallel: int | None = None,
    games: int | None = None,
    name: str | None = None,
    version: str | None = None,
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
    backoff_initial: float = 0.2,
    backoff_max: float = 10.0,
    max_reconnects: int | None = None,
    threaded: bool = True,
    stats: RunStats | None = None,
    tls: Tls | None = None,
) -> RunStats:
    """Play on ``parallel`` streams until ``games`` games are over (None: until cancelled).

    ``parallel`` None means MIZERKA_PARALLEL, else 1 (:func:`parallel_setting`). A single Bot
    instance (not a factory) plays one stream: a larger MIZERKA_PARALLEL is then ignored with a
    warning, while an explicit ``parallel`` above 1 is a ValueError.

    ``games`` counts GameEnds over all streams; when it is reached, idle streams close at once and
    streams in a game close after that game (so a few more games may finish). ``max_reconnects``
    bounds consecutive failed connection attempts per stream (None: retry for ever). ``threaded``
    runs the bot's code (``decide`` and the hooks) in a worker thread, so one slow bot does not
    stall the other streams. ``tls``: TLS settings given as arguments (each overrides its MIZERKA_TLS*
    variable; see :mod:`mizerka.connection`).
    Raises :class:`RefereeRefused` (bad token, ...) or :class:`MizerkaError`.
    """
    if games is not None and games < 1:
        raise ValueError("games must be at least 1 (or None for no limit)")
    explicit = parallel is not None
    parallel = parallel_setting(parallel)
    if isinstance(bot_factory, Bot) and parallel > 1 and not explicit:
        log.warning("%s=%d, but one Bot instance can play only one stream: opening 1 (pass the Bot class "
                    "or a factory to play %d games at once)", ENV_PARALLEL, parallel, parallel)
        parallel = 1
    server, token = launch_settings(server, token)
    connection = connection_settings(server, tls)
    stats = stats if stats is not None else RunStats()
    factory = _factory(bot_factory, parallel)
    runner = _Runner(
        lambda index: _BotStream(factory(), index, stats, threaded, name, version),
        connection, token, parallel, games, stats, Backoff(backoff_initial, backoff_max), max_reconnects,
        max_message_bytes,
    )
    await runner.run()
    return stats


def run(
    bot_factory: Callable[[], Bot] | type[Bot] | Bot,
    server: str | None = None,
    token: str | None = None,
    *,
    parallel: int | None = None,
    games: int | None = None,
    name: str | None = None,
    version: str | None = None,
    **options: Any,
) -> RunStats:
    """The blocking form of :func:`run_async`; Ctrl-C closes every stream and returns the stats
    with ``interrupted = True``."""
    stats = options.pop("stats", None) or RunStats()
    try:
        asyncio.run(
            run_async(bot_factory, server, token, parallel=parallel, games=games, name=name, version=version,
                      stats=stats, **options)
        )
    except KeyboardInterrupt:
        stats.interrupted = True
        log.info("interrupted: streams closed")
    return stats
