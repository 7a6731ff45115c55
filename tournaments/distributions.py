"""Where the Python a sandboxed bot runs is imported from: the bot SDK's distribution (``mizerka-bot``)
and, for a bot whose program is a console script of this installation, that script's distribution,
each with every installed distribution it requires (its extras included where they are installed:
``mizerka-client[expert]`` brings the rules engine).

The folders come from where each top-level package is actually imported from (``find_spec``), so
a regular install (a venv's site-packages), an editable one (`make venv`'s: a ``.pth`` path entry
per project, e.g. server/engine, where ``mizerka_engine`` is found as server/engine/mizerka_engine;
or setuptools' meta path finder, which maps a package to its folder) are all seen the same way, a
path entry itself (the repository's root, for the arena's own packages) is never shown, and a new
dependency is shown without a list to keep up to date.
"""

from __future__ import annotations

import functools
import importlib.metadata
import importlib.util
from collections.abc import Iterable, Sequence
from pathlib import Path, PurePosixPath

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

SDK = "mizerka-client"  # the bot SDK: every sandbox shows it (mizerka-bot, the stdio bridge, `import mizerka`)
CONSOLE_SCRIPTS = "console_scripts"


@functools.cache
def import_roots(names: tuple[str, ...]) -> tuple[Path, ...]:
    """The folders (and single-module files) the distributions ``names``, and every installed
    distribution they require, are imported from; a distribution that is not installed is left out."""
    roots: set[Path] = set()
    for dist in required(names):
        for module in top_level(dist):
            roots.update(module_paths(module))
    return tuple(sorted(roots))


def required(names: Iterable[str]) -> list[importlib.metadata.Distribution]:
    """The installed distributions ``names`` and, transitively, what they require, as pip installs
    them: of ``names`` every extra counts (a requirement under one is followed where it is
    installed: ``mizerka-client[expert]`` brings the engine), of the others the extras asked for."""
    found: dict[str, importlib.metadata.Distribution] = {}
    todo: list[tuple[str, frozenset[str] | None]] = [(name, None) for name in names]  # None: every extra
    seen: set[tuple[str, frozenset[str] | None]] = set()
    while todo:
        name, wanted = todo.pop()
        key = canonicalize_name(name)
        if (key, wanted) in seen:
            continue
        seen.add((key, wanted))
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
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


def module_paths(name: str) -> list[Path]:
    """Where the top-level module ``name`` is imported from here: a package's folders (every part
    of a namespace package), a module's own file; none if it cannot be imported."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return []
    if spec is None:
        return []
    if spec.submodule_search_locations is not None:
        return [Path(p) for p in spec.submodule_search_locations]
    if spec.has_location and spec.origin:
        return [Path(spec.origin)]
    return []  # built in


def script_distribution(program: str | None, bin_dirs: Sequence[Path]) -> str | None:
    """The distribution whose console script ``program`` (a resolved path) is, if it is one of
    this installation's (in ``bin_dirs``)."""
    if program is None or Path(program).parent.absolute() not in [d.absolute() for d in bin_dirs]:
        return None
    script = Path(program).name
    for entry in importlib.metadata.entry_points(group=CONSOLE_SCRIPTS, name=script):
        if entry.dist is not None:
            return entry.dist.name
    return None

