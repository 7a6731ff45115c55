"""Match logs (docs/match-log.md): games played by a real GameRunner on in-memory ports, stored as the
referee stores them, exported to JSON Lines, parsed back and verified; per-turn metadata; the
store's header column; `mizerka match list|export`.

Bots here are SDK bots answering the referee's real DecisionRequests, on looptime's fake loop
clock, so recorded times are exact."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mizerka.bot import answer
from mizerka.bots import HeuristicBot
from mizerka.stdio import Translator
from mizerka.turn import Turn
from mizerka_engine.events import DealResult, DealScored, GameOver, Settled
from mizerka_engine.game import Game, ranks
from mizerka_engine.rules import PRESETS, load_ruleset
from mizerka_engine.views import FULL, project_events
from mizerka_proto import arena_pb2, referee_pb2
from server.arena import record_to_store
from server.codec import matchlog
from server.codec.protocol import result_to_proto
from server.codec.wire_events import event_to_proto
from server.logverify import verify_game
from server.policies import random_action
from server.records import finished_games, finished_update, match_to_proto, replay_stored
from server.referee.match import GameRecord, GameRunner
from server.referee.offline import seat_messages
from server.settings import ClockSettings
from server.storage.database import SCHEMA_HEAD
from server.storage.store import FINISHED, Store
from tournaments.cli import app

from harness import ROOT
from memory_port import MemoryPort
from schemas import assert_conforms


async def sdk_bot(port: MemoryPort, inbox: list[referee_pb2.RefereeMessage], delay_s: float = 0.0,
                  silent_turns: frozenset[int] = frozenset(), revoke_once: bool = False) -> None:
    """A HeuristicBot on a port: answers after ``delay_s`` (virtual), never answers its n-th
    requests in ``silent_turns``; with ``revoke_once`` its first chance to revoke is taken."""
    bot, start, n, revoked = HeuristicBot(), None, 0, False
    while True:
        message = await port.to_bot.get()
        inbox.append(message)
        kind = message.WhichOneof("message")
        if kind == "game_start":
            start = message.game_start
        elif kind == "game_end":
            return
        elif kind == "decision_request":
            n += 1
            request = message.decision_request
            if n in silent_turns:
                continue
            if delay_s:
                await asyncio.sleep(delay_s)
            action = answer(bot, Turn(request, start)).action
            if revoke_once and not revoked and request.kind == referee_pb2.DECISION_KIND_PLAY:
                legal = {a.play_card.card for a in request.legal_actions}
                hand = list(request.view.players[request.view.seat].hand)
                off = [c for c in hand if c not in legal]
                if off:  # holding the led suit, play another: a revoke under revoke = "penalty"
                    action.play_card.card, revoked = off[0], True
            port.to_referee.put_nowait(referee_pb2.BotMessage(action=action))


async def play_game(preset: str, options: dict[str, Any] | None = None, seed: str = "log/0", *,
                    clock: ClockSettings | None = None, silent: frozenset[int] = frozenset(),
                    revoke: bool = False, delay_s: float = 0.25) -> tuple[GameRecord, list[list[referee_pb2.RefereeMessage]]]:
    """One game of heuristic bots: seat 0 answers after ``delay_s`` and stays silent on its ``silent``
    requests; seat 1 revokes once when ``revoke``."""
    rules = load_ruleset(preset, options or {})
    n = rules.players
    ports = [MemoryPort(hello_name="heuristic", version="1") for _ in range(n)]
    inboxes: list[list[referee_pb2.RefereeMessage]] = [[] for _ in range(n)]
    clock = clock or ClockSettings(decision_ms=1000, bank_ms=500, increment_ms=20, max_strikes=0)
    runner = GameRunner("m-test", rules, seed, 0, ports, [f"bot{s}" for s in range(n)], clock, games=1)
    tasks = [
        asyncio.create_task(sdk_bot(p, box, delay_s=delay_s if s == 0 else 0.0, silent_turns=silent if s == 0 else frozenset(),
                                    revoke_once=revoke and s == 1))
        for s, (p, box) in enumerate(zip(ports, inboxes))
    ]
    record = await runner.run()
    await asyncio.gather(*tasks)
    return record, inboxes


def export(record: GameRecord, bot_ids: list[str] | None = None) -> str:
    stored = record_to_store(record, bot_ids or [])
    stored = json.loads(json.dumps(stored))  # exactly what a JSON column gives back
    return matchlog.dumps(matchlog.game_lines(stored["header"], stored))


fake_clock = pytest.mark.looptime


@pytest.mark.parametrize(("preset", "options"), [
    *(pytest.param(p, {}, id=p) for p in sorted(PRESETS)),
    pytest.param("mizerka-short", {"revoke": "penalty", "tiebreak": "lowest"}, id="revoke-penalty"),
])
@pytest.mark.asyncio
@fake_clock
async def test_a_referee_game_round_trips_through_its_match_log(preset: str, options: dict[str, Any]) -> None:
    record, _ = await play_game(preset, options, revoke=options.get("revoke") == "penalty")
    text = export(record)
    lines = [json.loads(line) for line in text.splitlines()]
    assert_conforms("match-log-line", lines)
    header, end = lines[0], lines[-1]
    assert header["type"] == "header" and header["format"] == "mizerka-match-log" and header["version"] == 1
    assert (header["match"], header["game"], header["preset"], header["options"], header["seed"]) == \
        ("m-test", 0, preset, options, "log/0")
    assert [s["name"] for s in header["seats"]] == [f"bot{s}" for s in range(len(header["seats"]))]
    assert all(s["version"] == "1" and s["hello_name"] == "heuristic" for s in header["seats"])
    assert header["clock"]["decision_ms"] == 1000 and header["clock"]["bank_ms"] == 500
    assert end["type"] == "end" and end["totals"] == record.totals and end["ranks"] == record.ranks
    deals = [line for line in lines if line["type"] == "deal"]
    assert all(len(d["hands"]) == record.game.n and len(d["talon"]) == record.game.rules.talon_size for d in deals)
    if options.get("revoke"):
        assert any(line["type"] == "revoke" for line in lines) and any(r.void for r in record.game.results)

    (parsed,) = matchlog.parse_match_log(text)
    assert [ln.entry for ln in parsed.lines] == list(project_events(record.game, FULL))
    verified = verify_game(parsed)
    assert verified.game.results == record.game.results
    assert verified.totals == record.totals and verified.ranks == record.ranks
    assert verified.game.log == record.game.log


@pytest.mark.asyncio
@fake_clock
async def test_action_lines_carry_turn_time_and_default_and_line_up_with_the_referee() -> None:
    clock = ClockSettings(decision_ms=1000, bank_ms=0, max_strikes=0)
    record, inboxes = await play_game("mizerka-short", clock=clock, silent=frozenset({2, 5}))
    lines = [json.loads(line) for line in export(record).splitlines()]
    actions = [line for line in lines if line["type"] in ("contract", "major", "exchange", "play", "revoke")]
    assert [a["turn"] for a in actions] == list(range(1, len(actions) + 1))
    requests = {m.decision_request.turn: m for m in inboxes[0] if m.WhichOneof("message") == "decision_request"}
    mine = [a for a in actions if a["seat"] == 0]
    assert [a["turn"] for a in mine] == sorted(requests)  # one request per decision of seat 0
    timed_out = [a for a in mine if a["default"]]
    assert [a["default"] for a in timed_out] == ["TIMEOUT", "TIMEOUT"] and all(a["ms"] == 1000 for a in timed_out)
    assert timed_out[0]["turn"] == sorted(requests)[1] and timed_out[1]["turn"] == sorted(requests)[4]
    assert all(a["ms"] == 250 for a in mine if not a["default"])
    assert all(a["ms"] == 0 and a["default"] is None for a in actions if a["seat"] != 0)
    end = lines[-1]
    assert end["seats"][0]["timeouts"] == 2 and end["seats"][0]["defaults"] == 2
    assert verify_game(matchlog.parse_match_log(export(record))[0]).totals == record.totals


@pytest.mark.parametrize("preset", ["mizerka-short", "manni-major"])
@pytest.mark.asyncio
@fake_clock
async def test_the_seat_feed_rebuilds_exactly_the_messages_the_referee_sent(preset: str) -> None:
    """seat_messages (what --seat prints and --bot re-feeds) against the messages a real GameRunner sent:
    requests with their views, events, banks and turn numbers; the default batches; the GameEnd."""
    clock = ClockSettings(decision_ms=1000, bank_ms=400, increment_ms=30, max_strikes=2)
    record, inboxes = await play_game(preset, seed="feed/0", clock=clock, silent=frozenset({3, 4}))
    assert record.seats[0].forfeited  # two timeouts, then the referee plays seat 0
    (g,) = matchlog.parse_match_log(export(record))
    for seat in range(record.game.n):
        rebuilt = [m.message for m in seat_messages(g, seat)]
        assert rebuilt == inboxes[seat], f"seat {seat}"
        translator = Translator()  # as `mizerka replay --seat N --json` and the stdio bridge write them
        assert_conforms("stdio-bridge-line", [line for m in rebuilt for line in translator.to_program(m)])


def test_the_documented_example_conforms_to_the_schema() -> None:
    text = (ROOT / "docs" / "match-log.md").read_text()
    example = text.split("### Example (abridged)")[1].split("```json")[1].split("```")[0]
    lines = [json.loads(line) for line in example.splitlines() if line.startswith("{") and "..." not in line]
    assert {line["type"] for line in lines} >= {"header", "deal", "contract", "settled", "play", "result", "end"}
    assert_conforms("match-log-line", lines)


def test_the_store_keeps_header_and_metadata_and_match_export_writes_them(tmp_path: Path) -> None:
    record, _ = asyncio.run(_played("mizerka-short"))
    db = tmp_path / "arena.sqlite"
    store = Store(db)
    ids = [store.add_bot(f"player{s}")[0].id for s in range(3)]
    match_id = store.create_match("mizerka-short", {}, "log", 2, {"decision_ms": 1000}, ids).id
    record.match_id = match_id
    assert store.record_game(match_id, 0, record_to_store(record, ids))
    record.game_index = 1
    assert store.record_game(match_id, 1, record_to_store(record, ids))
    row = store.game_row(match_id, 0)
    assert row is not None and row["header"]["seats"][2]["bot_id"] == ids[2]
    assert all("turn" in e and "ms" in e and "default" in e for e in row["log"] if e["type"] == "play")
    assert row["deals"][-1]["totals"] == record.totals  # a deal as the log's result line says it
    store.close()

    runner = CliRunner()
    listed = runner.invoke(app, ["match", "list", "--db", str(db)])
    assert listed.exit_code == 0 and match_id in listed.stdout and "2/2" in listed.stdout and "player1" in listed.stdout
    one = runner.invoke(app, ["match", "export", match_id, "--game", "1", "--db", str(db)])
    assert one.exit_code == 0, one.stderr
    (g,) = matchlog.parse_match_log(one.stdout)
    assert (g.match, g.game) == (match_id, 1) and verify_game(g).totals == record.totals
    both = runner.invoke(app, ["match", "export", match_id, "--db", str(db)])
    assert [g.game for g in matchlog.parse_match_log(both.stdout)] == [0, 1]
    replayed = runner.invoke(app, ["replay", match_id, "--db", str(db)])
    assert replayed.exit_code == 0 and replayed.stdout.count("verified: 9 deals") == 2
    assert runner.invoke(app, ["match", "export", "m-nope", "--db", str(db)]).exit_code == 2
    assert runner.invoke(app, ["match", "export", match_id, "--game", "7", "--db", str(db)]).exit_code == 2


async def _played(preset: str) -> tuple[GameRecord, Any]:
    return await play_game(preset, clock=ClockSettings(decision_ms=5000), delay_s=0.0)


def _before_0003(stored: dict[str, Any], metadata: bool = True) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A games row's log and deals as the referee stored them before revision 0003 (written out here,
    as that code wrote them): entries keyed "kind", a result nested under "result", deals without
    totals; without ``metadata``, as before the referee recorded turns."""
    log = []
    for line in stored["log"]:
        kind = line["type"]
        if kind == "result":
            entry = {"kind": kind, "result": {k: v for k, v in line.items() if k not in ("type", "totals")}, "totals": line["totals"]}
        else:
            entry = {"kind": kind, **{k: v for k, v in line.items() if k != "type" and (metadata or k not in matchlog.TURN_KEYS)}}
        log.append(entry)
    return log, [{k: v for k, v in d.items() if k != "totals"} for d in stored["deals"]]


def test_a_database_from_before_the_header_column_is_upgraded_and_its_games_still_export(tmp_path: Path) -> None:
    """An old games row: no header column, no turn metadata, the old form of its log. Export
    rebuilds the header from the matches row; replay verifies it."""
    record, _ = asyncio.run(_played("mizerka-short"))
    db = tmp_path / "old.sqlite"
    store = Store(db)
    ids = [store.add_bot(f"old{s}")[0].id for s in range(3)]
    match_id = store.create_match("mizerka-short", {}, "log", 1, {"decision_ms": 5000}, ids).id
    store.close()
    con = sqlite3.connect(db)
    con.execute("DROP TABLE games")
    con.execute("DROP TABLE alembic_version")  # as before versioned schemas (server/storage/migrations)
    con.execute("""CREATE TABLE games (match_id VARCHAR(64) NOT NULL, game_index INTEGER NOT NULL, seed VARCHAR(200) NOT NULL,
                   totals JSON NOT NULL, ranks JSON NOT NULL, seats JSON NOT NULL, deals JSON NOT NULL, log JSON NOT NULL,
                   finished_at FLOAT NOT NULL, PRIMARY KEY (match_id, game_index))""")
    new = record_to_store(record)
    old_log, old_deals = _before_0003(new, metadata=False)
    con.execute("INSERT INTO games VALUES (?, 0, ?, ?, ?, ?, ?, ?, 0)",
                (match_id, new["seed"], json.dumps(new["totals"]), json.dumps(new["ranks"]), json.dumps(new["seats"]),
                 json.dumps(old_deals), json.dumps(old_log)))
    con.commit()
    con.close()

    result = CliRunner().invoke(app, ["match", "export", match_id, "--db", str(db)])
    assert result.exit_code == 0, result.stderr
    (g,) = matchlog.parse_match_log(result.stdout)
    assert [s["name"] for s in g.header["seats"]] == ["old0", "old1", "old2"]
    assert g.header["seats"][0]["version"] is None and g.seed == "log/0"
    assert all(ln.meta == {"turn": None, "ms": None, "default": None} for ln in g.lines if ln.meta)
    assert verify_game(g).totals == record.totals
    assert "header" in {c[1] for c in sqlite3.connect(db).execute("PRAGMA table_info(games)")}


def _stored_game(db: Path, match_id: str) -> tuple[str, Any, referee_pb2.WatchUpdate, arena_pb2.Match]:
    """A stored game as the commands and the service give it out: its export, its replayed game,
    the finished game's Watch update (full) and the admin's Match."""
    store = Store(db)
    try:
        row = store.match(match_id)
        assert row is not None
        replayed = replay_stored(store, row, 0)
        (finished,) = finished_games(row, full=True)
        return (matchlog.dumps(matchlog.stored_game_lines(store, match_id, 0) or []), replayed.log,
                finished_update(store, finished, replayed), match_to_proto(store, row))
    finally:
        store.close()


@pytest.mark.parametrize("preset", ["mizerka-short", "manni-major"])
def test_a_database_of_the_old_log_form_is_migrated_and_its_games_export_replay_and_watch_the_same(tmp_path: Path,
                                                                                                     preset: str) -> None:
    """A database at revision 0002 holds its games' logs in the old stored form (revision 0003 makes
    them the file's lines): once migrated, the game exports byte for byte, replays and is watched
    as it was when the referee stored it in the new form."""
    record, _ = asyncio.run(_played(preset))
    db = tmp_path / "arena.sqlite"
    store = Store(db)
    ids = [store.add_bot(f"p{s}")[0].id for s in range(3)]
    match_id = record.match_id = store.create_match(preset, {}, "log", 1, {"decision_ms": 5000}, ids).id
    assert store.record_game(match_id, 0, record_to_store(record, ids))
    store.set_status(match_id, FINISHED)
    store.close()
    now = _stored_game(db, match_id)
    con = sqlite3.connect(db)
    log, deals = (json.loads(v) for v in con.execute("SELECT log, deals FROM games").fetchone())
    old_log, old_deals = _before_0003({"log": log, "deals": deals})
    con.execute("UPDATE games SET log = ?, deals = ?", (json.dumps(old_log), json.dumps(old_deals)))
    con.execute("UPDATE alembic_version SET version_num = '0002'")
    con.commit()
    con.close()

    migrated = _stored_game(db, match_id)
    con = sqlite3.connect(db)
    assert con.execute("SELECT version_num FROM alembic_version").fetchall() == [(SCHEMA_HEAD,)]
    assert [json.loads(v) for v in con.execute("SELECT log, deals FROM games").fetchone()] == [log, deals]
    con.close()
    assert migrated[0] == now[0]  # the export, byte for byte
    assert migrated[1] == now[1] == record.game.log  # the replayed game
    assert migrated[2] == now[2] and now[2].deals  # the Watch update of the finished game, its full record too
    assert migrated[3] == now[3] and now[3].results[0].results  # the admin's Match with its deals
    (g,) = matchlog.parse_match_log(migrated[0])
    assert verify_game(g).totals == record.totals


def test_entry_lines_are_the_json_form_of_the_wire_events() -> None:
    """Each line of a log is the JSON of its wire Event (both ways, and back to the engine's), but
    the over line, which has none."""
    record, _ = asyncio.run(_played("trjamann"))
    rules = record.game.rules
    events = project_events(record.game, FULL)
    lines = matchlog.log_lines(events, rules)
    assert [line["type"] for line in lines] == [e.kind for e in events]
    for e, line in zip(events, lines):
        assert matchlog.entry_from_line(line, rules) == e
        if isinstance(e, GameOver):
            assert line == matchlog.over_line(e.totals)
            continue
        msg = event_to_proto(e)
        assert matchlog.event_from_line(line) == msg
        bare = {k: v for k, v in line.items() if k not in matchlog.TURN_KEYS}
        assert matchlog.line_from_event(msg, rules) == bare
        assert ("turn" in line) == (line["type"] in matchlog.ACTION_KINDS)
        if isinstance(e, DealScored):
            assert "points" in line and "totals" in line and "result" not in line  # flat


def test_a_contract_is_written_by_name_with_a_major_flag() -> None:
    rules = load_ruleset("manni-major")
    settled = event_to_proto(Settled(1, "hearts", True, 1))
    assert settled.contract_settled.contract == "hearts major"  # the wire's label
    assert matchlog.line_from_event(settled, rules) == {"type": "settled", "declarer": 1, "contract": "hearts", "major": True,
                                                         "trump": "H"}
    result = DealResult(0, 0, False, 2, 1, 0, "hearts", True, 1, (1, 14, 1), (0, 0, 0))
    line = matchlog.line_from_event(event_to_proto(DealScored(result, (0, 0, 0))), rules)
    assert (line["contract"], line["major"]) == ("hearts", True)


def test_entries_written_before_the_major_flag_read_as_the_same_events() -> None:
    """Logs from before the ``major`` flag say ``"contract": "hearts major"`` in settled and result lines."""
    rules = load_ruleset("manni-major")
    assert matchlog.entry_from_line({"type": "settled", "declarer": 1, "contract": "hearts major", "trump": "H"}, rules) == \
        Settled(1, "hearts", True, 1)
    assert matchlog.entry_from_line({"type": "settled", "declarer": 0, "contract": "grand", "trump": None}, rules) == \
        Settled(0, "grand", False, None)
    old = {"deal": 3, "redeal": 0, "tiebreak": False, "dealer": 2, "declarer": 1, "caller": 0, "contract": "spades major",
           "trump": "S", "tricks": [1, 14, 1], "points": [0, 0, 0], "void": False, "revoker": None}
    want = DealScored(DealResult(3, 0, False, 2, 1, 0, "spades", True, 0, (1, 14, 1), (0, 0, 0)), (5, -3, -2))
    assert matchlog.entry_from_line({"type": "result", **old, "totals": [5, -3, -2]}, rules) == want
    assert matchlog.result_from_line({**old, "totals": [5, -3, -2]}) == result_to_proto(want.result, want.totals)  # a stored deal


def test_a_whole_log_from_before_the_major_flag_still_verifies() -> None:
    rules = load_ruleset("manni-major")
    game = Game(rules, seed="old")
    rng = random.Random(4)
    while not game.finished:
        game.apply(game.to_act, random_action(game, rng))
    assert any(r.major for r in game.results)
    header = matchlog.make_header(match_id="m-old", game=0, games=1, rules=rules, seed="old", names=["a", "b", "c"])
    entries = matchlog.log_lines(project_events(game, FULL), rules)
    for line in entries:  # write the contracts as the old format did
        if line["type"] in ("settled", "result"):
            line["contract"] += " major" if line.pop("major") else ""
    assert any(line["contract"].endswith(" major") for line in entries if line["type"] == "settled")
    text = matchlog.dumps([header, *entries, matchlog.end_line(game.totals, ranks(game.totals), [{}] * 3)])
    (parsed,) = matchlog.parse_match_log(text)
    assert [ln.entry for ln in parsed.lines] == project_events(game, FULL)
    assert verify_game(parsed).game.results == game.results
