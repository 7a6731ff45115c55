"""Built-in in-process players: the referee's documented default action (and why it is played for a
seat, :class:`DefaultReason`), and a seeded random player.

The default action is what the referee plays for a seat that runs out of time or is forfeited:
the first contract still open (by the ruleset's order, trumps in the first allowed suit), a pass
in major rounds, no exchange, and the lowest legal card (by suit S, H, D, C, then rank).
"""

from __future__ import annotations

import random
from enum import StrEnum

from mizerka_engine.cards import mask_cards
from mizerka_engine.game import Action, Decision, Exchange, Game, Major, Phase


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


def default_action(decision: Decision) -> Action:
    if decision.kind == Phase.EXCHANGE:
        return Exchange((), () if decision.pick else None)
    if decision.kind == Phase.MAJOR:
        return Major(None)
    return decision.actions[0]


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
