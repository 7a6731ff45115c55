"""Built-in in-process players: a seeded random player, and why the referee plays its default
action for a seat (:class:`DefaultReason`; the default action itself is the engine's
:func:`mizerka_engine.game.default_action`)."""

from __future__ import annotations

import random
from enum import StrEnum

from mizerka_engine.cards import mask_cards
from mizerka_engine.game import Action, Exchange, Game, Phase


class DefaultReason(StrEnum):
    """Why the referee applied its default action for a seat: the one list, for the turn loop, the
    wire (proto ``DefaultReason`` is ``DEFAULT_REASON_`` + the value), match logs (``"default"``) and
    the metrics."""

    TIMEOUT = "TIMEOUT"  # no legal answer in time: a strike
    REFUSED = "REFUSED"  # more than Clock.max_retries refused or malformed answers: a strike
    FORFEITED = "FORFEITED"  # the seat reached Clock.max_strikes earlier in the game
    DISCONNECTED = "DISCONNECTED"  # the seat's stream is gone (or never came)

    @property
    def strike(self) -> bool:
        return self in (DefaultReason.TIMEOUT, DefaultReason.REFUSED)


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
