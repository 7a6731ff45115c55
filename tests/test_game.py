"""The game state machine, rule by rule, from explicit hands (docs/rules.md §1-§9).

Most deals below are "layouts": hands by position from the declarer (position 0 = declarer) and the
cards of the whole play in order. They are built from suit runs, so who wins each trick can be read
off the hands: a player leading a suit the others are void in wins; a player following with a higher
card of the led suit wins.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest
from conftest import (
    assert_refused,
    cards,
    finish_deal,
    finish_game,
    game_with,
    hand_text,
    make_deal,
    pass_action,
    pass_exchanges,
    play,
)

from mizerka_engine.dealing import Deal
from mizerka_engine.events import GameOver
from mizerka_engine.game import Choose, Exchange, Game, IllegalAction, Major, Phase, Play
from mizerka_engine.rules import load_ruleset
from mizerka_engine.views import FULL, project


class Layout(NamedTuple):
    hands: tuple[str, str, str]  # by position from the declarer
    plays: str  # every card of the deal in play order

    def deal(self, declarer: int, tiebreak_declarer: int | None = None) -> Deal:
        """The layout with position p sitting at seat (declarer + p) % 3."""
        by_seat = [self.hands[(s - declarer) % 3] for s in range(3)]
        return make_deal(*by_seat, declarer=tiebreak_declarer)


# Notrump, declarer (quota 7) takes 5: it runs five spades, then loses the lead for good. 5/5/3.
TAKES_5 = Layout(
    ("AS KS QS JS TS 2D 3D 4D 5D 6D 7D 8D 9D", "TD JD QD KD AD 2H 3H 4H 5H 6H 7H 8H 9H", "TH JH QH KH AH 2C 3C 4C 5C 6C 7C 8C 9C"),
    "AS 2H 2C KS 3H 3C QS 4H 4C JS 5H 5C TS 6H 6C"  # five spade leads: declarer wins
    " 2D TD 7C JD 8C 3D QD 9C 4D KD TH 5D AD JH 6D"  # middlehand wins the diamonds
    " 7H QH 7D KH 8D 8H AH 9D 9H",  # the dealer wins the hearts
)
# Notrump, declarer takes 8: eight spade leads, then middlehand wins five diamond tricks. 8/5/0.
TAKES_8 = Layout(
    ("AS KS QS JS TS 9S 8S 7S 2D 3D 4D 5D 6D", "7D 8D 9D TD JD QD KD AD 2H 3H 4H 5H 6H", "7H 8H 9H TH JH QH KH AH 2C 3C 4C 5C 6C"),
    "AS 2H 2C KS 3H 3C QS 4H 4C JS 5H 5C TS 6H 6C 9S 7D 7H 8S 8D 8H 7S 9D 9H"
    " 2D TD TH JD JH 3D QD QH 4D KD KH 5D AD AH 6D",
)
# Notrump, declarer takes exactly 7. 7/6/0.
TAKES_7 = Layout(
    ("AS KS QS JS TS 9S 8S 2D 3D 4D 5D 6D 7D", "8D 9D TD JD QD KD AD 2H 3H 4H 5H 6H 7H", "8H 9H TH JH QH KH AH 2C 3C 4C 5C 6C 7C"),
    "AS 2H 2C KS 3H 3C QS 4H 4C JS 5H 5C TS 6H 6C 9S 7H 7C 8S 8D 8H"
    " 2D 9D 9H TD TH 3D JD JH 4D QD QH 5D KD KH 6D AD AH 7D",
)
# Notrump, everybody takes exactly its quota 7/5/1: all score 0.
QUOTAS = Layout(
    ("AS KS QS JS TS 9S 8S 2D 3D 4D 5D 6D 7D", "9D TD JD QD KD 2H 3H 4H 5H 6H 7H 8H 9H", "TH JH QH KH AH 2C 3C 4C 5C 6C 7C 8C 9C"),
    "AS 3H 2C KS 4H 3C QS 5H 4C JS 6H 5C TS 7H 6C 9S 8H 7C 8S 9H 8C"
    " 2D 9D 9C TD TH 3D JD JH 4D QD QH 5D KD KH 6D 2H AH 7D",
)
# Mizerka: the dealer (position 2, quota 7) wins five spade tricks, middlehand the other eight. 0/8/5.
MIZERKA_DEALER_5 = Layout(
    ("2S 3S 4S 5S 6S 7S 8S 9S 2C 3C 4C 5C 6C", "TH JH QH KH AH 2D 3D 4D 5D 6D 7D 8D 9D", "TS JS QS KS AS 2H 3H 4H 5H 6H 7H 8H 9H"),
    "2S 2D TS JS 3S 3D QS 4S 4D KS 5S 5D AS 6S 6D"  # the dealer must overtake each spade
    " 2H 7S TH 7D 3H 8S 8D 4H 9S 9D 5H 2C JH 6H 3C QH 7H 4C KH 8H 5C AH 9H 6C",
)
# Mizerka: the dealer wins eight spade tricks, middlehand five hearts. 0/5/8.
MIZERKA_DEALER_8 = Layout(
    ("2S 3S 4S 5S 6S 2C 3C 4C 5C 6C 7C 8C 9C", "7H 8H 9H TH JH QH KH AH 2D 3D 4D 5D 6D", "7S 8S 9S TS JS QS KS AS 2H 3H 4H 5H 6H"),
    "2S 2D 7S 8S 3S 3D 9S 4S 4D TS 5S 5D JS 6S 6D QS 2C 7H KS 3C 8H AS 4C 9H"
    " 2H 5C TH JH 3H 6C QH 4H 7C KH 5H 8C AH 6H 9C",
)


def play_layout(game: Game, layout: Layout, contract: str) -> None:
    """The declarer announces ``contract`` (unless a tie-break deal), all pass, the layout is played."""
    if game.phase == Phase.CONTRACT:
        game.apply(game.to_act, Choose(contract))
    pass_exchanges(game)
    play(game, layout.plays)


# ---------------------------------------------------------------- worked examples (Portuguese source)


@pytest.mark.parametrize(
    ("layout", "tricks", "points"),
    [(TAKES_5, (5, 5, 3), (-2, 0, 2)), (TAKES_8, (8, 5, 0), (1, 0, -1)), (TAKES_7, (7, 6, 0), (0, 1, -1))],
    ids=["takes-5-scores-minus-2", "takes-8-scores-plus-1", "takes-7-scores-0"],
)
def test_declarer_with_quota_7_scores_tricks_minus_quota(layout: Layout, tricks: tuple, points: tuple) -> None:
    """Source example: the declarer (quota 7) takes 5 -> -2, takes 8 -> +1, takes 7 -> 0."""
    game = game_with("mizerka", layout.deal(0), first_dealer=2)
    play_layout(game, layout, "notrump")
    r = game.results[0]
    assert (r.dealer, r.declarer, r.contract, r.trump) == (2, 0, "notrump", None)
    assert (r.tricks, r.points) == (tricks, points)
    assert game.totals == list(points)


@pytest.mark.parametrize(
    ("layout", "tricks", "points"),
    [(MIZERKA_DEALER_5, (0, 8, 5), (1, -3, 2)), (MIZERKA_DEALER_8, (0, 5, 8), (1, 0, -1))],
    ids=["dealer-takes-5-scores-plus-2", "dealer-takes-8-scores-minus-1"],
)
def test_dealer_with_quota_7_in_mizerka_scores_quota_minus_tricks(layout: Layout, tricks: tuple, points: tuple) -> None:
    """Source example: in Mizerka the dealer has quota 7; takes 5 -> +2, takes 8 -> -1."""
    game = game_with("mizerka", layout.deal(0), first_dealer=2)
    play_layout(game, layout, "mizerka")
    r = game.results[0]
    assert (r.dealer, r.declarer, r.contract) == (2, 0, "mizerka")
    assert (r.tricks, r.points) == (tricks, points)


def test_misere_quotas_same_keeps_the_plus_quotas() -> None:
    """With misere_quotas = same the dealer's Mizerka quota is 1: taking 5 scores 1 - 5 = -4."""
    game = game_with("mizerka", MIZERKA_DEALER_5.deal(0), first_dealer=2, misere_quotas="same")
    play_layout(game, MIZERKA_DEALER_5, "mizerka")
    assert game.results[0].points == (7 - 0, 5 - 8, 1 - 5)


def test_quotas_go_by_position_from_the_declarer() -> None:
    """The same layout declared by seat 1 gives seat 1 the declarer's score."""
    game = game_with("mizerka", TAKES_5.deal(1), first_dealer=0)
    play_layout(game, TAKES_5, "notrump")
    assert game.results[0].points == (2, -2, 0)


def test_overridden_quotas_are_used() -> None:
    game = game_with("mizerka", TAKES_5.deal(0), first_dealer=2, quotas_plus=[5, 5, 3])
    play_layout(game, TAKES_5, "notrump")
    assert game.results[0].points == (0, 0, 0)


# ------------------------------------------------------------------------------- trick play

FOLLOW = make_deal(
    "2H 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "7H QH 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD",
    "KD AD 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC",
)


def _follow_game(**options: object) -> Game:
    game = game_with("mizerka", FOLLOW, first_dealer=2, **options)
    game.apply(0, Choose("notrump"))
    pass_exchanges(game)
    game.apply(0, Play(cards("2H")[0]))
    return game


def test_must_follow_suit_is_refused_with_the_cards_to_follow() -> None:
    """Holding hearts, middlehand may not discard a diamond on a heart lead; nothing changes."""
    game = _follow_game()
    hand = hand_text(game, 1)
    assert_refused(game, 1, Play(cards("2D")[0]), "MUST_FOLLOW", "must follow hearts: you hold 7H, QH")
    assert hand_text(game, 1) == hand and game.to_act == 1
    game.apply(1, Play(cards("QH")[0]))  # the same player plays again, legally
    game.apply(2, Play(cards("2C")[0]))  # void in hearts: any card
    assert game.tricks == [0, 1, 0]  # QH beats the led 2H; the club does not count


def test_legal_plays_are_the_cards_of_the_led_suit() -> None:
    game = _follow_game()
    assert {a.card for a in game.legal_actions()} == set(cards("7H QH"))
    assert game.decision().actions == game.legal_actions()  # type: ignore[union-attr]


def test_a_card_not_held_is_refused() -> None:
    game = _follow_game()
    assert_refused(game, 1, Play(cards("AH")[0]), "CARD_NOT_HELD", "AH")


def test_the_leader_may_play_any_card() -> None:
    game = game_with("mizerka", FOLLOW, first_dealer=2)
    game.apply(0, Choose("notrump"))
    pass_exchanges(game)
    assert {a.card for a in game.legal_actions()} == set(cards("2H 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"))


TRUMPS = make_deal(
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 2D 3D 4D 5D 6D 7D",
    "9H TH JH QH KH AH 2C 3C 4C 5C 6C 7C 8C",
)


def _trick(contract: str, text: str) -> list[int]:
    game = game_with("mizerka", TRUMPS, first_dealer=2)
    game.apply(0, Choose(contract))
    pass_exchanges(game)
    play(game, text)
    return game.tricks


def test_a_trump_beats_the_led_suit() -> None:
    """Hearts trumps: middlehand, void in spades, ruffs the ace of spades... with the 2 of hearts."""
    assert _trick("hearts", "AS 2H 2C") == [0, 1, 0]


def test_the_highest_trump_wins() -> None:
    assert _trick("hearts", "AS 2H 9H") == [0, 0, 1]


def test_no_obligation_to_trump() -> None:
    """A void player may discard instead of ruffing; then the led suit wins."""
    assert _trick("hearts", "3S 2D 2C") == [1, 0, 0]


def test_without_trumps_off_suit_cards_never_win() -> None:
    """On a spade lead the ace of hearts wins nothing in notrump, nor in diamonds (hearts not trumps)."""
    assert _trick("notrump", "2S 8H AH") == [1, 0, 0]
    assert _trick("diamonds", "2S 8H AH") == [1, 0, 0]  # hearts are not trumps in diamonds


def test_the_winner_leads_the_next_trick() -> None:
    game = game_with("mizerka", TRUMPS, first_dealer=2)
    game.apply(0, Choose("hearts"))
    pass_exchanges(game)
    play(game, "AS 2H 2C")
    assert game.to_act == 1 and game.phase == Phase.PLAY


# ------------------------------------------------------------------------------- contracts


def test_used_contract_is_refused() -> None:
    """Under continuous the same declarer chooses again: its used contract is refused."""
    game = Game(load_ruleset("mizerka", {"declarer": "continuous"}), seed=3)
    game.apply(0, Choose("spades"))
    finish_deal(game)
    assert game.to_act == 0 and game.phase == Phase.CONTRACT
    assert_refused(game, 0, Choose("spades"), "CONTRACT_USED", "spades")
    assert Choose("spades") not in game.legal_actions()
    game.apply(0, Choose("hearts"))


def test_last_contract_is_forced_but_still_announced() -> None:
    """With one contract left the only legal action is that contract, taken explicitly."""
    game = Game(load_ruleset("mizerka-short", {"declarer": "continuous"}), seed=4)
    for name in ("hearts", "notrump"):
        game.apply(0, Choose(name))
        finish_deal(game)
    assert game.phase == Phase.CONTRACT and game.to_act == 0
    assert game.decision().actions == (Choose("mizerka"),)  # type: ignore[union-attr]
    assert_refused(game, 0, Choose("hearts"), "CONTRACT_USED")
    game.apply(0, Choose("mizerka"))
    assert game.contract.name == "mizerka"  # type: ignore[union-attr]


def test_unknown_contract_is_refused() -> None:
    game = Game(load_ruleset("mizerka"), seed=1)
    assert_refused(game, 0, Choose("grand"), "UNKNOWN_CONTRACT", "'grand'")
    assert_refused(game, 0, Choose("trumps", 1), "UNKNOWN_CONTRACT")


@pytest.mark.parametrize("preset", ["spoileri", "trjamann"])
def test_trumps_contract_needs_a_trump(preset: str) -> None:
    game = Game(load_ruleset(preset), seed=1)
    assert_refused(game, 0, Choose("trumps"), "TRUMP_REQUIRED", "HDC")


@pytest.mark.parametrize("preset", ["spoileri", "trjamann"])
def test_spades_may_be_named_only_with_trumps_allow_spades(preset: str) -> None:
    game = Game(load_ruleset(preset), seed=1)
    assert_refused(game, 0, Choose("trumps", 0), "TRUMP_NOT_ALLOWED", "spades")
    assert Choose("trumps", 0) not in game.legal_actions()
    game.apply(0, Choose("trumps", 2))
    assert game.trump == 2

    game = Game(load_ruleset(preset, {"trumps_allow_spades": True}), seed=1)
    assert Choose("trumps", 0) in game.legal_actions()
    game.apply(0, Choose("trumps", 0))
    assert game.trump == 0 and _settled(game) == ("trumps", False)


@pytest.mark.parametrize(("preset", "contract"), [("mizerka", "spades"), ("mizerka", "notrump"), ("mizerka", "mizerka"), ("spoileri", "rami"), ("trjamann", "null")])
def test_a_trump_named_for_a_fixed_contract_is_refused(preset: str, contract: str) -> None:
    game = Game(load_ruleset(preset), seed=1)
    assert_refused(game, 0, Choose(contract, 1), "TRUMP_NOT_ALLOWED", "own trump")


def test_a_second_trumps_contract_is_refused() -> None:
    game = Game(load_ruleset("spoileri", {"declarer": "continuous"}), seed=2)
    game.apply(0, Choose("trumps", 1))
    finish_deal(game)
    assert_refused(game, 0, Choose("trumps", 3), "CONTRACT_USED")


# ------------------------------------------------------------------------------ turn & phase


def test_not_your_turn() -> None:
    """Every kind of action out of turn is refused and changes nothing."""
    game = game_with("mizerka", FOLLOW, first_dealer=2)
    assert_refused(game, 1, Choose("notrump"), "NOT_YOUR_TURN", "seat 0")
    game.apply(0, Choose("notrump"))
    assert_refused(game, 2, Exchange(()), "NOT_YOUR_TURN")
    pass_exchanges(game)
    assert_refused(game, 1, Play(cards("7H")[0]), "NOT_YOUR_TURN")


def test_wrong_phase() -> None:
    """The player to act must take the kind of action the phase asks for."""
    game = game_with("mizerka", FOLLOW, first_dealer=2)
    assert_refused(game, 0, Play(cards("2H")[0]), "WRONG_PHASE", "announce a contract")
    assert_refused(game, 0, Exchange(()), "WRONG_PHASE")
    assert_refused(game, 0, Major("spades"), "WRONG_PHASE", "no major contracts")
    game.apply(0, Choose("notrump"))
    assert_refused(game, 0, Choose("spades"), "WRONG_PHASE", "exchange")
    assert_refused(game, 0, Play(cards("2H")[0]), "WRONG_PHASE")
    pass_exchanges(game)
    assert_refused(game, 0, Exchange(()), "WRONG_PHASE", "play a card")
    assert_refused(game, 0, Choose("spades"), "WRONG_PHASE")


def test_something_that_is_not_an_action_is_refused() -> None:
    game = Game(load_ruleset("mizerka"), seed=1)
    assert_refused(game, 0, ("play", 3), "UNKNOWN_ACTION")  # type: ignore[arg-type]


def test_no_cards_no_actions() -> None:
    """With an external deal source that has no more deals, the game waits and refuses actions."""
    game = game_with("mizerka", FOLLOW, first_dealer=2)
    game.apply(0, Choose("notrump"))
    finish_deal(game)
    assert game.phase == Phase.WAITING and game.decision() is None and not game.finished
    assert_refused(game, 0, Choose("spades"), "DEAL_OVER")


# ----------------------------------------------------------------------------- revoke penalty


def test_revoke_rejected_by_default() -> None:
    game = game_with("mizerka", QUOTAS.deal(0), first_dealer=2)
    game.apply(0, Choose("notrump"))
    pass_exchanges(game)
    play(game, QUOTAS.plays[: 3 * 7 * 3])  # seven spade tricks
    play(game, "2D")
    assert_refused(game, 1, Play(cards("2H")[0]), "MUST_FOLLOW", "must follow diamonds: you hold 9D, TD, JD, QD, KD")


def test_revoke_penalty_voids_the_deal_and_redeals() -> None:
    """revoke = penalty: the revoker loses 10, the deal is void, same dealer and declarer redeal,
    the contract is not consumed and the void deal reports the tricks completed before the revoke."""
    game = game_with("mizerka", QUOTAS.deal(0), QUOTAS.deal(0), first_dealer=2, revoke="penalty")
    game.apply(0, Choose("notrump"))
    pass_exchanges(game)
    play(game, QUOTAS.plays[: 3 * 7 * 3])  # seven spade tricks to the declarer
    play(game, "2D")
    game.apply(1, Play(cards("2H")[0]))  # holds diamonds: a revoke
    void = game.results[0]
    assert void.void and void.revoker == 1
    assert (void.points, void.tricks) == ((0, -10, 0), (7, 0, 0))
    assert (void.dealer, void.declarer, void.contract) == (2, 0, "notrump")
    assert game.totals == [0, -10, 0]
    # The redeal: same dealer and declarer, contract chosen again, nothing used up.
    assert (game.phase, game.to_act, game.dealer, game.declarer) == (Phase.CONTRACT, 0, 2, 0)
    assert (game.deal_no, game.redeal) == (0, 1)
    assert project(game, FULL).used == ((), (), ())
    assert Choose("notrump") in game.legal_actions()
    play_layout(game, QUOTAS, "notrump")
    redeal = game.results[1]
    assert not redeal.void and (redeal.deal_no, redeal.redeal) == (0, 1)
    assert redeal.points == (0, 0, 0) and game.totals == [0, -10, 0]
    assert project(game, FULL).used == (("notrump",), (), ())
    assert game.caller == 1  # the rotation goes on only after a deal that counts


# ------------------------------------------------------------------------------ blind exchange


def _exchange_game() -> Game:
    game = game_with("mizerka", QUOTAS.deal(0), first_dealer=2)
    game.apply(0, Choose("notrump"))
    return game


def test_blind_exchange_takes_the_talon_top_in_turn() -> None:
    """Declarer, then middlehand, then dealer each discard k and take the next k talon cards."""
    game = _exchange_game()
    talon = "2S 3S 4S 5S 6S 7S 8D AD TC JC QC KC AC".split()  # the rest of the deck, top first
    assert [c for c in game.talon] == list(cards(" ".join(talon)))
    game.apply(0, Exchange(cards("2D 3D")))
    assert {"2S", "3S"} <= hand_text(game, 0) and not {"2D", "3D"} & hand_text(game, 0)
    assert game.to_act == 1
    game.apply(1, Exchange(cards("2H 3H 4H")))
    assert {"4S", "5S", "6S"} <= hand_text(game, 1)
    game.apply(2, Exchange(()))
    assert game.exchanged == [2, 3, 0]
    assert (game.phase, game.to_act) == (Phase.PLAY, 0)
    assert [len(hand_text(game, s)) for s in range(3)] == [13, 13, 13]


def test_blind_exchange_cannot_exceed_the_talon_left() -> None:
    """k may not exceed the cards left; once the talon is empty the others must pass (explicitly)."""
    game = _exchange_game()
    game.apply(0, Exchange(cards("2D 3D 4D 5D 6D 7D 8S 9S TS JS QS KS")))  # 12 of 13
    assert_refused(game, 1, Exchange(cards("2H 3H")), "BAD_EXCHANGE", "at most 1")
    game.apply(1, Exchange(cards("2H")))
    assert_refused(game, 2, Exchange(cards("2C")), "BAD_EXCHANGE", "at most 0")
    assert game.decision().max_exchange == 0  # type: ignore[union-attr]
    game.apply(2, Exchange(()))
    assert game.phase == Phase.PLAY


def test_blind_exchange_refuses_take_repeats_and_cards_not_held() -> None:
    game = _exchange_game()
    assert_refused(game, 0, Exchange(cards("2D"), cards("2S")), "BAD_EXCHANGE", "blind")
    assert_refused(game, 0, Exchange(cards("2D"), ()), "BAD_EXCHANGE", "blind")
    assert_refused(game, 0, Exchange(cards("2D 2D")), "BAD_EXCHANGE", "twice")
    assert_refused(game, 0, Exchange(cards("2H")), "BAD_EXCHANGE", "you do not hold 2H")


def test_each_player_exchanges_once() -> None:
    game = _exchange_game()
    game.apply(0, Exchange(cards("2D")))
    assert_refused(game, 0, Exchange(cards("3D")), "NOT_YOUR_TURN")
    pass_exchanges(game)
    assert_refused(game, 0, Exchange(cards("3D")), "WRONG_PHASE")


def test_blind_exchange_in_four_player_game_goes_round_all_four() -> None:
    game = Game(load_ruleset("mizerka-4p"), seed=8)
    game.apply(0, game.legal_actions()[0])
    order = []
    while game.phase == Phase.EXCHANGE:
        order.append(game.to_act)
        game.apply(game.to_act, Exchange(()))
    assert order == [0, 1, 2, 3]


# ------------------------------------------------------------------------------- pick exchange

PICK = make_deal(
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2H 3H 4H",
    "5H 6H 7H 8H 9H TH JH QH KH AH 2D 3D 4D 5D 6D 7D",
    "8D 9D TD JD QD KD AD 2C 3C 4C 5C 6C 7C 8C 9C TC",
)  # talon: JC QC KC AC


def _pick_game(preset: str = "trjamann") -> Game:
    game = game_with(preset, PICK, first_dealer=2)
    game.apply(0, Choose("grand"))
    if preset == "manni-major":
        game.apply(1, Major(None))
        game.apply(2, Major(None))
    return game


@pytest.mark.parametrize("preset", ["trjamann", "manni-major"])
def test_pick_exchange_by_the_declarer_only(preset: str) -> None:
    """Only the declarer exchanges, naming k discards and k talon cards; then it leads."""
    game = _pick_game(preset)
    decision = game.decision()
    assert decision is not None and decision.pick and decision.seat == 0 and decision.max_exchange == 4
    assert set(decision.talon) == set(cards("JC QC KC AC"))
    assert_refused(game, 1, Exchange(cards("5H"), cards("JC")), "NOT_YOUR_TURN")
    game.apply(0, Exchange(cards("2H 3H"), cards("AC KC")))
    assert {"AC", "KC"} <= hand_text(game, 0) and not {"2H", "3H"} & hand_text(game, 0)
    assert len(hand_text(game, 0)) == 16
    assert (game.phase, game.to_act) == (Phase.PLAY, 0)
    assert game.exchanged == [2, None, None]
    assert_refused(game, 1, Exchange(()), "NOT_YOUR_TURN")


@pytest.mark.parametrize(
    ("discard", "take", "why"),
    [
        ("2H 3H", "AC", "same number"),
        ("2H", "", "same number"),
        ("2H", "2D", "talon"),  # not a talon card
        ("2H 3H", "AC AC", "talon"),  # repeated
        ("2H 3H 4H 2S 3S", "JC QC KC AC AC", "talon"),  # five cards
        ("5H", "AC", "you do not hold 5H"),
        ("2H 2H", "AC KC", "twice"),
    ],
)
def test_pick_exchange_refusals(discard: str, take: str, why: str) -> None:
    game = _pick_game()
    assert_refused(game, 0, Exchange(cards(discard), cards(take)), "BAD_EXCHANGE", why)


def test_pick_exchange_pass() -> None:
    game = _pick_game()
    game.apply(0, Exchange((), ()))
    assert game.phase == Phase.PLAY and game.exchanged == [0, None, None]


# ----------------------------------------------------------------------------------- majors


def _manni(seed: int = 1, **options: object) -> Game:
    return Game(load_ruleset("manni-major", options), seed=seed)


def _used(game: Game) -> tuple[tuple[str, ...], ...]:
    return project(game, FULL).used


def _settled(game: Game) -> tuple[str, bool]:
    """The settled contract: the ruleset's name and whether it is played as a major."""
    assert game.contract is not None
    return game.contract.name, game.major


def test_major_round_starts_at_the_declarers_left() -> None:
    game = _manni()
    game.apply(0, Choose("spades"))
    assert (game.phase, game.to_act) == (Phase.MAJOR, 1)
    assert set(game.legal_actions()) == {Major("spades"), Major(None)}
    assert_refused(game, 2, Major("spades"), "NOT_YOUR_TURN")
    assert_refused(game, 1, Major("hearts"), "BAD_MAJOR", "spades")  # only "C major" may be announced
    game.apply(1, Major(None))
    assert game.to_act == 2


def test_nobody_announces_the_declarer_plays_its_contract() -> None:
    game = _manni()
    game.apply(0, Choose("hearts"))
    game.apply(1, Major(None))
    game.apply(2, Major(None))
    assert (game.phase, game.to_act, game.declarer, _settled(game)) == (Phase.EXCHANGE, 0, 0, ("hearts", False))
    finish_deal(game)
    assert (game.results[0].contract, game.results[0].major) == ("hearts", False) and _used(game) == (("hearts",), (), ())


def test_uncontested_major_is_played_and_used_by_the_announcer() -> None:
    game = _manni()
    game.apply(0, Choose("spades"))
    game.apply(1, Major("spades"))
    assert game.to_act == 0  # the declarer may contest
    game.apply(0, Major(None))
    assert game.to_act == 2  # then the third player
    game.apply(2, Major(None))
    assert (game.declarer, _settled(game), game.trump, game.to_act) == (1, ("spades", True), 0, 1)
    finish_deal(game)
    r = game.results[0]
    assert (r.caller, r.declarer, r.contract, r.major, r.label) == (0, 1, "spades", True, "spades major")
    assert _used(game) == ((), ("spades",), ())
    assert game.caller == 1  # the role passes on from the original declarer, not from the announcer


def test_declarer_contests_with_any_unused_major() -> None:
    """Source example: A declares diamonds, C announces diamonds major, A contests with grand major."""
    game = _manni()
    game.apply(0, Choose("diamonds"))
    game.apply(1, Major(None))
    game.apply(2, Major("diamonds"))
    assert_refused(game, 0, Major("null"), "BAD_MAJOR")  # no null major
    game.apply(0, Major("grand"))
    assert (game.declarer, _settled(game), game.trump, game.phase) == (0, ("grand", True), None, Phase.EXCHANGE)
    finish_deal(game)
    assert _used(game) == (("grand",), (), ())  # grand, not diamonds, is used up by A


def test_declarer_may_contest_with_its_own_contract() -> None:
    game = _manni()
    game.apply(0, Choose("clubs"))
    game.apply(1, Major("clubs"))
    game.apply(0, Major("clubs"))
    assert (game.declarer, _settled(game)) == (0, ("clubs", True))


def test_third_player_contests_only_above_the_contract() -> None:
    """Source example: A declares diamonds, C announces it major, A passes; B needs grand, hearts or spades."""
    game = _manni()
    game.apply(0, Choose("diamonds"))
    game.apply(1, Major("diamonds"))
    game.apply(0, Major(None))
    assert game.to_act == 2
    assert set(game.legal_actions()) == {Major("grand"), Major("hearts"), Major("spades"), Major(None)}
    assert_refused(game, 2, Major("clubs"), "BAD_MAJOR")
    assert_refused(game, 2, Major("diamonds"), "BAD_MAJOR")
    assert_refused(game, 2, Major("null"), "BAD_MAJOR")
    assert_refused(game, 1, Major("hearts"), "NOT_YOUR_TURN")
    game.apply(2, Major("spades"))
    assert (game.declarer, _settled(game)) == (2, ("spades", True))
    finish_deal(game)
    assert _used(game) == ((), (), ("spades",))  # nothing used by A or C


def test_nothing_ranks_above_grand() -> None:
    game = _manni()
    game.apply(0, Choose("grand"))
    game.apply(1, Major("grand"))
    game.apply(0, Major(None))
    assert game.legal_actions() == (Major(None),)
    assert_refused(game, 2, Major("hearts"), "BAD_MAJOR", "only pass")
    game.apply(2, Major(None))
    assert (game.declarer, _settled(game)) == (1, ("grand", True))


def test_null_has_no_major_round() -> None:
    game = _manni()
    game.apply(0, Choose("null"))
    assert (game.phase, game.to_act) == (Phase.EXCHANGE, 0)
    assert_refused(game, 1, Major("null"), "NOT_YOUR_TURN")
    assert_refused(game, 0, Major(None), "WRONG_PHASE")


def test_a_player_who_used_the_contract_may_not_announce_it_major() -> None:
    game = _manni()
    game.apply(0, Choose("spades"))
    game.apply(1, Major(None))
    game.apply(2, Major(None))
    finish_deal(game)
    assert game.caller == 1
    game.apply(1, Choose("spades"))
    game.apply(2, Major(None))
    assert game.to_act == 0 and game.legal_actions() == (Major(None),)
    assert_refused(game, 0, Major("spades"), "BAD_MAJOR")


# Effective declarer at position 1 of a grand major: 13 spades and top cards.
MAJOR_16 = make_deal(
    "KH QH JH TH 9H 8H 7H 6H KD QD JD TD 9D 8D 7D 6D",
    "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AH AD AC",
    "5H 4H 3H 2H 5D 4D 3D 2D KC QC JC TC 9C 8C 7C 6C",
)
MAJOR_15 = make_deal(
    "KH QH JH TH 9H 8H 7H 6H KD QD JD TD 9D 8D 7D 6D",
    "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AH AD 2C",
    "5H 4H 3H 2H 5D 4D 3D 2D AC KC QC JC TC 9C 8C 7C",
)
MAJOR_14 = make_deal(
    "KH QH JH TH 9H 8H 7H 6H AD KD QD JD TD 9D 8D 7D",
    "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AH 2D 2C",
    "5H 4H 3H 2H 6D 5D 4D 3D AC KC QC JC TC 9C 8C 7C",
)
SPADE_RUN = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S".split()


def _spades_then(seat2: str, seat0: str, rest: str) -> str:
    """Seat 1 runs its 13 spades (seats 2 and 0 discarding these cards), then ``rest``."""
    return " ".join(f"{s} {a} {b}" for s, a, b in zip(SPADE_RUN, seat2.split(), seat0.split())) + " " + rest


def _grand_major_by_seat_1(deal: Deal) -> Game:
    game = game_with("manni-major", deal, first_dealer=2)
    game.apply(0, Choose("grand"))
    game.apply(1, Major("grand"))
    game.apply(0, Major(None))
    game.apply(2, Major(None))
    assert (game.declarer, _settled(game), game.to_act) == (1, ("grand", True), 1)
    game.apply(1, Exchange((), ()))
    return game


def test_major_all_16_tricks_scores_plus_8_minus_4() -> None:
    """Seat 1 leads 13 spades and three aces: it wins every trick, whatever the others play."""
    game = _grand_major_by_seat_1(MAJOR_16)
    finish_deal(game)
    r = game.results[0]
    assert (r.tricks, r.points) == ((0, 16, 0), (-4, 8, -4))


def test_major_15_tricks_scores_plus_4_minus_2() -> None:
    game = _grand_major_by_seat_1(MAJOR_15)
    play(game, _spades_then(
        "2H 3H 4H 5H 2D 3D 4D 5D 7C 8C 9C TC JC",
        "6H 7H 8H 9H TH JH QH 6D 7D 8D 9D TD JD",
        "AH QC KH AD KC KD 2C AC QD",
    ))
    r = game.results[0]
    assert (r.tricks, r.points) == ((0, 15, 1), (-2, 4, -2))


def test_major_otherwise_scores_normally_with_quotas_14_1_1() -> None:
    """14 tricks: exactly the quota (0); the others took 2 and 0 against quota 1 (+1, -1)."""
    game = _grand_major_by_seat_1(MAJOR_14)
    play(game, _spades_then(
        "2H 3H 4H 3D 4D 5D 6D 7C 8C 9C TC JC QC",
        "6H 7H 8H 9H TH JH QH 7D 8D 9D TD JD QD",
        "AH 5H KH 2D KC KD AD 2C AC",
    ))
    r = game.results[0]
    assert (r.tricks, r.points) == ((2, 14, 0), (1, 0, -1))


def test_majors_are_refused_outside_manni_major() -> None:
    game = Game(load_ruleset("trjamann"), seed=1)
    game.apply(0, Choose("grand"))
    assert_refused(game, 0, Major("grand"), "WRONG_PHASE")
    assert game.phase == Phase.EXCHANGE


# --------------------------------------------------------------------------------- rotation


def _roles(preset: str, first_dealer: int | None = None, **options: object) -> list[tuple[int, int]]:
    game = Game(load_ruleset(preset, options), seed=11, first_dealer=first_dealer)
    finish_game(game)
    return [(r.dealer, r.declarer) for r in game.results]


def test_rotation_alternate() -> None:
    """Next dealer = previous declarer; next declarer = the player to its left. 18 deals."""
    assert _roles("mizerka") == [(2, 0), (0, 1), (1, 2)] * 6
    assert _roles("mizerka", first_dealer=0) == [(0, 1), (1, 2), (2, 0)] * 6
    assert _roles("mizerka-4p") == [(3, 0), (0, 1), (1, 2), (2, 3)] * 6


def test_rotation_continuous() -> None:
    """The declarer keeps the role for as many deals as there are contracts; dealer on its right."""
    assert _roles("mizerka", declarer="continuous") == [(2, 0)] * 6 + [(0, 1)] * 6 + [(1, 2)] * 6


def test_rotation_dealer_declares() -> None:
    assert _roles("mizerka", declarer="dealer") == [(0, 0), (1, 1), (2, 2)] * 6
    assert _roles("mizerka", first_dealer=2, declarer="dealer") == [(2, 2), (0, 0), (1, 1)] * 6


def test_rotation_continuous_dealer() -> None:
    assert _roles("mizerka-short", declarer="continuous-dealer") == [(0, 0)] * 3 + [(1, 1)] * 3 + [(2, 2)] * 3


def test_shortened_game_deals_n() -> None:
    """deals = 9: nine deals, each player declares three times (in a row under continuous)."""
    assert _roles("mizerka", deals=9) == [(2, 0), (0, 1), (1, 2)] * 3
    assert _roles("mizerka", deals=9, declarer="continuous") == [(2, 0)] * 3 + [(0, 1)] * 3 + [(1, 2)] * 3
    assert _roles("mizerka-4p", deals=4) == [(3, 0), (0, 1), (1, 2), (2, 3)]


def test_every_contract_used_once_per_player() -> None:
    game = Game(load_ruleset("spoileri"), seed=12)
    finish_game(game)
    assert sorted((r.declarer, r.contract) for r in game.results) == sorted(
        (s, c) for s in range(3) for c in ("nolo", "rami", "spades", "trumps")
    )


def _greedy_major_game(**options: object) -> Game:
    """Default play, except that the first player asked always announces a major when it may."""
    game = Game(load_ruleset("manni-major", options), seed=13)
    while not game.finished:
        announced = any(kind == "major" and name for _, kind, name in project(game, FULL).announcements)
        if game.phase == Phase.MAJOR and not announced and game.legal_actions()[0] != Major(None):
            game.apply(game.to_act, game.legal_actions()[0])
            continue
        decision = game.decision()
        assert decision is not None
        if decision.kind == Phase.MAJOR:
            game.apply(decision.seat, Major(None))
        elif decision.kind == Phase.EXCHANGE:
            game.apply(decision.seat, pass_action(game))
        else:
            game.apply(decision.seat, decision.actions[0])
    return game


def _check_manni_rotation(mode: str) -> list:
    """docs/rules.md §6.5: the role passes clockwise from the original declarer, skipping players with no
    contract left (continuous: it stays while the declarer has one); the game ends when none is left.
    Returns the deals' results; each step is checked against the rule."""
    game = _greedy_major_game(declarer=mode)
    results = game.results
    assert len(results) == 18
    assert sorted((r.declarer, r.contract) for r in results) == sorted(
        (s, c.name) for s in range(3) for c in game.rules.contracts
    )
    assert any(r.major for r in results)
    left = [6, 6, 6]
    for a, b in zip(results, results[1:]):
        left[a.declarer] -= 1
        candidates = ([a.caller] if mode == "continuous" else []) + [(a.caller + i) % 3 for i in (1, 2, 3)]
        expected = next(p for p in candidates if left[p] > 0)
        assert b.caller == expected
        assert b.dealer == (b.caller - 1) % 3
    return results


def test_manni_rotation_skips_players_without_contracts() -> None:
    """Greedy majors use up seat 1's contracts early: late in the game the role jumps from 0 to 2."""
    results = _check_manni_rotation("alternate")
    callers = [r.caller for r in results]
    assert any(b == (a + 2) % 3 for a, b in zip(callers, callers[1:])), callers


def test_manni_rotation_continuous_keeps_the_declarer_while_it_has_contracts() -> None:
    """Every announcement steals the caller's contract for another player, so seat 0 keeps the role
    until it has played all six itself; then seats 1 and 2 play their last contract (null)."""
    results = _check_manni_rotation("continuous")
    assert [r.caller for r in results] == [0] * 16 + [1, 2]
    assert [r.contract for r in results[-3:]] == ["null"] * 3


# ------------------------------------------------------------------------------- tie-breaks


def _tie_game(*deals: Deal, **options: object) -> Game:
    return game_with("mizerka-short", *deals, first_dealer=2, deals=3, **options)


def test_no_tiebreak_by_default_a_tie_stands() -> None:
    game = _tie_game(QUOTAS.deal(0), QUOTAS.deal(1), QUOTAS.deal(2))
    for _ in range(3):
        play_layout(game, QUOTAS, "notrump")
    assert game.finished and game.totals == [0, 0, 0] and len(game.results) == 3


def test_tiebreak_lowest_is_declared_by_the_lowest_total() -> None:
    """Totals 2, 2, -4: one extra notrump deal declared by seat 2 (dealer on its right), no contract
    choice, no contract used; it breaks the tie and the game ends."""
    game = _tie_game(TAKES_7.deal(0), MIZERKA_DEALER_5.deal(1), QUOTAS.deal(2), TAKES_8.deal(2), tiebreak="lowest")
    play_layout(game, TAKES_7, "notrump")
    play_layout(game, MIZERKA_DEALER_5, "mizerka")
    play_layout(game, QUOTAS, "notrump")
    assert game.totals == [2, 2, -4] and not game.finished
    assert (game.tiebreak, game.phase, game.to_act, game.declarer, game.dealer) == (True, Phase.EXCHANGE, 2, 2, 1)
    assert _settled(game) == ("notrump", False)
    assert_refused(game, 2, Choose("hearts"), "WRONG_PHASE")
    used = _used(game)
    pass_exchanges(game)
    play(game, TAKES_8.plays)
    r = game.results[-1]
    assert (r.tiebreak, r.declarer, r.dealer, r.contract, r.points) == (True, 2, 1, "notrump", (0, -1, 1))
    assert game.finished and game.totals == [2, 1, -3]
    assert _used(game) == used


def test_tiebreak_lowest_equal_lowest_is_the_lowest_seat() -> None:
    game = _tie_game(QUOTAS.deal(0), QUOTAS.deal(1), QUOTAS.deal(2), TAKES_8.deal(0), tiebreak="lowest")
    for _ in range(3):
        play_layout(game, QUOTAS, "notrump")
    assert (game.declarer, game.dealer) == (0, 2)
    play_layout(game, TAKES_8, "notrump")
    assert game.finished and game.totals == [1, 0, -1]


def test_tiebreak_random_uses_the_drawn_declarer() -> None:
    game = _tie_game(QUOTAS.deal(0), QUOTAS.deal(1), QUOTAS.deal(2), TAKES_8.deal(1, tiebreak_declarer=1), tiebreak="random")
    for _ in range(3):
        play_layout(game, QUOTAS, "notrump")
    assert (game.declarer, game.dealer, game.tiebreak) == (1, 0, True)
    play_layout(game, TAKES_8, "notrump")
    assert game.finished and game.results[-1].points == (-1, 1, 0)


def test_tiebreak_under_dealer_declares() -> None:
    game = game_with(
        "mizerka-short", QUOTAS.deal(0), QUOTAS.deal(1), QUOTAS.deal(2), TAKES_8.deal(0),
        first_dealer=0, deals=3, tiebreak="lowest", declarer="dealer",
    )
    for _ in range(3):
        play_layout(game, QUOTAS, "notrump")
    assert (game.declarer, game.dealer) == (0, 0)


def test_tiebreak_stops_after_tiebreak_max() -> None:
    """Still tied after tiebreak_max extra deals: the game ends tied."""
    game = _tie_game(*(QUOTAS.deal(d) for d in (0, 1, 2, 0, 0, 0)), tiebreak="lowest", tiebreak_max=2)
    for _ in range(5):
        play_layout(game, QUOTAS, "notrump")
    assert game.finished and game.totals == [0, 0, 0]
    assert [r.tiebreak for r in game.results] == [False, False, False, True, True]


def test_void_tiebreak_deal_is_redealt_and_not_counted() -> None:
    """A revoked tie-break deal is replayed by the same declarer and does not use up tiebreak_max."""
    game = _tie_game(
        *(QUOTAS.deal(d) for d in (0, 1, 2, 0)), TAKES_8.deal(0),
        tiebreak="lowest", tiebreak_max=1, revoke="penalty",
    )
    for _ in range(3):
        play_layout(game, QUOTAS, "notrump")
    pass_exchanges(game)
    play(game, QUOTAS.plays[: 3 * 7 * 3] + " 2D")
    game.apply(1, Play(cards("2H")[0]))  # revoke
    assert game.results[-1].void and game.results[-1].tiebreak
    assert game.totals == [0, -10, 0] and not game.finished
    assert (game.tiebreak, game.declarer, game.dealer, game.phase) == (True, 0, 2, Phase.EXCHANGE)
    play_layout(game, TAKES_8, "notrump")
    assert game.finished and game.totals == [1, -10, -1]
    assert [(r.tiebreak, r.void) for r in game.results] == [(False, False)] * 3 + [(True, True), (True, False)]


# -------------------------------------------------------------------------------- game end


def test_game_ends_after_every_contract_and_refuses_everything() -> None:
    game = Game(load_ruleset("mizerka-short"), seed=21)
    finish_game(game)
    assert game.finished and game.phase == Phase.OVER and game.decision() is None
    assert len(game.results) == 9 and game.log[-1] == GameOver(tuple(game.totals))
    assert game.totals == [sum(r.points[s] for r in game.results) for s in range(3)]
    for seat, action in [(0, Choose("hearts")), (1, Play(0)), (2, Exchange(())), (0, Major(None))]:
        assert_refused(game, seat, action, "GAME_OVER", "over")


def test_game_over_is_reported_even_to_the_seat_that_would_act() -> None:
    """GAME_OVER wins over NOT_YOUR_TURN: after the end nobody is to act."""
    game = Game(load_ruleset("mizerka-short", {"deals": 3}), seed=22)
    finish_game(game)
    assert game.to_act not in range(3)
    with pytest.raises(IllegalAction) as info:
        game.apply(game.to_act, Play(0))
    assert info.value.code == "GAME_OVER"
