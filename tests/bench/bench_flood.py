"""A flooding bot against a real ``mizerka serve`` process: the hostile tester's scenario, measured.

A benchmark, not a timed test (tests/test_hostile_streams.py checks the behaviour). The referee runs
with its default limits. An innocent match (three protobots answering at once, ``--decision-ms``
per decision, no bank) plays throughout. A flooding bot sits in a second match; once its first turn
is answered it writes ``--messages`` (600,000) Actions for a turn that is not its own, opening a new
stream whenever the referee cuts the last one off (the first needs its seat in a match; the later
ones flood while no game runs on them). Printed: how many Actions the referee let each stream send
and with what status it ended it, the referee's resident memory before and after, and the innocent
match's games, timeouts and defaults during the flood.

    .venv/bin/python tests/bench/bench_flood.py [--messages 600000] [--decision-ms 1000]
"""

from __future__ import annotations

import argparse
import collections
import sys
import tempfile
import threading
import time
from pathlib import Path

import grpc

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: the harness

from mizerka_proto import game_pb2, referee_pb2, referee_pb2_grpc  # noqa: E402

from harness import Referee, referee  # noqa: E402


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def flood_stream(address: str, token: str, budget: int, seated: bool) -> tuple[int, str]:
    """One stream: Hello, (if seated) answer the first request, then Actions until cut off or
    ``budget`` are sent; returns (Actions sent, how the stream ended)."""
    sent = 0
    asked = threading.Event()
    request: list[referee_pb2.DecisionRequest] = []

    def requests():  # noqa: ANN202
        nonlocal sent
        yield referee_pb2.BotMessage(hello=referee_pb2.Hello(token=token, name="flooder"))
        if seated:
            asked.wait()
            r = request[0]
            yield referee_pb2.BotMessage(action=r.legal_actions[0] if r.legal_actions else game_pb2.Action(
                turn=r.turn, exchange_cards=game_pb2.ExchangeCards()))
        junk = referee_pb2.BotMessage(action=game_pb2.Action(turn=1_000_000, play_card=game_pb2.PlayCard(card="AS")))
        while sent < budget:
            sent += 1
            yield junk

    call = referee_pb2_grpc.RefereeStub(grpc.insecure_channel(address)).Play(requests())
    try:
        for message in call:
            if message.WhichOneof("message") == "decision_request" and not asked.is_set():
                request.append(message.decision_request)
                asked.set()
        status = "OK"
    except grpc.RpcError as e:
        status = f"{e.code().name}: {e.details()}"
    return sent, status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=600_000)
    parser.add_argument("--decision-ms", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, referee(Path(tmp)) as ref:
        run(ref, args.messages, args.decision_ms)


def run(ref: Referee, messages: int, decision_ms: int) -> None:
    admin = ref.arena()
    clock = game_pb2.Clock(decision_ms=decision_ms, max_strikes=0)
    ids = []
    for i in range(3):
        bot_id, token = admin.register(f"innocent{i}")
        ref.protobot(token, "play")
        ids.append(bot_id)
    innocent = admin.create("mizerka-short", ids, seed="innocent", games=10_000, clock=clock)
    while not admin.get(innocent).results:
        time.sleep(0.05)
    flooder_id, token = admin.register("flooder")
    victims = []
    for i in range(2):
        bot_id, victim_token = admin.register(f"victim{i}")
        ref.protobot(victim_token, "play")
        victims.append(bot_id)
    before_games, before_rss = len(admin.get(innocent).results), rss_mb(ref.process.pid)
    started = time.monotonic()
    result: list[tuple[int, str]] = []
    first = threading.Thread(target=lambda: result.append(flood_stream(ref.address, token, messages, seated=True)))
    first.start()
    time.sleep(0.5)  # the flooder's stream is in the lobby
    admin.create("mizerka-short", [flooder_id, *victims], clock=clock)
    first.join()
    total, streams = result[0][0], [result[0]]
    while total < messages:
        sent, status = flood_stream(ref.address, token, messages - total, seated=False)
        total, streams = total + max(sent, 1), [*streams, (sent, status)]
    elapsed = time.monotonic() - started
    games = admin.get(innocent).results[before_games:]
    timeouts = sum(s.timeouts for g in games for s in g.seats)
    defaults = sum(s.defaults_applied for g in games for s in g.seats)
    statuses = collections.Counter(status.split(":")[0] for _, status in streams)
    print(f"flood: {total} Actions written over {len(streams)} streams in {elapsed:.1f} s; "
          f"per stream at most {max(s for s, _ in streams)}; statuses {dict(statuses)}")
    print(f"  first cut-off: {streams[0][1]}")
    print(f"referee RSS: {before_rss:.1f} MB before, {rss_mb(ref.process.pid):.1f} MB after")
    print(f"innocent match during the flood: {len(games)} games, {timeouts} timeouts, {defaults} defaults applied")


if __name__ == "__main__":
    main()
