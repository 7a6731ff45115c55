"""What a spectator of a match receives: the one public projection behind both the gRPC Watch
(server/transport/service.py) and the web page's live feed (server/web/feed.py), so neither can show more.

Live: the spectator's view and events of the game being played (no hand, talon before it is
public, exchanged discard or seed). Ended: the full record if the match is public or the caller is
the admin, else the spectator's view of each game again (server/records.py), rendered game by game
in the finished-game renderer's process (server/replays.py).
"""

from __future__ import annotations

import asyncio
import zlib
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from mizerka_engine.game import Game
from mizerka_engine.rules import Ruleset, load_ruleset
from mizerka_engine.views import SPECTATOR, View, project, project_events
from mizerka_proto import events_pb2, game_pb2, referee_pb2
from server.codec import protocol, wire_events
from server.frames import live_frame, scoresheet
from server.records import finished_games
from server.replays import Encoding, Rendered, Replays
from server.storage.store import MatchRow, Store
from server.web.updates import WebUpdate, web_update

LiveUpdate = referee_pb2.WatchUpdate | WebUpdate  # as gRPC sends it, or as the web page does

class Playing(Protocol):
    """The game a live match is playing now (:class:`server.referee.match.GameRunner`)."""

    @property
    def game_index(self) -> int: ...

    @property
    def game(self) -> Game: ...


class Changes:
    """A live match's changes as its watchers follow them: the latest state of each of the last
    ``KEEP_GAMES`` games that changed (a game is one live object, so its latest state is all there
    is), each with the number of the change that last touched it. One put per change whatever the
    number of watchers, none while nobody watches; each watcher remembers the last change it took.
    Bounded whatever a watcher's pace: one that stops reading is owed two games, not every change
    of the match; one that falls further behind skips to the games being played (every game comes
    again once the match ends)."""

    KEEP_GAMES = 2

    def __init__(self) -> None:
        self.count = 0  # changes put so far
        self.latest: dict[int, tuple[int, Game, bool]] = {}  # game index -> (its last change, game, over), oldest first
        self.ended = False
        self.watchers = 0  # streams following the match now
        self._changed = asyncio.Event()

    def put(self, index: int, game: Game, over: bool = False) -> None:
        self.count += 1
        previous = self.latest.pop(index, None)
        self.latest[index] = (self.count, game, over or (previous is not None and previous[2]))
        while len(self.latest) > self.KEEP_GAMES:
            del self.latest[next(iter(self.latest))]
        self._wake()

    def end(self) -> None:
        """The match ended: nothing more will be put."""
        self.ended = True
        self._wake()

    def _wake(self) -> None:
        self._changed.set()  # wakes every waiter; the flag is only for those to come
        self._changed.clear()

    def since(self, seen: int) -> dict[int, tuple[Game, bool]]:
        """The games changed after change number ``seen``: index -> (game, over)."""
        return {index: (game, over) for index, (n, game, over) in self.latest.items() if n > seen}

    async def wait(self, seen: int) -> None:
        """Until there is a change after number ``seen``, or the match ended."""
        while self.count <= seen and not self.ended:
            await self._changed.wait()


class SpectatorFeed:
    """A live match's spectator updates, shared by all its watchers: each state of a game is
    projected once (:func:`project`, :func:`~server.codec.protocol.view_to_proto`), each event encoded
    once and each update built once, however many streams watch it. A watcher keeps only how many
    of a game's events it has had. At most ``KEEP_GAMES`` games are kept (watchers are owed two);
    an older one asked for again is projected afresh, which gives the same events in the same order."""

    KEEP_GAMES = Changes.KEEP_GAMES + 1

    def __init__(self, match_id: str, rules: Ruleset, names: Sequence[str]) -> None:
        self.match_id = match_id
        self.rules = rules
        self.names = list(names)
        self.ruleset = protocol.ruleset_to_proto(rules)
        self._games: dict[int, _GameFeed] = {}  # game index -> its projection so far, oldest first
        self.projections = 0  # views projected (the tests count them)

    def update(self, index: int, game: Game, over: bool, sent: int, events: bool,
               encoding: Encoding = Encoding.PROTO) -> tuple[LiveUpdate, int]:
        """The live update of game ``index`` for a watcher that has had ``sent`` of its events (with
        the events after those, if ``events``), and the watcher's count after it. Shared by every
        watcher in the same place: send it, do not change it. For the web page (``encoding``
        WEB) it is JSON with the board's frame of the same view (server/frames.py) and the score
        sheet."""
        feed = self._feed(index, game)
        state = len(game.log)  # a game changes by its log alone
        if feed.at != state:
            feed.at, feed.updates = state, {}
            feed.spectator = project(game, SPECTATOR)
            feed.view = protocol.view_to_proto(feed.spectator, self.names)
            self.projections += 1
            if feed.cursor < state:
                feed.encoded.extend(feed.encoder.encode_all(project_events(game, SPECTATOR, feed.cursor)))
                feed.cursor = state
        key = (over, sent if events else -1, encoding)
        update = feed.updates.get(key)
        if update is None:
            proto = referee_pb2.WatchUpdate(
                match_id=self.match_id, game_number=index, names=self.names, ruleset=self.ruleset, view=feed.view,
                game_over=over, events=feed.encoded[sent:] if events else (),
            )
            update = feed.updates[key] = proto if encoding is Encoding.PROTO else self._web(proto, feed.spectator)
        return update, len(feed.encoded) if events else sent

    def _web(self, update: referee_pb2.WatchUpdate, view: View | None) -> WebUpdate:
        assert view is not None, "projected before"
        extra = {"frame": live_frame(self.rules, update.view), "scoresheet": scoresheet(self.rules, update.view.results, view.totals)}
        return web_update(update, extra, live=True)

    def _feed(self, index: int, game: Game) -> _GameFeed:
        feed = self._games.get(index)
        if feed is None or feed.game is not game:
            feed = self._games[index] = _GameFeed(game, wire_events.EventEncoder(self.rules))
            while len(self._games) > self.KEEP_GAMES:
                del self._games[min(self._games)]
        return feed


@dataclass(slots=True, eq=False)
class _GameFeed:
    """One game's share of a :class:`SpectatorFeed`."""

    game: Game
    encoder: wire_events.EventEncoder
    cursor: int = 0  # the game's log entries encoded so far
    encoded: list[events_pb2.Event] = field(default_factory=list)
    at: int = -1  # the log length ``spectator``, ``view`` and ``updates`` are of
    spectator: View | None = None  # the spectator's view, projected once per state ...
    view: game_pb2.SeatView | None = None  # ... and as the wire has it
    updates: dict[tuple[bool, int, Encoding], LiveUpdate] = field(default_factory=dict)  # (over, events sent, encoding) -> update


class Watched(Protocol):
    """A live match as spectators follow it (:class:`server.arena.LiveMatch`): the Arena puts
    each change into ``changes`` (while anyone watches) and ends it when the match ends; ``feed``
    is the projection its watchers share, made by the first of them."""

    @property
    def runner(self) -> Playing | None: ...

    @property
    def changes(self) -> Changes: ...

    feed: SpectatorFeed | None


class Spectated(Protocol):
    """What a spectator's feed reads of the referee (:class:`server.arena.Arena`)."""

    @property
    def store(self) -> Store: ...

    @property
    def live(self) -> Mapping[str, Watched]: ...

    @property
    def replays(self) -> Replays: ...


Update = LiveUpdate | Rendered  # a live game's update (shared: never changed), or an ended one's as rendered


async def watch_updates(arena: Spectated, row: MatchRow, admin: bool, host: str, encoding: Encoding, *,
                        events: bool = True, pace_s: float = 0.0) -> AsyncIterator[Update]:
    """Every update of the match ``row`` (looked up by the caller, who answers an unknown id): the
    live game as a spectator sees it while it runs, then the ended games, fully only if the match
    is public or ``admin``, rendered as ``encoding`` one at a time (``host``'s turn at the renderer).
    Live, at most one update per ``pace_s``: the changes in between come together (the new events
    since the last update and the view after them), so a spectator costs the referee a bounded
    amount of work however fast the match runs or slowly it reads. Without ``events`` the live
    updates carry the view alone (the page draws the table from it). As ``encoding``, live
    updates as ended ones: WEB gives WebUpdates (server/web/updates.py), the live ones marked ``live``."""
    live = arena.live.get(row.id)
    if live is not None:
        names = await asyncio.to_thread(arena.store.seat_names, row.seats)
        if live.feed is None:
            live.feed = SpectatorFeed(row.id, load_ruleset(row.preset, row.options), names)
        feed, changes = live.feed, live.changes
        loop = asyncio.get_running_loop()
        phase = pace_s * (zlib.crc32(row.id.encode()) % 1000) / 1000  # the match's own moment in each pace_s
        changes.watchers += 1
        try:
            seen = changes.count
            due = {} if live.runner is None else {live.runner.game_index: (live.runner.game, False)}
            sent: dict[int, int] = {}  # game index -> its events sent so far
            while True:
                for index, (game, over) in due.items():
                    update, sent[index] = feed.update(index, game, over, sent.get(index, 0), events, encoding)
                    if len(sent) > SpectatorFeed.KEEP_GAMES:
                        del sent[min(sent)]
                    yield update
                if changes.ended and changes.count == seen:
                    break
                if pace_s:  # the match's watchers wake together and share their updates
                    await asyncio.sleep(pace_s - (loop.time() - phase) % pace_s)
                await changes.wait(seen)
                due, seen = changes.since(seen), changes.count
        finally:
            changes.watchers -= 1
            if not changes.watchers:  # the last one gone: keep no game for nobody (the next watcher starts afresh)
                changes.latest.clear()
                live.feed = None
        row = await asyncio.to_thread(arena.store.match, row.id, False) or row
    async for rendered in arena.replays.games(finished_games(row, admin or row.public), encoding, host, paced=not admin):
        yield rendered
