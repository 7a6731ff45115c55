"""The league's own referee: `mizerka serve` as a child process of the runner (or of a worker) on
the league's database, restarted if it dies, with its address, its Unix socket for sandboxed bots
and its web page's URL once it runs."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Iterable
from pathlib import Path

import trio

from server.storage.store import DEFAULT_REFEREE
from tournaments import progress
from tournaments.config import League
from tournaments.processes import Child
from tournaments.progress import Report
from tournaments.sandbox.socket_folders import socket_folder

BIN = Path(sys.executable).parent  # this installation's commands: mizerka, mizerka-bot
LOCAL_HOST = "127.0.0.1"  # where the local referee listens unless `league run --host` says otherwise


def web_options(http: tuple[str, int] | None) -> tuple[str, ...]:
    """The `mizerka serve` options of its web page (docs/web.md) at ``http`` = (host, port); none if None."""
    return () if http is None else ("--http-port", str(http[1]), "--http-host", http[0])


WEB_LISTENING = "web page listening"  # the referee's log event naming its web page's URL (server/serve.py)


def logged_web_url(log: Path) -> str | None:
    """The URL of the web page the referee logging (JSON) to ``log`` serves: its last start's."""
    url = None
    with log.open("rb") as lines:
        for line in lines:
            if WEB_LISTENING.encode() in line:
                with contextlib.suppress(ValueError):
                    entry = json.loads(line)
                    if entry.get("event") == WEB_LISTENING:
                        url = entry["url"]
    return url


def bot_sockets(league: League, folder: Path) -> dict[str, Path]:
    """A Unix socket for each bot the runner starts, in a folder of its own, which that bot's
    sandbox alone binds (tournaments/sandbox/bwrap.py): to the referee each bot is a host of its own, for
    the per-host Watch cap and the log's rate limit (server/transport/unix_peers.py), which one socket
    shared by every bot would not tell apart. Folders are numbered: a socket's path has at most
    107 bytes, and bot names are the organiser's words."""
    sockets = {}
    for i, spec in enumerate(b for b in league.bots if not b.remote):
        (folder / str(i)).mkdir(mode=0o755)
        (folder / str(i)).chmod(0o755)  # open to every user, as the folder is (a root runner's bots run as nobody)
        sockets[spec.name] = folder / str(i) / "referee.sock"
    return sockets


def unix_socket_options(sockets: Iterable[Path]) -> list[str]:
    """`mizerka serve` options to listen on each of ``sockets``."""
    return [option for path in sockets for option in ("--unix-socket", str(path))]


class LocalReferee:
    """`mizerka serve` as a child process on the league's database, restarted if it dies. Its admin
    token goes in its environment (readable by its user only), not on its command line (readable
    by every user in /proc/PID/cmdline)."""

    def __init__(self, league: League, admin_token: str, report: Report, referee_id: str = DEFAULT_REFEREE,
                 options: tuple[str, ...] = (), host: str = LOCAL_HOST, port: int = 0,
                 http: tuple[str, int] | None = None) -> None:
        self.league = league
        self.admin_token = admin_token
        self.report = report
        self.referee_id = referee_id
        self.options = options  # more `mizerka serve` options (a worker's metrics port, the web page's)
        self.host = host  # where it listens: `league run --host` (remote bots connect there)
        self.port = port  # 0: any free port at first, then the same one after a restart
        self.http = http  # its web page's (host, port), if any: port 0 at first, then the same after a restart
        self.web_url = ""  # that page's URL once it runs, reported as a "web-page" event
        self.address = ""
        self.up = trio.Event()
        self.restarts = 0
        self.sockets: dict[str, Path] = {}  # its Unix sockets while it runs, one per bot the runner starts (by name)

    async def run(self, task_status: trio.TaskStatus[str] = trio.TASK_STATUS_IGNORED) -> None:
        with socket_folder() as folder:
            self.sockets = bot_sockets(self.league, folder)
            await self._serve(task_status)

    async def _serve(self, task_status: trio.TaskStatus[str]) -> None:
        logs = self.league.data / "logs"
        ready = logs / "referee.ready"
        while True:
            ready.unlink(missing_ok=True)
            command = [
                str(BIN / "mizerka"), "serve", "--host", self.host, "--port", str(self.port),
                "--db", self.league.database, "--log-format", "json",
                "--seat-timeout", str(self.league.seat_timeout_s), "--ready-file", str(ready),
                "--referee-id", self.referee_id, *unix_socket_options(self.sockets.values()), *self.options,
                *web_options(self.http),
            ]
            process = Child(command, logs / "referee.log", dict(os.environ, MIZERKA_ADMIN_TOKEN=self.admin_token))
            try:
                with trio.fail_after(30):
                    while not (ready.exists() and ready.read_text().strip()):
                        if process.poll() is not None:
                            raise RuntimeError(f"the referee exited at start; see {logs / 'referee.log'}")
                        await trio.sleep(0.05)
                self.address = ready.read_text().strip()
                self.port = int(self.address.rsplit(":", 1)[1])
                if self.http is not None:  # logged before the ready file was written (server/serve.py)
                    self._web_page(logged_web_url(logs / "referee.log"))
                self.up.set()
                task_status.started(self.address)
                task_status = trio.TASK_STATUS_IGNORED
                code = await process.wait()
            finally:
                await process.stop()
            self.up = trio.Event()
            self.restarts += 1
            self.report(progress.RefereeRestart(code, self.restarts))
            if self.restarts > 20:
                raise RuntimeError("the referee keeps dying; see its log")


    def _web_page(self, url: str | None) -> None:
        if url is None:
            raise RuntimeError(f"the referee serves no web page; see {self.league.data / 'logs' / 'referee.log'}")
        assert self.http is not None
        self.http = (self.http[0], int(url.rstrip("/").rsplit(":", 1)[1]))  # the same page after a restart
        if url != self.web_url:
            self.web_url = url
            self.report(progress.WebPage(url))
