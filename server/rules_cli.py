"""``mizerka rules run|check`` (conformance cases, docs/conformance.md) and ``mizerka demo``: the
rules engine on the command line, without the referee's libraries."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from mizerka_engine.game import Game
from mizerka_engine.rules import PRESETS, RulesError, load_ruleset
from server.commands import usage_error
from server.conformance import CaseError, case_files, compare, load_case, run_case
from server.policies import random_action
from server.scoresheet import render_scoresheet

rules_app = typer.Typer(help="Rules conformance cases (docs/conformance.md).", no_args_is_help=True, add_completion=False)
demo_app = typer.Typer(add_completion=False)


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


@demo_app.command()
def demo(
    preset: Annotated[str, typer.Option(help=f"One of: {', '.join(PRESETS)}.")] = "mizerka",
    seed: Annotated[int, typer.Option(help="Game seed: the same seed deals the same cards.")] = 1,
) -> None:
    """Play one full game of built-in random players and print the score sheet."""
    try:
        rules = load_ruleset(preset)
    except RulesError as e:
        raise usage_error(str(e)) from None
    game = Game(rules, seed=seed)
    rngs = [random.Random(f"{seed}:{s}") for s in range(rules.players)]
    while not game.finished:
        game.apply(game.to_act, random_action(game, rngs[game.to_act]))
    names = [f"random-{s}" for s in range(rules.players)]
    Console(width=max(Console().width, 120)).print(render_scoresheet(rules, game.results, names, title=f"{preset}, seed {seed}"))


