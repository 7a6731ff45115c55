"""Bots the offline referee (:mod:`server.referee.offline`) drives in this process or as a child.

- :class:`SdkSeat`: an SDK bot, through the SDK's own :class:`mizerka.session.BotSession` (what the
  SDK runtime runs on every Play stream);
- :class:`StdioSeat`: a program speaking the stdio JSON Lines protocol (docs/stdio-protocol.md),
  fed the lines the ``mizerka bot stdio`` bridge would feed it, by the SDK's own codec.

They live on top of the server and the SDK because they join the two.
"""

from __future__ import annotations

import json
import os
import queue
import shlex
import subprocess
import threading
import time
from collections import deque
from collections.abc import Sequence
from typing import IO, Any

from mizerka import stdio
from mizerka.bot import Bot
from mizerka.bots import BOTS
from mizerka.session import BotSession
from mizerka_proto import game_pb2, referee_pb2
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


class StdioSeat:
    """A stdio program, started on the first message. An answer line for another turn is answered
    with a STALE_TURN error line and not passed on (as the bridge does); a line that is no answer is
    passed on as an empty Action (the referee refuses it MALFORMED); no answer within ``timeout_s``
    is a timeout; a program that exits is gone."""

    live_events = False

    def __init__(self, command: Sequence[str], label: str = "", timeout_s: float = 10.0) -> None:
        if not command:
            raise ValueError("no program given")
        self.command = list(command)
        self.label = label or " ".join(command)
        self.timeout_s = timeout_s
        self.proc: subprocess.Popen[bytes] | None = None
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.turn = 0
        self.strikes = 0
        self.note: str | None = None  # why the last line passed on as an empty Action was no answer

    def _spawn(self) -> None:
        env = dict(os.environ, MIZERKA_STDIO_PROTOCOL=str(stdio.PROTOCOL))
        try:
            self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        except OSError as e:
            raise OSError(f"cannot start the program {self.command[0]!r}: {e}") from None
        threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True).start()
        self._write(stdio.hello_line(0, 1))

    def _read(self, stdout: IO[bytes]) -> None:
        try:
            for line in iter(stdout.readline, b""):
                self.lines.put(line)
        except (OSError, ValueError):
            pass
        finally:
            self.lines.put(None)

    def _write(self, obj: dict[str, Any]) -> None:
        if self.proc is None or self.proc.stdin is None or self.proc.stdin.closed:
            return
        try:
            self.proc.stdin.write((json.dumps(obj, separators=(",", ":")) + "\n").encode())
            self.proc.stdin.flush()
        except OSError:
            pass

    def send(self, message: referee_pb2.RefereeMessage) -> None:
        which = message.WhichOneof("message")
        if which == "game_start":
            if self.proc is None:
                self._spawn()
            self.strikes = 0
            self._write(stdio.game_start_line(message.game_start))
        elif which == "event_batch":
            self._events(message.event_batch.events)
        elif which == "decision_request":
            request = message.decision_request
            self._events(request.events)
            self.turn = request.turn
            self._write(stdio.decide_line(request))
        elif which == "action_error":
            error = message.action_error
            self.strikes = error.strikes
            if self.note is not None:
                self._write(stdio.error_line(error, message=self.note, code="MALFORMED", source="bridge"))
                self.note = None
            else:
                self._write(stdio.error_line(error))
        elif which == "game_end":
            self._write(stdio.game_end_line(message.game_end))

    def _events(self, events: Sequence[Any]) -> None:
        for e in events:
            if e.WhichOneof("kind") == "strike_counted":
                self.strikes = e.strike_counted.strikes
            self._write(stdio.event_line(e))

    def receive(self) -> referee_pb2.BotMessage | None:
        deadline = time.monotonic() + self.timeout_s
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return None
            if line is None:
                raise Disconnected()
            if not line.strip():
                continue
            try:
                action = stdio.action_from_line(line)
            except stdio.LineError as e:
                if e.turn is not None and e.turn != self.turn:
                    self._stale(e.turn)
                    continue
                self.note = str(e)
                return referee_pb2.BotMessage(action=game_pb2.Action(turn=self.turn))
            if action.turn != self.turn:
                self._stale(action.turn)
                continue
            return referee_pb2.BotMessage(action=action)

    def _stale(self, turn: int) -> None:
        self._write(stdio.bridge_error_line(
            turn, "STALE_TURN", f"turn {turn} is not pending; the pending turn is {self.turn}: not sent", self.strikes))

    def close(self) -> None:
        proc = self.proc
        if proc is None:
            return
        if proc.stdin is not None:
            try:
                proc.stdin.close()
            except OSError:
                pass
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
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
