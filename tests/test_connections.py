"""Connections a stranger holds open or asks through, against a real `mizerka serve` (docs/security.md,
Connections): idle, half-sent and trickled connections are closed (web page and gRPC), connections
past a cap are closed as soon as accepted while others are served, a referee at a low descriptor
limit stays quiet and plays on with more idle connections than it has descriptors, and /api/arena
reads the store a bounded number of times however often it is asked.

Timeouts are injected small; what is asserted is that a connection gets closed, never how fast.
"""

from __future__ import annotations

import asyncio
import http.client
import resource
import select
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import grpc
import pytest
from aiohttp.test_utils import TestServer
from grpc_health.v1 import health_pb2, health_pb2_grpc
from test_hostile_streams import FINISHED, Stream, seat_bots, wait_for
from test_web import web_port

from mizerka_proto import arena_pb2
from server.arena import Arena
from server.settings import ClockSettings
from server.storage.store import Store
from server.transport.limits import Cooldowns, HostBuckets
from server.web.page import OVERVIEW_BURST, WebPage

from harness import BIN, referee

CLOSED_WITHIN_S = 60  # a bound that only a connection the referee never closes reaches
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"  # HTTP/2's client preface, then an empty SETTINGS frame
SETTINGS = b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"
REFUSED = "web connection refused: too many open"


@pytest.fixture(autouse=True)
def enough_descriptors() -> Iterator[None]:
    """This test process opens hundreds of client sockets: its own limit up to its hard limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def connect(port: int, source: str = "127.0.0.1", wait: bool = True) -> socket.socket:
    """A TCP connection to 127.0.0.1:``port`` from ``source`` (any of 127/8 is this machine: another
    host as the referee sees it). ``wait=False``: connect without waiting, as a flood does."""
    sock = socket.socket()
    sock.bind((source, 0))
    if wait:
        sock.settimeout(10)
        sock.connect(("127.0.0.1", port))
    else:
        sock.setblocking(False)
        sock.connect_ex(("127.0.0.1", port))
    return sock


def closed(sock: socket.socket, trickle: Iterator[bytes] | None = None) -> bool:
    """Whether the referee closes ``sock`` (reading and dropping whatever it sends), sending it
    the next byte of ``trickle`` every 0.1 s meanwhile; False if it is still open after
    CLOSED_WITHIN_S."""
    deadline = time.monotonic() + CLOSED_WITHIN_S
    sock.setblocking(False)
    try:
        while time.monotonic() < deadline:
            readable, _, _ = select.select([sock], [], [], 0.1)
            if readable and not sock.recv(65536):
                return True
            if trickle is not None:
                sock.send(next(trickle))
        return False
    except (ConnectionResetError, BrokenPipeError):
        return True
    finally:
        sock.close()


def ask(sock: socket.socket, path: str = "/api/arena") -> int | None:
    """One keep-alive GET on ``sock``: the answer's status, or None if the connection was closed."""
    sock.setblocking(True)
    sock.settimeout(10)
    try:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: arena\r\n\r\n".encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            data = sock.recv(65536)
            if not data:
                return None
            answer += data
    except (ConnectionResetError, BrokenPipeError):
        return None
    head, _, body = answer.partition(b"\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        body += sock.recv(65536)
    return int(head.split()[1])


def _bytes(data: bytes) -> Iterator[bytes]:
    """``data`` a byte at a time, then ``a`` for ever (a header that never ends)."""
    yield from (bytes([b]) for b in data)
    while True:
        yield b"a"


# ------------------------------------------------------------------------------ the web page
def test_idle_half_sent_and_trickled_web_connections_are_closed(tmp_path: Path) -> None:
    with referee(tmp_path, "--http-port", "0", "--http-idle-timeout-s", "0.5") as ref:
        port = web_port(ref)
        silent = connect(port)
        half = connect(port)
        half.sendall(b"GET /api/arena HTTP/1.1\r\nHost: arena\r\n")  # the head's blank line never comes
        kept = connect(port)
        assert ask(kept) == 200  # then nothing more on this keep-alive connection
        loris = connect(port)
        assert closed(silent), "a connection that sends nothing stayed open"
        assert closed(half), "a connection that sent half a request's head stayed open"
        assert closed(kept), "an idle keep-alive connection stayed open"
        assert closed(loris, _bytes(b"GET / HTTP/1.1\r\nHost: arena\r\nX-Slow: ")), "a head sent a byte at a time kept its connection"
        assert ask(connect(port), "/") == 200  # the page itself is served as before


def test_web_connections_past_the_caps_are_closed_while_another_host_gets_its_page(tmp_path: Path) -> None:
    with referee(tmp_path, "--http-port", "0", "--http-max-connections", "8", "--http-max-connections-per-host", "4",
                 "--http-idle-timeout-s", "600") as ref:
        port = web_port(ref)
        crowd = [connect(port, "127.0.0.2") for _ in range(10)]
        assert sum(ask(s) == 200 for s in crowd) == 4  # the other 6 were closed at once, unread
        honest = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        honest.request("GET", "/")
        answer = honest.getresponse()
        assert answer.status == 200 and b"<html" in answer.read().lower()  # keeps its connection: 5 of 8 held
        others = [connect(port, "127.0.0.3") for _ in range(10)]
        assert sum(ask(s) == 200 for s in others) == 3  # 4 + 1 + 3: the cap of all hosts together
        late = [connect(port, "127.0.0.4") for _ in range(3)]
        assert [ask(s) for s in late] == [None] * 3
        honest.request("GET", "/api/arena")  # a connection let in is served as long as it asks
        assert honest.getresponse().status == 200
    refusals = [(line["host"], line["cap"]) for line in ref.log_lines() if line["event"] == REFUSED]
    # 16 connections closed, 2 lines: one per cap and host, every 10 s at most
    assert sorted(refusals) == [("ipv4:127.0.0.2", "per host"), ("ipv4:127.0.0.3", "all hosts")]  # named as Watch names hosts


def _lower_descriptors(limit: int) -> Callable[[], None]:
    return lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))


def test_more_idle_connections_than_descriptors_leave_the_log_quiet_and_the_match_playing(tmp_path: Path) -> None:
    """At a limit of 256 descriptors (soft and hard: the referee cannot raise it), 400 connections
    to the web page: no "socket.accept() out of system resource" flood, and a match between real
    bots plays on without a fault."""
    with referee(tmp_path, "--http-port", "0", preexec=_lower_descriptors(256)) as ref:
        port = web_port(ref)
        admin = ref.arena()
        match_id = admin.create("mizerka-short", seat_bots(ref, ["play"] * 3, "bot"), games=20)
        wait_for(lambda: admin.get(match_id).status == arena_pb2.MATCH_STATUS_RUNNING, "the match started")
        flood = [connect(port, wait=False) for _ in range(400)]
        match = admin.wait(match_id)
        assert match.status == FINISHED and len(match.results) == 20
        assert all(s.timeouts == 0 and s.defaults_applied == 0 and not s.disconnected for g in match.results for s in g.seats)
        for sock in flood:
            sock.close()
        wait_for(lambda: ask(connect(port)) == 200, "the page served once the crowd had left")
    log = ref.log_path.read_text()
    assert "out of system resource" not in log
    assert 1 <= sum(line["event"] == REFUSED for line in ref.log_lines()) <= 10  # about 400 refused


def test_the_referee_raises_its_descriptor_limit_and_sizes_its_caps_from_it(tmp_path: Path) -> None:
    def lower() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 4096))

    with referee(tmp_path, "--http-port", "0", preexec=lower) as ref:
        limits = Path(f"/proc/{ref.process.pid}/limits").read_text()
        [line] = [line.split() for line in limits.splitlines() if line.startswith("Max open files")]
        assert line[3:5] == ["4096", "4096"]
    [caps] = [line for line in ref.log_lines() if line["event"] == "connection caps"]
    assert caps["descriptors"] == 4096
    # sized from 4096, not 256 (where they would be 48 and 24), with room to spare
    assert 256 < caps["grpc_per_listener"] and 256 < caps["http"] and caps["grpc_per_listener"] + caps["http"] < 4096 * 3 // 4


def test_caps_that_leave_no_headroom_are_refused_with_the_limit(tmp_path: Path) -> None:
    done = subprocess.run([str(BIN / "mizerka"), "serve", "--port", "0", "--db", str(tmp_path / "a.sqlite"),
                           "--http-max-connections", "100000"], capture_output=True, text=True,
                          preexec_fn=_lower_descriptors(1024), timeout=60)
    assert done.returncode == 2
    assert "--http-max-connections 100000 leave too little headroom below the descriptor limit 1024" in done.stderr
    assert "Traceback" not in done.stderr


# ---------------------------------------------------------------------------------- /api/arena
@pytest.mark.asyncio
async def test_api_arena_asked_1000_times_reads_the_store_a_bounded_number_of_times(tmp_path: Path,
                                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """1,000 requests from 50 hosts (each within its rate limit), all at once over keep-alive
    connections: one read of the store, every client the same bytes; the next read only once the
    clock has moved a second on. A host asking faster than a page does gets 429 meanwhile."""
    store = Store(tmp_path / "arena.sqlite")
    reads = []
    list_matches = store.list_matches
    monkeypatch.setattr(store, "list_matches", lambda *a: reads.append(a) or list_matches(*a))
    now = [0.0]
    server = TestServer(WebPage(Arena(store, ClockSettings()), None, clock=lambda: now[0]).app(), host="127.0.0.1")
    await server.start_server()
    url = f"http://127.0.0.1:{server.port}/api/arena"

    async def host(source: str, times: int) -> list[tuple[int, bytes]]:
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(source, 0))) as session:
            answers = []
            for _ in range(times):
                async with session.get(url) as answer:
                    answers.append((answer.status, await answer.read()))
            return answers

    try:
        answers = [a for each in await asyncio.gather(*(host(f"127.0.0.{10 + i}", 20) for i in range(50))) for a in each]
        assert len(answers) == 1000 and {status for status, _ in answers} == {200}
        assert len({body for _, body in answers}) == 1 and len(reads) == 1
        now[0] += 1.0
        assert (await host("127.0.0.10", 1))[0][0] == 200 and len(reads) == 2
        rushed = await host("127.0.0.99", OVERVIEW_BURST + 1)
        assert [s for s, _ in rushed] == [200] * OVERVIEW_BURST + [429] and b"requests a second" in rushed[-1][1]
        now[0] += 0.1  # one more token
        assert (await host("127.0.0.99", 1))[0][0] == 200 and len(reads) == 2
    finally:
        await server.close()
        store.close()


def test_host_buckets_refill_at_their_rate_and_forget_the_oldest_hosts() -> None:
    now = [0.0]
    buckets = HostBuckets(2.0, 3, clock=lambda: now[0], max_hosts=2)
    assert [buckets.take("a") for _ in range(4)] == [0, 0, 0, 0.5]  # then a wait: a token every 0.5 s
    now[0] = 0.25  # half a token back
    assert buckets.take("a") == 0.25
    now[0] = 0.5  # one token back
    assert [buckets.take("a"), buckets.take("a")] == [0, 0.5]
    buckets.take("b")
    buckets.take("c")  # "a" forgotten: it starts again with a full bucket
    assert [buckets.take("a") for _ in range(4)] == [0, 0, 0, 0.5]


def test_cooldowns_last_their_time_and_forget_the_oldest_hosts() -> None:
    now = [0.0]
    cooldowns = Cooldowns(clock=lambda: now[0], max_hosts=2)
    cooldowns.start("a", 2.0)
    cooldowns.start("a", 1.0)  # a shorter wait does not shorten the one under way
    assert cooldowns.cooling("a") and not cooldowns.cooling("b")
    now[0] = 1.9
    assert cooldowns.cooling("a")
    now[0] = 2.0
    assert not cooldowns.cooling("a")
    cooldowns.start("a", 5.0)
    cooldowns.start("b", 5.0)
    cooldowns.start("c", 5.0)  # "a" forgotten
    assert [cooldowns.cooling(h) for h in "abc"] == [False, True, True]


# ------------------------------------------------------------------------------------- gRPC
def _grpc_port(address: str) -> int:
    return int(address.rsplit(":", 1)[1])


def test_grpc_connections_that_never_finish_the_handshake_are_closed(tmp_path: Path) -> None:
    with referee(tmp_path, "--handshake-timeout-s", "0.5", "--idle-timeout-s", "3600") as ref:
        port = _grpc_port(ref.address)
        silent = connect(port)
        loris = connect(port)
        assert closed(silent), "a connection that sends nothing stayed open"
        assert closed(loris, _bytes(PREFACE)), "a preface sent a byte at a time kept its connection"


def test_grpc_connections_without_a_call_are_closed_but_a_bot_waiting_on_its_stream_is_not(tmp_path: Path) -> None:
    with referee(tmp_path, "--idle-timeout-s", "1") as ref:
        admin = ref.arena()
        bot_id, token = admin.register("patient")
        waiting = Stream(ref.address, token)  # a bot in the lobby: its Play stream open, nothing asked of it
        waiting.until("welcome")
        # a real client: one call, then none (a connection of its own, not shared with the stream's channel)
        idle = grpc.insecure_channel(ref.address, options=[("grpc.use_local_subchannel_pool", 1)])
        states: list[grpc.ChannelConnectivity] = []
        idle.subscribe(states.append)
        health_pb2_grpc.HealthStub(idle).Check(health_pb2.HealthCheckRequest(), timeout=10)
        # the callbacks come on gRPC's own thread, from the channel's first state (IDLE) on: wait for a
        # READY (the call's connection) followed by IDLE (closed under it), not just any IDLE
        ready, idle_state = grpc.ChannelConnectivity.READY, grpc.ChannelConnectivity.IDLE

        def closed_after_the_call() -> bool:
            seen = list(states)
            return ready in seen and idle_state in seen[seen.index(ready):]
        wait_for(closed_after_the_call, "the referee closed a connection without a call", CLOSED_WITHIN_S)
        idle.close()
        assert waiting.status is None  # open longer than the idle timeout: a stream is a call
        match_id = admin.create("mizerka-short", [bot_id, *seat_bots(ref, ["play"] * 2, "other")])
        assert waiting.until("decision_request").turn >= 0
        assert admin.get(match_id).status == arena_pb2.MATCH_STATUS_RUNNING


def _admitted(sock: socket.socket) -> bool:
    """Whether gRPC answers the HTTP/2 preface on ``sock`` with its SETTINGS (else it closed it)."""
    sock.sendall(PREFACE + SETTINGS)
    try:
        return len(sock.recv(9)) > 0
    except ConnectionResetError:
        return False


def test_grpc_connections_past_the_cap_are_closed_at_once(tmp_path: Path) -> None:
    with referee(tmp_path, "--max-connections", "4") as ref:
        port = _grpc_port(ref.address)
        crowd = [connect(port) for _ in range(8)]
        assert sum(_admitted(s) for s in crowd) == 4
        for sock in crowd:
            sock.close()
        admin = ref.arena()

        def registered() -> Any:
            try:
                return admin.register("after")
            except Exception:  # UNAVAILABLE while the closed connections are counted still
                return None
        wait_for(registered, "a client connected once the crowd had left")
