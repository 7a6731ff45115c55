"""What a spectator of a match receives: the one public projection behind both the gRPC Watch
(server/service.py) and the web page's live feed (server/web.py), so neither can show more.

Live: the spectator's view and events of the game being played (no hand, talon before it is
public, exchanged discard or seed). Ended: the full record if the match is public or the caller is
the admin, else the spectator's view of each game again (server/records.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping
from typing import Any, Protocol

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


class Watched(Protocol):
    """A live match as spectators follow it (:class:`server.service.LiveMatch`): the Arena puts
    ``(game index, game, game over)`` into each watcher's queue after every change, None at the end."""

    @property
    def runner(self) -> Playing | None: ...

    @property
    def watchers(self) -> set[asyncio.Queue[Any]]: ...


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


def _latest(batch: list[Any]) -> dict[int, tuple[Game, bool]]:
    """Queued changes folded into one per game index (in order): a slow watcher projects a game
    once for all the changes it missed, not once per change."""
    latest: dict[int, tuple[Game, bool]] = {}
    for index, game, over in batch:
        latest[index] = (game, over or latest.get(index, (game, False))[1])
    return latest


async def watch_updates(arena: Spectated, row: MatchRow, admin: bool, fold: bool = False,
                        events: bool = True) -> AsyncIterator[referee_pb2.WatchUpdate]:
    """Every update of the match ``row`` (looked up by the caller, who answers an unknown id): the
    live game as a spectator sees it while it runs, then the ended games, fully only if the match
    is public or ``admin``. One update per change (the gRPC Watch); with ``fold``, a watcher that
    falls behind gets the changes it missed in one update per game (the web page's paced feed).
    Without ``events`` the live updates carry the view alone (the page draws the table from it)."""
    live = arena.live.get(row.id)
    if live is not None:
        names = await asyncio.to_thread(bot_names, arena.store, row)
        rules = load_ruleset(row.preset, row.options)
        ruleset = protocol.ruleset_to_proto(rules)
        queue: asyncio.Queue[Any] = asyncio.Queue()
        live.watchers.add(queue)
        try:
            cursor: dict[int, tuple[int, wire_events.EventEncoder]] = {}
            if live.runner is not None:
                queue.put_nowait((live.runner.game_index, live.runner.game, False))
            ended = False
            while not ended:
                batch = [await queue.get()]
                while fold and batch[-1] is not None and not queue.empty():
                    batch.append(queue.get_nowait())
                ended = batch[-1] is None
                for index, (game, over) in _latest([b for b in batch if b is not None]).items():
                    update = referee_pb2.WatchUpdate(
                        match_id=row.id, game_number=index, names=names, ruleset=ruleset,
                        view=protocol.view_to_proto(project(game, SPECTATOR), names), game_over=over,
                    )
                    if events:
                        start, encoder = cursor.get(index, (0, wire_events.EventEncoder(rules)))
                        update.events.extend(encoder.encode_all(project_events(game, SPECTATOR, start)))
                        cursor[index] = (len(game.log), encoder)
                    yield update
        finally:
            live.watchers.discard(queue)
        row = await asyncio.to_thread(arena.store.match, row.id) or row
    match_id = row.id
    updates = await asyncio.to_thread(
        finished_updates, arena.store, row, admin or row.public, lambda i: arena.finished_games.get((match_id, i)),
    )
    for update in updates:
        yield update
