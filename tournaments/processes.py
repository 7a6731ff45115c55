"""The runner's child processes (bots, the local referee): they die with the runner, even when it is
killed with kill -9, so nothing of a stopped league plays on without it (docs/leagues.md,
Interruptions)."""

from __future__ import annotations

import ctypes
import functools
import os
import signal
import subprocess
from collections.abc import Callable
from pathlib import Path

import trio

from server.private_files import open_private

try:
    _prctl = ctypes.CDLL(None, use_errno=True).prctl  # resolved here: the forked child only calls it
except (OSError, AttributeError):
    _prctl = None


def _die_with_parent(runner: int, enter: Callable[[], None] | None) -> None:
    """In the child: get SIGTERM when the runner dies, even by kill -9 (Linux PR_SET_PDEATHSIG). A
    runner that died before this ran sends nothing, but the child has a new parent by then: it
    ends itself (SIGKILL: until exec the runner's own SIGTERM handler is still in place). Then
    ``enter``, before the child runs its program (a sandboxed bot's memory cgroup)."""
    if _prctl is not None:
        _prctl(1, signal.SIGTERM)
        if os.getppid() != runner:
            os.kill(os.getpid(), signal.SIGKILL)
    if enter is not None:
        enter()


class Child:
    """A child process started from the trio thread itself.

    PR_SET_PDEATHSIG fires when the *thread* that forked the child exits, so children must not be
    forked from a worker thread (as trio.lowlevel.open_process does): they would be killed when
    that thread retires. Only waiting happens in a worker thread. Each child gets a process group
    of its own, so a Ctrl-C at the terminal reaches the runner alone, which stops its games before
    their bots (a bot gone first would have its seats played by default moves).
    """

    def __init__(self, command: list[str], log: Path, env: dict[str, str] | None = None, pass_fds: tuple[int, ...] = (),
                 enter: Callable[[], None] | None = None) -> None:
        self.log = log
        with open_private(log, "ab") as out:  # logs show tokens' owners, hands and errors: the user's alone
            self.log_start = out.tell()
            self.popen = subprocess.Popen(
                command, env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, pass_fds=pass_fds,
                preexec_fn=functools.partial(_die_with_parent, os.getpid(), enter), process_group=0,
            )

    def log_tail(self, size: int) -> str:
        """The last ``size`` bytes this process wrote to its log (its last words, when it crashed)."""
        with self.log.open("rb") as log:
            log.seek(max(self.log_start, log.seek(0, os.SEEK_END) - size))
            return log.read().decode("utf-8", "replace")

    def poll(self) -> int | None:
        return self.popen.poll()

    async def wait(self) -> int:
        return await trio.to_thread.run_sync(self.popen.wait, abandon_on_cancel=True)

    async def stop(self, grace_s: float = 10.0) -> None:
        """SIGTERM, then SIGKILL after ``grace_s``; safe to call from a cancelled scope."""
        with trio.CancelScope(shield=True):
            if self.popen.poll() is None:
                self.popen.terminate()
                with trio.move_on_after(grace_s):
                    await self.wait()
                if self.popen.poll() is None:
                    self.popen.kill()
                    await self.wait()


def last_lines(log: Path, count: int, size: int = 16384) -> list[str]:
    """The last ``count`` lines of a log (from its last ``size`` bytes); none if it cannot be read."""
    try:
        with log.open("rb") as file:
            file.seek(max(0, file.seek(0, os.SEEK_END) - size))
            text = file.read().decode("utf-8", "replace")
    except OSError:
        return []
    return text.splitlines()[-count:]
