"""Capacity: many streams connecting at once, many matches at once, many games one after another.

What is checked is correctness under load, never speed: every stream connecting at once is
admitted and seated (none lost, no seat played by default for the referee's sake), and the
referee's memory stays flat over thousands of finished games (counted in objects, not bytes). The
load is sized for a 2-core CI machine; tests/bench/bench_load.py measures the real thing.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import gc
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import struct_pb2

from mizerka_proto import arena_pb2, arena_pb2_grpc, game_pb2, referee_pb2, referee_pb2_grpc
from server.arena import Arena, LiveMatch
from server.referee.match import GameRunner, SeatPort
from server.referee.session import GameSession
from server.settings import ClockSettings
from server.storage.store import Bot, Store
from server.transport.streams import StreamSeat

from harness import ADMIN, first_legal, referee

METADATA = (("authorization", f"Bearer {ADMIN}"),)
SHORT = {"deals": 3}  # mizerka-short games of three deals: about 130 decisions each
PATIENT = game_pb2.Clock(decision_ms=600_000, max_strikes=0)  # a slow CI machine never times a bot out




async def trivial_bot(stub: referee_pb2_grpc.RefereeStub, token: str, outcome: collections.Counter[str]) -> None:
    """One stream: Hello, then every DecisionRequest answered at once, until the referee ends it."""
    call = stub.Play()
    try:
        await call.write(referee_pb2.BotMessage(hello=referee_pb2.Hello(token=token, name="capacity")))
        welcome = await call.read()
        outcome["welcomed" if welcome != grpc.aio.EOF and welcome.HasField("welcome") else "not welcomed"] += 1
        while (message := await call.read()) != grpc.aio.EOF:
            if message.HasField("decision_request"):
                await call.write(referee_pb2.BotMessage(action=first_legal(message.decision_request)))
        outcome["ended by the referee"] += 1
    except grpc.aio.AioRpcError as e:
        outcome[f"failed: {e.code().name} {e.details()}"] += 1


@pytest.mark.asyncio
@pytest.mark.timeout(600)
async def test_three_hundred_streams_connecting_at_once_are_all_seated_and_play_every_move(tmp_path: Path) -> None:
    """100 matches of three bots, created while their 300 streams connect all at once over a few
    channels: every stream is welcomed, every match finishes with every move made by its bot."""
    teams, per_team = 2, 50  # 50 streams per bot: below max_streams_per_bot
    with referee(tmp_path) as ref:
        async with grpc.aio.insecure_channel(ref.address) as admin_channel:
            admin = arena_pb2_grpc.ArenaStub(admin_channel)
            bots = [await admin.RegisterBot(arena_pb2.RegisterBotRequest(name=f"cap{t}-{s}"), metadata=METADATA)
                    for t in range(teams) for s in range(3)]
            channels = [grpc.aio.insecure_channel(ref.address, options=[("grpc.use_local_subchannel_pool", 1)])
                        for _ in range(6)]
            outcome: collections.Counter[str] = collections.Counter()
            streams = [asyncio.create_task(trivial_bot(referee_pb2_grpc.RefereeStub(channels[i % len(channels)]),
                                                       bot.token, outcome))
                       for i, bot in enumerate(b for b in bots for _ in range(per_team))]
            options = struct_pb2.Struct()
            options.update(SHORT)
            created = await asyncio.gather(*(
                admin.CreateMatch(arena_pb2.CreateMatchRequest(
                    preset="mizerka-short", options=options, seed_text=f"cap-{m}", clock=PATIENT,
                    seats=[b.bot_id for b in bots[3 * (m % teams):3 * (m % teams) + 3]]), metadata=METADATA)
                for m in range(teams * per_team)))
            done = await asyncio.gather(*(
                admin.WaitMatch(arena_pb2.WaitMatchRequest(match_id=c.match_id, timeout_ms=500_000), metadata=METADATA)
                for c in created))
            assert outcome == {"welcomed": len(streams)}  # every stream admitted, none ended or failed
            await asyncio.to_thread(ref.terminate)  # every stream ends with status OK
            await asyncio.gather(*streams)
            for channel in channels:
                await channel.close()
    assert outcome == {"welcomed": 300, "ended by the referee": 300}
    assert not any(d.timed_out for d in done)
    assert {d.match.status for d in done} == {arena_pb2.MATCH_STATUS_FINISHED}
    seats = [s for d in done for game in d.match.results for s in game.seats]
    assert len(seats) == 300
    assert not [s for s in seats if s.defaults_applied or s.timeouts or s.disconnected or s.forfeited]
    warnings = [line for line in ref.log_lines() if line.get("level") == "warning"]
    assert not warnings, warnings[:3]


# ----------------------------------------------------------------------------------- memory
class AutoSeat(SeatPort):
    """A seat for the Lobby whose bot answers every request at once, without gRPC: what the Arena
    keeps per game is the same as with a StreamSeat."""

    live_events = False

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.closed = asyncio.Event()
        self.answers: asyncio.Queue[referee_pb2.BotMessage] = asyncio.Queue()

    async def send(self, message: referee_pb2.RefereeMessage) -> None:
        if message.HasField("decision_request"):
            self.answers.put_nowait(referee_pb2.BotMessage(action=first_legal(message.decision_request)))

    async def receive(self) -> referee_pb2.BotMessage:
        return await self.answers.get()

    def start_game(self) -> None:
        pass

    def end_game(self) -> None:
        pass


KINDS = (GameRunner, GameSession, LiveMatch, StreamSeat, asyncio.Task)


def census() -> dict[str, Any]:
    """What the process holds after a full collection: all tracked objects, and those of the kinds
    a finished game or match could leave behind. The server's memoizing caches are bounded (checked
    here) and emptied first, so that only growth without a bound shows."""
    caches = [o for o in gc.get_objects()
              if isinstance(o, functools._lru_cache_wrapper) and getattr(o, "__module__", "").startswith("server.")]
    assert caches and all(c.cache_parameters()["maxsize"] is not None for c in caches)
    for cache in caches:
        cache.cache_clear()
    gc.collect()
    objects = gc.get_objects()
    kinds = collections.Counter(type(o).__name__ for o in objects if isinstance(o, KINDS))
    return {"objects": len(objects), **kinds}


@pytest.mark.asyncio
@pytest.mark.timeout(900)
async def test_memory_stays_flat_over_two_thousand_finished_games(tmp_path: Path) -> None:
    """20 matches at a time, 2,000 games after a warm-up of 200: no game, session, match or task
    outlives its game, the caches stay within their bounds, and the number of objects the process
    holds does not grow with the games played."""
    store = Store(tmp_path / "arena.sqlite")
    arena = Arena(store, ClockSettings())
    bots = [store.add_bot(f"mem{i}")[0] for i in range(3)]
    matches = 20
    for bot in bots:
        for _ in range(matches):
            assert arena.lobby.open(bot.id)
            arena.lobby.add(AutoSeat(bot))  # type: ignore[arg-type]

    async def play(games_each: int, tag: str) -> None:
        rows = [arena.create("mizerka-short", SHORT, f"{tag}-{m}", games_each, ClockSettings(), [b.id for b in bots])
                for m in range(matches)]
        await asyncio.gather(*(arena.live[r.id].task for r in rows if r.id in arena.live))  # type: ignore[misc]
        assert all(store.match(r.id).status == "FINISHED" for r in rows)  # type: ignore[union-attr]

    await play(10, "warm")
    before = census()
    for round_ in range(4):
        await play(25, f"round{round_}")
    after = census()
    assert len(arena.live) == 0 and len(arena.replays.cache) == 0  # no game is kept for nobody
    assert not arena.lobby._lacking and sum(len(p) for p in arena.lobby.idle.values()) == 3 * matches
    assert {k: after.get(k, 0) for k in before if k != "objects"} == {k: v for k, v in before.items() if k != "objects"}
    assert after.get("GameSession", 0) == after.get("GameRunner", 0) == after.get("LiveMatch", 0) == 0
    assert after["objects"] - before["objects"] < 0.01 * before["objects"], (before, after)
    stored = [store.match(r.id) for r in store.list_matches(limit=500)]
    assert sum(len(m.results) for m in stored if m is not None) == matches * (10 + 4 * 25)
