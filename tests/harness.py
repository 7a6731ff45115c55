"""Real components for end-to-end tests: a `mizerka serve` process on 127.0.0.1, an admin client,
and bot processes started with the launch contract (MIZERKA_SERVER, MIZERKA_TOKEN)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import struct_pb2
from prometheus_client.parser import text_string_to_metric_families

from mizerka_proto import arena_pb2, arena_pb2_grpc, game_pb2, referee_pb2
from tournaments.sandbox.bwrap import tools

from needs import missing

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
ADMIN = "test-admin-token"


def need_sandbox() -> None:
    """Skip (fail under MIZERKA_REQUIRE_ALL), saying why, where bubblewrap's sandbox cannot run: a league runs its bots in it unless its
    file says otherwise, and refuses to start without it (docs/security.md, The sandbox)."""
    found = tools()
    if isinstance(found, str):
        missing(f"no sandbox here: {found} (install the Debian package bubblewrap; .ci/run does)")


@dataclass
class Referee:
    address: str
    db: Path | str
    process: subprocess.Popen[str]
    log_path: Path
    procs: list[subprocess.Popen[str]] = field(default_factory=list)

    def arena(self) -> Admin:
        return Admin(self.address)

    def log_lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.log_path.read_text().splitlines() if line.startswith("{")]

    def bot(self, token: str, *command: str, games: int | None = None, log: Path | None = None) -> subprocess.Popen[str]:
        """Start a bot program with the launch contract; it is killed when the referee stops."""
        env = dict(os.environ, MIZERKA_SERVER=self.address, MIZERKA_TOKEN=token)
        if games is not None:
            env["MIZERKA_GAMES"] = str(games)
        out = open(log, "w") if log else subprocess.DEVNULL  # noqa: SIM115
        proc = subprocess.Popen(list(command), env=env, stdout=out, stderr=subprocess.STDOUT, text=True)
        self.procs.append(proc)
        return proc

    def protobot(self, token: str, mode: str, games: int | None = None) -> subprocess.Popen[str]:
        return self.bot(token, sys.executable, str(ROOT / "tests" / "bots" / "protobot.py"), mode, games=games)

    def terminate(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=30)
        finally:
            for p in self.procs:
                if p.poll() is None:
                    p.kill()
                    p.wait()


@contextmanager
def referee(tmp: Path, *args: str, preexec: Callable[[], None] | None = None,
            db: Path | str | None = None) -> Iterator[Referee]:
    """`mizerka serve` on a free loopback port with a fresh SQLite file (or ``db``: a file or a database URL);
    stopped with SIGTERM.
    ``preexec`` runs in the child before it starts (e.g. to lower its resource limits)."""
    ready = tmp / "ready"
    log_path = tmp / "referee.log"
    db = tmp / "arena.sqlite" if db is None else db
    ready.unlink(missing_ok=True)  # a referee started earlier on this folder left its own
    cmd = [str(BIN / "mizerka"), "serve", "--host", "127.0.0.1", "--port", "0", "--db", str(db), "--admin-token", ADMIN,
           "--ready-file", str(ready), "--log-format", "json", *args]
    with open(log_path, "w") as log:
        process = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, text=True, preexec_fn=preexec)
    deadline = time.monotonic() + 30
    while not ready.exists() or not ready.read_text().strip():
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"referee did not start: {log_path.read_text()}")
        time.sleep(0.05)
    ref = Referee(ready.read_text().strip(), db, process, log_path)
    try:
        yield ref
    finally:
        if process.poll() is None:
            ref.terminate()


class Admin:
    """A synchronous Arena client with the admin token."""

    def __init__(self, address: str, token: str = ADMIN) -> None:
        self.channel = grpc.insecure_channel(address)
        self.stub = arena_pb2_grpc.ArenaStub(self.channel)
        self.metadata = (("authorization", f"Bearer {token}"),)

    def register(self, name: str) -> tuple[str, str]:
        r = self.stub.RegisterBot(arena_pb2.RegisterBotRequest(name=name), metadata=self.metadata)
        return r.bot_id, r.token

    def create(self, preset: str, seats: Sequence[str], seed: str = "seed", games: int = 1,
               options: dict[str, Any] | None = None, clock: game_pb2.Clock | None = None) -> str:
        opts = struct_pb2.Struct()
        opts.update(options or {})
        request = arena_pb2.CreateMatchRequest(preset=preset, options=opts, seed_text=seed, games=games, seats=list(seats))
        if clock is not None:
            request.clock.CopyFrom(clock)
        return self.stub.CreateMatch(request, metadata=self.metadata).match_id

    def wait(self, match_id: str, timeout_s: float = 120) -> arena_pb2.Match:
        r = self.stub.WaitMatch(arena_pb2.WaitMatchRequest(match_id=match_id, timeout_ms=int(timeout_s * 1000)), metadata=self.metadata)
        assert not r.timed_out, f"match {match_id} did not finish in {timeout_s} s"
        return r.match

    def get(self, match_id: str) -> arena_pb2.Match:
        return self.stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id), metadata=self.metadata).match


def free_port() -> int:
    """A port free now, for a test that must name its port before a server starts (a referee restarted
    on the port its bots know); anything that can take port 0 and say which it got should (a ready file,
    a log line), as another process may bind this one meanwhile."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def refused_port() -> Iterator[int]:
    """A loopback port that refuses connections while the block runs: bound here and never listened
    on, so no other process of a parallel run can take it meanwhile."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        yield s.getsockname()[1]


def logged_port(log: Path, event: str, timeout_s: float = 60) -> int:
    """The port of the ``address`` that the line ``event`` of a JSON log names: a server started on
    port 0 says there which one it got."""
    deadline = time.monotonic() + timeout_s
    while True:
        lines = [json.loads(line) for line in (log.read_text() if log.exists() else "").splitlines() if line.startswith("{")]
        if found := [line["address"] for line in lines if line.get("event") == event]:
            return int(found[0].rsplit(":", 1)[1])
        assert time.monotonic() < deadline, f"no {event!r} line in {log} after {timeout_s} s"
        time.sleep(0.05)


def scrape(port: int) -> dict[str, float]:
    """A Prometheus endpoint on 127.0.0.1:``port``: each sample name's value, summed over its labels."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as answer:
        text = answer.read().decode()
    out: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[sample.name] = out.get(sample.name, 0.0) + sample.value
    return out


def first_legal(request: referee_pb2.DecisionRequest) -> game_pb2.Action:
    """The referee's own default action, chosen from the request alone: the first legal action, an
    empty exchange, no major (what a bot that answers at once sends)."""
    if request.kind == referee_pb2.DECISION_KIND_EXCHANGE:
        return game_pb2.Action(turn=request.turn, exchange_cards=game_pb2.ExchangeCards())
    if request.kind == referee_pb2.DECISION_KIND_MAJOR:
        return game_pb2.Action(turn=request.turn, announce_major=game_pb2.AnnounceMajor())
    return request.legal_actions[0]


# A league clock that never runs out in a test: a bot held at a gate (Gates) is never timed out.
HELD_CLOCK = "decision_ms = 3600000"


@dataclass(frozen=True)
class Gates:
    """The gates of tests/bots/gatebot.py's games, a folder of their own: game k of each of the bot's
    streams waits, with a card on the table, until :meth:`open` opens gate k. A test holds a league
    mid-way this way, however fast or slow the machine, instead of hoping to look before it ends."""

    folder: Path

    @classmethod
    def under(cls, tmp: Path) -> Gates:
        folder = tmp / "gates"
        folder.mkdir()
        return cls(folder)

    def command(self) -> str:
        """The bot's command, as a league file's TOML array."""
        return json.dumps([sys.executable, str(ROOT / "tests" / "bots" / "gatebot.py"), str(self.folder)])

    def open(self, *games: int) -> None:
        for game in games:
            (self.folder / str(game)).touch()
