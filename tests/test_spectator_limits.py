"""What a spectator of the arena can cost it, tried the way the audit of issue 30 did: feeds and
Watch streams of ended matches opened over real HTTP and gRPC connections against a real referee
with a real SQLite file, the ended games rendered by the referee's real worker process
(server/replays.py). A feed's first game comes before the next is rendered, nothing is replayed
in the referee's own process, one host has one game rendered at a time, opening ended matches is
rate-limited per host (a fake clock for the bucket), and one host holds at most its web feeds
(`mizerka serve --http-max-feeds-per-host`) while another host is served."""

from __future__ import annotations

import asyncio
import http.client
import json
import sys
import time
import urllib.error
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import grpc
import pytest
from test_web import _Feed, _live_match, get, web_port

from mizerka_proto import referee_pb2, referee_pb2_grpc
from server import records
from server.arena import Arena
from server.replays import Job, Rendered, Replays
from server.settings import ClockSettings, StreamLimits
from server.storage.store import MatchRow, Store
from server.transport.service import start_server
from server.web.page import start_web

from harness import ADMIN, referee

GAMES = 12
OTHER_HOST = "127.0.0.2"  # loopback too: Linux answers all of 127/8


class Gate:
    """Wraps the referee's renderer: records each game asked for and holds those from game
    ``hold_from`` on until released, so a test sees what was rendered when a message arrived."""

    def __init__(self, render: Callable[[Job], Awaitable[Rendered | None]], hold_from: int) -> None:
        self.render = render
        self.hold_from = hold_from
        self.begun: list[Job] = []
        self.done = 0
        self.in_flight = 0
        self.most_in_flight = 0
        self.release = asyncio.Event()

    async def __call__(self, job: Job) -> Rendered | None:
        self.begun.append(job)
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            if job.game.index >= self.hold_from:
                await self.release.wait()
            return await self.render(job)
        finally:
            self.in_flight -= 1
            self.done += 1


async def ended_match(arena: Arena, store: Store, tag: str, games: int = GAMES, group: str = "") -> MatchRow:
    """A match of ``games`` games, over: every seat played by default (no bot needed)."""
    seats = [store.add_bot(f"{tag}{i}")[0].id for i in range(3)]
    row = arena.create("mizerka-short", {}, tag, games, ClockSettings(), seats, forfeits=[0, 1, 2], group=group)
    await arena.live[row.id].done.wait()
    return row


async def sse(response: aiohttp.ClientResponse) -> AsyncIterator[tuple[str, dict[str, Any]]]:
    """A feed's server-sent events as (kind, data)."""
    kind = ""
    async for raw in response.content:
        line = raw.decode().rstrip("\n")
        if line.startswith("event: "):
            kind = line.removeprefix("event: ")
        elif line.startswith("data: "):
            yield kind, json.loads(line.removeprefix("data: "))


async def read_feed(session: aiohttp.ClientSession, url: str) -> list[tuple[str, dict[str, Any]]]:
    async with session.get(url) as response:
        assert response.status == 200, await response.text()
        return [event async for event in sse(response)]


async def until(what: str, done: Callable[[], bool]) -> None:
    async with asyncio.timeout(60):  # a bound on a hang, not a speed check
        while not done():
            await asyncio.sleep(0.01)
    assert done(), what


class Servers:
    """An Arena on a SQLite file, served over gRPC and HTTP on 127.0.0.1 (port 0 each)."""

    def __init__(self, tmp_path: Path, limits: StreamLimits | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.store = Store(tmp_path / "arena.sqlite")
        limits = limits or StreamLimits()
        self.arena = Arena(self.store, ClockSettings(), limits=limits,
                           replays=Replays(self.store.engine.url.render_as_string(hide_password=False), limits, clock=clock))
        self.clock = clock

    async def __aenter__(self) -> Servers:
        self.grpc, port = await start_server(self.arena, "127.0.0.1", 0, ADMIN)
        self.channel = grpc.aio.insecure_channel(f"127.0.0.1:{port}")
        self.watch = referee_pb2_grpc.RefereeStub(self.channel).Watch
        self.web, http = await start_web(self.arena, "127.0.0.1", 0, clock=self.clock)
        self.base = f"http://127.0.0.1:{http}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.channel.close()
        await self.web.cleanup()
        await self.grpc.stop(0)
        self.arena.replays.close()
        self.store.close()


@pytest.mark.asyncio
async def test_an_ended_match_is_sent_game_by_game_rendered_outside_the_referee(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The audit's one feed of a 1,500-game match: 30 s, 200 MB more in the referee and its first
    message last. Now its first game is sent while the second is still to render (so a request
    holds one game, whatever the match's length), no game is replayed in the referee's process
    (its interpreter lock stays with the matches), and opening it again renders nothing. A sealed
    match's spectators get what a spectator saw, also after the admin had its full record."""
    replayed_here: list[int] = []
    replay_game = records.replay_game

    def counted(store: Store, match_id: str, index: int, rules: Any) -> Any:
        replayed_here.append(index)
        return replay_game(store, match_id, index, rules)

    monkeypatch.setattr(records, "replay_game", counted)  # the worker process runs the module unpatched
    async with Servers(tmp_path) as servers, aiohttp.ClientSession() as session:
        arena = servers.arena
        row = await ended_match(arena, servers.store, "long", group="league-x")  # sealed
        gate = arena.replays.render = Gate(arena.replays.render, hold_from=1)
        url = f"{servers.base}/api/match/{row.id}/feed"

        async with session.get(url) as response:
            events = sse(response)
            async with asyncio.timeout(60):  # a bound on the failure: before, the first came after every game
                kind, first = await anext(events)
            assert kind == "update" and first["game_number"] == 0 and first["names"] == ["long0", "long1", "long2"]
            assert (gate.done, [j.game.index for j in gate.begun]) == (1, [0, 1]), "the first game came only once others were rendered"
            gate.release.set()
            rest = [event async for event in events]
        updates = [first] + [d for kind, d in rest if kind == "update"]
        assert [d["game_number"] for d in updates] == list(range(GAMES)) and rest[-1][0] == "end"
        assert not any(d["full"] or d["deals"] for d in updates), "a sealed match's feed showed its full record"
        assert updates[-1]["match_over"] and not any(d["match_over"] for d in updates[:-1])
        assert gate.most_in_flight == 1 and len(gate.begun) == GAMES

        again = await read_feed(session, url)  # the spectator's reload: its bytes again, nothing rendered
        assert [d for kind, d in again if kind == "update"] == updates and len(gate.begun) == GAMES

        admin = [u async for u in servers.watch(referee_pb2.WatchRequest(match_id=row.id),
                                                 metadata=(("authorization", f"Bearer {ADMIN}"),))]
        assert len(admin) == GAMES and all(u.full and u.deals for u in admin)

        gate = arena.replays.render = Gate(gate.render, hold_from=1)
        call = servers.watch(referee_pb2.WatchRequest(match_id=row.id))
        async with asyncio.timeout(60):
            head = await call.read()
        assert head.game_number == 0 and not head.full and len(gate.begun) == 2 and gate.done == 1
        gate.release.set()
        watched = [head]
        while (update := await call.read()) != grpc.aio.EOF:
            watched.append(update)
        assert [u.game_number for u in watched] == list(range(GAMES)) and watched[-1].match_over
        assert not any(u.full or u.deals for u in watched), "the admin's full record reached a spectator"
    assert replayed_here == [], "ended games were replayed in the referee's own process"


@pytest.mark.asyncio
async def test_one_host_has_one_game_rendered_at_a_time(tmp_path: Path) -> None:
    """A host opening many ended matches at once queues behind itself, not in front of everyone:
    while its first game renders, its other feeds wait, and another host's game is rendered."""
    async with Servers(tmp_path) as servers, aiohttp.ClientSession() as mine:
        arena = servers.arena
        rows = [await ended_match(arena, servers.store, f"q{i}", games=3) for i in range(4)]
        gate = arena.replays.render = Gate(arena.replays.render, hold_from=0)  # every render held
        feeds = [asyncio.create_task(read_feed(mine, f"{servers.base}/api/match/{r.id}/feed")) for r in rows[:3]]
        await until("the host's three feeds asking", lambda: sum(t.users for t in arena.replays.turns.values()) == 3
                    or len(gate.begun) > 1)
        assert len(gate.begun) == 1, "one host had several games rendered at once"
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(OTHER_HOST, 0))) as other:
            theirs = asyncio.create_task(read_feed(other, f"{servers.base}/api/match/{rows[3].id}/feed"))
            await until("the other host's game begun", lambda: len(gate.begun) == 2)
            assert gate.begun[1].game.match_id == rows[3].id, "the other host waited behind the first host's feeds"
            gate.release.set()
            got = await asyncio.gather(*feeds, theirs)
    assert all([k for k, _ in events] == ["update"] * 3 + ["end"] for events in got)
    assert gate.most_in_flight == 2  # one per host


@pytest.mark.asyncio
async def test_opening_ended_matches_again_and_again_is_rate_limited_per_host(tmp_path: Path) -> None:
    """The audit's client re-opening an ended match's feed in a loop (4 Watch streams of it cut a
    running match to 51 decisions/s): a host may open --finished-feeds-burst at once, then
    --finished-feeds-per-minute; beyond, 429 (web) and RESOURCE_EXHAUSTED (Watch) naming the
    limit and its flags. Web feeds and Watch streams of a host share the bucket; another host and
    the admin are served."""
    now = [1000.0]
    limits = StreamLimits(finished_feeds_burst=2, finished_feeds_per_minute=6)  # then one every 10 s
    async with Servers(tmp_path, limits, clock=lambda: now[0]) as servers, aiohttp.ClientSession() as session:
        row = await ended_match(servers.arena, servers.store, "r", games=2)
        url = f"{servers.base}/api/match/{row.id}/feed"
        for _ in range(2):
            assert [k for k, _ in await read_feed(session, url)] == ["update", "update", "end"]
        async with session.get(url) as refused:
            assert refused.status == 429 and refused.headers["Retry-After"] == "10"
            error = (await refused.json())["error"]
        assert "--finished-feeds-burst 2" in error and "--finished-feeds-per-minute 6" in error and "try again in 10 s" in error
        with pytest.raises(grpc.aio.AioRpcError) as err:
            await servers.watch(referee_pb2.WatchRequest(match_id=row.id)).read()
        assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and "--finished-feeds-burst 2" in str(err.value.details())
        organiser = [u async for u in servers.watch(referee_pb2.WatchRequest(match_id=row.id),
                                                     metadata=(("authorization", f"Bearer {ADMIN}"),))]
        assert len(organiser) == 2
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(OTHER_HOST, 0))) as other:
            assert len(await read_feed(other, url)) == 3
        now[0] += 10  # one more token
        assert len(await read_feed(session, url)) == 3
        async with session.get(url) as refused:
            assert refused.status == 429


@pytest.mark.asyncio
async def test_a_host_told_to_wait_is_refused_at_accept_until_its_wait_is_over(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The bench's twelve clients asking again as soon as they are told 429 (200 refusals a second,
    each a parse, a store read and an answer on the referee's loop, cut the match to 0.55x): the
    429 closes its connection, and until its Retry-After is over the host's new connections are
    closed as soon as accepted, with no byte answered and no store read; another host is served
    meanwhile, and the host again once the wait is over. A host over its rate is refused before
    the store is read."""
    now = [1000.0]
    limits = StreamLimits(finished_feeds_burst=1, finished_feeds_per_minute=6)  # then one every 10 s
    async with Servers(tmp_path, limits, clock=lambda: now[0]) as servers:
        row = await ended_match(servers.arena, servers.store, "c", games=1)
        reads: list[str] = []
        match = servers.store.match
        monkeypatch.setattr(servers.store, "match", lambda match_id, *a: reads.append(match_id) or match(match_id, *a))
        port = int(servers.base.rsplit(":", 1)[1])
        request = f"GET /api/match/{row.id}/feed HTTP/1.1\r\nHost: x\r\n\r\n".encode()

        async def ask(source: str = "127.0.0.1") -> bytes:
            """One request on a connection of its own, read until the referee closes it."""
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
            writer.write(request)
            answer = await reader.read()  # to the close: the feed's end, or the refusal
            writer.close()
            return answer

        assert (await ask()).startswith(b"HTTP/1.1 200") and reads == [row.id]
        refused = await ask()  # its bucket is empty: told to wait 10 s, before any store read
        assert refused.startswith(b"HTTP/1.1 429") and b"Retry-After: 10" in refused and reads == [row.id]
        for _ in range(3):  # asking again at once: closed at accept, not a byte of an answer
            assert await ask() == b""
        assert reads == [row.id]
        assert (await ask(OTHER_HOST)).startswith(b"HTTP/1.1 200")
        now[0] += 9.9
        assert await ask() == b""
        now[0] += 0.1  # the wait is over, and a token is back
        assert (await ask()).startswith(b"HTTP/1.1 200")


@pytest.mark.asyncio
async def test_feeds_asked_for_all_at_once_from_one_host_get_no_more_than_its_share(tmp_path: Path) -> None:
    """The bench's hog asking for 250 feeds at once: those asked for while the first ones still
    wait for the store are counted too, so the host holds at most its --http-max-feeds-per-host."""
    limits = StreamLimits(max_feeds_per_host=2, finished_feeds_burst=30)
    async with Servers(tmp_path, limits) as servers:
        row = await ended_match(servers.arena, servers.store, "a", games=1)
        gate = servers.arena.replays.render = Gate(servers.arena.replays.render, hold_from=0)  # feeds held open
        url = f"{servers.base}/api/match/{row.id}/feed"

        async def status() -> int | str:
            async with aiohttp.ClientSession() as session:  # a connection each, as the hog's
                try:
                    async with session.get(url) as answer:
                        if answer.status == 200:  # held open until the others are answered
                            await gate.release.wait()
                            await answer.read()
                        return answer.status
                except aiohttp.ClientError as e:  # closed at accept: the host was told to wait
                    return type(e).__name__

        tasks = [asyncio.create_task(status()) for _ in range(20)]
        await until("every feed answered", lambda: sum(t.done() for t in tasks) >= 18)
        answered = [t.result() for t in tasks if t.done()]
        assert 200 not in answered and answered.count(429) >= 1 and len(answered) == 18, answered
        gate.release.set()
        assert (await asyncio.gather(*tasks)).count(200) == 2


@pytest.mark.asyncio
async def test_a_host_reading_ended_matches_as_fast_as_it_can_is_sent_them_at_its_pace(tmp_path: Path) -> None:
    """The bench's Watch of a 1,500-game match re-opened in a loop (2,000 writes a second on the
    referee's loop): what one host's ended-match feeds and Watch streams are sent is paced,
    together, at --finished-feeds-kib-per-s (a second's worth at once); the organiser's Watch is
    not paced."""
    now = [1000.0]
    waits: list[float] = []

    async def sleep(seconds: float) -> None:  # the fake clock moves as the pace waits
        waits.append(seconds)
        now[0] += seconds

    limits = StreamLimits(finished_feeds_kib_per_s=1)
    async with Servers(tmp_path, limits, clock=lambda: now[0]) as servers, aiohttp.ClientSession() as session:
        row = await ended_match(servers.arena, servers.store, "p", games=3)
        servers.arena.replays.sleep = sleep
        organiser = [u async for u in servers.watch(referee_pb2.WatchRequest(match_id=row.id),
                                                     metadata=(("authorization", f"Bearer {ADMIN}"),))]
        assert len(organiser) == 3 and waits == []
        watched = [u.ByteSize() for u in [u async for u in servers.watch(referee_pb2.WatchRequest(match_id=row.id))]]
        assert len(watched) == 3 and min(watched) > 1024, watched  # each game more than a second's worth
        sent = sum(watched)
        assert len(waits) == 3 and sum(waits) == pytest.approx((sent - 1024) / 1024, abs=0.01), (waits, sent)
        waits.clear()
        await read_feed(session, f"{servers.base}/api/match/{row.id}/feed")  # the same host's feed: in the same debt
        assert len(waits) == 3 and all(w > 1 for w in waits)


def test_one_host_holds_at_most_its_feeds(tmp_path: Path) -> None:
    """The audit's one client holding all 200 feeds: `mizerka serve --http-max-feeds-per-host 2`
    refuses a third from one host (429, naming the flag) while another host is served, and gives
    the host its place again once it closes a feed."""
    with referee(tmp_path, "--http-port", "0", "--http-max-feeds-per-host", "2") as ref:
        port = web_port(ref)
        match_id = _live_match(ref, "h", seed="hosts", games=3)
        path = f"/api/match/{match_id}/feed"
        url = f"http://127.0.0.1:{port}{path}"
        held = [_Feed(url) for _ in range(2)]
        for feed in held:
            assert feed.next()[0] == "update"
        status, body = get(url)
        assert status == 429 and "your host already holds 2 match feeds" in body["error"], body
        assert "--http-max-feeds-per-host 2" in body["error"]
        other = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(OTHER_HOST, 0))
        other.request("GET", path)
        answer = other.getresponse()
        assert answer.status == 200 and answer.readline() == b"event: update\n"
        other.close()
        held.pop().close()
        deadline = time.monotonic() + 60
        while True:  # the referee notices the closed connection at its next write to it
            try:
                again = _Feed(url)
            except urllib.error.HTTPError as e:  # still 429
                assert e.code == 429 and time.monotonic() < deadline, e
                time.sleep(0.1)
                continue
            except (urllib.error.URLError, ConnectionError) as e:  # closed at accept: the 429's wait (1 s) not over
                assert time.monotonic() < deadline, e
                time.sleep(0.1)
                continue
            assert again.next()[0] == "update"
            again.close()
            break
        held[0].close()


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
