"""grpc.aio's completions, handed to the event loop in bulk rather than one per loop iteration.

grpc.aio (grpcio 1.85) has a poller thread take each completion (a message read, a write done, a
new call) from gRPC core, queue it, and write one byte to a socket pair whose other end the event
loop watches. Each time the loop finds that socket readable, grpc.aio reads one byte and runs every
completion queued. Under load the loop reads fewer bytes than the poller writes, and the socket's
buffer is full after a few hundred of them (each one-byte write holds about 768 bytes of socket
memory): the poller thread then blocks on its next write, and from there on completions reach the
loop at one per iteration, however many wait in gRPC core. Reads, writes, new streams and admin
calls all queue behind them, so the referee's throughput falls as its matches grow in number, and
new streams wait until gRPC cancels them.

:func:`drain_notifications` puts a reader in front of grpc.aio's: it reads every byte but one,
then lets grpc.aio read the last and run the queued completions as before. A completion is queued
before its byte is written, so the bytes read here all stand for completions that this very call
runs; none is left waiting for a byte that is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import socket
from typing import Any

import structlog
from grpc._cython import cygrpc

log = structlog.get_logger("service")

PEEK_BYTES = 4096  # at most this many bytes are drained per loop iteration (the socket holds a few hundred)


def _bound_poller(loop: asyncio.AbstractEventLoop) -> tuple[Any, Any] | None:
    """grpc.aio's socket watched by ``loop`` and its completion queue (private to grpc: None if
    this grpcio has no such objects)."""
    bound_type = getattr(cygrpc, "_BoundEventLoop", None)
    poller_type = getattr(cygrpc, "PollerCompletionQueue", None)
    bound = [o for o in gc.get_objects() if bound_type is not None and type(o) is bound_type and o.loop is loop]
    pollers = [o for o in gc.get_objects() if poller_type is not None and type(o) is poller_type]
    if len(bound) != 1 or len(pollers) != 1 or not hasattr(pollers[0], "_handle_events"):
        return None
    return bound[0].read_socket, pollers[0]


def drain_notifications(loop: asyncio.AbstractEventLoop) -> bool:
    """Make ``loop`` take all of grpc.aio's waiting completions at each iteration (call it once a
    grpc.aio server or channel exists on ``loop``); False, logged, if this grpcio is not the kind
    this works around (grpc.aio then works as it does by itself)."""
    found = _bound_poller(loop)
    if found is None:
        log.warning("grpc.aio internals not as expected: completions reach the event loop one per iteration "
                    "under load (server/transport/grpc_events.py)")
        return False
    sock, poller = found

    def ready() -> None:
        with contextlib.suppress(BlockingIOError, InterruptedError):
            waiting = len(sock.recv(PEEK_BYTES, socket.MSG_PEEK))
            if waiting > 1:
                sock.recv(waiting - 1)
        poller._handle_events(loop)

    loop.remove_reader(sock)
    loop.add_reader(sock, ready)
    return True
