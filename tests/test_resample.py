"""``mizerka_engine.resample``: a game drawn for one seat is one that seat cannot tell from the real one.

Over random games of every preset (and of random option combinations), at random moments and for
every seat, each resampled game projects to exactly the seat's view of the real game, gives no seat
a card of a suit it showed it lacks, and plays on to the end of the deal with random legal actions.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mizerka_engine.cards import SUIT_MASKS
from mizerka_engine.game import Game, Phase
from mizerka_engine.resample import resample
from mizerka_engine.rules import PRESETS, load_ruleset
from mizerka_engine.views import FULL, project
from server.policies import random_action

from test_properties import NO_SHRINK, option_sets

SAMPLES = 3  # resampled games per seat and moment


def shown_voids(game: Game) -> list[int]:
    """Per seat, the cards of the suits it failed to follow in the deal so far (from the full view)."""
    voids = [0] * game.n
    for trick in project(game, FULL).tricks:
        led = trick.cards[0][1] // 13
        for seat, card in trick.cards[1:]:
            if card // 13 != led:
                voids[seat] |= SUIT_MASKS[led]
    return voids


def check_resamples(game: Game, rng: random.Random) -> None:
    """Every seat's resampled games agree with its view, respect every shown void and play on."""
    voids = shown_voids(game)
    for seat in range(game.n):
        view = project(game, seat)
        for _ in range(SAMPLES):
            sample = resample(view, game.rules, rng)
            assert project(sample, seat) == view, f"seat {seat} can tell the resampled game from the real one"
            for j in range(game.n):
                assert not sample.hands[j] & voids[j], f"seat {j} was given a card of a suit it showed it lacks"
            deals = len(sample.results)
            while sample.phase < Phase.WAITING:  # the engine plays on to the end of the deal
                sample.apply(sample.to_act, random_action(sample, rng))
            assert len(sample.results) == deals + 1


@settings(max_examples=40, deadline=None, phases=NO_SHRINK, suppress_health_check=[HealthCheck.too_slow])
@given(ruleset=st.one_of(st.sampled_from(sorted(PRESETS)).map(lambda p: (p, {})), option_sets()),
       seed=st.integers(0, 2**32), moments=st.integers(1, 8))
def test_a_resampled_game_is_one_the_seat_cannot_tell_from_the_real_one(
    ruleset: tuple[str, dict[str, Any]], seed: int, moments: int
) -> None:
    preset, options = ruleset
    game = Game(load_ruleset(preset, options), seed=seed)
    rng = random.Random(seed)
    actions: list[tuple[int, Any]] = []
    while not game.finished:  # a whole game of random actions, then replayed to the moments drawn
        decision = game.decision()
        assert decision is not None
        action = random_action(game, rng)
        actions.append((decision.seat, action))
        game.apply(decision.seat, action)
    chosen = {0, *rng.sample(range(len(actions)), min(moments, len(actions)))}  # 0: the first deal's start
    replay = Game(game.rules, seed=seed)
    for i, (seat, action) in enumerate(actions):
        if i in chosen:
            check_resamples(replay, rng)
        replay.apply(seat, action)
    with pytest.raises(ValueError):  # nothing is hidden once the game is over
        resample(project(replay, 0), replay.rules, rng)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_hidden_cards_are_drawn_anew(preset: str) -> None:
    """The cards a seat cannot see differ between samples (a sampler that returned the real deal
    would pass the test above), and its own never do."""
    game = Game(PRESETS[preset], seed=3)
    rng = random.Random(3)
    while game.phase != Phase.PLAY:
        game.apply(game.to_act, random_action(game, rng))
    seat = game.to_act
    view = project(game, seat)
    samples = [resample(view, game.rules, random.Random(i)) for i in range(4)]
    assert len({tuple(s.hands[j] for j in range(game.n) if j != seat) for s in samples}) > 1
    assert {s.hands[seat] for s in samples} == {game.hands[seat]}


def test_a_spectator_or_full_view_is_refused() -> None:
    game = Game(PRESETS["mizerka"], seed=1)
    for audience in (-1, FULL):
        with pytest.raises(ValueError):
            resample(project(game, audience), game.rules, random.Random(0))
