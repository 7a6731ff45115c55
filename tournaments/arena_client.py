"""A blocking client of the referee's Arena API (the league runner calls it from worker threads),
in plain text or over TLS: its channel is built by the SDK's :class:`~mizerka.connection.Connection`,
like every bot's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import grpc
from google.protobuf import struct_pb2

from mizerka.connection import Connection
from mizerka_proto import arena_pb2, arena_pb2_grpc
from server.codec.protocol import clock_to_proto
from server.settings import ClockSettings

RETRYABLE = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.CANCELLED)


class ArenaClient:
    def __init__(self, address: str | Connection, admin_token: str) -> None:
        """``address``: host:port (plain text, a local referee) or a resolved Connection (maybe TLS)."""
        self.connection = address if isinstance(address, Connection) else Connection(address)
        self.address = self.connection.target
        self.channel = self.connection.channel()
        self.stub = arena_pb2_grpc.ArenaStub(self.channel)
        self.metadata = (("authorization", f"Bearer {admin_token}"),)

    def close(self) -> None:
        self.channel.close()

    def register(self, name: str) -> tuple[str, str]:
        r = self.stub.RegisterBot(arena_pb2.RegisterBotRequest(name=name), metadata=self.metadata, timeout=30)
        return r.bot_id, r.token

    def create(
        self, preset: str, options: Mapping[str, Any], seed: str, clock: ClockSettings, seats: Sequence[str],
        forfeits: Sequence[int] = (), group: str = "",
    ) -> str:
        opts = struct_pb2.Struct()
        opts.update(dict(options))
        request = arena_pb2.CreateMatchRequest(
            preset=preset, options=opts, seed_text=seed, games=1, clock=clock_to_proto(clock), seats=list(seats),
            forfeit_seats=list(forfeits), group=group,
        )
        return self.stub.CreateMatch(request, metadata=self.metadata, timeout=30).match_id

    def wait(self, match_id: str, timeout_ms: int) -> arena_pb2.Match:
        request = arena_pb2.WaitMatchRequest(match_id=match_id, timeout_ms=timeout_ms)
        return self.stub.WaitMatch(request, metadata=self.metadata, timeout=timeout_ms / 1000 + 30).match

    def match(self, match_id: str) -> arena_pb2.Match:
        return self.stub.GetMatch(arena_pb2.GetMatchRequest(match_id=match_id), metadata=self.metadata, timeout=30).match

    def streams(self, bot_id: str) -> int:
        return self.stub.GetBot(arena_pb2.GetBotRequest(bot_id=bot_id), metadata=self.metadata, timeout=10).streams

    def publish(self, group: str) -> int:
        """Make the full records of every match of ``group`` public; returns how many were sealed."""
        request = arena_pb2.PublishMatchesRequest(group=group)
        return self.stub.PublishMatches(request, metadata=self.metadata, timeout=30).published

    def abort(self, group: str, reason: str, match_ids: Sequence[str] = ()) -> list[str]:
        """Stop every unfinished match of ``group`` and those named (stored ABORTED with ``reason``);
        returns their ids."""
        request = arena_pb2.AbortMatchesRequest(group=group, reason=reason, match_ids=list(match_ids))
        return list(self.stub.AbortMatches(request, metadata=self.metadata, timeout=30).match_ids)
