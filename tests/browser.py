"""Debian's chromium driven by Playwright, for the browser tests (tests/test_report.py, tests/test_web.py)."""

from __future__ import annotations

import importlib
import importlib.util
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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
