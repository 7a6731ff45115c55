"""Bots the offline referee (:mod:`server.referee.offline`) drives in this process or as a child.

- :class:`SdkSeat`: an SDK bot, through the SDK's own :class:`mizerka.session.BotSession` (what the
  SDK runtime runs on every Play stream);
- :class:`StdioSeat`: a program speaking the stdio JSON Lines protocol (docs/stdio-protocol.md),
  through the SDK's own :class:`mizerka.stdio.translate.Translator` (what the ``mizerka bot stdio``
  bridge runs on every Play stream).

They live on top of the server and the SDK because they join the two.
"""

from __future__ import annotations

import contextlib
import queue
import shlex
import subprocess
import threading
import time
from collections import deque
from collections.abc import Sequence
from typing import IO, Any, NoReturn

from mizerka.bot import Bot
from mizerka.bots import BOTS
from mizerka.session import BotSession
from mizerka.stdio.codec import dump_line, hello_line
from mizerka.stdio.program import LINES_QUEUED, READ_CHUNK, UNREAD_LIMIT, LineReader, LineTooLong, program_env
from mizerka.stdio.translate import Line, Translator
from mizerka_proto import referee_pb2
from server.referee.session import Disconnected


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
    """A stdio program broke one of the protocol's limits (docs/stdio-protocol.md, "Limits"): it is
    stopped and the command ends, naming the bot."""


class StdioSeat:
    """A stdio program, started on the first message, spoken to through the SDK's own
    :class:`~mizerka.stdio.translate.Translator` (what the bridge runs on every Play stream), so its
    lines are judged by the bridge's rules. Unlike the bridge, which judges a line when it arrives,
    the seat reads lines only when the referee asks for an answer: what a program writes between
    decisions is judged against the next one, the same whatever the threads' timing, so offline
    games stay reproducible. No answer within ``timeout_s`` is a timeout; a program that exits is gone.

    It holds what the bridge holds (:mod:`mizerka.stdio.program`'s limits, its :class:`LineReader`):
    lines of at most LINE_LIMIT bytes, LINES_QUEUED lines read ahead (the program's writes then
    block), UNREAD_LIMIT bytes it has not read; a program past a limit raises :class:`ProgramFault`."""

    live_events = False

    def __init__(self, command: Sequence[str], label: str = "", timeout_s: float = 10.0) -> None:
        if not command:
            raise ValueError("no program given")
        self.command = list(command)
        self.label = label or " ".join(command)
        self.timeout_s = timeout_s
        self.proc: subprocess.Popen[bytes] | None = None
        self.lines: queue.Queue[bytes | LineTooLong | None] = queue.Queue(LINES_QUEUED)
        self.outbox: queue.Queue[bytes | None] = queue.Queue()  # bounded by unread (bytes)
        self.unread = 0
        self.lock = threading.Lock()  # unread, between this thread and the writer's
        self.threads: list[threading.Thread] = []
        self.closing = False
        self.translator = Translator()

    def _spawn(self) -> None:
        try:
            self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=program_env())
        except OSError as e:
            raise OSError(f"cannot start the program {self.command[0]!r}: {e}") from None
        self.closing = False
        self.threads = [threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True),
                        threading.Thread(target=self._pour, args=(self.proc.stdin,), daemon=True)]
        for thread in self.threads:
            thread.start()
        self._write(hello_line(0, 1))

    def _read(self, stdout: IO[bytes]) -> None:
        reader = LineReader()
        try:
            while chunk := stdout.read1(READ_CHUNK):  # type: ignore[attr-defined]
                for line in reader.feed(chunk):
                    if self.closing:  # what is left goes nowhere: stop at once
                        return
                    self.lines.put(line)
            if rest := reader.end():
                self.lines.put(rest)
        except LineTooLong as e:
            self.lines.put(e)
        except (OSError, ValueError):
            pass
        finally:
            self.lines.put(None)

    def _pour(self, stdin: IO[bytes]) -> None:
        """The writer thread: what the seat sends, in order, however slowly the program reads it."""
        try:
            while (data := self.outbox.get()) is not None:
                stdin.write(data)
                stdin.flush()
                with self.lock:
                    self.unread -= len(data)
            stdin.close()
        except (OSError, ValueError):
            pass

    def _write(self, line: Line) -> None:
        if self.proc is None:
            return
        data = dump_line(line).encode()
        with self.lock:
            self.unread += len(data)
            over = self.unread > UNREAD_LIMIT
        if over:
            self._fault(f"left more than {UNREAD_LIMIT} bytes of its input unread, the stdio protocol's limit")
        self.outbox.put(data)

    def _fault(self, why: str) -> NoReturn:
        if self.proc is not None:
            self.proc.kill()
        raise ProgramFault(f"bot {self.label!r} {why}: stopped")

    def send(self, message: referee_pb2.RefereeMessage) -> None:
        if message.WhichOneof("message") == "game_start" and self.proc is None:
            self._spawn()
        for line in self.translator.to_program(message):
            self._write(line)

    def receive(self) -> referee_pb2.BotMessage | None:
        deadline = time.monotonic() + self.timeout_s
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return None
            if line is None:
                raise Disconnected()
            if isinstance(line, LineTooLong):
                self._fault(str(line))
            reply = self.translator.from_program(line)
            if reply.line is not None:
                self._write(reply.line)
            if reply.action is not None:
                return referee_pb2.BotMessage(action=reply.action)

    def close(self) -> None:
        proc = self.proc
        if proc is None:
            return
        self.outbox.put(None)  # the writer closes its stdin: the signal to exit
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        self.closing = True
        while any(thread.is_alive() for thread in self.threads):  # a reader waiting for room
            with contextlib.suppress(queue.Empty):
                while True:
                    self.lines.get_nowait()
            for thread in self.threads:
                thread.join(0.01)
        self.proc = None


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
