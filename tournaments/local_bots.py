"""Bots the offline referee (:mod:`server.referee.offline`) drives in this process or as a child.

- :class:`SdkSeat`: an SDK bot, through the SDK's own :class:`mizerka.session.BotSession` (what the
  SDK runtime runs on every Play stream);
- :class:`StdioSeat`: a program speaking the stdio JSON Lines protocol (docs/stdio-protocol.md),
  through the SDK's own :class:`mizerka.stdio.translate.Translator` (what the ``mizerka bot stdio``
  bridge runs on every Play stream).

They live on top of the server and the SDK because they join the two.
"""

from __future__ import annotations

import asyncio
import shlex
import threading
import time
from collections import deque
from collections.abc import Coroutine, Sequence
from typing import Any, NoReturn, TypeVar

from mizerka.bot import Bot
from mizerka.bots import BOTS
from mizerka.errors import MizerkaError
from mizerka.session import BotSession
from mizerka.stdio.program import Program, program_env
from mizerka.stdio.translate import Line, Translator
from mizerka_proto import referee_pb2
from server.referee.session import Disconnected

T = TypeVar("T")


class SdkSeat:
    """An in-process SDK bot: every message goes through the SDK's BotSession, its answers queue up."""

    live_events = False  # what the SDK runtime asks for in Hello

    def __init__(self, bot: Bot, label: str = "") -> None:
        self.label = label or getattr(bot, "name", "") or type(bot).__name__
        self.session = BotSession(bot)
        self.replies: deque[referee_pb2.BotMessage] = deque()
        self.requests = 0  # DecisionRequests received
        self.fallbacks = 0  # answers the SDK made because the bot raised or answered garbage

    def send(self, message: referee_pb2.RefereeMessage) -> None:
        self.requests += message.WhichOneof("message") == "decision_request"
        self.replies.extend(self.session.handle(message))
        answered = self.session.answer
        self.fallbacks += answered is not None and answered.fallback

    def receive(self) -> referee_pb2.BotMessage | None:
        return self.replies.popleft() if self.replies else None

    def close(self) -> None:
        self.replies.clear()


class ProgramFault(Exception):
    """A stdio program could not be started, or broke one of the protocol's limits
    (docs/stdio-protocol.md, "Limits"): it is stopped and the command ends, naming the bot."""


class StdioSeat:
    """A stdio program, started on the first message, spoken to through the SDK's own
    :class:`~mizerka.stdio.translate.Translator` (what the bridge runs on every Play stream), so its
    lines are judged by the bridge's rules. Unlike the bridge, which judges a line when it arrives,
    the seat reads lines only when the referee asks for an answer: what a program writes between
    decisions is judged against the next one, the same whatever the threads' timing, so offline
    games stay reproducible. No answer within ``timeout_s`` is a timeout; a program that exits is gone.

    The child process is the bridge's own :class:`~mizerka.stdio.program.Program`, with its limits
    (lines of at most LINE_LIMIT bytes, LINES_QUEUED lines read ahead, UNREAD_LIMIT bytes unread), run
    on an event loop of the seat's own in a thread: the offline referee calling it is synchronous. A
    program past a limit raises :class:`ProgramFault`."""

    live_events = False

    def __init__(self, command: Sequence[str], label: str = "", timeout_s: float = 10.0) -> None:
        if not command:
            raise ValueError("no program given")
        self.command = list(command)
        self.label = label or " ".join(command)
        self.timeout_s = timeout_s
        self.program: Program | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread: threading.Thread | None = None
        self.translator = Translator()

    def _run(self, work: Coroutine[Any, Any, T]) -> T:
        """``work`` on the seat's loop, waited for here."""
        assert self.loop is not None
        return asyncio.run_coroutine_threadsafe(work, self.loop).result()

    def _spawn(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name=f"stdio-seat {self.label}", daemon=True)
        self.thread.start()
        self.program = Program(self.command, 0, program_env(), None)
        try:
            self._run(self.program.start(1))
        except MizerkaError as e:  # no such program, not executable
            self.close()
            raise ProgramFault(f"bot {self.label!r}: {e}") from None

    def _fault(self, why: str) -> NoReturn:
        raise ProgramFault(f"bot {self.label!r} {why}: stopped")

    def _write(self, line: Line) -> None:
        program = self.program
        if program is None:
            return
        self._run(_send(program, line))
        if program.fault is not None:
            self._fault(program.fault)

    def send(self, message: referee_pb2.RefereeMessage) -> None:
        if message.WhichOneof("message") == "game_start" and self.program is None:
            self._spawn()
        for line in self.translator.to_program(message):
            self._write(line)

    def receive(self) -> referee_pb2.BotMessage | None:
        program = self.program
        if program is None:  # never started: nothing to answer
            return None
        deadline = time.monotonic() + self.timeout_s
        while True:
            try:
                line = self._run(_next_line(program, max(0.0, deadline - time.monotonic())))
            except TimeoutError:
                return None
            if line is None:
                if program.fault is not None:
                    self._fault(program.fault)
                raise Disconnected()
            reply = self.translator.from_program(line)
            if reply.line is not None:
                self._write(reply.line)
            if reply.action is not None:
                return referee_pb2.BotMessage(action=reply.action)

    def close(self) -> None:
        loop, program = self.loop, self.program
        if loop is None:
            return
        if program is not None:
            self._run(program.stop())
        loop.call_soon_threadsafe(loop.stop)
        assert self.thread is not None
        self.thread.join()
        loop.close()
        self.loop = self.program = self.thread = None


async def _send(program: Program, line: Line) -> None:
    program.send(line)


async def _next_line(program: Program, timeout_s: float) -> bytes | None:
    async with asyncio.timeout(timeout_s):
        return await program.lines.get()


class BotSpecError(ValueError):
    """A ``--bot`` value that names no bot."""


def make_seat(spec: str, timeout_s: float = 10.0) -> SdkSeat | StdioSeat:
    """``builtin:NAME`` (an SDK bot of ``mizerka.bots.BOTS``) or a command line of a stdio program."""
    spec = spec.strip()
    if spec.startswith("builtin:"):
        name = spec.removeprefix("builtin:")
        if name not in BOTS:
            raise BotSpecError(f"no built-in bot {name!r}; built-in bots are {', '.join(sorted(BOTS))}")
        return SdkSeat(BOTS[name](), spec)
    try:
        command = shlex.split(spec)
    except ValueError as e:
        raise BotSpecError(f"{spec!r} is not a command line: {e}") from None
    if not command:
        raise BotSpecError("an empty bot: give builtin:NAME or the command of a stdio program")
    return StdioSeat(command, spec, timeout_s)


def builtin_style(seat: dict[str, Any]) -> str | None:
    """The built-in bot a logged seat was, if any: its Hello named a bot of ``mizerka.bots.BOTS`` with
    that bot's version (what ``mizerka bot NAME`` sends)."""
    name, version = seat.get("hello_name"), seat.get("version")
    cls = BOTS.get(name) if isinstance(name, str) else None
    if cls is None:
        return None
    return name if str(getattr(cls, "version", "")) == str(version) else None
