"""The packages install from their own declarations: the wire stubs (proto/python), the rules engine
(server/engine), the server alone on them (without the bot SDK), the SDK with the engine (without the
server, for the expert bot), and the whole arena. Each is installed for real (not
editable) into a fresh virtual env whose third-party libraries come from this env's site-packages,
so nothing of this source tree is importable there by accident."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from installs import ROOT, copy_project, pip


def _venv(tmp_path: Path, *projects: Path) -> Path:
    python = _empty_venv(tmp_path)
    for i, project in enumerate(projects):
        done = _install(python, project, tmp_path / f"source-{i}")
        assert done.returncode == 0, done.stdout + done.stderr
    return python


def _empty_venv(tmp_path: Path) -> Path:
    env = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    python = env / "bin" / "python"
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    # Third-party libraries only: a path line does not run this env's editable-install hooks.
    Path(site, "third_party.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return python


def _install(python: Path, project: Path, source: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """pip installs ``project`` into ``python``'s env (``options``: e.g. -e), from a copy at ``source``:
    setuptools writes build/ and *.egg-info beside the sources it builds."""
    copy_project(project, source)
    return pip("--python", python, "install", "-q", "--no-deps", "--no-build-isolation", *options, source, cwd=source.parent)


def _run(python: Path, code: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([python, "-c", code], capture_output=True, text=True, cwd=tmp_path)


@pytest.mark.timeout(600)
def test_the_server_installs_and_runs_without_the_bot_sdk(tmp_path: Path) -> None:
    python = _venv(tmp_path, ROOT / "proto" / "python", ROOT / "server" / "engine", ROOT)
    done = _run(python, "import importlib.util, server.transport.service, server.referee.offline, server.cli, server.logverify; "
                        "print(importlib.util.find_spec('mizerka'), server.transport.service.__file__)", tmp_path)
    assert done.returncode == 0, done.stderr
    spec, where = done.stdout.split()
    assert spec == "None", "the bot SDK leaked into the fresh env"
    assert str(ROOT) not in where, f"the server came from the source tree: {where}"
    # The server's own command runs there: one in-process game.
    game = _run(python, "import sys; from server.cli import app; sys.argv = ['mizerka', 'demo', '--preset', "
                        "'mizerka-short']; app()", tmp_path)
    assert game.returncode == 0 and "mizerka-short" in game.stdout, game.stderr


@pytest.mark.timeout(600)
def test_the_whole_arena_installs_with_its_declared_packages(tmp_path: Path) -> None:
    python = _venv(tmp_path, ROOT / "proto" / "python", ROOT / "server" / "engine", ROOT / "clients" / "python", ROOT)
    done = _run(python, "import tournaments.cli, mizerka, mizerka_proto; print(tournaments.cli.__file__)", tmp_path)
    assert done.returncode == 0, done.stderr
    assert str(ROOT) not in done.stdout
    script = python.parent / "mizerka"
    rules = subprocess.run([script, "rules", "check", str(ROOT / "tests" / "conformance" / "cases")],
                           capture_output=True, text=True, cwd=tmp_path)
    assert rules.returncode == 0 and " 0 failed" in rules.stdout, rules.stdout + rules.stderr


@pytest.mark.timeout(600)
def test_the_sdk_with_the_engine_plays_the_expert_without_the_server(tmp_path: Path) -> None:
    python = _venv(tmp_path, ROOT / "proto" / "python", ROOT / "server" / "engine", ROOT / "clients" / "python")
    done = _run(python, "import importlib.util, mizerka_engine; from mizerka.bots import BOTS; "
                        "print(importlib.util.find_spec('server'), 'expert' in BOTS, mizerka_engine.__file__)", tmp_path)
    assert done.returncode == 0, done.stderr
    server, expert, where = done.stdout.split()
    assert server == "None", "the server leaked into the bot's env"
    assert expert == "True", "the expert bot is not registered with the engine installed"
    assert str(ROOT) not in where, f"the engine came from the source tree: {where}"
    # The engine is the library the expert searches with: a game and its first decision, in that env alone.
    game = _run(python, "from mizerka_engine import Game, load_ruleset; from mizerka.bots import BOTS; "
                        "BOTS['expert'](); print(Game(load_ruleset('mizerka-short'), seed=7).decision().kind.name)", tmp_path)
    assert game.returncode == 0 and game.stdout.strip() == "CONTRACT", game.stderr


@pytest.mark.timeout(600)
def test_the_sdk_alone_has_no_expert_and_says_why_not(tmp_path: Path) -> None:
    python = _venv(tmp_path, ROOT / "proto" / "python", ROOT / "clients" / "python")
    done = _run(python, "import importlib.util; from mizerka.bots import BOTS; "
                        "print(importlib.util.find_spec('mizerka_engine'), sorted(BOTS))", tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("None ") and "'heuristic'" in done.stdout and "'expert'" not in done.stdout


def test_editable_installs_say_nothing_and_are_path_entries(tmp_path: Path) -> None:
    """`make venv` installs the four projects editable: pip and setuptools say nothing (setuptools warns
    at length about an editable install by a meta path finder), and each project is a path entry, its
    own folder on sys.path (tournaments/sandbox/distributions.py shows a sandbox the packages found there)."""
    python = _empty_venv(tmp_path)
    projects = {"mizerka_proto": ROOT / "proto" / "python", "mizerka_engine": ROOT / "server" / "engine",
                "mizerka_client": ROOT / "clients" / "python", "mizerka_arena": ROOT}
    for name, project in projects.items():
        source = tmp_path / name
        done = _install(python, project, source, "-e")
        assert done.returncode == 0 and done.stdout + done.stderr == "", (name, done.stdout + done.stderr)
        site = Path(_run(python, "import sysconfig; print(sysconfig.get_paths()['purelib'])", tmp_path).stdout.strip())
        [pth] = site.glob(f"__editable__.{name}-*.pth")
        assert pth.read_text().split() == [str(source)], (name, pth.read_text())
