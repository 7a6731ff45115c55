"""Watch streams of one live match share its spectator projection (server/watch.py, SpectatorFeed):
each state is projected once however many stream watch it, and every stream, early or late, still
gets each game's events whole and in order. A real gRPC server on 127.0.0.1, real bot streams."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import grpc
import pytest

from mizerka_engine.rules import load_ruleset
from mizerka_engine.views import SPECTATOR, project_events
from mizerka_proto import events_pb2, referee_pb2, referee_pb2_grpc
from server.arena import Arena
from server.codec.wire_events import EventEncoder
from server.records import replay_stored
from server.settings import ClockSettings, StreamLimits
from server.storage.store import Store
from server.transport.service import start_server

from harness import ADMIN, first_legal

EARLY, LATE = 8, 3  # watchers from the start, and joining mid-match


async def bot(stub: referee_pb2_grpc.RefereeStub, token: str) -> None:
    """Answers every DecisionRequest with its first legal action a few ms later (a match to watch)."""
    call = stub.Play()
    await call.write(referee_pb2.BotMessage(hello=referee_pb2.Hello(token=token, name="slow", version="test")))
    while (message := await call.read()) != grpc.aio.EOF:
        if message.WhichOneof("message") == "decision_request":
            action = first_legal(message.decision_request)
            await asyncio.sleep(0.002)
            await call.write(referee_pb2.BotMessage(action=action))


async def watch(stub: referee_pb2_grpc.RefereeStub, match_id: str) -> list[referee_pb2.WatchUpdate]:
    return [u async for u in stub.Watch(referee_pb2.WatchRequest(match_id=match_id))]


def live_events(updates: list[referee_pb2.WatchUpdate]) -> dict[int, list[events_pb2.Event]]:
    """Each game's events as the stream's live updates brought them, in order."""
    out: dict[int, list[events_pb2.Event]] = {}
    for u in updates:
        if not u.full and not u.match_over:
            out.setdefault(u.game_number, []).extend(u.events)
    return out


@pytest.mark.asyncio
async def test_watchers_of_a_match_share_its_projection_and_each_gets_every_event(tmp_path: Path) -> None:
    store = Store(tmp_path / "arena.sqlite")
    arena = Arena(store, ClockSettings(), limits=StreamLimits(max_watchers_per_host=EARLY + LATE))  # all from here
    bots = [store.add_bot(f"bot{i}") for i in range(3)]
    server, port = await start_server(arena, "127.0.0.1", 0, ADMIN)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = referee_pb2_grpc.RefereeStub(channel)
            row = arena.create("mizerka-short", {}, "feed", 2, ClockSettings(), [b.id for b, _ in bots])
            live = arena.live[row.id]
            players = [asyncio.create_task(bot(stub, token)) for _, token in bots]
            early = [asyncio.create_task(watch(stub, row.id)) for _ in range(EARLY)]
            while live.runner is None or len(live.runner.game.log) < 40 or live.changes.watchers < EARLY:
                await asyncio.sleep(0.01)  # well into the first game, every early watcher in
            feed = live.feed
            late = [asyncio.create_task(watch(stub, row.id)) for _ in range(LATE)]
            streams = await asyncio.wait_for(asyncio.gather(*early, *late), timeout=120)
            for player in players:  # the match is over; its bots would wait in the lobby for the next
                player.cancel()
    finally:
        await server.stop(0)
    rules = load_ruleset("mizerka-short")
    expected = {}
    stored = store.match(row.id)
    assert stored is not None
    for index in range(2):
        expected[index] = EventEncoder(rules).encode_all(project_events(replay_stored(store, stored, index), SPECTATOR, 0))
    for number, updates in enumerate(streams):
        got = live_events(updates)
        assert got[1] == expected[1], f"stream {number}: game 1's events, whole and in order"
        assert got[0] == expected[0], f"stream {number} (late: {number >= EARLY}): game 0's events from its first"
    sent = sum(1 for updates in streams for u in updates if not u.full and not u.match_over)
    assert feed is not None
    # Unshared, every update is a projection of its own; shared, the watchers of one moment need one.
    assert feed.projections * 3 <= sent, (feed.projections, sent)
    assert live.feed is None and live.changes.latest == {}  # the last watcher gone, nothing kept for nobody
    store.close()


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
