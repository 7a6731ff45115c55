"""The game log's events: one frozen, slotted dataclass per kind, and the deal result they carry.

:attr:`~mizerka_engine.game.Game.log` is a ``list[Event]``. Everyone reads it by type (``match`` or
``isinstance``), never by position. What an audience may not know is expressed in the type, not by
leaving fields out: a :class:`Dealt` without cards has ``hands`` and ``talon`` None, another seat's
:class:`Exchanged` has ``discard`` and ``take`` None and keeps its ``count``. Only
:func:`mizerka_engine.views.project_events` produces such cut events.

Each class's ``kind`` is its name in match logs (docs/match-log.md). :data:`PLAYED` and
:data:`TRICK_TAKEN` are built once, so that playing a card allocates no event.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from mizerka_engine.cards import SUIT_NAMES
from mizerka_engine.rules import PRESETS, Ruleset


def contract_label(name: str, major: bool) -> str:
    """The contract as the wire names it ("hearts", "hearts major"): the one place the label is made.
    Code carries the ruleset's name and a ``major`` flag; only text and the wire show the label."""
    return f"{name} major" if major else name


def contract_text(name: str, major: bool, trump: int | None, rules: Ruleset | None = None) -> str:
    """The contract as people read it on the pages, in reports and in a game's story: its label
    (:func:`contract_label`) with the trump suit the declarer named, "trumps (hearts)", "hearts
    major". The one place this text is made, so the board, the score sheets and the texts agree.

    With ``rules`` the suit shows only for a contract whose declarer names it (an event's ``trump``
    is also a contract's own, "hearts" trumps hearts); without, a ``trump`` given is taken as named
    (an action as a seat sent it, a log line as written)."""
    label = contract_label(name, major)
    if trump is None:
        return label
    if rules is not None:
        info = rules.contract(name)
        if info is None or not info.names_trump:
            return label
    return f"{label} ({SUIT_NAMES[trump]})"


class DealResult(NamedTuple):
    deal_no: int
    redeal: int
    tiebreak: bool
    dealer: int
    declarer: int  # the effective declarer (who played the contract)
    caller: int  # the declarer who announced first (differs from declarer after a major)
    contract: str  # the ruleset's contract name: "spades", "hearts", ...
    major: bool  # played as a major contract (docs/rules.md §6)
    trump: int | None
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    void: bool = False
    revoker: int | None = None

    @property
    def label(self) -> str:
        return contract_label(self.contract, self.major)


@dataclass(frozen=True, slots=True)
class Dealt:
    """A deal starts. ``declarer`` is who announces (the caller); ``hands`` (by seat) and ``talon``
    (top first) are None where the audience may not see them."""

    kind: ClassVar[str] = "deal"
    deal_no: int
    redeal: int
    tiebreak: bool
    dealer: int
    declarer: int
    hands: tuple[tuple[int, ...], ...] | None = None
    talon: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class ContractAnnounced:
    """The declarer announces a contract; ``trump`` is the named suit or the contract's own (None: none)."""

    kind: ClassVar[str] = "contract"
    seat: int
    contract: str
    trump: int | None


@dataclass(frozen=True, slots=True)
class MajorAnnounced:
    """A player announces "<contract> major" in the major round, or passes (``contract`` None)."""

    kind: ClassVar[str] = "major"
    seat: int
    contract: str | None


@dataclass(frozen=True, slots=True)
class Settled:
    """The contract is fixed: the effective declarer, the ruleset's contract name, whether it is played
    as a major, and the trump suit (None: none)."""

    kind: ClassVar[str] = "settled"
    declarer: int
    contract: str
    major: bool
    trump: int | None

    @property
    def label(self) -> str:
        return contract_label(self.contract, self.major)


@dataclass(frozen=True, slots=True)
class Exchanged:
    """A seat exchanges ``count`` cards; ``discard`` and ``take`` are None where the audience may not
    see them (another seat's exchange)."""

    kind: ClassVar[str] = "exchange"
    seat: int
    count: int
    discard: tuple[int, ...] | None = None
    take: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class Played:
    kind: ClassVar[str] = "play"
    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class Revoked:
    """A card that fails to follow suit under ``revoke = "penalty"``: the deal is void."""

    kind: ClassVar[str] = "revoke"
    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class TrickTaken:
    kind: ClassVar[str] = "trick"
    winner: int


@dataclass(frozen=True, slots=True)
class DealScored:
    """A deal ends (void or not) with its result and the game totals after it."""

    kind: ClassVar[str] = "result"
    result: DealResult
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameOver:
    kind: ClassVar[str] = "over"
    totals: tuple[int, ...]


Event = Dealt | ContractAnnounced | MajorAnnounced | Settled | Exchanged | Played | Revoked | TrickTaken | DealScored | GameOver
#: Events that record a seat's decision (one per turn, each with a ``seat``); the others follow from them.
ActionEvent = ContractAnnounced | MajorAnnounced | Exchanged | Played | Revoked
ACTION_EVENTS: tuple[type[ActionEvent], ...] = (ContractAnnounced, MajorAnnounced, Exchanged, Played, Revoked)
EVENT_TYPES: tuple[type[Event], ...] = (
    Dealt, ContractAnnounced, MajorAnnounced, Settled, Exchanged, Played, Revoked, TrickTaken, DealScored, GameOver,
)

_SEATS = range(max(r.players for r in PRESETS.values()))
#: PLAYED[seat][card] and TRICK_TAKEN[seat]: the engine appends these, never new instances.
PLAYED = tuple(tuple(Played(s, c) for c in range(52)) for s in _SEATS)
TRICK_TAKEN = tuple(TrickTaken(s) for s in _SEATS)
