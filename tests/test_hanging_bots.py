"""A bot that hangs -- never answers, never even reads its stream -- is recorded as what it is:
timeouts, then forfeited, never disconnected, however fast the referee plays out the rest of the
game once every seat is forfeited (it sends a forfeited seat nothing until the game's end, so no
messages pile up unread on its stream until it is cut off).

A real `mizerka serve` on 127.0.0.1 (tests/harness.py); the hanging bots are grpcio streams whose
replies are never read. Timing is never asserted."""

from __future__ import annotations

import json
import queue
import subprocess
from pathlib import Path

import grpc
import pytest

from mizerka_proto import arena_pb2, game_pb2, referee_pb2, referee_pb2_grpc

from harness import BIN, Referee, referee

GAMES = 10  # enough games, each played out at full speed, to overflow the unread limit many times over
CLOCK = game_pb2.Clock(decision_ms=50, bank_ms=0, max_strikes=2)


class Hanging:
    """A Play stream that says Hello (asking for live events: the most messages) and never reads."""

    def __init__(self, address: str, token: str) -> None:
        self.out: queue.Queue[referee_pb2.BotMessage | None] = queue.Queue()
        self.out.put(referee_pb2.BotMessage(hello=referee_pb2.Hello(token=token, name="hanging", live_events=True)))
        self.channel = grpc.insecure_channel(address, options=[("grpc.http2.bdp_probe", 0)])  # a fixed receive window
        self.call = referee_pb2_grpc.RefereeStub(self.channel).Play(iter(self.out.get, None))

    def close(self) -> None:
        self.out.put(None)
        self.call.cancel()
        self.channel.close()


def wait_seated(ref: Referee, bot_ids: list[str]) -> None:
    """Until every hanging stream has been welcomed (it waits idle in the lobby)."""
    admin = ref.arena()
    for bot_id in bot_ids:
        while admin.stub.GetBot(arena_pb2.GetBotRequest(bot_id=bot_id), metadata=admin.metadata).idle_streams < 1:
            pass


@pytest.mark.parametrize("others", ["forfeited", "hanging"])
def test_a_hanging_bot_times_out_and_is_forfeited_never_disconnected(tmp_path: Path, others: str) -> None:
    with referee(tmp_path) as ref:
        admin = ref.arena()
        bots = [admin.register(f"hang{i}") for i in range(3)]
        hanging_seats = [0] if others == "forfeited" else [0, 1, 2]
        streams = [Hanging(ref.address, bots[s][1]) for s in hanging_seats]
        try:
            wait_seated(ref, [bots[s][0] for s in hanging_seats])
            request = arena_pb2.CreateMatchRequest(
                preset="mizerka", seed_text="hang", games=GAMES, seats=[b for b, _ in bots], clock=CLOCK,
                forfeit_seats=[s for s in range(3) if s not in hanging_seats],
            )
            match_id = admin.stub.CreateMatch(request, metadata=admin.metadata).match_id
            match = admin.wait(match_id)
        finally:
            for stream in streams:
                stream.close()
        assert match.status == arena_pb2.MATCH_STATUS_FINISHED and len(match.results) == GAMES
        for game in match.results:
            for s in hanging_seats:
                seat = game.seats[s]
                assert (seat.timeouts, seat.forfeited, seat.disconnected) == (2, True, False), (game.game_number, s)
        exported = subprocess.run([str(BIN / "mizerka"), "match", "export", match_id, "--db", str(ref.db)],
                                  capture_output=True, text=True, check=True).stdout
    lines = [json.loads(line) for line in exported.splitlines()]
    defaults = {line["default"] for line in lines if line.get("seat") in hanging_seats and "default" in line}
    assert defaults == {"TIMEOUT", "FORFEITED"}
    assert not [line for line in ref.log_lines() if "does not read" in line["event"]]
