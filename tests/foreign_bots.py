"""Shared tests for the example bots in other languages (clients/cpp, clients/node) against a real
referee: full games of mizerka and manni-major, a refused action answered correctly, parallel
streams, reconnecting and leaving, bad settings.

Each test module (test_cpp_bot.py, test_node_bot.py) finds or builds its bot, with its own skip
reasons, and calls these with the bot's command line and a short name (``"cpp"``, ``"node"``) used
for the bots' names, the seeds and the log file."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from mizerka_proto import arena_pb2

from harness import BIN, ROOT, Referee, referee
from needs import missing
from tls_pki import TlsAdmin, make_pki

FINISHED = arena_pb2.MATCH_STATUS_FINISHED
DEALS = {"mizerka": 18, "manni-major": 18, "mizerka-short": 9}


def start_bot(ref: Referee, command: Sequence[str], token: str, log: Path, **env: str) -> subprocess.Popen[str]:
    """Start the bot with the launch contract (plus ``env``); stopped with the referee."""
    return ref.bot(token, "env", *(f"{k}={v}" for k, v in env.items()), *command, log=log)


CPP_BOT = ROOT / "clients" / "cpp" / "build" / "mizerka-cpp-bot"
NODE_DIR = ROOT / "clients" / "node"


# The example bots are built by `make clients` (which `make test` runs first), never by the tests: tests
# run in parallel would build into the same clients/ folders at once.
def built_cpp_bot() -> str:
    """The C++ bot's program. Skipped, saying why, where its build dependencies are missing."""
    check = subprocess.run(["make", "-s", "-C", str(CPP_BOT.parents[1]), "check"], capture_output=True, text=True)
    if check.returncode != 0:
        missing(f"the C++ bot cannot be built here: {check.stderr.strip()} (.ci/run installs them)")
    if not CPP_BOT.is_file():
        pytest.fail(f"{CPP_BOT} is not built: run `make clients` (`make test` does it before the tests)", pytrace=False)
    return str(CPP_BOT)


def installed_node() -> str:
    """``node``, with clients/node's dependencies installed. Skipped, saying why, without Node.js and npm."""
    node = shutil.which("node")
    if node is None or shutil.which("npm") is None:
        missing("Node.js and npm are not installed (need node >= 18 and npm to test clients/node)")
    if not (NODE_DIR / "node_modules" / "@grpc" / "grpc-js").is_dir():
        pytest.fail(f"{NODE_DIR / 'node_modules'} is not installed: run `make clients` (`make test` does it before the tests)",
                    pytrace=False)
    return node


def wait_for(path: Path, text: str, timeout: float = 10) -> str:
    """The file's content once it contains ``text`` (a bot's log lags the referee's results a little)."""
    deadline = time.monotonic() + timeout
    while True:
        content = path.read_text() if path.exists() else ""
        if text in content or time.monotonic() > deadline:
            return content
        time.sleep(0.05)


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
LIVE_EVENTS_CASES = [("mizerka", False), ("manni-major", True)]


def check_full_games_cleanly_and_sensibly(tmp_path: Path, command: Sequence[str], name: str, preset: str, live: bool) -> None:
    log = tmp_path / f"{name}.log"
    with referee(tmp_path) as ref:
        admin = ref.arena()
        bot_id, token = admin.register(f"{name}-bot")
        start_bot(ref, command, token, log, MIZERKA_LIVE_EVENTS="1" if live else "0")
        match = admin.wait(admin.create(preset, [bot_id, *opponents(ref)], seed=f"{name}-{preset}", games=2), timeout_s=60)
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


def check_refused_action_then_legal_play(tmp_path: Path, command: Sequence[str], name: str) -> None:
    log = tmp_path / f"{name}.log"
    with referee(tmp_path) as ref:
        admin = ref.arena()
        bot_id, token = admin.register(f"{name}-bad-first")
        start_bot(ref, command, token, log, MIZERKA_TEST_BAD_FIRST="1")
        match = admin.wait(admin.create("mizerka-short", [bot_id, *opponents(ref)], seed=f"{name}-refused"), timeout_s=60)
    assert match.status == FINISHED
    text = wait_for(log, "game over")
    assert "action refused: STALE_TURN" in text and "retry false" in text, text
    assert "action refused: CARD_NOT_HELD" in text and "retrying turn" in text, text
    seat = match.results[0].seats[0]
    assert seat.refusals >= 1
    assert (seat.defaults_applied, seat.timeouts, seat.forfeited) == (0, 0, False)


def check_parallel_streams_then_leaving(tmp_path: Path, command: Sequence[str], name: str) -> None:
    log = tmp_path / f"{name}.log"
    with referee(tmp_path) as ref:
        admin = ref.arena()
        bot_id, token = admin.register(f"{name}-x3")
        proc = start_bot(ref, command, token, log, MIZERKA_PARALLEL="3", MIZERKA_GAMES="3")
        match = admin.wait(admin.create("mizerka-short", [bot_id] * 3, seed=f"{name}-parallel"), timeout_s=60)
        assert match.status == FINISHED
        assert_clean(match.results[0], "mizerka-short")
        assert proc.wait(timeout=15) == 0  # three games over (one per stream): it closes its streams
    text = log.read_text()
    assert text.count(f"connected as {name}-x3") == 3 and text.count("game over") == 3, text
    assert "done: 3 games" in text


def check_retries_until_up_and_exits_when_stopped(tmp_path: Path, command: Sequence[str], name: str) -> None:
    with referee(tmp_path) as ref:  # register the bots, then stop the referee
        port = int(ref.address.rsplit(":", 1)[1])  # started again on it below: the port the bot knows
        admin = ref.arena()
        bot_id, token = admin.register(f"{name}-patient")
        others = [admin.register(f"proto{i}") for i in range(2)]
    log = tmp_path / f"{name}.log"
    env = dict(os.environ, MIZERKA_SERVER=f"127.0.0.1:{port}", MIZERKA_TOKEN=token)
    with open(log, "w") as out:
        proc = subprocess.Popen(list(command), env=env, stdout=out, stderr=subprocess.STDOUT, text=True)
    try:
        assert "reconnecting to" in wait_for(log, "reconnecting to"), log.read_text()
        time.sleep(0.5)  # a few attempts with backoff
        assert proc.poll() is None, "the bot gave up while the referee was down"
        with referee(tmp_path, "--port", str(port)) as ref:
            for _, t in others:
                ref.protobot(t, "play")
            admin = ref.arena()
            match = admin.wait(admin.create("mizerka-short", [bot_id] + [b for b, _ in others], seed=f"{name}-late"), timeout_s=60)
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


def check_bad_settings_and_refused_token(tmp_path: Path, command: Sequence[str]) -> None:
    bot = list(command)
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


def check_plays_over_mutual_tls(tmp_path: Path, command: Sequence[str], name: str) -> None:
    """MIZERKA_TLS_CA, _CERT, _KEY and _SERVER_NAME: one process, three streams over mutual TLS to a
    referee whose certificate names "localhost" (reached at 127.0.0.1), a whole game; bad TLS
    settings are refused at start (exit code 2) naming the variable."""
    pki = make_pki(tmp_path / "pki")
    env = dict(os.environ, MIZERKA_TOKEN="t", MIZERKA_TLS_CA=str(tmp_path / "missing.pem"))
    done = subprocess.run(list(command), env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "MIZERKA_TLS_CA" in done.stderr and "missing.pem" in done.stderr, done.stderr
    env = dict(os.environ, MIZERKA_TOKEN="t", MIZERKA_TLS_CERT=str(pki.client_cert))
    done = subprocess.run(list(command), env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "MIZERKA_TLS_KEY" in done.stderr, done.stderr
    log = tmp_path / f"{name}.log"
    with referee(tmp_path, *pki.serve_args(mutual=True)) as ref:
        admin = TlsAdmin(ref.address, pki.tls(client_cert=True))
        bot_id, token = admin.register(f"{name}-tls")
        proc = start_bot(ref, command, token, log, MIZERKA_PARALLEL="3", MIZERKA_GAMES="3", **pki.env(client_cert=True))
        match = admin.wait(admin.create("mizerka-short", [bot_id] * 3, seed=f"{name}-tls"), timeout_s=60)
        assert match.status == FINISHED
        assert_clean(match.results[0], "mizerka-short")
        assert proc.wait(timeout=15) == 0, log.read_text()
    text = log.read_text()
    assert "over TLS" in text and text.count(f"connected as {name}-tls") == 3, text
