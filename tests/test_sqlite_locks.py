"""A process that opens one SQLite file twice (a referee and its web page's board, `mizerka serve
--http-port` on a league's database; a league runner and its live standings) keeps the locks its
first connections hold: another process cannot write while it does, and it sees what others write.

Opening a Store makes the file private first (server/logs.py, private_file); closing a descriptor
of a file drops every POSIX lock the process holds on it, SQLite's included.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

from server.storage.store import Store

OTHER = """
import sqlite3, sys
with sqlite3.connect(sys.argv[1], timeout=0, isolation_level=None) as conn:
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as e:
        print(e)
    else:
        conn.execute("UPDATE matches SET error = ?", (sys.argv[2],))
        conn.execute("COMMIT")
        print("written")
"""


def _other_process(db: Path, error: str) -> str:
    """Another process writes ``error`` into every match, if it can take the write lock at once."""
    return subprocess.run([sys.executable, "-c", OTHER, str(db), error], capture_output=True, text=True, timeout=30,
                          check=True).stdout.strip()


def test_a_second_store_of_a_file_leaves_the_locks_of_the_first(tmp_path: Path) -> None:
    db = tmp_path / "league.sqlite"
    first = Store(db)
    seats = [first.add_bot(name)[0].id for name in "abc"]
    first.create_match("mizerka-short", {}, "seed", 1, {}, seats)
    with closing(sqlite3.connect(db, isolation_level=None)) as conn:
        conn.execute("BEGIN IMMEDIATE")  # this process writes
        second = Store(db)
        try:
            assert _other_process(db, "x") == "database is locked", "another process wrote while this one held the lock"
            conn.execute("COMMIT")
            for error in ("one", "two"):
                assert _other_process(db, error) == "written"
                assert conn.execute("SELECT DISTINCT error FROM matches").fetchall() == [(error,)], "an old state was read"
        finally:
            second.close()
            first.close()
