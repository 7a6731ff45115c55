"""The wire contract (proto/mizerka/v1) and its one converter (server/codec/protocol.py).

- actions round-trip engine -> wire -> bytes -> wire -> engine, and junk is MALFORMED;
- whole random games of every preset run through the wire (every action travels as an Action),
  and after every action each audience's SeatView converts and discloses exactly the cards the
  engine's projection does (a seat never gets a card its engine view lacks);
- events carry no card the seat may not know; full records rebuild every deal;
- every DecisionRequest's default_action is the engine's, legal, and what the referee plays on a
  timeout; its takes_trick flags are the engine's judgement; both follow from what the request
  shows the seat (its legal actions, the trick in progress, the trump), so they tell nothing hidden;
- the committed stubs are what protoc makes of the committed .proto files (no drift), and every
  message, field, enum value, oneof and rpc of the .proto files has a comment.
"""

from __future__ import annotations

import filecmp
import importlib.util
import random
from pathlib import Path

import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory, struct_pb2

from mizerka_engine.cards import CARD_TEXT, RANKS, CardError, parse_card
from mizerka_engine.events import (
    DealScored,
    Dealt,
    Exchanged,
    GameOver,
    MajorAnnounced,
    Played,
    Revoked,
    Settled,
    TrickTaken,
    contract_label,
)
from mizerka_engine.game import (
    PASS,
    ActionErrorCode,
    Choose,
    Exchange,
    Game,
    IllegalAction,
    Major,
    Phase,
    Play,
    default_action,
    ranks,
    trick_winner,
)
from mizerka_engine.rules import PRESETS, load_ruleset
from mizerka_engine.views import FULL, SPECTATOR, cards_in, project, project_events
from mizerka_proto import events_pb2, game_pb2, referee_pb2
from server.codec import protocol as P
from server.codec import wire_events as W
from server.policies import DefaultReason, random_action
from server.referee.offline import play
from server.settings import ClockSettings

ROOT = Path(__file__).resolve().parents[1]
PROTO_DIR = ROOT / "proto"
STUB_DIR = ROOT / "proto" / "python" / "mizerka_proto"
NAMES = ["north-bot", "east-bot", "south-bot", "west-bot"]


# ----------------------------------------------------------------------------- helpers
def wire(action, turn: int = 7):
    """engine action -> Action message -> bytes -> Action message -> engine action."""
    msg = P.action_to_proto(action, turn)
    back = game_pb2.Action.FromString(msg.SerializeToString())
    assert back.turn == turn
    return P.action_from_proto(back)


def proto_cards(msg) -> set[int]:
    """Every card anywhere in a message: each string field (at any depth) that parses as a card.

    Generic on purpose, so a field added later cannot leak unnoticed. Names used in these tests
    never parse as cards.
    """
    found: set[int] = set()
    stack = [msg]
    while stack:
        m = stack.pop()
        for field, value in m.ListFields():
            if field.type == field.TYPE_MESSAGE:
                if field.is_repeated:
                    stack.extend(value)
                else:
                    stack.append(value)
            elif field.type == field.TYPE_STRING:
                for text in value if field.is_repeated else (value,):
                    try:
                        found.add(parse_card(text))
                    except CardError:
                        pass
    return found


def book_winner(trick: game_pb2.Trick, trump: str) -> int:
    """The seat winning ``trick`` so far as docs/rules.md §4.5 words it -- the highest trump, else the highest
    card of the suit led -- written apart from the engine's loop, to check Trick.winning against."""
    plays = list(trick.plays)
    suit = trump if any(p.card[1] == trump for p in plays) else plays[0].card[1]
    return max((p for p in plays if p.card[1] == suit), key=lambda p: RANKS.index(p.card[0])).seat


def check_contract_and_tricks(msg: game_pb2.SeatView, game: Game) -> None:
    """The settled contract's name, major and minus flags, and every trick's winning seat."""
    shown = (game.contract or game.announced) if msg.contract else None
    assert msg.contract_name == (shown.name if shown else "")
    assert msg.contract_major == (shown is not None and game.major)
    assert msg.contract_minus == (shown is not None and shown.minus)
    assert msg.contract == contract_label(msg.contract_name, msg.contract_major)
    for t in msg.tricks:
        assert t.HasField("winning") and t.winning == book_winner(t, msg.trump)
        assert not t.HasField("winner") or t.winner == t.winning


def told_default(req: referee_pb2.DecisionRequest):
    """DecisionRequest.default_action as the documented rule derives it from the request alone -- the
    first legal contract, a pass, no exchange, the lowest legal card (suit S, H, D, C, then rank) --
    so the field holds nothing the seat's own legal actions do not."""
    if req.kind == referee_pb2.DECISION_KIND_EXCHANGE:
        return Exchange((), None)
    if req.kind == referee_pb2.DECISION_KIND_MAJOR:
        return PASS
    if req.kind == referee_pb2.DECISION_KIND_PLAY:
        return Play(min(parse_card(a.play_card.card) for a in req.legal_actions))
    return P.action_from_proto(req.legal_actions[0])


def told_takes(req: referee_pb2.DecisionRequest) -> list[bool]:
    """DecisionRequest.takes_trick as docs/rules.md §4.5 judges it from the seat's SeatView alone (the
    trick in progress and the trump, :func:`book_winner`; a lead takes it): it depends on nothing else."""
    if req.kind != referee_pb2.DECISION_KIND_PLAY:
        return []
    view = req.view
    current = view.tricks[-1] if view.tricks and not view.tricks[-1].HasField("winner") else game_pb2.Trick()
    out = []
    for a in req.legal_actions:
        trick = game_pb2.Trick()
        trick.CopyFrom(current)
        trick.plays.add(seat=view.seat, card=a.play_card.card)
        out.append(book_winner(trick, view.trump) == view.seat)
    return out


def engine_takes(game: Game, card: int) -> bool:
    """Whether the engine, playing ``card`` for the seat to act on a copy, has that seat winning the
    trick so far (or taking it, where the card completes it)."""
    seat, probe = game.to_act, game.copy()
    probe.apply(seat, Play(card))
    taken = [e for e in probe.log[len(game.log):] if isinstance(e, TrickTaken)]
    return (taken[0].winner if taken else trick_winner(probe.trick, probe.trump)) == seat


def normal(action):
    """The engine treats a pick exchange's empty take like no take; compare modulo that."""
    if type(action) is Exchange and not action.take:
        return Exchange(tuple(action.discard), None)
    return action


# ------------------------------------------------------------------------------ actions
@pytest.mark.parametrize(
    "action",
    [
        Choose("hearts"),
        Choose("notrump"),
        Choose("trumps", 1),
        Choose("trumps", 0),
        Choose("no-such-contract"),
        Major("grand"),
        PASS,
        Exchange(()),
        Exchange((parse_card("AS"), parse_card("2C"))),
        Exchange((parse_card("TD"),), (parse_card("QH"),)),
        Play(parse_card("TD")),
    ],
    ids=repr,
)
def test_action_round_trip(action):
    assert normal(wire(action)) == normal(action)


def test_every_card_round_trips_and_interns():
    for c in range(52):
        assert wire(Play(c)) == Play(c)
        assert P.action_to_proto(Play(c)).play_card.card == CARD_TEXT[c]
    # Play actions come back as the engine's interned tuples (the engine compares by type).
    assert type(wire(Play(5))) is Play


def test_pick_exchange_with_empty_take_is_a_pass():
    assert wire(Exchange((), ())) == Exchange((), None)


def test_lenient_card_and_trump_spelling():
    msg = game_pb2.Action(play_card=game_pb2.PlayCard(card="10d"))
    assert P.action_from_proto(msg) == Play(parse_card("TD"))
    msg = game_pb2.Action(choose_contract=game_pb2.ChooseContract(contract="trumps", trump="h"))
    assert P.action_from_proto(msg) == Choose("trumps", 1)


@pytest.mark.parametrize(
    "msg",
    [
        game_pb2.Action(turn=3),
        game_pb2.Action(play_card=game_pb2.PlayCard(card="1Z")),
        game_pb2.Action(play_card=game_pb2.PlayCard(card="")),
        game_pb2.Action(play_card=game_pb2.PlayCard(card="AS AS")),
        game_pb2.Action(choose_contract=game_pb2.ChooseContract(contract="trumps", trump="X")),
        game_pb2.Action(choose_contract=game_pb2.ChooseContract(contract="trumps", trump="hearts")),
        game_pb2.Action(choose_contract=game_pb2.ChooseContract(contract="trumps", trump="HD")),
        game_pb2.Action(exchange_cards=game_pb2.ExchangeCards(discard=["AS", "ZZ"])),
        game_pb2.Action(exchange_cards=game_pb2.ExchangeCards(discard=["AS"], take=["11H"])),
    ],
    ids=lambda m: m.SerializeToString().hex() or "empty",
)
def test_malformed_actions(msg):
    with pytest.raises(P.ProtocolError) as info:
        P.action_from_proto(msg)
    assert info.value.code == "MALFORMED"
    assert info.value.message


def test_every_action_error_code_is_in_the_proto_enum_and_back() -> None:
    """The engine's ActionErrorCode is the one list: each code has its ACTION_ERROR_CODE_ value and the
    proto has no code the list lacks; error_to_proto fills the text and the enum with the same code,
    and nothing in the server builds an ActionError without it."""
    wire = {name.removeprefix("ACTION_ERROR_CODE_") for name in referee_pb2.ActionErrorCode.keys()} - {"UNSPECIFIED"}
    assert wire == {c.value for c in ActionErrorCode}
    for code in ActionErrorCode:
        err = P.error_to_proto(3, code, "why")
        assert err.code == code.value and referee_pb2.ActionErrorCode.Name(err.error_code) == "ACTION_ERROR_CODE_" + code
    root = Path(__file__).resolve().parents[1] / "server"
    builders = sorted(str(f.relative_to(root)) for f in root.rglob("*.py") if "ActionError(" in f.read_text())
    assert builders == ["codec/protocol.py"]


def test_a_bot_built_before_error_code_reads_the_code_as_text() -> None:
    """Stubs generated before ActionError.error_code (field 8) skip it and read `code` as ever."""
    old = descriptor_pb2.DescriptorProto()
    referee_pb2.ActionError.DESCRIPTOR.CopyToProto(old)
    kept = [f for f in old.field if f.name != "error_code"]
    del old.field[:]
    old.field.extend(kept)
    pool = descriptor_pool.DescriptorPool()
    pool.Add(descriptor_pb2.FileDescriptorProto(name="old.proto", package="old", syntax="proto3", message_type=[old]))
    OldActionError = message_factory.GetMessageClass(pool.FindMessageTypeByName("old.ActionError"))
    assert len(OldActionError.DESCRIPTOR.fields) == len(referee_pb2.ActionError.DESCRIPTOR.fields) - 1
    sent = P.error_to_proto(7, ActionErrorCode.MUST_FOLLOW, "must follow hearts", retry=True, strikes=1,
                            time_left_ms=250, bank_ms=4000)
    read = OldActionError.FromString(sent.SerializeToString())
    assert (read.turn, read.code, read.message, read.retry, read.strikes, read.time_left_ms, read.bank_ms) == (
        7, "MUST_FOLLOW", "must follow hearts", True, 1, 250, 4000)


def test_unknown_contract_is_the_engines_to_refuse():
    game = Game(load_ruleset("mizerka"), seed=1)
    action = P.action_from_proto(game_pb2.Action(choose_contract=game_pb2.ChooseContract(contract="grand")))
    with pytest.raises(IllegalAction) as info:
        game.apply(game.to_act, action)
    assert info.value.code == "UNKNOWN_CONTRACT"
    err = P.error_to_proto(4, info.value.code, info.value.message, retry=True, strikes=0, time_left_ms=900, bank_ms=-5)
    assert (err.turn, err.code, err.retry, err.time_left_ms, err.bank_ms) == (4, "UNKNOWN_CONTRACT", True, 900, 0)
    assert err.error_code == referee_pb2.ACTION_ERROR_CODE_UNKNOWN_CONTRACT and err.message == info.value.message
    # A blind exchange with a take gets through the wire and is refused by the engine, not here.
    assert P.action_from_proto(
        game_pb2.Action(exchange_cards=game_pb2.ExchangeCards(discard=["AS"], take=["KS"]))
    ) == Exchange((parse_card("AS"),), (parse_card("KS"),))


# ------------------------------------------------------------------------------ rulesets
@pytest.mark.parametrize("preset", list(PRESETS))
def test_ruleset_to_proto_has_every_option(preset):
    rules = load_ruleset(preset)
    msg = P.ruleset_to_proto(rules)
    d = rules.describe()
    assert msg.preset == d["preset"] and msg.players == d["players"] and msg.hand_size == d["hand_size"]
    assert msg.talon_size == d["talon_size"] and msg.deals == d["deals"] and msg.majors == d["majors"]
    assert [c.name for c in msg.contracts] == d["contracts"]
    assert list(msg.quotas_plus) == d["quotas_plus"] and list(msg.quotas_minus) == d["quotas_minus"]
    assert game_pb2.ExchangeKind.Name(msg.exchange) == "EXCHANGE_KIND_" + d["exchange"].upper()
    assert game_pb2.DeclarerMode.Name(msg.declarer) == "DECLARER_MODE_" + d["declarer"].upper().replace("-", "_")
    assert game_pb2.RevokeMode.Name(msg.revoke) == "REVOKE_MODE_" + d["revoke"].upper()
    assert game_pb2.TiebreakMode.Name(msg.tiebreak) == "TIEBREAK_MODE_" + d["tiebreak"].upper()
    assert game_pb2.MisereQuotas.Name(msg.misere_quotas) == "MISERE_QUOTAS_" + d["misere_quotas"].upper()
    assert msg.choose_after_all == (d["choose_after"] == "all")
    assert msg.cards_seen_before_choice == (6 if d["choose_after"] == 6 else d["hand_size"])
    assert msg.tiebreak_max == d["tiebreak_max"] and msg.trumps_allow_spades == d["trumps_allow_spades"]
    assert msg.tiebreak_contract == rules.notrump
    for info, c in zip(msg.contracts, rules.contracts, strict=True):
        assert info.minus == c.minus and info.names_trump == c.names_trump and info.major_rank == c.major_rank
        assert bool(info.trump_choices) == c.names_trump
    # A fresh message each time: mutating one must not touch the cache.
    msg.preset = "changed"
    assert P.ruleset_to_proto(rules).preset == preset


def test_options_struct_round_trip():
    opts = {"declarer": "continuous-dealer", "deals": 9, "revoke": "penalty", "quotas_plus": [8, 4, 4],
            "choose_after": "all", "trumps_allow_spades": True, "tiebreak": "lowest", "tiebreak_max": 2}
    struct = struct_pb2.Struct.FromString(P.options_to_struct(opts).SerializeToString())
    back = P.options_from_struct(struct)
    assert back == opts and type(back["deals"]) is int
    rules = load_ruleset("trjamann", back)
    msg = P.ruleset_to_proto(rules)
    assert msg.declarer == game_pb2.DECLARER_MODE_CONTINUOUS_DEALER and msg.deals == 9 and msg.trumps_allow_spades
    assert list(msg.contracts[2].trump_choices) == ["S", "H", "D", "C"]
    assert P.options_from_struct(None) == {}


# -------------------------------------------------------------------------- whole games
GAMES = [(p, {}) for p in PRESETS] + [
    ("mizerka", {"revoke": "penalty"}),
    ("mizerka-short", {"declarer": "continuous-dealer", "deals": 3, "tiebreak": "lowest"}),
    ("manni-major", {"declarer": "dealer", "deals": 6}),
    ("trjamann", {"trumps_allow_spades": True, "revoke": "penalty"}),
]


def allowed_event_cards(game: Game, audience: int) -> set[int]:
    """Cards the raw log lets ``audience`` know through events, computed without the projection:
    cards played (or revoked) in public, its own exchanges -- and, for FULL, everything dealt."""
    allowed: set[int] = set()
    for e in game.log:
        match e:
            case Played(_, card) | Revoked(_, card):
                allowed.add(card)
            case Exchanged(seat, _, discard, take) if audience in (FULL, seat):
                allowed.update(discard or ())
                allowed.update(take or ())
            case Dealt(hands=hands, talon=talon) if audience == FULL:
                for hand in hands or ():
                    allowed.update(hand)
                allowed.update(talon or ())
    return allowed


def choose(game: Game, rng: random.Random, revoke_rate: float):
    """A random legal action; under revoke = penalty, now and then a revoke on purpose (found from
    the player's own view, not from engine internals)."""
    if game.rules.revoke == "penalty" and game.phase == Phase.PLAY and rng.random() < revoke_rate:
        view = project(game, game.to_act)
        trick = view.tricks[-1] if view.tricks and view.tricks[-1].winner is None else None
        if trick is not None:
            led = trick.cards[0][1] // 13
            hand = view.hands[game.to_act] or ()
            off = [c for c in hand if c // 13 != led]
            if off and len(off) < len(hand):
                return Play(off[0])
    return random_action(game, rng)


@pytest.mark.parametrize(("preset", "options"), GAMES, ids=[f"{p}{o or ''}" for p, o in GAMES])
def test_random_game_through_the_wire(preset, options):
    rules = load_ruleset(preset, options)
    n = rules.players
    names = NAMES[:n]
    game = Game(rules, seed=f"proto:{preset}:{sorted(options.items())}")
    rng = random.Random(11)
    audiences = [*range(n), SPECTATOR, FULL]
    encoders = {a: W.EventEncoder(rules) for a in audiences}
    sent = {a: 0 for a in audiences}  # log events already encoded for each audience
    kinds_seen: set[type] = set()
    flags_seen: set[bool | str] = set()  # takes_trick values seen when following, and "lead"
    turn = 0

    def check_all() -> None:
        for a in audiences:
            view = project(game, a)
            msg = game_pb2.SeatView.FromString(P.view_to_proto(view, names).SerializeToString())
            engine_cards = cards_in(view)
            got = proto_cards(msg)
            assert got <= engine_cards, f"audience {a} got {sorted(got - engine_cards)} its view hides"
            assert got == engine_cards, f"audience {a} lost {sorted(engine_cards - got)}"
            assert [p.name for p in msg.players] == names and len(msg.players) == n
            assert msg.finished == game.finished and msg.phase == P.PHASE[game.phase]
            assert list(msg.players[s].total for s in range(n)) == game.totals
            check_contract_and_tricks(msg, game)
            # events since the last check, as this audience sees them
            new = project_events(game, a, sent[a])
            sent[a] += len(new)
            kinds_seen.update(type(e) for e in new)
            allowed = allowed_event_cards(game, a)
            for raw in new:
                ev = encoders[a].encode(raw)
                assert (ev is None) == isinstance(raw, GameOver), raw
                if ev is not None:
                    ev = events_pb2.Event.FromString(ev.SerializeToString())
                    leaked = proto_cards(ev) - allowed
                    assert not leaked, f"audience {a}: event {raw.kind} shows {sorted(leaked)}"
                    assert W.event_from_proto(ev, rules) == raw  # the wire carries the projected event, no more

    check_all()
    while not game.finished:
        seat = game.to_act
        view = project(game, seat)
        decision = game.decision()
        assert decision is not None and view.decision == decision
        turn += 3
        req = P.decision_to_proto(turn, decision, view, 1500, 20000, names, rules)
        req = referee_pb2.DecisionRequest.FromString(req.SerializeToString())
        assert req.turn == turn and req.kind == decision.kind + 1
        assert req.view.seat == seat and req.view.audience == game_pb2.AUDIENCE_SEAT and req.ruleset.preset == preset
        assert (req.time_left_ms, req.bank_ms) == (1500, 20000)
        assert proto_cards(req) == cards_in(view)
        if decision.kind == Phase.EXCHANGE:
            assert not req.legal_actions and req.HasField("exchange")
            assert req.exchange.max_cards == decision.max_exchange and req.exchange.pick == decision.pick
            assert [parse_card(c) for c in req.exchange.talon] == list(decision.talon)
        else:
            assert not req.HasField("exchange")
            assert all(a.turn == turn for a in req.legal_actions)
            assert tuple(P.action_from_proto(a) for a in req.legal_actions) == decision.actions
        # The default action: ready to send (turn set), the referee's own, legal, and derived from
        # the request alone; the trick flags: the engine's judgement, from the seat's view alone.
        assert req.HasField("default_action") and req.default_action.turn == turn
        default = P.action_from_proto(req.default_action)
        assert default == normal(default_action(decision)) == told_default(req)
        game.copy().apply(seat, default)  # legal: raises IllegalAction otherwise
        assert list(req.takes_trick) == told_takes(req)
        if decision.kind == Phase.PLAY:
            assert list(req.takes_trick) == [engine_takes(game, a.card) for a in decision.actions]
            flags_seen.update(req.takes_trick if game.trick else ["lead"])
        else:
            assert not req.takes_trick
        action = choose(game, rng, 0.03)
        # the action travels as a bot would send it
        bot = referee_pb2.BotMessage(action=P.action_to_proto(action, turn))
        received = referee_pb2.BotMessage.FromString(bot.SerializeToString())
        assert received.WhichOneof("message") == "action" and received.action.turn == turn
        game.apply(seat, P.action_from_proto(received.action))
        check_all()

    assert {GameOver, Dealt, Settled, Exchanged, Played, TrickTaken, DealScored} <= kinds_seen
    assert flags_seen == {"lead", True, False}
    if rules.majors:
        assert MajorAnnounced in kinds_seen
    if rules.revoke == "penalty":
        assert Revoked in kinds_seen, "the test meant to revoke at least once"
        assert any(r.void for r in game.results)

    # GameEnd material: results with running totals, ranks
    results = P.results_to_proto(game.results)
    assert list(results[-1].totals) == game.totals
    assert [list(r.points) for r in results] == [list(r.points) for r in game.results]
    assert [(r.contract, r.major) for r in results] == [(r.label, r.major) for r in game.results]
    assert [W.result_from_proto(r, rules) for r in results] == game.results
    assert ranks([3, 5, 3]) == [2, 1, 2] and ranks([0, 0, 0]) == [1, 1, 1]

    # A finished match discloses everything: one record per deal, rebuilding hands, talon, tricks.
    records = W.deal_records_from_events(project_events(game, FULL))
    assert len(records) == len(game.results)
    deals = [e for e in game.log if isinstance(e, Dealt)]
    for record, deal, result in zip(records, deals, game.results, strict=True):
        record = game_pb2.DealRecord.FromString(record.SerializeToString())
        assert [[parse_card(c) for c in h.cards] for h in record.hands] == [list(h) for h in deal.hands or ()]
        assert [parse_card(c) for c in record.talon] == list(deal.talon or ())
        assert record.result.contract == result.label and list(record.result.points) == list(result.points)
        done = [t for t in record.tricks if t.HasField("winner")]
        assert all(t.winning == book_winner(t, record.result.trump) for t in record.tricks)
        assert all(t.winning == t.winner for t in done)
        assert len(done) == sum(result.tricks)  # a void deal may end in a trick cut short
        assert len(record.tricks) - len(done) <= (1 if result.void else 0)
        assert bool(record.revoke_card) == result.void
    with pytest.raises(ValueError):
        W.deal_records_from_events(project_events(game, SPECTATOR))


RARE_KINDS = (referee_pb2.DECISION_KIND_CONTRACT, referee_pb2.DECISION_KIND_EXCHANGE)  # a few per game


class TimingOutSeat:
    """An offline seat (a :class:`~server.referee.offline.SeatDriver`) that lets every contract choice
    and exchange (few in a short game) and about a third of its other decisions time out, and otherwise answers a
    random legal action (its default when exchanging); it keeps each request's default_action and
    each DefaultApplied it is told, by turn."""

    label = "timing-out"
    live_events = False

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.told: dict[int, game_pb2.Action] = {}
        self.applied: dict[int, game_pb2.Action] = {}
        self.reply: game_pb2.Action | None = None

    def send(self, message: referee_pb2.RefereeMessage) -> None:
        which = message.WhichOneof("message")
        events = message.decision_request.events if which == "decision_request" else message.event_batch.events
        for e in events:
            if e.HasField("default_applied"):
                self.applied[e.default_applied.turn] = e.default_applied.action
        if which == "decision_request":
            req = message.decision_request
            self.told[req.turn] = req.default_action
            legal = req.legal_actions or [req.default_action]
            late = req.kind in RARE_KINDS or self.rng.random() < 0.3
            self.reply = None if late else self.rng.choice(legal)

    def receive(self) -> referee_pb2.BotMessage | None:
        reply, self.reply = self.reply, None
        return None if reply is None else referee_pb2.BotMessage(action=reply)

    def close(self) -> None:
        pass


@pytest.mark.parametrize(("preset", "options"), GAMES, ids=[f"{p}{o or ''}" for p, o in GAMES])
def test_the_default_action_told_is_what_the_referee_plays_on_a_timeout(preset, options):
    """Through the referee's own turn loop (the offline driver of GameSession): every DefaultApplied
    after a timeout is, to the byte, the default_action of the request that timed out."""
    rules = load_ruleset(preset, options)
    seats = [TimingOutSeat(s) for s in range(rules.players)]
    record = play(rules, f"defaults:{preset}", seats, NAMES[: rules.players], ClockSettings(max_strikes=0))
    assert not any(r.forfeited for r in record.seats)
    for seat in seats:
        assert seat.applied, "the test meant to time out"
        for turn, action in seat.applied.items():
            assert action == seat.told[turn]
    kinds = {seat.told[t].WhichOneof("action") for seat in seats for t in seat.applied}
    assert {"choose_contract", "exchange_cards", "play_card"} <= kinds


def test_tiebreak_deals_convert():
    """A tie-break deal (contract settled at once, no choice) goes through the wire like any other."""
    rules = load_ruleset("mizerka-short", {"deals": 3, "tiebreak": "lowest", "tiebreak_max": 3})
    for seed in range(200):
        game = Game(rules, seed=seed)
        rng = random.Random(seed)
        while not game.finished:
            game.apply(game.to_act, random_action(game, rng))
        if any(r.tiebreak for r in game.results):
            break
    else:
        pytest.skip("no tie in 200 seeded games")
    events = W.EventEncoder(rules).encode_all(project_events(game, 0))
    starts = [e.deal_started for e in events if e.HasField("deal_started") and e.deal_started.tiebreak]
    assert starts
    settled = [e.contract_settled for e in events if e.HasField("contract_settled")]
    assert settled[-1].contract == "notrump" and len(settled[-1].quotas) == 3
    ended = [e.deal_ended.result for e in events if e.HasField("deal_ended")]
    assert ended[-1].tiebreak and list(ended[-1].totals) == game.totals


def test_events_number_tricks_and_quote_quotas():
    rules = load_ruleset("mizerka")
    game = Game(rules, seed=5)
    rng = random.Random(5)
    while game.results == []:
        game.apply(game.to_act, random_action(game, rng))
    events = W.EventEncoder(rules).encode_all(project_events(game, 1))
    tricks = [e.trick_won.trick for e in events if e.HasField("trick_won")]
    assert tricks == list(range(13))
    settled = next(e.contract_settled for e in events if e.HasField("contract_settled"))
    result = game.results[0]
    pos = [(s - result.declarer) % 3 for s in range(3)]
    table = rules.quotas_minus if result.contract == "mizerka" else rules.quotas_plus
    assert list(settled.quotas) == [table[p] for p in pos] and settled.minus == (result.contract == "mizerka")
    # Seat 1 sees its own exchange with cards and the others' as counts only.
    exchanges = [e.cards_exchanged for e in events if e.HasField("cards_exchanged")]
    assert len(exchanges) == 3
    for ex in exchanges:
        assert ex.cards_known == (ex.seat == 1)
        assert ex.cards_known or not (ex.discarded or ex.taken)
        assert len(ex.discarded) in (0, ex.count)


def test_a_major_is_told_in_fields_of_its_own():
    """A settled major: the view, ContractSettled and DealResult say major (and the contract's name)
    so that no bot parses the " major" of the label; quotas 14 for its declarer, 1 for the others."""
    rules = load_ruleset("manni-major")
    game = Game(rules, seed=1)
    caller = game.caller
    game.apply(caller, Choose("hearts"))
    challenger = game.to_act
    game.apply(challenger, Major("hearts"))
    game.apply(caller, PASS)
    game.apply(game.to_act, PASS)
    quotas = [14 if s == challenger else 1 for s in range(3)]
    for audience in (*range(3), SPECTATOR):
        view = P.view_to_proto(project(game, audience), NAMES[:3])
        assert (view.contract, view.contract_name, view.contract_major, view.contract_minus) == (
            "hearts major", "hearts", True, False)
        assert [p.quota for p in view.players] == quotas
    events = W.EventEncoder(rules).encode_all(project_events(game, caller))
    settled = next(e.contract_settled for e in events if e.HasField("contract_settled"))
    assert (settled.declarer, settled.major, settled.minus, list(settled.quotas)) == (challenger, True, False, quotas)
    while not game.results:
        game.apply(game.to_act, default_action(game.decision()))
    (result,) = P.results_to_proto(game.results)
    assert (result.contract, result.major) == ("hearts major", True)


def test_the_default_reasons_are_the_proto_enum_both_ways() -> None:
    """One list (server.policies.DefaultReason) for the turn loop, logs and metrics: each is sent as its
    DEFAULT_REASON_ value and read back, and the proto has no reason the referee lacks."""
    wire = {name.removeprefix("DEFAULT_REASON_") for name in events_pb2.DefaultReason.keys()} - {"UNSPECIFIED"}
    assert wire == {r.value for r in DefaultReason}
    for reason in DefaultReason:
        ev = P.default_applied_to_proto(1, PASS, reason)
        assert events_pb2.DefaultReason.Name(ev.default_applied.reason) == "DEFAULT_REASON_" + reason.value
        assert P.default_reason_from_proto(ev.default_applied.reason) is reason


def test_referee_side_events():
    ev = P.default_applied_to_proto(9, default_action(Game(load_ruleset("spoileri"), seed=2).decision()),
                                    DefaultReason.TIMEOUT)
    assert ev.default_applied.turn == 9 and ev.default_applied.reason == events_pb2.DEFAULT_REASON_TIMEOUT
    assert ev.default_applied.action.turn == 9 and ev.default_applied.action.HasField("choose_contract")
    assert P.default_reason_from_proto(ev.default_applied.reason) is DefaultReason.TIMEOUT
    rules = load_ruleset("spoileri")
    assert W.event_from_proto(ev, rules) is None  # the referee's own events carry no engine event
    assert W.event_from_proto(P.strike_counted_to_proto(9, 1, 3, False), rules) is None


def test_a_wire_label_decodes_to_the_contract_name_and_major_flag():
    rules = load_ruleset("manni-major")
    settled = Settled(2, "hearts", True, 1)
    msg = W.event_to_proto(settled, rules)
    assert msg is not None and (msg.contract_settled.contract, msg.contract_settled.major) == ("hearts major", True)
    assert W.event_from_proto(msg, rules) == settled
    msg.contract_settled.major = False  # "hearts major" is no contract's plain name
    with pytest.raises(P.ProtocolError):
        W.event_from_proto(msg, rules)
    ev = P.strike_counted_to_proto(9, 3, 3, True)
    assert (ev.strike_counted.strikes, ev.strike_counted.forfeited) == (3, True)


def test_choose_after_6_hides_the_hand():
    """Before the contract, with choose_after = 6, only the declarer sees (6 of) its cards."""
    rules = load_ruleset("mizerka")
    game = Game(rules, seed=3)
    for seat in range(3):
        msg = P.view_to_proto(project(game, seat), NAMES[:3])
        mine = msg.players[seat]
        assert mine.hand_known and len(mine.hand) == (6 if seat == game.caller else 0)
        assert all(not p.hand_known and not p.hand for p in msg.players if p.seat != seat)
        assert not msg.talon_known and msg.contract == ""
        assert all(not p.HasField("quota") for p in msg.players)


# ------------------------------------------------------------------------ the contract
def _generator():
    """proto/python/generate.py, the one script that makes the committed stubs."""
    spec = importlib.util.spec_from_file_location("generate_stubs", ROOT / "proto" / "python" / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_stubs_are_current(tmp_path):
    """`make proto` output is committed; regenerate it and compare byte for byte."""
    _generator().generate(tmp_path)
    fresh = sorted(p.name for p in tmp_path.iterdir())
    committed = sorted(p.name for p in STUB_DIR.iterdir() if p.name.endswith((".py", ".pyi")) and p.name != "__init__.py")
    assert fresh == committed, "run `make proto`: the generated files differ from the committed ones"
    match, mismatch, errors = filecmp.cmpfiles(tmp_path, STUB_DIR, fresh, shallow=False)
    assert not mismatch and not errors, f"stale stubs {mismatch + errors}: run `make proto` and commit the result"
    assert (STUB_DIR / "__init__.py").exists()


def test_every_element_of_the_contract_is_commented(tmp_path):
    """Every message, field, oneof, enum, enum value, service and rpc has a leading comment."""
    out = tmp_path / "set.pb"
    _generator().protoc(f"--descriptor_set_out={out}", "--include_source_info")
    fds = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes())
    missing: list[str] = []
    for f in fds.file:
        if not f.name.startswith("mizerka/"):
            continue
        commented = {tuple(loc.path) for loc in f.source_code_info.location if loc.leading_comments.strip()}
        assert f.package == "mizerka.v1"

        def need(path: tuple[int, ...], what: str, commented=commented, file=f.name) -> None:
            if path not in commented:
                missing.append(f"{file}: {what}")

        def message(m, path, prefix):
            need(path, prefix + m.name)
            for i, fld in enumerate(m.field):
                need(path + (2, i), f"{prefix}{m.name}.{fld.name}")
                assert fld.name == fld.name.lower(), fld.name
            for i, o in enumerate(m.oneof_decl):
                if not o.name.startswith("_"):  # proto3 `optional` makes synthetic oneofs
                    need(path + (8, i), f"{prefix}{m.name} oneof {o.name}")
            for i, sub in enumerate(m.nested_type):
                message(sub, path + (3, i), f"{prefix}{m.name}.")
            for i, e in enumerate(m.enum_type):
                enum(e, path + (4, i), f"{prefix}{m.name}.")

        def enum(e, path, prefix):
            need(path, prefix + e.name)
            assert e.value[0].number == 0 and e.value[0].name.endswith("_UNSPECIFIED"), e.name
            for i, v in enumerate(e.value):
                need(path + (2, i), f"{prefix}{e.name}.{v.name}")

        for i, m in enumerate(f.message_type):
            message(m, (4, i), "")
        for i, e in enumerate(f.enum_type):
            enum(e, (5, i), "")
        for i, s in enumerate(f.service):
            need((6, i), s.name)
            for j, rpc in enumerate(s.method):
                need((6, i, 2, j), f"{s.name}.{rpc.name}")
    assert not missing, "uncommented: " + ", ".join(missing)
