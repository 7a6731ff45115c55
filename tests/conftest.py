"""Shared helpers for the engine tests: explicit deals, scripted play, and refusal checks.

Tests build games from explicit hands (``Game(..., deal_source=...)``) so that every expected
number in them can be checked by reading the hands, not by asking the engine.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from mizerka_engine.cards import format_cards, mask_cards, parse_card
from mizerka_engine.dealing import Deal
from mizerka_engine.game import Action, Exchange, Game, IllegalAction, Phase, Play, default_action
from mizerka_engine.rules import load_ruleset
from mizerka_engine.views import FULL, project

# The helper modules that hold shared tests' assertions: pytest explains their failures too.
pytest.register_assert_rewrite("foreign_bots")

# Deterministic, database-free hypothesis runs: the same examples on every machine and every CI run.
settings.register_profile(
    "mizerka",
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "mizerka"))



@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups (--dist loadgroup, as `make test` runs)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests of a module that share a module-scoped fixture (a reference league, a report built
    once) run on one worker of a parallel run, which makes the fixture once, not once per worker.
    A test with an xdist_group of its own keeps it."""
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if item.get_closest_marker("xdist_group") or info is None:
            continue
        if any(d.scope == "module" for defs in info.name2fixturedefs.values() for d in defs):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))


DECK_ORDER = [r + s for s in "SHDC" for r in "23456789TJQKA"]


def cards(text: str) -> tuple[int, ...]:
    """``"AS KS 2H"`` -> card numbers, in the order written."""
    return tuple(parse_card(t) for t in text.split())


def make_deal(*hands: str, talon: str | None = None, declarer: int | None = None) -> Deal:
    """A deal from hand texts; the talon defaults to every card not in a hand, in deck order."""
    hand_cards = [cards(h) for h in hands]
    used = {c for h in hand_cards for c in h}
    talon_cards = cards(talon) if talon is not None else tuple(parse_card(t) for t in DECK_ORDER if parse_card(t) not in used)
    every = [c for h in hand_cards for c in h] + list(talon_cards)
    assert sorted(every) == list(range(52)), "test deal is not a 52-card deck"
    return Deal(tuple(hand_cards), talon_cards, declarer)


def fixed_source(*deals: Deal) -> Callable[[int, int], Deal | None]:
    """A deal source handing out ``deals`` in order, then nothing (the game waits)."""
    supply = iter(deals)

    def source(deal_no: int, redeal: int) -> Deal | None:
        return next(supply, None)

    return source


def game_with(preset: str, *deals: Deal, first_dealer: int | None = None, **options: Any) -> Game:
    """A game of ``preset`` with ``options`` whose deals are exactly ``deals``."""
    return Game(load_ruleset(preset, options), first_dealer=first_dealer, deal_source=fixed_source(*deals))


def pass_action(game: Game) -> Exchange:
    """A 0-card exchange of the ruleset's kind (pick exchanges name an empty take)."""
    return Exchange((), () if game.rules.exchange == "pick" else None)


def pass_exchanges(game: Game) -> None:
    """Everyone asked to exchange passes (0 cards)."""
    while game.phase == Phase.EXCHANGE:
        game.apply(game.to_act, pass_action(game))


def play(game: Game, text: str) -> None:
    """Play the cards in ``text`` in order, each by whoever is to act."""
    for card in cards(text):
        game.apply(game.to_act, Play(card))


def finish_deal(game: Game) -> None:
    """Complete the current deal with the referee's default actions."""
    done = len(game.results)
    while len(game.results) == done and game.phase < Phase.WAITING:
        decision = game.decision()
        assert decision is not None
        game.apply(decision.seat, default_action(decision))


def finish_game(game: Game) -> None:
    """Play the whole game out with the referee's default actions."""
    while not game.finished:
        finish_deal(game)


def snapshot(game: Game) -> tuple:
    """Everything observable about a game: the full log, the all-seeing view and the pending decision."""
    return (tuple(game.log), project(game, FULL), game.decision(), game.phase, game.to_act, tuple(game.totals))


def assert_refused(game: Game, seat: int, action: Action, code: str, *fragments: str) -> IllegalAction:
    """``action`` must raise IllegalAction with ``code`` (message containing ``fragments``) and change nothing."""
    before = snapshot(game)
    with pytest.raises(IllegalAction) as info:
        game.apply(seat, action)
    assert info.value.code == code, f"expected {code}, got {info.value.code}: {info.value.message}"
    for fragment in fragments:
        assert fragment in info.value.message, f"{fragment!r} not in {info.value.message!r}"
    assert snapshot(game) == before, "a refused action changed the game"
    return info.value


def hand_text(game: Game, seat: int) -> set[str]:
    """A seat's current hand in card notation."""
    return set(format_cards(mask_cards(game.hands[seat])))
