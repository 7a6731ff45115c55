"""``mizerka demo``: one game of random players and its score sheet (rich), apart from ``rules``
so that a conformance run does not import the score sheet's renderer."""

from __future__ import annotations

import random
from typing import Annotated

import typer
from rich.console import Console

from mizerka_engine.game import Game
from mizerka_engine.rules import PRESETS, RulesError, load_ruleset
from server.commands import usage_error
from server.policies import random_action
from server.scoresheet import render_scoresheet

demo_app = typer.Typer(add_completion=False)


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


