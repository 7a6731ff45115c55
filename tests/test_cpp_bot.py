"""The C++ example bot (clients/cpp) against a real referee: full games of mizerka and
manni-major, a refused action answered correctly, parallel streams, reconnecting and leaving, mutual
TLS (the tests shared with the other languages' bots are in foreign_bots.py).

The bot is built with `make -C clients/cpp` (cmake, Debian's libgrpc++-dev, protobuf-compiler-grpc,
libprotobuf-dev, protobuf-compiler, pkg-config; .ci/run installs them), which `make clients` runs
before the tests in `make test`. When those packages are not installed it is skipped, and the reason
is printed (pytest -ra): never silently."""

from __future__ import annotations

from pathlib import Path

import pytest

import foreign_bots


@pytest.fixture(scope="module")
def cpp_bot() -> str:
    return foreign_bots.built_cpp_bot()


@pytest.mark.parametrize(("preset", "live"), foreign_bots.LIVE_EVENTS_CASES)
def test_the_cpp_bot_plays_full_games_cleanly_and_sensibly(tmp_path: Path, cpp_bot: str, preset: str, live: bool) -> None:
    foreign_bots.check_full_games_cleanly_and_sensibly(tmp_path, [cpp_bot], "cpp", preset, live)


def test_the_cpp_bot_answers_a_refused_action_then_plays_legally(tmp_path: Path, cpp_bot: str) -> None:
    foreign_bots.check_refused_action_then_legal_play(tmp_path, [cpp_bot], "cpp")


def test_one_cpp_process_plays_parallel_streams_and_leaves_after_its_games(tmp_path: Path, cpp_bot: str) -> None:
    foreign_bots.check_parallel_streams_then_leaving(tmp_path, [cpp_bot], "cpp")


def test_the_cpp_bot_retries_until_the_referee_is_up_and_exits_when_it_stops(tmp_path: Path, cpp_bot: str) -> None:
    foreign_bots.check_retries_until_up_and_exits_when_stopped(tmp_path, [cpp_bot], "cpp")


def test_the_cpp_bot_stops_on_bad_settings_and_on_a_refused_token(tmp_path: Path, cpp_bot: str) -> None:
    foreign_bots.check_bad_settings_and_refused_token(tmp_path, [cpp_bot])


def test_the_cpp_bot_plays_over_mutual_tls(tmp_path: Path, cpp_bot: str) -> None:
    foreign_bots.check_plays_over_mutual_tls(tmp_path, [cpp_bot], "cpp")
