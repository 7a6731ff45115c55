"""One child process that speaks the stdio line protocol: start it, write lines to its stdin,
read lines from its stdout, stop it. Knows nothing of gRPC; its stderr goes to ours."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Sequence
from typing import IO, Any

from mizerka.runtime import MizerkaError
from mizerka.stdio.codec import PROTOCOL, dump_line, hello_line

__all__ = ["ENV_PROTOCOL", "LINE_LIMIT", "Program", "Transcript", "program_env"]

#: The longest line read from a program (bytes); a longer one is refused as MALFORMED.
LINE_LIMIT = 1 << 20
#: Set in every program's environment: the line protocol it is spoken to in.
ENV_PROTOCOL = "MIZERKA_STDIO_PROTOCOL"


def program_env() -> dict[str, str]:
    """The environment a program starts in, online or offline: ours, plus :data:`ENV_PROTOCOL`."""
    return dict(os.environ, **{ENV_PROTOCOL: str(PROTOCOL)})


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
    ``lines`` yields its stdout lines, then None once it is gone."""

    def __init__(self, command: Sequence[str], index: int, env: dict[str, str], transcript: Transcript | None) -> None:
        self.command = list(command)
        self.index = index
        self.env = env
        self.transcript = transcript
        self.proc: asyncio.subprocess.Process | None = None
        self.lines: asyncio.Queue[bytes | None] = asyncio.Queue()
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.tasks: list[asyncio.Task[None]] = []
        self.gone = asyncio.Event()

    async def start(self, streams: int) -> None:
        try:
            self.proc = await asyncio.create_subprocess_exec(
                *self.command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=None,
                env=self.env, limit=LINE_LIMIT,
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
        if not self.gone.is_set():
            self.outbox.put_nowait(dump_line(obj))

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        stdout = self.proc.stdout
        try:
            while True:
                try:
                    line = await stdout.readline()
                except ValueError:  # longer than LINE_LIMIT: readline dropped it
                    line = b"(a line longer than %d bytes, left out)\n" % LINE_LIMIT
                if not line:
                    break
                if self.transcript is not None:
                    self.transcript.write(self.index, ">", line.decode("utf-8", "replace"))
                self.lines.put_nowait(line)
        except (ConnectionError, OSError):
            pass
        finally:
            self.gone.set()
            self.lines.put_nowait(None)

    async def _write(self) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        stdin = self.proc.stdin
        try:
            while (text := await self.outbox.get()) is not None:
                if self.transcript is not None:
                    self.transcript.write(self.index, "<", text)
                stdin.write(text.encode())
                await stdin.drain()
            stdin.close()
        except (ConnectionError, OSError):
            self.gone.set()
            self.lines.put_nowait(None)

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
