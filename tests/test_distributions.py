"""Where a sandboxed bot's Python is imported from (tournaments/sandbox/distributions.py), for each way a
distribution is installed: regular (a wheel in site-packages, with or without top_level.txt), editable
through setuptools' finder (the package mapped to its project folder) and editable through a ``.pth``
path entry. Each layout is made for real in a site folder of its own and read by a fresh Python that
has that folder as a site dir, so the ``.pth`` files and the finder run as they do at start-up."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from setuptools.command.editable_wheel import _finder_template

from tournaments.local_referee import BIN
from tournaments.sandbox.distributions import SDK, TRAMPOLINE, Python, import_roots, python_of, this_python


def _dist(site: Path, name: str, requires: list[str], record: list[str], top_level: str | None = None,
          extras: tuple[str, ...] = (), scripts: dict[str, str] | None = None) -> None:
    info = site / f"{name}-1.0.dist-info"
    info.mkdir()
    lines = ["Metadata-Version: 2.1", f"Name: {name}", "Version: 1.0", *(f"Provides-Extra: {x}" for x in extras),
             *(f"Requires-Dist: {r}" for r in requires)]
    (info / "METADATA").write_text("\n".join(lines) + "\n")
    (info / "RECORD").write_text("".join(f"{path},,\n" for path in [*record, f"{info.name}/METADATA"]))
    if top_level is not None:
        (info / "top_level.txt").write_text(top_level + "\n")
    if scripts:
        (info / "entry_points.txt").write_text("[console_scripts]\n" + "".join(f"{k} = {v}\n" for k, v in scripts.items()))


def _package(folder: Path, name: str) -> Path:
    (folder / name).mkdir(parents=True)
    (folder / name / "__init__.py").write_text("")
    return folder / name


def layouts(tmp: Path) -> tuple[Path, dict[str, Path]]:
    """A site folder where the distribution ``mybot`` (regular, no top_level.txt, as other build
    backends write it) requires ``engine`` (editable: setuptools' finder, its package in a project
    folder) and, under its extra ``fast``, ``speedups`` (editable: a .pth path entry); ``engine``
    has an extra of its own nobody asks for (``docs``: ``sphinxish``, installed), and ``mybot`` an
    extra whose distribution is not installed. Returns the site and where each package lives."""
    site = tmp / "site"
    site.mkdir()
    where = {"mybot": _package(site, "mybot"), "helper": site / "helper.py"}
    (site / "helper.py").write_text("")
    _dist(site, "mybot", ["engine>=1", 'speedups; extra == "fast"', 'absent; extra == "gpu"'],
          ["mybot/__init__.py", "helper.py", "../../../bin/mybot"], extras=("fast", "gpu"), scripts={"mybot": "mybot:main"})
    where["engine"] = _package(tmp / "projects" / "engine", "engine")
    finder = "__editable___engine_1_0_finder"
    (site / f"{finder}.py").write_text(_finder_template("__editable__.engine-1.0.finder", {"engine": str(where["engine"])}, {}))
    (site / "__editable__.engine-1.0.pth").write_text(f"import {finder}; {finder}.install()\n")
    _dist(site, "engine", ['sphinxish; extra == "docs"'], [f"{finder}.py", "__editable__.engine-1.0.pth"], "engine", ("docs",))
    where["speedups"] = _package(tmp / "projects" / "speedups" / "src", "speedups")
    (site / "__editable__.speedups-1.0.pth").write_text(f"{where['speedups'].parent}\n")
    _dist(site, "speedups", [], ["__editable__.speedups-1.0.pth"], "speedups")
    _package(site, "sphinxish")
    _dist(site, "sphinxish", [], ["sphinxish/__init__.py"], "sphinxish")
    return site, where


def roots_in(site: Path, *names: str) -> list[str]:
    """import_roots(names) as a Python with ``site`` as a site dir computes it."""
    code = ("import json, site, sys; site.addsitedir(sys.argv[1]); from tournaments.sandbox.distributions import import_roots; "
            "print(json.dumps([str(p) for p in import_roots(tuple(sys.argv[2:]))]))")
    done = subprocess.run([sys.executable, "-c", code, str(site), *names], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).parent.parent)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_each_install_layout_is_seen_where_it_is_imported_from(tmp_path: Path) -> None:
    site, where = layouts(tmp_path)
    roots = roots_in(site, "mybot")
    # a regular wheel's package and module, an editable finder's project folder, a .pth path entry's package:
    # nothing of the extra nobody asked for (sphinxish), nothing of the one not installed (absent)
    assert sorted(roots) == sorted(str(p) for p in (where["mybot"], where["helper"], where["engine"], where["speedups"])), roots


def test_a_distribution_that_is_not_installed_has_no_roots(tmp_path: Path) -> None:
    site, _ = layouts(tmp_path)
    assert roots_in(site, "no-such-distribution") == []


def test_this_installations_sdk_brings_the_engine_and_the_wire_stubs() -> None:
    """The editable install of `make venv`: the SDK, its stubs and the engine (its `expert` extra)
    live in the project's folders, outside the venv, and every one of them is shown."""
    roots = import_roots((SDK,))
    for package in ("mizerka", "mizerka_proto", "mizerka_engine", "grpc"):
        found = __import__(package).__path__[0]
        assert Path(found) in roots, (package, roots)
    assert not any(p.name in ("tournaments", "server") for p in roots), roots  # the arena's own code is not the SDK's


def test_the_editable_installs_path_entries_are_not_shown() -> None:
    """`make venv` installs each project as a path entry (package-dir "" = "." in its pyproject.toml):
    the repository's root and the projects' folders are on sys.path, but a sandbox shows only the
    packages found there, never a path entry itself (the root would show the whole tree)."""
    root = Path(__file__).resolve().parents[1]
    entries = {root, root / "clients" / "python", root / "proto" / "python", root / "server" / "engine"}
    assert entries <= {Path(p) for p in sys.path}, sys.path  # what make venv's install is
    roots = set(import_roots((SDK, "mizerka-arena")))
    assert {root / "server", root / "tournaments", root / "server" / "engine" / "mizerka_engine"} <= roots, roots
    assert not {p for p in roots if p in entries or p in root.parents}, roots


def test_a_console_script_of_this_installation_names_its_distribution(tmp_path: Path) -> None:
    python = this_python()
    assert python_of(BIN / "mizerka-bot", os.defpath) == python
    assert python.script_distribution(BIN / "mizerka-bot") == SDK
    assert python.script_distribution(tmp_path / "mizerka-bot") is None  # a program of that name elsewhere


def venv(tmp: Path, system: bool = False) -> tuple[Path, dict[str, Path]]:
    """A venv of a bot's own (not this installation's) on this one's base Python, holding layouts()
    in its site-packages, with the console script ``mybot``; returns it and where each package lives."""
    prefix = tmp / "venv"
    site, where = layouts(tmp)
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    (prefix / "lib" / version).mkdir(parents=True)
    site.rename(prefix / "lib" / version / "site-packages")
    where = {k: prefix / "lib" / version / "site-packages" / v.relative_to(site) if site in v.parents else v
             for k, v in where.items()}
    (prefix / "bin").mkdir()
    (prefix / "bin" / "python").symlink_to(Path(sys.executable).resolve())
    home = Path(sys.executable).resolve().parent
    (prefix / "pyvenv.cfg").write_text(f"home = {home}\ninclude-system-site-packages = {str(system).lower()}\n")
    (prefix / "bin" / "mybot").write_text(f"#!{prefix / 'bin' / 'python'}\nfrom mybot import main\n")
    return prefix, where


def test_a_venv_of_the_bots_own_is_read_not_run(tmp_path: Path) -> None:
    """A console script of another venv (a plain `pip install` of the SDK into a venv of its own):
    its venv, its base installation, its packages in site-packages and behind .pth path lines. An
    editable install through setuptools' finder (engine) is code to run, so it is not seen there."""
    prefix, where = venv(tmp_path)
    python = python_of(prefix / "bin" / "mybot", os.defpath)
    assert python is not None and python.prefix == prefix and python.scripts == prefix / "bin"
    assert python.base == Path(sys.executable).resolve().parent.parent
    assert python.script_distribution(prefix / "bin" / "mybot") == "mybot"
    assert python_of(prefix / "bin" / "python", os.defpath) == python  # `venv/bin/python bot.py`
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "mybot").symlink_to(prefix / "bin" / "mybot")  # as pipx links a venv's script
    assert python_of(tmp_path / "bin" / "mybot", os.defpath) == python
    assert python.script_distribution(tmp_path / "bin" / "mybot") == "mybot"
    folders = set(python.folders(["mybot"]))
    assert folders == {prefix, python.base, where["mybot"], where["helper"], where["speedups"]}, folders


def test_a_script_names_its_python_directly_or_through_env(tmp_path: Path) -> None:
    prefix, _ = venv(tmp_path)
    script = tmp_path / "bot.py"
    script.write_text("#!/usr/bin/env python -u\nimport mybot\n")
    assert python_of(script, str(prefix / "bin")) == python_of(prefix / "bin" / "python", "")
    long = tmp_path / ("a" * 120) / "with space"
    long.mkdir(parents=True)
    prefix.rename(long / "venv")
    trampoline = f"#!/bin/sh\n{TRAMPOLINE}\"{long / 'venv' / 'bin' / 'python'}\" \"$0\" \"$@\"\n' '''\n"
    script.write_text(trampoline + "import mybot\n")  # what pip writes for a path too long for #! or with a space
    assert python_of(script, os.defpath) == python_of(long / "venv" / "bin" / "python", "")
    script.write_text("#!/bin/sh\nexec true\n")
    assert python_of(script, str(prefix / "bin")) is None  # not a Python: its folders are only its own
    assert python_of(tmp_path / "absent", os.defpath) is None


def test_a_venv_with_the_system_site_packages_reads_the_bases_too(tmp_path: Path) -> None:
    """include-system-site-packages: the base's site-packages are on its path (and shown with the
    base, whole); without it they are not."""
    base_sites = {str(p) for p in this_python().base.glob("lib/python*/site-packages")}
    assert base_sites
    for system in (True, False):
        (tmp_path / str(system)).mkdir()
        prefix, _ = venv(tmp_path / str(system), system)
        python = python_of(prefix / "bin" / "mybot", os.defpath)
        assert isinstance(python, Python) and python.path is not None
        assert base_sites & set(python.path) == (base_sites if system else set()), python.path
