"""The gRPC service: Referee (Play, Watch) and Arena (admin), on grpc.aio.

Play streams, their seats and their limits are in :mod:`server.transport.streams`; the matches they play are
run by :class:`server.arena.Arena`; here are the servicers, their checks and the server's start.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import secrets
from collections.abc import AsyncIterator
from typing import Any

import grpc
import structlog
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1.health import aio as health_aio
from grpc_reflection.v1alpha import reflection

from mizerka_engine.rules import RulesError
from mizerka_proto import (
    arena_pb2,
    arena_pb2_grpc,
    referee_pb2,
    referee_pb2_grpc,
    submissions_pb2,
    submissions_pb2_grpc,
)
from server.arena import Arena
from server.codec import protocol
from server.logs import peer_host
from server.records import STATUS, match_to_proto, page
from server.replays import ADMIN, Encoding
from server.settings import StreamLimits
from server.storage.store import (
    MatchRow,
    StoreError,
    shown,
)
from server.transport.auth import is_admin
from server.transport.connections import ConnectionLimits
from server.transport.grpc_events import drain_notifications
from server.transport.status import abort
from server.transport.streams import MAX_MESSAGE_BYTES, play
from server.transport.tls import ServerTls
from server.transport.uploads import SubmissionsService, UploadSettings
from server.watch import watch_updates

log = structlog.get_logger("service")

MAX_PAGE_OFFSET = 10**9
MAX_REASON = 200  # characters of an AbortMatches reason
__all__ = ["ArenaService", "RefereeService", "start_server"]


# A live match's Watch stream gets at most one update per WATCH_PACE_S (the changes in between come
# together), the web page's pace: with at most max_watchers streams, what spectators cost the referee
# is bounded however fast the matches run (docs/protocol.md, "Watching"; BENCHMARKS.md, "Watch streams").
WATCH_PACE_S = 0.3

# ---------------------------------------------------------------------------------- servicers
class RefereeService(referee_pb2_grpc.RefereeServicer):
    def __init__(self, arena: Arena, admin_token: str = "") -> None:
        self.arena = arena
        self.admin_token = admin_token  # a Watch carrying it sees full records before they are public

    async def Play(self, request_iterator: Any, context: grpc.aio.ServicerContext) -> None:  # noqa: N802
        await play(self.arena.lobby, self.arena.store, context)

    async def Watch(self, request: referee_pb2.WatchRequest, context: grpc.aio.ServicerContext) -> AsyncIterator[referee_pb2.WatchUpdate | bytes]:  # noqa: N802
        """Live: public information only. Ended: the full record if the match is public or the
        caller is the admin, else the spectator's view of each game again (server/watch.py),
        rendered one game at a time (server/replays.py): a host may open so many ended matches a
        minute, and has one game rendered at a time."""
        arena = self.arena
        admin = is_admin(context.invocation_metadata(), self.admin_token)
        counted = 0 if admin else 1  # the admin's streams are not capped: no crowd can lock the organiser out
        limits, host = arena.lobby.limits, peer_host(context.peer())
        if counted and arena.watching_from[host] >= limits.max_watchers_per_host:  # one host cannot take every slot
            await abort(context, grpc.StatusCode.RESOURCE_EXHAUSTED, f"your host already holds {arena.watching_from[host]} "
                        f"Watch streams, the most one host may (mizerka serve --max-watchers-per-host "
                        f"{limits.max_watchers_per_host}): close one first")
        if counted and arena.watching >= limits.max_watchers:
            await abort(context, grpc.StatusCode.RESOURCE_EXHAUSTED, f"this referee already serves {arena.watching} Watch "
                        f"streams, the most it allows (mizerka serve --max-watchers {limits.max_watchers}): try again later")
        arena.watching += counted
        arena.watching_from[host] += counted
        try:
            row = await asyncio.to_thread(arena.store.match, request.match_id, False)  # its games' indexes alone
            if row is None:
                await abort(context, grpc.StatusCode.NOT_FOUND, f"no match {shown(request.match_id)}")
            assert row is not None
            if counted and row.id not in arena.live and (wait := arena.replays.admit(host)):
                await abort(context, grpc.StatusCode.RESOURCE_EXHAUSTED, too_many_finished(limits, wait, "Watch streams"))
            async with contextlib.aclosing(watch_updates(arena, row, admin, host if counted else ADMIN, Encoding.PROTO,
                                                         pace_s=WATCH_PACE_S)) as updates:
                async for update in updates:  # an ended game's comes encoded: sent as it is (add_referee)
                    yield update
        finally:
            arena.watching -= counted
            arena.watching_from[host] -= counted
            if arena.watching_from[host] <= 0:
                del arena.watching_from[host]


class _Handlers:
    """A server as the generated ``add_RefereeServicer_to_server`` sees it: keeps the handlers."""

    def __init__(self) -> None:
        self.service = ""
        self.handlers: dict[str, grpc.RpcMethodHandler] = {}

    def add_generic_rpc_handlers(self, handlers: Any) -> None:
        pass

    def add_registered_method_handlers(self, service: str, handlers: dict[str, grpc.RpcMethodHandler]) -> None:
        self.service, self.handlers = service, handlers


def _update_bytes(update: referee_pb2.WatchUpdate | bytes) -> bytes:
    return update if isinstance(update, bytes) else update.SerializeToString()


def add_referee(servicer: RefereeService, server: grpc.aio.Server) -> None:
    """The generated Referee service, but for Watch's serializer, which sends bytes as they are: an
    ended game's update comes encoded from the renderer (server/replays.py), and decoding it to
    encode it again would cost the event loop 0.05-0.5 ms a game (a whole record of mizerka: 30 KB)."""
    generated = _Handlers()
    referee_pb2_grpc.add_RefereeServicer_to_server(servicer, generated)
    handlers = dict(generated.handlers)
    handlers["Watch"] = handlers["Watch"]._replace(response_serializer=_update_bytes)  # type: ignore[attr-defined]
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(generated.service, handlers),))
    server.add_registered_method_handlers(generated.service, handlers)


def too_many_finished(limits: StreamLimits, wait_s: float, what: str) -> str:
    """Why a host may not open another ended match now (the web page and Watch say the same)."""
    return (f"your host opens {what} of ended matches faster than one host may: {limits.finished_feeds_burst} at once, "
            f"then {limits.finished_feeds_per_minute} a minute (mizerka serve --finished-feeds-burst "
            f"{limits.finished_feeds_burst}, --finished-feeds-per-minute {limits.finished_feeds_per_minute}): "
            f"try again in {math.ceil(wait_s)} s")


def _page_offset(token: str) -> int | None:
    """The offset a page_token stands for (ours are decimal offsets); None if it is not one."""
    if not token:
        return 0
    if not (token.isascii() and token.isdigit() and len(token) <= 10) or int(token) > MAX_PAGE_OFFSET:
        return None
    return int(token)


class ArenaService(arena_pb2_grpc.ArenaServicer):
    """Admin calls; each needs exactly one metadata entry ``authorization: Bearer <admin token>``.
    Store calls run in worker threads: a SQLite lock wait must not stall the games' clocks."""

    def __init__(self, arena: Arena, admin_token: str) -> None:
        self.arena = arena
        self.admin_token = admin_token

    async def _admin(self, context: grpc.aio.ServicerContext) -> None:
        if not is_admin(context.invocation_metadata(), self.admin_token):
            await abort(context, grpc.StatusCode.UNAUTHENTICATED,
                        "Arena calls need exactly one metadata entry 'authorization: Bearer <admin token>'")

    async def _row(self, match_id: str, context: grpc.aio.ServicerContext) -> MatchRow:
        row = await asyncio.to_thread(self.arena.store.match, match_id)
        if row is None:
            await abort(context, grpc.StatusCode.NOT_FOUND, f"no match {shown(match_id)}")
        assert row is not None
        return row

    async def _match(self, row: MatchRow) -> arena_pb2.Match:
        return await asyncio.to_thread(match_to_proto, self.arena.store, row)

    async def RegisterBot(self, request: arena_pb2.RegisterBotRequest, context: grpc.aio.ServicerContext) -> arena_pb2.RegisterBotResponse:  # noqa: N802
        await self._admin(context)
        try:
            bot, token = await self.arena.write(self.arena.store.add_bot, request.name)
        except StoreError as e:
            code = grpc.StatusCode.ALREADY_EXISTS if "already" in str(e) else grpc.StatusCode.INVALID_ARGUMENT
            await abort(context, code, str(e))
        log.info("bot registered", bot=bot.name, bot_id=bot.id)
        return arena_pb2.RegisterBotResponse(bot_id=bot.id, token=token)

    async def CreateMatch(self, request: arena_pb2.CreateMatchRequest, context: grpc.aio.ServicerContext) -> arena_pb2.CreateMatchResponse:  # noqa: N802
        await self._admin(context)
        which = request.WhichOneof("seed")
        if which == "seed_number":
            seed = str(request.seed_number)
        else:  # no seed (or ""): a secret one, so no two unseeded matches share their cards
            seed = request.seed_text or secrets.token_hex(16)
        try:
            clock = protocol.clock_from_proto(request.clock if request.HasField("clock") else None, self.arena.default_clock)
            options = protocol.options_from_struct(request.options)
            row = await self.arena.write(
                self.arena.add, request.preset, options, seed, request.games or 1, clock, list(request.seats),
                list(request.forfeit_seats), request.group,
            )
        except (RulesError, StoreError, ValueError) as e:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, str(e))
        self.arena.start(row)
        log.info("match created", match_id=row.id, preset=row.preset, seats=row.seats, games=row.games, group=row.match_group)
        # On the loop: a new match has no results to convert, and its bots' names are known by now.
        return arena_pb2.CreateMatchResponse(match_id=row.id, match=match_to_proto(self.arena.store, row))

    async def GetMatch(self, request: arena_pb2.GetMatchRequest, context: grpc.aio.ServicerContext) -> arena_pb2.GetMatchResponse:  # noqa: N802
        await self._admin(context)
        return arena_pb2.GetMatchResponse(match=await self._match(await self._row(request.match_id, context)))

    async def ListMatches(self, request: arena_pb2.ListMatchesRequest, context: grpc.aio.ServicerContext) -> arena_pb2.ListMatchesResponse:  # noqa: N802
        await self._admin(context)
        size = min(request.page_size or 50, 500)
        offset = _page_offset(request.page_token)
        if offset is None:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, f"bad page_token {shown(request.page_token)}: "
                        "give \"\" for the first page, else next_page_token of the previous response")
        status = {v: k for k, v in STATUS.items()}.get(request.status)
        if request.status and status is None:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, f"unknown status {request.status}")
        matches, more = await asyncio.to_thread(page, self.arena.store, status, size, offset)
        return arena_pb2.ListMatchesResponse(matches=matches, next_page_token=str(offset + size) if more else "")  # type: ignore[operator]

    async def WaitMatch(self, request: arena_pb2.WaitMatchRequest, context: grpc.aio.ServicerContext) -> arena_pb2.WaitMatchResponse:  # noqa: N802
        await self._admin(context)
        row = await self._row(request.match_id, context)
        live = self.arena.live.get(row.id)
        timed_out = False
        if live is not None:
            try:
                async with asyncio.timeout(request.timeout_ms / 1000 if request.timeout_ms else None):
                    await live.done.wait()
            except TimeoutError:
                timed_out = True
        row = await self._row(request.match_id, context)
        return arena_pb2.WaitMatchResponse(match=await self._match(row), timed_out=timed_out)

    async def GetBot(self, request: arena_pb2.GetBotRequest, context: grpc.aio.ServicerContext) -> arena_pb2.GetBotResponse:  # noqa: N802
        await self._admin(context)
        bot = await asyncio.to_thread(self.arena.store.bot, request.bot_id)
        if bot is None:
            await abort(context, grpc.StatusCode.NOT_FOUND, f"no bot {shown(request.bot_id)}")
        assert bot is not None
        lobby = self.arena.lobby
        idle = [s for s in lobby.idle.get(bot.id, []) if not s.closed.is_set()]
        return arena_pb2.GetBotResponse(bot_id=bot.id, name=bot.name, streams=lobby.streams[bot.id], idle_streams=len(idle))

    async def PublishMatches(self, request: arena_pb2.PublishMatchesRequest, context: grpc.aio.ServicerContext) -> arena_pb2.PublishMatchesResponse:  # noqa: N802
        await self._admin(context)
        if not request.group and not request.match_ids:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, "give a group or match_ids to publish")
        try:
            published = await self.arena.write(self.arena.store.publish, request.group, list(request.match_ids))
        except StoreError as e:
            await abort(context, grpc.StatusCode.NOT_FOUND, str(e))
        log.info("matches published", group=request.group, match_ids=len(request.match_ids), published=published)
        return arena_pb2.PublishMatchesResponse(published=published)

    async def AbortMatches(self, request: arena_pb2.AbortMatchesRequest, context: grpc.aio.ServicerContext) -> arena_pb2.AbortMatchesResponse:  # noqa: N802
        await self._admin(context)
        if not request.group and not request.match_ids:
            await abort(context, grpc.StatusCode.INVALID_ARGUMENT, "give a group or match_ids to abort")
        for match_id in request.match_ids:
            await self._row(match_id, context)  # NOT_FOUND before anything is aborted
        reason = request.reason[:MAX_REASON] or "aborted by the admin"
        aborted = await self.arena.abort(reason, request.group, list(request.match_ids))
        log.info("matches aborted", group=request.group, match_ids=aborted, reason=reason)
        return arena_pb2.AbortMatchesResponse(match_ids=aborted)


# ------------------------------------------------------------------------------------ server
# gRPC core hands a new call to grpc.aio only when asked, one at a time, every few iterations of the
# event loop (server.transport.pacing keeps them short); calls arriving faster wait in its queue. Its defaults
# would drop them: beyond 1,000 waiting at random, more the longer the queue, and all beyond 3,000
# (the client gets INTERNAL "Internal error from Core"), and any that waited 30 s (CANCELLED). A
# thousand matches' bots connecting at once must wait their turn instead (docs/protocol.md, "Many
# streams"). One connection may carry up to 4,096 streams; a client queues any more itself.
#
# Connections (docs/security.md, "Connections"): one that has not sent HTTP/2's first SETTINGS
# within the handshake timeout (TLS included) is closed, and so is one without a call for the idle
# timeout (an open Play stream is a call: a bot waiting for its next game is never idle; a client
# told to go away reconnects at its next call). ``max_connections`` is a cap per listener (the port,
# the Unix socket): grpc core accepts a connection beyond it and closes it at once. Clients that
# ping more often than every 5 minutes without a call are told to go away (grpc core's default).
def server_options(limits: ConnectionLimits | None = None, max_connections: int | None = None) -> list[tuple[str, int]]:
    """The gRPC server's channel arguments (``limits``' timeouts, else the defaults)."""
    limits = limits if limits is not None else ConnectionLimits()
    options = [
        ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
        ("grpc.max_send_message_length", 4 * 1024 * 1024),
        ("grpc.so_reuseport", 0),  # no other process may listen on our port
        ("grpc.max_concurrent_streams", 4096),
        ("grpc.server.max_pending_requests", 10_000),
        ("grpc.server.max_pending_requests_hard_limit", 20_000),
        ("grpc.server_max_unrequested_time_in_server", 300),  # seconds
        ("grpc.server_handshake_timeout_ms", round(limits.handshake_timeout_s * 1000)),
        ("grpc.max_connection_idle_ms", round(limits.idle_timeout_s * 1000)),
    ]
    if max_connections is not None:
        options.append(("grpc.max_allowed_incoming_connections", max_connections))
    return options


SERVER_OPTIONS = server_options()


SERVICE_NAMES = (
    referee_pb2.DESCRIPTOR.services_by_name["Referee"].full_name,
    arena_pb2.DESCRIPTOR.services_by_name["Arena"].full_name,
    health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
    reflection.SERVICE_NAME,
)


SUBMISSIONS = submissions_pb2.DESCRIPTOR.services_by_name["Submissions"].full_name


def add_services(server: grpc.aio.Server, arena: Arena, admin_token: str, health: health_aio.HealthServicer,
                 uploads: UploadSettings | None = None) -> None:
    """Referee, Arena, health and reflection on ``server``: the port's, and each Unix socket's
    (server/transport/unix_peers.py); with ``uploads``, Submissions too (the port's alone: the
    sockets are the sandboxed bots' way in, and bots submit nothing)."""
    add_referee(RefereeService(arena, admin_token), server)
    arena_pb2_grpc.add_ArenaServicer_to_server(ArenaService(arena, admin_token), server)
    health_pb2_grpc.add_HealthServicer_to_server(health, server)
    names = SERVICE_NAMES
    if uploads is not None:
        submissions_pb2_grpc.add_SubmissionsServicer_to_server(SubmissionsService(arena, admin_token, uploads), server)
        names = (*SERVICE_NAMES, SUBMISSIONS)
    reflection.enable_server_reflection(names, server)


async def start_server(arena: Arena, host: str, port: int, admin_token: str, tls: ServerTls | None = None,
                       health: health_aio.HealthServicer | None = None,
                       options: list[tuple[str, int]] = SERVER_OPTIONS,
                       uploads: UploadSettings | None = None) -> tuple[grpc.aio.Server, int]:
    """Start the gRPC server (Referee, Arena, Submissions, health, reflection); returns it and the
    bound port. With ``tls`` it serves only TLS (and requires client certificates when ``tls`` has a
    client CA). ``health`` (else a new one) answers SERVING once listening; the caller marks its
    shutdown on it. ``options``: :func:`server_options`; ``uploads``: what authors may upload (else
    the defaults)."""
    server = grpc.aio.server(options=options)
    health = health if health is not None else health_aio.HealthServicer()
    add_services(server, arena, admin_token, health, uploads if uploads is not None else UploadSettings())
    try:
        if tls is None:
            bound = server.add_insecure_port(f"{host}:{port}")
        else:
            bound = server.add_secure_port(f"{host}:{port}", tls.credentials())
    except RuntimeError as e:  # grpc's "failed to bind": a port in use, or TLS files it cannot use
        raise OSError(f"cannot listen on {host}:{port}{' with TLS' if tls is not None else ''}: {e}") from None
    if bound == 0:
        raise OSError(f"cannot listen on {host}:{port}")
    await server.start()
    drain_notifications(asyncio.get_running_loop())
    for name in ("", *SERVICE_NAMES[:2]):
        await health.set(name, health_pb2.HealthCheckResponse.SERVING)
    return server, bound
