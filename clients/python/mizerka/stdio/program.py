"""One child process that speaks the stdio line protocol: start it, write lines to its stdin,
read lines from its stdout, stop it. Knows nothing of gRPC; its stderr goes to ours. The bridge runs
it live, and the offline stdio seats (tournaments/local_bots.py) run the same one.

What it holds for a program is bounded whatever the program does (docs/stdio-protocol.md, "Limits"):
a line of at most :data:`LINE_LIMIT` bytes (:class:`LineReader`), :data:`LINES_QUEUED` lines read
ahead of the bridge (then the program's own writes block), and :data:`UNREAD_LIMIT` bytes written
to it and not read yet (then it is stopped)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Sequence
from typing import IO, Any

from mizerka.errors import MizerkaError
from mizerka.stdio.codec import PROTOCOL, dump_line, hello_line

__all__ = ["ENV_PROTOCOL", "LINE_LIMIT", "LINES_QUEUED", "UNREAD_LIMIT", "LineReader", "LineTooLong", "Program",
           "Transcript", "program_env"]

log = logging.getLogger("mizerka.stdio")

#: The longest line a program may write (bytes, before its newline); a longer one stops the program.
LINE_LIMIT = 1 << 20
#: Lines read from a program and not yet judged; the reading waits beyond (the pipe then fills and
#: blocks the program's writes).
LINES_QUEUED = 16
#: Bytes written to a program and not yet read by it; a program that leaves more unread is stopped.
UNREAD_LIMIT = 4 << 20
#: What one read from a program's stdout takes at most.
READ_CHUNK = 1 << 16
#: Set in every program's environment: the line protocol it is spoken to in.
ENV_PROTOCOL = "MIZERKA_STDIO_PROTOCOL"


def program_env() -> dict[str, str]:
    """The environment a program starts in, online or offline: ours, plus :data:`ENV_PROTOCOL`."""
    return dict(os.environ, **{ENV_PROTOCOL: str(PROTOCOL)})


class LineTooLong(MizerkaError):
    """A program wrote a line longer than :data:`LINE_LIMIT`: no answer is, so the program is broken."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"wrote a line longer than {limit} bytes, the stdio protocol's limit")
        self.limit = limit


class LineReader:
    """A program's output cut into lines, holding at most ``limit`` bytes of a line (what
    :class:`Program` reads with). Sans I/O: the caller reads the chunks."""

    def __init__(self, limit: int = LINE_LIMIT) -> None:
        self.limit = limit
        self.partial = bytearray()

    def feed(self, chunk: bytes) -> list[bytes]:
        """The lines ``chunk`` completes, each with its newline; :class:`LineTooLong` once a line
        passes the limit (before its newline arrives: nothing longer is ever held)."""
        lines = []
        start = 0
        while (end := chunk.find(b"\n", start)) >= 0:
            if len(self.partial) + end - start > self.limit:
                raise LineTooLong(self.limit)
            lines.append(bytes(self.partial) + chunk[start:end + 1])
            self.partial.clear()
            start = end + 1
        if len(self.partial) + len(chunk) - start > self.limit:
            raise LineTooLong(self.limit)
        self.partial += chunk[start:]
        return lines

    def end(self) -> bytes:
        """The output is over: its last line if it had no newline (else b"")."""
        rest = bytes(self.partial)
        self.partial.clear()
        return rest


class Transcript:
    """Every line in both directions, for people: ``N< `` bridge to program, ``N> `` program to bridge."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out

    def write(self, stream: int, arrow: str, line: str) -> None:
        self.out.write(f"{stream}{arrow} {line.rstrip(chr(10))}\n")
        self.out.flush()


class Program:
    """One child process speaking the line protocol: queued lines in both directions, so that a slow
    or silent program never blocks the referee's stream (the referee's clock judges it instead).
    ``lines`` yields its stdout lines, then None once it is gone. Both queues are bounded (see the
    module); ``unread`` counts the bytes sent and not yet taken by the program."""

    def __init__(self, command: Sequence[str], index: int, env: dict[str, str], transcript: Transcript | None) -> None:
        self.command = list(command)
        self.index = index
        self.env = env
        self.transcript = transcript
        self.proc: asyncio.subprocess.Process | None = None
        self.lines: asyncio.Queue[bytes | None] = asyncio.Queue(LINES_QUEUED)
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()  # bounded by unread (bytes)
        self.unread = 0
        self.tasks: list[asyncio.Task[None]] = []
        self.gone = asyncio.Event()
        self.fault: str | None = None  # how it broke the protocol's limits, once it did

    async def start(self, streams: int) -> None:
        try:
            self.proc = await asyncio.create_subprocess_exec(
                *self.command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=None,
                env=self.env, limit=READ_CHUNK,
            )
        except OSError as e:
            raise MizerkaError(f"cannot start the program {self.command[0]!r}: {e}") from None
        self.tasks = [asyncio.create_task(self._read(), name=f"stdio-read-{self.index}"),
                      asyncio.create_task(self._write(), name=f"stdio-write-{self.index}")]
        self.send(hello_line(self.index, streams))

    @property
    def alive(self) -> bool:
        return self.proc is not None and not self.gone.is_set()

    def send(self, obj: dict[str, Any]) -> None:
        if self.gone.is_set():
            return
        text = dump_line(obj)
        self.unread += len(text)
        if self.unread > UNREAD_LIMIT:
            self.cut_off(f"left more than {UNREAD_LIMIT} bytes of its input unread, the stdio protocol's limit")
            return
        self.outbox.put_nowait(text)

    def cut_off(self, why: str) -> None:
        """Stop a program that broke the protocol's limits (``why`` says how): it is gone at once, as
        if it had exited, and the bridge starts it again as after an exit."""
        if self.gone.is_set():
            return
        self.fault = why
        log.warning("stream %d: the program %s: stopped", self.index, why)
        self._kill()

    def _kill(self) -> None:
        self.gone.set()
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()

    async def _read(self) -> None:
        """Its lines into ``lines`` until it is gone; waits while ``lines`` is full."""
        assert self.proc is not None and self.proc.stdout is not None
        stdout = self.proc.stdout
        reader = LineReader()
        try:
            while chunk := await stdout.read(READ_CHUNK):
                for line in reader.feed(chunk):
                    await self._put(line)
            if rest := reader.end():
                await self._put(rest)
        except LineTooLong as e:
            self.cut_off(str(e))
        except (ConnectionError, OSError):
            pass
        self.gone.set()
        await self.lines.put(None)

    async def _put(self, line: bytes) -> None:
        if self.transcript is not None:
            self.transcript.write(self.index, ">", line.decode("utf-8", "replace"))
        await self.lines.put(line)

    async def _write(self) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        stdin = self.proc.stdin
        try:
            while (text := await self.outbox.get()) is not None:
                if self.transcript is not None:
                    self.transcript.write(self.index, "<", text)
                stdin.write(text.encode())
                await stdin.drain()
                self.unread -= len(text)
            stdin.close()
        except (ConnectionError, OSError):  # it closed its stdin (or exited): it is gone
            self._kill()

    async def returncode(self, wait_s: float = 1.0) -> int | None:
        if self.proc is None:
            return None
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(wait_s):
                return await self.proc.wait()
        return None

    async def stop(self, grace_s: float = 2.0) -> None:
        """Close its stdin (the signal to exit), then terminate and kill it if it lingers."""
        proc = self.proc
        if proc is None:
            return
        self.outbox.put_nowait(None)
        if proc.returncode is None:
            for step in (lambda: None, proc.terminate, proc.kill):
                with contextlib.suppress(ProcessLookupError):
                    step()
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(grace_s):
                        await proc.wait()
                        break
        for t in self.tasks:
            t.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self._drain(grace_s)

    async def _drain(self, wait_s: float) -> None:
        """Read what is left of its stdout, to the end: the pipe closes only then (a reader that
        waited on a full queue left it paused and open, to fail once its event loop is closed)."""
        assert self.proc is not None and self.proc.stdout is not None
        with contextlib.suppress(TimeoutError, ConnectionError, OSError):
            async with asyncio.timeout(wait_s):  # a child of its own may hold the pipe open
                while await self.proc.stdout.read(READ_CHUNK):
                    pass
