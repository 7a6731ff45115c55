"""Running the referee service until SIGTERM/SIGINT, then shutting down cleanly."""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
from pathlib import Path

import structlog

from server.service import Arena, start_server
from server.settings import ClockSettings
from server.store import Store

log = structlog.get_logger("serve")


def admin_token_for(db: str, given: str | None) -> str:
    """The admin token: given, else MIZERKA_ADMIN_TOKEN, else one kept in a file beside the database."""
    token = given or os.environ.get("MIZERKA_ADMIN_TOKEN")
    if token:
        return token
    path = Path(db).with_name(Path(db).name + ".admin-token") if "://" not in db else Path("mizerka.admin-token")
    if path.exists():
        return path.read_text().strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(24)
    path.write_text(token + "\n")
    path.chmod(0o600)
    log.info("admin token created", path=str(path))
    return token


async def serve(host: str, port: int, db: str, admin_token: str, clock: ClockSettings, seat_timeout_s: float,
                ready_file: Path | None = None) -> None:
    store = Store(db)
    arena = Arena(store, clock, seat_timeout_s)
    stale = arena.abort_stale()
    if stale:
        log.warning("matches of an earlier run marked aborted", matches=stale)
    server, bound = await start_server(arena, host, port, admin_token)
    log.info("referee listening", address=f"{host}:{bound}", db=db)
    if ready_file is not None:
        ready_file.write_text(f"{host}:{bound}\n")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    log.info("shutting down: no new streams; running matches are aborted and stored as such")
    aborted = await arena.shutdown()
    await server.stop(grace=2.0)
    store.close()
    log.info("referee stopped", aborted_matches=aborted, count=len(aborted))
