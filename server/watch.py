"""What a spectator of a match receives: the one public projection behind both the gRPC Watch
(server/service.py) and the web page's live feed (server/web.py), so neither can show more.

Live: the spectator's view and events of the game being played (no hand, talon before it is
public, exchanged discard or seed). Ended: the full record if the match is public or the caller is
the admin, else the spectator's view of each game again (server/records.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping
from typing import Protocol

from mizerka_engine.game import Game
from mizerka_engine.rules import load_ruleset
from mizerka_engine.views import SPECTATOR, project, project_events
from mizerka_proto import referee_pb2
from server import protocol, wire_events
from server.records import bot_names, finished_updates
from server.store import MatchRow, Store


class Playing(Protocol):
    """The game a live match is playing now (:class:`server.referee.match.GameRunner`)."""

    @property
    def game_index(self) -> int: ...

    @property
    def game(self) -> Game: ...


class Mailbox:
    """One spectator's pending changes of a live match: the latest state of each game that changed
    since it last looked (a game is one live object, so its latest state is all there is), for
    at most ``KEEP_GAMES`` games. Bounded whatever the spectator's pace: one that stops reading
    holds two games, not every change of the match; one that falls further behind skips to the
    games being played (every game comes again once the match ends)."""

    KEEP_GAMES = 2

    def __init__(self) -> None:
        self.latest: dict[int, tuple[Game, bool]] = {}  # game index -> (game, game over), oldest first
        self.ended = False
        self._ready = asyncio.Event()

    def put(self, index: int, game: Game, over: bool = False) -> None:
        previous = self.latest.pop(index, None)
        self.latest[index] = (game, over or (previous is not None and previous[1]))
        while len(self.latest) > self.KEEP_GAMES:
            del self.latest[next(iter(self.latest))]
        self._ready.set()

    def end(self) -> None:
        """The match ended: nothing more will be put."""
        self.ended = True
        self._ready.set()

    async def take(self) -> dict[int, tuple[Game, bool]]:
        """Wait for changes (or the end), then take them all."""
        await self._ready.wait()
        self._ready.clear()
        latest, self.latest = self.latest, {}
        return latest


class Watched(Protocol):
    """A live match as spectators follow it (:class:`server.service.LiveMatch`): the Arena puts
    each change into every watcher's mailbox and ends them when the match ends."""

    @property
    def runner(self) -> Playing | None: ...

    @property
    def watchers(self) -> set[Mailbox]: ...


class Recent(Protocol):
    def get(self, key: tuple[str, int]) -> Game | None: ...


class Spectated(Protocol):
    """What a spectator's feed reads of the referee (:class:`server.service.Arena`)."""

    @property
    def store(self) -> Store: ...

    @property
    def live(self) -> Mapping[str, Watched]: ...

    @property
    def finished_games(self) -> Recent: ...


async def watch_updates(arena: Spectated, row: MatchRow, admin: bool, *, events: bool = True,
                        pace_s: float = 0.0) -> AsyncIterator[referee_pb2.WatchUpdate]:
    """Every update of the match ``row`` (looked up by the caller, who answers an unknown id): the
    live game as a spectator sees it while it runs, then the ended games, fully only if the match
    is public or ``admin``. Live, at most one update per ``pace_s``: the changes in between come
    together (the new events since the last update and the view after them), so a spectator costs
    the referee a bounded amount of work however fast the match runs or slowly it reads. Without
    ``events`` the live updates carry the view alone (the page draws the table from it)."""
    live = arena.live.get(row.id)
    if live is not None:
        names = await asyncio.to_thread(bot_names, arena.store, row)
        rules = load_ruleset(row.preset, row.options)
        ruleset = protocol.ruleset_to_proto(rules)
        mailbox = Mailbox()
        live.watchers.add(mailbox)
        try:
            cursor: dict[int, tuple[int, wire_events.EventEncoder]] = {}
            if live.runner is not None:
                mailbox.put(live.runner.game_index, live.runner.game)
            while True:
                for index, (game, over) in (await mailbox.take()).items():
                    update = referee_pb2.WatchUpdate(
                        match_id=row.id, game_number=index, names=names, ruleset=ruleset,
                        view=protocol.view_to_proto(project(game, SPECTATOR), names), game_over=over,
                    )
                    if events:
                        start, encoder = cursor.get(index, (0, wire_events.EventEncoder(rules)))
                        update.events.extend(encoder.encode_all(project_events(game, SPECTATOR, start)))
                        cursor[index] = (len(game.log), encoder)
                    yield update
                if mailbox.ended and not mailbox.latest:
                    break
                if pace_s:
                    await asyncio.sleep(pace_s)
        finally:
            live.watchers.discard(mailbox)
        row = await asyncio.to_thread(arena.store.match, row.id) or row
    match_id = row.id
    updates = await asyncio.to_thread(
        finished_updates, arena.store, row, admin or row.public, lambda i: arena.finished_games.get((match_id, i)),
    )
    for update in updates:
        yield update
