"""Ending a call with a status and a message a client can show: one rule for every servicer."""

from __future__ import annotations

import grpc

MAX_DETAIL = 1000  # characters of an error message: gRPC sends it in trailing metadata (8 KB in all)


async def abort(context: grpc.aio.ServicerContext, code: grpc.StatusCode, message: str) -> None:
    """End the call with ``code``; the message is cut to MAX_DETAIL characters, so a huge name or
    option echoed inside it cannot overflow gRPC's metadata limit (the client would get a bare
    INTERNAL instead of the reason)."""
    if len(message) > MAX_DETAIL:
        message = message[:MAX_DETAIL] + f"... (cut; {len(message)} characters)"
    await context.abort(code, message)
