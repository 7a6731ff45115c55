"""The code's shape, checked: layers run one way (import-linter contracts in pyproject.toml), no
import cycles anywhere, no imports hidden inside functions (but the loaders of lazy commands and bots), and the committed ruff configuration
reports nothing."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("server", "tournaments", "mizerka", "mizerka_proto")
# The server, the leagues and the SDK (the generated wire stubs are left as protoc writes them).
SOURCES = [ROOT / "server", ROOT / "tournaments", ROOT / "clients" / "python" / "mizerka"]
CHECKED = ("server", "tournaments", "mizerka")
# The registries whose entries load on first use, each by a function that imports its module: a
# `mizerka` command, a `mizerka-bot NAME` bot. Deferred for start-up time alone (`mizerka --help`
# in about the time of importing typer), never to dodge a cycle: grimp still sees these imports,
# so the cycle test and the layer contracts check them like any other.
LAZY_LOADERS = {ROOT / "server" / "cli.py", ROOT / "tournaments" / "cli.py",
                ROOT / "clients" / "python" / "mizerka" / "bots" / "__init__.py"}
# Functions elsewhere that import on a path most runs never take, for start-up time alone, with why.
DEFERRED = {
    (ROOT / "server" / "storage" / "database.py", "migrate"): "Alembic, only for a database that is not at the newest revision",
    (ROOT / "tournaments" / "commands" / "match_options.py", "source"): "the league file and the store (SQLAlchemy), only for --league: a log file needs neither",
    (ROOT / "tournaments" / "commands" / "replay.py", "load_games"): "the store (SQLAlchemy), only for a match id: a log file needs none",
    (ROOT / "tournaments" / "commands" / "replay.py", "_print_scoresheet"): "rich and the score sheet, only for --text: verifying a log needs neither",
    (ROOT / "tournaments" / "commands" / "replay.py", "replay_command"): "the wire (protocol buffers) and the bot SDK, only for --seat: verifying a log needs neither",
    (ROOT / "tournaments" / "commands" / "match.py", "match_export"): "the league files and the match log's format (the engine), only to export: `match list` reads the store alone",
}


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent))
    assert found, f"{name} is not installed in this environment (pip install -c constraints.txt -e '.[test]')"
    return found


def test_layer_contracts_are_kept() -> None:
    done = subprocess.run([_tool("lint-imports"), "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_no_module_takes_part_in_an_import_cycle() -> None:
    graph = grimp.build_graph(*PACKAGES)
    cycles = []
    for importer in sorted(m for m in graph.modules if m.split(".")[0] in CHECKED):
        for imported in graph.find_modules_directly_imported_by(importer):
            if imported != importer and graph.chain_exists(imported=importer, importer=imported):
                cycles.append(f"{importer} -> {imported} -> ... -> {importer}")
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_no_imports_inside_functions() -> None:
    """An import inside a function hides a dependency (and usually dodges a cycle); only the lazy
    registries (LAZY_LOADERS) and the few paths of DEFERRED defer imports into functions, so that a
    command starts at once."""
    found = []
    for folder in SOURCES:
        for path in sorted(set(folder.rglob("*.py")) - LAZY_LOADERS):
            tree = ast.parse(path.read_text(), str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and (path, node.name) not in DEFERRED:
                    for inner in ast.walk(node):
                        if isinstance(inner, ast.Import | ast.ImportFrom):
                            found.append(f"{path.relative_to(ROOT)}:{inner.lineno}")
    assert not found, "imports inside functions: " + ", ".join(found)


def test_ruff_finds_nothing() -> None:
    done = subprocess.run([_tool("ruff"), "check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
