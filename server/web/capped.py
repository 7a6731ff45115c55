"""The web page's connections: aiohttp's server with a cap on connections, all together and per
host, a connection refused as soon as it is accepted (before it is read), and hosts named as gRPC
names them, so that one host's feeds and Watch streams share their limits.
"""

from __future__ import annotations

from typing import Any

import structlog
from aiohttp import web, web_protocol

from server.logs import RateLimitedLog
from server.transport.limits import Cooldowns

log = structlog.get_logger("web")


def web_host(remote: str | None) -> str:
    """The page's caller named as gRPC names a Watch caller's host (server/logs.py ``peer_host``),
    so that one host's feeds and Watch streams share their limits."""
    if not remote:
        return "unix:"
    return f"ipv6:[{remote}]" if ":" in remote else f"ipv4:{remote}"



class CappedServer(web.Server):
    """aiohttp's connection manager with a cap on connections, all together and per host: a
    connection beyond, or from a host told to wait (429) whose wait is not over, is closed as soon
    as it is accepted (before it is read), and said so in the log at most once per cap and host
    every 10 s."""

    def __init__(self, *args: Any, max_connections: int, max_per_host: int, cooldowns: Cooldowns, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.cooldowns = cooldowns  # the page's: a host in it is refused at accept
        self.max_connections = max_connections
        self.max_per_host = max_per_host
        self.hosts: dict[web_protocol.RequestHandler, str] = {}  # each connection let in -> its host
        self.per_host: dict[str, int] = {}
        self.refusals = RateLimitedLog(log)

    def connection_made(self, handler: web_protocol.RequestHandler, transport: Any) -> None:
        peer = transport.get_extra_info("peername")
        host = web_host(str(peer[0]) if isinstance(peer, tuple) else None)
        if self.cooldowns.cooling(host):
            self.refusals.warning(("web connection refused", host, "cooling"), "web connection refused: the host was "
                                  "told to wait (429) and has not", host=host)
            handler.force_close()
            return
        held = self.per_host.get(host, 0)
        if len(self.hosts) >= self.max_connections or held >= self.max_per_host:
            per_host = held >= self.max_per_host
            key = ("web connection refused", host if per_host else "")
            self.refusals.warning(key, "web connection refused: too many open", host=host,
                                  cap="per host" if per_host else "all hosts",
                                  limit=self.max_per_host if per_host else self.max_connections)
            handler.force_close()  # closes the transport; the handler's task ends at once
            return
        self.hosts[handler] = host
        self.per_host[host] = held + 1
        super().connection_made(handler, transport)

    def connection_lost(self, handler: web_protocol.RequestHandler, exc: BaseException | None = None) -> None:
        host = self.hosts.pop(handler, None)
        if host is not None:
            left = self.per_host[host] - 1
            if left:
                self.per_host[host] = left
            else:
                del self.per_host[host]
        super().connection_lost(handler, exc)


class CappedRunner(web.AppRunner):
    """An AppRunner whose server is a :class:`CappedServer`."""

    def __init__(self, app: web.Application, *, max_connections: int, max_per_host: int, cooldowns: Cooldowns,
                 **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.caps = {"max_connections": max_connections, "max_per_host": max_per_host, "cooldowns": cooldowns}

    async def _make_server(self) -> web.Server:
        server = await super()._make_server()
        return CappedServer(server.request_handler, request_factory=server.request_factory,
                            handler_cancellation=server.handler_cancellation, **self.caps, **server._kwargs)
