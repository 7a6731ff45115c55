"""The connections one referee process holds, bounded below its file-descriptor limit.

The web page, the bots' gRPC and the referee share one process and so one RLIMIT_NOFILE. A stranger
who holds connections open must not take the descriptors the bots, the store and the logs need: at
start the referee raises its soft limit to the hard one (:func:`raise_descriptor_limit`) and shares
what it gets out (:class:`ConnectionCaps`): a headroom for itself, half the rest for gRPC
connections, a quarter for the web page's. Connections beyond a cap are accepted and closed at once
(gRPC core's ``grpc.max_allowed_incoming_connections``; server.web.capped's ``CappedServer`` for the page), so
``accept()`` never fails for want of descriptors (asyncio would log every failure, many a second,
and stop accepting for a second each time).
"""

from __future__ import annotations

import resource
from dataclasses import dataclass

import structlog

log = structlog.get_logger("connections")

# Descriptors kept out of every cap: the store (SQLite and its -wal/-shm, or PostgreSQL's
# connections), logs, the listening sockets, grpc's and asyncio's own (epoll, wake-up pipes), the
# threads' work, and the web page's accept backlog (asyncio accepts up to a backlog's worth of
# connections at a time before the cap closes any). Plus an eighth of the limit, for what grows
# with the load.
RESERVE = 128
MAX_BACKLOG = 128  # the web page's listen backlog, at most a sixteenth of the descriptors
MIN_DESCRIPTORS = 256  # below this the caps would leave too few connections to play a league
MAX_GRPC_CONNECTIONS = 16_384  # per listener: bots keep one connection each (many streams on it)
MAX_HTTP_CONNECTIONS = 1024  # the page's spectators (a browser opens up to 6 per host, a feed holds one)
HTTP_PER_HOST = 32
HTTP_IDLE_TIMEOUT_S = 10.0
HANDSHAKE_TIMEOUT_S = 10.0  # gRPC: TCP (and TLS) to the client's first HTTP/2 SETTINGS
IDLE_TIMEOUT_S = 60.0  # gRPC: a connection without a call (an open Play stream is a call)


def raise_descriptor_limit() -> int:
    """Raise RLIMIT_NOFILE's soft limit to its hard limit (where the system allows it); the soft
    limit in effect afterwards."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError) as e:  # e.g. macOS, whose kernel caps it lower than the hard limit says
            log.warning("cannot raise the descriptor limit", soft=soft, hard=hard, error=str(e))
    return soft


class DescriptorLimitError(ValueError):
    """The descriptor limit is too low for the referee, or for the caps it was given."""


@dataclass(frozen=True)
class ConnectionLimits:
    """What ``mizerka serve`` is told (its flags); a cap of None is sized from the descriptor limit."""

    max_connections: int | None = None  # gRPC, per listener
    handshake_timeout_s: float = HANDSHAKE_TIMEOUT_S
    idle_timeout_s: float = IDLE_TIMEOUT_S
    http_max_connections: int | None = None
    http_max_per_host: int = HTTP_PER_HOST
    http_idle_timeout_s: float = HTTP_IDLE_TIMEOUT_S

    def __post_init__(self) -> None:
        for name, value in (("--handshake-timeout-s", self.handshake_timeout_s), ("--idle-timeout-s", self.idle_timeout_s),
                            ("--http-idle-timeout-s", self.http_idle_timeout_s)):
            if not 0 < value <= 86_400:
                raise ValueError(f"{name} must be more than 0 and at most a day (86400), not {value}")
        for name, cap in (("--max-connections", self.max_connections), ("--http-max-connections", self.http_max_connections),
                          ("--http-max-connections-per-host", self.http_max_per_host)):
            if cap is not None and cap < 1:
                raise ValueError(f"{name} must be at least 1, not {cap}")


@dataclass(frozen=True)
class ConnectionCaps:
    """How many connections each listener takes at most; the rest of the descriptors stay spare."""

    descriptors: int  # the process's RLIMIT_NOFILE
    grpc: int  # connections per gRPC listener (the TCP port, the Unix socket)
    http: int  # the web page's connections, all hosts together
    http_per_host: int  # of those, from one address
    http_backlog: int  # the web page's listen backlog: connections asyncio accepts in one go

    @classmethod
    def sized(cls, descriptors: int, grpc_listeners: int, limits: ConnectionLimits) -> ConnectionCaps:
        """Caps for a process of ``descriptors``: those given, the others from the limit.
        DescriptorLimitError (saying why) if the limit is too low or the caps given leave no headroom."""
        grpc, http, http_per_host = limits.max_connections, limits.http_max_connections, limits.http_max_per_host
        if descriptors < MIN_DESCRIPTORS:
            raise DescriptorLimitError(f"the descriptor limit (ulimit -n) is {descriptors}, too few for the referee: "
                                       f"raise it to at least {MIN_DESCRIPTORS}")
        spare = descriptors - RESERVE - descriptors // 8
        grpc = min(MAX_GRPC_CONNECTIONS, spare // 2 // grpc_listeners) if grpc is None else grpc
        http = min(MAX_HTTP_CONNECTIONS, spare // 4) if http is None else http
        if grpc * grpc_listeners + http > spare:
            raise DescriptorLimitError(f"--max-connections {grpc} (for each of {grpc_listeners} gRPC listeners) and "
                                       f"--http-max-connections {http} leave too little headroom below the descriptor "
                                       f"limit {descriptors}: together they may be at most {spare}")
        return cls(descriptors, grpc, http, min(http_per_host, http), min(MAX_BACKLOG, descriptors // 16))
