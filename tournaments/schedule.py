"""The schedule: a pure function of the league file and the league's secret.

A table is a set of k bots; each table plays ``games_per_table`` games in every seating (all k!
orders, or the k rotations), so every bot sits in every seat equally often: one game number of a
table played in all its seatings is a set, the unit of the statistics.

Deals are secret: a game's seed is HMAC-SHA256(secret, deal key), hex, where the secret is drawn
at random when the league is created and kept in its database (the league file's ``seed`` replaces
it for organisers who want reproducible deals, and then anyone who knows it can compute every
hand). By default every game has its own deal key (its game key), so fresh cards; with
``duplicate = true`` the key is the set, so every seating of a set plays the same cards, and the
runner never plays two games of one deal group at the same time (:func:`deal_groups`).

Game G of every table, in every seating, is round G. A league with ``stop = "settled"`` is stored
round by round (round 0 of every table, then round 1, ...; otherwise table by table), so the
workers, who take games in schedule order, finish rounds one after another, and the runner plays
one round at a time (:func:`batches`) and looks at its standings in between.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations, permutations
from typing import Protocol, TypeVar

from tournaments.config import Format, League, Seatings, StopRule


class Scheduled(Protocol):
    """A scheduled game as :func:`batches` and :func:`deal_groups` read it: a :class:`Slot`, or a
    stored game (tournaments/store.py)."""

    @property
    def unit(self) -> str: ...

    @property
    def seed(self) -> str: ...


Row = TypeVar("Row", bound=Scheduled)


@dataclass(frozen=True, slots=True)
class Slot:
    """One scheduled game."""

    key: str  # stable id within the league, e.g. "t3/g0/s2"
    table: int
    game: int
    seating: int
    seats: tuple[str, ...]  # bot names in seat order
    seed: str

    @property
    def unit(self) -> str:
        """The set this game belongs to (same table, same game number, every seating)."""
        return f"t{self.table}/g{self.game}"


def derive_seed(secret: str, deal_key: str) -> str:
    """The seed of the deals named ``deal_key``: unpredictable without the secret."""
    return hmac.new(secret.encode(), deal_key.encode(), hashlib.sha256).hexdigest()


def match_group(league: League, secret: str) -> str:
    """The Arena match group of the league's matches (sealed until the league is published); the
    secret's digest keeps two leagues of one name on a shared referee apart."""
    return group_of(league.name, secret)


def group_of(name: str, secret: str) -> str:
    """The match group of league ``name`` dealt from ``secret`` (as its database keeps them): also
    the league's identity in its reports (tournaments/report.py), which tells nothing of the secret."""
    return f"{name}#{derive_seed(secret, 'group')[:12]}"


def tables(league: League) -> list[tuple[str, ...]]:
    k = league.rules.players
    names = [b.name for b in league.bots]
    if league.format is Format.GAUNTLET:
        pool = [n for n in names if n != league.candidate]
        return [(league.candidate, *rest) for rest in combinations(pool, k - 1)]  # type: ignore[misc]
    return list(combinations(names, k))


def seatings(table: tuple[str, ...], kind: Seatings) -> list[tuple[str, ...]]:
    if kind is Seatings.ALL:
        return list(permutations(table))
    return [table[i:] + table[:i] for i in range(len(table))]


def schedule(league: League, secret: str) -> list[Slot]:
    out: list[Slot] = []
    for t, table in enumerate(tables(league)):
        orders = seatings(table, league.seatings)
        for g in range(league.games_per_table):
            for s, seats in enumerate(orders):
                key = f"t{t}/g{g}/s{s}"
                seed = derive_seed(secret, f"t{t}/g{g}" if league.duplicate else key)
                out.append(Slot(key, t, g, s, seats, seed))
    if league.stop is StopRule.SETTLED:
        out.sort(key=lambda slot: slot.game)  # stable: round by round, each in table order
    return out


def game_number(unit: str) -> int:
    """G of a set ``tT/gG`` (:attr:`Slot.unit`): the round the set belongs to."""
    return int(unit.rpartition("/g")[2])


def batches(league: League, rows: Iterable[Row]) -> list[list[Row]]:
    """What the runner plays before it looks at the standings again: every given game, or with
    ``stop = "settled"`` one round at a time, rounds in order."""
    rows = list(rows)
    if league.stop is not StopRule.SETTLED:
        return [rows] if rows else []
    rounds: dict[int, list[Row]] = {}
    for row in rows:
        rounds.setdefault(game_number(row.unit), []).append(row)
    return [rounds[g] for g in sorted(rounds)]


def deal_groups(rows: Iterable[Row]) -> list[list[Row]]:
    """Scheduled games grouped by their deals, in schedule order: games of one group deal the same cards, so they must be played one after
    another, or a bot seated in two of them would see its opponents' hands in the other."""
    groups: dict[str, list[Row]] = {}
    for row in rows:
        groups.setdefault(row.seed, []).append(row)
    return list(groups.values())
