"""Clocks: free time per decision, then a per-game time bank with an increment (proto Clock)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """All times in milliseconds; the meaning of each field is documented on proto ``Clock``."""

    decision_ms: int = 10_000
    bank_ms: int = 0
    increment_ms: int = 0
    max_strikes: int = 3  # 0 = never forfeit
    max_retries: int = 5

    def __post_init__(self) -> None:
        for name in ("decision_ms", "bank_ms", "increment_ms", "max_strikes", "max_retries"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"clock setting {name} must be a whole number of at least 0, got {value!r}")
        if self.decision_ms == 0 and self.bank_ms == 0:
            raise ValueError("a clock needs decision_ms or bank_ms above 0: otherwise every decision times out")


class SeatClock:
    """One seat's clock in one game."""

    __slots__ = ("settings", "bank_ms")

    def __init__(self, settings: ClockSettings) -> None:
        self.settings = settings
        self.bank_ms = float(settings.bank_ms)

    def allowed_ms(self) -> float:
        """How long the next decision may take in all: its free time plus what is left in the bank."""
        return self.settings.decision_ms + self.bank_ms

    def charge(self, used_ms: float, in_time: bool = True) -> None:
        """Draw the time beyond the free decision time from the bank; add the increment if in time."""
        self.bank_ms = max(0.0, self.bank_ms - max(0.0, used_ms - self.settings.decision_ms))
        if in_time:
            self.bank_ms += self.settings.increment_ms
