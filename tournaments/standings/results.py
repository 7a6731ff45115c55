"""A finished league game as the statistics read it (tournaments/standings/stats.py, tournaments/standings/sequential.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished league game as the statistics need it."""

    key: str
    unit: str  # duplicate set: same table, same seed
    seats: tuple[str, ...]  # bot names in seat order
    totals: tuple[int, ...]
    faults: tuple[Mapping[str, int], ...] = ()  # per seat, keys of tournaments.standings.stats.FAULTS
