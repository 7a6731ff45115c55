"""Asking a referee whether it serves: the standard gRPC health check (``grpc.health.v1``).

``mizerka health`` runs it from the command line; ``python -m server.transport.health`` does the same without
the start-up cost of the whole command line (the container image's HEALTHCHECK, docker/Dockerfile).
Exit status 0: SERVING; 1: anything else (not serving, unreachable, an unknown service name).
Plain text only: a referee served over TLS needs a TLS-aware check.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

DEFAULT_ADDRESS = "127.0.0.1:50051"
SERVING = "SERVING"

__all__ = ["DEFAULT_ADDRESS", "SERVING", "HealthError", "check", "main"]


class HealthError(Exception):
    """The health check got no status: the referee is unreachable, or does not know the service."""


def check(address: str = DEFAULT_ADDRESS, service: str = "", timeout_s: float = 3.0) -> str:
    """The serving status of ``service`` ("": the whole server) at ``address`` (HOST:PORT), by name:
    SERVING, NOT_SERVING, SERVICE_UNKNOWN or UNKNOWN. Raises :class:`HealthError` without an answer."""
    with grpc.insecure_channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        try:
            response = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=timeout_s)
        except grpc.RpcError as e:
            if isinstance(e, grpc.Call):  # what the synchronous stub raises
                raise HealthError(f"{address}: {e.code().name}: {e.details()}") from None
            raise HealthError(f"{address}: {e}") from None
    return health_pb2.HealthCheckResponse.ServingStatus.Name(response.status)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m server.transport.health [--server HOST:PORT] [--service NAME] [--timeout S]``: print the
    status; 0 if SERVING, else 1."""
    parser = argparse.ArgumentParser(prog="python -m server.transport.health", description="Ask a referee whether it serves (grpc.health.v1).")
    parser.add_argument("--server", default=DEFAULT_ADDRESS, help=f"the referee, HOST:PORT (default {DEFAULT_ADDRESS})")
    parser.add_argument("--service", default="", help='a service name, e.g. mizerka.v1.Referee (default "": the server)')
    parser.add_argument("--timeout", type=float, default=3.0, help="seconds to wait for the answer (default 3)")
    args = parser.parse_args(argv)
    try:
        status = check(args.server, args.service, args.timeout)
    except HealthError as e:
        print(f"unhealthy: {e}", file=sys.stderr)
        return 1
    print(status)
    return 0 if status == SERVING else 1


if __name__ == "__main__":
    sys.exit(main())
