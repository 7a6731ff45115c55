"""A built-in in-process player: a seeded random player (the referee's default action is the
engine's :func:`mizerka_engine.game.default_action`)."""

from __future__ import annotations

import random

from mizerka_engine.cards import mask_cards
from mizerka_engine.game import Action, Exchange, Game, Phase


def random_action(game: Game, rng: random.Random) -> Action:
    """A uniformly random legal action (exchange: a random count, then random cards)."""
    decision = game.decision()
    assert decision is not None, "no decision pending"
    if decision.kind != Phase.EXCHANGE:
        return rng.choice(decision.actions)
    hand = mask_cards(game.hands[decision.seat])
    k = rng.randint(0, min(decision.max_exchange, len(hand)))
    discard = tuple(rng.sample(hand, k))
    return Exchange(discard, tuple(rng.sample(decision.talon, k)) if decision.pick else None)
