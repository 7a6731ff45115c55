"""The C++ example bot (clients/cpp) against a real referee: full games of mizerka and
manni-major, a refused action answered correctly, parallel streams, reconnecting and leaving.

The bot is built with `make -C clients/cpp` (cmake, Debian's libgrpc++-dev, protobuf-compiler-grpc,
libprotobuf-dev, protobuf-compiler, pkg-config; .ci/run installs them). This module builds it
(incrementally) itself. When those packages are not installed it is skipped, and the reason is
printed (pytest -ra): never silently."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

from harness import BIN, ROOT, Referee, referee
from mizerka.v1 import arena_pb2

CPP_DIR = ROOT / "clients" / "cpp"
BOT = CPP_DIR / "build" / "mizerka-cpp-bot"
FINISHED = arena_pb2.MATCH_STATUS_FINISHED
DEALS = {"mizerka": 18, "manni-major": 18, "mizerka-short": 9}
PACKAGES = "libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler cmake pkg-config"


def missing_build_tools() -> list[str]:
    """What the C++ build needs and this machine lacks."""
    missing = [tool for tool in ("cmake", "pkg-config", "protoc", "grpc_cpp_plugin", "c++") if shutil.which(tool) is None]
    if shutil.which("pkg-config") is not None:
        for module in ("grpc++", "protobuf"):
            if subprocess.run(["pkg-config", "--exists", module]).returncode != 0:
                missing.append(f"pkg-config module {module}")
    return missing


@pytest.fixture(scope="module")
def cpp_bot() -> str:
    missing = missing_build_tools()
    if missing:
        pytest.skip(f"C++ bot not built: missing {', '.join(missing)} (install the Debian packages {PACKAGES}; "
                    ".ci/run does)")
    done = subprocess.run(["make", "-C", str(CPP_DIR)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"make -C clients/cpp failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    assert BOT.is_file()
    return str(BOT)


def start_bot(ref: Referee, cpp_bot: str, token: str, log: Path, **env: str) -> subprocess.Popen[str]:
    """Start the C++ bot with the launch contract (plus ``env``); stopped with the referee."""
    return ref.bot(token, "env", *(f"{k}={v}" for k, v in env.items()), cpp_bot, log=log)


def wait_for(path: Path, text: str, timeout: float = 10) -> str:
    """The file's content once it contains ``text`` (a bot's log lags the referee's results a little)."""
    deadline = time.monotonic() + timeout
    while True:
        content = path.read_text() if path.exists() else ""
        if text in content or time.monotonic() > deadline:
            return content
        time.sleep(0.05)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def opponents(ref: Referee) -> list[str]:
    """The Python SDK's heuristic bot and a proto-only bot that always sends the first legal action."""
    admin = ref.arena()
    heuristic_id, token = admin.register("sdk-heuristic")
    ref.bot(token, str(BIN / "mizerka-bot"), "heuristic")
    proto_id, token = admin.register("protobot")
    ref.protobot(token, "play")
    return [heuristic_id, proto_id]


def assert_clean(game: arena_pb2.GameResult, preset: str) -> None:
    assert len([r for r in game.results if not r.void and not r.tiebreak]) == DEALS[preset]
    for s in game.seats:
        assert (s.timeouts, s.refusals, s.defaults_applied) == (0, 0, 0), s
        assert not s.forfeited and not s.disconnected, s


# Both ways events reach a bot: folded into the next DecisionRequest (the default), or each at once
# in an EventBatch (Hello.live_events, asked for with MIZERKA_LIVE_EVENTS=1).
@pytest.mark.parametrize(("preset", "live"), [("mizerka", False), ("manni-major", True)])
def test_the_cpp_bot_plays_full_games_cleanly_and_sensibly(tmp_path: Path, cpp_bot: str, preset: str, live: bool) -> None:
    log = tmp_path / "cpp.log"
    with referee(tmp_path) as ref:
        admin = ref.arena()
        bot_id, token = admin.register("cpp-bot")
        start_bot(ref, cpp_bot, token, log, MIZERKA_LIVE_EVENTS="1" if live else "0")
        match = admin.wait(admin.create(preset, [bot_id, *opponents(ref)], seed=f"cpp-{preset}", games=2), timeout_s=60)
    assert match.status == FINISHED
    for game in match.results:
        assert_clean(game, preset)
        # It plays sensibly: far ahead of the bot that always plays its first legal action.
        assert game.seats[0].total > game.seats[2].total, [s.total for s in game.seats]
    text = wait_for(log, "game over", 5)
    ends = re.findall(r"game over: .*?(\d+) events \((\d+) in EventBatches, (\d+) with decisions\), (\d+) deals ended", text)
    assert len(ends) == 2, text
    for events, batched, folded, deals in (tuple(map(int, e)) for e in ends):
        assert deals == DEALS[preset], text  # every deal's end seen once: nothing lost, nothing twice
        assert events == batched + folded
        assert (batched > folded) if live else (folded > batched), text


def test_the_cpp_bot_answers_a_refused_action_then_plays_legally(tmp_path: Path, cpp_bot: str) -> None:
    log = tmp_path / "cpp.log"
    with referee(tmp_path) as ref:
        admin = ref.arena()
        bot_id, token = admin.register("cpp-bad-first")
        start_bot(ref, cpp_bot, token, log, MIZERKA_TEST_BAD_FIRST="1")
        match = admin.wait(admin.create("mizerka-short", [bot_id, *opponents(ref)], seed="cpp-refused"), timeout_s=60)
    assert match.status == FINISHED
    text = wait_for(log, "game over")
    assert "action refused: STALE_TURN" in text and "retry false" in text, text
    assert "action refused: CARD_NOT_HELD" in text and "retrying turn" in text, text
    seat = match.results[0].seats[0]
    assert seat.refusals >= 1
    assert (seat.defaults_applied, seat.timeouts, seat.forfeited) == (0, 0, False)


def test_one_cpp_process_plays_parallel_streams_and_leaves_after_its_games(tmp_path: Path, cpp_bot: str) -> None:
    log = tmp_path / "cpp.log"
    with referee(tmp_path) as ref:
        admin = ref.arena()
        bot_id, token = admin.register("cpp-x3")
        proc = start_bot(ref, cpp_bot, token, log, MIZERKA_PARALLEL="3", MIZERKA_GAMES="3")
        match = admin.wait(admin.create("mizerka-short", [bot_id] * 3, seed="cpp-parallel"), timeout_s=60)
        assert match.status == FINISHED
        assert_clean(match.results[0], "mizerka-short")
        assert proc.wait(timeout=15) == 0  # three games over (one per stream): it closes its streams
    text = log.read_text()
    assert text.count("connected as cpp-x3") == 3 and text.count("game over") == 3, text
    assert "done: 3 games" in text


def test_the_cpp_bot_retries_until_the_referee_is_up_and_exits_when_it_stops(tmp_path: Path, cpp_bot: str) -> None:
    port = free_port()
    with referee(tmp_path, "--port", str(port)) as ref:  # register the bots, then stop the referee
        admin = ref.arena()
        bot_id, token = admin.register("cpp-patient")
        others = [admin.register(f"proto{i}") for i in range(2)]
    log = tmp_path / "cpp.log"
    env = dict(os.environ, MIZERKA_SERVER=f"127.0.0.1:{port}", MIZERKA_TOKEN=token)
    with open(log, "w") as out:
        proc = subprocess.Popen([cpp_bot], env=env, stdout=out, stderr=subprocess.STDOUT, text=True)
    try:
        assert "reconnecting to" in wait_for(log, "reconnecting to"), log.read_text()
        time.sleep(0.5)  # a few attempts with backoff
        assert proc.poll() is None, "the bot gave up while the referee was down"
        with referee(tmp_path, "--port", str(port)) as ref:
            for _, t in others:
                ref.protobot(t, "play")
            admin = ref.arena()
            match = admin.wait(admin.create("mizerka-short", [bot_id] + [b for b, _ in others], seed="cpp-late"), timeout_s=60)
            assert match.status == FINISHED
            assert_clean(match.results[0], "mizerka-short")
            assert "game over" in wait_for(log, "game over")
        # The referee shut down: it ends idle streams with status OK and the bot leaves cleanly.
        assert proc.wait(timeout=15) == 0, log.read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    text = log.read_text()
    assert "UNAVAILABLE" in text and "the stream ended (status OK)" in text, text


def test_the_cpp_bot_stops_on_bad_settings_and_on_a_refused_token(tmp_path: Path, cpp_bot: str) -> None:
    bot = [cpp_bot]
    env = dict(os.environ, MIZERKA_TOKEN="t", MIZERKA_PARALLEL="0")
    done = subprocess.run(bot, env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "MIZERKA_PARALLEL" in done.stderr
    env = {k: v for k, v in os.environ.items() if k != "MIZERKA_TOKEN"}
    done = subprocess.run(bot, env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "MIZERKA_TOKEN" in done.stderr
    with referee(tmp_path) as ref:
        env = dict(os.environ, MIZERKA_SERVER=ref.address, MIZERKA_TOKEN="not-a-token")
        done = subprocess.run(bot, env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 1 and "UNAUTHENTICATED" in done.stderr, done.stdout + done.stderr
