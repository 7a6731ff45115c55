"""This tree's projects as a user of the packages gets them: built from a copy of their sources
(setuptools writes build/ and *.egg-info beside the sources it builds, never in this tree) and
installed for real, not editable, with no package index (tests use loopback only)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from tournaments.sandbox.distributions import distribution

ROOT = Path(__file__).resolve().parent.parent
# What a project's copy leaves out: other projects of this tree (installed on their own), tests,
# data, caches and earlier build output.
NOT_SOURCES = shutil.ignore_patterns(".*", "__pycache__", "build", "*.egg-info", "node_modules", "data",
                                     "tests", "clients", "proto", "pyproject.toml")
PIP_ENV = {"PATH": "/usr/bin:/bin"}  # pip without this env's settings (HOME: the caller's folder)


def copy_project(project: Path, source: Path) -> Path:
    """A copy of ``project``'s sources at ``source``, its own pyproject.toml (not a nested project's)."""
    shutil.copytree(project, source, ignore=NOT_SOURCES)
    shutil.copy(project / "pyproject.toml", source)
    return source


def pip(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """This env's pip, offline, uncached (a wheel built here is never taken from an earlier run)."""
    return subprocess.run([sys.executable, "-m", "pip", *map(str, args), "--no-index", "--no-cache-dir"],
                          capture_output=True, text=True, cwd=cwd, env={**PIP_ENV, "HOME": str(cwd)})


def build_wheels(projects: Sequence[Path], folder: Path) -> Path:
    """Wheels of ``projects`` in ``folder``/wheels, each built from a copy of its sources."""
    wheels = folder / "wheels"
    for i, project in enumerate(projects):
        source = copy_project(project, folder / f"source-{i}")
        done = pip("wheel", "-q", "--no-deps", "--no-build-isolation", "-w", wheels, source, cwd=folder)
        assert done.returncode == 0, done.stdout + done.stderr
    return wheels


def copy_installed(names: Sequence[str], folder: Path) -> Path:
    """A folder holding the installed distributions ``names``, copied from this env's site-packages
    (their files and metadata): what pip would have downloaded."""
    for name in names:
        dist = distribution(name)
        assert dist is not None, f"{name} is not installed here"
        for file in dist.files or ():
            source = Path(str(dist.locate_file(file)))
            if source.is_file() and not file.parts[0].startswith(".."):  # scripts live outside site-packages
                (folder / file).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, folder / file)
    return folder
