"""The public conformance cases (tests/conformance/cases) and the `mizerka rules` commands (docs/conformance.md).

The cases are part of the repository, so a clone anywhere can run them. A missing folder is a
failure, not a skip: CI must not pass silently without them.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from server.conformance import CaseError, compare, load_case, run_case

CASES = Path(__file__).resolve().parent / "conformance" / "cases"
CASE_FILES = sorted(CASES.glob("*.json")) if CASES.is_dir() else []
PUBLIC_CASES = 63  # the published set copied into tests/conformance/cases
MISSING = f"no conformance cases found at {CASES}: the public cases belong in the repository"


def _case(name: str) -> dict[str, Any]:
    assert CASES.is_dir(), MISSING
    return json.loads((CASES / f"{name}.json").read_text(encoding="utf-8"))


# ------------------------------------------------------------------------------ the public cases


def test_the_public_cases_are_there() -> None:
    assert CASES.is_dir(), MISSING
    assert len(CASE_FILES) >= PUBLIC_CASES, f"only {len(CASE_FILES)} of the {PUBLIC_CASES} public cases in {CASES}"


@pytest.mark.parametrize(
    "path", CASE_FILES or [pytest.param(None, id="no-cases-found")], ids=lambda p: p.stem if isinstance(p, Path) else str(p)
)
def test_public_case_passes(path: Path | None) -> None:
    """run_case + compare: every expectation of every public case holds."""
    assert path is not None, MISSING
    case = load_case(path)
    result = run_case(case)
    assert compare(case, result) == []
    assert len(result["deals"]) == len(case["deals"])


# ------------------------------------------------------------------------- runner and comparison


def test_result_object_has_the_documented_format() -> None:
    result = run_case(_case("mizerka-001"))
    assert set(result) == {"deals", "totals", "finished"}
    assert set(result["deals"][0]) == {"dealer", "declarer", "contract", "trump", "tricks", "points", "void", "refused"}
    assert result["deals"][0] == {
        "dealer": 1, "declarer": 2, "contract": "clubs", "trump": "C",
        "tricks": [5, 3, 5], "points": [0, 2, -2], "void": False, "refused": [],
    }


def test_a_cut_short_last_deal_reports_tricks_so_far_and_no_points() -> None:
    case = _case("mizerka-001")
    case["deals"][0]["actions"] = case["deals"][0]["actions"][:10]  # contract, exchanges, two tricks
    deal = run_case(case)["deals"][0]
    assert deal["points"] is None and sum(deal["tricks"]) == 2 and deal["contract"] == "clubs"


def test_refused_actions_are_reported_by_index() -> None:
    case = _case("mizerka-001")
    actions = case["deals"][0]["actions"]
    actions.insert(1, {"seat": 1, "discard": []})  # out of turn
    actions.insert(0, {"seat": 2, "contract": "grand"})  # no such contract
    result = run_case(case)
    assert result["deals"][0]["refused"] == [0, 2]
    assert compare(case, result) == ["deal 0: refused actions [0, 2], expected []"]
    actions[0]["refused"] = actions[2]["refused"] = True
    assert compare(case, run_case(case)) == []


def test_compare_reports_each_difference() -> None:
    case = _case("mizerka-001")
    result = run_case(case)
    case["deals"][0]["expect"]["points"] = [1, 1, -2]
    case["expect"]["totals"] = [1, 1, -2]
    diffs = compare(case, result)
    assert len(diffs) == 2 and "points" in diffs[0] and "totals" in diffs[1]


# ------------------------------------------------------------------------------ malformed cases


def _without_last_talon_card(case: dict) -> dict:
    case["deals"][0]["talon"] = case["deals"][0]["talon"][:-1]  # 51 cards
    return case


def _short_hand(case: dict) -> dict:
    deal = case["deals"][0]
    deal["talon"].append(deal["hands"][0].pop())  # 52 cards, but a 12-card hand
    return case


def _unknown_action(case: dict) -> dict:
    case["deals"][0]["actions"][0] = {"seat": 2, "bid": "seven"}
    return case


def _cut_short_then_another(case: dict) -> dict:
    first = case["deals"][0]
    case["deals"] = [dict(first, actions=first["actions"][:10]), copy.deepcopy(first)]
    return case


def _deal_after_game_over(case: dict) -> dict:
    case["deals"].append(copy.deepcopy(case["deals"][-1]))
    return case


def _repeated_card(case: dict) -> dict:
    deal = case["deals"][0]
    deal["talon"][0] = deal["hands"][0][0]
    return case


MALFORMED = {
    # name: (base case, how to break it, a word the error must contain)
    "unknown-preset": ("mizerka-001", lambda c: dict(c, preset="whist"), "whist"),
    "51-card-deck": ("mizerka-001", _without_last_talon_card, "talon"),
    "wrong-hand-size": ("mizerka-001", _short_hand, "hands[0]"),
    "repeated-card": ("mizerka-001", _repeated_card, "52"),
    "unknown-action-kind": ("mizerka-001", _unknown_action, "actions[0]"),
    "non-final-deal-cut-short": ("mizerka-001", _cut_short_then_another, "deals[0]"),
    "deal-after-game-over": ("mizerka-015", _deal_after_game_over, "over"),
    "bad-option-value": ("mizerka-001", lambda c: dict(c, options={"revoke": "sometimes"}), "revoke"),
    "not-an-object": ("mizerka-001", lambda c: [c], "object"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_case_raises_case_error(name: str) -> None:
    base, breaker, word = MALFORMED[name]
    with pytest.raises(CaseError, match=word.replace("[", r"\[").replace("]", r"\]")):
        run_case(breaker(_case(base)))


# ------------------------------------------------------------------------------------------ CLI


def _mizerka_command() -> list[str]:
    """The installed console script next to the interpreter, else the same Typer app via -c."""
    script = Path(sys.executable).with_name("mizerka")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from server.cli import app; sys.argv[0] = 'mizerka'; app()"]


def _cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*_mizerka_command(), *map(str, args)], capture_output=True, text=True, timeout=120)


def _write(tmp_path: Path, name: str, case: Any) -> Path:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(case) if not isinstance(case, str) else case, encoding="utf-8")
    return path


def test_cli_rules_run_prints_the_result() -> None:
    case_path = CASES / "mizerka-001.json"
    done = _cli("rules", "run", case_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == run_case(_case("mizerka-001"))


def test_cli_rules_run_exits_0_even_when_expectations_fail(tmp_path: Path) -> None:
    case = _case("mizerka-001")
    case["expect"]["totals"] = [9, 9, 9]
    case["deals"][0]["expect"]["tricks"] = [13, 0, 0]
    done = _cli("rules", "run", _write(tmp_path, "wrong", case))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["totals"] == [0, 2, -2] and result["deals"][0]["tricks"] == [5, 3, 5]


def _assert_exit_2_one_line(done: subprocess.CompletedProcess[str], word: str) -> None:
    assert done.returncode == 2, f"exit {done.returncode}; stderr: {done.stderr[-500:]}"
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, f"expected a one-line error, got:\n{done.stderr}"
    assert word in lines[0], lines[0]


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_cli_rules_run_malformed_case_exits_2(tmp_path: Path, name: str) -> None:
    base, breaker, word = MALFORMED[name]
    _assert_exit_2_one_line(_cli("rules", "run", _write(tmp_path, name, breaker(_case(base)))), word)


def test_cli_rules_run_bad_json_exits_2(tmp_path: Path) -> None:
    _assert_exit_2_one_line(_cli("rules", "run", _write(tmp_path, "bad", '{"preset": "mizerka", "deals": [')), "bad.json")


def test_cli_rules_run_missing_file_exits_2(tmp_path: Path) -> None:
    _assert_exit_2_one_line(_cli("rules", "run", tmp_path / "nope.json"), "nope.json")


def test_cli_rules_run_options_not_an_object_exits_2(tmp_path: Path) -> None:
    """`options` must be an object of option overrides; a list is a malformed case, not a crash."""
    case = dict(_case("mizerka-001"), options=["revoke", "penalty"])
    _assert_exit_2_one_line(_cli("rules", "run", _write(tmp_path, "options-list", case)), "options")


def test_cli_rules_check_reports_each_case_and_fails_on_any(tmp_path: Path) -> None:
    good = _case("mizerka-001")
    bad = _case("mizerka-001")
    bad["name"] = "mizerka-001-wrong"
    bad["expect"]["totals"] = [0, 0, 0]
    malformed = dict(_case("mizerka-001"), name="mizerka-001-malformed", preset="whist")
    for name, case in (("a", good), ("b", bad), ("c", malformed)):
        _write(tmp_path, name, case)
    done = _cli("rules", "check", tmp_path)
    assert done.returncode == 1, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[0] == "ok mizerka-001"
    assert lines[1].startswith("FAIL mizerka-001-wrong: ") and "totals" in lines[1] and "[0, 2, -2]" in lines[1]
    assert lines[2].startswith("FAIL mizerka-001-malformed: ") and "whist" in lines[2]
    assert lines[3] == "1 passed, 2 failed" and len(lines) == 4


def test_cli_rules_check_accepts_files_and_passes(tmp_path: Path) -> None:
    done = _cli("rules", "check", CASES / "mizerka-001.json", CASES / "trjamann-001.json")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().splitlines() == ["ok mizerka-001", "ok trjamann-001", "2 passed, 0 failed"]


def test_cli_rules_check_all_public_cases() -> None:
    assert CASES.is_dir(), MISSING
    done = _cli("rules", "check", CASES)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    lines = done.stdout.strip().splitlines()
    assert lines[-1] == f"{len(CASE_FILES)} passed, 0 failed"
    assert all(line.startswith("ok ") for line in lines[:-1]) and len(lines) == len(CASE_FILES) + 1
