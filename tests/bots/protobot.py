"""A bot written from the proto alone (generated stubs + grpcio), with misbehaviours for tests.

Usage: protobot.py MODE  (server and token from MIZERKA_SERVER / MIZERKA_TOKEN)
  play          answer every decision at once with the first legal action (an empty exchange)
  slow:MS       the same after MS milliseconds
  eager:MS      slow:MS, but announcing the first major it may (manni-major) rather than passing
  spy:PATH      play, and write every message received to PATH (one text-format message per line)
  hang          read everything, never answer
  garbage:PATH  answer each decision with junk first (no action, a card that is not a card, a stale
                turn, a card not held), then legally; write the error codes received to PATH
  die:N         exit abruptly (no goodbye) on the N-th decision
  crash-once    exit with status 3 before connecting the first time it runs with this HOME (in a
                league's sandbox: one scratch folder per bot and runner or worker), then play
  hang-once     hang the first time it runs with this HOME (the same scratch folder), then play
It plays until the stream ends or MIZERKA_GAMES games are over. LC_PROTOBOT_MODE, where set,
replaces MODE (after crash-once's exit, hang-once's mark): a worker's environment reaches its bots
only through the allowlist, LC_* included, so a test can make the bots of one worker behave unlike
another's.
"""

from __future__ import annotations

import os
import queue
import sys
from pathlib import Path

import grpc
from google.protobuf import text_format

from mizerka_proto import game_pb2, referee_pb2, referee_pb2_grpc


def legal(request: referee_pb2.DecisionRequest, eager: bool = False) -> game_pb2.Action:
    if request.kind == referee_pb2.DECISION_KIND_EXCHANGE:
        return game_pb2.Action(turn=request.turn, exchange_cards=game_pb2.ExchangeCards())
    if request.kind == referee_pb2.DECISION_KIND_MAJOR and not eager:  # the majors come before the pass
        return game_pb2.Action(turn=request.turn, announce_major=game_pb2.AnnounceMajor())
    return request.legal_actions[0]


def junk(request: referee_pb2.DecisionRequest) -> list[game_pb2.Action]:
    me = request.view.seat
    held = {c for p in request.view.players if p.seat == me for c in p.hand}
    not_held = next(r + s for s in "SHDC" for r in "23456789TJQKA" if r + s not in held)
    return [
        game_pb2.Action(turn=request.turn),
        game_pb2.Action(turn=request.turn, play_card=game_pb2.PlayCard(card="1Z")),
        game_pb2.Action(turn=request.turn + 1000, play_card=game_pb2.PlayCard(card=not_held)),
        game_pb2.Action(turn=request.turn, play_card=game_pb2.PlayCard(card=not_held)),
    ]


def main() -> None:
    given = sys.argv[1]
    if given == "crash-once":
        marker = Path(os.environ["HOME"]) / "protobot-crashed-once"
        if not marker.exists():
            marker.touch()
            os._exit(3)
        given = "play"
    elif given == "hang-once":
        marker = Path(os.environ["HOME"]) / "protobot-hung-once"
        given = "play" if marker.exists() else "hang"
        marker.touch()
    mode, _, arg = os.environ.get("LC_PROTOBOT_MODE", given).partition(":")
    games_left = int(os.environ.get("MIZERKA_GAMES", "0")) or None
    outbox: queue.Queue[referee_pb2.BotMessage | None] = queue.Queue()
    outbox.put(referee_pb2.BotMessage(hello=referee_pb2.Hello(token=os.environ["MIZERKA_TOKEN"], name="protobot", version=mode)))
    channel = grpc.insecure_channel(os.environ["MIZERKA_SERVER"])
    stream = referee_pb2_grpc.RefereeStub(channel).Play(iter(outbox.get, None))
    dump = open(arg, "w") if mode in ("spy", "garbage") else None  # noqa: SIM115
    decisions = 0
    try:
        for message in stream:
            kind = message.WhichOneof("message")
            if mode == "spy" and dump:
                dump.write(text_format.MessageToString(message, as_one_line=True) + "\n")
                dump.flush()
            if kind == "action_error" and mode == "garbage" and dump:
                dump.write(message.action_error.code + "\n")
                dump.flush()
            if kind == "game_end" and games_left is not None:
                games_left -= 1
                if games_left == 0:
                    break
            if kind != "decision_request":
                continue
            request = message.decision_request
            decisions += 1
            if mode == "hang":
                continue
            if mode == "die" and decisions == int(arg):
                os._exit(3)
            if mode in ("slow", "eager"):
                import time

                time.sleep(int(arg) / 1000)
            for action in (junk(request) if mode == "garbage" else []) + [legal(request, mode == "eager")]:
                outbox.put(referee_pb2.BotMessage(action=action))
    except grpc.RpcError as e:
        print(f"protobot: stream ended: {e.code().name}: {e.details()}", file=sys.stderr)
        sys.exit(2 if e.code() != grpc.StatusCode.CANCELLED else 0)
    finally:
        outbox.put(None)


if __name__ == "__main__":
    main()
