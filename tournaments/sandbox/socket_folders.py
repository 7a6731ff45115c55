"""The folder of the local referee's Unix socket, which sandboxes bind in, and the removal of those
left behind by runners that were killed (kill -9 skips every cleanup).

A runner holds a lock (flock) on its folder for as long as it lives; the kernel drops it when the
process ends, however it ends. A folder nobody holds the lock on is left over, and the next runner
to start removes it. The lock holds across PID namespaces that share /tmp, where a process id
would not tell."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

PREFIX = "mizerka-socket-"  # a locked folder's name; it is made under another and renamed once locked
MAKING = "mizerka-making-"


@contextlib.contextmanager
def socket_folder() -> Iterator[Path]:
    """A folder for the local referee's Unix socket, and nothing else: short (a socket's path is
    at most 107 bytes), open to every user (a root runner's bots run as nobody), and locked while
    this process lives."""
    remove_stale_socket_folders()
    made = Path(tempfile.mkdtemp(prefix=MAKING))
    folder = made.with_name(PREFIX + made.name.removeprefix(MAKING))
    lock = os.open(made, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        made.rename(folder)  # only ever seen locked under its name
        folder.chmod(0o755)
        yield folder
    finally:
        shutil.rmtree(folder if folder.exists() else made, ignore_errors=True)
        os.close(lock)


def remove_stale_socket_folders(parent: Path | None = None) -> list[Path]:
    """Remove this user's socket folders in ``parent`` (the temporary folder) that no process holds
    the lock on; returns them."""
    removed = []
    for folder in Path(parent or tempfile.gettempdir()).glob(PREFIX + "*"):
        try:
            lock = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        except OSError:  # gone, or not a folder
            continue
        try:
            if os.fstat(lock).st_uid != os.getuid():
                continue
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:  # its runner runs
            continue
        else:
            shutil.rmtree(folder)
            removed.append(folder)
        finally:
            os.close(lock)
    return removed
