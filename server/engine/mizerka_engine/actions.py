"""The actions a player takes, as values: announce a contract, announce or pass a major, exchange, play.

They are NamedTuples so that the engine can intern them (:data:`PLAYS`, :data:`PLAY_FIELD`, :data:`PASS`):
enumerating the legal plays of a hand allocates no action.
"""

from __future__ import annotations

from typing import NamedTuple

from mizerka_engine.cards import subsets_table


class Choose(NamedTuple):
    """Announce a contract; ``trump`` (0..3) only for a contract whose declarer names the suit."""

    contract: str
    trump: int | None = None


class Major(NamedTuple):
    """Announce "<contract> major", or pass with ``contract=None``."""

    contract: str | None


class Exchange(NamedTuple):
    """Discard cards; blind exchange takes as many from the talon top, pick exchange names ``take``."""

    discard: tuple[int, ...]
    take: tuple[int, ...] | None = None


class Play(NamedTuple):
    card: int


Action = Choose | Major | Exchange | Play
PLAYS = tuple(Play(c) for c in range(52))
# PLAY_FIELD[s][f]: the Play actions for the cards of suit s whose rank bits are f.
PLAY_FIELD = tuple(subsets_table(PLAYS[13 * s:13 * s + 13]) for s in range(4))
PASS = Major(None)
