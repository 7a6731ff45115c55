"""docs/writing-a-bot.md, "Your first bot in 5 minutes", followed from a fresh clone, one path at a time.

Each path (Python SDK, Node SDK, stdio) is a run of the section's blocks marked ```LANG first-bot``` in
the order the page shows them: the blocks before the first ``###`` heading (the setup every path
shares), then those under the path's heading. A file block names its file in its first line (``#
mybot/lowbot.py: ...``) and is written there; a ``sh`` block is a list of commands, each of which this
test knows how to run, and any other command fails the test, so the page cannot grow a step the test
skips. The blocks are read from the working tree's page; everything else comes from ``git clone`` of
the repository (the committed HEAD): no .venv, no node_modules, no data.

Two steps are not repeated here because they take minutes: ``make venv`` links the .venv this test runs
in (where the referee and `mizerka` come from) and ``make clients-node`` copies the existing
clients/node/node_modules (installed by `make clients`; without it the command is run for real). The
leagues are run for real, in the clone: their own referee, the bot programs (in bubblewrap's sandbox
where it is installed), a few seconds each. Each must finish with every game played, the new bot in
the standings, and no fault, crash or disabled bot. The Node path is skipped, saying so, only when
`node` is missing.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from harness import BIN, ROOT
from needs import missing

DOC = ROOT / "docs" / "writing-a-bot.md"
SECTION = "## Your first bot in 5 minutes"
TAG = "first-bot"
# The paths the section must have: a test id and the start of its ### heading.
PATHS = {"python": "Python", "node": "Node.js", "stdio": "Any language"}
FENCE = re.compile(r"^```(\S*)(.*)$")
# The first line of a file block names the file, in the language's comment: "# mybot/lowbot.py: ..."
FILE_NAME = re.compile(r"^(?:#|//)\s*([\w./-]+\.(?:py|js|toml|jq|sh|pl))(?::|\s|$)")
NODE_MODULES = ROOT / "clients" / "node" / "node_modules"


@dataclass(frozen=True)
class Block:
    lang: str
    text: str
    heading: str  # the ### heading it is under; "" before the first one

    @property
    def file(self) -> str | None:
        """The file a file block is saved as; None for a block of commands."""
        if self.lang == "sh":
            return None
        first = self.text.splitlines()[0]
        found = FILE_NAME.match(first)
        assert found, f"the {self.lang} block under {self.heading!r} does not name its file in its first line: {first!r}"
        return found.group(1)


def section() -> str:
    text = DOC.read_text(encoding="utf-8")
    assert text.count(f"\n{SECTION}\n") == 1, f"{DOC} has no (or more than one) section {SECTION!r}"
    body = text.split(f"\n{SECTION}\n", 1)[1]
    return re.split(r"^## ", body, maxsplit=1, flags=re.M)[0]


def tagged_blocks(text: str) -> list[Block]:
    """The section's fenced blocks whose info string carries TAG, in order, with their ### heading."""
    blocks, heading, fence, lines = [], "", None, []
    for line in text.splitlines():
        if fence is None:
            if line.startswith("### "):
                heading = line[4:].strip()
            elif found := FENCE.match(line):
                fence, lines = (found.group(1), found.group(2).split()), []
        elif line.startswith("```"):
            lang, words = fence
            if TAG in words:
                blocks.append(Block(lang, "\n".join(lines) + "\n", heading))
            fence = None
        else:
            lines.append(line)
    assert fence is None, "an unclosed fenced block in the section"
    return blocks


def documented_output(text: str) -> list[str]:
    """The lines of the section's first ```text block: what the page says a league prints."""
    found = re.search(r"^```text\n(.*?)^```", text, flags=re.M | re.S)
    assert found, "the section shows no output (a ```text block)"
    return [line.strip() for line in found.group(1).splitlines()]


def path_blocks(path: str) -> list[Block]:
    blocks = tagged_blocks(section())
    return [b for b in blocks if b.heading == "" or b.heading.startswith(PATHS[path])]


def test_the_section_has_the_three_paths_and_nothing_the_test_does_not_try() -> None:
    blocks = tagged_blocks(section())
    headings = {b.heading for b in blocks if b.heading}
    assert len(headings) == len(PATHS), headings
    for heading in headings:
        assert sum(heading.startswith(start) for start in PATHS.values()) == 1, f"no test path for ### {heading}"
    for path in PATHS:
        langs = [b.lang for b in path_blocks(path)]
        assert langs.count("toml") == 1 and "sh" in langs and len(langs) > 3, (path, langs)
    # Every file block names a distinct file, inside the clone.
    files = [b.file for b in blocks if b.file]
    assert len(files) == len(set(files)), files
    assert all(not Path(f).is_absolute() and ".." not in Path(f).parts for f in files), files


def fresh_clone(tmp: Path) -> Path:
    clone = tmp / "mizerka-arena"
    done = subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    for made in (".venv", "data", "mybot", "clients/node/node_modules"):
        assert not (clone / made).exists(), f"{made} in a fresh clone: it is committed"
    return clone


def clean_env() -> dict[str, str]:
    """A shell's environment without this test run's MIZERKA_* settings."""
    return {k: v for k, v in os.environ.items() if not k.startswith("MIZERKA_")}


def assert_make_target(clone: Path, target: str) -> None:
    assert re.search(rf"^{re.escape(target)}:", (clone / "Makefile").read_text(), flags=re.M), \
        f"the page runs `make {target}`, which the Makefile does not have"


@dataclass
class League:
    file: str
    stdout: str


def run_command(clone: Path, argv: list[str], leagues: list[League]) -> None:
    """One documented command, in the clone (see the module's docstring for the two stand-ins)."""
    if argv == ["make", "venv"]:
        assert_make_target(clone, "venv")
        assert (BIN / "mizerka").is_file() and (BIN / "mizerka-bot").is_file(), f"no mizerka in {BIN}"
        (clone / ".venv").symlink_to(BIN.parent, target_is_directory=True)
    elif argv == ["make", "clients-node"]:
        assert_make_target(clone, "clients-node")
        if (NODE_MODULES / "@grpc" / "grpc-js").is_dir():
            shutil.copytree(NODE_MODULES, clone / "clients" / "node" / "node_modules", symlinks=True)
        else:  # not installed in this checkout: install it in the clone, as the page says
            done = subprocess.run(argv, cwd=clone, env=clean_env(), capture_output=True, text=True, timeout=600)
            assert done.returncode == 0, done.stdout + done.stderr
    elif argv[:2] == ["mkdir", "-p"]:
        subprocess.run(argv, cwd=clone, check=True)
    elif argv[:3] == [".venv/bin/mizerka", "league", "run"] and len(argv) == 4:
        done = subprocess.run(argv, cwd=clone, env=clean_env(), capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, f"{shlex.join(argv)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
        leagues.append(League(argv[3], done.stdout))
    else:
        pytest.fail(f"the page says to run `{shlex.join(argv)}`, which this test does not know how to run")


def check_league(clone: Path, league: League, written: set[str]) -> None:
    """Every game played, the new bot in the standings, no fault, crash or disabled bot."""
    config = tomllib.loads((clone / league.file).read_text())
    name, bots = config["name"], config["bots"]
    new = [b["name"] for b in bots if any(arg in written for arg in b["command"])]
    assert len(new) == 1, f"{league.file}: one bot should run a program the page wrote ({sorted(written)}): {bots}"

    lines = [line.strip() for line in league.stdout.splitlines()]
    found = re.fullmatch(rf"league {re.escape(name)}: (\d+) games", lines[0])
    assert found, league.stdout
    games = int(found.group(1))
    assert games == 3, f"the page promises 3 games: {lines[0]}"
    assert f"[{games}/{games}]" in league.stdout and f"{name}: standings after {games} games" in lines, league.stdout

    standings = json.loads(subprocess.run([".venv/bin/mizerka", "league", "standings", league.file, "--json"], cwd=clone,
                                          env=clean_env(), capture_output=True, text=True, check=True).stdout)
    assert standings["games"] == games, standings
    rows = {row["name"]: row for row in standings["bots"]}
    assert set(rows) == {b["name"] for b in bots}, (set(rows), bots)
    for row in rows.values():
        assert row["games"] == games and row["crashes"] == 0 and not row["disabled"], row
        assert all(count == 0 for count in row["faults"].values()), row
    log = clone / "data" / name / "logs" / f"{new[0]}.log"
    assert log.is_file(), f"the page points at {log.relative_to(clone)} for the bot's log"


@pytest.mark.parametrize("path", list(PATHS))
def test_the_first_bot_path_works_from_a_fresh_clone(tmp_path: Path, path: str) -> None:
    if path == "node" and shutil.which("node") is None:
        missing("node is not installed: the Node.js path of docs/writing-a-bot.md needs Node.js 18+ and npm")
    blocks = path_blocks(path)
    clone = fresh_clone(tmp_path)
    written: set[str] = set()
    leagues: list[League] = []
    for block in blocks:
        if block.file is None:
            for line in block.text.splitlines():
                argv = shlex.split(line, comments=True)
                if argv:
                    run_command(clone, argv, leagues)
        else:
            target = clone / block.file
            assert not target.exists(), f"the page's {block.file} would overwrite a file of the repository"
            target.write_text(block.text)  # no parents made: the page must say `mkdir` itself
            written.add(block.file)

    assert len(leagues) == 1, f"the {path} path should run one league: {leagues}"
    check_league(clone, leagues[0], written)
    if path == "python":  # the output the page shows is this path's
        shown = documented_output(section())
        actual = [line.strip() for line in leagues[0].stdout.splitlines()]
        assert shown[0] == actual[0], (shown[0], actual[0])
        assert [line for line in shown if "standings after" in line] == [line for line in actual if "standings after" in line]
