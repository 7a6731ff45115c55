"""The bridge between a Play stream and a program: the SDK's runner (:mod:`mizerka.runtime`) owns
the streams (reconnects, parallel streams, game counting); a :class:`_Bridge` per stream turns the
referee's messages into lines for the program and the program's answer lines into Actions."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import IO, Any

from mizerka.runtime import (
    DEFAULT_MAX_MESSAGE_BYTES,
    Backoff,
    MizerkaError,
    StreamHandler,
    StreamStats,
    _Runner,
    launch_settings,
    parallel_setting,
)
from mizerka.stdio.codec import (
    PROTOCOL,
    LineError,
    action_from_line,
    bridge_error_line,
    decide_line,
    error_line,
    event_line,
    game_end_line,
    game_start_line,
)
from mizerka.stdio.program import Program, Transcript
from mizerka_proto import events_pb2, game_pb2, referee_pb2

__all__ = ["StdioStats", "run_stdio", "run_stdio_async"]

log = logging.getLogger("mizerka.stdio")

#: The pause before starting a program again after it exited: short at first, at most 5 s.
_RESTART = Backoff(0.2, 5.0)


@dataclass
class StdioStats(StreamStats):
    """What a bridge run did (filled in as it goes)."""

    decisions: int = 0  #: decide lines written
    answers: int = 0  #: answer lines forwarded to the referee as Actions
    refusals: int = 0  #: refusals by the referee (error lines with source "referee")
    garbage: int = 0  #: program lines the bridge could not read as an answer
    stale: int = 0  #: answers for a turn that was not pending (not sent)
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
    """One Play stream's program, across reconnects and restarts, and the turn it owes an answer."""

    def __init__(self, launch: _Launch, index: int) -> None:
        self.launch = launch
        self.index = index
        self.program: Program | None = None
        self.exits = 0  # program exits in a row without a finished game
        self.match = ""
        self.game_number = 0
        self.seat = 0
        self.strikes = 0
        self.pending: int | None = None  # the turn awaiting an answer line
        self.inflight: tuple[int, str | None] | None = None  # (turn, the bridge's note) sent, not judged yet

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
        self.pending = self.inflight = None
        if reason is not None:  # the stream dropped: the program is still there to be told
            if in_game and self.program is not None:
                self.program.send(game_end_line(referee_pb2.GameEnd(
                    match_id=self.match, game_number=self.game_number, seat=self.seat, aborted=True,
                    abort_reason="the connection to the referee was lost")))
            return
        code = await self.program.returncode() if self.program is not None else None
        if in_game:
            log.warning("stream %d: the program exited (code %s) during game %d of match %s: the stream is closed "
                        "and the referee plays the rest of that game for this seat", self.index, code,
                        self.game_number, self.match)
        else:
            log.warning("stream %d: the program exited (code %s) between games", self.index, code)

    async def close(self) -> None:
        if self.program is not None:
            await self.program.stop()

    # -------------------------------------------------------------------- referee -> program
    async def handle(self, message: referee_pb2.RefereeMessage) -> Sequence[referee_pb2.BotMessage]:
        """Lines for the program; the answers go back through :meth:`pump`, never from here."""
        assert self.program is not None
        program = self.program
        which = message.WhichOneof("message")
        inflight = self.inflight
        if inflight is not None and not (which == "action_error" and message.action_error.turn == inflight[0]):
            # Anything but a refusal after an answer means the referee accepted it.
            if self.pending == inflight[0]:
                self.pending = None
            self.inflight = None
        if which == "event_batch":
            self._events(message.event_batch.events, program)
        elif which == "decision_request":
            d = message.decision_request
            self._events(d.events, program)
            self.pending = d.turn
            self.inflight = None
            self.launch.stats.decisions += 1
            program.send(decide_line(d))
        elif which == "action_error":
            self._refused(message.action_error, program)
        elif which == "game_start":
            g = message.game_start
            self.match, self.game_number, self.seat = g.match_id, g.game_number, g.seat
            self.strikes = 0
            self.pending = self.inflight = None
            program.send(game_start_line(g))
        elif which == "game_end":
            self.pending = self.inflight = None
            self.exits = 0
            program.send(game_end_line(message.game_end))
        return ()

    def _refused(self, e: referee_pb2.ActionError, program: Program) -> None:
        self.strikes = e.strikes
        note = None
        if self.inflight is not None and e.turn == self.inflight[0]:
            note = self.inflight[1]
            self.inflight = None
            if not e.retry and self.pending == e.turn:
                self.pending = None
        if note is None:
            self.launch.stats.refusals += 1
            program.send(error_line(e))
        else:  # a line the bridge could not read, refused by the referee as an empty Action
            program.send(error_line(e, message=note, code="MALFORMED", source="bridge"))

    def _events(self, events: Sequence[events_pb2.Event], program: Program) -> None:
        for e in events:
            which = e.WhichOneof("kind")
            if which == "default_applied" and e.default_applied.turn == self.pending:
                self.pending = None  # decided for the program: a later answer is stale
            elif which == "strike_counted":
                self.strikes = e.strike_counted.strikes
            if self.launch.events:
                program.send(event_line(e))

    # -------------------------------------------------------------------- program -> referee
    async def pump(self, send: Callable[[referee_pb2.BotMessage], Awaitable[None]]) -> None:
        """The program's answer lines to the referee as Actions; returns when the program is gone.

        A line that is no answer while a decision is pending goes out as an empty Action, so the
        referee's MALFORMED refusal, retry limit and clock apply; an answer for a turn that is not
        pending is not sent, and the program gets a bridge error line."""
        assert self.program is not None
        program = self.program
        while (line := await program.lines.get()) is not None:
            if not line.strip():
                continue  # blank lines are harmless
            action = self._checked(line, program)
            if action is not None:
                await send(referee_pb2.BotMessage(action=action))

    def _checked(self, line: bytes, program: Program) -> game_pb2.Action | None:
        """The Action to send for ``line``, or None after telling the program why nothing is sent."""
        stats = self.launch.stats
        try:
            action: game_pb2.Action | None = action_from_line(line)
            problem = None
        except LineError as e:
            action, problem = None, e
        turn = action.turn if action is not None else problem.turn  # type: ignore[union-attr]
        pending = self.pending
        if pending is None or self.inflight is not None:
            if action is None:
                stats.garbage += 1
                why = "nothing is pending" if pending is None else f"an answer to turn {pending} was already sent"
                program.send(bridge_error_line(turn, "MALFORMED", f"{problem}; not sent ({why})", self.strikes))
            elif pending is None:
                stats.stale += 1
                program.send(bridge_error_line(
                    turn, "STALE_TURN", f"turn {turn} is not pending (nothing is): not sent", self.strikes))
            else:
                stats.stale += 1
                program.send(bridge_error_line(
                    turn, "NOT_EXPECTED", f"an answer to turn {pending} was already sent; answer again only "
                    "after an error line with retry true: not sent", self.strikes))
            return None
        if turn is not None and turn != pending:
            stats.stale += 1
            program.send(bridge_error_line(
                turn, "STALE_TURN", f"turn {turn} is not pending; the pending turn is {pending}: not sent",
                self.strikes))
            return None
        if action is None:
            stats.garbage += 1
            self.inflight = (pending, f"{problem}")
            return game_pb2.Action(turn=pending)  # no action set: the referee refuses it as MALFORMED
        stats.answers += 1
        self.inflight = (pending, None)
        return action


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
) -> StdioStats:
    """Bridge ``command`` (one process per stream) to the referee until ``games`` games are over
    (None: until cancelled). Raises :class:`RefereeRefused` or :class:`MizerkaError`."""
    if not command:
        raise MizerkaError("no program to run: give its command after --")
    if games is not None and games < 1:
        raise ValueError("games must be at least 1 (or None for no limit)")
    parallel = parallel_setting(parallel)
    server, token = launch_settings(server, token)
    stats = stats if stats is not None else StdioStats()
    launch = _Launch(
        command=list(command), env=dict(os.environ, MIZERKA_STDIO_PROTOCOL=str(PROTOCOL)),
        name=name or f"stdio:{os.path.basename(command[0])}", streams=parallel, events=events,
        live_events=live_events and events, max_restarts=max_restarts,
        transcript=Transcript(transcript) if transcript is not None else None, stats=stats,
    )
    runner = _Runner(lambda index: _Bridge(launch, index), server, token, parallel, games, stats, Backoff(),
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
