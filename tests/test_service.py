"""The referee service end to end: a real `mizerka serve` on 127.0.0.1, real bot processes written
from the proto alone (tests/bots/protobot.py), a real SQLite file."""

from __future__ import annotations

import re
import sqlite3
import sys
import time
from pathlib import Path

import grpc
import pytest
from google.protobuf import text_format
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from mizerka_engine.rules import PRESETS
from mizerka_proto import arena_pb2, events_pb2, game_pb2, referee_pb2, referee_pb2_grpc

from harness import Referee, referee

CARD = re.compile(r'"([2-9TJQKA][SHDC])"')
FINISHED = arena_pb2.MATCH_STATUS_FINISHED


@pytest.fixture
def ref(tmp_path: Path):  # type: ignore[no-untyped-def]
    with referee(tmp_path) as r:
        yield r


def seat_bots(ref: Referee, modes: list[str], prefix: str = "bot") -> list[str]:
    admin = ref.arena()
    ids = []
    for i, mode in enumerate(modes):
        bot_id, token = admin.register(f"{prefix}{i}-{mode.split(':')[0]}")
        ref.protobot(token, mode)
        ids.append(bot_id)
    return ids


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_full_game_of_every_preset_between_proto_only_bots(ref: Referee, preset: str) -> None:
    ids = seat_bots(ref, ["play"] * PRESETS[preset].players)
    match = ref.arena().wait(ref.arena().create(preset, ids, seed=f"full-{preset}"))
    assert match.status == FINISHED
    (game,) = match.results
    assert sum(game.totals) == sum(p for r in game.results for p in r.points)
    assert len([r for r in game.results if not r.void and not r.tiebreak]) == PRESETS[preset].deals
    assert all(s.timeouts == s.refusals == s.defaults_applied == 0 and not s.forfeited for s in game.seats)


def test_a_hanging_bot_times_out_is_struck_and_forfeited_and_the_match_completes(ref: Referee) -> None:
    ids = seat_bots(ref, ["hang", "play", "play"])
    # A bot that never answers against a clock that the prompt bots meet with a wide margin even on a
    # loaded machine: only the behaviour is checked (two strikes, then forfeited), not how long it took.
    clock = game_pb2.Clock(decision_ms=1000, max_strikes=2)
    match = ref.arena().wait(ref.arena().create("mizerka-short", ids, clock=clock))
    assert match.status == FINISHED
    hung = match.results[0].seats[0]
    assert (hung.timeouts, hung.forfeited, hung.disconnected) == (2, True, False)
    assert hung.defaults_applied > 2  # every decision after the forfeit too
    assert not match.results[0].seats[1].forfeited


def test_a_bot_killed_mid_game_is_forfeited_and_the_match_completes(ref: Referee) -> None:
    ids = seat_bots(ref, ["die:5", "play", "play"])
    match = ref.arena().wait(ref.arena().create("mizerka", ids))
    assert match.status == FINISHED
    dead = match.results[0].seats[0]
    assert dead.disconnected and dead.forfeited and dead.defaults_applied > 0
    assert len(match.results[0].results) >= 18


def test_garbage_and_out_of_turn_actions_get_errors_and_the_game_goes_on(ref: Referee, tmp_path: Path) -> None:
    admin = ref.arena()
    codes = tmp_path / "codes.txt"
    bot_id, token = admin.register("garbage")
    ref.protobot(token, f"garbage:{codes}")
    ids = [bot_id] + seat_bots(ref, ["play", "play"])
    match = admin.wait(admin.create("mizerka-short", ids))
    assert match.status == FINISHED
    seen = codes.read_text().split()
    assert {"MALFORMED", "STALE_TURN"} <= set(seen)
    assert {"WRONG_PHASE", "CARD_NOT_HELD"} & set(seen)
    record = match.results[0].seats[0]
    assert record.refusals > 0 and record.timeouts == 0 and not record.forfeited


def _known_cards(full_log: list[dict], seat: int, pick: bool) -> list[set[str]]:
    """Per deal: the cards ``seat`` may ever know (own hand and takes, played cards, a seen talon)."""
    known: list[set[str]] = []
    for e in full_log:
        if e["type"] == "deal":
            known.append(set(e["hands"][seat]))
            talon = set(e["talon"])
        elif e["type"] == "exchange" and e["seat"] == seat:
            known[-1] |= set(e["take"]) | (talon if pick else set())
        elif e["type"] in ("play", "revoke"):
            known[-1].add(e["card"])
    return known


@pytest.mark.parametrize("preset", ["mizerka", "manni-major"])
def test_a_spy_bot_never_receives_a_card_outside_its_legal_view(ref: Referee, tmp_path: Path, preset: str) -> None:
    import json

    admin = ref.arena()
    dump = tmp_path / "spy.txt"
    spy_id, token = admin.register("spy")
    ref.protobot(token, f"spy:{dump}")
    ids = [spy_id] + seat_bots(ref, ["play", "play"])
    match_id = admin.create(preset, ids, seed="spy")
    assert admin.wait(match_id).status == FINISHED
    con = sqlite3.connect(ref.db)
    (log_json,) = con.execute("select log from games where match_id = ?", (match_id,)).fetchone()
    full_log = json.loads(log_json)
    pick = PRESETS[preset].exchange == "pick"
    known = _known_cards(full_log, 0, pick)
    first_six = [set(e["hands"][0][:6]) for e in full_log if e["type"] == "deal"]
    deal, caller, announced = -1, -1, False
    for line in dump.read_text().splitlines():
        message = text_format.Parse(line, referee_pb2.RefereeMessage())
        kind_of_message = message.WhichOneof("message")
        if kind_of_message == "event_batch":
            parts = list(message.event_batch.events)
        elif kind_of_message == "decision_request":  # its events happened before the request itself
            request = referee_pb2.DecisionRequest()
            request.CopyFrom(message.decision_request)
            del request.events[:]
            parts = [*message.decision_request.events, request]
        else:
            parts = [message]
        for part in parts:  # each event is checked in the state it was sent in
            event = part if isinstance(part, events_pb2.Event) else None
            kind = event.WhichOneof("kind") if event is not None else None
            if kind == "deal_started":
                deal, caller = deal + 1, event.deal_started.declarer
                announced = event.deal_started.tiebreak  # a tie-break deal has no announcement
            elif kind in ("contract_announced", "contract_settled"):
                announced = True
            cards = set(CARD.findall(text_format.MessageToString(part, as_one_line=True)))
            if deal < 0:
                assert not cards
                continue
            assert cards <= known[deal], f"deal {deal}: leaked {cards - known[deal]}"
            if not announced and PRESETS[preset].choose_after == 6:
                assert cards <= (first_six[deal] if caller == 0 else set()), f"deal {deal}: seen before the contract"
    assert deal >= 17


def test_a_spectator_of_a_live_match_sees_no_hidden_card(ref: Referee) -> None:
    ids = seat_bots(ref, ["slow:25", "play", "play"])  # a few seconds: a dozen paced updates or more
    admin = ref.arena()
    match_id = admin.create("mizerka-short", ids, seed="watch")
    stub = referee_pb2_grpc.RefereeStub(grpc.insecure_channel(ref.address))
    live_cards: set[str] = set()
    played: set[str] = set()
    updates = 0
    full_updates = []
    for update in stub.Watch(referee_pb2.WatchRequest(match_id=match_id), timeout=120):
        if update.full:
            full_updates.append(update)
            continue
        updates += 1
        for event in update.events:
            if event.WhichOneof("kind") in ("card_played", "revoked"):
                played.add(getattr(event, event.WhichOneof("kind")).card)
            assert event.WhichOneof("kind") != "deal_started" or not event.deal_started.hands
        live_cards |= set(CARD.findall(text_format.MessageToString(update, as_one_line=True)))
        assert not any(p.hand for p in update.view.players)
    assert updates > 5  # paced (server.transport.service.WATCH_PACE_S): the changes in between come together
    assert live_cards == played  # only cards already played were ever shown
    assert len(full_updates) == 1 and full_updates[0].match_over
    assert all(p.hand_known for p in full_updates[0].view.players)
    assert full_updates[0].deals and all(len(d.hands) == 3 for d in full_updates[0].deals)


def test_watching_a_finished_match_replays_it_from_the_store(tmp_path: Path) -> None:
    with referee(tmp_path) as ref:
        ids = seat_bots(ref, ["play"] * 3)
        match_id = ref.arena().create("trjamann", ids, seed="again", games=2)
        ref.arena().wait(match_id)
    with referee(tmp_path) as ref:  # a new server process on the same database
        updates = list(referee_pb2_grpc.RefereeStub(grpc.insecure_channel(ref.address)).Watch(
            referee_pb2.WatchRequest(match_id=match_id), timeout=60))
        assert [u.game_number for u in updates] == [0, 1] and all(u.full for u in updates)
        assert updates[-1].match_over and len(updates[0].deals) >= 12


def test_bad_tokens_bad_first_messages_and_oversize_messages_are_refused(ref: Referee) -> None:
    stub = referee_pb2_grpc.RefereeStub(grpc.insecure_channel(ref.address))

    def first_reply(*messages: referee_pb2.BotMessage) -> grpc.StatusCode:
        with pytest.raises(grpc.RpcError) as err:
            list(stub.Play(iter(messages), timeout=10))
        return err.value.code()

    assert first_reply(referee_pb2.BotMessage(hello=referee_pb2.Hello(token="nope"))) == grpc.StatusCode.UNAUTHENTICATED
    assert first_reply(referee_pb2.BotMessage(action=game_pb2.Action(turn=1))) == grpc.StatusCode.FAILED_PRECONDITION
    huge = referee_pb2.BotMessage(hello=referee_pb2.Hello(token="x" * 100_000))
    assert first_reply(huge) == grpc.StatusCode.RESOURCE_EXHAUSTED

    arena = ref.arena()
    arena.metadata = (("authorization", "Bearer wrong"),)
    with pytest.raises(grpc.RpcError) as err:
        arena.register("intruder")
    assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED


def test_bad_match_requests_name_what_is_wrong(ref: Referee) -> None:
    admin = ref.arena()
    ids = [admin.register(f"x{i}")[0] for i in range(3)]
    cases = [
        (("nonsense", ids), "unknown preset 'nonsense'"),
        (("mizerka", ids[:2]), "needs 3 seats"),
        (("mizerka", [*ids[:2], "bot-missing"]), "unknown bot id 'bot-missing'"),
    ]
    for (preset, seats), message in cases:
        with pytest.raises(grpc.RpcError) as err:
            admin.create(preset, seats)
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and message in err.value.details()
    with pytest.raises(grpc.RpcError) as err:
        admin.create("mizerka", ids, options={"deals": 7})
    assert "deals" in err.value.details()
    with pytest.raises(grpc.RpcError) as err:
        admin.register("x0")
    assert err.value.code() == grpc.StatusCode.ALREADY_EXISTS


def test_one_bot_plays_several_games_at_once_on_several_streams(ref: Referee) -> None:
    admin = ref.arena()
    bot_id, token = admin.register("multi")
    for _ in range(3):
        ref.protobot(token, "play")
    matches = [admin.create("mizerka-short", [bot_id] * 3, seed=f"m{i}") for i in range(2)]
    ids = seat_bots(ref, ["play"] * 3, prefix="other")
    matches.append(admin.create("mizerka-short", ids))
    assert all(admin.wait(m).status == FINISHED for m in matches)


def test_health_and_reflection(ref: Referee) -> None:
    channel = grpc.insecure_channel(ref.address)
    health = health_pb2_grpc.HealthStub(channel)
    for service in ("", "mizerka.v1.Referee", "mizerka.v1.Arena"):
        status = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=5).status
        assert status == health_pb2.HealthCheckResponse.SERVING
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    replies = stub.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")]), timeout=5)
    names = {s.name for r in replies for s in r.list_services_response.service}
    assert {"mizerka.v1.Referee", "mizerka.v1.Arena", "grpc.health.v1.Health"} <= names


def test_sigterm_aborts_running_matches_says_so_and_stores_them(ref: Referee) -> None:
    ids = seat_bots(ref, ["hang", "play", "play"])  # on the default clock (10 s + 60 s bank) it holds the match
    match_id = ref.arena().create("mizerka", ids)
    deadline = time.monotonic() + 30
    while ref.arena().get(match_id).status != arena_pb2.MATCH_STATUS_RUNNING:
        assert time.monotonic() < deadline, "the match never started"
        time.sleep(0.05)
    assert ref.terminate() == 0
    lines = ref.log_lines()
    stopped = [line for line in lines if line["event"] == "referee stopped"]
    assert stopped and stopped[0]["aborted_matches"] == [match_id]
    status, error = sqlite3.connect(ref.db).execute("select status, error from matches where id = ?", (match_id,)).fetchone()
    assert status == "ABORTED" and "shut down" in error
    assert all("match_id" in line for line in lines if line["event"] in ("game finished", "strike", "seat forfeited"))


def test_log_lines_carry_match_id_and_seat(ref: Referee) -> None:
    ids = seat_bots(ref, ["hang", "play", "play"])
    # 1 s per decision: the prompt bots never come near it, so every strike is the hanging bot's.
    match_id = ref.arena().create("mizerka-short", ids, clock=game_pb2.Clock(decision_ms=1000, max_strikes=1))
    ref.arena().wait(match_id)
    strikes = [line for line in ref.log_lines() if line["event"] == "strike"]
    assert strikes and all(line["match_id"] == match_id and line["seat"] == 0 for line in strikes)
    assert events_pb2.DefaultReason.Name(events_pb2.DEFAULT_REASON_TIMEOUT).endswith(strikes[0]["reason"].split("_")[-1])


def test_forfeit_seats_are_played_by_default_without_waiting_and_get_bot_counts_streams(ref: Referee) -> None:
    admin = ref.arena()
    ids = seat_bots(ref, ["play", "play"])
    absent_id, _ = admin.register("never-started")
    deadline = time.monotonic() + 30
    while admin.stub.GetBot(arena_pb2.GetBotRequest(bot_id=ids[0]), metadata=admin.metadata).streams < 1:
        assert time.monotonic() < deadline, "the bot process never connected"
        time.sleep(0.05)
    request = arena_pb2.CreateMatchRequest(preset="mizerka-short", seed_text="f", seats=[*ids, absent_id], forfeit_seats=[2])
    match_id = admin.stub.CreateMatch(request, metadata=admin.metadata).match_id
    match = admin.wait(match_id, timeout_s=60)  # far below the 30 s seat timeout times 9 deals
    assert match.status == FINISHED and match.seats[2].forfeited and not match.seats[0].forfeited
    assert match.results[0].seats[2].forfeited and match.results[0].seats[2].defaults_applied > 0
    bot = admin.stub.GetBot(arena_pb2.GetBotRequest(bot_id=absent_id), metadata=admin.metadata)
    assert (bot.name, bot.streams, bot.idle_streams) == ("never-started", 0, 0)
    with pytest.raises(grpc.RpcError) as err:
        admin.stub.GetBot(arena_pb2.GetBotRequest(bot_id="bot-nope"), metadata=admin.metadata)
    assert err.value.code() == grpc.StatusCode.NOT_FOUND


def test_sdk_bots_launched_with_the_launch_contract_play_a_match(ref: Referee) -> None:
    admin = ref.arena()
    ids = []
    for name in ("heuristic", "random", "heuristic"):
        bot_id, token = admin.register(f"sdk-{len(ids)}-{name}")
        ref.bot(token, str(Path(sys.executable).parent / "mizerka"), "bot", name)
        ids.append(bot_id)
    match = admin.wait(admin.create("mizerka", ids, seed="sdk", games=2))
    assert match.status == FINISHED and len(match.results) == 2
    for game in match.results:
        assert all(s.refusals == s.timeouts == s.defaults_applied == 0 for s in game.seats)


def test_serves_clock_and_seat_timeout_flags_are_the_defaults_of_its_matches(tmp_path: Path) -> None:
    """`serve --decision-ms/--bank-ms/--increment-ms/--max-strikes` are the clock of a match created
    without one, and `--seat-timeout` how long a match waits for its bots: here none of them ever
    connects, and after 1 s (not the default 60 s, past the wait below) the default policy plays
    every seat."""
    flags = ["--decision-ms", "1500", "--bank-ms", "700", "--increment-ms", "250", "--max-strikes", "1", "--seat-timeout", "1"]
    with referee(tmp_path, *flags) as ref:
        admin = ref.arena()
        ids = [admin.register(f"absent{i}")[0] for i in range(3)]
        match = admin.wait(admin.create("mizerka-short", ids), timeout_s=30)
        assert match.clock == game_pb2.Clock(decision_ms=1500, bank_ms=700, increment_ms=250, max_strikes=1, max_retries=5)
        assert match.status == FINISHED
        seats = match.results[0].seats
        assert all(s.defaults_applied > 0 and s.timeouts == 0 for s in seats), seats  # played by default, never asked
