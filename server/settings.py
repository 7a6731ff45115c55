"""Configuration types: what a referee, a match or a league is set up with.

They live apart from the code that enforces them, and import nothing of it, so that the wire layer
(:mod:`server.codec.protocol`), the service, the CLI and league files can name a clock without importing
the referee (which itself imports the wire layer).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

HOUR_MS = 3_600_000
# The most each clock setting may be: an hour for a decision, for a seat's bank and for an increment
# (a decision that may take longer holds its match, its seats and its bots' streams for as long; a
# typo of 2^32 ms would leave a match hanging 50 days), 100 strikes and retries (a few are the rule).
MOST = {"decision_ms": HOUR_MS, "bank_ms": HOUR_MS, "increment_ms": HOUR_MS, "max_strikes": 100, "max_retries": 100}
UNITS = {"decision_ms": " (an hour)", "bank_ms": " (an hour)", "increment_ms": " (an hour)"}


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """All times in milliseconds; the meaning of each field is documented on proto ``Clock``.

    Every way of making one (a league file's ``[clock]``, ``mizerka serve`` options, a
    CreateMatchRequest) is checked here, so the rules and the messages are the same everywhere.
    """

    decision_ms: int = 10_000
    bank_ms: int = 0
    increment_ms: int = 0
    max_strikes: int = 3  # 0 = never forfeit
    max_retries: int = 5

    def __post_init__(self) -> None:
        for name, most in MOST.items():
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= most:
                raise ValueError(f"clock setting {name} must be a whole number from 0 to {most:,}{UNITS.get(name, '')}, "
                                 f"got {value!r}")
        if self.decision_ms == 0 and self.bank_ms == 0:
            raise ValueError("a clock needs decision_ms or bank_ms above 0: otherwise every decision times out")

    @classmethod
    def from_table(cls, table: Mapping[str, Any]) -> ClockSettings:
        """Settings from a config table such as a league file's ``[clock]``: an unknown key is refused
        by name (a misspelt setting would otherwise be silently left at its default)."""
        known = [f.name for f in fields(cls)]
        unknown = [key for key in table if key not in known]
        if unknown:
            raise ValueError(f"unknown clock setting {unknown[0]!r}; expected one of {', '.join(known)}")
        return cls(**table)


@dataclass(frozen=True, slots=True)
class StreamLimits:
    """What one Play stream may do before the referee closes it, and how many Watch streams and web
    feeds it serves (``mizerka serve`` options; docs/protocol.md, "Limits"; docs/web.md)."""

    hello_timeout_s: float = 10.0  # from opening the stream to its Hello: DEADLINE_EXCEEDED after
    max_streams_per_bot: int = 64  # open Play streams per bot token: RESOURCE_EXHAUSTED beyond
    max_unasked_messages: int = 256  # messages without a DecisionRequest or a retry in between: RESOURCE_EXHAUSTED beyond
    max_watchers: int = 16  # open Watch streams, all callers but the admin together: RESOURCE_EXHAUSTED beyond
    max_watchers_per_host: int = 4  # ... of them from one host (the peer's address): RESOURCE_EXHAUSTED beyond
    max_feeds_per_host: int = 4  # the web page's match feeds one host may hold: 429 beyond
    # Feeds and Watch streams of an ended match one host may open (a token bucket: a burst, then so
    # many a minute): each may replay every game of the match (server/replays.py). 429 / RESOURCE_EXHAUSTED beyond.
    finished_feeds_per_minute: int = 30
    finished_feeds_burst: int = 8
    # What an ended match's feeds and Watch streams of one host are sent, all together, in KiB a
    # second (a second's worth at once): a client reading a long match as fast as it can would
    # otherwise take the referee's loop for its writes (a 1,500-game match: 30 MB).
    finished_feeds_kib_per_s: int = 2048

    def __post_init__(self) -> None:
        if not self.hello_timeout_s > 0:
            raise ValueError(f"hello_timeout_s must be above 0, got {self.hello_timeout_s!r}")
        for name in ("max_streams_per_bot", "max_unasked_messages", "max_watchers", "max_watchers_per_host",
                     "max_feeds_per_host", "finished_feeds_per_minute", "finished_feeds_burst",
                     "finished_feeds_kib_per_s"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{name} must be a whole number of at least 1, got {value!r}")
