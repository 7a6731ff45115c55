"""The stdio bridge end to end: a real `mizerka serve`, `mizerka bot stdio -- CMD` / `mizerka-bot stdio
-- CMD` processes, and programs that speak the JSON Lines protocol of docs/stdio-protocol.md: the
example bots (clients/stdio/bot.pl in Perl, clients/stdio/bot.py in plain Python) and small
misbehaving programs written here."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from mizerka.bots import RandomBot
from mizerka.stdio import LineCounts, LineError, Translator, action_from_line, decide_line, error_line, event_line
from mizerka_engine.rules import load_ruleset
from mizerka_proto import arena_pb2, events_pb2, game_pb2, referee_pb2
from server.referee.offline import play
from tournaments.local_bots import SdkSeat, StdioSeat

from harness import BIN, ROOT, Referee, referee
from needs import need_program
from schemas import assert_conforms, problems

FINISHED = arena_pb2.MATCH_STATUS_FINISHED
PERL_BOT = ["perl", str(ROOT / "clients" / "stdio" / "bot.pl")]
PYTHON_BOT = [sys.executable, "-I", "-S", str(ROOT / "clients" / "stdio" / "bot.py")]  # -I -S: the standard library only
DEALS = {"mizerka": 18, "trjamann": 12, "mizerka-short": 9}
CARDS_HELD = game_pb2.PlayerState.DESCRIPTOR.fields_by_number[5].name  # hand_size, renamed hand_count

needs_perl = pytest.mark.usefixtures("perl")


@pytest.fixture
def perl() -> str:
    return need_program("perl", "perl")


@pytest.fixture
def ref(tmp_path: Path):  # type: ignore[no-untyped-def]
    with referee(tmp_path) as r:
        yield r


def stdio_bot(ref: Referee, name: str, program: list[str], tmp: Path, *flags: str, via: str = "mizerka-bot",
              env: dict[str, str] | None = None, monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[str, Path, Path]:
    """Register ``name`` and start the bridge for ``program``; returns (bot id, transcript, log)."""
    bot_id, token = ref.arena().register(name)
    transcript, log = tmp / f"{name}.lines", tmp / f"{name}.log"
    front = [str(BIN / "mizerka"), "bot"] if via == "mizerka" else [str(BIN / "mizerka-bot")]
    if env and monkeypatch is not None:
        for key, value in env.items():
            monkeypatch.setenv(key, value)
    ref.bot(token, *front, "stdio", "--transcript", str(transcript), *flags, "--", *program, log=log)
    if env and monkeypatch is not None:
        for key in env:
            monkeypatch.delenv(key)
    return bot_id, transcript, log


def proto_bot(ref: Referee, name: str) -> str:
    bot_id, token = ref.arena().register(name)
    ref.protobot(token, "play")
    return bot_id


def lines(transcript: Path) -> list[tuple[int, str, dict | str]]:
    """(stream, "<" bridge->program or ">" program->bridge, the JSON object or the raw text)."""
    out: list[tuple[int, str, dict | str]] = []
    for raw in transcript.read_text().splitlines():
        head, _, body = raw.partition(" ")
        try:
            value: dict | str = json.loads(body)
        except ValueError:
            value = body
        out.append((int(head[:-1]), head[-1], value))
    return out


def write_program(tmp: Path, name: str, body: str) -> list[str]:
    path = tmp / name
    path.write_text(body)
    return [sys.executable, "-I", str(path)]


# A legal answer from a decide line, in plain Python: the program helpers below share it.
LEGAL = '''
import json, os, sys

def legal(msg):
    body = msg["legal"][0] if msg["legal"] else {"discard": []}
    return dict(body, turn=msg["turn"])

def send(obj):
    sys.stdout.write((obj if isinstance(obj, str) else json.dumps(obj)) + "\\n")
    sys.stdout.flush()
'''


# ------------------------------------------------------------------------------ the line protocol
def test_answer_lines_parse_into_actions_and_garbage_is_explained() -> None:
    a = action_from_line('{"turn": 7, "play": "AS"}')
    assert (a.turn, a.play_card.card) == (7, "AS")
    a = action_from_line(b'{"type": "action", "turn": 1, "contract": "trumps", "trump": "H"}\n')
    assert (a.choose_contract.contract, a.choose_contract.trump) == ("trumps", "H")
    assert action_from_line('{"turn": 3, "major": null}').WhichOneof("action") == "announce_major"
    assert action_from_line('{"turn": 3, "major": "hearts"}').announce_major.contract == "hearts"
    a = action_from_line('{"turn": 2, "discard": []}')
    assert a.WhichOneof("action") == "exchange_cards" and not a.exchange_cards.discard
    a = action_from_line('{"turn": 2, "discard": ["2C", "3C"], "take": ["AH", "KH"]}')
    assert list(a.exchange_cards.take) == ["AH", "KH"]
    for bad, fragment, turn in [
        ("AS", "not a JSON line", None),
        ("[1, 2]", "JSON object", None),
        ('{"play": "AS"}', 'no "turn"', None),
        ('{"turn": 4, "play": "AS", "colour": "red"}', "unknown field 'colour'", 4),
        ('{"turn": 4, "play": "AS", "contract": "hearts"}', "exactly one", 4),
        ('{"turn": 4}', "exactly one", 4),
        ('{"turn": 4, "play": 12}', "card string", 4),
        ('{"turn": 4, "discard": "2C"}', "list of card strings", 4),
        ('{"turn": 4, "play": "AS", "trump": "H"}', '"trump" goes only with "contract"', 4),
        ('{"type": "answer", "turn": 4, "play": "AS"}', '"type"', 4),
        ('{"turn": "4", "play": "AS"}', "whole number", None),
    ]:
        with pytest.raises(LineError) as info:
            action_from_line(bad)
        assert fragment in str(info.value), (bad, str(info.value))
        assert info.value.turn == turn


def test_the_answer_schema_accepts_what_the_bridge_reads_and_rejects_what_it_refuses() -> None:
    good = ['{"turn": 7, "play": "AS"}', '{"type": "action", "turn": 1, "contract": "trumps", "trump": "H"}',
            '{"turn": 3, "major": null}', '{"turn": 2, "discard": ["2C"], "take": ["AH"]}', '{"turn": 2, "discard": []}']
    bad = ['{"play": "AS"}', '{"turn": 4, "play": "AS", "colour": "red"}', '{"turn": 4, "play": "AS", "contract": "hearts"}',
           '{"turn": 4}', '{"turn": 4, "play": 12}', '{"turn": 4, "discard": "2C"}', '{"turn": 4, "play": "AS", "trump": "H"}',
           '{"turn": 4, "discard": [], "take": [], "play": "AS"}', '{"type": "answer", "turn": 4, "play": "AS"}',
           '{"turn": "4", "play": "AS"}', '{"turn": -1, "play": "AS"}']
    for line in good:
        action_from_line(line)
        assert not problems("stdio-answer", json.loads(line)), line
    for line in bad:
        with pytest.raises(LineError):
            action_from_line(line)
        assert problems("stdio-answer", json.loads(line)), line


def test_decide_and_event_lines_use_card_notation_and_plain_json() -> None:
    view = game_pb2.SeatView(seat=1, phase=game_pb2.PHASE_PLAY, to_act=1, dealer=0, caller=2, declarer=2,
                             contract="mizerka", contract_name="mizerka", contract_minus=True, trump="")
    for s in range(3):
        player = view.players.add(seat=s, quota=[1, 5, 7][s], total=[3, -1, -2][s], tricks_won=[1, 0, 0][s])
        setattr(player, CARDS_HELD, 12)
    view.players[1].hand.extend(["4S", "QH", "2C"])
    view.tricks.add(leader=2, winner=0, winning=0).plays.add(seat=2, card="9D")
    view.tricks.add(leader=0, winning=0).plays.add(seat=0, card="KS")
    ruleset = game_pb2.Ruleset(preset="mizerka", players=3)
    ruleset.contracts.add(name="mizerka", minus=True)
    request = referee_pb2.DecisionRequest(turn=40, kind=referee_pb2.DECISION_KIND_PLAY, view=view, time_left_ms=900,
                                          bank_ms=100, ruleset=ruleset)
    request.legal_actions.add(turn=40).play_card.card = "4S"
    line = decide_line(request)
    assert line["type"] == "decide" and line["turn"] == 40 and line["kind"] == "play"
    assert line["legal"] == [{"play": "4S"}] and "exchange" not in line
    # A request without default_action (an older referee): the SDK derives it and the trick flags.
    assert line["default"] == {"play": "4S"} and line["takes_trick"] == [False]  # 4S does not beat KS
    v = line["view"]
    assert v["hand"] == ["4S", "QH", "2C"] and v["trick"] == [{"seat": 0, "card": "KS"}]
    assert v["winning"] == {"seat": 0, "card": "KS"} and (v["contract_name"], v["major"]) == ("mizerka", False)
    assert v["tricks"] == [{"leader": 2, "plays": [{"seat": 2, "card": "9D"}], "winner": 0}]
    assert (v["minus"], v["trump"], v["position"], v["quotas"], v["totals"]) == (True, None, 2, [1, 5, 7], [3, -1, -2])
    assert v["hand_sizes"] == [12, 12, 12]
    json.dumps(line)  # plain JSON all the way down
    e = events_pb2.Event(default_applied=events_pb2.DefaultApplied(
        turn=9, action=game_pb2.Action(turn=9, announce_major=game_pb2.AnnounceMajor()),
        reason=events_pb2.DEFAULT_REASON_TIMEOUT))
    assert event_line(e) == {"type": "event", "event": "default_applied", "turn": 9, "action": {"major": None},
                             "reason": "timeout"}


def test_a_contract_decide_line_carries_the_facts_of_the_contracts_it_offers() -> None:
    # A stateless program must not need game_start: the facts come from the ruleset the request repeats.
    ruleset = game_pb2.Ruleset(preset="trjamann", players=3)
    ruleset.contracts.add(name="spades", trump="S")
    ruleset.contracts.add(name="trumps", names_trump=True, trump_choices=["H", "D", "C"])
    ruleset.contracts.add(name="null", minus=True)
    request = referee_pb2.DecisionRequest(turn=1, kind=referee_pb2.DECISION_KIND_CONTRACT, ruleset=ruleset)
    request.legal_actions.add(turn=1).choose_contract.contract = "spades"
    request.legal_actions.add(turn=1).choose_contract.MergeFrom(game_pb2.ChooseContract(contract="trumps", trump="H"))
    line = decide_line(request)
    assert line["legal"] == [{"contract": "spades"}, {"contract": "trumps", "trump": "H"}]
    assert line["default"] == {"contract": "spades"} and "takes_trick" not in line
    assert line["contracts"] == {  # only those offered: "null" was used up
        "spades": {"name": "spades", "minus": False, "trump": "S", "names_trump": False, "trump_choices": [],
                   "major_rank": 0},
        "trumps": {"name": "trumps", "minus": False, "trump": None, "names_trump": True,
                   "trump_choices": ["H", "D", "C"], "major_rank": 0},
    }
    major = referee_pb2.DecisionRequest(turn=2, kind=referee_pb2.DECISION_KIND_MAJOR, ruleset=ruleset)
    major.legal_actions.add(turn=2).announce_major.contract = "spades"
    major.legal_actions.add(turn=2).announce_major.SetInParent()  # a pass
    assert list(decide_line(major)["contracts"]) == ["spades"] and decide_line(major)["default"] == {"major": None}
    request.kind = referee_pb2.DECISION_KIND_PLAY
    assert "contracts" not in decide_line(request)  # a play's facts are in the view (trump, minus)


def test_the_translator_writes_folded_events_before_the_decide_line_and_tracks_the_pending_turn() -> None:
    counts = LineCounts()
    t = Translator(counts)
    request = referee_pb2.DecisionRequest(turn=3, kind=referee_pb2.DECISION_KIND_EXCHANGE)
    request.events.add(card_played=events_pb2.CardPlayed(seat=2, card="QD"))
    request.exchange.max_cards = 4
    sent = t.to_program(referee_pb2.RefereeMessage(decision_request=request))
    assert [(m["type"], m.get("event")) for m in sent] == [("event", "card_played"), ("decide", None)]
    assert sent[1]["exchange"] == {"max": 4, "pick": False, "talon": []} and sent[1]["legal"] == []
    assert (t.pending, counts.decisions) == (3, 1)
    assert t.from_program('{"turn": 3, "discard": ["2C"]}\n').action is not None  # an answer went out
    refusal = referee_pb2.ActionError(turn=3, code="BAD_EXCHANGE", message="too many", retry=True, time_left_ms=5)
    (line,) = t.to_program(referee_pb2.RefereeMessage(action_error=refusal))
    assert line["type"] == "error" and line["retry"] is True and line["source"] == "referee"
    assert (t.pending, t.inflight, counts.refusals) == (3, None, 1)  # refused with retry: still pending
    assert t.from_program('{"turn": 3, "discard": []}').action is not None  # accepted: the referee goes on
    batch = referee_pb2.EventBatch(events=[events_pb2.Event(trick_won=events_pb2.TrickWon(winner=1, trick=0))])
    assert t.to_program(referee_pb2.RefereeMessage(event_batch=batch)) == [
        {"type": "event", "event": "trick_won", "winner": 1, "trick": 0}]
    assert (t.pending, t.inflight, counts.answers) == (None, None, 2)
    assert Translator(events=False).to_program(referee_pb2.RefereeMessage(event_batch=batch)) == []


def test_the_translator_judges_a_program_line_as_the_bridge_must() -> None:
    counts = LineCounts()
    t = Translator(counts)
    nothing = t.from_program("garbage")  # nothing pending: nothing is sent
    assert nothing.action is None and nothing.line["code"] == "MALFORMED" and "nothing is pending" in nothing.line["message"]
    assert t.from_program('{"turn": 1, "play": "AS"}').line["code"] == "STALE_TURN"
    t.to_program(referee_pb2.RefereeMessage(game_start=referee_pb2.GameStart(match_id="m", game_number=2, seat=1)))
    t.to_program(referee_pb2.RefereeMessage(decision_request=referee_pb2.DecisionRequest(turn=5)))
    assert t.from_program(b"  \n") == (None, None)  # blank lines are harmless
    stale = t.from_program('{"turn": 4, "play": "AS"}')
    assert stale.action is None and stale.line["code"] == "STALE_TURN" and stale.line["turn"] == 4
    empty = t.from_program('{"turn": 5, "play": "AS", "colour": "red"}')  # no answer: an empty Action
    assert empty.line is None and empty.action == game_pb2.Action(turn=5)
    twice = t.from_program('{"turn": 5, "play": "AS"}')  # before the first was judged: not sent
    assert twice.action is None and twice.line["code"] == "NOT_EXPECTED"
    refusal = referee_pb2.ActionError(turn=5, code="MALFORMED", message="no action", retry=True, strikes=1)
    (line,) = t.to_program(referee_pb2.RefereeMessage(action_error=refusal))
    assert (line["code"], line["source"], line["retry"], line["strikes"]) == ("MALFORMED", "bridge", True, 1)
    assert "unknown field 'colour'" in line["message"]
    assert t.from_program('{"turn": 5, "play": "AS"}').action.play_card.card == "AS"
    assert (counts.garbage, counts.stale, counts.answers, counts.refusals) == (2, 3, 1, 0)
    (end,) = t.lost()  # the stream dropped mid-game: the program is told the game ended
    assert (end["type"], end["match_id"], end["game_number"], end["seat"], end["aborted"]) == ("game_end", "m", 2, 1, True)
    assert (t.pending, t.lost()) == (None, [])


def test_the_documented_lines_conform_to_the_schemas() -> None:
    text = (ROOT / "docs" / "stdio-protocol.md").read_text()
    transcript = text.split("## A real transcript")[1].split("A program that prints garbage")[0]
    shown = [(line[1], json.loads(line[3:])) for line in transcript.splitlines()
             if line.startswith(("0< {", "0> {")) and "…" not in line]
    assert {o["type"] for arrow, o in shown if arrow == "<"} == {"hello", "game_start", "event", "decide", "error"}
    assert_conforms("stdio-bridge-line", [o for arrow, o in shown if arrow == "<"])
    assert_conforms("stdio-answer", [o for arrow, o in shown if arrow == ">"])


# ------------------------------------------------------------------------------ the example bots
@needs_perl
@pytest.mark.parametrize("preset", ["mizerka", "trjamann"])
def test_the_perl_and_python_bots_play_full_games_without_a_fault(
    ref: Referee, tmp_path: Path, preset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The Perl bot takes two seats through one `mizerka bot stdio` with MIZERKA_PARALLEL=2 (two
    # streams, two Perl processes); the Python bot takes the third through `mizerka-bot stdio`, with
    # events sent as they happen (--live-events) rather than just before its decisions.
    perl, perl_lines, perl_log = stdio_bot(ref, "perl", PERL_BOT, tmp_path, via="mizerka",
                                           env={"MIZERKA_PARALLEL": "2"}, monkeypatch=monkeypatch)
    python, python_lines, _ = stdio_bot(ref, "python", PYTHON_BOT, tmp_path, "--live-events")
    admin = ref.arena()
    match = admin.wait(admin.create(preset, [perl, python, perl], seed=f"stdio-{preset}"), timeout_s=60)
    assert match.status == FINISHED
    (game,) = match.results
    assert len([r for r in game.results if not r.void and not r.tiebreak]) == DEALS[preset]
    for s in game.seats:
        assert (s.timeouts, s.refusals, s.defaults_applied, s.forfeited, s.disconnected) == (0, 0, 0, False, False), s
    contracts = {r.contract for r in game.results}
    assert len(contracts) == len(match.ruleset.contracts)  # every contract declared by someone
    for transcript, streams in ((perl_lines, {0, 1}), (python_lines, {0})):
        seen = lines(transcript)
        assert {s for s, _, _ in seen} == streams
        for stream in streams:
            mine = [(arrow, obj) for s, arrow, obj in seen if s == stream]
            assert mine[0] == ("<", {"type": "hello", "protocol": 1, "bridge": mine[0][1]["bridge"],
                                     "stream": stream, "streams": len(streams)})
            decides = [o for a, o in mine if a == "<" and o["type"] == "decide"]
            answers = [o for a, o in mine if a == ">"]
            if decides:  # the stream that was seated: one answer per decide, same turn
                assert [a["turn"] for a in answers] == [d["turn"] for d in decides]
                assert not [o for a, o in mine if a == "<" and o["type"] == "error"]
    assert "game over: rank" in perl_log.read_text()
    for transcript in (perl_lines, python_lines):
        seen = lines(transcript)
        assert_conforms("stdio-bridge-line", [o for _, a, o in seen if a == "<"])
        assert_conforms("stdio-answer", [o for _, a, o in seen if a == ">"])


@needs_perl
@pytest.mark.parametrize("bot", ["perl", "python"])
def test_each_example_bot_answers_a_refused_card_again(
    ref: Referee, tmp_path: Path, bot: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    program = PERL_BOT if bot == "perl" else PYTHON_BOT
    bad, transcript, log = stdio_bot(ref, bot, program, tmp_path, env={"BOT_TEST_BAD_FIRST": "1"},
                                     monkeypatch=monkeypatch)
    ids = [bad, proto_bot(ref, "p1"), proto_bot(ref, "p2")]
    match = ref.arena().wait(ref.arena().create("mizerka-short", ids, seed="bad-first"), timeout_s=60)
    assert match.status == FINISHED
    record = match.results[0].seats[0]
    assert (record.refusals, record.timeouts, record.defaults_applied) == (1, 0, 0)
    seen = [(arrow, obj) for _, arrow, obj in lines(transcript)]
    (i,) = [k for k, (arrow, obj) in enumerate(seen) if arrow == "<" and obj["type"] == "error"]
    error = seen[i][1]
    assert (error["code"], error["retry"], error["source"]) == ("CARD_NOT_HELD", True, "referee")
    assert error["time_left_ms"] > 0
    refused, again = seen[i - 1], seen[i + 1]
    assert refused[0] == ">" and again[0] == ">" and refused[1]["turn"] == again[1]["turn"] == error["turn"]
    decide = next(obj for arrow, obj in reversed(seen[:i]) if arrow == "<" and obj["type"] == "decide")
    assert again[1]["play"] in {a["play"] for a in decide["legal"]}
    assert refused[1]["play"] not in decide["view"]["hand"]
    assert "CARD_NOT_HELD" in log.read_text()  # the bot's stderr passes through the bridge


needs_jq = pytest.mark.usefixtures("jq")


@pytest.fixture
def jq() -> str:
    return need_program("jq", "jq")


@needs_jq
@pytest.mark.parametrize("preset", ["trjamann", "manni-major"])
def test_the_stateless_jq_bot_plays_from_decide_lines_alone(ref: Referee, tmp_path: Path, preset: str) -> None:
    # One long-running jq process, no event lines, nothing remembered: as docs/stdio-protocol.md shows.
    program = ["jq", "--unbuffered", "-c", "-f", str(ROOT / "clients" / "stdio" / "bot.jq")]
    bot_id, transcript, _ = stdio_bot(ref, "jq", program, tmp_path, "--no-events")
    ids = [bot_id, proto_bot(ref, "p1"), proto_bot(ref, "p2")]
    match = ref.arena().wait(ref.arena().create(preset, ids, seed=f"jq-{preset}"), timeout_s=90)
    assert match.status == FINISHED
    record = match.results[0].seats[0]
    assert (record.timeouts, record.refusals, record.defaults_applied, record.forfeited) == (0, 0, 0, False)
    sent = [o for _, a, o in lines(transcript) if a == "<"]
    assert not [o for o in sent if o["type"] in ("event", "error")]
    assert_conforms("stdio-bridge-line", sent)
    assert_conforms("stdio-answer", [o for _, a, o in lines(transcript) if a == ">"])
    facts = {c["name"]: c for c in next(o for o in sent if o["type"] == "game_start")["ruleset"]["contracts"]}
    choices = [o for o in sent if o["type"] == "decide" and o["kind"] in ("contract", "major")]
    assert choices
    for d in choices:  # every contract offered comes with the ruleset's facts about it
        offered = {a.get("contract") or a.get("major") for a in d["legal"]} - {None}
        assert d["contracts"] == {name: facts[name] for name in facts if name in offered}


# ------------------------------------------------------------------------------ faulty programs
GARBAGE = LEGAL + '''
log = open(sys.argv[1], "w")
decisions, pending = 0, None
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "decide":
        answer = legal(msg)
        junk = ["this is not JSON", json.dumps(dict(answer, colour="red")), json.dumps(dict(answer, turn=msg["turn"] + 1000))]
        send(junk[decisions % 3])
        decisions += 1
        pending = answer
    elif msg["type"] == "error":
        log.write("%s %s %s\\n" % (msg["code"], msg["retry"], msg["source"]))
        log.flush()
        if pending is not None:
            send(pending)
            pending = None
    elif msg["type"] == "game_end":
        send("garbage with nothing pending")
'''


def test_a_program_printing_garbage_gets_error_lines_and_its_refusals_are_counted(ref: Referee, tmp_path: Path) -> None:
    codes = tmp_path / "codes.txt"
    program = write_program(tmp_path, "garbage.py", GARBAGE) + [str(codes)]
    bot_id, transcript, _ = stdio_bot(ref, "garbage", program, tmp_path)
    ids = [bot_id, proto_bot(ref, "p1"), proto_bot(ref, "p2")]
    match = ref.arena().wait(ref.arena().create("mizerka-short", ids, seed="garbage"), timeout_s=60)
    assert match.status == FINISHED
    record = match.results[0].seats[0]
    deadline = time.monotonic() + 10  # the line after game_end is judged after the match is over
    while "MALFORMED False bridge" not in codes.read_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    seen = codes.read_text().splitlines()
    decides = [o for _, a, o in lines(transcript) if a == "<" and o["type"] == "decide"]
    assert_conforms("stdio-bridge-line", [o for _, a, o in lines(transcript) if a == "<"])  # the error lines too
    expected = ["MALFORMED True bridge", "MALFORMED True bridge", "STALE_TURN False bridge"]
    assert seen[:-1] == [expected[i % 3] for i in range(len(decides))]
    assert seen[-1] == "MALFORMED False bridge"  # nothing pending: nothing sent
    # Unreadable lines went to the referee as empty Actions: refused MALFORMED, counted, retried.
    assert record.refusals == sum(1 for i in range(len(decides)) if i % 3 < 2)
    assert (record.timeouts, record.defaults_applied, record.forfeited) == (0, 0, False)


def test_the_offline_seat_judges_a_garbage_program_as_the_bridge_does(tmp_path: Path) -> None:
    codes = tmp_path / "codes.txt"
    seat = StdioSeat(write_program(tmp_path, "garbage.py", GARBAGE) + [str(codes)], timeout_s=30)
    try:
        record = play(load_ruleset("mizerka-short"), "garbage", [seat, SdkSeat(RandomBot(seed=1)),
                                                                  SdkSeat(RandomBot(seed=2))], ["garbage", "p1", "p2"])
    finally:
        seat.close()
    decisions = seat.translator.counts.decisions
    expected = ["MALFORMED True bridge", "MALFORMED True bridge", "STALE_TURN False bridge"]
    assert codes.read_text().splitlines() == [expected[i % 3] for i in range(decisions)]
    mine = record.seats[0]
    # Unreadable lines went to the referee as empty Actions, refused MALFORMED; stale ones were not sent.
    assert (mine.malformed, mine.refusals, mine.stale) == (sum(1 for i in range(decisions) if i % 3 < 2), 0, 0)
    assert (mine.timeouts, mine.defaults, mine.forfeited) == (0, 0, False)


CRASH = LEGAL + '''
marker, decisions = sys.argv[1], 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "decide":
        decisions += 1
        if decisions == 5 and not os.path.exists(marker):
            open(marker, "w").close()
            print("crash.py: going down", file=sys.stderr, flush=True)
            os._exit(3)
        send(legal(msg))
'''


def doc_example(language: str) -> str:
    """The small example bot in ``language`` from docs/stdio-protocol.md (kept working by the test below)."""
    text = (ROOT / "docs" / "stdio-protocol.md").read_text()
    return text.split(f"```{language}\n", 1)[1].split("```", 1)[0]


@needs_perl
def test_a_program_that_crashes_mid_game_is_played_by_default_and_restarted_for_the_next_game(
    ref: Referee, tmp_path: Path
) -> None:
    program = write_program(tmp_path, "crash.py", CRASH) + [str(tmp_path / "crashed")]
    bot_id, _, log = stdio_bot(ref, "crash", program, tmp_path)
    # The opponents are the small example bots of docs/stdio-protocol.md, in Python and in Perl.
    (tmp_path / "small.pl").write_text(doc_example("perl"))
    small_py, _, _ = stdio_bot(ref, "small-python", write_program(tmp_path, "small.py", doc_example("python")), tmp_path)
    small_pl, _, _ = stdio_bot(ref, "small-perl", ["perl", str(tmp_path / "small.pl")], tmp_path)
    match = ref.arena().wait(ref.arena().create("mizerka-short", [bot_id, small_py, small_pl], seed="crash", games=2),
                             timeout_s=60)
    assert match.status == FINISHED
    first, second = (g.seats[0] for g in match.results)
    assert first.disconnected and first.forfeited and first.defaults_applied > 0 and first.timeouts == 0
    assert len(match.results[0].results) == DEALS["mizerka-short"]
    assert (second.disconnected, second.forfeited, second.defaults_applied, second.refusals) == (False, False, 0, 0)
    for game in match.results:
        for s in game.seats[1:]:
            assert (s.timeouts, s.refusals, s.defaults_applied, s.disconnected) == (0, 0, 0, False), s
    text = log.read_text()
    assert "crash.py: going down" in text  # the program's stderr
    assert "the program exited (code 3) during game 0" in text


SILENT = '''
import sys
for line in sys.stdin:
    pass
'''


def test_a_silent_program_is_left_to_the_referee_clock(ref: Referee, tmp_path: Path) -> None:
    bot_id, transcript, _ = stdio_bot(ref, "silent", write_program(tmp_path, "silent.py", SILENT), tmp_path)
    ids = [bot_id, proto_bot(ref, "p1"), proto_bot(ref, "p2")]
    clock = game_pb2.Clock(decision_ms=1000, max_strikes=2)  # wide enough that the proto bots never time out
    match = ref.arena().wait(ref.arena().create("mizerka-short", ids, seed="silent", clock=clock), timeout_s=60)
    assert match.status == FINISHED
    record = match.results[0].seats[0]
    assert (record.timeouts, record.forfeited, record.disconnected) == (2, True, False)
    events = [o for _, a, o in lines(transcript) if a == "<" and o["type"] == "event"]
    assert [e["reason"] for e in events if e["event"] == "default_applied"][:2] == ["timeout", "timeout"]
    assert [e["strikes"] for e in events if e["event"] == "strike_counted"] == [1, 2]


def test_a_program_that_keeps_exiting_makes_the_bridge_give_up(ref: Referee, tmp_path: Path) -> None:
    program = write_program(tmp_path, "quit.py", "import sys\nprint('quit.py: bye', file=sys.stderr)\nsys.exit(4)\n")
    _, _, log = stdio_bot(ref, "quitter", program, tmp_path, "--max-restarts", "1")
    bridge = ref.procs[-1]
    assert bridge.wait(timeout=20) == 1
    text = log.read_text()
    assert text.count("quit.py: bye") == 2
    assert "exited 2 times in a row without finishing a game (last exit code 4); giving up" in text


def test_an_error_lines_code_is_the_wire_enums_name_and_an_old_referees_text() -> None:
    """The code comes from ActionError.error_code; a referee older than that field sent only the text."""
    new = referee_pb2.ActionError(turn=3, error_code=referee_pb2.ACTION_ERROR_CODE_MUST_FOLLOW, code="ignored", message="m")
    old = referee_pb2.ActionError(turn=3, code="CARD_NOT_HELD", message="m")
    assert error_line(new)["code"] == "MUST_FOLLOW"
    assert error_line(old)["code"] == "CARD_NOT_HELD"
    assert error_line(old, code=referee_pb2.ACTION_ERROR_CODE_MALFORMED, source="bridge")["code"] == "MALFORMED"
