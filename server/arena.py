"""The match lifecycle: the :class:`Arena` stores a new match, runs its games on the seats its
:class:`~server.transport.streams.Lobby` hands out (the turn loop is :mod:`server.referee`), records each
finished game in the store from its one writer thread, and aborts matches. The gRPC servicers
(:mod:`server.transport.service`) and the web page (:mod:`server.web.page`) drive it; nothing here speaks gRPC.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, replace
from typing import Any, TypeVar

import structlog

from mizerka_engine.game import Game
from mizerka_engine.rules import load_ruleset
from mizerka_engine.views import FULL, project_events
from server.codec import matchlog, protocol
from server.metrics import RefereeTally
from server.referee.match import GameRecord, GameRunner, Pauses, game_seed, no_pauses
from server.replays import Replays
from server.settings import ClockSettings, StreamLimits
from server.storage.store import (
    ABORTED,
    FINISHED,
    RUNNING,
    MatchRow,
    Store,
    StoreError,
)
from server.transport.streams import Lobby
from server.watch import Changes, SpectatorFeed

log = structlog.get_logger("arena")

T = TypeVar("T")


class LiveMatch:
    """A running match: its task, current game and spectators."""

    def __init__(self, row: MatchRow) -> None:
        self.row = row
        self.task: asyncio.Task[None] | None = None
        self.runner: GameRunner | None = None
        self.done = asyncio.Event()
        self.changes = Changes()  # what its watchers follow (server/watch.py)
        self.feed: SpectatorFeed | None = None  # the projection its watchers share
        self.abort_reason = ""  # set by Arena.abort: why the admin stopped it


class Arena:
    """Creates and runs matches, keeps their results in the store."""

    def __init__(self, store: Store, clock: ClockSettings, seat_timeout_s: float = 60.0,
                 limits: StreamLimits | None = None, pauses: Pauses = no_pauses, replays: Replays | None = None) -> None:
        """``pauses``: the event loop's stops for the referee's own work so far (the collector's
        full collections), which no bot's clock is charged (server/referee/match.py). ``replays``:
        what renders ended matches for their spectators (else one on ``store``'s database, with
        ``limits``' rate)."""
        self.store = store
        self.pauses = pauses
        self.default_clock = clock
        self.seat_timeout_s = seat_timeout_s
        self.lobby = Lobby(limits)
        self.live: dict[str, LiveMatch] = {}
        self.replays = replays if replays is not None else Replays(
            store.engine.url.render_as_string(hide_password=False), self.lobby.limits)
        self.writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store-writer")
        self.tally = RefereeTally()  # the referee's metrics (server/metrics.py)
        self.watching = 0  # open Watch streams but the admin's (StreamLimits.max_watchers)
        self.watching_from: Counter[str] = Counter()  # ... of them by host (StreamLimits.max_watchers_per_host)

    def live_matches(self) -> int:
        return len(self.live)

    def live_streams(self) -> int:
        return self.lobby.open_streams

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)``, a store write, in the Arena's one writer thread: a SQLite lock wait must
        not stall every clock on the event loop, and writes queued in one thread never wait on each
        other's lock (SQLite's lock wait polls by sleeping). Once asked for, a write is done even if
        the caller is cancelled meanwhile (a finished game's result is kept on shutdown)."""
        loop = asyncio.get_running_loop()
        return await asyncio.shield(loop.run_in_executor(self.writer, functools.partial(fn, *args)))

    def abort_stale(self) -> list[str]:
        """Matches left PENDING/RUNNING by an earlier server process can't continue: mark them."""
        ids = [m.id for m in self.store.unfinished_matches()]
        for match_id in ids:
            self.store.set_status(match_id, ABORTED, "the server restarted while the match was running")
        return ids

    def create(self, preset: str, options: dict[str, Any], seed: str, games: int, clock: ClockSettings,
               seats: Sequence[str], forfeits: Sequence[int] = (), group: str = "") -> MatchRow:
        """Store a new match and start it (blocks on the store: async callers use :meth:`add` in a
        worker thread, then :meth:`start`)."""
        return self.start(self.add(preset, options, seed, games, clock, seats, forfeits, group))

    def add(self, preset: str, options: dict[str, Any], seed: str, games: int, clock: ClockSettings,
            seats: Sequence[str], forfeits: Sequence[int] = (), group: str = "") -> MatchRow:
        """Check and store a new match (PENDING, not started); blocks on the store."""
        rules = load_ruleset(preset, options)  # RulesError names the bad option
        if len(seats) != rules.players:
            raise StoreError(f"{preset} needs {rules.players} seats, got {len(seats)}")
        if not 1 <= games <= 10_000:
            raise StoreError(f"games must be 1..10000, got {games}")
        if any(not 0 <= f < len(seats) for f in forfeits):
            raise StoreError(f"forfeit_seats must be seats 0..{len(seats) - 1}, got {list(forfeits)}")
        return self.store.create_match(preset, options, seed, games, asdict(clock), seats, forfeits, group)

    def start(self, row: MatchRow) -> MatchRow:
        """Run a stored match (on the event loop)."""
        match_id = row.id
        live = LiveMatch(row)
        self.live[match_id] = live
        live.task = asyncio.create_task(self._run(live), name=f"match {match_id}")
        return row

    async def _run(self, live: LiveMatch) -> None:
        row = live.row
        bound = log.bind(match_id=row.id)
        rules = load_ruleset(row.preset, row.options)
        clock = ClockSettings(**row.clock)
        names = self.store.seat_names(row.seats)  # no query: the store keeps the bots it checked for create_match
        status, reason = FINISHED, None
        try:
            await self.write(self.store.set_status, row.id, RUNNING)
            live.row = replace(row, status=RUNNING)  # what the arena page lists, as the store now says
            for index in range(row.games):
                wanted = [None if s in row.forfeits else b for s, b in enumerate(row.seats)]
                ports = await self.lobby.acquire(wanted, self.seat_timeout_s)
                absent = [s for s, p in enumerate(ports) if p is None and s not in row.forfeits]
                if absent:
                    bound.warning("seats without a bot stream; the default policy plays them", seats=absent)
                runner = GameRunner(
                    row.id, rules, game_seed(row.seed, index), index, ports, names, clock, row.games,
                    on_update=lambda game, i=index: self._publish(live, i, game), on_decision=self.tally.decision,
                    pauses=self.pauses,
                )
                live.runner = runner
                try:
                    record = await runner.run()
                except asyncio.CancelledError:
                    with contextlib.suppress(Exception):
                        async with asyncio.timeout(1.0):
                            await runner.abort(live.abort_reason or "the server is shutting down")
                    raise
                finally:
                    self.lobby.release(ports)
                    self.tally.game_ended(runner.session)
                await self.write(self._record_game, row.id, index, record_to_store(record, bot_ids=row.seats))
                self._publish(live, index, record.game, game_over=True)
        except asyncio.CancelledError:
            status, reason = ABORTED, live.abort_reason or "the server shut down while the match was running"
            raise
        except Exception as e:  # a bug, not a bot's fault: the match stops, the server goes on
            bound.exception("match failed")
            status, reason = ABORTED, f"internal error: {e}"
        finally:
            try:
                await self.write(self._end_match, row.id, status, reason)
            finally:
                bound.info("match ended", status=status, reason=reason)
                live.runner = None  # its on_update refers back to live: leave no cycle for the collector
                live.done.set()
                live.changes.end()
                self.live.pop(row.id, None)

    # The writer thread counts what the store has just taken (the only thread to change these counts):
    # a write outlives its caller's cancellation, and so does its count.
    def _record_game(self, match_id: str, index: int, record: dict[str, Any]) -> None:
        if self.store.record_game(match_id, index, record):
            self.tally.games += 1

    def _end_match(self, match_id: str, status: str, reason: str | None = None) -> None:
        self.store.set_status(match_id, status, reason)
        self.tally.matches[status] += 1

    def _publish(self, live: LiveMatch, index: int, game: Game, game_over: bool = False) -> None:
        if live.changes.watchers:  # a watcher coming later starts from the game being played
            live.changes.put(index, game, game_over)

    async def abort(self, reason: str, group: str = "", match_ids: Sequence[str] = ()) -> list[str]:
        """Stop the unfinished matches of ``group`` and those named, each stored ABORTED with
        ``reason`` (an organiser whose bots died with it must not get their seats played by
        default moves); returns their ids. Ended matches are left as they are."""
        named = set(match_ids)
        chosen = [m for m in self.live.values()
                  if m.task is not None and (m.row.id in named or (group and m.row.match_group == group))]
        for m in chosen:
            m.abort_reason = reason
            m.task.cancel()  # type: ignore[union-attr]
        for m in chosen:
            await asyncio.wait([m.task])  # type: ignore[list-item]
            if not m.done.is_set():  # cancelled before it began: _run never stored why
                await self.write(self._end_match, m.row.id, ABORTED, reason)
                self.live.pop(m.row.id, None)
                m.done.set()
        return [m.row.id for m in chosen]

    async def shutdown(self) -> list[str]:
        """Abort running matches (each tells its bots and is stored ABORTED), then end every bot
        stream with status OK; returns the aborted matches' ids."""
        running = [m for m in self.live.values() if m.task is not None]
        for m in running:
            m.task.cancel()  # type: ignore[union-attr]
        for m in running:
            with contextlib.suppress(asyncio.CancelledError):
                await m.task  # type: ignore[misc]
        self.lobby.close_idle()  # each Play handler returns: the stream ends cleanly
        self.replays.close()
        return [m.row.id for m in running]


def record_to_store(record: GameRecord, bot_ids: Sequence[str | None] = ()) -> dict[str, Any]:
    """A finished game as a games-table row: the match log's lines of the FULL log with each turn's
    metadata, its deals' results as the log's result lines say them, and the log's header
    (server/codec/matchlog.py, docs/match-log.md)."""
    game = record.game
    rules = game.rules
    return {
        "seed": record.seed,
        "totals": record.totals,
        "ranks": record.ranks,
        "seats": [asdict(s) for s in record.seats],
        "deals": [matchlog.result_line(r, rules) for r in protocol.results_to_proto(game.results)],
        "log": matchlog.log_lines(project_events(game, FULL), rules, record.turns),
        "header": matchlog.header_from_record(record, rules, bot_ids),
    }
