"""Match records as the Arena and Watch give them out, and who may see which.

A match's full record (hands, talons, exchanges, its seed) tells every deal. It is the admin's
until the match is public (:attr:`server.storage.store.MatchRow.public`): an ungrouped match once it has
ended, a match of a group (a league's) only once the admin publishes the group, because another
match of the group may be dealt the same cards and still be running. Everyone else sees what a
spectator of a live game sees. The functions here block on the store; the service runs them in a
worker thread, and a finished game's update is built in the renderer's own process (server/replays.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from google.protobuf import timestamp_pb2

from mizerka_engine.game import Game
from mizerka_engine.rules import Ruleset, load_ruleset
from mizerka_engine.views import FULL, SPECTATOR, project, project_events
from mizerka_proto import arena_pb2, game_pb2, referee_pb2
from server.codec import matchlog, protocol, wire_events
from server.logverify import replay_log
from server.settings import ClockSettings
from server.storage.store import ABORTED, FINISHED, PENDING, RUNNING, MatchRow, Store, StoreError

STATUS = {
    PENDING: arena_pb2.MATCH_STATUS_PENDING,
    RUNNING: arena_pb2.MATCH_STATUS_RUNNING,
    FINISHED: arena_pb2.MATCH_STATUS_FINISHED,
    ABORTED: arena_pb2.MATCH_STATUS_ABORTED,
}


def replay_stored(store: Store, row: MatchRow, index: int) -> Game:
    """Rebuild a stored game by re-executing its log through the engine (the log is the truth),
    dealt from the game's own stored seed."""
    game = replay_game(store, row.id, index, load_ruleset(row.preset, row.options))
    if game is None:
        raise StoreError(f"match {row.id} has no game {index} stored")
    return game


def replay_game(store: Store, match_id: str, index: int, rules: Ruleset) -> Game | None:
    """Game ``index`` of the match rebuilt from its stored seed and log; None if it is not stored."""
    stored = store.game_row(match_id, index)
    if stored is None:
        return None
    return replay_log(rules, stored["seed"], [matchlog.entry_from_line(line, rules) for line in stored["log"]])


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """One finished game of a match as a spectator asks for it: all the renderer
    (server/replays.py) needs, in a form another process can take."""

    match_id: str
    index: int
    preset: str
    options: Mapping[str, Any]
    seats: tuple[str, ...]  # bot ids, in seat order
    full: bool  # its full record (the match is public, or the admin asks); else what a spectator saw
    last: bool  # the match's last game: its update says the match is over


def replay_finished(store: Store, game: FinishedGame) -> Game | None:
    """The finished game rebuilt from the store; None if it is not stored."""
    return replay_game(store, game.match_id, game.index, load_ruleset(game.preset, dict(game.options)))


def finished_update(store: Store, game: FinishedGame, replayed: Game) -> referee_pb2.WatchUpdate:
    """The update of one finished game, rebuilt (:func:`replay_finished`): its full record when
    ``game.full``, else only what a spectator saw (no hand, talon, discard or seed)."""
    rules = replayed.rules
    names = store.seat_names(game.seats)
    audience = FULL if game.full else SPECTATOR
    events = project_events(replayed, audience)
    return referee_pb2.WatchUpdate(
        match_id=game.match_id, game_number=game.index, full=game.full, names=names,
        ruleset=protocol.ruleset_to_proto(rules), view=protocol.view_to_proto(project(replayed, audience), names),
        events=wire_events.EventEncoder(rules).encode_all(events),
        deals=wire_events.deal_records_from_events(events) if game.full else [],
        game_over=True, match_over=game.last,
    )


def finished_games(row: MatchRow, full: bool) -> list[FinishedGame]:
    """Every finished game of ``row``, in order (what a spectator of the ended match is owed)."""
    last = len(row.results) - 1
    return [FinishedGame(row.id, r["game_index"], row.preset, row.options, tuple(row.seats), full, i == last)
            for i, r in enumerate(row.results)]


def _timestamp(t: float | None) -> timestamp_pb2.Timestamp | None:
    if t is None:
        return None
    ts = timestamp_pb2.Timestamp()
    ts.FromNanoseconds(int(t * 1e9))
    return ts


def match_to_proto(store: Store, row: MatchRow) -> arena_pb2.Match:
    """The admin's view of a match (seed included)."""
    rules = load_ruleset(row.preset, row.options)
    names = dict(zip(row.seats, store.seat_names(row.seats)))
    results = []
    for r in row.results:
        seats = [
            game_pb2.SeatRecord(
                seat=s, name=names[row.seats[s]], total=r["totals"][s], rank=r["ranks"][s], timeouts=rec["timeouts"],
                refusals=rec["refusals"] + rec["malformed"], defaults_applied=rec["defaults"],
                forfeited=rec["forfeited"], disconnected=rec["disconnected"],
            )
            for s, rec in enumerate(r["seats"])
        ]
        deals = [matchlog.result_from_line(d) for d in r["deals"]]
        results.append(arena_pb2.GameSummary(game_number=r["game_index"], finished=True, totals=r["totals"], seats=seats, results=deals))
    return arena_pb2.Match(
        match_id=row.id, status=STATUS[row.status], ruleset=protocol.ruleset_to_proto(rules),
        options=protocol.options_to_struct(row.options), seed=row.seed, games=row.games,
        clock=protocol.clock_to_proto(ClockSettings(**row.clock)),
        seats=[arena_pb2.MatchSeat(seat=s, bot_id=b, name=names[b], forfeited=s in row.forfeits) for s, b in enumerate(row.seats)],
        results=results, abort_reason=row.error or "", create_time=_timestamp(row.created_at),
        end_time=_timestamp(row.finished_at), group=row.match_group or "", sealed=bool(row.sealed),
    )


def fresh_match_proto(store: Store, match_id: str) -> arena_pb2.Match | None:
    """The match as stored now, for the admin; None if unknown."""
    row = store.match(match_id)
    return None if row is None else match_to_proto(store, row)


def page(store: Store, status: str | None, size: int, offset: int) -> tuple[list[arena_pb2.Match], bool]:
    """A page of matches, newest first, and whether more follow."""
    rows = store.list_matches(status, size + 1, offset)
    return [match_to_proto(store, store.match(r.id) or r) for r in rows[:size]], len(rows) > size
