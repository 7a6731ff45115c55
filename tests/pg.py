"""A throwaway PostgreSQL server for the tests, started by the tests themselves.

pytest-postgresql's process fixture cannot run the server as another user, and the tests may run
as root, which ``postgres`` refuses; so this starts one with initdb/pg_ctl (as the ``postgres``
user under root) on a free port of 127.0.0.1 with trust authentication, in a temporary folder, once
per session: with pytest-xdist, once per worker, each a server of its own. Each test gets a database
of its own (:func:`pg_url`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
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
    """PostgreSQL could not be started here; the message says why."""


@contextmanager
def postgres_server() -> Iterator[str]:
    """``postgresql://postgres@127.0.0.1:PORT``: a throwaway server (for the tests and the benchmarks)."""
    bin_dir = _binaries()
    as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    root = Path(tempfile.mkdtemp(prefix="mizerka-pg-"))
    if as_postgres:
        shutil.chown(root, "postgres", "postgres")
    data, log = root / "data", root / "server.log"
    subprocess.run([*as_postgres, str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync",
                    "-E", "UTF8"], check=True, capture_output=True)
    for _ in range(PORT_TRIES):
        port = free_port()  # postgres cannot be given port 0: a port another process took first is tried again
        options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        started = subprocess.run([*as_postgres, str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", options, "-w",
                                  "-t", "60", "start"], capture_output=True, text=True)
        if started.returncode == 0 or "Address already in use" not in (log.read_text() if log.exists() else ""):
            break
        log.unlink()
    if started.returncode != 0:
        shutil.rmtree(root, ignore_errors=True)
        raise PostgresError(f"PostgreSQL did not start: {started.stdout}{started.stderr}")
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}"
    finally:
        subprocess.run([*as_postgres, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                       capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


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
