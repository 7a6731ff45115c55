"""The schedule: a pure function of the league file.

A table is a set of k bots; each table plays ``games_per_table`` game seeds in every seating (all
k! orders, or the k rotations), so every bot meets the same cards from every seat: one seed played
in all seatings of a table is a duplicate set, the unit of the statistics.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, permutations

from tournaments.config import League


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
        """The duplicate set this game belongs to (same table, same seed)."""
        return f"t{self.table}/g{self.game}"


def tables(league: League) -> list[tuple[str, ...]]:
    k = league.rules.players
    names = [b.name for b in league.bots]
    if league.format == "gauntlet":
        pool = [n for n in names if n != league.candidate]
        return [(league.candidate, *rest) for rest in combinations(pool, k - 1)]  # type: ignore[misc]
    return list(combinations(names, k))


def seatings(table: tuple[str, ...], kind: str) -> list[tuple[str, ...]]:
    if kind == "all":
        return list(permutations(table))
    return [table[i:] + table[:i] for i in range(len(table))]


def schedule(league: League) -> list[Slot]:
    out: list[Slot] = []
    for t, table in enumerate(tables(league)):
        orders = seatings(table, league.seatings)
        for g in range(league.games_per_table):
            seed = f"{league.seed}/t{t}/g{g}"
            for s, seats in enumerate(orders):
                out.append(Slot(f"t{t}/g{g}/s{s}", t, g, s, seats, seed))
    return out
