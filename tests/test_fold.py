"""The one fold of the event log (mizerka_engine.fold) against what the game itself recorded: random
games of every preset (some with revokes), folded for every audience one action at a time, as the
referee folds each seat's events. The tricks, their cards and winners, the seat winning the trick in
progress, the tricks per seat and every deal's record must be the game's, and a seat's or the
spectator's fold must hold no card its projection hid."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from mizerka_engine.events import ContractAnnounced, Dealt, Exchanged, MajorAnnounced, Played, Revoked, TrickTaken
from mizerka_engine.fold import NO_DEAL, DealState, deal_step, fold_deals
from mizerka_engine.game import Game
from mizerka_engine.rules import PRESETS, load_ruleset
from mizerka_engine.views import FULL, SPECTATOR, deal_state, project_events

from test_properties import NO_SHRINK
from test_properties import trick_winner as rule_winner
from test_seat_view import action


def _check_deal(game: Game, deal: DealState) -> None:
    """The deal in progress (or the last one, once the game is over) as the game holds it."""
    n = game.n
    assert deal.plays == tuple(game.trick)
    assert deal.tricks_won(n) == tuple(game.tricks)
    current = deal.current
    if current is None:
        assert not game.trick
    else:  # the rule's winner so far, from the rules text (test_properties), not the engine's
        assert current.leader == game.trick[0][0] and current.winner is None
        assert current.winning == rule_winner(game.trick, game.trump)
        assert game.winning == current.winning  # the game's running step, which kept seat views read
    beats = game.beats  # the cards that would take the trick as it stands: the rule's, card by card
    assert [beats >> c & 1 == 1 for c in range(52)] == [
        rule_winner([*game.trick, (-1, c)], game.trump) == -1 for c in range(52)]
    leaders = [game.declarer] + [t.winner for t in deal.tricks]
    for trick, leader in zip(deal.tricks, leaders):
        assert len(trick.cards) == n and trick.leader == leader == trick.cards[0][0]
        assert trick.winner == trick.winning == rule_winner(list(trick.cards), game.trump)
    assert deal.all_tricks == deal.tricks + ((current,) if current else ())


def _check_records(game: Game, audience: int, deals: list[DealState]) -> None:
    """Every deal's record is the game's log and results, cut as the audience's projection cuts it."""
    log = game.log
    starts = [i for i, e in enumerate(log) if type(e) is Dealt]
    assert len(deals) == len(starts) and len(game.results) in (len(deals), len(deals) - 1)
    for k, (deal, start) in enumerate(zip(deals, starts)):
        events = log[start : starts[k + 1] if k + 1 < len(starts) else len(log)]
        full = events[0]
        assert isinstance(full, Dealt) and deal.dealt is not None
        assert deal.dealt.hands == (full.hands if audience == FULL else None)
        assert deal.dealt.talon == (full.talon if audience == FULL else None)
        assert deal.dealt == Dealt(full.deal_no, full.redeal, full.tiebreak, full.dealer, full.declarer,
                                   deal.dealt.hands, deal.dealt.talon)
        assert [(a.seat, a.kind, a.contract) for a in deal.announcements] == [
            (e.seat, e.kind, e.contract) for e in events if isinstance(e, ContractAnnounced | MajorAnnounced)]
        exchanges = [e for e in events if isinstance(e, Exchanged)]
        assert [(x.seat, x.count) for x in deal.exchanges] == [(x.seat, x.count) for x in exchanges]
        for mine, theirs in zip(deal.exchanges, exchanges):
            shown = audience in (FULL, mine.seat)
            assert (mine.discard, mine.take) == ((theirs.discard, theirs.take) if shown else (None, None))
        plays = [(e.seat, e.card) for e in events if isinstance(e, Played)]
        assert [p for t in deal.all_tricks for p in t.cards] == plays
        assert [t.winner for t in deal.tricks] == [e.winner for e in events if isinstance(e, TrickTaken)]
        assert deal.revoked == next((e for e in events if isinstance(e, Revoked)), None)
        if k < len(game.results):
            assert deal.scored is not None and deal.scored.result == game.results[k]
            assert deal.tricks_won(game.n) == game.results[k].tricks
        else:
            assert deal.scored is None


@settings(max_examples=40, phases=NO_SHRINK)
@given(preset=st.sampled_from(sorted(PRESETS)), revoke=st.booleans(), seed=st.integers(0, 2**31 - 1))
def test_the_fold_is_what_the_game_recorded_for_every_audience(preset: str, revoke: bool, seed: int) -> None:
    rules = load_ruleset(preset, {"revoke": "penalty"} if revoke else {})
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    audiences = [*range(rules.players), SPECTATOR, FULL]
    states = dict.fromkeys(audiences, NO_DEAL)
    cursor = 0
    while True:
        for audience in audiences:
            state = states[audience]
            for e in project_events(game, audience, cursor):
                if type(e) is TrickTaken:  # the winner so far after the trick's last card is its winner
                    assert state.current is not None and len(state.plays) == game.n
                    assert state.current.winning == e.winner
                state = deal_step(state, e)
            states[audience] = state
            _check_deal(game, state)
            assert state == deal_state(game, audience)  # the views' fold of the deal so far
        assert all(s.all_tricks == states[FULL].all_tricks for s in states.values())  # tricks are public
        cursor = len(game.log)
        if game.finished:
            break
        game.apply(game.to_act, action(game, rng))  # type: ignore[arg-type]
    for audience in audiences:
        _check_records(game, audience, fold_deals(project_events(game, audience)))
    if revoke:  # the property meant to cover void deals (a trick cut short, a revoke in the record)
        assert any(r.void for r in game.results)


def test_a_game_cut_short_ends_in_a_deal_without_result() -> None:
    """An aborted game's last deal is folded as far as it went: its trick in progress, no result."""
    rules = load_ruleset("mizerka")
    game = Game(rules, seed="cut")
    rng = random.Random(5)
    while len(game.results) < 2 or len(game.trick) < 2:
        game.apply(game.to_act, action(game, rng))  # type: ignore[arg-type]
    deals = fold_deals(project_events(game, FULL))
    assert len(deals) == 3 and deals[-1].scored is None
    assert deals[-1].plays == tuple(game.trick) and deals[-1].all_tricks[-1].winner is None
    _check_records(game, FULL, deals)
