"""Running the referee service until SIGTERM/SIGINT, then shutting down cleanly."""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
from collections.abc import Sequence
from pathlib import Path

import structlog
from grpc_health.v1.health import aio as health_aio

from server.arena import Arena
from server.metrics import referee_registry, start_metrics_server
from server.private_files import private_secret
from server.settings import ClockSettings, StreamLimits
from server.storage.store import DEFAULT_REFEREE, Store
from server.transport.collector import Collector
from server.transport.connections import ConnectionCaps, ConnectionLimits, raise_descriptor_limit
from server.transport.service import server_options, start_server
from server.transport.tls import ServerTls, is_loopback
from server.transport.unix_peers import start_unix_listener
from server.transport.uploads import UploadSettings
from server.web.page import MAX_FEEDS, LeagueBoard, start_web

log = structlog.get_logger("serve")


def admin_token_for(db: str, given: str | None) -> str:
    """The admin token: given, else MIZERKA_ADMIN_TOKEN, else one kept in a file beside the database."""
    token = given or os.environ.get("MIZERKA_ADMIN_TOKEN")
    if token:
        return token
    path = Path(db).with_name(Path(db).name + ".admin-token") if "://" not in db else Path("mizerka.admin-token")
    token, created = private_secret(path, secrets.token_urlsafe(24))  # 0600 from the first byte
    if created:
        log.info("admin token created", path=str(path))
    return token


async def serve(host: str, port: int, db: str, admin_token: str, clock: ClockSettings, seat_timeout_s: float,
                ready_file: Path | None = None, limits: StreamLimits | None = None, tls: ServerTls | None = None,
                referee_id: str = DEFAULT_REFEREE, metrics: tuple[str, int] | None = None, unix_sockets: Sequence[Path] = (),
                web: tuple[str, int] | None = None, board: LeagueBoard | None = None, web_max_feeds: int = MAX_FEEDS,
                connections: ConnectionLimits | None = None, uploads: UploadSettings | None = None) -> None:
    """``metrics``: (host, port) to serve Prometheus metrics on, at /metrics (docs/metrics.md).
    ``web``: (host, port) to serve the web page on (docs/web.md), with ``board``'s leagues.
    ``unix_sockets``: listen there too, for bots in a sandbox without network (tournaments/sandbox/bwrap.py), each a
    host of its own (server/transport/unix_peers.py).
    ``connections``: caps and timeouts of connections (docs/security.md, Connections); the caps not
    given are sized from the descriptor limit, raised to its hard limit first. ValueError if the
    limit is too low for them. ``uploads``: what authors may upload (docs/submitting.md)."""
    connections = connections if connections is not None else ConnectionLimits()
    caps = ConnectionCaps.sized(raise_descriptor_limit(), 1 + len(unix_sockets), connections)
    store = Store(db, referee_id)  # first: a database that cannot be used is the one line said
    log.info("connection caps", descriptors=caps.descriptors, grpc_per_listener=caps.grpc,
             http=caps.http if web is not None else None, http_per_host=caps.http_per_host if web is not None else None)
    collector = Collector()  # no stall of a full garbage collection every few seconds under load
    arena = Arena(store, clock, seat_timeout_s, limits, pauses=collector.paused)  # its stalls are on no bot's clock
    stale = arena.abort_stale()
    if stale:
        log.warning("matches of an earlier run marked aborted", matches=stale)
    if metrics is not None:  # before the referee listens: once the ready file is there, so are the metrics
        metrics_host, metrics_port = metrics
        metrics_port = start_metrics_server(referee_registry(arena, collector), metrics_host, metrics_port)
        log.info("metrics listening", address=f"{metrics_host}:{metrics_port}", path="/metrics")
    health = health_aio.HealthServicer()
    options = server_options(connections, caps.grpc)
    server, bound = await start_server(arena, host, port, admin_token, tls, health, options, uploads)
    listeners = [server]
    for path in unix_sockets:
        listeners.append(await start_unix_listener(arena, admin_token, health, path, options))
        log.info("referee listening on a Unix socket too", path=str(path))
    web_runner = None
    if web is not None:  # before the ready file: once it is there, so is the page
        web_host, web_port = web
        web_runner, web_port = await start_web(arena, web_host, web_port, board, max_feeds=web_max_feeds,
                                               max_connections=caps.http, max_per_host=caps.http_per_host,
                                               idle_timeout_s=connections.http_idle_timeout_s, backlog=caps.http_backlog)
        log.info("web page listening", address=f"{web_host}:{web_port}", url=f"http://{web_host}:{web_port}/")
    collector.start(asyncio.get_running_loop())
    log.info("referee listening", address=f"{host}:{bound}", db=db,
             tls="mutual" if tls is not None and tls.mutual else "on" if tls is not None else "off")
    if tls is None and not is_loopback(host):
        log.warning(f"NOT ENCRYPTED: listening on {host} without TLS, so bot and admin tokens (and every game) "
                    "travel the network in clear text; give --tls-cert and --tls-key (docs/protocol.md, TLS)")
    if ready_file is not None:
        ready_file.write_text(f"{host}:{bound}\n")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await health.enter_graceful_shutdown()  # health checks answer NOT_SERVING from here on
    log.info("shutting down: no new streams; running matches are aborted and stored as such")
    aborted = await arena.shutdown()
    await asyncio.gather(*(listener.stop(grace=2.0) for listener in listeners))
    if web_runner is not None:
        await web_runner.cleanup()
    if board is not None:
        board.close()
    collector.stop()
    store.close()
    log.info("referee stopped", aborted_matches=aborted, count=len(aborted))
