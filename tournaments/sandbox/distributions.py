"""Where the Python a sandboxed bot runs is imported from: the bot SDK's distribution (``mizerka-bot``)
and, for a bot whose program is a console script, that script's distribution, each with every
installed distribution it requires (its extras included where they are installed:
``mizerka-client[expert]`` brings the rules engine).

The Python is this installation's or another one the command runs (:func:`python_of`: a venv of
the bot's own, made with a plain ``pip install 'mizerka-client[expert]'``, or another
interpreter), whose prefix and base installation are shown whole.

The folders come from where each top-level package is actually imported from (``find_spec``; for
another Python, along its site dirs and their ``.pth`` path lines), so a regular install (a venv's
site-packages), an editable one (`make venv`'s: a ``.pth`` path entry per project, e.g.
server/engine, where ``mizerka_engine`` is found as server/engine/mizerka_engine; or, in this
installation only, setuptools' meta path finder, which maps a package to its folder) are all seen
the same way, a path entry itself (the repository's root, for the arena's own packages) is never
shown, and a new dependency is shown without a list to keep up to date.
"""

from __future__ import annotations

import configparser
import contextlib
import functools
import importlib.machinery
import importlib.metadata
import importlib.util
import shlex
import shutil
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

SDK = "mizerka-client"  # the bot SDK: every sandbox shows it (mizerka-bot, the stdio bridge, `import mizerka`)
CONSOLE_SCRIPTS = "console_scripts"
VENV_CFG = "pyvenv.cfg"
SHEBANG_BYTES = 4096  # as much of a script as its #! lines are looked for in
TRAMPOLINE = "'''exec' "  # pip's #!/bin/sh trampoline's second line, before the interpreter
SITE_DIRS = ("lib/python*/site-packages", "lib/python*/dist-packages")  # under a prefix (dist-packages: Debian's)


@dataclass(frozen=True, slots=True)
class Python:
    """A Python installation a bot's command runs: the folders it needs, and where it imports
    packages from (``path``: its site dirs and their ``.pth`` path lines; None: this process's
    sys.path and import hooks, which only this installation's packages can be found through)."""

    prefix: Path  # the venv (pyvenv.cfg, bin, site-packages), or the installation itself
    base: Path  # the installation it runs on: the interpreter and the standard library
    scripts: Path  # where its console scripts are
    path: tuple[str, ...] | None = None

    def folders(self, names: Iterable[str]) -> tuple[Path, ...]:
        """Its prefix and base, and where the distributions ``names`` (and what they require) are imported from."""
        return (self.prefix, self.base, *import_roots(tuple(names), self.path))

    def script_distribution(self, program: Path) -> str | None:
        """The distribution whose console script ``program`` (or where its link leads: pipx's) is, if it
        is one of this Python's."""
        if self.scripts.absolute() not in (program.parent.absolute(), program.resolve().parent):
            return None
        dists = importlib.metadata.distributions() if self.path is None else importlib.metadata.distributions(path=[*self.path])
        for dist in dists:
            if any(e.group == CONSOLE_SCRIPTS and e.name == program.name for e in dist.entry_points):
                return dist.name
        return None


def this_python() -> Python:
    """The runner's own Python."""
    return Python(Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).parent)


def python_of(program: Path, search: str) -> Python | None:
    """The Python that runs ``program``: the program itself if it is a Python interpreter, else the
    one its ``#!`` line names (``/usr/bin/env NAME``: NAME found on ``search``, a PATH); None for
    any other program. Nothing of it is run: a venv's pyvenv.cfg and the site dirs' .pth files are
    read as Python reads them."""
    interpreter = program if program.name.startswith("python") else _shebang(program, search)
    if interpreter is None:
        return None
    cfg = next((f / VENV_CFG for f in (interpreter.parent, interpreter.parent.parent) if (f / VENV_CFG).is_file()), None)
    if cfg is None:
        base = _installation(interpreter)
        if base is None:
            return None
        prefix, sites = base, _site_dirs(base)
    else:
        settings = configparser.ConfigParser(interpolation=None)
        settings.read_string("[venv]\n" + cfg.read_text(errors="replace"))
        prefix = cfg.parent
        base = _installation(Path(settings.get("venv", "home", fallback=str(interpreter.parent))) / interpreter.name) or prefix
        system = settings.get("venv", "include-system-site-packages", fallback="false").strip().lower() == "true"
        sites = [*_site_dirs(prefix), *(_site_dirs(base) if system else [])]
    if prefix.resolve() == Path(sys.prefix).resolve():
        return this_python()
    return Python(prefix, base, interpreter.parent, tuple(_with_path_lines(sites)))


def _shebang(program: Path, search: str) -> Path | None:
    """The interpreter a script's ``#!`` line names, if it names a Python; pip's trampoline for an
    interpreter whose path is too long for a ``#!`` line or has a space (``#!/bin/sh``, then
    ``TRAMPOLINE PYTHON "$0" "$@"``) names it on the next line."""
    try:
        with program.open("rb") as file:
            lines = file.read(SHEBANG_BYTES).decode(errors="replace").split("\n")
    except OSError:
        return None
    words = lines[0].removeprefix("#!").split() if lines[0].startswith("#!") else []
    if words == ["/bin/sh"] and len(lines) > 1 and lines[1].startswith(TRAMPOLINE):
        with contextlib.suppress(ValueError):
            words = shlex.split(lines[1].removeprefix(TRAMPOLINE))[:1]
    elif len(words) >= 2 and Path(words[0]).name == "env":
        found = shutil.which(words[1], path=search)
        words = [found] if found else []
    return Path(words[0]) if words and Path(words[0]).name.startswith("python") else None


def _installation(interpreter: Path) -> Path | None:
    """The installation an interpreter belongs to (its bin folder's parent, links followed), never /."""
    root = interpreter.resolve().parent.parent
    return None if root == Path("/") else root


def _site_dirs(prefix: Path) -> list[Path]:
    """A prefix's site dirs."""
    return sorted(p for pattern in SITE_DIRS for p in prefix.glob(pattern))


def _with_path_lines(sites: Iterable[Path]) -> list[str]:
    """The site dirs and, after each, the folders its .pth files add (as site.addpackage does; their
    ``import`` lines, code, are not run)."""
    path: list[str] = []
    for site in sites:
        path.append(str(site))
        for pth in sorted(site.glob("*.pth")):
            for line in pth.read_text(errors="replace").splitlines():
                line = line.rstrip()
                if line and not line.startswith(("#", "import ", "import\t")) and (site / line).is_dir():
                    path.append(str((site / line).absolute()))
    return path


@functools.cache
def import_roots(names: tuple[str, ...], path: tuple[str, ...] | None = None) -> tuple[Path, ...]:
    """The folders (and single-module files) the distributions ``names``, and every installed
    distribution they require, are imported from along ``path`` (None: this process's import
    system); a distribution that is not installed is left out."""
    roots: set[Path] = set()
    for dist in required(names, path):
        for module in top_level(dist):
            roots.update(module_paths(module, path))
    return tuple(sorted(roots))


def distribution(name: str, path: tuple[str, ...] | None = None) -> importlib.metadata.Distribution | None:
    """The installed distribution ``name`` along ``path`` (None: sys.path), None if it is not installed."""
    if path is not None:
        return next(iter(importlib.metadata.distributions(name=name, path=[*path])), None)
    try:
        return importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def required(names: Iterable[str], path: tuple[str, ...] | None = None) -> list[importlib.metadata.Distribution]:
    """The installed distributions ``names`` (along ``path``) and, transitively, what they require,
    as pip installs them: of ``names`` every extra counts (a requirement under one is followed where
    it is installed: ``mizerka-client[expert]`` brings the engine), of the others the extras asked for."""
    found: dict[str, importlib.metadata.Distribution] = {}
    todo: list[tuple[str, frozenset[str] | None]] = [(name, None) for name in names]  # None: every extra
    seen: set[tuple[str, frozenset[str] | None]] = set()
    while todo:
        name, wanted = todo.pop()
        key = canonicalize_name(name)
        if (key, wanted) in seen:
            continue
        seen.add((key, wanted))
        dist = distribution(name, path)
        if dist is None:
            continue
        found[key] = dist
        extras = (*(dist.metadata.get_all("Provides-Extra") or ()),) if wanted is None else (*wanted,)
        for line in dist.requires or ():
            try:
                req = Requirement(line)
            except InvalidRequirement:
                continue
            if req.marker is None or any(req.marker.evaluate({"extra": extra}) for extra in ("", *extras)):
                todo.append((req.name, frozenset(req.extras)))
    return list(found.values())


def top_level(dist: importlib.metadata.Distribution) -> list[str]:
    """The names a distribution is imported by: its top_level.txt, else the first part of the
    paths its RECORD lists (wheels of other build backends), metadata and scripts left out."""
    listed = dist.read_text("top_level.txt")
    if listed:
        return [n for n in listed.split() if n]
    names = set()
    for file in dist.files or ():
        first = PurePosixPath(file).parts[0]
        if first in ("..", "__pycache__") or first.endswith((".dist-info", ".egg-info", ".data", ".pth")):
            continue
        names.add(first.removesuffix(".py"))
    return sorted(n for n in names if n.isidentifier())


def module_paths(name: str, path: tuple[str, ...] | None = None) -> list[Path]:
    """Where the top-level module ``name`` is imported from along ``path`` (None: here, through this
    process's import hooks too): a package's folders (every part of a namespace package), a
    module's own file; none if it cannot be imported."""
    try:
        spec = importlib.util.find_spec(name) if path is None else importlib.machinery.PathFinder.find_spec(name, [*path])
    except (ImportError, ValueError):
        return []
    if spec is None:
        return []
    if spec.submodule_search_locations is not None:
        return [Path(p) for p in spec.submodule_search_locations]
    if spec.has_location and spec.origin:
        return [Path(spec.origin)]
    return []  # built in
