"""A throwaway PostgreSQL server for the tests, started by the tests themselves.

pytest-postgresql's process fixture cannot run the server as another user, and the tests may run
as root, which ``postgres`` refuses; so this starts one with initdb/pg_ctl (as the ``postgres``
user under root) on a free port of 127.0.0.1 with trust authentication, in a temporary folder, once
per session: with pytest-xdist, once per worker, each a server of its own. Each test gets a database
of its own (:func:`pg_url`); a test that stops the server starts one of its own
(:func:`stoppable_postgres`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest

from harness import free_port

PG_BIN = Path(os.environ.get("MIZERKA_PG_BIN", "/usr/lib/postgresql/15/bin"))
PORT_TRIES = 5


def _binaries() -> Path:
    """The folder with initdb and pg_ctl: PG_BIN, else any installed version, else a failure that says
    how to get them (never a skip: the PostgreSQL store must be tested)."""
    for folder in [PG_BIN, *sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)]:
        if (folder / "initdb").exists() and (folder / "pg_ctl").exists():
            return folder
    which = shutil.which("initdb")
    if which:
        return Path(which).parent
    pytest.fail("PostgreSQL's initdb and pg_ctl are not installed (looked in /usr/lib/postgresql/*/bin and PATH): "
                ".ci/run installs them (Debian package postgresql), or set MIZERKA_PG_BIN", pytrace=False)


class PostgresError(RuntimeError):
    """PostgreSQL could not be started (or stopped) here; the message says why."""


@dataclass(frozen=True, slots=True)
class PostgresServer:
    """A throwaway server that a test can stop and start again, on the same data folder and port:
    the database going away under the workers, then coming back (tests/test_worker_failures.py)."""

    bin_dir: Path
    as_postgres: tuple[str, ...]  # runuser as postgres, under root
    root: Path  # its data folder, its log and its Unix socket
    port: int

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}"

    def _pg_ctl(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*self.as_postgres, str(self.bin_dir / "pg_ctl"), "-D", str(self.root / "data"), *args],
                              capture_output=True, text=True)

    def start(self) -> None:
        """Start it (and wait until it takes connections); PostgresError if it does not."""
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        started = self._pg_ctl("-l", str(self.root / "server.log"), "-o", options, "-w", "-t", "60", "start")
        if started.returncode != 0:
            raise PostgresError(f"PostgreSQL did not start: {started.stdout}{started.stderr}")

    def stop(self, mode: str = "immediate") -> None:
        """Stop it (``immediate``: as a crash does, every session cut, nothing written out first)."""
        stopped = self._pg_ctl("-m", mode, "-w", "stop")
        if stopped.returncode != 0:
            raise PostgresError(f"PostgreSQL did not stop: {stopped.stdout}{stopped.stderr}")


@contextmanager
def stoppable_postgres() -> Iterator[PostgresServer]:
    """A throwaway server, running, that the caller may stop and start again; removed at the end."""
    bin_dir = _binaries()
    as_postgres = ("runuser", "-u", "postgres", "--") if os.geteuid() == 0 else ()
    root = Path(tempfile.mkdtemp(prefix="mizerka-pg-"))
    if as_postgres:
        shutil.chown(root, "postgres", "postgres")
    log = root / "server.log"
    try:
        subprocess.run([*as_postgres, str(bin_dir / "initdb"), "-D", str(root / "data"), "-A", "trust", "-U", "postgres",
                        "--no-sync", "-E", "UTF8"], check=True, capture_output=True)
        for tries_left in reversed(range(PORT_TRIES)):
            server = PostgresServer(bin_dir, as_postgres, root, free_port())  # postgres cannot be given port 0
            try:
                server.start()
                break
            except PostgresError:  # a port another process took first is tried again
                if not tries_left or "Address already in use" not in (log.read_text() if log.exists() else ""):
                    raise
                log.unlink()
        try:
            yield server
        finally:
            with suppress(PostgresError):  # stopped by the caller already
                server.stop()
    finally:
        shutil.rmtree(root, ignore_errors=True)


@contextmanager
def postgres_server() -> Iterator[str]:
    """``postgresql://postgres@127.0.0.1:PORT``: a throwaway server (for the tests and the benchmarks)."""
    with stoppable_postgres() as server:
        yield server.url


def new_database(server: str) -> str:
    """A new, empty database on ``server``; returns its URL."""
    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return f"{server}/{name}"


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """A server of its own for this test session."""
    try:
        with postgres_server() as url:
            yield url
    except PostgresError as e:
        pytest.fail(str(e), pytrace=False)


@pytest.fixture
def pg_url(pg_server: str) -> Iterator[str]:
    """A new, empty database on the session's server, dropped after the test."""
    url = new_database(pg_server)
    yield url
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(f"{pg_server}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
