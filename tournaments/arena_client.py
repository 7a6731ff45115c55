"""A blocking client of the referee's Arena API (the league runner calls it from worker threads)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import grpc
from google.protobuf import struct_pb2

from mizerka_proto import arena_pb2, arena_pb2_grpc
from server.protocol import clock_to_proto
from server.settings import ClockSettings

RETRYABLE = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.CANCELLED)


class ArenaClient:
    def __init__(self, address: str, admin_token: str) -> None:
        self.address = address
        self.channel = grpc.insecure_channel(address)
        self.stub = arena_pb2_grpc.ArenaStub(self.channel)
        self.metadata = (("authorization", f"Bearer {admin_token}"),)

    def close(self) -> None:
        self.channel.close()

    def register(self, name: str) -> tuple[str, str]:
        r = self.stub.RegisterBot(arena_pb2.RegisterBotRequest(name=name), metadata=self.metadata, timeout=30)
        return r.bot_id, r.token

    def create(
        self, preset: str, options: Mapping[str, Any], seed: str, clock: ClockSettings, seats: Sequence[str],
        forfeits: Sequence[int] = (),
    ) -> str:
        opts = struct_pb2.Struct()
        opts.update(dict(options))
        request = arena_pb2.CreateMatchRequest(
            preset=preset, options=opts, seed_text=seed, games=1, clock=clock_to_proto(clock), seats=list(seats),
            forfeit_seats=list(forfeits),
        )
        return self.stub.CreateMatch(request, metadata=self.metadata, timeout=30).match_id

    def wait(self, match_id: str, timeout_ms: int) -> arena_pb2.Match:
        request = arena_pb2.WaitMatchRequest(match_id=match_id, timeout_ms=timeout_ms)
        return self.stub.WaitMatch(request, metadata=self.metadata, timeout=timeout_ms / 1000 + 30).match

    def match(self, match_id: str) -> arena_pb2.Match:
        return self.stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id), metadata=self.metadata, timeout=30).match

    def streams(self, bot_id: str) -> int:
        return self.stub.GetBot(arena_pb2.GetBotRequest(bot_id=bot_id), metadata=self.metadata, timeout=10).streams
