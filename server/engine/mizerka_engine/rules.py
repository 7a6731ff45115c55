"""Rulesets as data: every preset of docs/rules.md §2 is a frozen Ruleset, and options are a validated diff.

Like python-chess's variants, a preset is a small declarative description of one shared engine;
the engine reads these fields and never branches on the preset's name.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

from mizerka_engine.cards import SUITS


# The option values of docs/rules.md §9, parsed once by load_ruleset. Each is a str whose value is the
# option's spelling in TOML, JSON and the proto enums (DECLARER_MODE_CONTINUOUS_DEALER is
# "continuous-dealer"), so logs, options tables and the wire read as before.
class DeclarerMode(StrEnum):
    """Who announces the next contract (option ``declarer``, docs/rules.md §3.3)."""

    ALTERNATE = "alternate"
    CONTINUOUS = "continuous"
    DEALER = "dealer"
    CONTINUOUS_DEALER = "continuous-dealer"


class RevokeMode(StrEnum):
    """What a card that fails to follow suit does (option ``revoke``, docs/rules.md §7)."""

    REJECT = "reject"  # refused (MUST_FOLLOW); the player plays again
    PENALTY = "penalty"  # accepted: the deal is void and the revoker loses 10


class TiebreakMode(StrEnum):
    """Who declares a tie-break deal, if any is played (option ``tiebreak``, docs/rules.md §8)."""

    NONE = "none"
    RANDOM = "random"
    LOWEST = "lowest"


class MisereQuotas(StrEnum):
    """How the quotas of minus contracts follow from those of plus contracts (option ``misere_quotas``)."""

    REVERSED = "reversed"
    SAME = "same"


class ExchangeKind(StrEnum):
    """How the talon is used (a preset's, docs/rules.md §4.3 and §4.4)."""

    BLIND = "blind"  # each player in turn takes the talon's top cards
    PICK = "pick"  # the declarer alone sees the talon and picks from it


MAJOR_QUOTA = 14  # docs/rules.md §6.4: the effective declarer of a major needs 14, each other player 1.


class RulesError(ValueError):
    """A ruleset or option that cannot be used, with a message naming the offending option."""


@dataclass(frozen=True, slots=True)
class Contract:
    """One contract of a ruleset.

    ``trump`` is the fixed trump suit (0..3) or None; ``names_trump`` marks the `trumps` contract whose
    declarer names the suit; ``major_rank`` orders contracts for major contests (0 = cannot be major).
    """

    name: str
    minus: bool = False
    trump: int | None = None
    names_trump: bool = False
    major_rank: int = 0


def _suit_contract(name: str, rank: int = 0) -> Contract:
    return Contract(name, trump=SUITS.index(name[0].upper()), major_rank=rank)


_MIZERKA_CONTRACTS = (
    _suit_contract("spades"),
    _suit_contract("hearts"),
    _suit_contract("diamonds"),
    _suit_contract("clubs"),
    Contract("notrump"),
    Contract("mizerka", minus=True),
)
# Major contests rank grand > hearts > spades > diamonds > clubs (docs/rules.md §6.3).
_MANNI_CONTRACTS = (
    _suit_contract("spades", 3),
    _suit_contract("hearts", 4),
    _suit_contract("diamonds", 2),
    _suit_contract("clubs", 1),
    Contract("grand", major_rank=5),
    Contract("null", minus=True),
)


@dataclass(frozen=True, slots=True)
class Ruleset:
    """Everything the engine needs to know about a game; build with :func:`load_ruleset`."""

    preset: str
    players: int
    hand_size: int
    contracts: tuple[Contract, ...]
    quotas_plus: tuple[int, ...]
    quotas_minus: tuple[int, ...]
    exchange: ExchangeKind
    notrump: str  # the no-trump contract played in tie-break deals
    majors: bool = False
    choose_after: int | Literal["all"] = 6
    declarer: DeclarerMode = DeclarerMode.ALTERNATE
    deals: int = 0  # load_ruleset fills in players x contracts unless the option says otherwise
    revoke: RevokeMode = RevokeMode.REJECT
    tiebreak: TiebreakMode = TiebreakMode.NONE
    tiebreak_max: int = 5
    misere_quotas: MisereQuotas = MisereQuotas.REVERSED
    trumps_allow_spades: bool = False
    options: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @property
    def tricks(self) -> int:
        return self.hand_size

    @property
    def talon_size(self) -> int:
        return 52 - self.players * self.hand_size

    @property
    def dealer_declares(self) -> bool:
        return self.declarer in (DeclarerMode.DEALER, DeclarerMode.CONTINUOUS_DEALER)

    @property
    def continuous(self) -> bool:
        return self.declarer in (DeclarerMode.CONTINUOUS, DeclarerMode.CONTINUOUS_DEALER)

    @property
    def pick(self) -> bool:
        """A pick exchange (the declarer alone, from the talon it sees), not a blind one."""
        return self.exchange is ExchangeKind.PICK

    @property
    def choose_after_all(self) -> bool:
        """The declarer chooses with its whole hand dealt (``choose_after = "all"``)."""
        return self.choose_after == "all"

    @property
    def seen_before_choice(self) -> int:
        """How many of its cards the declarer sees when it chooses (all of them for "all")."""
        return self.hand_size if self.choose_after == "all" else min(self.choose_after, self.hand_size)

    def contract(self, name: str) -> Contract | None:
        for c in self.contracts:
            if c.name == name:
                return c
        return None

    def contract_index(self, name: str) -> int:
        return [c.name for c in self.contracts].index(name)

    def trump_suits(self) -> tuple[int, ...]:
        """Suits a declarer may name in a `trumps` contract."""
        return (0, 1, 2, 3) if self.trumps_allow_spades else (1, 2, 3)

    def describe(self) -> dict[str, Any]:
        """The preset and every option in force, as plain data (for views, logs and the protocol)."""
        return {
            "preset": self.preset,
            "players": self.players,
            "hand_size": self.hand_size,
            "talon_size": self.talon_size,
            "contracts": [c.name for c in self.contracts],
            "exchange": self.exchange.value,
            "majors": self.majors,
            "quotas_plus": list(self.quotas_plus),
            "quotas_minus": list(self.quotas_minus),
            "choose_after": self.choose_after,
            "declarer": self.declarer.value,
            "deals": self.deals,
            "revoke": self.revoke.value,
            "tiebreak": self.tiebreak.value,
            "tiebreak_max": self.tiebreak_max,
            "misere_quotas": self.misere_quotas.value,
            "trumps_allow_spades": self.trumps_allow_spades,
        }


_MIZERKA = Ruleset(
    preset="mizerka",
    players=3,
    hand_size=13,
    contracts=_MIZERKA_CONTRACTS,
    quotas_plus=(7, 5, 1),
    quotas_minus=(1, 5, 7),
    exchange=ExchangeKind.BLIND,
    notrump="notrump",
)

_BASES: dict[str, Ruleset] = {
    "mizerka": _MIZERKA,
    "mizerka-4p": dataclasses.replace(
        _MIZERKA, preset="mizerka-4p", players=4, hand_size=10, quotas_plus=(4, 3, 2, 1), quotas_minus=(1, 2, 3, 4)
    ),
    "mizerka-short": dataclasses.replace(
        _MIZERKA,
        preset="mizerka-short",
        contracts=tuple(c for c in _MIZERKA_CONTRACTS if c.name in ("hearts", "notrump", "mizerka")),
    ),
    "spoileri": dataclasses.replace(
        _MIZERKA,
        preset="spoileri",
        contracts=(
            Contract("nolo", minus=True),
            Contract("rami"),
            _suit_contract("spades"),
            Contract("trumps", names_trump=True),
        ),
        quotas_plus=(7, 4, 2),
        quotas_minus=(2, 4, 7),
        notrump="rami",
        choose_after="all",
    ),
    "trjamann": Ruleset(
        preset="trjamann",
        players=3,
        hand_size=16,
        contracts=(
            Contract("grand"),
            _suit_contract("spades"),
            Contract("trumps", names_trump=True),
            Contract("null", minus=True),
        ),
        quotas_plus=(8, 4, 4),
        quotas_minus=(4, 6, 6),
        exchange=ExchangeKind.PICK,
        notrump="grand",
        choose_after="all",
    ),
    "manni-major": Ruleset(
        preset="manni-major",
        players=3,
        hand_size=16,
        contracts=_MANNI_CONTRACTS,
        quotas_plus=(8, 4, 4),
        quotas_minus=(4, 6, 6),
        exchange=ExchangeKind.PICK,
        notrump="grand",
        majors=True,
        choose_after="all",
    ),
}

# The most tie-break deals a game may allow: every ruleset of docs/rules.md plays 5 at most; a
# million would let one game run for hours on one shared top total.
MAX_TIEBREAKS = 100

_OPTION_TYPES: dict[str, tuple[type, ...]] = {
    "declarer": (str,),
    "deals": (int,),
    "revoke": (str,),
    "tiebreak": (str,),
    "tiebreak_max": (int,),
    "quotas_plus": (list, tuple),
    "quotas_minus": (list, tuple),
    "misere_quotas": (str,),
    "choose_after": (int, str),
    "trumps_allow_spades": (bool,),
}
_CHOICES: dict[str, type[StrEnum]] = {
    "declarer": DeclarerMode,
    "revoke": RevokeMode,
    "tiebreak": TiebreakMode,
    "misere_quotas": MisereQuotas,
}


def _check_type(name: str, value: Any) -> None:
    types = _OPTION_TYPES[name]
    # bool is an int in Python; an option that wants a number must not take true/false.
    if isinstance(value, bool) and bool not in types or not isinstance(value, types):
        want = " or ".join("list" if t in (list, tuple) else t.__name__ for t in types if t is not tuple)
        raise RulesError(f"option {name!r} must be a {want}, got {value!r}")
    if name in _CHOICES and value not in _CHOICES[name]._value2member_map_:
        choices = ", ".join(repr(m.value) for m in _CHOICES[name])
        raise RulesError(f"option {name!r} must be one of {choices}, got {value!r}")


def _quotas(name: str, value: Any, base: Ruleset) -> tuple[int, ...]:
    if len(value) != base.players or not all(isinstance(q, int) and not isinstance(q, bool) for q in value):
        raise RulesError(f"option {name!r} must list {base.players} whole numbers (one per position), got {value!r}")
    if any(q < 0 for q in value):
        raise RulesError(f"option {name!r} has a negative quota: {value!r}")
    if sum(value) != base.tricks:
        raise RulesError(f"option {name!r} must sum to the {base.tricks} tricks of a deal, but {list(value)} sums to {sum(value)}")
    return tuple(value)


def load_ruleset(preset: str, options: Mapping[str, Any] | None = None) -> Ruleset:
    """The preset with the options of docs/rules.md §9 applied and checked."""
    if preset not in _BASES:
        raise RulesError(f"unknown preset {preset!r}; presets are {', '.join(_BASES)}")
    base = _BASES[preset]
    if options is not None and not isinstance(options, Mapping):
        raise RulesError(f"options must be a table of option = value, got {options!r}")
    opts = dict(options or {})
    unknown = sorted(set(opts) - set(_OPTION_TYPES))
    if unknown:
        raise RulesError(f"unknown option {unknown[0]!r}; options are {', '.join(_OPTION_TYPES)}")
    for name, value in opts.items():
        _check_type(name, value)
    changes: dict[str, Any] = {k: _CHOICES[k](v) for k, v in opts.items() if k in _CHOICES}
    if "trumps_allow_spades" in opts:
        changes["trumps_allow_spades"] = opts["trumps_allow_spades"]

    if "choose_after" in opts and opts["choose_after"] not in (6, "all"):
        raise RulesError(f"option 'choose_after' must be 6 or \"all\", got {opts['choose_after']!r}")
    if "choose_after" in opts:
        changes["choose_after"] = opts["choose_after"]

    plus = _quotas("quotas_plus", opts["quotas_plus"], base) if "quotas_plus" in opts else base.quotas_plus
    if "quotas_minus" in opts:
        minus = _quotas("quotas_minus", opts["quotas_minus"], base)
    elif changes.get("misere_quotas") is MisereQuotas.SAME:
        minus = plus
    else:
        minus = base.quotas_minus
    changes.update(quotas_plus=plus, quotas_minus=minus)

    most = base.players * len(base.contracts)
    deals = opts.get("deals", most)
    if deals < base.players or deals % base.players or deals > most:
        raise RulesError(
            f"option 'deals' must be a multiple of the {base.players} players and at most {most} "
            f"(players x contracts), got {deals}"
        )
    changes["deals"] = deals

    if "tiebreak_max" in opts:
        if not 1 <= opts["tiebreak_max"] <= MAX_TIEBREAKS:
            raise RulesError(f"option 'tiebreak_max' must be from 1 to {MAX_TIEBREAKS}, got {opts['tiebreak_max']}")
        changes["tiebreak_max"] = opts["tiebreak_max"]
    return dataclasses.replace(base, options=opts, **changes)


PRESETS: dict[str, Ruleset] = {name: load_ruleset(name) for name in _BASES}


def ruleset_from_table(table: Mapping[str, Any]) -> Ruleset:
    """A ruleset from a TOML-style table: ``preset = "..."`` plus an optional ``[options]`` table."""
    extra = sorted(set(table) - {"preset", "options"})
    if extra:
        raise RulesError(f"unknown key {extra[0]!r} in ruleset table; expected 'preset' and 'options'")
    if not isinstance(table.get("preset"), str):
        raise RulesError("ruleset table needs preset = \"<name>\"")
    options = table.get("options", {})
    if not isinstance(options, Mapping):
        raise RulesError("'options' must be a table of option = value")
    return load_ruleset(table["preset"], options)


def ruleset_from_toml(text: str) -> Ruleset:
    try:
        return ruleset_from_table(tomllib.loads(text))
    except tomllib.TOMLDecodeError as e:
        raise RulesError(f"ruleset TOML does not parse: {e}") from None
