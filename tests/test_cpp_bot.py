"""The C++ example bot (clients/cpp) against a real referee: full games of mizerka and
manni-major, a refused action answered correctly, parallel streams, reconnecting and leaving, mutual
TLS (the tests shared with the other languages' bots are in foreign_bots.py).

The bot is built with `make -C clients/cpp` (cmake, Debian's libgrpc++-dev, protobuf-compiler-grpc,
libprotobuf-dev, protobuf-compiler, pkg-config; .ci/run installs them). This module builds it
(incrementally) itself. When those packages are not installed it is skipped, and the reason is
printed (pytest -ra): never silently."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import foreign_bots
from harness import ROOT

CPP_DIR = ROOT / "clients" / "cpp"
BOT = CPP_DIR / "build" / "mizerka-cpp-bot"
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
        missing(f"C++ bot not built: missing {', '.join(missing)} (install the Debian packages {PACKAGES}; "
                    ".ci/run does)")
    done = subprocess.run(["make", "-C", str(CPP_DIR)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"make -C clients/cpp failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    assert BOT.is_file()
    return str(BOT)


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
