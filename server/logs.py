"""structlog setup: readable console lines in a terminal, JSON lines with ``--log-format json``; a
rate limit for lines that clients can provoke. The files logs go to are private
(:mod:`server.private_files`).
"""

from __future__ import annotations

import logging
import sys
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Literal

import structlog

LogFormat = Literal["auto", "console", "json"]


def configure_logging(fmt: LogFormat = "auto", level: str = "info") -> None:
    if fmt == "auto":
        fmt = "console" if sys.stderr.isatty() else "json"
    renderer: structlog.typing.Processor = (
        structlog.processors.JSONRenderer() if fmt == "json" else structlog.dev.ConsoleRenderer(colors=sys.stderr.isatty())
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelNamesMapping()[level.upper()]),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=True,
    )


class RateLimitedLog:
    """Warnings that a hostile client can trigger at will (refused streams, failed logins): at most
    one line per key (e.g. what was refused and the peer's address) every ``every_s`` seconds; the
    next line that gets through says how many were ``suppressed`` since the last one. At most
    ``max_keys`` keys are remembered (the least recent are forgotten), so a crowd of peers cannot
    grow it without bound either. ``clock`` is injectable for tests."""

    def __init__(self, log: Any, every_s: float = 10.0, max_keys: int = 4096,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.log = log
        self.every_s = every_s
        self.max_keys = max_keys
        self.clock = clock
        self._seen: OrderedDict[Hashable, tuple[float, int]] = OrderedDict()  # key -> (last line at, suppressed since)

    def warning(self, key: Hashable, event: str, **fields: Any) -> bool:
        """Log ``event`` unless a line for ``key`` went out less than ``every_s`` ago; True if logged."""
        now = self.clock()
        seen = self._seen.get(key)
        self._seen[key] = (seen[0], seen[1] + 1) if seen is not None and now - seen[0] < self.every_s else (now, 0)
        self._seen.move_to_end(key)  # the least recently seen keys are forgotten first
        if self._seen[key][1]:
            return False
        while len(self._seen) > self.max_keys:
            self._seen.popitem(last=False)
        self.log.warning(event, suppressed=seen[1] if seen is not None else 0, **fields)
        return True


def peer_host(peer: str) -> str:
    """A gRPC peer without its port ('ipv4:10.0.0.7:51234' -> 'ipv4:10.0.0.7'): one host's many
    connections share one rate limit."""
    if peer.startswith(("ipv4:", "ipv6:")) and peer.count(":") >= 2:
        return peer.rsplit(":", 1)[0]
    return peer
