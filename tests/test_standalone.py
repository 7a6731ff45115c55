"""The repository stands alone: no file points outside it, and the conformance suite runs from a copy.

The rules and the public conformance cases used to be read from a folder beside the repository, so a
clone anywhere else failed. They now live in docs/rules.md, docs/conformance.md and
tests/conformance/cases; these tests keep it that way.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CASES = Path("tests", "conformance", "cases")
# The outside folder (one level up, or as a path component) and the outside specification's file
# name. Both are assembled here, so that no line of this file spells a reference out.
FOLDER, SPEC = "shared", "RULES" + ".md"
UP = f"../{FOLDER}"
OUTSIDE = re.compile(rf"{re.escape(UP)}\b|(?<![\w.-]){FOLDER}/|\b{re.escape(SPEC)}\b")
RUN_CLI = "import sys; from server.cli import app; sys.argv[0] = 'mizerka'; app()"


def _working_tree_files() -> list[Path]:
    """Tracked and new, not ignored, files: what the next commit would hold (nothing is committed yet)."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout.decode()
    return [ROOT / name for name in sorted(set(listed.split("\0"))) if name and (ROOT / name).is_file()]


@pytest.mark.parametrize(
    ("line", "outside"),
    [
        (f"rules are in `{UP}/{SPEC}`, beside this repository", True),
        (f".venv/bin/mizerka rules check {UP}/conformance/cases", True),
        (f'help="Rules conformance cases ({FOLDER}/conformance/FORMAT.md)."', True),
        (f"as {SPEC} section 5 allows", True),
        (f"/work/{FOLDER}/seeds/mizerka-pt.txt", True),
        ("as docs/rules.md §10 allows", False),
        ("mizerka rules check tests/conformance/cases", False),
        ("std::shared_ptr<grpc::Channel> channel", False),
        ("wins (first places, shared ones split)", False),
    ],
)
def test_the_pattern_tells_outside_references(line: str, outside: bool) -> None:
    """The scan below is only as good as its pattern: it must catch every old form, and only those."""
    assert bool(OUTSIDE.search(line)) is outside


def test_no_file_points_outside_the_repository() -> None:
    hits = []
    for path in _working_tree_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # binary files cite nothing
        hits += [f"{path.relative_to(ROOT)}:{no}: {line.strip()[:120]}"
                 for no, line in enumerate(text.splitlines(), 1) if OUTSIDE.search(line)]
    assert not hits, (
        "these lines point outside the repository; cite docs/rules.md §N, docs/conformance.md or "
        "tests/conformance/cases instead:\n" + "\n".join(hits)
    )


@pytest.fixture(scope="module")
def copy_of_repository(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The working tree's files copied to a fresh folder, deep inside tmp, with nothing beside it."""
    copy = tmp_path_factory.mktemp("standalone") / "deep" / "clone"
    for path in _working_tree_files():
        target = copy / path.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
    assert not (copy.parent / FOLDER).exists()
    return copy


def _run_in(copy: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run Python in ``copy`` so that its own packages, not this checkout's, are imported."""
    path = os.pathsep.join(str(copy / p) for p in (".", "proto/python", "clients/python"))
    return subprocess.run(
        [sys.executable, *args], cwd=copy, env={**os.environ, "PYTHONPATH": path},
        capture_output=True, text=True, timeout=600,
    )


def test_the_copy_imports_its_own_server(copy_of_repository: Path) -> None:
    done = _run_in(copy_of_repository, "-c", "import server; print(server.__file__)")
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip()).is_relative_to(copy_of_repository), done.stdout


def test_rules_check_passes_every_case_from_the_copy(copy_of_repository: Path) -> None:
    cases = sorted((copy_of_repository / CASES).glob("*.json"))
    assert cases, f"no conformance cases in the copy at {copy_of_repository / CASES}"
    done = _run_in(copy_of_repository, "-c", RUN_CLI, "rules", "check", str(CASES))
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == f"{len(cases)} passed, 0 failed"


def test_the_conformance_tests_pass_in_the_copy(copy_of_repository: Path) -> None:
    """The copy's own tests/test_conformance.py finds its cases (it fails, never skips, without them)."""
    done = _run_in(copy_of_repository, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                   "tests/test_conformance.py", "-k", "public")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    passed = re.search(r"(\d+) passed", done.stdout)
    assert passed and int(passed.group(1)) > len(list((copy_of_repository / CASES).glob("*.json"))), done.stdout[-500:]
    assert "skipped" not in done.stdout, done.stdout[-1000:]
