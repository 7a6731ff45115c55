"""Debian's chromium driven by Playwright, for the browser tests (tests/test_report.py, tests/test_web.py),
and what both check on the board: that it shows each contract as the data labels it."""

from __future__ import annotations

import importlib
import importlib.util
import shutil
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from mizerka_engine.events import ContractAnnounced, DealResult, MajorAnnounced, Settled, contract_text
from mizerka_engine.game import Game

from needs import missing

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def launch() -> Iterator[Any]:
    """A headless chromium (a fixture's body); skips, saying why, where it or Playwright is missing."""
    if importlib.util.find_spec("playwright") is None:
        missing("the Python playwright package is not installed (pip install -e '.[test]')")
    sync_api = importlib.import_module("playwright.sync_api")
    if not CHROMIUM.exists():
        found = shutil.which("chromium")
        missing(f"browser test skipped: Debian's chromium is not installed at {CHROMIUM}"
                    f"{f' (found {found})' if found else ''}; apt-get install chromium")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


def new_page(browser: Any) -> tuple[Any, list[str]]:
    """A page and the list its console errors and warnings, page errors and failed requests go to."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
    return page, problems


# Steps a board's replay (server/web/assets/board.js) to the steps given, in one call, and reads at
# each the places it shows a contract: the action line's, the deal line's and the deal result's; and
# the score sheet's rows at the last of them.
BOARD_CONTRACTS = """(wanted) => {
  const scrub = document.getElementById("scrub");
  const text = (selector) => { const node = document.querySelector(selector); return node ? node.textContent : null; };
  const steps = wanted.map((i) => {
    scrub.value = String(i);
    scrub.dispatchEvent(new Event("input"));
    return { step: Number(document.getElementById("step-counter").dataset.step), action: text("#action strong"),
             deal: text("#deal-line strong"), result: text("#deal-result p") };
  });
  return { steps, sheet: [...document.querySelectorAll("#scoresheet tbody tr")].map((r) => r.cells[3].textContent) };
}"""


@dataclass(frozen=True)
class Labels:
    """The contracts of a game as the engine's contract_text makes them, from the game's log alone
    (not from the frames): each contract announcement, each major announcement (None: a pass), each
    deal's settled contract and each deal's result, in order."""

    announced: list[str]
    majors: list[str | None]
    settled: list[str]
    results: list[str]

    @staticmethod
    def of(game: Game) -> Labels:
        rules = game.rules
        return Labels(
            [contract_text(e.contract, False, e.trump, rules) for e in game.log if isinstance(e, ContractAnnounced)],
            [None if e.contract is None else contract_text(e.contract, True, None, rules)
             for e in game.log if isinstance(e, MajorAnnounced)],
            [contract_text(e.contract, e.major, e.trump, rules) for e in game.log if isinstance(e, Settled)],
            [contract_text(r.contract, r.major, r.trump, rules) for r in game.results])

    def marked(self, mark: Callable[[str | None], str | None]) -> Labels:
        return Labels(*([mark(x) for x in getattr(self, f.name)] for f in fields(self)))  # type: ignore[arg-type]


def mark(label: str | None) -> str | None:
    """A label no code could compose from a contract's name, major flag and suit: a page that
    shows it shows the data's label."""
    return None if label is None else f"\u00ab{label.upper()}\u00bb"


def relabel(data: Any) -> Any:
    """``data`` with every ``label`` (frames, steps, results, score sheets, announcements) marked."""
    if isinstance(data, dict):
        return {k: mark(v) if k == "label" else relabel(v) for k, v in data.items()}
    if isinstance(data, list):
        return [relabel(v) for v in data]
    return data


_SETTLED = ("exchange", "play", "end", "over")  # the phases of a frame whose deal's contract is settled


def label_steps(frames: list[dict[str, Any]]) -> list[int]:
    """The steps that show a contract anew: each announcement, the first step of a deal's settled
    contract, each deal's end; the last step (the whole score sheet) last."""
    return [i for i, f in enumerate(frames)
            if f["act"]["type"] in ("contract", "major") or "result" in f or i == len(frames) - 1
            or f["phase"] in _SETTLED and (f["act"]["type"] == "deal" or frames[i - 1]["phase"] not in _SETTLED)]


def board_contracts(page: Any, frames: list[dict[str, Any]]) -> dict[str, Any]:
    """BOARD_CONTRACTS read off the board on ``page`` at the label_steps of its ``frames``."""
    steps = label_steps(frames)
    shown = page.evaluate(BOARD_CONTRACTS, steps)
    assert [s["step"] for s in shown["steps"]] == steps
    return shown


def assert_board_shows(shown: dict[str, Any], frames: list[dict[str, Any]], results: Sequence[DealResult],
                       want: Labels) -> None:
    """What board_contracts read off the board of ``frames`` is ``want``: each announcement on its
    step, the settled contract on the deal line once settled, each result's on its deal's end and
    in the score sheet."""
    announced, majors = iter(want.announced), iter(want.majors)
    for s in shown["steps"]:
        i = s["step"]
        f = frames[i]
        kind = f["act"]["type"]
        if kind == "contract":
            assert s["action"] == next(announced), f"step {i}"
        elif kind == "major":
            assert s["action"] == next(majors), f"step {i}"
        deal = f["results"] - ("result" in f)
        if f["phase"] in _SETTLED:
            assert s["deal"] == want.settled[deal], f"step {i}"
        if "result" in f:
            assert s["result"].startswith(f"{want.results[deal]}, declarer "), f"step {i}: {s['result']}"
    assert next(announced, None) is None and next(majors, None) is None
    for row, r, label in zip(shown["sheet"], results, want.results, strict=True):
        assert row == label or (r.void or r.tiebreak) and row.startswith(f"{label} "), row
