"""Small helpers for cards in the protocol's text notation: rank ``23456789TJQKA`` then suit ``SHDC``.

A card is a string such as ``"AS"`` (ace of spades) or ``"TD"`` (ten of diamonds); a suit is one
letter ``"S"``, ``"H"``, ``"D"`` or ``"C"``. Ranks compare by :func:`rank` (``2`` -> 0 ... ``A`` -> 12).
Pure Python, no dependency on the server.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "RANKS",
    "SUITS",
    "SUIT_NAMES",
    "DECK",
    "normalize",
    "rank",
    "suit",
    "parse",
    "is_card",
    "sort_cards",
    "by_suit",
    "of_suit",
    "highest",
    "lowest",
]

RANKS = "23456789TJQKA"
SUITS = "SHDC"
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
DECK = tuple(r + s for s in SUITS for r in RANKS)
_DECK_SET = frozenset(DECK)


def normalize(card: str) -> str:
    """``"10d"`` -> ``"TD"``, ``" as "`` -> ``"AS"``. Raises ValueError for anything that is not a card."""
    text = str(card).strip().upper()
    if text.startswith("10") and len(text) == 3:
        text = "T" + text[2]
    if text not in _DECK_SET:
        raise ValueError(f"{card!r} is not a card: write rank 2-9/T/J/Q/K/A then suit S/H/D/C, e.g. 'TD'")
    return text


def is_card(text: str) -> bool:
    try:
        normalize(text)
    except ValueError:
        return False
    return True


def rank(card: str) -> int:
    """The rank index: ``"2S"`` -> 0, ``"TS"`` -> 8, ``"AS"`` -> 12."""
    return RANKS.index(card[0])


def suit(card: str) -> str:
    """The suit letter: ``"AS"`` -> ``"S"``."""
    return card[1]


def parse(card: str) -> tuple[int, str]:
    """``"QH"`` -> ``(10, "H")`` (rank index, suit letter); accepts ``"10D"`` and lower case."""
    c = normalize(card)
    return RANKS.index(c[0]), c[1]


def sort_cards(cards: Iterable[str], *, suit_order: str = SUITS, descending: bool = False) -> list[str]:
    """Sorted by suit (in ``suit_order``) then rank, low to high (``descending``: high to low in each suit)."""
    sign = -1 if descending else 1
    return sorted(cards, key=lambda c: (suit_order.index(c[1]), sign * RANKS.index(c[0])))


def by_suit(cards: Iterable[str]) -> dict[str, list[str]]:
    """``{"S": [...], "H": [...], "D": [...], "C": [...]}``, each suit sorted low to high."""
    out: dict[str, list[str]] = {s: [] for s in SUITS}
    for c in cards:
        out[c[1]].append(c)
    for s in SUITS:
        out[s].sort(key=rank)
    return out


def of_suit(cards: Iterable[str], s: str) -> list[str]:
    """The cards of suit ``s``, low to high."""
    return sorted((c for c in cards if c[1] == s), key=rank)


def highest(cards: Iterable[str]) -> str:
    """The card of highest rank (ties: the first given)."""
    return max(cards, key=rank)


def lowest(cards: Iterable[str]) -> str:
    """The card of lowest rank (ties: the first given)."""
    return min(cards, key=rank)
