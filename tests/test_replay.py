"""`mizerka replay` and `mizerka rerun` on the log of a real match: a `mizerka serve` process, bots
started as bot programs (`mizerka-bot heuristic`, `mizerka-bot cautious`, and the stdio example bot
through `mizerka-bot stdio`), the log exported with `mizerka match export`.

Verification must catch every tampering and name the line; `--seat` must show only what the seat
may know; a deterministic bot re-fed its own decisions must agree with all of them."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mizerka_proto import arena_pb2
from tournaments.cli import app

from harness import BIN, ROOT, referee

STDIO_BOT = f"{sys.executable} -I -S {ROOT / 'clients' / 'stdio' / 'bot.py'}"
# the same program, answering its first decision only after 2 s (tests/bots/slow_first.py)
SLOW_FIRST = f"{sys.executable} -I -S {ROOT / 'tests' / 'bots' / 'slow_first.py'} 2"
CARD = re.compile(r"\b[2-9TJQKA][SHDC]\b")
runner = CliRunner()


def mizerka(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "mizerka"), *args], capture_output=True, text=True, timeout=120, check=False)


def cli(*args: str) -> Any:
    return runner.invoke(app, list(args))


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One game of mizerka-short on a real referee: seat 0 heuristic, seat 1 cautious, seat 2 the
    stdio example bot; exported with `mizerka match export` (a real process)."""
    tmp = tmp_path_factory.mktemp("replay")
    with referee(tmp) as ref:
        admin = ref.arena()
        seats = []
        for name, command in (
            ("alice", [str(BIN / "mizerka-bot"), "heuristic"]),
            ("bob", [str(BIN / "mizerka-bot"), "cautious"]),
            ("carol", [str(BIN / "mizerka-bot"), "stdio", "--", *STDIO_BOT.split()]),
        ):
            bot_id, token = admin.register(name)
            ref.bot(token, *command, games=1, log=tmp / f"{name}.log")
            seats.append(bot_id)
        match_id = admin.create("mizerka-short", seats, seed="replay")
        assert admin.wait(match_id).status == arena_pb2.MATCH_STATUS_FINISHED
        exported = mizerka("match", "export", match_id, "--db", str(ref.db))
        assert exported.returncode == 0, exported.stderr
        listed = mizerka("match", "list", "--db", str(ref.db))
    path = tmp / "match.jsonl"
    path.write_text(exported.stdout)
    return {"path": path, "lines": [json.loads(line) for line in exported.stdout.splitlines()], "match_id": match_id,
            "listed": listed, "db": ref.db, "tmp": tmp}


def tampered(played: dict[str, Any], name: str, change: Any) -> tuple[Path, int]:
    """A copy of the log with one line changed by ``change(lines)`` (which returns its index)."""
    lines = copy.deepcopy(played["lines"])
    index = change(lines)
    path = played["tmp"] / name
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path, index + 1


def test_match_list_and_export_of_a_real_match_and_replay_verifies_it(played: dict[str, Any]) -> None:
    assert played["match_id"] in played["listed"].stdout and "FINISHED" in played["listed"].stdout
    lines = played["lines"]
    header, end = lines[0], lines[-1]
    assert header["type"] == "header" and header["match"] == played["match_id"] and header["seed"] == "replay/0"
    seats = [(s["name"], s["hello_name"], s["version"]) for s in header["seats"]]
    assert seats[:2] == [("alice", "heuristic", "1"), ("bob", "cautious", "1")]
    assert seats[2][0] == "carol" and seats[2][1].startswith("stdio:") and seats[2][2] == "stdio/1"
    assert end["type"] == "end" and sum(end["totals"]) == 0
    plays = [line for line in lines if line["type"] == "play"]
    assert plays and all(p["default"] is None and isinstance(p["ms"], int) and p["turn"] >= 1 for p in plays)

    result = mizerka("replay", str(played["path"]))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("verified: 9 deals, totals ")
    totals = " ".join(f"{t:+d}" for t in end["totals"])
    assert f"totals {totals}" in result.stdout
    by_id = cli("replay", played["match_id"], "--db", str(played["db"]))  # straight from the store
    assert by_id.exit_code == 0 and by_id.stdout == result.stdout


def test_a_changed_card_is_caught_at_its_line(played: dict[str, Any]) -> None:
    def play_a_card_of_another_hand(lines: list[dict[str, Any]]) -> int:
        deal = next(line for line in lines if line["type"] == "deal")
        i = next(i for i, line in enumerate(lines) if line["type"] == "play")
        lines[i]["card"] = deal["hands"][(lines[i]["seat"] + 1) % 3][0]
        return i

    path, line = tampered(played, "card.jsonl", play_a_card_of_another_hand)
    result = cli("replay", str(path))
    assert result.exit_code == 1
    assert result.stdout.startswith(f"not verified: line {line}: the log says seat ") and "CARD_NOT_HELD" in result.stdout

    def deal_another_card(lines: list[dict[str, Any]]) -> int:
        i = next(i for i, line in enumerate(lines) if line["type"] == "deal" and line["deal"] == 4)
        hands = lines[i]["hands"]
        hands[0][3], hands[2][3] = hands[2][3], hands[0][3]
        return i

    path, line = tampered(played, "deal.jsonl", deal_another_card)
    result = cli("replay", str(path))
    assert result.exit_code == 1 and f"line {line}: the log says seat 0 is dealt " in result.stdout
    assert "the seed deals it" in result.stdout


def test_a_changed_trick_winner_or_score_is_caught_at_its_line(played: dict[str, Any]) -> None:
    def winner(lines: list[dict[str, Any]]) -> int:
        i = [i for i, line in enumerate(lines) if line["type"] == "trick"][17]
        lines[i]["winner"] = (lines[i]["winner"] + 1) % 3
        return i

    path, line = tampered(played, "trick.jsonl", winner)
    result = cli("replay", str(path))
    assert result.exit_code == 1
    assert re.fullmatch(rf"not verified: line {line}: the log says trick won by seat \d, the rules give seat \d\n", result.stdout)

    def points(lines: list[dict[str, Any]]) -> int:
        i = [i for i, line in enumerate(lines) if line["type"] == "result"][2]
        lines[i]["points"][1] += 2
        lines[i]["points"][2] -= 2  # still sums to zero
        return i

    path, line = tampered(played, "points.jsonl", points)
    result = cli("replay", str(path))
    assert result.exit_code == 1 and f"line {line}: the log says deal 2 scores " in result.stdout

    def total(lines: list[dict[str, Any]]) -> int:
        lines[-1]["totals"][0] += 1
        return len(lines) - 1

    path, line = tampered(played, "total.jsonl", total)
    result = cli("replay", str(path))
    assert result.exit_code == 1 and f"line {line}: the log says totals " in result.stdout


def test_malformed_logs_exit_2_with_one_line(played: dict[str, Any]) -> None:
    text = played["path"].read_text().splitlines()
    cases = {
        "json.jsonl": ([*text[:4], text[4][:-5], *text[5:]], "line 5: not JSON"),
        "version.jsonl": ([json.dumps(dict(played["lines"][0], version=2)), *text[1:]], "line 1: match log version 2 is not supported"),
        "headless.jsonl": (text[1:], "line 1: the log must start with a header line"),
        "clock.jsonl": ([json.dumps(dict(played["lines"][0], clock={"decision_ms": 500, "bank": 9})), *text[1:]],
                        "line 1: the header's clock cannot be used: unknown clock setting 'bank'"),
        "clock-value.jsonl": ([json.dumps(dict(played["lines"][0], clock={"decision_ms": -1})), *text[1:]],
                              "line 1: a 'header' line: clock.decision_ms must be a whole number from 0 to"),
        "field.jsonl": ([*text[:2], json.dumps({"type": "contract", "seat": 0}), *text[3:]], "line 3: a 'contract' line needs the field"),
    }
    for name, (lines, message) in cases.items():
        path = played["tmp"] / name
        path.write_text("\n".join(lines) + "\n")
        result = cli("replay", str(path))
        assert result.exit_code == 2, name
        assert result.stderr.count("\n") == 1 and message in result.stderr, result.stderr
    assert cli("replay", str(played["tmp"] / "nothing-here.jsonl"), "--db", str(played["tmp"] / "none.sqlite")).exit_code == 2


def test_text_shows_every_trick_with_its_winner_and_the_score_sheet(played: dict[str, Any]) -> None:
    result = cli("replay", str(played["path"]), "--text")
    assert result.exit_code == 0
    out = result.stdout
    winners = [line["winner"] for line in played["lines"] if line["type"] == "trick"]
    shown = [int(w) for w in re.findall(r"^  trick \d+: .* -> won by seat (\d)$", out, re.MULTILINE)]
    assert shown == winners and len(winners) == 9 * 13
    deals = [line for line in played["lines"] if line["type"] == "deal"]
    for d in deals:
        assert f"  hand of seat 0: {' '.join(sorted(d['hands'][0], key=_order))}" in out
    assert "Score sheet" in out and "Contracts used as declarer" in out
    for name in ("alice", "bob", "carol"):
        assert name in out
    assert out.rstrip().splitlines()[-1].startswith("verified: 9 deals")


def _order(card: str) -> int:
    return "SHDC".index(card[1]) * 13 + "23456789TJQKA".index(card[0])


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_seat_view_shows_no_card_of_another_hand_before_it_is_played(played: dict[str, Any], seat: int) -> None:
    result = cli("replay", str(played["path"]), "--seat", str(seat))
    assert result.exit_code == 0
    sections = re.split(r"^(?=deal \d+)", result.stdout, flags=re.MULTILINE)[1:]
    deals = [line for line in played["lines"] if line["type"] == "deal"]
    assert len(sections) == len(deals)
    takes = _own_takes(played["lines"], seat)
    for deal, text, taken in zip(deals, sections, takes):
        own = set(deal["hands"][seat]) | taken
        played_cards: set[str] = set()
        for line in text.splitlines():
            m = re.fullmatch(r"  seat (\d) plays (\w\w)", line)
            if m:
                played_cards.add(m.group(2))
            foreign = set(CARD.findall(line)) - own - played_cards
            assert not foreign, f"seat {seat} sees {foreign} before they are played: {line!r}"
    assert f"you are seat {seat}" in result.stdout and "game over: totals" in result.stdout
    turns = [line["turn"] for line in played["lines"] if line.get("seat") == seat and "turn" in line]
    assert [int(t) for t in re.findall(r"^  turn (\d+) ", result.stdout, re.MULTILINE)] == turns


def _own_takes(lines: list[dict[str, Any]], seat: int) -> list[set[str]]:
    out: list[set[str]] = []
    for line in lines:
        if line["type"] == "deal":
            out.append(set())
        elif line["type"] == "exchange" and line["seat"] == seat:
            out[-1] |= set(line["take"])
    return out


def test_seat_json_is_what_the_stdio_bridge_wrote_to_the_program(played: dict[str, Any]) -> None:
    result = cli("replay", str(played["path"]), "--seat", "2", "--json")
    assert result.exit_code == 0
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[0]["type"] == "game_start" and lines[-1]["type"] == "game_end"
    decides = [line for line in lines if line["type"] == "decide"]
    assert [d["turn"] for d in decides] == [line["turn"] for line in played["lines"] if line.get("seat") == 2 and "turn" in line]
    assert all(d["view"]["seat"] == 2 and d["view"]["hand"] or d["kind"] == "contract" for d in decides)


def test_refeeding_a_deterministic_bot_reproduces_its_decisions(played: dict[str, Any]) -> None:
    same = cli("replay", str(played["path"]), "--seat", "0", "--bot", "builtin:heuristic")
    assert same.exit_code == 0, same.stdout
    decisions = sum(1 for line in played["lines"] if line.get("seat") == 0 and "turn" in line)
    assert same.stdout == f"seat 0 (alice), bot builtin:heuristic: {decisions} decisions, 0 differ from the log; every decision agrees\n"

    program = cli("replay", str(played["path"]), "--seat", "2", "--bot", STDIO_BOT)  # the stdio program it was
    assert program.exit_code == 0, program.stdout
    assert re.search(r"bot .*bot\.py: \d+ decisions, 0 differ from the log; every decision agrees$", program.stdout)


def test_refeeding_another_bot_reports_each_difference(played: dict[str, Any]) -> None:
    other = cli("replay", str(played["path"]), "--seat", "0", "--bot", "builtin:cautious")
    assert other.exit_code == 1
    *diffs, summary = other.stdout.splitlines()
    assert diffs and all(re.match(r"turn \d+ \(deal \d, (trick \d+|exchange|contract)\): log \w+ .*, bot \w+ ", d) for d in diffs)
    assert re.fullmatch(rf"seat 0 \(alice\), bot builtin:cautious: \d+ decisions, {len(diffs)} differs? from the log", summary)
    plays = [d for d in diffs if "trick" in d]
    if plays:
        assert re.search(r"log played [2-9TJQKA][SHDC], bot plays [2-9TJQKA][SHDC]", plays[0])
    assert cli("replay", str(played["path"]), "--bot", "builtin:cautious").exit_code == 2  # --bot needs --seat
    assert cli("replay", str(played["path"]), "--seat", "0", "--bot", "builtin:nobody").exit_code == 2


def test_rerun_with_the_same_bots_reproduces_the_totals_and_with_others_changes_them(played: dict[str, Any]) -> None:
    totals = " ".join(f"{t:+d}" for t in played["lines"][-1]["totals"])
    same = cli("rerun", str(played["path"]), "--bot", f"2={STDIO_BOT}")  # seats 0 and 1 are built-in: kept
    assert same.exit_code == 0, same.stdout
    assert f"log:   totals {totals}" in same.stdout and f"rerun: totals {totals}," in same.stdout
    assert "Score sheet" in same.stdout and "heuristic" in same.stdout and "cautious" in same.stdout

    other = cli("rerun", str(played["path"]), "--bot", "0=builtin:greedy", "--bot", "1=builtin:heuristic")
    assert other.exit_code == 0
    assert "default policy" in other.stdout  # seat 2 was no built-in bot
    rerun_line = next(line for line in other.stdout.splitlines() if line.startswith("rerun: totals"))
    assert not rerun_line.startswith(f"rerun: totals {totals},")
    assert cli("rerun", str(played["path"]), "--bot", "5=builtin:greedy").exit_code == 2


def test_answer_timeout_is_how_long_replay_and_rerun_wait_for_a_program(played: dict[str, Any]) -> None:
    """The program that played seat 2, slowed by 2 s at its first decision: a --answer-timeout of
    0.25 s takes the first decision (and any others that come while it sleeps) as a timeout, the
    referee's default, as the log's TIMEOUT; one of 30 s waits for it, and it agrees with the log
    (the default 10 s would too: only the short limit tells that the value is used)."""
    path = str(played["path"])
    late = mizerka("replay", path, "--seat", "2", "--bot", SLOW_FIRST, "--answer-timeout", "0.25")
    assert late.returncode == 1, late.stdout + late.stderr
    *diffs, summary = late.stdout.splitlines()
    first = next(line for line in played["lines"] if line.get("seat") == 2 and "turn" in line)
    assert diffs[0].startswith(f"turn {first['turn']} ("), diffs
    assert all(d.endswith("bot gives no legal answer [the referee would have applied its default: TIMEOUT]")
               for d in diffs), diffs
    assert summary.endswith(f"{len(diffs)} differ{'s' if len(diffs) == 1 else ''} from the log"), summary
    waited = mizerka("replay", path, "--seat", "2", "--bot", SLOW_FIRST, "--answer-timeout", "30")
    assert waited.returncode == 0 and waited.stdout.endswith("0 differ from the log; every decision agrees\n"), waited.stdout

    totals = " ".join(f"{t:+d}" for t in played["lines"][-1]["totals"])
    late = mizerka("rerun", path, "--bot", f"2={SLOW_FIRST}", "--answer-timeout", "0.25")
    assert late.returncode == 0, late.stdout + late.stderr
    rerun_line = next(line for line in late.stdout.splitlines() if line.startswith("rerun: totals"))
    defaults = re.fullmatch(r"rerun: totals .*; defaults applied 0 0 (\d+)", rerun_line)
    assert defaults and int(defaults[1]) >= 1, rerun_line  # its timeouts: the default played for it
    waited = mizerka("rerun", path, "--bot", f"2={SLOW_FIRST}", "--answer-timeout", "30")
    assert waited.returncode == 0, waited.stdout + waited.stderr
    assert f"rerun: totals {totals}, ranks" in waited.stdout and "defaults applied" not in waited.stdout, waited.stdout
