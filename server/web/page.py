"""The arena's own web page (``mizerka serve --http-port``; docs/web.md): live matches, a match
followed live, leagues' standings. aiohttp on the referee's own event loop, plain HTML/CSS/JS files
(``assets/``), no build step.

Fair play: the live feed of a match is :func:`server.watch.watch_updates` -- the projection behind
the gRPC Watch -- without the admin's access, sent as JSON; full records only once the match is
public (``feed.py``). The page has no admin access at all. Leagues come from a :class:`LeagueBoard` the layer
above supplies (the server knows no leagues: tournaments/web_board.py reads them from the database).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import re
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import structlog
from aiohttp import web

from server.arena import Arena
from server.replays import Encoding
from server.storage.store import MatchRow, shown
from server.transport.connections import HTTP_IDLE_TIMEOUT_S, HTTP_PER_HOST, MAX_BACKLOG, MAX_HTTP_CONNECTIONS
from server.transport.limits import Cooldowns, HostBuckets, SharedAnswer
from server.transport.service import too_many_finished
from server.watch import watch_updates
from server.web.capped import CappedRunner, web_host
from server.web.feed import DROPPED, END, PACE_S, Broadcast, Framer, as_web

log = structlog.get_logger("web")

ASSETS = Path(__file__).with_name("assets")
PAGES = {"arena": "arena.html", "match": "match.html", "league": "league.html"}
MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
MAX_LEAGUE_NAME = 200
RECENT = 20  # finished public matches listed on the arena page
# /api/arena reads the store (up to 100 matches and their bots' names): computed at most once a
# second and the same bytes given to every client meanwhile, so polling it costs the referee one
# read a second however many poll. A host asking more often than a page does gets 429.
OVERVIEW_EVERY_S = 1.0
OVERVIEW_RATE_PER_S, OVERVIEW_BURST = 10.0, 20  # per host; the page asks once every 2 s
HEADERS = {  # the pages load nothing from elsewhere and cannot be framed
    "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class LeagueBoard(Protocol):
    """Leagues as the web page shows them, supplied by the layer that knows leagues. The methods
    block (a database): the web calls them in a worker thread."""

    def leagues(self) -> list[dict[str, Any]]:
        """Each league: ``name``, ``games``, ``finished``, ``running`` (JSON-ready)."""
        ...

    def league(self, name: str) -> dict[str, Any] | None:
        """One league's progress and standings (JSON-ready); None if unknown."""
        ...

    def report(self, name: str) -> ReportSite | str:
        """The league's static report if it may be shown now (it is of this league and every game of
        the league and of the report is public), else why not, as the visitor is told."""
        ...

    def close(self) -> None: ...


BoardFactory = Callable[[str], LeagueBoard]  # the database URL -> its leagues

# Match feeds open at once: each holds a connection and, while its match is live, some of the
# referee's time; beyond this a spectator is told to come back (503), so no crowd of them (or a
# program opening feeds) can slow the matches down. One host may hold StreamLimits.max_feeds_per_host
# of them (429 beyond), so no one client takes them all.
MAX_FEEDS = 200
FEED_CAP_WAIT_S = 1.0  # a host at its feed cap is told to come back after this (and cooled down meanwhile)


@dataclass(frozen=True)
class ReportSite:
    """A league's static report that may be shown now: its folder and the files it is made of (the
    only ones served from it, whatever else the folder holds)."""

    folder: Path
    files: frozenset[str]


@dataclass(frozen=True)
class WebExtras:
    """What the layer above hands ``mizerka serve`` (as the command's ``obj``, tournaments/cli.py):
    how to read the leagues of its database."""

    boards: BoardFactory


def _error(status: type[web.HTTPException], message: str, retry_after_s: float | None = None) -> web.HTTPException:
    headers = HEADERS if retry_after_s is None else {**HEADERS, "Retry-After": str(math.ceil(retry_after_s))}
    return status(text=json.dumps({"error": message}), content_type="application/json", headers=headers)


def _match_summary(arena: Arena, row: MatchRow) -> dict[str, Any]:
    """What anyone may know of a match: no seed, and results only as Watch shows them."""
    live = arena.live.get(row.id)
    return {
        "match_id": row.id, "status": row.status, "preset": row.preset, "games": row.games,
        "names": arena.store.seat_names(row.seats), "group": row.match_group or "", "public": row.public,
        "game_number": live.runner.game_index if live is not None and live.runner is not None else None,
        "finished_games": len(row.results), "created_at": row.created_at, "finished_at": row.finished_at,
    }


class WebPage:
    """The routes; one instance per referee."""

    def __init__(self, arena: Arena, board: LeagueBoard | None, pace_s: float = PACE_S,
                 max_feeds: int = MAX_FEEDS, overview_every_s: float = OVERVIEW_EVERY_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.arena = arena
        self.cooldowns = Cooldowns(clock)  # hosts told 429: their new connections are closed at accept meanwhile
        self.board = board
        self.pace_s = pace_s
        self.max_feeds = max_feeds
        self.overview_answer = SharedAnswer(self._overview, overview_every_s, clock)
        self.overview_askers = HostBuckets(OVERVIEW_RATE_PER_S, OVERVIEW_BURST, clock)
        self.feeds = 0  # feeds open now, live or not
        self.feeds_from: Counter[str] = Counter()  # ... of them by host
        self.casts: dict[str, Broadcast] = {}  # live match id -> its feed on the page

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._cool_down])
        app.add_routes([
            web.get("/", self.page("arena")),
            web.get("/favicon.ico", self.no_icon),
            web.get("/match/{id}", self.page("match")),
            web.get("/league/{name}", self.page("league")),
            web.get("/league/{name}/report/{path:.*}", self.report),
            web.get("/api/arena", self.overview),
            web.get("/api/match/{id}", self.match),
            web.get("/api/match/{id}/feed", self.feed),
            web.get("/api/league/{name}", self.league),
            web.static("/static", ASSETS, append_version=False),
        ])
        app.on_response_prepare.append(self._headers)
        app.on_shutdown.append(self._stop_feeds)
        return app

    async def _stop_feeds(self, app: web.Application) -> None:
        for cast in list(self.casts.values()):
            cast.task.cancel()

    @web.middleware
    async def _cool_down(self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        """A host told 429 must wait its Retry-After (1 s if none is said): its connection is closed
        after the answer, and until then its new ones as soon as they are accepted
        (:class:`CappedServer`), so a client that asks again at once costs an accept, not a parse."""
        try:
            return await handler(request)
        except web.HTTPTooManyRequests as refused:
            self.cooldowns.start(web_host(request.remote), float(refused.headers.get("Retry-After", "1")))
            answer = web.Response(status=refused.status, text=refused.text, headers=refused.headers)
            answer.force_close()
            return answer

    @staticmethod
    async def _headers(request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(HEADERS)

    @staticmethod
    async def no_icon(request: web.Request) -> web.Response:
        return web.Response(status=204)  # browsers ask for it; a 404 would be logged as an error

    def page(self, name: str) -> Callable[[web.Request], Any]:
        async def handler(request: web.Request) -> web.FileResponse:
            return web.FileResponse(ASSETS / PAGES[name])
        return handler

    async def _row(self, request: web.Request) -> MatchRow:
        match_id = request.match_info["id"]
        if not MATCH_ID.fullmatch(match_id):
            raise _error(web.HTTPBadRequest, f"bad match id {shown(match_id)}: letters, digits, - and _ (at most 64)")
        row = await asyncio.to_thread(self.arena.store.match, match_id, False)  # its games' indexes alone: milliseconds for any match
        if row is None:
            raise _error(web.HTTPNotFound, f"no match {shown(match_id)}")
        return row

    def _board(self, request: web.Request) -> tuple[LeagueBoard, str]:
        name = request.match_info["name"]
        if self.board is None:
            raise _error(web.HTTPNotFound, "this referee shows no leagues (it was not started by `mizerka`)")
        if not name or len(name) > MAX_LEAGUE_NAME:
            raise _error(web.HTTPBadRequest, f"bad league name {shown(name)}")
        return self.board, name

    def _overview(self) -> bytes:
        """The arena page's data as JSON (blocking: in a worker thread, see :class:`SharedAnswer`)."""
        store = self.arena.store
        live = [_match_summary(self.arena, m.row) for m in list(self.arena.live.values())]
        ended = [r for r in store.list_matches(None, 5 * RECENT) if r.id not in self.arena.live and r.public]
        recent = [_match_summary(self.arena, store.match(r.id) or r) for r in ended[:RECENT]]
        leagues = self.board.leagues() if self.board is not None else []
        return json.dumps({"live": live, "recent": recent, "leagues": leagues}).encode()

    async def overview(self, request: web.Request) -> web.Response:
        if wait := self.overview_askers.take(web_host(request.remote)):
            raise _error(web.HTTPTooManyRequests, f"at most {OVERVIEW_RATE_PER_S:g} requests a second from one host: "
                                                  "try again in a second", wait)
        return web.Response(body=await self.overview_answer.get(), content_type="application/json")

    async def match(self, request: web.Request) -> web.Response:
        row = await self._row(request)
        return web.json_response(await asyncio.to_thread(_match_summary, self.arena, row))

    async def feed(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: ``update``s (the spectator's WatchUpdates, never the admin's; the
        ruleset and names only in a game's first), then ``end``. A live match's spectators share
        one feed (:class:`Broadcast`); an ended match's get its games each, one at a time as the
        renderer makes them (server/replays.py). One host holds at most max_feeds_per_host feeds
        and opens ended matches at the rate of StreamLimits (429 beyond). A client gone is noticed
        at the next write."""
        limits, host = self.arena.lobby.limits, web_host(request.remote)
        if self.feeds_from[host] >= limits.max_feeds_per_host:
            raise _error(web.HTTPTooManyRequests, f"your host already holds {self.feeds_from[host]} match feeds, the most "
                                                  f"one host may (mizerka serve --http-max-feeds-per-host "
                                                  f"{limits.max_feeds_per_host}): close one first", FEED_CAP_WAIT_S)
        if self.feeds >= self.max_feeds:
            raise _error(web.HTTPServiceUnavailable, f"this page already serves {self.feeds} match feeds, the most it "
                                                     "allows (mizerka serve --http-max-feeds): try again later")
        # Refused before the store is read: a host asking faster than it may costs no query.
        if request.match_info["id"] not in self.arena.live and (wait := self.arena.replays.admit(host)):
            raise _error(web.HTTPTooManyRequests, too_many_finished(limits, wait, "feeds"), wait)
        self.feeds += 1  # counted before the first await, so that feeds asked for at once are counted
        self.feeds_from[host] += 1
        try:
            row = await self._row(request)
            live = row.id in self.arena.live
            response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"})
            await response.prepare(request)
            if live:
                cast = self.casts.get(row.id)
                if cast is None:
                    cast = self.casts[row.id] = Broadcast(self.arena, row, self.pace_s, self.casts)
                queue = cast.join()
                try:
                    while (message := await queue.get()) is not None:
                        if message == DROPPED:
                            return response
                        await response.write(message)
                finally:
                    cast.leave(queue)
            else:
                framer = Framer()
                async with contextlib.aclosing(watch_updates(self.arena, row, False, host, Encoding.WEB)) as updates:
                    async for update in updates:
                        await response.write(framer.frame(as_web(update)))
            await response.write(END)
        except ConnectionResetError:  # the spectator left
            pass
        finally:
            self.feeds -= 1
            self.feeds_from[host] -= 1
            if not self.feeds_from[host]:
                del self.feeds_from[host]
        return response

    async def league(self, request: web.Request) -> web.Response:
        board, name = self._board(request)

        def read() -> dict[str, Any] | None:
            data = board.league(name)
            if data is not None:
                data["report"] = isinstance(board.report(name), ReportSite)
            return data
        data = await asyncio.to_thread(read)
        if data is None:
            raise _error(web.HTTPNotFound, f"no league {shown(name)}")
        return web.json_response(data)

    async def report(self, request: web.Request) -> web.FileResponse:
        """The league's static report (docs/report.md), served only while the board says it may be
        shown (its replays show every hand), and only the files the report is made of."""
        board, name = self._board(request)
        site = await asyncio.to_thread(board.report, name)
        if isinstance(site, str):
            raise _error(web.HTTPNotFound, f"league {shown(name)} has no report to show: {site}")
        file = request.match_info["path"] or "index.html"
        path = (site.folder / file).resolve()
        if file not in site.files or not path.is_relative_to(site.folder.resolve()) or not path.is_file():
            raise _error(web.HTTPNotFound, f"no such file in the report of {shown(name)}")
        return web.FileResponse(path)


async def start_web(arena: Arena, host: str, port: int, board: LeagueBoard | None = None,
                    pace_s: float = PACE_S, max_feeds: int = MAX_FEEDS, max_connections: int = MAX_HTTP_CONNECTIONS,
                    max_per_host: int = HTTP_PER_HOST, idle_timeout_s: float = HTTP_IDLE_TIMEOUT_S,
                    backlog: int = MAX_BACKLOG, clock: Callable[[], float] = time.monotonic) -> tuple[web.AppRunner, int]:
    """Serve the page on ``host``:``port`` (0: any free port) on the running loop; returns the
    runner (``await runner.cleanup()`` to stop) and the port bound. OSError if it cannot listen.
    At most ``max_connections`` connections, ``max_per_host`` from one address
    (:class:`CappedServer`); a connection that has not sent a whole request's head within
    ``idle_timeout_s`` of its start or of its last answer is closed (aiohttp's keep-alive timer, which
    runs from the connection's start: a client that sends nothing, half a head or one byte at a
    time gets no longer). A request being answered (a feed) is not idle. ``backlog``: the listen
    backlog, which is also how many connections asyncio accepts at a time before any is closed.
    ``clock``: the page's rate limits' and cool-downs' (tests move it)."""
    page = WebPage(arena, board, pace_s, max_feeds, clock=clock)
    runner = CappedRunner(page.app(), max_connections=max_connections, max_per_host=max_per_host, cooldowns=page.cooldowns,
                          access_log=None, shutdown_timeout=1.0, keepalive_timeout=idle_timeout_s)
    await runner.setup()
    site = web.TCPSite(runner, host, port, backlog=backlog)
    try:
        await site.start()
    except OSError as e:
        await runner.cleanup()
        raise OSError(f"cannot serve the web page on {host}:{port}: {e.strerror or e}") from None
    return runner, int(runner.addresses[0][1])  # port 0 became a free one
