"""The JavaScript example bot (clients/node) against a real referee: full games of mizerka and
manni-major, a refused action answered correctly, parallel streams, reconnecting and leaving, mutual
TLS (the tests shared with the other languages' bots are in foreign_bots.py), and its strategy's unit
tests.

Needs Node.js and `npm ci` in clients/node (`make clients` does it, before the tests in `make test`).
Without Node.js and npm on the machine the module is skipped, with the reason printed (pytest -ra)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from mizerka_proto import arena_pb2

import foreign_bots
from harness import referee

NODE_DIR = foreign_bots.NODE_DIR
FINISHED = arena_pb2.MATCH_STATUS_FINISHED


@pytest.fixture(scope="module")
def node() -> str:
    return foreign_bots.installed_node()


def bot(node: str) -> list[str]:
    """The command line that runs clients/node/bot.js."""
    return [node, str(NODE_DIR / "bot.js")]


@pytest.mark.parametrize(("preset", "live"), foreign_bots.LIVE_EVENTS_CASES)
def test_the_node_bot_plays_full_games_cleanly_and_sensibly(tmp_path: Path, node: str, preset: str, live: bool) -> None:
    foreign_bots.check_full_games_cleanly_and_sensibly(tmp_path, bot(node), "node", preset, live)


def test_the_node_bot_answers_a_refused_action_then_plays_legally(tmp_path: Path, node: str) -> None:
    foreign_bots.check_refused_action_then_legal_play(tmp_path, bot(node), "node")


def test_one_node_process_plays_parallel_streams_and_leaves_after_its_games(tmp_path: Path, node: str) -> None:
    foreign_bots.check_parallel_streams_then_leaving(tmp_path, bot(node), "node")


def test_the_node_bot_retries_until_the_referee_is_up_and_exits_when_it_stops(tmp_path: Path, node: str) -> None:
    foreign_bots.check_retries_until_up_and_exits_when_stopped(tmp_path, bot(node), "node")


def test_the_node_bot_stops_on_bad_settings_and_on_a_refused_token(tmp_path: Path, node: str) -> None:
    foreign_bots.check_bad_settings_and_refused_token(tmp_path, bot(node))


def test_the_node_strategy_unit_tests(node: str) -> None:
    done = subprocess.run([node, "--test", "test/strategy.test.js"], cwd=NODE_DIR, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_node_sdk_tests_pass_with_a_real_game_against_a_real_referee(tmp_path: Path, node: str) -> None:
    log = tmp_path / "sdk.log"
    with referee(tmp_path) as ref:
        admin = ref.arena()
        bot_id, token = admin.register("node-sdk")
        tests = ref.bot(token, node, "--test", str(NODE_DIR / "sdk" / "test" / "sdk.test.js"), log=log)
        match = admin.wait(admin.create("mizerka-short", [bot_id, *foreign_bots.opponents(ref)], seed="node-sdk"),
                           timeout_s=60)
        assert tests.wait(timeout=30) == 0, log.read_text()
    assert match.status == FINISHED
    foreign_bots.assert_clean(match.results[0], "mizerka-short")
    text = log.read_text()
    assert "# pass 5" in text and "# skipped 0" in text, text  # the real game was played, not skipped


def test_the_node_sdk_types_are_generated_from_the_current_proto(tmp_path: Path, node: str) -> None:
    sdk = NODE_DIR / "sdk"
    generator = NODE_DIR / "node_modules" / "@grpc" / "proto-loader" / "build" / "bin" / "proto-loader-gen-types.js"
    script = json.loads((sdk / "package.json").read_text())["scripts"]["types"].split()
    assert script[0] == "proto-loader-gen-types" and script[script.index("-O") + 1] == "types"
    script[script.index("-O") + 1] = str(tmp_path / "types")
    done = subprocess.run([node, str(generator), *script[1:]], cwd=sdk, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    fresh = {p.relative_to(tmp_path / "types"): p.read_text() for p in (tmp_path / "types").rglob("*.ts")}
    committed = {p.relative_to(sdk / "types"): p.read_text() for p in (sdk / "types").rglob("*.ts")}
    assert fresh == committed, "clients/node/sdk/types is stale: run `npm run types` in clients/node/sdk"


def test_the_node_bot_plays_over_mutual_tls(tmp_path: Path, node: str) -> None:
    foreign_bots.check_plays_over_mutual_tls(tmp_path, bot(node), "node")
