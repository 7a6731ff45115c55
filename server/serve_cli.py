"""``mizerka serve`` (the referee) and ``mizerka health`` (asks a referee whether it serves)."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from server.commands import usage_error
from server.logs import configure_logging
from server.metrics import MetricsServerError
from server.private_files import private_umask
from server.serve import admin_token_for
from server.serve import serve as run_server
from server.settings import ClockSettings, StreamLimits
from server.storage.database import DatabaseError
from server.storage.store import DEFAULT_REFEREE
from server.submissions.archive import ArchiveLimits
from server.transport.connections import ConnectionLimits, DescriptorLimitError
from server.transport.health import DEFAULT_ADDRESS, SERVING, HealthError, check
from server.transport.tls import ServerTls
from server.transport.uploads import UploadSettings
from server.web.page import MAX_FEEDS, WebExtras

_LIMITS = StreamLimits()  # the defaults of serve's stream limits
_CONNECTIONS = ConnectionLimits()  # and of its connection limits
_SIZED = "(default: sized from the descriptor limit, see docs/security.md)"
_UPLOADS = ArchiveLimits()  # the defaults of what an author may upload
MIB = 2**20

serve_app = typer.Typer(add_completion=False)
health_app = typer.Typer(add_completion=False)


@serve_app.command()
def serve(
    ctx: typer.Context,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on (0: any free port).")] = 50051,
    db: Annotated[str, typer.Option(help="SQLite file, or a PostgreSQL URL (postgresql://USER@HOST:PORT/DB; the password from $PGPASSWORD or ~/.pgpass).")] = "data/arena.sqlite",
    admin_token: Annotated[str | None, typer.Option(help="Admin token for Arena calls; prefer $MIZERKA_ADMIN_TOKEN or the file DB.admin-token (made if missing): a command line is visible to every user.")] = None,
    decision_ms: Annotated[int, typer.Option(help="Default free time per decision, ms.")] = 10_000,
    bank_ms: Annotated[int, typer.Option(help="Default time bank per game, ms.")] = 60_000,
    increment_ms: Annotated[int, typer.Option(help="Default bank increment per decision, ms.")] = 0,
    max_strikes: Annotated[int, typer.Option(help="Default strikes before a seat is forfeited (0: never).")] = 3,
    seat_timeout: Annotated[float, typer.Option(help="Seconds a match waits for its bots' streams before the default policy plays the missing seats.")] = 60.0,
    hello_timeout_s: Annotated[float, typer.Option(help="Seconds a new Play stream has to send its Hello; then it is closed with DEADLINE_EXCEEDED.")] = _LIMITS.hello_timeout_s,
    max_streams_per_bot: Annotated[int, typer.Option(help="Open Play streams one bot may hold; more are refused with RESOURCE_EXHAUSTED.")] = _LIMITS.max_streams_per_bot,
    max_unasked_messages: Annotated[int, typer.Option(help="Messages a bot may send without being asked (no DecisionRequest or retry in between); more and its stream is closed with RESOURCE_EXHAUSTED.")] = _LIMITS.max_unasked_messages,
    max_watchers: Annotated[int, typer.Option(help="Watch streams served at once, all callers but the admin together; more are refused with RESOURCE_EXHAUSTED.")] = _LIMITS.max_watchers,
    max_watchers_per_host: Annotated[int, typer.Option(help="Of those, the Watch streams one host (the caller's address) may hold; more are refused with RESOURCE_EXHAUSTED.")] = _LIMITS.max_watchers_per_host,
    log_format: Annotated[str, typer.Option(help="auto, console or json.")] = "auto",
    ready_file: Annotated[Path | None, typer.Option(help="Write host:port here once listening (for scripts).")] = None,
    tls_cert: Annotated[Path | None, typer.Option(metavar="PEM", help="Serve TLS with this certificate chain (PEM; needs --tls-key). Without TLS, tokens cross the network in clear text.")] = None,
    tls_key: Annotated[Path | None, typer.Option(metavar="PEM", help="The private key of --tls-cert (PEM).")] = None,
    tls_client_ca: Annotated[Path | None, typer.Option(metavar="PEM", help="Mutual TLS: require client certificates signed by this CA (PEM).")] = None,
    metrics_port: Annotated[int | None, typer.Option(metavar="PORT", help="Serve Prometheus metrics on this port, at /metrics (0: any free port; the log says which). Off unless given; docs/metrics.md.")] = None,
    metrics_host: Annotated[str, typer.Option(help="Address the metrics listen on; the default keeps them on this machine.")] = "127.0.0.1",
    referee_id: Annotated[str, typer.Option(help="This referee's id among those sharing one database: on start it aborts only the unfinished matches it left itself.")] = DEFAULT_REFEREE,
    unix_socket: Annotated[list[Path] | None, typer.Option(metavar="PATH", help="Also listen on this Unix socket, in plain text and open to every user of this machine (as the port is): what the league runner's sandboxed bots connect to (MIZERKA_SERVER=unix:PATH). Give it once per bot: each socket is a host of its own to the per-host limits (--max-watchers-per-host, the log's rate limit).")] = None,
    http_port: Annotated[int | None, typer.Option(metavar="PORT", help="Serve the arena's web page on this port: live matches, leagues (0: any free port; the log says which). Off unless given; docs/web.md.")] = None,
    http_host: Annotated[str, typer.Option(help="Address the web page listens on; the default keeps it on this machine.")] = "127.0.0.1",
    http_max_feeds: Annotated[int, typer.Option(min=1, help="Match feeds the web page serves at once; more spectators are told to come back later (503).")] = MAX_FEEDS,
    http_max_feeds_per_host: Annotated[int, typer.Option(min=1, help="Of those, the feeds one host (the caller's address) may hold; more are refused (429).")] = _LIMITS.max_feeds_per_host,
    finished_feeds_burst: Annotated[int, typer.Option(min=1, help="Web feeds and Watch streams of ended matches one host may open at once (each replays the match's games); then --finished-feeds-per-minute. More are refused (429, RESOURCE_EXHAUSTED).")] = _LIMITS.finished_feeds_burst,
    finished_feeds_per_minute: Annotated[int, typer.Option(min=1, help="Web feeds and Watch streams of ended matches one host may open a minute, after its burst.")] = _LIMITS.finished_feeds_per_minute,
    finished_feeds_kib_per_s: Annotated[int, typer.Option(min=1, help="KiB a second the ended matches' feeds and Watch streams of one host are sent, all together (the organiser's are not paced).")] = _LIMITS.finished_feeds_kib_per_s,
    max_connections: Annotated[int | None, typer.Option(metavar="N", help=f"gRPC connections each listener (the port, the Unix socket) holds at most; more are closed as soon as accepted {_SIZED}.")] = None,
    handshake_timeout_s: Annotated[float, typer.Option(help="Seconds a new gRPC connection has to finish its handshake (TLS, HTTP/2 settings); then it is closed.")] = _CONNECTIONS.handshake_timeout_s,
    idle_timeout_s: Annotated[float, typer.Option(help="Seconds a gRPC connection may stay without a call (an open Play stream is one); then it is closed.")] = _CONNECTIONS.idle_timeout_s,
    http_max_connections: Annotated[int | None, typer.Option(metavar="N", help=f"Connections the web page holds at most, all hosts together; more are closed as soon as accepted {_SIZED}.")] = None,
    http_max_connections_per_host: Annotated[int, typer.Option(metavar="N", help="Of those, the connections one host (address) may hold.")] = _CONNECTIONS.http_max_per_host,
    http_idle_timeout_s: Annotated[float, typer.Option(help="Seconds a web connection has to send a request's head, from its start or its last answer; then it is closed.")] = _CONNECTIONS.http_idle_timeout_s,
    max_upload_mib: Annotated[int, typer.Option(min=1, help="MiB an author's upload (a bot's folder, compressed) may have; more is refused as it arrives (docs/submitting.md).")] = _UPLOADS.max_bytes // MIB,
    max_upload_files: Annotated[int, typer.Option(min=1, help="Files (and folders and links) an upload may hold.")] = _UPLOADS.max_files,
    max_unpacked_mib: Annotated[int, typer.Option(min=1, help="MiB an upload's files may take unpacked.")] = _UPLOADS.max_unpacked // MIB,
    invite_code_file: Annotated[Path | None, typer.Option(metavar="FILE", help="Let authors register themselves (mizerka author register) with the code in this file (or in $MIZERKA_INVITE_CODE). Unset: only the organiser adds authors (mizerka author add).")] = None,
) -> None:
    """Run the referee: bots connect to play, admins create matches, anyone may watch."""
    if log_format not in ("auto", "console", "json"):
        raise usage_error(f"--log-format must be auto, console or json, not {log_format!r}")
    if metrics_port is not None and not 0 <= metrics_port <= 65535:
        raise usage_error(f"--metrics-port must be a port number 0..65535 (0: any free port), not {metrics_port}")
    if http_port is not None and not 0 <= http_port <= 65535:
        raise usage_error(f"--http-port must be a port number 0..65535 (0: any free port), not {http_port}")
    configure_logging(log_format)  # type: ignore[arg-type]
    private_umask()  # the database, its -wal/-shm and the admin-token file: for this user alone
    if admin_token:
        print("warning: --admin-token is visible to every user of this machine (ps, /proc); prefer "
              "$MIZERKA_ADMIN_TOKEN or the file DB.admin-token", file=sys.stderr)
    try:
        clock = ClockSettings(decision_ms, bank_ms, increment_ms, max_strikes)
        limits = StreamLimits(hello_timeout_s, max_streams_per_bot, max_unasked_messages, max_watchers, max_watchers_per_host,
                              http_max_feeds_per_host, finished_feeds_per_minute, finished_feeds_burst,
                              finished_feeds_kib_per_s)
        connections = ConnectionLimits(max_connections, handshake_timeout_s, idle_timeout_s, http_max_connections,
                                       http_max_connections_per_host, http_idle_timeout_s)
        tls = ServerTls.load(tls_cert, tls_key, tls_client_ca)
    except ValueError as e:  # a bad clock, limit or TLS file (TlsSettingsError)
        raise usage_error(str(e)) from None
    token = admin_token_for(db, admin_token)
    invite = os.environ.get("MIZERKA_INVITE_CODE", "")
    if invite_code_file is not None:
        try:
            invite = invite_code_file.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as e:
            raise usage_error(f"--invite-code-file {invite_code_file}: cannot read it ({e})") from None
        if not invite:
            raise usage_error(f"--invite-code-file {invite_code_file} is empty: write the invite code into it")
    uploads = UploadSettings(ArchiveLimits(max_upload_mib * MIB, max_upload_files, max_unpacked_mib * MIB), invite)
    extras = ctx.find_object(WebExtras)  # leagues, when `mizerka` (tournaments/cli.py) runs this
    try:
        board = extras.boards(db) if extras is not None and http_port is not None else None
        asyncio.run(run_server(host, port, db, token, clock, seat_timeout, ready_file, limits, tls, referee_id=referee_id,
                               metrics=None if metrics_port is None else (metrics_host, metrics_port), unix_sockets=unix_socket or (),
                               web=None if http_port is None else (http_host, http_port), board=board,
                               web_max_feeds=http_max_feeds, connections=connections, uploads=uploads))
    except MetricsServerError as e:
        raise usage_error(f"--metrics-port {metrics_port}: {e}") from None
    except (OSError, DatabaseError, DescriptorLimitError) as e:  # a port in use; an unreachable or newer database; caps above the descriptor limit
        raise usage_error(str(e)) from None


@health_app.command()
def health(
    server: Annotated[str, typer.Option(help="The referee, HOST:PORT.")] = DEFAULT_ADDRESS,
    service: Annotated[str, typer.Option(help='A service name, e.g. mizerka.v1.Referee ("": the whole server).')] = "",
    timeout: Annotated[float, typer.Option(help="Seconds to wait for the answer.")] = 3.0,
) -> None:
    """Ask a referee whether it serves (the standard gRPC health check, plain text): prints its status;
    exit status 0 if SERVING, else 1 (for container health checks and scripts)."""
    try:
        status = check(server, service, timeout)
    except HealthError as e:
        print(f"unhealthy: {e}", file=sys.stderr)
        raise typer.Exit(1) from None
    print(status)
    if status != SERVING:
        raise typer.Exit(1)
