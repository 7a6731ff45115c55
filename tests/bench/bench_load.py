"""Load: one ``mizerka serve`` holding many matches, its bots connecting all at once.

A benchmark, not a timed test (``make bench-load``; tests/test_capacity.py checks the behaviour).
For each N of ``--matches`` (16, 100, 300, 1000): a fresh referee (a subprocess, default settings,
SQLite file), N matches of ``mizerka`` (10,000 games each, so none ends in the window) between teams
of three bots (one team per ``TEAM_MATCHES`` matches, each of its bots holding a stream per match).
The bots are trivial grpc.aio clients in ``--workers`` separate processes, each with its own
channels (``--streams-per-channel`` streams per channel, every channel its own TCP connection);
they answer every DecisionRequest at once with ``legal_actions[0]``. All streams are opened at once
while the N matches are created (``--create-concurrency`` CreateMatch calls in flight), then a
warm-up, then a window of ``--seconds``. During the window a CreateMatch probe every 0.5 s (a
one-game ``mizerka-short`` match whose seats the default policy plays) measures CreateMatch under
load. Then the same with ``--think-matches`` matches of bots that think ``--think-ms`` per decision.
Last, the memory run: MEMORY_MATCHES matches of three-deal ``mizerka-short`` games until
``--memory-games`` games have finished, the referee's RSS taken every MEMORY_STEP games.

Printed per run: decisions/s; round trip p50/p99 (a bot writes its Action -> the next
DecisionRequest of the same match reaches a bot; with thinking bots this is the referee's added
latency, the thinking not included); stream admission (opening a stream -> its Welcome); CreateMatch
latency p50/p99 during the storm and in the window; the event-loop lag of the referee (from its
/metrics, docs/metrics.md) and of the bots' processes (a timer of their own every 20 ms), which
split a round trip's wait between the referee and the bots; the referee's RSS and CPU (in cores, and per decision); lost
connections (streams that failed before the referee was stopped) and seats the referee played by
default (missing streams, timeouts). Then whether each target is met.

``--pin`` runs the referee alone on CPU 0 and everything else (the bots, this script) on the other
CPUs. Unpinned, on a machine of 2 cores, the referee and the bots take cores from each other, and
the figures say as much about the scheduler as about the referee.

``--null`` runs every window a second time, right after the referee's, against the null referee
(null_referee.py): the referee's protocol, shape, server options, collector and pacer, with no rules,
views, clocks or store. Its figures on the same targets say what gRPC and asyncio alone make of the
load on this machine; they are printed beside the referee's, with no verdict of their own.

``--rounds R`` runs all of that but the memory run R times, one round after the other. The
figures of this shared machine swing by half between runs minutes apart, so one 16-match window
against one 1,000-match window says little. Then the throughput verdict is the median of the
rounds' ratios, each from two runs of the same round. The latency verdict is the p99 of every
round's samples together.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import datetime
import json
import math
import os
import statistics
import sys
import tempfile
import time
import urllib.request
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from bench_referee import ADMIN, Server, legal, machine, pct, referee_process, server_process
from google.protobuf import struct_pb2
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.utils import floatToGoString
from sysinfo import cpu_seconds

from mizerka_proto import arena_pb2, arena_pb2_grpc, referee_pb2, referee_pb2_grpc
from server.transport.collector import LAG_BUCKETS
from server.transport.grpc_events import drain_notifications

GAMES = 10_000
TEAM_MATCHES = 50  # matches per team of three bots: below the referee's max_streams_per_bot (64)
WARMUP_S = 2.0
PROBE_EVERY_S = 0.5
READY_TIMEOUT_S = 180.0
MEMORY_MATCHES, MEMORY_STEP = 16, 1000  # the memory run: matches of 3-deal games; RSS every MEMORY_STEP games
RATIO_TARGET, ADDED_P99_TARGET_MS, RSS_TARGET_MB = 0.7, 25.0, 1024.0
REFEREE_CPUS = {0}  # with --pin
FLAT_MB = 16.0  # "flat": at most this much RSS growth over the memory run (SQLite and malloc caches fill up)
METADATA = (("authorization", f"Bearer {ADMIN}"),)


# ------------------------------------------------------------------------------------- worker
@dataclass
class Bots:
    """One worker process's side: its streams' counts, timings and failures."""

    think_s: float
    expected: int  # matches this worker's streams play in
    admitted: list[float] = field(default_factory=list)  # opening -> Welcome, seconds
    failures: collections.Counter[str] = field(default_factory=collections.Counter)
    stopping: bool = False
    measuring: bool = False
    decisions: int = 0
    games: int = 0
    rtt: list[float] = field(default_factory=list)
    sent: dict[str, tuple[int, float]] = field(default_factory=dict)  # match -> (game, its last Action's time)
    seen: set[str] = field(default_factory=set)  # matches that asked this worker for a decision
    playing: asyncio.Event = field(default_factory=asyncio.Event)


def emit(**fields: Any) -> None:
    print(json.dumps(fields), flush=True)


async def seat(stub: referee_pb2_grpc.RefereeStub, token: str, bots: Bots) -> None:
    """One stream: Hello, Welcome, then every DecisionRequest answered (after ``think_s``)."""
    perf = time.perf_counter
    opened = perf()
    call = stub.Play()
    match, game = "", -1
    try:
        await call.write(referee_pb2.BotMessage(hello=referee_pb2.Hello(token=token, name="load", version="bench")))
        first = await call.read()
        if first == grpc.aio.EOF or first.WhichOneof("message") != "welcome":
            bots.failures["no Welcome"] += 1
            return
        bots.admitted.append(perf() - opened)
        while (message := await call.read()) != grpc.aio.EOF:
            now, kind = perf(), message.WhichOneof("message")
            if kind == "game_start":
                match, game = message.game_start.match_id, message.game_start.game_number
                bots.games += bots.measuring
                continue
            if kind != "decision_request":
                continue
            previous = bots.sent.pop(match, None)
            if previous is not None and previous[0] == game and bots.measuring:
                bots.rtt.append(now - previous[1])
            if match not in bots.seen:
                bots.seen.add(match)
                if len(bots.seen) >= bots.expected:
                    bots.playing.set()
            if bots.think_s:
                await asyncio.sleep(bots.think_s)
            action = referee_pb2.BotMessage(action=legal(message.decision_request))
            bots.sent[match] = (game, perf())
            await call.write(action)
            bots.decisions += bots.measuring
    except grpc.aio.AioRpcError as e:
        if not bots.stopping:
            bots.failures[f"{e.code().name}: {e.details()}"[:120]] += 1
    except asyncio.InvalidStateError:  # a write after the stream ended: its read says how, or it is this
        if not bots.stopping:
            bots.failures["the stream ended while writing"] += 1


async def loop_lags(seconds: float, every_s: float = 0.02) -> list[float]:
    """How late a timer due every ``every_s`` runs on this process's event loop, for ``seconds``:
    a message read by a bot waits that long too, and it counts in the round trip."""
    loop, lags = asyncio.get_running_loop(), []
    end = loop.time() + seconds
    while (due := loop.time() + every_s) < end:
        await asyncio.sleep(every_s)
        lags.append(loop.time() - due)
    return lags


async def commands() -> Any:
    """The parent's commands, one a line on stdin."""
    loop = asyncio.get_running_loop()
    while line := await loop.run_in_executor(None, sys.stdin.readline):
        yield line.split()


async def worker() -> None:
    config = json.loads(sys.stdin.readline())
    tokens = [token for team in config["teams"] for token in team["tokens"] for _ in range(team["matches"])]
    bots = Bots(config["think_ms"] / 1000, sum(team["matches"] for team in config["teams"]))
    per_channel = config["streams_per_channel"]
    channels = [
        grpc.aio.insecure_channel(config["address"], options=[("grpc.use_local_subchannel_pool", 1)])
        for _ in range(math.ceil(len(tokens) / per_channel))
    ]
    drain_notifications(asyncio.get_running_loop())  # grpc.aio clients clog like servers (server/transport/grpc_events.py)
    stubs = [referee_pb2_grpc.RefereeStub(c) for c in channels]
    tasks = [asyncio.create_task(seat(stubs[i // per_channel], t, bots)) for i, t in enumerate(tokens)]
    async for command in commands():
        if command[0] == "ready":  # every stream admitted (or failed), every match of ours playing
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(bots.playing.wait(), float(command[1]))
            emit(admitted=bots.admitted, failures=bots.failures, playing=len(bots.seen), expected=bots.expected)
        elif command[0] == "measure":
            cpu0, bots.measuring = time.process_time(), True
            lags = await loop_lags(float(command[1]))
            bots.measuring = False
            emit(decisions=bots.decisions, games=bots.games, rtt=bots.rtt, cpu=time.process_time() - cpu0, lag=lags)
        elif command[0] == "stop":  # the referee is being stopped: streams end now, and that is no failure
            bots.stopping = True
            emit(stopping=True)
            break
    _, pending = await asyncio.wait(tasks, timeout=30)
    for task in pending:
        task.cancel()
    emit(failures=bots.failures)
    for channel in channels:
        await channel.close()


# ------------------------------------------------------------------------------------- parent
@dataclass
class Run:
    matches: int
    think_ms: int
    round: int = 0
    null: bool = False  # against the null referee (null_referee.py), not ``mizerka serve``
    seconds: float = 0.0
    decisions: int = 0
    games: int = 0
    rtt: list[float] = field(default_factory=list)
    admitted: list[float] = field(default_factory=list)
    create_storm: list[float] = field(default_factory=list)
    create_window: list[float] = field(default_factory=list)
    storm_s: float = 0.0
    rss_mb: list[float] = field(default_factory=list)
    server_cpu: float = 0.0
    client_cpu: float = 0.0
    failures: collections.Counter[str] = field(default_factory=collections.Counter)
    defaulted: int = 0  # seats without a stream when their game began, and timeout strikes
    lag: list[float] = field(default_factory=list)  # the referee's loop-lag ticks in the window, per LAG_BUCKETS bucket (+ above)
    bot_lag: list[float] = field(default_factory=list)  # the bots' processes' loop lags in the window, seconds

    @property
    def rate(self) -> float:
        return self.decisions / self.seconds if self.seconds else 0.0


class Worker:
    """A bots process: JSON lines out, commands in."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    @classmethod
    async def start(cls, config: dict[str, Any]) -> Worker:
        process = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--worker", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            limit=1 << 28)
        worker = cls(process)
        worker.send(json.dumps(config))
        return worker

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")

    async def reply(self, timeout: float) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = await asyncio.wait_for(self.process.stdout.readline(), timeout)
        if not line:
            raise RuntimeError("a bots process ended early")
        return json.loads(line)

    async def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        await self.process.wait()


@dataclass
class Playing:
    """A referee whose matches are all playing, and its clients."""

    server: Server
    admin: arena_pb2_grpc.ArenaStub
    workers: list[Worker]
    probe_seats: list[str]  # bots for CreateMatch probes (their seats are played by the default policy)
    metrics: str | None  # the referee's /metrics host:port (the null referee has none)


def loop_lag(metrics: str) -> list[float]:
    """The referee's event-loop lag histogram so far, per bucket (not cumulative; the last above
    LAG_BUCKETS[-1]), from its /metrics (docs/metrics.md)."""
    with urllib.request.urlopen(f"http://{metrics}/metrics", timeout=10) as response:
        text = response.read().decode()
    cumulative = {s.labels["le"]: s.value for family in text_string_to_metric_families(text)
                  for s in family.samples if s.name == "mizerka_event_loop_lag_seconds_bucket"}
    counts = [cumulative[floatToGoString(b)] for b in (*LAG_BUCKETS, float("inf"))]
    return [n - m for n, m in zip(counts, [0.0, *counts[:-1]])]


def lag_quantile(counts: list[float], q: float) -> str:
    """The bound of the bucket holding the q-quantile of the lag ticks ("> 1000" past the last)."""
    total, seen = sum(counts), 0.0
    for bound, n in zip(LAG_BUCKETS, counts):
        seen += n
        if total and seen >= q * total:
            return f"<= {bound * 1000:g}"
    return f"> {LAG_BUCKETS[-1] * 1000:g}"


def rss_mb(pid: int) -> float:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


async def timed(call: Any, out: list[float]) -> Any:
    started = time.perf_counter()
    result = await call
    out.append(time.perf_counter() - started)
    return result


async def sample(server: Server, run: Run, stop: asyncio.Event, probe: arena_pb2_grpc.ArenaStub, seats: list[str]) -> None:
    """RSS every PROBE_EVERY_S, and a CreateMatch probe (seats played by the default policy)."""
    while not stop.is_set():
        run.rss_mb.append(rss_mb(server.process.pid))
        request = arena_pb2.CreateMatchRequest(preset="mizerka-short", seats=seats, forfeit_seats=[0, 1, 2], games=1)
        await timed(probe.CreateMatch(request, metadata=METADATA), run.create_window)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), PROBE_EVERY_S)


def defaulted_seats(log_path: Path) -> int:
    """Seats the referee played by default for its own sake: absent when a game began, or timed out."""
    count = 0
    for line in log_path.read_text().splitlines():
        if line.startswith("{"):
            entry = json.loads(line)
            if entry.get("event", "").startswith("seats without a bot stream"):
                count += len(entry.get("seats", []))
            elif entry.get("event") == "strike" and entry.get("reason") == "DEFAULT_REASON_TIMEOUT":
                count += 1
    return count


@contextlib.asynccontextmanager
async def arena(args: argparse.Namespace, run: Run, folder: Path, preset: str = "mizerka",
                options: dict[str, Any] | None = None) -> AsyncIterator[Playing]:
    """A fresh referee with ``run.matches`` matches of ``preset`` (GAMES games each), their bots'
    streams opened all at once while the matches are created; entered once every match is playing.
    On exit the referee is stopped, and every stream that ended before is counted lost."""
    matches, cpus = run.matches, REFEREE_CPUS if args.pin else None
    if run.null:
        folder.mkdir(parents=True, exist_ok=True)
        started_server = server_process([sys.executable, str(Path(__file__).with_name("null_referee.py")),
                                         str(folder / "ready")], folder / "ready", folder / "null.log", cpus)
    else:
        started_server = referee_process(folder, None, "--metrics-port", "0", cpus=cpus)
    async with started_server as server, grpc.aio.insecure_channel(server.address) as channel:
        admin = arena_pb2_grpc.ArenaStub(channel)
        names = [f"load{t}-{s}" for t in range(math.ceil(matches / TEAM_MATCHES)) for s in range(3)]
        bots = [await admin.RegisterBot(arena_pb2.RegisterBotRequest(name=n), metadata=METADATA) for n in names]
        teams = [bots[i:i + 3] for i in range(0, len(bots), 3)]
        configs = [{"address": server.address, "think_ms": run.think_ms, "streams_per_channel": args.streams_per_channel,
                    "teams": []} for _ in range(min(args.workers, len(teams)))]
        for t, team in enumerate(teams):
            count = len(range(t, matches, len(teams)))
            configs[t % len(configs)]["teams"].append({"tokens": [b.token for b in team], "matches": count})
        workers = [await Worker.start(c) for c in configs]
        started = time.perf_counter()
        limit = asyncio.Semaphore(args.create_concurrency)
        struct = struct_pb2.Struct()
        struct.update(options or {})

        async def create(m: int) -> None:
            request = arena_pb2.CreateMatchRequest(preset=preset, options=struct, seed_text=f"load-{m}", games=GAMES,
                                                   seats=[b.bot_id for b in teams[m % len(teams)]])
            async with limit:
                await timed(admin.CreateMatch(request, metadata=METADATA), run.create_storm)

        await asyncio.gather(*(create(m) for m in range(matches)))
        for w in workers:
            w.send(f"ready {READY_TIMEOUT_S}")
        for w in workers:
            reply = await w.reply(READY_TIMEOUT_S + 30)
            run.admitted += reply["admitted"]
            run.failures.update(reply["failures"])
            if reply["playing"] < reply["expected"]:
                run.failures[f"matches not playing after {READY_TIMEOUT_S:g} s"] += reply["expected"] - reply["playing"]
        run.storm_s = time.perf_counter() - started
        try:
            metrics = [json.loads(line)["address"] for line in server.log_path.read_text().splitlines()
                       if '"metrics listening"' in line]
            yield Playing(server, admin, workers, [b.bot_id for b in teams[0]], metrics[0] if metrics else None)
        finally:
            for w in workers:
                w.send("stop")
                await w.reply(30)
            await asyncio.to_thread(server.stop)
            for w in workers:
                run.failures.update((await w.reply(60))["failures"])
                await w.close()
    run.defaulted = defaulted_seats(server.log_path)


async def window(args: argparse.Namespace, folder: Path, matches: int, think_ms: int, round_: int = 0,
                 null: bool = False) -> Run:
    """A window of ``args.seconds`` with ``matches`` matches playing, CreateMatch probed meanwhile."""
    run = Run(matches, think_ms, round_, null)
    async with arena(args, run, folder / f"{'null-' if null else ''}n{matches}-t{think_ms}-r{round_}") as playing:
        server = playing.server
        await asyncio.sleep(WARMUP_S)
        stop = asyncio.Event()
        sampler = asyncio.create_task(sample(server, run, stop, playing.admin, playing.probe_seats))
        lag0 = await asyncio.to_thread(loop_lag, playing.metrics) if playing.metrics else []
        cpu0, t0 = cpu_seconds(server.process.pid), time.perf_counter()
        for w in playing.workers:
            w.send(f"measure {args.seconds}")
        for w in playing.workers:
            reply = await w.reply(args.seconds + 60)
            run.decisions += reply["decisions"]
            run.games += reply["games"]
            run.rtt += reply["rtt"]
            run.client_cpu += reply["cpu"]
            run.bot_lag += reply["lag"]
        run.seconds = time.perf_counter() - t0
        run.server_cpu = cpu_seconds(server.process.pid) - cpu0
        if playing.metrics:
            run.lag = [n - m for n, m in zip(await asyncio.to_thread(loop_lag, playing.metrics), lag0)]
        stop.set()
        await sampler
    return run


async def memory(args: argparse.Namespace, folder: Path) -> Run:
    """MEMORY_MATCHES matches of short games until ``args.memory_games`` games have finished; the
    referee's RSS at every MEMORY_STEP of them (the first after a warm-up of MEMORY_STEP games)."""
    run = Run(MEMORY_MATCHES, 0)
    async with arena(args, run, folder / "memory", "mizerka-short", {"deals": 3}) as playing:
        server, finished, offset = playing.server, 0, 0
        t0 = time.perf_counter()
        while finished < args.memory_games + MEMORY_STEP:
            await asyncio.sleep(0.5)
            with open(server.log_path, "rb") as f:
                f.seek(offset)
                chunk = f.read()
            chunk = chunk[:chunk.rfind(b"\n") + 1]
            offset += len(chunk)
            before, finished = finished, finished + chunk.count(b'"event": "game finished"')
            if before // MEMORY_STEP != finished // MEMORY_STEP:
                run.rss_mb.append(rss_mb(server.process.pid))
                run.games = finished - MEMORY_STEP
        run.seconds = time.perf_counter() - t0
    return run


# -------------------------------------------------------------------------------------- report
def ms(values: list[float], q: float) -> str:
    return f"{pct(values, q) * 1000:.1f}" if values else "-"


def report(run: Run) -> None:
    what = f"bots thinking {run.think_ms} ms" if run.think_ms else "instant bots"
    latency = "added latency" if run.think_ms else "round trip"
    print(f"{'null referee: ' if run.null else ''}{run.matches:>5} matches, {3 * run.matches} streams, {what}; {run.seconds:.1f} s window")
    print(f"      {run.rate:>9,.0f} decisions/s   {latency} p50 {ms(run.rtt, 0.5)} ms  p99 {ms(run.rtt, 0.99)} ms"
          f"   games started in the window {run.games // 3}")
    print(f"      storm: all streams admitted and all matches playing after {run.storm_s:.1f} s; admission p50"
          f" {ms(run.admitted, 0.5)} ms  p99 {ms(run.admitted, 0.99)} ms  max {ms(run.admitted, 1.0)} ms")
    print(f"      CreateMatch p50/p99: {ms(run.create_storm, 0.5)} / {ms(run.create_storm, 0.99)} ms in the storm"
          f" ({len(run.create_storm)} calls), {ms(run.create_window, 0.5)} / {ms(run.create_window, 0.99)} ms"
          f" in the window ({len(run.create_window)} probes)")
    if run.lag:
        late = sum(n for b, n in zip((*LAG_BUCKETS, math.inf), run.lag) if b > 0.025)
        print(f"      referee's event-loop lag (its collector's {sum(run.lag):,.0f} ticks): p50 {lag_quantile(run.lag, 0.5)} ms,"
              f" p99 {lag_quantile(run.lag, 0.99)} ms, max {lag_quantile(run.lag, 1.0)} ms; {late:,.0f} ticks over 25 ms late")
    if run.bot_lag:
        print(f"      the bots' processes' event-loop lag (a timer every 20 ms): p50 {ms(run.bot_lag, 0.5)} ms,"
              f" p99 {ms(run.bot_lag, 0.99)} ms, max {ms(run.bot_lag, 1.0)} ms")
    rss = [r for r in run.rss_mb if not math.isnan(r)]
    per_decision = f" ({run.server_cpu / run.decisions * 1e6:,.0f} us a decision)" if run.decisions else ""
    print(f"      referee RSS {min(rss, default=0):.0f}-{max(rss, default=0):.0f} MB; CPU in cores: referee"
          f" {run.server_cpu / max(run.seconds, 1e-9):.2f}{per_decision}, bots {run.client_cpu / max(run.seconds, 1e-9):.2f}")
    lost = sum(run.failures.values())
    print(f"      lost connections {lost}{' ' + str(dict(run.failures)) if lost else ''};"
          f" seats played by default for the referee's sake {run.defaulted}")


def ratios(runs: list[Run]) -> list[float]:
    """Per round: decisions/s at the most instant matches (1,000 or more) over those at 16."""
    out = []
    for round_ in sorted({r.round for r in runs}):
        instant = {r.matches: r for r in runs if not r.think_ms and r.round == round_}
        if 16 in instant and max(instant) >= 1000:
            out.append(instant[max(instant)].rate / instant[16].rate)
    return out


def targets(runs: list[Run], verdict: Callable[[bool], str]) -> None:
    """The two speed targets' figures for ``runs`` (all of one server)."""
    if each_round := ratios(runs):
        ratio, top = statistics.median(each_round), max(r.matches for r in runs if not r.think_ms)
        each = f"; rounds {', '.join(f'{x:.2f}' for x in each_round)}" if len(each_round) > 1 else ""
        print(f"  decisions/s at {top} matches / at 16 = {ratio:.2f}{' (median)' if len(each_round) > 1 else ''}"
              f" (>= {RATIO_TARGET}){each}: {verdict(ratio >= RATIO_TARGET)}")
    thinking = [r for r in runs if r.think_ms and r.matches >= 1000]
    if thinking:
        p99 = pct([x for r in thinking for x in r.rtt], 0.99) * 1000
        each = f"; rounds {', '.join(f'{pct(r.rtt, 0.99) * 1000:.1f}' for r in thinking)}" if len(thinking) > 1 else ""
        print(f"  added latency p99 at {thinking[0].matches} thinking matches = {p99:.1f} ms"
              f"{' (all rounds)' if len(thinking) > 1 else ''} (<= {ADDED_P99_TARGET_MS:g}){each}:"
              f" {verdict(p99 <= ADDED_P99_TARGET_MS)}")


def verdicts(runs: list[Run], memory_run: Run | None) -> None:
    def verdict(ok: bool) -> str:
        return "met" if ok else "MISSED"

    print("targets:")
    referee = [r for r in runs if not r.null]
    targets(referee, verdict)
    everything = [*referee, *([memory_run] if memory_run else [])]
    rss = max((x for r in everything for x in r.rss_mb if not math.isnan(x)), default=0.0)
    print(f"  referee RSS at most {rss:.0f} MB (<= {RSS_TARGET_MB:g}): {verdict(rss <= RSS_TARGET_MB)}")
    if memory_run is not None and len(memory_run.rss_mb) > 1:
        growth = memory_run.rss_mb[-1] - memory_run.rss_mb[0]
        print(f"  RSS growth over {memory_run.games:,} finished games {growth:+.1f} MB (<= {FLAT_MB:g}):"
              f" {verdict(growth <= FLAT_MB)}")
    lost = sum(sum(r.failures.values()) for r in everything)
    defaulted = sum(r.defaulted for r in everything)
    print(f"  lost connections {lost}, seats defaulted {defaulted} (0): {verdict(lost == 0 and defaulted == 0)}")
    if null := [r for r in runs if r.null]:
        print("the null referee's figures on the same targets (gRPC and asyncio alone, no verdict):")
        targets(null, lambda ok: "would meet" if ok else "would miss")
        lost = sum(sum(r.failures.values()) for r in null)
        print(f"  lost connections {lost}")


def report_memory(run: Run) -> None:
    rss = run.rss_mb
    print(f"memory: {run.matches} matches of 3-deal mizerka-short games, {run.games:,} games finished after a warm-up of"
          f" {MEMORY_STEP:,} ({run.games / max(run.seconds, 1e-9):,.0f} games/s)")
    print(f"      referee RSS every {MEMORY_STEP:,} games: {' '.join(f'{r:.0f}' for r in rss)} MB")
    if len(rss) > 1:
        print(f"      growth {rss[-1] - rss[0]:+.1f} MB over {run.games:,} games"
              f" ({(rss[-1] - rss[0]) / run.games * 50 * 1024:+.1f} KB per 50 games)")
    lost = sum(run.failures.values())
    print(f"      lost connections {lost}; seats played by default for the referee's sake {run.defaulted}")


async def main_async(args: argparse.Namespace) -> None:
    runs, memory_run = [], None
    plan = [(n, 0) for n in args.matches] + ([(args.think_matches, args.think_ms)] if args.think_matches else [])
    with contextlib.ExitStack() as stack:
        folder = args.folder or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-load-")))
        for round_ in range(args.rounds):
            for matches, think_ms in plan:
                for null in (False, True) if args.null else (False,):
                    print(f"(load average before the run {os.getloadavg()[0]:.2f}"
                          f"{f'; round {round_ + 1}' if args.rounds > 1 else ''})")
                    runs.append(await window(args, folder, matches, think_ms, round_, null))
                    report(runs[-1])
        if args.memory_games:
            print(f"(load average before the run {os.getloadavg()[0]:.2f})")
            memory_run = await memory(args, folder)
            report_memory(memory_run)
    verdicts(runs, memory_run)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=lambda s: [int(x) for x in s.split(",")], default=[16, 100, 300, 1000],
                        help="comma-separated numbers of matches of instant bots (default 16,100,300,1000)")
    parser.add_argument("--think-matches", type=int, default=1000, help="matches of thinking bots (default 1000; 0: none)")
    parser.add_argument("--think-ms", type=int, default=500, help="how long the thinking bots think (default 500)")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured window per run (default 10)")
    parser.add_argument("--rounds", type=int, default=1, help="run the windows this many times, one round after the other")
    parser.add_argument("--workers", type=int, default=4, help="bot processes (default 4)")
    parser.add_argument("--streams-per-channel", type=int, default=50, help="Play streams per channel (default 50)")
    parser.add_argument("--create-concurrency", type=int, default=64, help="CreateMatch calls in flight in the storm")
    parser.add_argument("--memory-games", type=int, default=10_000,
                        help=f"games to finish in the memory run ({MEMORY_MATCHES} matches; default 10000; 0: no memory run)")
    parser.add_argument("--folder", type=Path, help="keep the referees' databases and logs here (default: a temporary folder)")
    parser.add_argument("--pin", action="store_true",
                        help="the referee alone on CPU 0; the bots and this script on the others")
    parser.add_argument("--null", action="store_true",
                        help="run every window against the null referee too (null_referee.py), right after the referee's")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        asyncio.run(worker())
        return
    if args.rounds < 1:
        parser.error(f"--rounds must be at least 1, not {args.rounds}")
    if args.folder is not None and args.folder.exists() and any(args.folder.iterdir()):
        parser.error(f"--folder {args.folder} is not empty: the referees' databases go there fresh; give a new or empty folder")
    if args.pin:
        others = os.sched_getaffinity(0) - REFEREE_CPUS
        if not others or not REFEREE_CPUS <= os.sched_getaffinity(0):
            parser.error(f"--pin needs CPU 0 and at least one other CPU; this process may use {sorted(os.sched_getaffinity(0))}")
        os.sched_setaffinity(0, others)  # the bots' processes, started later, inherit it
    print(f"machine: {machine()}")
    if args.pin:
        print(f"pinned:  the referee on CPU 0 alone; the bots and this script on CPUs {sorted(os.sched_getaffinity(0))}")
    print(f"date:    {datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}; load average {os.getloadavg()[0]:.2f}")
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
