"""The client runtime: connect bots to a referee and play.

``run(bot_factory, server, token, parallel=N, games=None)`` opens N ``Referee.Play`` streams on one
``grpc.aio`` channel. Each stream is one seat with its own Bot (a new one from ``bot_factory``);
it says Hello, reads Welcome, then plays every game the referee seats it in:

- GameStart -> ``on_game_start``; Event -> ``on_event``; GameEnd -> ``on_game_end``;
- DecisionRequest -> ``decide`` -> Action (the fallback if the bot raises or answers garbage);
- ActionError with ``retry`` -> ``on_error``, then one more answer (see :func:`mizerka.bot.retry_answer`:
  bounded, never a loop).

Connections are retried politely: UNAVAILABLE or a dropped stream reconnects after a capped,
jittered exponential backoff (0.2 s doubling up to 10 s, reset by every Welcome). UNAUTHENTICATED,
FAILED_PRECONDITION, RESOURCE_EXHAUSTED (and a few other codes no retry can fix) stop the run with
:class:`RefereeRefused`, which names the cause. Ctrl-C or cancelling the task closes every stream.

The launch contract of every bot program: the server address comes from ``MIZERKA_SERVER``, the
token from ``MIZERKA_TOKEN``, the number of games it may be seated in at once (streams to open)
from ``MIZERKA_PARALLEL`` (default 1); explicit arguments (command-line flags) override them.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import grpc
import grpc.aio

from mizerka.bot import Answer, Bot, answer, bot_name, call_hook, retry_answer
from mizerka.turn import Turn
from mizerka_proto import game_pb2, referee_pb2, referee_pb2_grpc

__all__ = [
    "DEFAULT_SERVER",
    "ENV_PARALLEL",
    "ENV_SERVER",
    "ENV_TOKEN",
    "MizerkaError",
    "RefereeRefused",
    "RunStats",
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


class MizerkaError(Exception):
    """An error of the SDK runtime (bad launch settings, a referee that refuses to play)."""


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
class RunStats:
    """What a run did (the same object is filled in as the run goes, also when interrupted)."""

    games: int = 0  #: GameEnd messages received, over all streams
    decisions: int = 0  #: DecisionRequests answered
    fallbacks: int = 0  #: answers the SDK sent for a bot that raised, answered garbage or was refused
    refusals: int = 0  #: ActionErrors received
    connects: int = 0  #: Welcomes received (the first connection of each stream included)
    reconnects: int = 0  #: reconnect attempts after a dropped stream
    interrupted: bool = False  #: stopped by Ctrl-C


def launch_settings(server: str | None = None, token: str | None = None) -> tuple[str, str]:
    """The (server, token) to use: arguments first, then MIZERKA_SERVER / MIZERKA_TOKEN.

    The server defaults to 127.0.0.1:50051; a missing token is a :class:`MizerkaError`.
    """
    server = server or os.environ.get(ENV_SERVER) or DEFAULT_SERVER
    token = token or os.environ.get(ENV_TOKEN) or ""
    if not token:
        raise MizerkaError(f"no bot token: set {ENV_TOKEN} or pass --token (Arena.RegisterBot gives one)")
    return server, token


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


def _backoff(failures: int, initial: float, cap: float) -> float:
    """Capped exponential backoff with jitter: a delay in [d/2, d] with d = initial * 2**(failures-1)."""
    d = min(cap, initial * (2 ** max(0, failures - 1)))
    return random.uniform(d / 2, d)


def _drop_reason(error: grpc.aio.AioRpcError, server: str) -> str:
    """Why a stream dropped; raises RefereeRefused when reconnecting cannot help (a bad token...)."""
    code = error.code()
    if code in _FATAL:
        raise RefereeRefused(code, error.details() or "", server) from None
    return f"{code.name}: {error.details()}"


async def _pause_before_reconnect(runner: Any, index: int, failures: int, reason: str) -> None:
    """Count a lost connection of stream ``index`` and wait its backoff; MizerkaError once
    ``runner.max_reconnects`` consecutive attempts have failed. Shared with mizerka.stdio."""
    runner.stats.reconnects += 1
    if runner.max_reconnects is not None and failures > runner.max_reconnects:
        raise MizerkaError(f"{runner.server}: gave up after {runner.max_reconnects} reconnect attempts; last error: {reason}")
    delay = _backoff(failures, runner.backoff_initial, runner.backoff_max)
    log.warning("stream %d: %s; reconnecting to %s in %.2f s", index, reason, runner.server, delay)
    await asyncio.sleep(delay)


def _channel(server: str, max_message_bytes: int, backoff_initial: float, backoff_max: float) -> grpc.aio.Channel:
    """The channel to the referee that both the SDK runtime and the stdio bridge (mizerka.stdio) use."""
    options = [
        ("grpc.max_receive_message_length", max_message_bytes),
        ("grpc.max_send_message_length", max_message_bytes),
        # Detect a dead connection between games, gently (servers refuse pings more often than 5 min).
        ("grpc.keepalive_time_ms", 360_000),
        ("grpc.keepalive_timeout_ms", 20_000),
        # gRPC's own reconnect backoff (1 s growing to 120 s by default) would make our attempts
        # fail fast for minutes after a long outage: keep it within our own schedule.
        ("grpc.initial_reconnect_backoff_ms", max(1, int(backoff_initial * 1000))),
        ("grpc.min_reconnect_backoff_ms", max(1, int(backoff_initial * 1000))),
        ("grpc.max_reconnect_backoff_ms", max(1, int(backoff_max * 1000))),
    ]
    return grpc.aio.insecure_channel(server, options=options)


async def _wait_all(tasks: list[asyncio.Task[Any]]) -> None:
    """Wait until every task has ended; the first to fail raises its exception here."""
    pending = set(tasks)
    while pending:
        finished, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_EXCEPTION)
        for t in finished:
            if not t.cancelled() and t.exception() is not None:
                raise t.exception()  # type: ignore[misc]


async def _cancel_all(tasks: list[asyncio.Task[Any]]) -> None:
    """Cancel the tasks and wait until they have ended."""
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


class _Runner:
    def __init__(
        self,
        factory: Callable[[], Bot],
        server: str,
        token: str,
        parallel: int,
        games: int | None,
        name: str | None,
        version: str | None,
        max_message_bytes: int,
        backoff_initial: float,
        backoff_max: float,
        max_reconnects: int | None,
        threaded: bool,
        stats: RunStats,
    ) -> None:
        self.factory = factory
        self.server = server
        self.token = token
        self.parallel = parallel
        self.games = games
        self.name = name
        self.version = version
        self.max_message_bytes = max_message_bytes
        self.backoff_initial = backoff_initial
        self.backoff_max = backoff_max
        self.max_reconnects = max_reconnects
        self.threaded = threaded
        self.stats = stats
        self.done = False
        self.seats: list[_Seat] = []

    def game_finished(self, seat: _Seat) -> None:
        self.stats.games += 1
        if self.games is not None and self.stats.games >= self.games and not self.done:
            log.info("%d game(s) played: closing the streams", self.stats.games)
            self.done = True
            for s in self.seats:
                s.closing = True
                if s is not seat and not s.in_game:
                    s.stop_idle()

    async def run(self) -> None:
        channel = _channel(self.server, self.max_message_bytes, self.backoff_initial, self.backoff_max)
        stub = referee_pb2_grpc.RefereeStub(channel)
        self.seats = [_Seat(self, i, stub) for i in range(self.parallel)]
        tasks = [asyncio.create_task(s.run(), name=f"mizerka-seat-{s.index}") for s in self.seats]
        for s, t in zip(self.seats, tasks, strict=True):
            s.task = t
        try:
            await _wait_all(tasks)
        finally:
            self.done = True
            await _cancel_all(tasks)
            await channel.close(grace=None)


class _Seat:
    """One Play stream (one seat) and its bot, across reconnects."""

    def __init__(self, runner: _Runner, index: int, stub: referee_pb2_grpc.RefereeStub) -> None:
        self.runner = runner
        self.index = index
        self.stub = stub
        self.bot = runner.factory()
        if not isinstance(self.bot, Bot):
            raise TypeError(f"the bot factory returned {self.bot!r}, not a mizerka.Bot")
        self.task: asyncio.Task[None] | None = None
        self.call: Any = None
        self.in_game = False
        self.closing = False
        self.stopping_idle = False
        self.failures = 0
        self.game_start: referee_pb2.GameStart | None = None
        self.pending: Turn | None = None
        self.sent: list[game_pb2.Action] = []

    def stop_idle(self) -> None:
        """Close this stream now: it is between games and the run is over."""
        self.stopping_idle = True
        if self.task is not None:
            self.task.cancel()

    async def run(self) -> None:
        r = self.runner
        while not (r.done and not self.in_game):
            try:
                await self._session()
                return
            except asyncio.CancelledError:
                if self.stopping_idle:
                    return
                raise
            except grpc.aio.AioRpcError as e:
                reason = _drop_reason(e, r.server)
            except _Dropped as e:
                reason = str(e)
            if r.done:
                return
            if self.in_game:
                log.warning("stream %d lost during a game: the referee plays the rest of it by default", self.index)
                self.in_game = False
            self.pending = None
            self.failures += 1
            await _pause_before_reconnect(r, self.index, self.failures, reason)

    async def _session(self) -> None:
        r = self.runner
        bot = self.bot
        call = self.stub.Play()
        self.call = call
        try:
            hello = referee_pb2.Hello(
                token=r.token, name=r.name or bot_name(bot), version=r.version or str(getattr(bot, "version", "") or "")
            )
            await call.write(referee_pb2.BotMessage(hello=hello))
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
            while True:
                if self.closing and not self.in_game:
                    await call.done_writing()
                    return
                msg = await call.read()
                if msg is grpc.aio.EOF:
                    if self.closing and not self.in_game:
                        return
                    raise _Dropped("the referee ended the stream")
                await self._handle(call, msg)
        finally:
            self.call = None
            call.cancel()

    async def _handle(self, call: Any, msg: referee_pb2.RefereeMessage) -> None:
        which = msg.WhichOneof("message")
        bot = self.bot
        stats = self.runner.stats
        if which == "event_batch":
            for event in msg.event_batch.events:
                call_hook(bot, "on_event", event)
        elif which == "decision_request":
            for event in msg.decision_request.events:  # what happened just before this decision
                call_hook(bot, "on_event", event)
            turn = Turn(msg.decision_request, self.game_start)
            self.pending = turn
            ans = await self._call(answer, bot, turn)
            self.sent = [ans.action]
            await self._send(call, ans)
            stats.decisions += 1
        elif which == "action_error":
            error = msg.action_error
            stats.refusals += 1
            turn = self.pending
            if turn is None or error.turn != turn.number:
                log.info("stream %d: refused %s (turn %d): %s", self.index, error.code, error.turn, error.message)
                call_hook(bot, "on_error", error, None)
                return
            log.info("stream %d: turn %d refused %s: %s%s", self.index, error.turn, error.code, error.message,
                     "" if error.retry else " (no retry)")
            nxt = await self._call(retry_answer, bot, turn, error, self.sent)
            if nxt is None:
                self.pending = None
                return
            await self._send(call, nxt)
        elif which == "game_start":
            self.in_game = True
            self.game_start = msg.game_start
            self.pending = None
            call_hook(bot, "on_game_start", msg.game_start)
        elif which == "game_end":
            self.in_game = False
            self.pending = None
            call_hook(bot, "on_game_end", msg.game_end)
            end = msg.game_end
            log.info("stream %d: game %s/%d over: rank %d, totals %s%s", self.index, end.match_id, end.game_number,
                     end.rank, list(end.totals), f" (aborted: {end.abort_reason})" if end.aborted else "")
            self.runner.game_finished(self)
        elif which == "welcome":
            log.info("stream %d: a second Welcome (ignored)", self.index)

    async def _call(self, fn: Callable[..., Any], *args: Any) -> Any:
        if self.runner.threaded:
            return await asyncio.to_thread(fn, *args)
        return fn(*args)

    async def _send(self, call: Any, ans: Answer) -> None:
        if ans.fallback:
            self.runner.stats.fallbacks += 1
        await call.write(referee_pb2.BotMessage(action=ans.action))


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
) -> RunStats:
    """Play on ``parallel`` streams until ``games`` games are over (None: until cancelled).

    ``parallel`` None means MIZERKA_PARALLEL, else 1 (:func:`parallel_setting`). A single Bot
    instance (not a factory) plays one stream: a larger MIZERKA_PARALLEL is then ignored with a
    warning, while an explicit ``parallel`` above 1 is a ValueError.

    ``games`` counts GameEnds over all streams; when it is reached, idle streams close at once and
    streams in a game close after that game (so a few more games may finish). ``max_reconnects``
    bounds consecutive failed connection attempts per stream (None: retry for ever). ``threaded``
    runs the bot's ``decide`` in a worker thread, so one slow bot does not stall the other streams.
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
    stats = stats if stats is not None else RunStats()
    runner = _Runner(
        _factory(bot_factory, parallel), server, token, parallel, games, name, version, max_message_bytes,
        backoff_initial, backoff_max, max_reconnects, threaded, stats,
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
