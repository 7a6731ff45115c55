"""The Python bot SDK (clients/python/mizerka): Turn, Bot/FunctionBot, the fallback policy, cards,
and the client runtime against a fake Referee on a real grpc.aio server (127.0.0.1, port 0).

No timing assertions: every wait is bounded by a generous timeout and only guards against hangs.
"""

from __future__ import annotations

import asyncio
import importlib
import threading

import grpc
import grpc.aio
import pytest

import mizerka
from mizerka import cards, told
from mizerka.bot import MAX_BOT_ATTEMPTS
from mizerka.bots import BOTS, HeuristicBot, RandomBot, make_factory
from mizerka.connection import Connection
from mizerka.runtime import Backoff, _Runner
from mizerka.stdio.codec import answer_json, decide_line
from mizerka_engine.game import Game, default_action
from mizerka_engine.rules import PRESETS, load_ruleset
from mizerka_engine.views import project
from mizerka_proto import events_pb2, game_pb2, referee_pb2, referee_pb2_grpc
from server.codec import protocol

GOOD = "tok-good"
HANG = 30  # seconds: a bound against hangs, never a timing assertion


# ----------------------------------------------------------------------------- helpers
def requests_of(preset: str, seed: int = 1, **options) -> list[referee_pb2.DecisionRequest]:
    """Every DecisionRequest of one game played with the default action, as the referee builds them."""
    rules = load_ruleset(preset, options)
    game = Game(rules, seed=seed)
    names = [f"bot{s}" for s in range(rules.players)]
    out = []
    turn = 0
    while not game.finished:
        decision = game.decision()
        turn += 1
        out.append(protocol.decision_to_proto(turn, decision, project(game, decision.seat), 1500, 9000, names, rules))
        game.apply(decision.seat, default_action(decision))
    return out


def first(requests, kind: str, pred=lambda t: True) -> mizerka.Turn:
    for r in requests:
        t = mizerka.Turn(r)
        if t.kind == kind and pred(t):
            return t
    raise AssertionError(f"no {kind} turn found")


@pytest.fixture(scope="module")
def mizerka_requests():
    return requests_of("mizerka", seed=5)


# ----------------------------------------------------------------------------- cards
def test_card_helpers():
    assert cards.normalize("10d") == "TD" and cards.normalize(" as ") == "AS"
    with pytest.raises(ValueError):
        cards.normalize("1Z")
    assert cards.parse("QH") == (10, "H") and cards.rank("2C") == 0 and cards.suit("AS") == "S"
    assert cards.sort_cards(["AS", "2H", "3S", "KC"]) == ["3S", "AS", "2H", "KC"]
    assert cards.sort_cards(["3S", "AS"], descending=True) == ["AS", "3S"]
    assert cards.by_suit(["AS", "3S", "2H"])["S"] == ["3S", "AS"]
    assert cards.highest(["3S", "AH", "KS"]) == "AH" and cards.lowest(["3S", "AH", "2D"]) == "2D"
    assert len(cards.DECK) == 52 == len(set(cards.DECK))


def test_sdk_does_not_import_the_server():
    """Nothing of the server, but the rules engine in the expert bot (an optional dependency)."""
    import ast
    from pathlib import Path

    root = Path(mizerka.__file__).parent
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text())
        engine_allowed = path in (root / "bots" / "expert.py", root / "bots" / "determinize.py")
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for n in names:
                if engine_allowed and (n == "mizerka_engine" or n.startswith("mizerka_engine.")):
                    continue
                assert not (n == "server" or n.startswith("server.")), f"{path} imports {names}"


@pytest.mark.parametrize("package", ["mizerka", "mizerka.stdio"])
def test_the_package_names_load_on_first_use_and_are_the_submodules_own(package: str) -> None:
    """``mizerka.X`` is loaded by the package's ``__getattr__`` from the module _HOMES names: each
    public name has a home, and is that home's object."""
    lazy = importlib.import_module(package)
    assert set(lazy.__all__) == set(lazy._HOMES), set(lazy.__all__) ^ set(lazy._HOMES)
    for name, home in lazy._HOMES.items():
        module = importlib.import_module(home)
        assert getattr(lazy, name) is (module if home == f"{package}.{name}" else getattr(module, name)), name
        assert name in dir(lazy)
    with pytest.raises(AttributeError, match=f"module '{package}' has no attribute 'Bots'"):
        lazy.Bots  # noqa: B018


# ------------------------------------------------------------------------------ Turn
def test_turn_contract_accessors_and_builder(mizerka_requests):
    t = first(mizerka_requests, mizerka.CONTRACT)
    assert t.number == 1 and t.kind == "contract" and t.seat == 0 and t.players == 3
    assert len(t.hand) == 6 and all(cards.is_card(c) for c in t.hand)  # choose_after = 6
    assert t.hand_size == 13 and t.is_declarer and t.position == 0
    assert [name for name, _ in t.legal_contracts] == ["spades", "hearts", "diamonds", "clubs", "notrump", "mizerka"]
    assert t.unused_contracts == [n for n, _ in t.legal_contracts] and t.used_contracts == []
    assert t.contract is None and t.trump is None and t.quotas == [None, None, None]
    assert t.preset == "mizerka" and t.ruleset.players == 3 and t.time_left_ms == 1500 and t.bank_ms == 9000
    a = t.choose("hearts")
    assert a.turn == 1 and a.choose_contract.contract == "hearts" and a.choose_contract.trump == ""
    assert t.fallback() == t.legal_actions[0]
    # Later contract turns know what each seat has used.
    late = [mizerka.Turn(r) for r in mizerka_requests if mizerka.Turn(r).kind == "contract"][-1]
    assert len(late.legal_contracts) == 1 and len(late.used_contracts) == 5


def test_turn_play_accessors(mizerka_requests):
    t = first(mizerka_requests, mizerka.PLAY, lambda t: len(t.trick) == 2)
    assert t.kind == "play" and not t.leading and t.to_play_after_me == 0
    led = t.led_suit
    assert led == t.trick[0][1][1]
    assert set(t.legal_cards) <= set(t.hand)
    if any(c[1] == led for c in t.hand):
        assert all(c[1] == led for c in t.legal_cards)
    seat, card = t.winning
    assert (seat, card) in t.trick and seat == t.view.tricks[-1].winning == t.current_trick.winning
    assert t.contract is not None and t.contract_info is not None
    assert t.contract_info.name == t.contract_name == t.contract
    assert t.minus == t.contract_info.minus and not t.is_major
    assert all(q is not None for q in t.quotas) and sum(t.quotas) == 13
    assert sum(t.tricks_won) == len(t.completed_tricks)
    assert set(t.trick_cards) <= t.played_cards
    a = t.play(t.legal_cards[0].lower())
    assert a.turn == t.number and a.play_card.card == t.legal_cards[0]
    leader = first(mizerka_requests, mizerka.PLAY, lambda t: t.leading)
    assert leader.led_suit is None and leader.winning is None and leader.trick == []


def test_turn_reads_winner_major_and_minus_from_the_wire():
    """Who wins the trick so far, a major and a minus contract are the referee's fields, not
    worked out from the cards or the label."""
    view = game_pb2.SeatView(
        seat=2, contract="hearts major", contract_name="hearts", contract_major=True, trump="H",
        players=[game_pb2.PlayerState(seat=s, quota=14 if s == 1 else 1) for s in range(3)],
        tricks=[game_pb2.Trick(leader=0, plays=[game_pb2.TrickPlay(seat=0, card="TS"),
                                                game_pb2.TrickPlay(seat=1, card="2H")], winning=1)],
    )
    ruleset = load_ruleset("manni-major")
    t = mizerka.Turn(referee_pb2.DecisionRequest(
        turn=4, kind=referee_pb2.DECISION_KIND_PLAY, view=view, ruleset=protocol.ruleset_to_proto(ruleset)
    ))
    assert t.winning == (1, "2H") and t.current_trick.winning_card == "2H" and t.to_play_after_me == 0
    assert t.is_major and not t.minus and t.contract_info.name == "hearts" and t.quotas == [1, 14, 1]
    view.ClearField("tricks")
    view.contract, view.contract_name, view.contract_major, view.contract_minus = "null", "null", False, True
    t = mizerka.Turn(referee_pb2.DecisionRequest(turn=5, kind=referee_pb2.DECISION_KIND_PLAY, view=view))
    assert t.minus and not t.is_major and t.winning is None and t.current_trick is None and t.leading


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_turn_tells_the_referees_default_and_trick_flags(preset: str) -> None:
    """``turn.default_action`` is the request's default_action (a copy, ready to send) and
    ``turn.takes_trick(card)`` its takes_trick entry for that card; the stdio decide line carries
    the same. A request from an older referee (the fields cleared) gets the same from the SDK's
    one fallback (mizerka.told), derived from the rest of the request."""
    seen: set[bool | str] = set()
    for request in requests_of(preset, seed=7):
        t = mizerka.Turn(request)
        default = t.default_action
        assert default == request.default_action and default.turn == t.number
        default.turn += 1  # a copy: the request is untouched
        assert request.default_action.turn == t.number and t.fallback() == request.default_action
        line = decide_line(request)
        assert line["default"] == answer_json(request.default_action)
        if t.kind == mizerka.PLAY:
            flags = [t.takes_trick(c) for c in t.legal_cards]
            assert flags == list(request.takes_trick) == line["takes_trick"]
            seen.update(flags if t.trick else ["lead"])
            held = next(c for c in cards.DECK if c not in t.legal_cards)
            with pytest.raises(ValueError, match="not one of your legal cards"):
                t.takes_trick(held)
        else:
            assert "takes_trick" not in line
        older = referee_pb2.DecisionRequest()
        older.CopyFrom(request)
        older.ClearField("default_action")
        older.ClearField("takes_trick")
        assert told.default_action(older) == request.default_action
        assert told.takes_trick(older) == list(request.takes_trick)
        assert decide_line(older) == line
    assert seen == {"lead", True, False}


def test_turn_exchange_and_pick():
    t = first(requests_of("mizerka", seed=2), mizerka.EXCHANGE)
    assert t.kind == "exchange" and not t.pick and t.talon == [] and t.max_exchange == 13
    assert t.legal_actions == [] or len(t.legal_actions) == 0
    assert len(t.hand) == 13
    a = t.exchange(discard=t.hand[:2])
    assert a.turn == t.number and list(a.exchange_cards.discard) == t.hand[:2] and not a.exchange_cards.take
    assert t.fallback().exchange_cards == game_pb2.ExchangeCards() and t.fallback().HasField("exchange_cards")
    p = first(requests_of("trjamann", seed=2), mizerka.EXCHANGE)
    assert p.pick and len(p.talon) == 4 and p.max_exchange == 4
    a = p.exchange(discard=p.hand[:1], take=p.talon[:1])
    assert list(a.exchange_cards.take) == p.talon[:1]


def test_turn_trumps_choice_and_majors():
    t = first(requests_of("spoileri", seed=3), mizerka.CONTRACT)
    assert ("trumps", "H") in t.legal_contracts and ("spades", None) in t.legal_contracts
    a = t.choose("trumps", trump="h")
    assert a.choose_contract.trump == "H"
    reqs = requests_of("manni-major", seed=4)
    m = first(reqs, mizerka.MAJOR)
    assert m.kind == "major" and m.contract is not None
    assert m.pass_major().announce_major.contract == "" and m.pass_major().turn == m.number
    assert m.major("hearts").announce_major.contract == "hearts"
    assert m.fallback() == m.pass_major()  # never a major by default, even when one is listed first
    listed = first(reqs, mizerka.MAJOR, lambda t: bool(t.legal_majors))
    assert listed.legal_actions[0].announce_major.contract and listed.fallback() == listed.pass_major()
    assert all(name for name in m.legal_majors)


def test_to_action_coercions_and_bad_answers(mizerka_requests):
    play = first(mizerka_requests, mizerka.PLAY)
    card = play.legal_cards[0]
    assert play.to_action(card).play_card.card == card
    other = game_pb2.Action(turn=999, play_card=game_pb2.PlayCard(card=card))
    assert play.to_action(other).turn == play.number  # the turn is filled in
    with pytest.raises(mizerka.BadAction):
        play.to_action(game_pb2.Action(choose_contract=game_pb2.ChooseContract(contract="hearts")))
    with pytest.raises(mizerka.BadAction):
        play.to_action(42)
    with pytest.raises(mizerka.BadAction):
        play.to_action(game_pb2.Action())
    contract = first(mizerka_requests, mizerka.CONTRACT)
    assert contract.to_action(("hearts", None)).choose_contract.contract == "hearts"
    assert contract.to_action("notrump").choose_contract.contract == "notrump"
    ex = first(mizerka_requests, mizerka.EXCHANGE)
    assert list(ex.to_action(ex.hand[:1]).exchange_cards.discard) == ex.hand[:1]
    assert ex.to_action(None).HasField("exchange_cards")


# ----------------------------------------------------------------------- bots and answers
def test_function_bot_and_per_kind_methods(mizerka_requests):
    play = first(mizerka_requests, mizerka.PLAY)
    bot = mizerka.FunctionBot(lambda t: t.play(t.legal_cards[-1]), name="last")
    assert bot.name == "last"
    ans = mizerka.answer(bot, play)
    assert not ans.fallback and ans.action.play_card.card == play.legal_cards[-1]

    class Shorthand(mizerka.Bot):
        def play(self, turn):
            return turn.legal_cards[-1]  # a bare card string is fine

    ans = mizerka.answer(Shorthand(), play)
    assert not ans.fallback and ans.action.play_card.card == play.legal_cards[-1]
    # Per-kind methods not written answer safely.
    ex = first(mizerka_requests, mizerka.EXCHANGE)
    assert mizerka.answer(Shorthand(), ex).action.exchange_cards == game_pb2.ExchangeCards()


def test_fallback_when_decide_raises_or_answers_garbage(mizerka_requests):
    def boom(turn):
        raise RuntimeError("bug")

    for kind in (mizerka.CONTRACT, mizerka.EXCHANGE, mizerka.PLAY):
        t = first(mizerka_requests, kind)
        ans = mizerka.answer(mizerka.FunctionBot(boom), t)
        assert ans.fallback and ans.action == t.fallback() and ans.action.turn == t.number
        ans = mizerka.answer(mizerka.FunctionBot(lambda t: {"card": "AS"}), t)
        assert ans.fallback and ans.action == t.fallback()
    t = first(mizerka_requests, mizerka.PLAY)
    assert mizerka.answer(mizerka.FunctionBot(boom), t).action.play_card.card == t.legal_cards[0]


def test_retry_policy_is_bounded(mizerka_requests):
    t = first(mizerka_requests, mizerka.PLAY, lambda t: len(t.legal_cards) >= 2)
    wrong = t.play("AS" if "AS" not in t.hand else "2S")
    errors = []

    class Stubborn(mizerka.Bot):
        def decide(self, turn):
            return wrong

        def on_error(self, error, turn):
            errors.append((error.code, turn))

    bot = Stubborn()
    sent = [mizerka.answer(bot, t).action]
    err = referee_pb2.ActionError(turn=t.number, code="CARD_NOT_HELD", retry=True, time_left_ms=700, bank_ms=100)
    nxt = mizerka.retry_answer(bot, t, err, sent)
    # The bot repeats the refused answer: the SDK sends the fallback instead.
    assert nxt.fallback and nxt.action == t.fallback()
    assert errors[0][0] == "CARD_NOT_HELD" and errors[0][1] is t and t.attempt == 1 and t.time_left_ms == 700
    assert mizerka.retry_answer(bot, t, err, sent) is None  # even the fallback refused: stop
    assert len(sent) == 2
    no_retry = referee_pb2.ActionError(turn=t.number, code="MUST_FOLLOW", retry=False)
    assert mizerka.retry_answer(bot, t, no_retry, [wrong]) is None
    assert errors[-1][1] is None  # nothing pending: on_error gets no turn


def test_retry_asks_the_bot_again_first(mizerka_requests):
    t = first(mizerka_requests, mizerka.PLAY, lambda t: len(t.legal_cards) >= 2)
    answers = iter(["KS" if "KS" not in t.hand else "KH", t.legal_cards[1]])
    bot = mizerka.FunctionBot(lambda turn: next(answers))
    sent = [mizerka.answer(bot, t).action]
    nxt = mizerka.retry_answer(bot, t, referee_pb2.ActionError(turn=t.number, code="CARD_NOT_HELD", retry=True), sent)
    assert not nxt.fallback and nxt.action.play_card.card == t.legal_cards[1]
    assert MAX_BOT_ATTEMPTS == len(sent) == 2


def test_bot_registry_and_factory():
    assert {"random", "heuristic"} <= set(BOTS)
    assert isinstance(make_factory("heuristic")(), HeuristicBot)
    f = make_factory("random", seed=3)
    a, b = f(), f()
    assert isinstance(a, RandomBot) and a.rng.random() != b.rng.random()
    with pytest.raises(KeyError):
        make_factory("nope")


def test_launch_settings(monkeypatch):
    monkeypatch.setenv("MIZERKA_SERVER", "ref.example:1234")
    monkeypatch.setenv("MIZERKA_TOKEN", "envtok")
    assert mizerka.launch_settings() == ("ref.example:1234", "envtok")
    assert mizerka.launch_settings("h:1", "t") == ("h:1", "t")
    monkeypatch.delenv("MIZERKA_SERVER")
    monkeypatch.delenv("MIZERKA_TOKEN")
    assert mizerka.launch_settings(token="x") == (mizerka.DEFAULT_SERVER, "x")
    with pytest.raises(mizerka.MizerkaError, match="MIZERKA_TOKEN"):
        mizerka.launch_settings()


# ------------------------------------------------------------------------ fake referee
def _request(turn: int) -> referee_pb2.DecisionRequest:
    hand = ["2S", "AS", "3H"]
    view = game_pb2.SeatView(
        audience=game_pb2.AUDIENCE_SEAT, seat=1, phase=game_pb2.PHASE_PLAY, to_act=1, declarer=0, contract="notrump",
        players=[game_pb2.PlayerState(seat=0, hand_count=3),
                 game_pb2.PlayerState(seat=1, hand_known=True, hand=hand, hand_count=3),
                 game_pb2.PlayerState(seat=2, hand_count=3)],
        tricks=[game_pb2.Trick(leader=0, plays=[game_pb2.TrickPlay(seat=0, card="KS")])],
    )
    return referee_pb2.DecisionRequest(
        turn=turn, kind=referee_pb2.DECISION_KIND_PLAY, view=view,
        legal_actions=[game_pb2.Action(turn=turn, play_card=game_pb2.PlayCard(card=c)) for c in ("2S", "AS")],
        time_left_ms=2000, bank_ms=10000,
    )


class FakeReferee(referee_pb2_grpc.RefereeServicer):
    """Per stream: Hello -> Welcome, then ``games`` games of one decision each, then idle until the
    client leaves. ``refuse_first``: the first Action of each stream gets ActionError(retry)."""

    def __init__(self, games: int = 1, refuse_first: bool = False, token: str = GOOD, play: bool = True) -> None:
        self.games = games
        self.refuse_first = refuse_first
        self.token = token
        self.play = play
        self.hellos: list[referee_pb2.Hello] = []
        self.actions: list[game_pb2.Action] = []
        self.streams_ended = 0
        self.welcomed = asyncio.Event()

    async def Play(self, request_iterator, context):  # noqa: N802 (gRPC method name)
        try:
            msg = await context.read()
            self.hellos.append(msg.hello)
            if msg.hello.token != self.token:
                await context.abort(grpc.StatusCode.UNAUTHENTICATED, "unknown token")
            await context.write(referee_pb2.RefereeMessage(welcome=referee_pb2.Welcome(
                bot_id="bot-1", name=msg.hello.name, max_message_bytes=4 << 20, server_version="fake")))
            self.welcomed.set()
            if not self.play:
                await asyncio.Event().wait()  # idle until stopped
            for g in range(self.games):
                await context.write(referee_pb2.RefereeMessage(game_start=referee_pb2.GameStart(
                    match_id="m1", game_number=g, games=self.games, seat=1, names=["a", "b", "c"],
                    ruleset=game_pb2.Ruleset(preset="mizerka", players=3, hand_size=13))))
                await context.write(referee_pb2.RefereeMessage(event_batch=referee_pb2.EventBatch(events=[events_pb2.Event(
                    card_played=events_pb2.CardPlayed(seat=0, card="KS"))])))
                turn = 10 * g + 5
                await context.write(referee_pb2.RefereeMessage(decision_request=_request(turn)))
                reply = await context.read()
                self.actions.append(reply.action)
                if self.refuse_first and g == 0:
                    await context.write(referee_pb2.RefereeMessage(action_error=referee_pb2.ActionError(
                        turn=turn, code="CARD_NOT_HELD", message="no", retry=True, time_left_ms=1000, bank_ms=10000)))
                    reply = await context.read()
                    self.actions.append(reply.action)
                await context.write(referee_pb2.RefereeMessage(game_end=referee_pb2.GameEnd(
                    match_id="m1", game_number=g, seat=1, rank=1, totals=[1, 2, -3])))
            while await context.read() is not grpc.aio.EOF:
                pass
        finally:
            self.streams_ended += 1


async def start_server(servicer, port: int = 0) -> tuple[grpc.aio.Server, int]:
    server = grpc.aio.server()
    referee_pb2_grpc.add_RefereeServicer_to_server(servicer, server)
    port = server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    return server, port


class Recorder(mizerka.Bot):
    """Answers AS first (refused by the fake referee when it refuses), then the lowest legal card."""

    name = "recorder"
    version = "9.9"

    def __init__(self) -> None:
        self.log: list[str] = []

    def on_game_start(self, start):
        self.log.append(f"start {start.game_number}")

    def on_event(self, event):
        self.log.append(f"event {event.WhichOneof('kind')}")

    def play(self, turn):
        self.log.append(f"play {turn.number} attempt {turn.attempt}")
        return turn.play("AS" if turn.attempt == 0 else turn.legal_cards[0])

    def on_error(self, error, turn):
        self.log.append(f"error {error.code} {turn.number if turn else None}")

    def on_game_end(self, end):
        self.log.append(f"end {end.game_number}")


# ------------------------------------------------------------------------ BotSession
def _msg(**kind) -> referee_pb2.RefereeMessage:
    return referee_pb2.RefereeMessage(**kind)


def _sent(replies: list[referee_pb2.BotMessage]) -> list[tuple[int, str]]:
    return [(r.action.turn, r.action.play_card.card) for r in replies]


def test_bot_session_passes_each_message_kind_to_the_bot():
    bot = Recorder()
    session = mizerka.BotSession(bot)
    start = referee_pb2.GameStart(match_id="m", game_number=0, seat=1, ruleset=game_pb2.Ruleset(preset="mizerka"))
    assert session.handle(_msg(welcome=referee_pb2.Welcome(bot_id="b"))) == []
    assert session.handle(_msg(game_start=start)) == []
    batch = referee_pb2.EventBatch(events=[events_pb2.Event(card_played=events_pb2.CardPlayed(seat=0, card="KS"))])
    assert session.handle(_msg(event_batch=batch)) == []
    request = _request(5)
    request.events.add(trick_won=events_pb2.TrickWon(winner=0, trick=0))  # folded in: before the decision
    replies = session.handle(_msg(decision_request=request))
    assert _sent(replies) == [(5, "AS")] and not session.answer.fallback
    assert session.turn.number == 5 and session.turn.preset == "mizerka"  # the ruleset from GameStart
    assert session.handle(_msg(game_end=referee_pb2.GameEnd(game_number=0, rank=1))) == []
    assert session.turn is None and session.answer is None
    assert bot.log == ["start 0", "event card_played", "event trick_won", "play 5 attempt 0", "end 0"]
    with pytest.raises(TypeError):
        mizerka.BotSession(object())  # type: ignore[arg-type]


def test_bot_session_retries_are_bounded():
    class Stubborn(Recorder):
        def play(self, turn):
            self.log.append(f"play {turn.number} attempt {turn.attempt}")
            return turn.play("AS")  # never held: refused every time

    bot = Stubborn()
    session = mizerka.BotSession(bot)
    assert _sent(session.handle(_msg(decision_request=_request(7)))) == [(7, "AS")]
    refused = _msg(action_error=referee_pb2.ActionError(turn=7, code="CARD_NOT_HELD", retry=True))
    # Asked again, the bot repeats the refused card: the SDK sends the fallback (the first legal card) once...
    assert _sent(session.handle(refused)) == [(7, "2S")] and session.answer.fallback
    # ... and after the fallback is refused too, nothing more: the referee applies its default.
    for _ in range(3):
        assert session.handle(refused) == []
    assert session.turn is None
    assert bot.log == ["play 7 attempt 0", "error CARD_NOT_HELD 7", "play 7 attempt 1", "error CARD_NOT_HELD 7",
                       "error CARD_NOT_HELD None", "error CARD_NOT_HELD None"]


def test_bot_session_asks_the_bot_again_after_a_refusal():
    bot = Recorder()  # AS first, then the lowest legal card
    session = mizerka.BotSession(bot)
    session.handle(_msg(decision_request=_request(5)))
    refused = _msg(action_error=referee_pb2.ActionError(turn=5, code="CARD_NOT_HELD", retry=True))
    assert _sent(session.handle(refused)) == [(5, "2S")] and not session.answer.fallback
    assert bot.log[-2:] == ["error CARD_NOT_HELD 5", "play 5 attempt 1"]


def test_bot_session_ignores_stale_and_final_errors():
    bot = Recorder()
    session = mizerka.BotSession(bot)
    session.handle(_msg(decision_request=_request(5)))
    stale = _msg(action_error=referee_pb2.ActionError(turn=4, code="STALE_TURN", retry=False))
    assert session.handle(stale) == [] and session.turn.number == 5  # turn 5 still waits for its verdict
    final = _msg(action_error=referee_pb2.ActionError(turn=5, code="MUST_FOLLOW", retry=False))
    assert session.handle(final) == [] and session.turn is None
    assert bot.log[-2:] == ["error STALE_TURN None", "error MUST_FOLLOW None"]
    # A refusal with retry for a turn that is no longer pending is not answered either.
    assert session.handle(_msg(action_error=referee_pb2.ActionError(turn=5, code="X", retry=True))) == []


def test_bot_session_survives_a_bot_that_raises():
    class Broken(mizerka.Bot):
        def decide(self, turn):
            raise RuntimeError("bug")

        def on_event(self, event):
            raise RuntimeError("hook bug")

    session = mizerka.BotSession(Broken())
    request = _request(3)
    request.events.add(card_played=events_pb2.CardPlayed(seat=0, card="KS"))
    assert _sent(session.handle(_msg(decision_request=request))) == [(3, "2S")]
    assert session.answer.fallback and "bug" in session.answer.reason


# ------------------------------------------------------------------------ reconnects
def test_backoff_grows_to_its_cap_with_jitter():
    backoff = Backoff(0.2, 1.0)
    for failures, top in [(0, 0.2), (1, 0.2), (2, 0.4), (3, 0.8), (4, 1.0), (50, 1.0)]:
        delays = [backoff.delay(failures) for _ in range(200)]
        assert all(top / 2 <= d <= top for d in delays), failures
        assert len(set(delays)) > 1  # jittered: bots cut off together do not come back together


@pytest.mark.asyncio
@pytest.mark.looptime
async def test_reconnect_pauses_follow_the_backoff_then_give_up():
    """On looptime's fake loop clock: the pauses take no real time and are measured exactly."""
    stats = mizerka.RunStats()
    no_streams = lambda index: pytest.fail("no stream is opened here")  # noqa: E731
    runner = _Runner(no_streams, Connection("ref:1"), GOOD, 1, None, stats, Backoff(1.0, 4.0), 3, 1 << 20)
    loop = asyncio.get_running_loop()
    for failures, top in [(1, 1.0), (2, 2.0), (3, 4.0)]:
        before = loop.time()
        await runner.pause_before_reconnect(0, failures, "UNAVAILABLE: down")
        assert top / 2 - 0.01 <= loop.time() - before <= top + 0.01
    before = loop.time()
    with pytest.raises(mizerka.MizerkaError, match="gave up after 3 reconnect attempts; last error: UNAVAILABLE"):
        await runner.pause_before_reconnect(0, 4, "UNAVAILABLE: down")
    assert loop.time() == before and stats.reconnects == 4


@pytest.mark.asyncio
@pytest.mark.parametrize("threaded", [True, False])
async def test_runtime_plays_answers_retries_and_stops(threaded):
    ref = FakeReferee(games=3, refuse_first=True)
    server, port = await start_server(ref)
    bots = []

    def factory():
        bots.append(Recorder())
        return bots[-1]

    try:
        stats = await asyncio.wait_for(
            mizerka.run_async(factory, f"127.0.0.1:{port}", GOOD, games=2, threaded=threaded), HANG)
    finally:
        await server.stop(None)
    assert [h.token for h in ref.hellos] == [GOOD]
    assert ref.hellos[0].name == "recorder" and ref.hellos[0].version == "9.9"
    # Turn 5: AS refused, then 2S; turn 15: AS. The third game is never played.
    assert [(a.turn, a.play_card.card) for a in ref.actions] == [(5, "AS"), (5, "2S"), (15, "AS")]
    assert stats.games == 2 and stats.decisions == 2 and stats.refusals == 1 and stats.fallbacks == 0
    assert stats.connects == 1 and stats.reconnects == 0
    assert bots[0].log == [
        "start 0", "event card_played", "play 5 attempt 0", "error CARD_NOT_HELD 5", "play 5 attempt 1", "end 0",
        "start 1", "event card_played", "play 15 attempt 0", "end 1",
    ]


@pytest.mark.asyncio
async def test_runtime_parallel_streams_share_the_game_limit():
    ref = FakeReferee(games=1)
    server, port = await start_server(ref)
    try:
        stats = await asyncio.wait_for(
            mizerka.run_async(Recorder, f"127.0.0.1:{port}", GOOD, parallel=3, games=3), HANG)
    finally:
        await server.stop(None)
    assert len(ref.hellos) == 3 and {h.token for h in ref.hellos} == {GOOD}
    assert stats.games == 3 and stats.connects == 3 and len(ref.actions) == 3


@pytest.mark.asyncio
async def test_runtime_falls_back_when_the_bot_raises():
    ref = FakeReferee(games=1)
    server, port = await start_server(ref)

    def broken(turn):
        raise ValueError("oops")

    try:
        stats = await asyncio.wait_for(
            mizerka.run_async(lambda: mizerka.FunctionBot(broken), f"127.0.0.1:{port}", GOOD, games=1), HANG)
    finally:
        await server.stop(None)
    assert [(a.turn, a.play_card.card) for a in ref.actions] == [(5, "2S")]  # the first legal action
    assert stats.fallbacks == 1


@pytest.mark.asyncio
async def test_runtime_unauthenticated_is_a_clear_error():
    ref = FakeReferee(token="something-else")
    server, port = await start_server(ref)
    try:
        with pytest.raises(mizerka.RefereeRefused) as info:
            await asyncio.wait_for(mizerka.run_async(Recorder, f"127.0.0.1:{port}", "bad-token", games=1), HANG)
    finally:
        await server.stop(None)
    assert info.value.code == grpc.StatusCode.UNAUTHENTICATED
    assert "UNAUTHENTICATED" in str(info.value) and "token" in str(info.value) and "unknown token" in str(info.value)
    assert len(ref.hellos) == 1  # no retry with a bad token


@pytest.mark.asyncio
async def test_runtime_reconnects_after_the_server_restarts():
    idle = FakeReferee(play=False)
    server, port = await start_server(idle)
    task = asyncio.create_task(mizerka.run_async(
        Recorder, f"127.0.0.1:{port}", GOOD, games=1, backoff_initial=0.02, backoff_max=0.2, max_reconnects=100))
    try:
        await asyncio.wait_for(idle.welcomed.wait(), HANG)
        await server.stop(None)  # the referee goes away mid-stream
        await asyncio.sleep(0.1)
        ref = FakeReferee(games=1)
        server, _ = await start_server(ref, port)  # ... and comes back on the same address
        stats = await asyncio.wait_for(task, HANG)
    finally:
        task.cancel()
        await server.stop(None)
    assert stats.connects == 2 and stats.reconnects >= 1 and stats.games == 1
    assert [(a.turn, a.play_card.card) for a in ref.actions] == [(5, "AS")]


@pytest.mark.asyncio
async def test_runtime_gives_up_after_max_reconnects():
    server, port = await start_server(FakeReferee())
    await server.stop(None)  # nothing listens on this port any more
    with pytest.raises(mizerka.MizerkaError, match="gave up after 2 reconnect attempts"):
        await asyncio.wait_for(mizerka.run_async(
            Recorder, f"127.0.0.1:{port}", GOOD, backoff_initial=0.01, backoff_max=0.02, max_reconnects=2), HANG)


@pytest.mark.asyncio
async def test_runtime_cancellation_closes_the_streams():
    ref = FakeReferee(play=False)
    server, port = await start_server(ref)
    task = asyncio.create_task(mizerka.run_async(Recorder, f"127.0.0.1:{port}", GOOD, parallel=2))
    try:
        while len(ref.hellos) < 2:
            await asyncio.wait_for(ref.welcomed.wait(), HANG)
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, HANG)
        for _ in range(HANG * 100):  # the server sees both streams end
            if ref.streams_ended == 2:
                break
            await asyncio.sleep(0.01)
        assert ref.streams_ended == 2
    finally:
        await server.stop(None)


def test_cli_main_plays_and_reports_refusal(capsys):
    """``mizerka-bot NAME --server --token --games`` (the function the server CLI calls)."""
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    holder: dict = {}

    async def serve():
        ref = FakeReferee(games=1)
        server, port = await start_server(ref)
        holder.update(ref=ref, server=server, port=port, stop=asyncio.Event())
        ready.set()
        await holder["stop"].wait()
        await server.stop(None)

    thread = threading.Thread(target=lambda: loop.run_until_complete(serve()), daemon=True)
    thread.start()
    try:
        assert ready.wait(HANG)
        addr = f"127.0.0.1:{holder['port']}"
        assert mizerka.main(["heuristic", "--server", addr, "--token", GOOD, "--games", "1"]) == 0
        assert holder["ref"].actions[0].play_card.card in ("2S", "AS")
        assert mizerka.main(["random", "--server", addr, "--token", "nope", "--games", "1"]) == 1
        assert "UNAUTHENTICATED" in capsys.readouterr().err
    finally:
        loop.call_soon_threadsafe(holder["stop"].set)
        thread.join(HANG)
