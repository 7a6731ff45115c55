"""Crafted match logs, crafted program lines and programs that flood: whatever a file or a stdio
program holds, the reader answers with the project's error naming the line (MatchLogError,
Divergence; LineError for a program's line), never with another exception, and holds a bounded
amount of it in memory.

Real logs (games played by the offline referee with SDK bots, exported as the referee exports them)
are mutated the ways an attacker would: values of another type, numbers as strings, huge numbers,
NaN, fields removed, values nested deeper, lines cut short. Each is read by what `mizerka replay LOG`,
`mizerka replay LOG --text` and `--seat N [--json]` run, and program lines by the bridge's decoder.
The two cases the audit found are run through the real command line too, and so are a program
that writes without ever reading (`mizerka bot stdio` on a real referee) and a 300 MB line to
`mizerka replay --bot`, each child's peak memory read from its /proc status (VmHWM)."""

from __future__ import annotations

import contextlib
import io
import json
import math
import re
import subprocess
import sys
import time
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from mizerka.bots import HeuristicBot, RandomBot
from mizerka.stdio import LineError, Translator, action_from_line
from mizerka.stdio.program import LINE_LIMIT, UNREAD_LIMIT, LineReader, LineTooLong
from mizerka_engine.rules import load_ruleset
from server.arena import record_to_store
from server.codec import matchlog
from server.logverify import Divergence, verify_game
from server.referee.offline import play, seat_messages
from server.scoresheet import render_scoresheet
from tournaments.commands.replay import game_text
from tournaments.commands.seat_replay import seat_json, seat_text
from tournaments.local_bots import SdkSeat

from harness import BIN, referee

LINE = re.compile(r"^line [1-9]\d*: ")


@cache
def real_log(preset: str) -> tuple[dict[str, Any], ...]:
    """The lines of one real game of ``preset`` (heuristic and random SDK bots), as exported."""
    seats = [SdkSeat(HeuristicBot()), SdkSeat(RandomBot(seed=1)), SdkSeat(RandomBot(seed=2)), SdkSeat(RandomBot(seed=3))]
    rules = load_ruleset(preset)
    record = play(rules, f"crafted-{preset}", seats[:rules.players], [f"bot{s}" for s in range(rules.players)])
    stored = json.loads(json.dumps(record_to_store(record, [])))
    return tuple(matchlog.game_lines(stored["header"], stored))


def replay(text: str) -> None:
    """What `mizerka replay LOG`, `--text` and `--seat N --json` do with a log, less the printing."""
    for g in matchlog.parse_match_log(text):
        v = verify_game(g)
        list(game_text(v))
        Console(file=io.StringIO(), width=120).print(render_scoresheet(g.rules, v.game.results, g.names))
        for seat in range(g.rules.players):
            messages = seat_messages(g, seat)
            list(seat_text(g, seat, messages))
            list(seat_json(messages))


def assert_clear(text: str) -> None:
    """Reading ``text`` succeeds or fails with the project's error naming the line."""
    try:
        replay(text)
    except (matchlog.MatchLogError, Divergence) as e:
        assert LINE.match(str(e)) or str(e).startswith("the log is empty"), str(e)
        assert len(str(e)) < 400, str(e)  # a message, not the crafted value


# ------------------------------------------------------------------------------ mutations
def paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside a line's JSON (the line itself is ())."""
    out = [path]
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, inner in items:
        out += paths(inner, (*path, key))
    return out


def nested(value: Any, depth: int) -> Any:
    for _ in range(depth):
        value = [value]
    return value


REPLACEMENTS = st.one_of(
    st.sampled_from([None, True, False, 0, -1, 1, 3, 2**31, 10**30, -(10**30), 1.5, math.nan, math.inf, "", "x", "AS",
                     "S", "TIMEOUT", [], {}, ["AS"], [1, 2, 3], {"seat": 0}, ["x", "y", "z"]]),
    st.text(max_size=5), st.integers(), st.floats(allow_nan=True),
)


@st.composite
def mutated_logs(draw: st.DrawFn) -> str:
    lines = [json.loads(json.dumps(line)) for line in real_log(draw(st.sampled_from(["mizerka-short", "manni-major"])))]
    deep: dict[str, str] = {}  # nesting too deep for json.dumps, written into the text afterwards
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        places = paths(lines[i])
        path = draw(st.sampled_from(places))
        parent = None if not path else lines[i]
        for key in path[:-1]:
            parent = parent[key]  # type: ignore[index]
        current = lines[i] if not path else parent[path[-1]]  # type: ignore[index]
        how = draw(st.sampled_from(["replace", "stringify", "remove", "nest", "wrap"]))
        if how == "replace":
            new = draw(REPLACEMENTS)
        elif how == "stringify":
            new = json.dumps(current) if not isinstance(current, str) else current + "0"
        elif how == "nest":
            depth = draw(st.sampled_from([1, 2, 20, 2_000]))
            new = nested(current, depth) if depth < 100 else f"@deep{len(deep)}@"
            if depth >= 100:
                deep[json.dumps(new)] = "[" * depth + json.dumps(current) + "]" * depth
        elif how == "wrap":
            new = {"value": current}
        else:
            new = None
        if not path:
            lines[i] = new if how != "remove" else {}
        elif how == "remove" and isinstance(parent, dict):
            del parent[path[-1]]
        elif how == "remove" and isinstance(parent, list):
            parent.pop(path[-1])
        else:
            parent[path[-1]] = new  # type: ignore[index]
    text = [json.dumps(line) for line in lines]
    for mark, value in deep.items():
        text = [line.replace(mark, value) for line in text]
    if draw(st.booleans()):  # and a line cut short
        i = draw(st.integers(0, len(text) - 1))
        text[i] = text[i][: draw(st.integers(0, len(text[i])))]
    return "\n".join(text) + "\n"


@given(mutated_logs())
def test_every_mutated_log_is_read_or_refused_naming_its_line(text: str) -> None:
    assert_clear(text)


def test_the_real_logs_verify_and_each_kind_of_crafted_value_is_refused_naming_line_and_field() -> None:
    lines = list(real_log("mizerka-short"))
    replay(matchlog.dumps(lines))  # the unmutated log is fine
    end = len(lines)
    play_at = next(i for i, line in enumerate(lines) if line["type"] == "play")
    result_at = next(i for i, line in enumerate(lines) if line["type"] == "result")
    cases: list[tuple[int, str, Any, str]] = [
        (end - 1, "totals", ["5", "-3", "-2"], f"line {end}: an 'end' line: totals[0] must be a whole number"),
        (0, "seats", ["alice", "bob", "carol"], "line 1: a 'header' line: seats[0] must be an object, not 'alice'"),
        (0, "seats", {"0": {}}, "line 1: a 'header' line: seats must be a list of (an object), not an object"),
        (play_at, "seat", 10**30, f"line {play_at + 1}: a 'play' line: seat must be a seat from 0 to 2, not 10000"),
        (play_at, "ms", math.nan, f"line {play_at + 1}: not JSON (NaN is not a JSON number)"),
        (result_at, "points", [1, 2], f"line {result_at + 1}: a 'result' line: points must be a list of 3"),
        (result_at, "tricks", nested(1, 30), f"line {result_at + 1}: nested deeper than 16 levels"),
        (end - 1, "seats", [{"refusals": "2"}, {}, {}], f"line {end}: an 'end' line: seats[0].refusals must be a whole number"),
        (0, "clock", {"decision_ms": 2**40}, "line 1: a 'header' line: clock.decision_ms must be a whole number from 0 to"),
    ]
    for i, key, value, message in cases:
        changed = [dict(line) for line in lines]
        changed[i][key] = value
        with pytest.raises(matchlog.MatchLogError) as caught:
            replay(matchlog.dumps(changed))
        assert str(caught.value).startswith(message), str(caught.value)
    without = [dict(line) for line in lines]
    del without[result_at]["totals"]
    with pytest.raises(matchlog.MatchLogError, match=rf"^line {result_at + 1}: a 'result' line needs the field 'totals'"):
        replay(matchlog.dumps(without))


# ------------------------------------------------------------------------------ program lines
ANSWERS = ['{"turn": 7, "play": "AS"}', '{"turn": 1, "contract": "trumps", "trump": "H"}', '{"turn": 3, "major": null}',
           '{"turn": 2, "discard": ["2C"], "take": ["AH"]}']


@st.composite
def program_lines(draw: st.DrawFn) -> str:
    obj = json.loads(draw(st.sampled_from(ANSWERS)))
    key = draw(st.sampled_from(sorted(obj)))
    how = draw(st.sampled_from(["replace", "nest", "remove", "stringify"]))
    if how == "replace":
        obj[key] = draw(REPLACEMENTS)
    elif how == "nest":
        depth = draw(st.sampled_from([1, 50, 990, 5_000]))
        obj[key] = "@deep@"  # written into the text: json.dumps cannot nest this deep
        inner = "[" * depth + json.dumps(json.loads(draw(st.sampled_from(ANSWERS))).get(key)) + "]" * depth
    elif how == "remove":
        del obj[key]
    else:
        obj[key] = json.dumps(obj[key])
    text = json.dumps(obj)
    if how == "nest":
        text = text.replace('"@deep@"', inner)
    return text[: draw(st.integers(0, len(text)))] if draw(st.booleans()) else text


@given(program_lines())
def test_every_crafted_program_line_is_an_action_or_a_line_error(line: str) -> None:
    try:
        action_from_line(line)
    except LineError as e:
        assert len(str(e)) < 300, str(e)
    translator = Translator()
    translator.pending = 7
    translator.from_program(line)  # judged, never raised


def test_a_deeply_nested_program_line_is_a_line_error() -> None:
    for depth in (990, 100_000):
        with pytest.raises(LineError, match="nested"):
            action_from_line("[" * depth)
        with pytest.raises(LineError, match="nested"):
            action_from_line('{"turn": 1, "play": ' + "[" * depth + "1" + "]" * depth + "}")


# ------------------------------------------------------------------------------ the command line
def mizerka_replay(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "mizerka"), "replay", str(path), *args], capture_output=True, text=True,
                          timeout=120, check=False)


@pytest.mark.parametrize("args", [(), ("--text",)])
def test_a_line_of_100000_brackets_exits_2_naming_the_line(tmp_path: Path, args: tuple[str, ...]) -> None:
    lines = list(real_log("mizerka-short"))
    path = tmp_path / "brackets.jsonl"
    path.write_text(matchlog.dumps(lines[:3]) + "[" * 100_000 + "\n" + matchlog.dumps(lines[3:]))
    done = mizerka_replay(path, *args)
    assert done.returncode == 2, done.stderr
    assert f"{path}: line 4: nested deeper than 16 levels" in done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1


@pytest.mark.parametrize("args", [(), ("--text",)])
def test_string_totals_exit_2_naming_the_line_and_field(tmp_path: Path, args: tuple[str, ...]) -> None:
    lines = [dict(line) for line in real_log("mizerka-short")]
    lines[-1]["totals"] = [str(t) for t in lines[-1]["totals"]]
    path = tmp_path / "totals.jsonl"
    path.write_text(matchlog.dumps(lines))
    done = mizerka_replay(path, *args)
    assert done.returncode == 2, done.stderr
    assert f"line {len(lines)}: an 'end' line: totals[0] must be a whole number from" in done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1


# ------------------------------------------------------------------------------ programs that flood
MIB = 1 << 20


# The tests that measure a child's peak memory run one after another on one worker of a parallel run
# (pytest-xdist): each floods a child with hundreds of MB, and two at once would crowd the machine.
MEMORY = pytest.mark.xdist_group("memory")


def peak_rss(proc: subprocess.Popen[str], timeout_s: float = 120.0) -> tuple[int, int]:
    """Wait for ``proc``: its exit code and the peak resident memory in bytes of the program it
    runs, the highest VmHWM its /proc status showed (read every 10 ms; the peak only grows).
    Not wait4's ru_maxrss: Linux keeps in it the memory the process had before it ran its program,
    a fork of this test process, hundreds of MiB late in a full run."""
    deadline = time.monotonic() + timeout_s
    peak = 0
    while True:
        with contextlib.suppress(OSError):
            status = Path(f"/proc/{proc.pid}/status").read_text()
            peak = max([peak, *(int(line.split()[1]) * 1024 for line in status.splitlines() if line.startswith("VmHWM:"))])
        if proc.poll() is not None:
            return proc.returncode, peak
        assert time.monotonic() < deadline, f"{proc.args} still runs after {timeout_s} s"
        time.sleep(0.01)


def test_the_line_reader_holds_at_most_the_limit_of_a_line() -> None:
    reader = LineReader(limit=8)
    assert reader.feed(b"ab\ncd") == [b"ab\n"]
    assert reader.feed(b"ef\n\n12345678\n") == [b"cdef\n", b"\n", b"12345678\n"]
    assert reader.feed(b"tail") == [] and reader.end() == b"tail" and reader.end() == b""
    with pytest.raises(LineTooLong, match="longer than 8 bytes"):
        reader.feed(b"123456789\n")
    reader = LineReader(limit=8)
    reader.feed(b"12345")
    with pytest.raises(LineTooLong):
        reader.feed(b"6789")  # refused before its newline arrives: nothing longer is held
    assert len(reader.partial) <= 8


# Writes answer lines (to turn 999: never the pending one) as fast as it can, and never reads what
# it is sent back.
FLOOD = """
import sys
line = '{"turn": 999, "play": "AS"}\\n' * 1000
for _ in range(1000):
    sys.stdout.write(line)
"""


# Writes one line of 300 MB, 1 MiB at a time, as soon as it starts.
LONG_LINE = """
import sys
chunk = "x" * (1 << 20)
for _ in range(300):
    sys.stdout.write(chunk)
"""


@MEMORY
@pytest.mark.parametrize(("program", "why"), [
    (FLOOD, f"left more than {UNREAD_LIMIT} bytes of its input unread, the stdio protocol's limit"),
    (LONG_LINE, f"wrote a line longer than {LINE_LIMIT} bytes, the stdio protocol's limit"),
], ids=["flood", "long-line"])
def test_a_program_that_floods_the_bridge_is_stopped_with_bounded_memory(tmp_path: Path, program: str, why: str) -> None:
    """In the lobby, every line of FLOOD is an answer nobody asked for: each gets an error line the
    program never reads. The bridge stops it once UNREAD_LIMIT bytes wait for it, and gives up
    (--max-restarts 0); its memory never holds the 1,000,000 error lines (about 200 MB). A line
    of 300 MB is stopped at LINE_LIMIT, never held."""
    (tmp_path / "flood.py").write_text(program)
    log = tmp_path / "bridge.log"
    with referee(tmp_path) as ref:
        _, token = ref.arena().register("flood")
        bridge = ref.bot(token, str(BIN / "mizerka"), "bot", "stdio", "--max-restarts", "0", "--",
                         sys.executable, "-I", str(tmp_path / "flood.py"), log=log)
        code, rss = peak_rss(bridge)
    text = log.read_text()
    assert rss < 250 * MIB, f"the bridge peaked at {rss // MIB} MiB"
    assert code == 1, text[-2000:]
    assert f"stream 0: the program {why}: stopped" in text
    assert "exited 1 times in a row without finishing a game" in text and "Traceback" not in text


def replay_seat_with(tmp_path: Path, name: str, program: str) -> tuple[str, int, int, str]:
    """``mizerka replay LOG --seat 0 --bot PROGRAM`` of a real log: the bot's command, the exit
    code, the peak RSS and stderr."""
    path = tmp_path / "match.jsonl"
    path.write_text(matchlog.dumps(real_log("mizerka-short")))
    (tmp_path / name).write_text(program)
    bot = f"{sys.executable} -I {tmp_path / name}"
    replay = subprocess.Popen([str(BIN / "mizerka"), "replay", str(path), "--seat", "0", "--bot", bot],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        code, rss = peak_rss(replay)
    finally:
        replay.kill()  # only if it still runs: a failed wait
    return bot, code, rss, replay.stderr.read() if replay.stderr is not None else ""


@MEMORY
def test_a_program_that_writes_and_never_reads_ends_replay_bot_naming_the_bot(tmp_path: Path) -> None:
    """Offline, each of its lines is judged at the seat's next decision: an error line it never
    reads. The seat writes from its own thread, so nothing blocks, and stops it at UNREAD_LIMIT."""
    bot, code, rss, stderr = replay_seat_with(tmp_path, "flood.py", FLOOD)
    assert code == 2, stderr
    assert f"bot {bot!r} left more than {UNREAD_LIMIT} bytes of its input unread, the stdio protocol's limit: stopped" in stderr
    assert rss < 200 * MIB, f"mizerka replay peaked at {rss // MIB} MiB"


# Answers its first decide line with a line of 300 MB, written 1 MiB at a time.
BIG_LINE = """
import sys
for line in sys.stdin:
    if '"type":"decide"' in line:
        chunk = "x" * (1 << 20)
        for _ in range(300):
            sys.stdout.write(chunk)
        sys.stdout.write("\\n")
        sys.stdout.flush()
"""


@MEMORY
def test_a_300_mb_line_to_replay_bot_is_refused_naming_the_bot_and_the_limit(tmp_path: Path) -> None:
    bot, code, rss, stderr = replay_seat_with(tmp_path, "big.py", BIG_LINE)
    assert code == 2, stderr
    assert f"bot {bot!r} wrote a line longer than {LINE_LIMIT} bytes, the stdio protocol's limit: stopped" in stderr
    assert "Traceback" not in stderr
    assert rss < 200 * MIB, f"mizerka replay peaked at {rss // MIB} MiB"
