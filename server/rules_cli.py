"""``mizerka rules run|check``: conformance cases (docs/conformance.md), the rules engine on the
command line without the referee's libraries (``mizerka demo`` is server.demo_cli)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from server.commands import usage_error
from server.conformance import CaseError, case_files, compare, load_case, run_case

rules_app = typer.Typer(help="Rules conformance cases (docs/conformance.md).", no_args_is_help=True, add_completion=False)


@rules_app.command("run")
def rules_run(case: Annotated[Path, typer.Argument(help="A case file (JSON).")]) -> None:
    """Run one case and print its result object as JSON."""
    try:
        result = run_case(load_case(case))
    except CaseError as e:
        raise usage_error(str(e)) from None
    print(json.dumps(result))


@rules_app.command("check")
def rules_check(paths: Annotated[list[Path], typer.Argument(help="Case files or folders of *.json, e.g. tests/conformance/cases.")]) -> None:
    """Run cases, compare with their expectations, print ok/FAIL per case and a closing count."""
    passed = failed = 0
    for path in case_files(paths):
        name = path.stem
        try:
            case = load_case(path)
            name = case.get("name", name) if isinstance(case, dict) else name
            diffs = compare(case, run_case(case))
        except CaseError as e:
            diffs = [f"malformed: {e}"]
        if diffs:
            failed += 1
            print(f"FAIL {name}: {'; '.join(diffs)}")
        else:
            passed += 1
            print(f"ok {name}")
    print(f"{passed} passed, {failed} failed")
    if failed:
        raise typer.Exit(1)
