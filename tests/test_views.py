"""What each audience may see (docs/rules.md §10): seat views, the spectator, FULL, and event streams.

Every test names the cards a view must show and checks the ones it must not; the random-game
property in test_properties.py covers the same rule over whole games.
"""

from __future__ import annotations

import pytest
from conftest import cards, game_with, make_deal, pass_exchanges, play

from mizerka_engine.cards import format_cards, mask_cards
from mizerka_engine.events import Dealt, Exchanged
from mizerka_engine.game import Choose, Exchange, Game, Major, Phase
from mizerka_engine.rules import load_ruleset
from mizerka_engine.views import FULL, SPECTATOR, cards_in, project, project_events

# Seat 0 is dealt the six top spades first: what it sees before choosing (choose_after = 6).
DEAL = make_deal(
    "AS KS QS JS TS 9S 2D 3D 4D 5D 6D 7D 8D",
    "8S 7S 6S 5S 4S 3S 2S 9D TD JD QD KD AD",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
)  # talon: the 13 clubs, 2C first
FIRST_SIX = set(cards("AS KS QS JS TS 9S"))
HANDS = [set(h) for h in DEAL.hands]
TALON = set(DEAL.talon)


def _game(**options: object) -> Game:
    return game_with("mizerka", DEAL, first_dealer=2, **options)


def _seen(game: Game, audience: int) -> set[int]:
    return cards_in(project(game, audience))


# ------------------------------------------------------------------------- before the contract


def test_before_the_contract_only_the_declarer_sees_its_first_six_cards() -> None:
    game = _game()
    v0, v1, v2 = (project(game, s) for s in range(3))
    assert set(v0.hands[0]) == FIRST_SIX and v0.hands[1] is None and v0.hands[2] is None
    assert v1.hands == (None, (), None) and v2.hands == (None, None, ())
    assert _seen(game, 0) == FIRST_SIX
    assert _seen(game, 1) == _seen(game, 2) == set()
    assert v0.hand_sizes == v1.hand_sizes == (13, 13, 13)  # sizes are public
    assert v0.talon is v1.talon is None


def test_with_choose_after_all_the_declarer_sees_its_whole_hand() -> None:
    game = _game(choose_after="all")
    assert set(project(game, 0).hands[0]) == HANDS[0]
    assert project(game, 0).hands[1] is None and project(game, 1).hands[0] is None


@pytest.mark.parametrize("preset", ["trjamann", "mizerka"])
def test_with_choose_after_all_every_seat_sees_its_own_hand_before_the_contract(preset: str) -> None:
    """docs/rules.md §10.1: a non-declarer sees none of its cards before the contract only "when
    choose_after = 6". With "all" the whole deal is done before the choice (the 16-card presets,
    spoileri), so every player holds, and may look at, its whole hand."""
    game = Game(load_ruleset(preset, {"choose_after": "all"}), seed=3)
    assert game.phase == Phase.CONTRACT and game.to_act == 0
    for seat in range(game.n):
        view = project(game, seat)
        assert set(view.hands[seat] or ()) == set(mask_cards(game.hands[seat])), f"seat {seat} cannot see its hand"
        assert all(view.hands[s] is None for s in range(game.n) if s != seat)


def test_the_spectator_sees_no_cards() -> None:
    game = _game()
    spectator = project(game, SPECTATOR)
    assert spectator.hands == (None, None, None) and spectator.talon is None and spectator.decision is None
    game.apply(0, Choose("notrump"))
    pass_exchanges(game)
    assert _seen(game, SPECTATOR) == set()


def test_full_sees_everything() -> None:
    game = _game()
    full = project(game, FULL)
    assert [set(h) for h in full.hands] == HANDS and set(full.talon) == TALON  # type: ignore[arg-type]


def test_the_decision_is_only_in_the_acting_seats_view() -> None:
    game = _game()
    assert project(game, 0).decision == game.decision()
    assert project(game, 1).decision is None and project(game, FULL).decision is None


# ---------------------------------------------------------------------------- after the contract


def test_after_the_contract_each_seat_sees_its_own_hand_only() -> None:
    game = _game()
    game.apply(0, Choose("mizerka"))
    for seat in range(3):
        view = project(game, seat)
        assert set(view.hands[seat]) == HANDS[seat]  # type: ignore[arg-type]
        assert all(view.hands[s] is None for s in range(3) if s != seat)
        assert _seen(game, seat) == HANDS[seat]
    view = project(game, 2)
    assert (view.contract, view.trump, view.declarer, view.dealer) == ("mizerka", None, 0, 2)
    assert (view.contract_name, view.major, view.minus) == ("mizerka", False, True)
    assert view.quotas == (1, 5, 7)
    assert view.announcements == ((0, "contract", "mizerka"),)


def test_quotas_follow_the_contract() -> None:
    game = _game()
    before = project(game, 1)
    assert before.quotas is None and (before.contract_name, before.major, before.minus) == (None, False, False)
    game.apply(0, Choose("spades"))
    view = project(game, 1)
    assert view.quotas == (7, 5, 1) and view.trump == 0
    assert (view.contract_name, view.major, view.minus) == ("spades", False, False)


def test_blind_exchange_discards_and_takes_are_private_counts_are_public() -> None:
    game = _game()
    game.apply(0, Choose("notrump"))
    game.apply(0, Exchange(cards("2D 3D")))  # takes 2C 3C from the talon top
    mine = project(game, 0)
    assert mine.discards[0] == cards("2D 3D") and mine.taken[0] == cards("2C 3C")
    assert set(cards("2C 3C")) <= set(mine.hands[0])  # type: ignore[arg-type]
    assert _seen(game, 0) == HANDS[0] | set(cards("2C 3C"))
    for other in (1, 2, SPECTATOR):
        view = project(game, other)
        assert view.discards[0] is None and view.taken[0] is None
        assert view.exchanged == (2, None, None)
        assert not set(cards("2D 3D 2C 3C")) & _seen(game, other)
    assert all(project(game, a).talon is None for a in (0, 1, 2, SPECTATOR))


def test_cards_played_to_tricks_are_public() -> None:
    game = _game()
    game.apply(0, Choose("notrump"))
    pass_exchanges(game)
    play(game, "AS 2S 2H")
    play(game, "KS")
    trick_cards = set(cards("AS 2S 2H KS"))
    for audience in (0, 1, 2, SPECTATOR):
        view = project(game, audience)
        done, current = view.tricks
        assert (done.leader, done.winner, format_cards(c for _, c in done.cards)) == (0, 0, ["AS", "2S", "2H"])
        assert [s for s, _ in done.cards] == [0, 1, 2]
        assert (current.leader, current.winner, current.cards) == (0, None, ((0, cards("KS")[0]),))
        assert view.tricks_won == (1, 0, 0)
    assert _seen(game, SPECTATOR) == trick_cards
    assert _seen(game, 2) == (HANDS[2] - set(cards("2H"))) | trick_cards


@pytest.mark.parametrize(("contract", "after_ruff"), [("spades", 1), ("notrump", 0)])
def test_every_trick_tells_who_is_winning_it(contract: str, after_ruff: int) -> None:
    """Seat 0 leads a club it took from the talon; seat 1, void, plays 2S: a ruff that wins the trick
    so far in spades, a discard that does not in no-trump. Complete tricks: winning == winner."""
    game = _game()
    game.apply(0, Choose(contract))
    game.apply(0, Exchange(cards("2D 3D")))  # takes 2C 3C from the talon top
    pass_exchanges(game)
    play(game, "2C")
    assert [t.winning for t in project(game, SPECTATOR).tricks] == [0]  # the lead wins so far
    play(game, "2S")
    for audience in (0, 1, 2, SPECTATOR, FULL):
        (current,) = project(game, audience).tricks
        assert (current.winner, current.winning) == (None, after_ruff)
    play(game, "2H")  # seat 2 holds hearts only: it neither follows nor trumps
    (done,) = project(game, 2).tricks
    assert done.winner == done.winning == after_ruff


def test_a_new_deal_shows_only_its_own_tricks_but_every_result() -> None:
    game = game_with("mizerka", DEAL, DEAL, first_dealer=2)
    game.apply(0, Choose("notrump"))
    pass_exchanges(game)
    while len(game.results) == 0:
        game.apply(game.to_act, game.legal_actions()[0])
    view = project(game, SPECTATOR)
    assert view.tricks == () and len(view.results) == 1 and view.deal_no == 1
    assert view.used == (("notrump",), (), ()) and view.totals == tuple(game.totals)
    assert view.phase == Phase.CONTRACT and view.to_act == 1
    assert project(game, 0).hands == ((), None, None)  # before seat 1's contract, seat 0 sees nothing


# --------------------------------------------------------------------------------- pick exchange

PICK = make_deal(
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2H 3H 4H",
    "5H 6H 7H 8H 9H TH JH QH KH AH 2D 3D 4D 5D 6D 7D",
    "8D 9D TD JD QD KD AD 2C 3C 4C 5C 6C 7C 8C 9C TC",
)  # talon: JC QC KC AC
PICK_TALON = set(cards("JC QC KC AC"))


def test_pick_exchange_talon_is_seen_by_the_declarer_only_after_the_contract() -> None:
    game = game_with("trjamann", PICK, first_dealer=2)
    assert project(game, 0).talon is None
    game.apply(0, Choose("grand"))
    view = project(game, 0)
    assert set(view.talon) == PICK_TALON and set(view.decision.talon) == PICK_TALON  # type: ignore[arg-type, union-attr]
    for other in (1, 2, SPECTATOR):
        assert project(game, other).talon is None and not PICK_TALON & _seen(game, other)
    game.apply(0, Exchange(cards("2H 3H"), cards("AC KC")))
    assert set(project(game, 0).talon) == PICK_TALON  # type: ignore[arg-type]
    for other in (1, 2):
        view = project(game, other)
        assert view.exchanged == (2, None, None) and view.discards[0] is None and view.taken[0] is None
        assert not (PICK_TALON | set(cards("2H 3H"))) & _seen(game, other)


def test_in_a_major_only_the_effective_declarer_sees_the_talon() -> None:
    game = game_with("manni-major", PICK, first_dealer=2)
    game.apply(0, Choose("spades"))
    assert all(project(game, s).talon is None for s in range(3))  # nobody while majors are open
    open_round = project(game, 2)
    assert (open_round.contract, open_round.contract_name, open_round.major) == ("spades", "spades", False)
    game.apply(1, Major("spades"))
    game.apply(0, Major(None))
    game.apply(2, Major(None))
    assert set(project(game, 1).talon) == PICK_TALON  # type: ignore[arg-type]
    assert project(game, 0).talon is None and project(game, 2).talon is None
    view = project(game, 2)
    assert view.contract == "spades major" and view.declarer == 1 and view.caller == 0
    assert (view.contract_name, view.major, view.minus) == ("spades", True, False)
    assert view.quotas == (1, 14, 1)
    assert view.announcements == ((0, "contract", "spades"), (1, "major", "spades"), (0, "major", None), (2, "major", None))


# -------------------------------------------------------------------------------- event streams


def test_events_hide_the_deal_and_other_seats_discards() -> None:
    game = _game()
    game.apply(0, Choose("notrump"))
    game.apply(0, Exchange(cards("2D 3D")))
    game.apply(1, Exchange(cards("2S")))
    full = project_events(game, FULL)
    assert full[0] == Dealt(0, 0, False, 2, 0, DEAL.hands, DEAL.talon)
    for audience in (0, 1, 2, SPECTATOR):
        events = project_events(game, audience)
        assert events[0] == Dealt(0, 0, False, 2, 0) and events[0].hands is None and events[0].talon is None
        exchanges = [e for e in events if isinstance(e, Exchanged)]
        for e in exchanges:
            if e.seat == audience:
                assert (e.discard, e.take) in ((cards("2D 3D"), cards("2C 3C")), (cards("2S"), cards("4C")))
                assert e.count == len(e.discard)
            else:
                assert e.discard is None and e.take is None
    assert [e for e in project_events(game, 2) if isinstance(e, Exchanged)] == [Exchanged(0, 2), Exchanged(1, 1)]


def test_events_from_an_index() -> None:
    game = _game()
    game.apply(0, Choose("notrump"))
    pass_exchanges(game)
    everything = project_events(game, 1)
    assert project_events(game, 1, 2) == everything[2:]


def test_between_deals_the_views_hold_no_cards() -> None:
    """With an external deal source that has run out, no cards of the finished deal remain visible."""
    game = game_with("mizerka", DEAL, first_dealer=2, deals=3)
    game.apply(0, Choose("notrump"))
    pass_exchanges(game)
    while not game.results:
        game.apply(game.to_act, game.legal_actions()[0])
    assert game.phase == Phase.WAITING
    view = project(game, 0)
    assert view.hands == (None, None, None) and view.talon is None and view.decision is None
    assert _seen(game, 0) == set()
