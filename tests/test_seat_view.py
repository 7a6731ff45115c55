"""The SeatView the referee keeps for each seat (server/codec/wire_events.py SeatViewKeeper) is the view the
one projection gives: for random full games of every preset, after every action, each seat's kept
message equals ``view_to_proto(project(game, seat))`` -- fed after every action or only now and then
(several actions, whole deals at once), as the referee feeds a seat only when it asks it."""

from __future__ import annotations

import copy
import random

import pytest

from mizerka_engine.actions import Play
from mizerka_engine.game import Game, Phase
from mizerka_engine.rules import PRESETS, load_ruleset
from mizerka_engine.views import project, project_events
from server.codec import protocol as P
from server.codec.wire_events import SeatViewKeeper
from server.policies import random_action

NAMES = ["north-bot", "east-bot", "south-bot", "west-bot"]
GAMES = [(p, {}) for p in PRESETS] + [
    ("mizerka", {"revoke": "penalty"}),
    ("mizerka", {"choose_after": 6}),
    ("mizerka-short", {"declarer": "continuous-dealer", "deals": 3, "tiebreak": "lowest"}),
    ("manni-major", {"declarer": "dealer", "deals": 6}),
    ("trjamann", {"trumps_allow_spades": True, "revoke": "penalty"}),
]


def action(game: Game, rng: random.Random) -> object:
    """A random legal action; under revoke = penalty now and then a revoke (a deal that ends early)."""
    if game.rules.revoke == "penalty" and game.phase == Phase.PLAY and game.trick and rng.random() < 0.05:
        led = game.trick[0][1] // 13
        hand = [c for c in range(52) if game.hands[game.to_act] >> c & 1]
        off = [c for c in hand if c // 13 != led]
        if off and len(off) < len(hand):
            return Play(off[0])
    return random_action(game, rng)


@pytest.mark.parametrize(("preset", "options"), GAMES, ids=[f"{p}{o or ''}" for p, o in GAMES])
@pytest.mark.parametrize("seed", [1, 2])
def test_the_kept_view_is_the_projected_view_after_every_action(preset: str, options: dict, seed: int) -> None:
    rules = load_ruleset(preset, options)
    names = NAMES[: rules.players]
    game = Game(rules, seed=f"keeper:{preset}:{seed}")
    rng = random.Random(seed)
    keepers = [SeatViewKeeper(rules, seat, names) for seat in range(rules.players)]
    cursors = [0] * rules.players
    checked = 0
    while True:
        for seat, keeper in enumerate(keepers):
            # The seat to act is always fed, as the referee feeds the seat it asks; the others now and then.
            if seat == game.to_act or game.finished or rng.random() < 0.3:
                keeper.feed(project_events(game, seat, cursors[seat]))
                cursors[seat] = len(game.log)
                assert keeper.view(game) == P.view_to_proto(project(game, seat), names), (seat, len(game.log))
                checked += 1
        if game.finished:
            break
        game.apply(game.to_act, action(game, rng))  # type: ignore[arg-type]
    assert checked > len(game.log)


def test_a_keeper_that_missed_events_rebuilds_after_forget() -> None:
    rules = load_ruleset("mizerka")
    game = Game(rules, seed="forget")
    rng = random.Random(3)
    keeper = SeatViewKeeper(rules, 0, NAMES[:3])
    keeper.view(game)
    while len(game.log) < 20:
        game.apply(game.to_act, random_action(game, rng))
    keeper.forget()  # the events so far were never fed
    assert keeper.view(game) == P.view_to_proto(project(game, 0), NAMES[:3])


def test_a_copied_keeper_keeps_its_own_view() -> None:
    """GameSession is deep-copied to try answers on (re-feeding): each copy's keeper goes on alone."""
    rules = load_ruleset("mizerka")
    game = Game(rules, seed="copy")
    rng = random.Random(4)
    keeper = SeatViewKeeper(rules, 1, NAMES[:3])
    while len(game.log) < 30:
        game.apply(game.to_act, random_action(game, rng))
    keeper.feed(project_events(game, 1))
    keeper.view(game)
    start = len(game.log)
    twin, twin_game = copy.deepcopy(keeper), copy.deepcopy(game)
    for g, k in ((game, keeper), (twin_game, twin)):
        while len(g.log) < start + 7:
            g.apply(g.to_act, random_action(g, rng))
        k.feed(project_events(g, 1, start))
    for g, k in ((game, keeper), (twin_game, twin)):
        assert k.view(g) == P.view_to_proto(project(g, 1), NAMES[:3])
