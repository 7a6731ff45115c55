"""The referee's Unix sockets, each a host of its own (``mizerka serve --unix-socket PATH``, given
once per sandboxed bot by the league runner).

gRPC names every peer of a Unix socket ``unix:`` (the client's end has no address), so every
sandboxed bot would be one host to the per-host Watch cap and to the per-host rate limit of the log
(server/logs.py ``peer_host``): one bot could take the Watch slots and the log lines of all.
A Watch call carries no bot token, so the bot cannot be told by its credentials either; what does
tell it is the socket it came through, as the runner binds each bot's own socket alone into its
sandbox. gRPC does not say which of a server's listeners took a call, so each socket gets a server
of its own, on the same event loop and Arena, whose calls see the peer ``unix:PATH``.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1.health import aio as health_aio

from server.arena import Arena
from server.transport.service import SERVER_OPTIONS, add_services


class _Peer:
    """A call's context that names its peer ``peer``; everything else is the call's own."""

    def __init__(self, context: grpc.aio.ServicerContext, peer: str) -> None:
        self._context = context
        self._peer = peer

    def peer(self) -> str:
        return self._peer

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)


def _relabelled(behavior: Callable[..., Any], peer: str) -> Callable[..., Any]:
    """``behavior`` (a coroutine or an async generator function, as grpc.aio takes either) called
    with a context naming ``peer``."""
    if inspect.isasyncgenfunction(behavior):
        async def stream(request: Any, context: grpc.aio.ServicerContext) -> Any:
            async for item in behavior(request, _Peer(context, peer)):
                yield item
        return stream

    async def call(request: Any, context: grpc.aio.ServicerContext) -> Any:
        return await behavior(request, _Peer(context, peer))
    return call


class UnixPeer(grpc.aio.ServerInterceptor):
    """Every call of a server gets ``peer`` for its peer (its socket's ``unix:PATH``)."""

    KINDS = ("unary_unary", "unary_stream", "stream_unary", "stream_stream")

    def __init__(self, peer: str) -> None:
        self.peer = peer

    async def intercept_service(self, continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
                                handler_call_details: grpc.HandlerCallDetails) -> grpc.RpcMethodHandler:
        handler = await continuation(handler_call_details)
        if handler is None:
            return handler
        kind = next(k for k in self.KINDS if getattr(handler, k) is not None)
        return handler._replace(**{kind: _relabelled(getattr(handler, kind), self.peer)})  # type: ignore[attr-defined, no-any-return]


async def start_unix_listener(arena: Arena, admin_token: str, health: health_aio.HealthServicer, path: Path,
                              options: list[tuple[str, int]] = SERVER_OPTIONS) -> grpc.aio.Server:
    """A server on the Unix socket ``path`` with every service of the referee's port, whose calls'
    peer is ``unix:PATH``. The socket is open to every user (sandboxed bots may run as another user;
    anyone here may reach the port anyway)."""
    server = grpc.aio.server(options=options, interceptors=[UnixPeer(f"unix:{path}")])
    add_services(server, arena, admin_token, health)
    try:
        server.add_insecure_port(f"unix:{path}")
    except RuntimeError as e:  # grpc's "failed to bind"
        raise OSError(f"cannot listen on the Unix socket {path}: {e}") from None
    await server.start()
    os.chmod(path, 0o666)
    return server
