"""The local referee's socket folder outlives a runner killed with kill -9 only until the next
runner starts, and a folder whose runner runs is never removed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tournaments.sandbox.socket_folders import remove_stale_socket_folders, socket_folder

RUNNER = """
import time
from tournaments.sandbox.socket_folders import socket_folder
with socket_folder() as folder:
    print(folder, flush=True)
    time.sleep(600)
"""


@pytest.fixture
def tmp(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A temporary folder of the test's own, as this process's and its runners' temporary folder."""
    folder = Path(tempfile.mkdtemp(prefix="sf-", dir="/tmp"))  # short: a socket's path is at most 107 bytes
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    try:
        yield folder
    finally:
        subprocess.run(["rm", "-rf", str(folder)], check=True)


def runner(tmp: Path) -> tuple[subprocess.Popen[str], Path]:
    """A process holding a socket folder in ``tmp``, as the league runner does for its referee."""
    process = subprocess.Popen([sys.executable, "-c", RUNNER], stdout=subprocess.PIPE, text=True,
                               env=dict(os.environ, TMPDIR=str(tmp)))
    assert process.stdout is not None
    folder = Path(process.stdout.readline().strip())
    assert folder.parent == tmp and folder.is_dir(), folder
    return process, folder


def test_the_next_runner_removes_the_folder_of_one_killed_with_kill_9(tmp: Path) -> None:
    process, left = runner(tmp)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert left.is_dir()  # kill -9: nothing removed it
    with socket_folder() as mine:
        assert not left.exists()
        assert mine.is_dir() and mine.stat().st_mode & 0o777 == 0o755
        assert sorted(tmp.iterdir()) == [mine]
    assert not any(tmp.iterdir())


def test_a_folder_whose_runner_runs_stays(tmp: Path) -> None:
    live, theirs = runner(tmp)
    try:
        others = [tmp / "mizerka-probe-x", tmp / "mizerka-netns-pg-y"]  # other folders of the project's
        for folder in others:
            folder.mkdir()
        with socket_folder() as mine:
            assert remove_stale_socket_folders() == []
            for folder in (theirs, mine, *others):
                assert folder.is_dir(), folder
    finally:
        live.kill()
        live.wait()
    assert remove_stale_socket_folders() == [theirs]
