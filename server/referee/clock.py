"""Clocks: free time per decision, then a per-game time bank with an increment (proto Clock).

The settings are configuration (:class:`server.settings.ClockSettings`); this is the running clock.
"""

from __future__ import annotations

from server.settings import ClockSettings


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
