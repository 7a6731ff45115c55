"""The bridge between a Play stream and a program: the SDK's runner (:mod:`mizerka.runtime`) owns
the streams (reconnects, parallel streams, game counting); a :class:`_Bridge` per stream owns the
program's process (:mod:`~mizerka.stdio.program`, restarts) and moves lines and messages between the
two through its :class:`~mizerka.stdio.translate.Translator`, which decides what they say."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import IO, Any

from mizerka.connection import Tls
from mizerka.runtime import (
    DEFAULT_MAX_MESSAGE_BYTES,
    Backoff,
    MizerkaError,
    StreamHandler,
    StreamStats,
    _Runner,
    connection_settings,
    launch_settings,
    parallel_setting,
)
from mizerka.stdio.codec import PROTOCOL
from mizerka.stdio.program import Program, Transcript, program_env
from mizerka.stdio.translate import LineCounts, Translator
from mizerka_proto import referee_pb2

__all__ = ["StdioStats", "run_stdio", "run_stdio_async"]

log = logging.getLogger("mizerka.stdio")

#: The pause before starting a program again after it exited: short at first, at most 5 s.
_RESTART = Backoff(0.2, 5.0)


@dataclass
class StdioStats(LineCounts, StreamStats):
    """What a bridge run did (filled in as it goes): the runner's counts, the translators' counts
    (one :class:`LineCounts` shared by every stream) and the program restarts."""

    restarts: int = 0  #: program processes started again after one exited


@dataclass(frozen=True)
class _Launch:
    """What every stream of one bridge run shares."""

    command: list[str]
    env: dict[str, str]
    name: str
    streams: int
    events: bool
    live_events: bool
    max_restarts: int
    transcript: Transcript | None
    stats: StdioStats


class _Bridge(StreamHandler):
    """One Play stream's program, across reconnects and restarts; its :class:`Translator` turns the
    referee's messages into lines and the program's lines into Actions."""

    def __init__(self, launch: _Launch, index: int) -> None:
        self.launch = launch
        self.index = index
        self.program: Program | None = None
        self.exits = 0  # program exits in a row without a finished game
        self.translator = Translator(launch.stats, launch.events)

    def hello(self) -> referee_pb2.Hello:
        return referee_pb2.Hello(name=self.launch.name, version=f"stdio/{PROTOCOL}",
                                 live_events=self.launch.live_events)

    async def open(self) -> None:
        """Start the program, or start it again after it exited (with a growing pause, giving up
        after ``max_restarts`` exits in a row without a finished game)."""
        launch = self.launch
        if self.program is not None and self.program.alive:
            return
        if self.program is not None:
            code = await self.program.returncode()
            await self.program.stop()
            self.program = None
            self.exits += 1
            if self.exits > launch.max_restarts:
                raise MizerkaError(f"the program {launch.command[0]!r} exited {self.exits} times in a row without "
                                   f"finishing a game (last exit code {code}); giving up")
            delay = _RESTART.delay(self.exits)
            log.warning("stream %d: starting the program again in %.1f s (exit code %s)", self.index, delay, code)
            await asyncio.sleep(delay)
            launch.stats.restarts += 1
        program = Program(launch.command, self.index, launch.env, launch.transcript)
        await program.start(launch.streams)
        self.program = program

    async def lost(self, in_game: bool, reason: str | None) -> None:
        game = self.translator.game
        ended = self.translator.lost()
        if reason is not None:  # the stream dropped: the program is still there to be told
            if self.program is not None:
                for line in ended:
                    self.program.send(line)
            return
        code = await self.program.returncode() if self.program is not None else None
        if game is not None:
            log.warning("stream %d: the program exited (code %s) during game %d of match %s: the stream is closed "
                        "and the referee plays the rest of that game for this seat", self.index, code,
                        game.game_number, game.match_id)
        else:
            log.warning("stream %d: the program exited (code %s) between games", self.index, code)

    async def close(self) -> None:
        if self.program is not None:
            await self.program.stop()

    async def handle(self, message: referee_pb2.RefereeMessage) -> Sequence[referee_pb2.BotMessage]:
        """Lines for the program; the answers go back through :meth:`pump`, never from here."""
        assert self.program is not None
        for line in self.translator.to_program(message):
            self.program.send(line)
        if message.WhichOneof("message") == "game_end":
            self.exits = 0
        return ()

    async def pump(self, send: Callable[[referee_pb2.BotMessage], Awaitable[None]]) -> None:
        """The program's answer lines to the referee as Actions; returns when the program is gone."""
        assert self.program is not None
        program = self.program
        while (line := await program.lines.get()) is not None:
            reply = self.translator.from_program(line)
            if reply.line is not None:
                program.send(reply.line)
            if reply.action is not None:
                await send(referee_pb2.BotMessage(action=reply.action))


# ------------------------------------------------------------------------------ running
async def run_stdio_async(
    command: Sequence[str],
    server: str | None = None,
    token: str | None = None,
    *,
    parallel: int | None = None,
    games: int | None = None,
    name: str | None = None,
    events: bool = True,
    max_restarts: int = 5,
    transcript: IO[str] | None = None,
    max_reconnects: int | None = None,
    live_events: bool = False,
    stats: StdioStats | None = None,
    tls: Tls | None = None,
) -> StdioStats:
    """Bridge ``command`` (one process per stream) to the referee until ``games`` games are over
    (None: until cancelled); ``tls`` as in :func:`mizerka.runtime.run_async`. Raises
    :class:`RefereeRefused` or :class:`MizerkaError`."""
    if not command:
        raise MizerkaError("no program to run: give its command after --")
    if games is not None and games < 1:
        raise ValueError("games must be at least 1 (or None for no limit)")
    parallel = parallel_setting(parallel)
    server, token = launch_settings(server, token)
    connection = connection_settings(server, tls)
    stats = stats if stats is not None else StdioStats()
    launch = _Launch(
        command=list(command), env=program_env(),
        name=name or f"stdio:{os.path.basename(command[0])}", streams=parallel, events=events,
        live_events=live_events and events, max_restarts=max_restarts,
        transcript=Transcript(transcript) if transcript is not None else None, stats=stats,
    )
    runner = _Runner(lambda index: _Bridge(launch, index), connection, token, parallel, games, stats, Backoff(),
                     max_reconnects, DEFAULT_MAX_MESSAGE_BYTES)
    await runner.run()
    return stats


def run_stdio(command: Sequence[str], server: str | None = None, token: str | None = None,
              **options: Any) -> StdioStats:
    """The blocking form of :func:`run_stdio_async`. Ctrl-C or SIGTERM closes the streams, stops the
    programs (stdin closed, then SIGTERM, then SIGKILL) and returns with ``interrupted = True``."""
    stats = options.pop("stats", None) or StdioStats()

    async def bridge() -> None:
        task = asyncio.current_task()
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):  # not on every platform
            loop.add_signal_handler(signal.SIGTERM, task.cancel)  # type: ignore[union-attr]
        try:
            await run_stdio_async(command, server, token, stats=stats, **options)
        except asyncio.CancelledError:
            stats.interrupted = True

    try:
        asyncio.run(bridge())
    except KeyboardInterrupt:
        stats.interrupted = True
    return stats
