"""Card sense shared by the example bots (``heuristic``, ``greedy``, ``cautious``).

Pure functions of the hand and of what a :class:`~mizerka.Turn` shows; no state, no randomness
(the contract-fit statistics are drawn from a fixed seed). Nothing here is a strategy by itself:
each bot module combines these pieces in its own way.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

from mizerka.cards import DECK, SUITS, rank
from mizerka.turn import Turn
from mizerka_proto import game_pb2

__all__ = [
    "HCP",
    "balanced",
    "contract_kind",
    "contract_trump",
    "count_in_suit",
    "fit",
    "fit_z",
    "is_master",
    "minus_play",
    "pick_swap",
    "plus_contract_score",
    "ruff_risk",
    "suit_lengths",
    "unseen_cards",
]

#: High-card points: A 4, K 3, Q 2, J 1.
HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}


# ------------------------------------------------------------------------------ the hand
def suit_lengths(cards: Iterable[str]) -> dict[str, int]:
    """How many cards of each suit: ``{"S": n, "H": n, "D": n, "C": n}``."""
    out = dict.fromkeys(SUITS, 0)
    for c in cards:
        out[c[1]] += 1
    return out


def balanced(hand: Sequence[str]) -> bool:
    """No suit much longer or shorter than a quarter of the hand (13 cards: 4-3-3-3 or 4-4-3-2;
    16 cards: 4-4-4-4 up to 5-5-3-3; 6 cards: 2-2-1-1 or 3-1-1-1)."""
    if not hand:
        return False
    n = len(hand)
    even = n // 4 + (1 if n % 4 >= 2 else 0)
    lengths = suit_lengths(hand).values()
    return max(lengths) <= even + 1 and min(lengths) >= even - 1


def count_in_suit(cards: Iterable[str], s: str) -> int:
    return sum(1 for c in cards if c[1] == s)


# ------------------------------------------------------------------------ what is still out
def unseen_cards(turn: Turn) -> set[str]:
    """Cards that may still be in another hand: not mine, not played (``turn.played_cards``), not
    out of play to my knowledge (my discards, a talon I saw)."""
    me = turn.view.players[turn.seat]
    out = set(DECK) - set(turn.hand) - turn.played_cards - set(me.discarded)
    if turn.view.talon_known:
        out -= set(turn.view.talon)
    return out


def is_master(card: str, unseen: set[str]) -> bool:
    """The highest outstanding card of its suit: no unseen card of the suit ranks higher."""
    r = rank(card)
    return not any(c[1] == card[1] and rank(c) > r for c in unseen)


def ruff_risk(turn: Turn, card: str, unseen: set[str]) -> bool:
    """A later player might be void in the suit and ruff (only a guess: few unseen cards left of it)."""
    trump = turn.trump
    if not trump or card[1] == trump:
        return False
    if not any(c[1] == trump for c in unseen):
        return False
    return count_in_suit(unseen, card[1]) < turn.to_play_after_me


# ------------------------------------------------------------------------------ contracts
def contract_trump(turn: Turn, name: str, named_trump: str | None = None) -> str | None:
    """The trump suit of contract ``name`` (the one named for a ``trumps`` contract), or None."""
    info = turn.contracts.get(name)
    return named_trump or (info.trump if info is not None else "") or None


def contract_kind(info: game_pb2.ContractInfo | None, trump: str | None) -> str:
    """``"minus"``, ``"trump"`` or ``"notrump"``."""
    if info is not None and info.minus:
        return "minus"
    return "trump" if trump else "notrump"


def fit(kind: str, trump: str | None, hand: Sequence[str]) -> float:
    """How well ``hand`` suits a contract: ``kind`` is "trump" (with ``trump``), "notrump" or "minus"."""
    if kind == "minus":
        # Low cards are good, high cards bad; a void or short suit helps to throw high cards.
        return sum(5.0 - rank(c) for c in hand)
    if kind == "notrump":
        hcp = sum(HCP.get(c[0], 0) for c in hand)
        aces = sum(1 for c in hand if c[0] == "A")
        return hcp + 1.5 * aces
    trumps = [c for c in hand if c[1] == trump]
    side = [c for c in hand if c[1] != trump]
    return (
        2.5 * len(trumps)
        + sum(HCP.get(c[0], 0) for c in trumps)
        + sum(3.0 for c in side if c[0] == "A")
        + sum(1.0 for c in side if c[0] == "K")
    )


@lru_cache(maxsize=64)
def _fit_stats(kind: str, size: int) -> tuple[float, float]:
    """Mean and standard deviation of :func:`fit` over random hands of ``size`` cards (seeded)."""
    rng = random.Random(f"mizerka-heuristic:{kind}:{size}")
    values = [fit(kind, "H", rng.sample(DECK, size)) for _ in range(1500)]
    return statistics.fmean(values), statistics.pstdev(values) or 1.0


def fit_z(kind: str, trump: str | None, hand: Sequence[str]) -> float:
    """:func:`fit` standardised against random hands of the same size (0 = an average hand)."""
    if not hand:
        return 0.0
    mean, sd = _fit_stats(kind, len(hand))
    return (fit(kind, trump, hand) - mean) / sd


def plus_contract_score(hand: Sequence[str], trump: str | None) -> float:
    """A trick-taker's preference among plus contracts: trumps in the longest suit (honours break
    ties), no-trump above every trump contract when the hand is balanced, below them otherwise."""
    if trump:
        return 10.0 * count_in_suit(hand, trump) + sum(HCP.get(c[0], 0) for c in hand if c[1] == trump)
    return 1000.0 if balanced(hand) else -1.0


# ------------------------------------------------------------------------------- exchange
def pick_swap(
    hand: Sequence[str], talon: Sequence[str], value: Callable[[str], float], limit: int,
    candidates: Callable[[str], bool] = lambda c: True,
) -> tuple[list[str], list[str]]:
    """A pick exchange: swap the hand's worst cards (among ``candidates``) for better talon cards,
    pair by pair while the talon card is worth more; at most ``limit`` pairs. (discard, take)."""
    mine = sorted((c for c in hand if candidates(c)), key=value)
    theirs = sorted(talon, key=value, reverse=True)
    discard: list[str] = []
    take: list[str] = []
    for out, inn in zip(mine, theirs):
        if len(discard) >= limit or value(inn) <= value(out):
            break
        discard.append(out)
        take.append(inn)
    return discard, take


# ------------------------------------------------------------------------------ card play
def minus_play(turn: Turn, legal: list[str], unseen: set[str]) -> str:
    """Minus contracts: lead the card most sure to be beaten; follow with the highest card that
    still loses, else (forced to win) the highest; void: throw the most dangerous high card."""
    lengths = suit_lengths(turn.hand)
    if turn.leading:
        def risk(c: str) -> tuple[bool, int, int]:
            below = sum(1 for u in unseen if u[1] == c[1] and rank(u) < rank(c))
            above = sum(1 for u in unseen if u[1] == c[1] and rank(u) > rank(c))
            return (above == 0, below, rank(c))

        return min(legal, key=risk)
    following = legal[0][1] == turn.led_suit
    if following:
        losers = [c for c in legal if not turn.takes_trick(c)]
        if losers:
            return max(losers, key=rank)
        return max(legal, key=rank)
    # Void in the led suit: throw the most dangerous card (high, in a short suit).
    return max(legal, key=lambda c: (rank(c), -lengths[c[1]]))
