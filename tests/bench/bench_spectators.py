"""Spectator attacks: what one host, with no token, can take from a running match.

A benchmark, not a timed test (``make bench-spectators``; BENCHMARKS.md, "Spectator attacks"). One
``mizerka serve --http-port 0 --db FILE`` (a subprocess, default limits) holds:

- two finished public matches made in the setup, played by the default policy (every seat
  forfeited, no bot connected): ``--short-games`` (40) games of ``mizerka`` and ``--long-games``
  (1,500) games of three-deal ``mizerka-short`` (the fastest preset);
- the measured match: ``mizerka`` between three instant bots (bench_referee.py's, in this
  process), playing throughout.

The attackers are this script again in a process of their own (a hidden option), on 127.0.0.1,
started and stopped by orders on its stdin; every attack ends by itself with its window. The
attacks (``--attacks`` picks some):

  feed        one HTTP client re-opening /api/match/ID/feed of the short finished match in a loop
  feed-x12    twelve such clients
  watch-x4    four gRPC Watch streams of the short match, each re-opened in a loop (the per-host cap)
  feed-long   one client re-opening the long match's feed in a loop
  watch-long  one Watch of the long match, re-opened in a loop
  arena       one keep-alive client polling /api/arena as fast as it is answered
  arena-x12   twelve of them
  idle        ``--idle`` (300) connections to the web port, half sending nothing, half half a
              request; re-opened when the referee closes them
  hog         one client opening as many feeds of the live match as it can (``--hog`` (250)
              tries, each failed one retried every second), holding each open

First, each finished match's feed and Watch read once to its end (bounded by ``--probe-timeout``):
the time to its first message and to its end, what it sent, the referee's RSS before, at its peak
and after. Then in each of ``--rounds`` rounds, for each attack, a window of ``--seconds`` without
any attack and one with it; decisions/s of the measured match in each, and their ratio per attack
(all its windows together). Between windows, the referee's threads are let finish what an attack
left them (up to ``--drain-max``, 30 s). In every window an honest spectator on another loopback
address (127.0.0.2) asks for /api/arena and the live match's feed and waits for its first update.

Goals (printed beside the figures, the exit status says nothing): each attack from one host keeps
at least GOAL (0.8x) of the decisions/s, and the referee's RSS while it serves a finished match does
not grow with the match's length. A full run takes about 7.5 minutes on 2 cores; ``--quick`` is a
smoke run of about 2.5.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import datetime
import enum
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import grpc
from bench_load import rss_mb
from bench_referee import HOUR_MS, Admin, Probe, Server, Stats, Window, machine, matches_running, pct, referee_process
from google.protobuf import struct_pb2
from sysinfo import cpu_seconds

from mizerka_proto import arena_pb2, game_pb2, referee_pb2, referee_pb2_grpc

GOAL = 0.8  # decisions/s with an attack / without, from one host
RSS_SLACK_MB = 32.0  # "bounded": the long match's feed may grow the referee by at most this more than the short one's
LONG_OPTIONS = {"deals": 3}  # of mizerka-short: the fewest deals, the fastest games
SETTLE_S = 0.3  # after an attack starts or stops, before a window
DRAIN_SLICE_S, DRAIN_CORES = 0.5, 0.05  # an attack's work is done: the referee's threads back to 0.05 cores of quiet
REFUSED_PAUSE_S = 0.05  # an attacker refused (503, RESOURCE_EXHAUSTED) tries again after this
RECONNECT_S = 0.5  # an idle connection closed by the referee is opened again after this
HOG_RETRY_S = 1.0
HONEST_HOST = "127.0.0.2"  # the honest spectator's address: another host as far as the referee can tell
HONEST_TIMEOUT_S = 5.0
SAMPLE_S = 0.2  # the referee's RSS every SAMPLE_S
PARTIAL = b"GET /api/arena HTTP/1.1\r\nHost: 127.0.0.1\r\n"  # half a request: the blank line never comes


class Kind(enum.Enum):
    FEED = "feed"  # /api/match/ID/feed read to its end, again and again
    WATCH = "watch"  # Referee.Watch read to its end, again and again
    ARENA = "arena"  # /api/arena, again and again on a keep-alive connection
    IDLE = "idle"  # connections that never finish a request
    HOG = "hog"  # feeds of the live match, held open, as many as the referee gives


class Target(enum.Enum):
    SHORT = "short"  # the finished short match
    LONG = "long"  # the finished long match
    LIVE = "live"  # the measured match


@dataclass(frozen=True)
class Attack:
    name: str
    kind: Kind
    clients: int  # clients (streams, connections) at once; for idle and hog, set from the options
    target: Target | None = None
    what: str = ""


ATTACKS = {a.name: a for a in (
    Attack("feed", Kind.FEED, 1, Target.SHORT, "1 client re-opening the short match's feed"),
    Attack("feed-x12", Kind.FEED, 12, Target.SHORT, "12 clients re-opening the short match's feed"),
    Attack("watch-x4", Kind.WATCH, 4, Target.SHORT, "4 Watch streams of the short match, re-opened"),
    Attack("feed-long", Kind.FEED, 1, Target.LONG, "1 client re-opening the long match's feed"),
    Attack("watch-long", Kind.WATCH, 1, Target.LONG, "1 Watch stream of the long match, re-opened"),
    Attack("arena", Kind.ARENA, 1, None, "1 keep-alive client polling /api/arena"),
    Attack("arena-x12", Kind.ARENA, 12, None, "12 keep-alive clients polling /api/arena"),
    Attack("idle", Kind.IDLE, 0, None, "idle connections to the web port (half of them half a request)"),
    Attack("hog", Kind.HOG, 0, Target.LIVE, "1 client opening as many feeds of the live match as it can"),
)}
READS = ("feed", "feed-long", "watch-x4", "watch-long")  # their first client's request read once, alone


# ------------------------------------------------------------------------------------ attackers
@dataclass
class Tally:
    """What the attackers saw in one window (sent to the parent as JSON)."""

    opened: int = 0  # requests, streams or connections made
    completed: int = 0  # read to their end (a feed, a Watch, an /api/arena answer)
    refused: collections.Counter[str] = field(default_factory=collections.Counter)  # HTTP status, gRPC code, error
    messages: int = 0  # feed or Watch updates received
    bytes: int = 0  # body bytes received over HTTP
    first_s: list[float] = field(default_factory=list)  # opened -> first message, of those that got one
    waiting_s: list[float] = field(default_factory=list)  # of those stopped before any: how long they had waited
    open: int = 0  # idle connections or hogged feeds open now
    held: int = 0  # ... at the stop
    closed_after_s: list[float] = field(default_factory=list)  # of those closed by the referee: how long they had been open


@dataclass
class Targets:
    """Where the attackers aim (their process's only argument, as JSON)."""

    web: str  # http://host:port
    grpc: str  # host:port
    matches: dict[str, str]  # Target value -> match id
    idle: int
    hog: int


class Reading:
    """One request's first message: noted once, or how long it waited if it never came."""

    def __init__(self, tally: Tally) -> None:
        self.tally, self.opened, self.first = tally, time.perf_counter(), False

    def message(self, count: int = 1) -> None:
        if not self.first and count:
            self.first = True
            self.tally.first_s.append(time.perf_counter() - self.opened)
        self.tally.messages += count

    def stopped(self) -> None:
        if not self.first:
            self.tally.waiting_s.append(time.perf_counter() - self.opened)


async def read_feed(session: aiohttp.ClientSession, url: str, tally: Tally) -> bool:
    """One feed (server-sent events) read to its end, counting its updates; False if refused."""
    tally.opened += 1
    reading = Reading(tally)
    try:
        async with session.get(url) as response:
            if response.status != 200:
                tally.refused[f"HTTP {response.status}"] += 1
                return False
            tail = b""
            async for chunk in response.content.iter_any():
                tally.bytes += len(chunk)
                reading.message((tail + chunk).count(b"event: update"))
                tail = chunk[-12:]
            tally.completed += 1
            return True
    except asyncio.CancelledError:
        reading.stopped()
        raise


async def read_watch(stub: referee_pb2_grpc.RefereeStub, match_id: str, tally: Tally) -> bool:
    """One Watch stream read to its end; False if refused."""
    tally.opened += 1
    reading = Reading(tally)
    call = stub.Watch(referee_pb2.WatchRequest(match_id=match_id))
    try:
        async for _ in call:
            reading.message()
        tally.completed += 1
        return True
    except grpc.aio.AioRpcError as e:
        tally.refused[e.code().name] += 1
        return False
    except asyncio.CancelledError:
        reading.stopped()
        call.cancel()
        raise


async def poll_arena(session: aiohttp.ClientSession, url: str, tally: Tally) -> bool:
    tally.opened += 1
    async with session.get(url) as response:
        tally.bytes += len(await response.read())
        if response.status != 200:
            tally.refused[f"HTTP {response.status}"] += 1
            return False
        tally.completed += 1
        return True


async def again(once: Callable[[], Awaitable[bool]], tally: Tally) -> None:
    """``once`` again and again, as fast as the referee answers; a pause after a refusal or a
    broken connection."""
    while True:
        try:
            ok = await once()
        except (aiohttp.ClientError, OSError) as e:
            tally.refused[type(e).__name__] += 1
            ok = False
        if not ok:
            await asyncio.sleep(REFUSED_PAUSE_S)


async def idle_connection(host: str, port: int, partial: bool, tally: Tally) -> None:
    """A connection that never finishes a request; opened again when the referee closes it."""
    while True:
        tally.opened += 1
        try:
            reader, writer = await asyncio.open_connection(host, port)
        except OSError as e:
            tally.refused[type(e).__name__] += 1
            await asyncio.sleep(RECONNECT_S)
            continue
        tally.open += 1
        opened = time.perf_counter()
        try:
            if partial:
                writer.write(PARTIAL)
            with contextlib.suppress(OSError):
                while await reader.read(65536):  # a 400 or 408 answer, then the close
                    pass
            tally.closed_after_s.append(time.perf_counter() - opened)
        finally:
            tally.open -= 1
            writer.close()
        await asyncio.sleep(RECONNECT_S)


async def hogged_feed(session: aiohttp.ClientSession, url: str, tally: Tally) -> None:
    """One feed of the live match held open as long as the referee keeps it; tried again every
    HOG_RETRY_S when refused."""
    while True:
        tally.opened += 1
        try:
            async with session.get(url) as response:
                if response.status == 200:
                    tally.open += 1
                    opened = time.perf_counter()
                    try:
                        async for chunk in response.content.iter_any():
                            tally.messages += chunk.count(b"event: update")
                        tally.closed_after_s.append(time.perf_counter() - opened)
                    finally:
                        tally.open -= 1
                else:
                    tally.refused[f"HTTP {response.status}"] += 1
        except (aiohttp.ClientError, OSError) as e:
            tally.refused[type(e).__name__] += 1
        await asyncio.sleep(HOG_RETRY_S)


@contextlib.asynccontextmanager
async def attacking(attack: Attack, targets: Targets, tally: Tally) -> AsyncIterator[None]:
    """The attack's clients running until the block ends."""
    async with contextlib.AsyncExitStack() as stack:
        session = await stack.enter_async_context(aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)))
        channel = await stack.enter_async_context(grpc.aio.insecure_channel(targets.grpc))
        stub = referee_pb2_grpc.RefereeStub(channel)
        match_id = targets.matches[attack.target.value] if attack.target else ""
        feed, arena = f"{targets.web}/api/match/{match_id}/feed", f"{targets.web}/api/arena"
        host, port = targets.web.removeprefix("http://").rsplit(":", 1)
        clients: list[Awaitable[None]] = []
        if attack.kind is Kind.FEED:
            clients = [again(lambda: read_feed(session, feed, tally), tally) for _ in range(attack.clients)]
        elif attack.kind is Kind.WATCH:
            clients = [again(lambda: read_watch(stub, match_id, tally), tally) for _ in range(attack.clients)]
        elif attack.kind is Kind.ARENA:  # a session (a keep-alive connection) each
            sessions = [await stack.enter_async_context(aiohttp.ClientSession()) for _ in range(attack.clients)]
            clients = [again(lambda s=s: poll_arena(s, arena, tally), tally) for s in sessions]
        elif attack.kind is Kind.IDLE:
            clients = [idle_connection(host, int(port), n % 2 == 1, tally) for n in range(targets.idle)]
        elif attack.kind is Kind.HOG:
            clients = [hogged_feed(session, feed, tally) for _ in range(targets.hog)]
        tasks = [asyncio.ensure_future(c) for c in clients]
        try:
            yield
        finally:
            tally.held = tally.open
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


async def read_one(attack: Attack, targets: Targets, tally: Tally, timeout: float) -> None:
    """One request of a feed or Watch attack, read to its end or stopped after ``timeout``."""
    async with contextlib.AsyncExitStack() as stack:
        session = await stack.enter_async_context(aiohttp.ClientSession())
        channel = await stack.enter_async_context(grpc.aio.insecure_channel(targets.grpc))
        match_id = targets.matches[attack.target.value] if attack.target else ""
        one = (read_feed(session, f"{targets.web}/api/match/{match_id}/feed", tally) if attack.kind is Kind.FEED
               else read_watch(referee_pb2_grpc.RefereeStub(channel), match_id, tally))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(one, timeout)


async def attackers(targets: Targets) -> None:
    """The attackers' process (``--attacker``): orders on stdin, one a line: ``start NAME``, later
    ``stop``; or ``once NAME SECONDS``. Each answered with a line (``started``, then the Tally of
    what it saw as JSON); end of input ends it."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # room for the idle connections and hogged feeds
    while order := (await asyncio.to_thread(sys.stdin.readline)).split():
        tally, attack = Tally(), ATTACKS[order[1]]
        if order[0] == "once":
            await read_one(attack, targets, tally, float(order[2]))
        else:
            async with attacking(attack, targets, tally):
                print("started", flush=True)
                await asyncio.to_thread(sys.stdin.readline)  # "stop"
        print(json.dumps({**asdict(tally), "refused": dict(tally.refused)}), flush=True)  # asdict garbles a Counter


class AttackerProcess:
    """This script again, with ``--attacker``: the attackers in a process of their own."""

    def __init__(self, targets: Targets) -> None:
        self.process = subprocess.Popen([sys.executable, __file__, "--attacker", json.dumps(asdict(targets))],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    async def order(self, line: str) -> str:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        answer = await asyncio.to_thread(self.process.stdout.readline)
        if not answer:
            raise RuntimeError(f"the attackers' process ended (status {self.process.poll()})")
        return answer

    async def start(self, attack: Attack) -> None:
        await self.order(f"start {attack.name}")

    async def stop(self) -> Tally:
        return self.tally(await self.order("stop"))

    async def once(self, attack: Attack, timeout: float) -> Tally:
        return self.tally(await self.order(f"once {attack.name} {timeout}"))

    @staticmethod
    def tally(line: str) -> Tally:
        data = json.loads(line)
        return Tally(**{**data, "refused": collections.Counter(data["refused"])})

    def cpu(self) -> float:
        return cpu_seconds(self.process.pid)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


# ---------------------------------------------------------------------------------- the referee
@dataclass
class Honest:
    """An honest spectator from HONEST_HOST: /api/arena, then the live match's first update."""

    arena: str = ""  # "200 in 12 ms", "HTTP 503", "no answer in 5 s", or the error
    feed: str = ""


async def look(session: aiohttp.ClientSession, url: str, feed: bool) -> str:
    """One honest request: the whole answer, or a feed's first event; how it went."""
    started = time.perf_counter()
    try:
        async with session.get(url) as response:
            if response.status != 200:
                return f"HTTP {response.status}"
            await (response.content.readuntil(b"\n\n") if feed else response.read())
            return f"200 in {(time.perf_counter() - started) * 1000:,.0f} ms"
    except TimeoutError:
        return f"no answer in {HONEST_TIMEOUT_S:g} s"
    except (aiohttp.ClientError, OSError) as e:
        return type(e).__name__


async def honest(web: str, live_id: str) -> Honest:
    connector = aiohttp.TCPConnector(local_addr=(HONEST_HOST, 0))
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=HONEST_TIMEOUT_S)) as session:
        return Honest(*await asyncio.gather(look(session, f"{web}/api/arena", feed=False),
                                            look(session, f"{web}/api/match/{live_id}/feed", feed=True)))


class RssSampler:
    """The referee's RSS every SAMPLE_S, with the time (monotonic) it was taken."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.samples: list[tuple[float, float]] = []
        self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while True:
            self.samples.append((time.monotonic(), rss_mb(self.pid)))
            await asyncio.sleep(SAMPLE_S)

    def between(self, start: float, end: float) -> list[float]:
        return [mb for t, mb in self.samples if start <= t <= end]

    def now(self) -> float:
        return rss_mb(self.pid)


@dataclass
class Side:
    """One side of an attack's alternation (without, or with it): its windows added up."""

    decisions: int = 0
    rates: list[float] = field(default_factory=list)  # decisions/s of each window
    rtt: list[float] = field(default_factory=list)
    window: Window = field(default_factory=Window)
    rss_peak: float = 0.0  # MB, in any of the windows
    rss_growth: float = 0.0  # MB, the most from a window's start to its peak
    attacker_cpu: float = 0.0
    tallies: list[Tally] = field(default_factory=list)
    honest: list[Honest] = field(default_factory=list)
    drain_s: list[float] = field(default_factory=list)  # after the attack's windows, until the referee's threads were idle

    @property
    def rate(self) -> float:
        return self.decisions / self.window.seconds if self.window.seconds else 0.0


@dataclass
class Bench:
    """The referee, its measured match and the attackers."""

    server: Server
    stats: Stats
    web: str
    live_id: str
    attackers: AttackerProcess
    rss: RssSampler
    drain_max_s: float
    quiet: float = 0.0  # the referee's threads other than its event loop's without an attack, in cores

    async def window(self, side: Side, seconds: float) -> None:
        """Measure one window into ``side``; the honest spectator looks in at its middle."""
        pid, attacker_cpu = self.server.process.pid, self.attackers.cpu()
        before, rtts, start = self.stats.decisions, len(self.stats.turn_rtt), time.monotonic()
        probe = Probe(pid)
        self.stats.measuring = True
        await asyncio.sleep(seconds / 2)
        look = asyncio.create_task(honest(self.web, self.live_id))
        await asyncio.sleep(seconds / 2)
        self.stats.measuring = False
        w = probe.done()
        side.window += w
        side.decisions += self.stats.decisions - before
        side.rates.append((self.stats.decisions - before) / w.seconds)
        side.rtt += self.stats.turn_rtt[rtts:]
        rss = self.rss.between(start, time.monotonic()) or [self.rss.now()]
        side.rss_peak, side.rss_growth = max(side.rss_peak, *rss), max(side.rss_growth, max(rss) - rss[0])
        side.attacker_cpu += self.attackers.cpu() - attacker_cpu
        side.honest.append(await look)

    async def threads(self, seconds: float) -> float:
        """The referee's threads other than its event loop's (replays, store reads), in cores over ``seconds``."""
        pid = self.server.process.pid
        before = cpu_seconds(pid) - cpu_seconds(pid, pid)
        await asyncio.sleep(seconds)
        return (cpu_seconds(pid) - cpu_seconds(pid, pid) - before) / seconds

    async def drain(self) -> float:
        """Wait until the referee's threads are back to what they use without an attack (``quiet``)
        plus DRAIN_CORES, at most ``drain_max_s``: work an attack left behind does not count against the
        next window without it. Returns the seconds waited."""
        started = time.monotonic()
        while time.monotonic() - started < self.drain_max_s and await self.threads(DRAIN_SLICE_S) > self.quiet + DRAIN_CORES:
            pass
        return time.monotonic() - started


# ------------------------------------------------------------------------------------ measuring
@dataclass
class Read:
    """One finished match's feed or Watch, read once, alone, to its end (or the timeout)."""

    attack: Attack
    tally: Tally
    seconds: float
    rss_before: float
    rss_peak: float
    rss_after: float  # once the referee's threads are idle again
    rate_before: float  # the measured match's decisions/s in the second before
    rate_during: float


async def rate_over(stats: Stats, seconds: float) -> float:
    before = stats.decisions
    await asyncio.sleep(seconds)
    return (stats.decisions - before) / seconds


async def read_once(bench: Bench, attack: Attack, timeout: float) -> Read:
    stats = bench.stats
    stats.measuring = True
    try:
        rate_before, rss_before = await rate_over(stats, 1.0), bench.rss.now()
        before, started = stats.decisions, time.monotonic()
        tally = await bench.attackers.once(attack, timeout)
        seconds = time.monotonic() - started
        rate_during = (stats.decisions - before) / seconds
    finally:
        stats.measuring = False
    peak = max([rss_before, *bench.rss.between(started, time.monotonic())])
    await bench.drain()
    return Read(attack, tally, seconds, rss_before, peak, bench.rss.now(), rate_before, rate_during)


async def finished_match(admin: Admin, seats: list[str], preset: str, games: int, options: dict[str, Any]) -> tuple[str, float]:
    """A public match (no group) whose seats the default policy plays (all forfeited): made and
    played to its end at once; (its id, the seconds it took)."""
    struct = struct_pb2.Struct()
    struct.update(options)
    started = time.perf_counter()
    request = arena_pb2.CreateMatchRequest(preset=preset, options=struct, seed_text=f"finished-{games}", games=games,
                                           seats=seats, forfeit_seats=[0, 1, 2])
    match_id = (await admin.stub.CreateMatch(request, metadata=admin.metadata)).match_id
    done = await admin.stub.WaitMatch(arena_pb2.WaitMatchRequest(match_id=match_id, timeout_ms=600_000),
                                      metadata=admin.metadata)
    if done.match.status != arena_pb2.MATCH_STATUS_FINISHED:
        raise RuntimeError(f"the finished match {match_id} did not finish: {done.match}")
    return match_id, time.perf_counter() - started


@dataclass
class Setup:
    short_s: float
    long_s: float
    rss_mb: float
    open_files: str  # the referee's limit on file descriptors, soft and hard


def open_files(pid: int) -> str:
    """The process's RLIMIT_NOFILE, soft / hard, from /proc."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
            if line.startswith("Max open files"):
                soft, hard = line.split()[3:5]
                return f"{soft} / {hard}"
    return "unknown"


@dataclass
class Results:
    setup: Setup
    reads: list[Read]
    sides: dict[str, tuple[Side, Side]]  # attack -> (without, with)
    quiet: float  # Bench.quiet


def progress(text: str) -> None:
    print(f"  ({datetime.datetime.now():%H:%M:%S} {text})", flush=True)


async def measure(args: argparse.Namespace, tmp: Path) -> Results:
    async with referee_process(tmp / "referee", None, "--http-port", "0") as server:
        line = next(json.loads(x) for x in server.log_path.read_text().splitlines() if '"web page listening"' in x)
        web = f"http://{line['address']}"
        async with grpc.aio.insecure_channel(server.address) as channel:
            admin = Admin(channel)
            seats = [(await admin.register(f"finished-{s}"))[0] for s in range(3)]
            short_id, short_s = await finished_match(admin, seats, "mizerka", args.short_games, {})
            long_id, long_s = await finished_match(admin, seats, "mizerka-short", args.long_games, LONG_OPTIONS)
        setup = Setup(short_s, long_s, rss_mb(server.process.pid), open_files(server.process.pid))
        progress(f"setup: the finished matches played in {short_s:.1f} and {long_s:.1f} s")
        stats = Stats()
        async with matches_running(server, 1, stats, game_pb2.Clock(decision_ms=HOUR_MS, bank_ms=0, max_strikes=0)):
            live_id = next(iter(stats.matches))
            matches = {Target.SHORT.value: short_id, Target.LONG.value: long_id, Target.LIVE.value: live_id}
            attackers = AttackerProcess(Targets(web, server.address, matches, args.idle, args.hog))
            bench = Bench(server, stats, web, live_id, attackers, RssSampler(server.process.pid), args.drain_max)
            try:
                bench.quiet = await bench.threads(2.0)  # and a warm-up
                reads = []
                for name in READS:
                    reads.append(await read_once(bench, ATTACKS[name], args.probe_timeout))
                    progress(f"read: {read_what(args, reads[-1])}, {reads[-1].seconds:.1f} s")
                sides = {name: (Side(), Side()) for name in args.attacks}
                for r in range(args.rounds):
                    for name in args.attacks:
                        without, with_ = sides[name]
                        await bench.window(without, args.seconds)
                        await attackers.start(ATTACKS[name])
                        await asyncio.sleep(SETTLE_S)
                        await bench.window(with_, args.seconds)
                        with_.tallies.append(await attackers.stop())
                        with_.drain_s.append(await bench.drain())
                        await asyncio.sleep(SETTLE_S)
                    progress(f"round {r + 1} of {args.rounds} done")
            finally:
                bench.rss.task.cancel()
                attackers.close()
    return Results(setup, reads, sides, bench.quiet)


# ------------------------------------------------------------------------------------ reporting
def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f} ms" if seconds == seconds else "-"


def cores(w: Window) -> str:
    s = w.seconds or 1.0
    return f"{w.server_cpu / s:.2f} (main thread {w.server_main_cpu / s:.2f})"


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def tally_line(t: Tally) -> str:
    parts = [f"{t.opened:,} opened", f"{t.completed:,} read to the end"]
    if t.refused:
        parts.append("refused " + ", ".join(f"{k} x{v:,}" for k, v in t.refused.most_common()))
    if t.messages:
        parts.append(f"{t.messages:,} updates")
    if t.bytes:
        parts.append(f"{t.bytes / 1e6:,.1f} MB")
    if t.first_s:
        parts.append(f"first message p50 {ms(pct(t.first_s, 0.5))}, max {ms(max(t.first_s))}")
    if t.waiting_s:
        parts.append(f"{len(t.waiting_s)} stopped before any message, after waiting up to {max(t.waiting_s):.1f} s")
    if t.held or t.closed_after_s:
        closed = t.closed_after_s
        after = f" (after {pct(closed, 0.5):.1f} s at the median, {max(closed):.1f} s at most)" if closed else ""
        parts.append(f"{t.held:,} held open at the stop (of the last window), {len(closed):,} closed by the referee{after}")
    return "; ".join(parts)


def merged(tallies: list[Tally]) -> Tally:
    out = Tally()
    for t in tallies:
        out.opened += t.opened
        out.completed += t.completed
        out.refused.update(t.refused)
        out.messages += t.messages
        out.bytes += t.bytes
        out.first_s += t.first_s
        out.waiting_s += t.waiting_s
        out.held = t.held
        out.closed_after_s += t.closed_after_s
    return out


def read_what(args: argparse.Namespace, read: Read) -> str:
    games = args.long_games if read.attack.target is Target.LONG else args.short_games
    return f"{'feed' if read.attack.kind is Kind.FEED else 'Watch'} of the {games:,}-game match"


def report_reads(args: argparse.Namespace, reads: list[Read]) -> None:
    print(f"reads: one feed or Watch of a finished match, alone, read to its end (at most {args.probe_timeout:g} s):")
    for r in reads:
        t = r.tally
        first = f"first message after {t.first_s[0]:.2f} s" if t.first_s else f"no message in {r.seconds:.1f} s"
        end = f"end after {r.seconds:.1f} s" if t.completed else f"NOT finished after {r.seconds:.1f} s"
        refused = f" (refused: {', '.join(t.refused)})" if t.refused else ""
        sent = f", {t.bytes / 1e6:,.1f} MB" if t.bytes else ""
        print(f"  {read_what(args, r)}: {first}, {end}; {t.messages:,} updates{sent}{refused}")
        print(f"      referee RSS {r.rss_before:.0f} MB before, {r.rss_peak:.0f} at the peak ({r.rss_peak - r.rss_before:+.0f}),"
              f" {r.rss_after:.0f} after; the measured match {r.rate_before:,.0f} decisions/s before, {r.rate_during:,.0f} during")
    for kind in (Kind.FEED, Kind.WATCH):
        short, long = ({r.attack.target: r.rss_peak - r.rss_before for r in reads if r.attack.kind is kind}[t]
                       for t in (Target.SHORT, Target.LONG))
        grown = long - short
        print(f"  RSS bounded ({kind.value}): the {args.long_games:,}-game match grew the referee {grown:+.0f} MB more than the"
              f" {args.short_games}-game one (goal: at most +{RSS_SLACK_MB:g} MB: {verdict(grown <= RSS_SLACK_MB)})")


def report_attack(name: str, without: Side, with_: Side) -> str:
    """The attack's figures; returns its row of the summary table."""
    attack, ratio = ATTACKS[name], with_.rate / without.rate if without.rate else float("nan")
    rates = {side: ", ".join(f"{x:,.0f}" for x in s.rates) for side, s in (("without", without), ("with", with_))}
    p99 = (pct(without.rtt, 0.99), pct(with_.rtt, 0.99))
    print(f"{name:<11} {attack.what}")
    print(f"            decisions/s without {without.rate:,.0f} (windows {rates['without']}), with {with_.rate:,.0f}"
          f" (windows {rates['with']}): {ratio:.2f}x (goal >= {GOAL}x: {verdict(ratio >= GOAL)})")
    print(f"            decision round trip p99 without {ms(p99[0])}, with {ms(p99[1])}; referee CPU in cores without"
          f" {cores(without.window)}, with {cores(with_.window)}; the attackers' process {with_.attacker_cpu / with_.window.seconds:.2f}")
    print(f"            referee RSS at most {without.rss_peak:.0f} MB without, {with_.rss_peak:.0f} MB with (at most"
          f" {with_.rss_growth:+.0f} MB within a window); {with_.window.line()}")
    tally = merged(with_.tallies)
    print(f"            attackers (all windows): {tally_line(tally)}")
    seen = collections.Counter(f"arena {h.arena}; live feed {h.feed}" for h in with_.honest)
    lines = "; ".join(f"{k} (x{v})" if v > 1 else k for k, v in seen.items())
    print(f"            honest spectator from {HONEST_HOST} during the attack: {lines}")
    print(f"            the referee's threads idle again {', '.join(f'{s:.1f}' for s in with_.drain_s)} s after the attack stopped")
    honest_ok = sum(h.feed.startswith("200") and h.arena.startswith("200") for h in with_.honest)
    return (f"| {name} | {without.rate:,.0f} | {with_.rate:,.0f} | **{ratio:.2f}x** | {ms(p99[0])} / {ms(p99[1])} |"
            f" {without.window.server_cpu / without.window.seconds:.2f} / {with_.window.server_cpu / with_.window.seconds:.2f} |"
            f" {with_.rss_peak:.0f} ({with_.rss_growth:+.0f}) | {honest_ok} of {len(with_.honest)} |")


def report(args: argparse.Namespace, results: Results) -> None:
    s = results.setup
    print(f"setup: finished {args.short_games} games of mizerka in {s.short_s:.1f} s and {args.long_games:,} games of"
          f" 3-deal mizerka-short in {s.long_s:.1f} s (default policy); referee RSS then {s.rss_mb:.0f} MB;")
    print(f"       its file descriptor limit (soft / hard) {s.open_files}; its threads but its event loop's used"
          f" {results.quiet:.2f} cores with the measured match alone")
    report_reads(args, results.reads)
    print(f"attacks: {args.rounds} windows of {args.seconds:g} s each side, one match of mizerka between 3 instant bots measured:")
    rows = [report_attack(name, *results.sides[name]) for name in args.attacks]
    print("\n| attack | decisions/s without | with | with / without (goal >= 0.8x) | p99 round trip without / with |"
          " referee cores without / with | referee RSS peak MB (growth in a window) | honest spectator served |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    print("\n".join(rows))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="each window, with or without an attack (default 8)")
    parser.add_argument("--rounds", type=int, default=2, help="windows of each side per attack (default 2)")
    parser.add_argument("--attacks", type=lambda s: s.split(","), default=list(ATTACKS),
                        help=f"comma-separated, of {', '.join(ATTACKS)} (default all)")
    parser.add_argument("--short-games", type=int, default=40, help="games of the short finished match (default 40)")
    parser.add_argument("--long-games", type=int, default=1500, help="games of the long finished match (default 1500)")
    parser.add_argument("--idle", type=int, default=300, help="connections of the idle attack (default 300)")
    parser.add_argument("--hog", type=int, default=250, help="feeds the hog tries to hold (default 250)")
    parser.add_argument("--probe-timeout", type=float, default=60.0,
                        help="a finished match's feed or Watch read once is stopped after this (default 60 s)")
    parser.add_argument("--drain-max", type=float, default=30.0,
                        help="after an attack, wait at most this long for the referee's threads to be quiet again (default 30 s)")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run of about 2.5 minutes: 1.5 s windows, a 300-game long match, reads stopped after 10 s,"
                             " drains after 5 s")
    parser.add_argument("--attacker", metavar="TARGETS", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.attacker:
        asyncio.run(attackers(Targets(**json.loads(args.attacker))))
        return 0
    if unknown := [a for a in args.attacks if a not in ATTACKS]:
        parser.error(f"unknown attack {', '.join(unknown)}: choose among {', '.join(ATTACKS)}")
    if args.rounds < 2 or args.seconds <= 0:
        parser.error(f"--rounds must be at least 2 (windows of each side per attack), not {args.rounds},"
                     f" and --seconds above 0, not {args.seconds:g}")
    for name in ("short_games", "long_games", "idle", "hog"):
        if not 1 <= getattr(args, name) <= 10_000:
            parser.error(f"--{name.replace('_', '-')} must be between 1 and 10000, not {getattr(args, name)}")
    if args.quick:
        args.seconds, args.long_games, args.probe_timeout, args.drain_max = 1.5, 300, 10.0, 5.0
    print(f"machine: {machine()}, aiohttp {aiohttp.__version__}")
    print(f"date:    {datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}; load average {os.getloadavg()[0]:.2f}")
    print(f"budget:  {args.rounds} x {args.seconds:g} s per side and attack; referee a subprocess on 127.0.0.1, the measured"
          " match's bots in this process, the attackers in one process of their own (127.0.0.1), the honest spectator"
          f" in this one ({HONEST_HOST})")
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bench-spectators-") as tmp:
        results = asyncio.run(measure(args, Path(tmp)))
    report(args, results)
    print(f"\n(the run took {time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
