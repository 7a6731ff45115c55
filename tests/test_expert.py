"""``mizerka-bot expert``: the engine helpers it searches with (Game.at_deal, Game.copy), its seat's
view and ruleset read back from the wire exactly as the engine projects them (what the engine's
resample takes: tests/test_resample.py checks what it draws), legal answers in every preset,
determinism for a seed, the playout budget, and strength against the random bot.

The search's time budget is tested on a fake clock (time passes only when it is read); other
searches are bounded by a playout count with a time budget far above it, so they are
deterministic; nothing asserts on wall time."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mizerka.bots import BOTS, ExpertBot, RandomBot
from mizerka.bots.expert import engine_rules, engine_view, search
from mizerka.turn import Turn
from mizerka_engine import Choose, Game, Phase, load_ruleset, seeded_deal
from mizerka_engine.cards import mask_cards
from mizerka_engine.resample import resample
from mizerka_engine.views import project
from server.codec import protocol
from server.policies import random_action
from tournaments.selfplay import compare, play_game

from test_properties import option_sets

PRESETS = ("mizerka", "mizerka-4p", "mizerka-short", "spoileri", "trjamann", "manni-major")
SLOW_MS = 60_000.0  # a time budget no test reaches: the playout count decides


def expert(seed: int = 0, simulations: int = 24) -> ExpertBot:
    return ExpertBot(seed=seed, simulations=simulations, budget_ms=SLOW_MS)


def random_position(preset: str, seed: int, steps: int, **options: object) -> Game:
    """A game after ``steps`` random legal actions from its start."""
    game = Game(load_ruleset(preset, options), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        decision = game.decision()
        if decision is None:
            break
        game.apply(decision.seat, random_action(game, rng))
    return game


def turn_of(game: Game, time_left_ms: int = 10_000, bank_ms: int = 0) -> Turn:
    """The Turn the referee would send the seat to act (as tests/test_sdk.py builds requests)."""
    decision = game.decision()
    assert decision is not None
    names = [f"bot{s}" for s in range(game.n)]
    request = protocol.decision_to_proto(7, decision, project(game, decision.seat), time_left_ms, bank_ms, names,
                                         game.rules)
    return Turn(request)


# --------------------------------------------------------------------------- engine helpers
def test_at_deal_starts_the_given_deal_with_the_caller_and_used_contracts() -> None:
    rules = load_ruleset("mizerka")
    deal = seeded_deal(3, 0, 0, 3, 13)
    game = Game.at_deal(rules, deal, caller=2, used=(0, 0, 0b100001))
    assert (game.phase, game.to_act, game.caller) == (Phase.CONTRACT, 2, 2)
    assert [mask_cards(h) for h in game.hands] == [sorted(h) for h in deal.hands]
    assert {a.contract for a in game.legal_actions()} == {"hearts", "diamonds", "clubs", "notrump"}
    game.apply(2, Choose("notrump"))
    while game.phase != Phase.WAITING:  # the deal ends, and the game waits for cards it will never get
        game.apply(game.to_act, random_action(game, random.Random(1)))
    assert len(game.results) == 1 and game.results[0].declarer == 2


def test_a_copy_plays_on_without_touching_the_original() -> None:
    game = random_position("mizerka", 4, 20)
    before = (list(game.hands), list(game.tricks), list(game.trick), len(game.log), game.to_act)
    other = game.copy()
    while other.phase < Phase.WAITING:
        other.apply(other.to_act, random_action(other, random.Random(2)))
    assert (game.hands, game.tricks, game.trick, len(game.log), game.to_act) == before


# ------------------------------------------------------------------------ the seat, from the wire
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ruleset=st.one_of(st.sampled_from(PRESETS).map(lambda p: (p, {})), option_sets()),
       seed=st.integers(0, 10_000), steps=st.integers(0, 200))
def test_the_seat_is_read_back_from_the_wire_as_the_engine_projects_it(
    ruleset: tuple[str, dict], seed: int, steps: int
) -> None:
    """The ruleset and view the expert resamples from are the referee's own: engine_rules inverts
    the referee's Ruleset (every option), engine_view its SeatView (every field)."""
    game = random_position(ruleset[0], seed, steps, **ruleset[1])
    assume(game.decision() is not None)
    turn = turn_of(game)
    assert engine_rules(turn.ruleset) == game.rules
    view = engine_view(turn)
    assert view == project(game, turn.seat)
    sample = resample(view, game.rules, random.Random(seed))  # and the engine resamples from it
    assert project(sample, turn.seat) == view


# ------------------------------------------------------------------------------ the bot
@pytest.mark.parametrize("preset,options", [
    *[(p, {"deals": load_ruleset(p).players}) for p in PRESETS],
    ("mizerka", {"deals": 3, "revoke": "penalty", "trumps_allow_spades": True, "declarer": "continuous"}),
    ("spoileri", {"deals": 3, "trumps_allow_spades": True, "choose_after": 6, "tiebreak": "lowest"}),
])
def test_every_answer_is_legal_in_every_preset(preset: str, options: dict) -> None:
    rules = load_ruleset(preset, options)
    bots = [expert(seed=s, simulations=16) if s % 2 == 0 else RandomBot(seed=s) for s in range(rules.players)]
    totals = play_game(bots, rules, seed=f"legal:{preset}")
    experts = [s for s in range(rules.players) if s % 2 == 0]
    assert all(totals.refusals[s] == 0 and totals.fallbacks[s] == 0 and totals.defaults[s] == 0 for s in experts), totals
    assert all(totals.decisions[s] > 0 for s in experts)


def test_the_same_seed_plays_the_same_game() -> None:
    def game(seed: int) -> list[int]:
        rules = load_ruleset("mizerka", {"deals": 3})
        return list(play_game([expert(seed), expert(seed + 1), BOTS["heuristic"]()], rules, seed="same"))

    assert game(1) == game(1)


def test_a_search_stays_within_its_playouts() -> None:
    game = random_position("mizerka", 9, 47)  # the lead of a trick: 13 cards to choose from
    turn = turn_of(game)
    assert game.phase == Phase.PLAY and len(game.legal_actions()) > 1
    bot = ExpertBot(seed=1, simulations=50, budget_ms=SLOW_MS)
    bot.decide(turn)
    assert bot.last is not None and 0 < bot.last.playouts <= 50 and bot.last.stop == "playouts"
    assert bot.last.playouts == bot.last.samples * len(bot.last.means)


def test_the_time_budget_follows_the_clock() -> None:
    game = random_position("mizerka", 9, 40)
    bot = ExpertBot(budget_ms=200)
    assert bot.budget_for(turn_of(game, time_left_ms=10_000)) == 200
    assert bot.budget_for(turn_of(game, time_left_ms=100)) == 50
    assert bot.budget_for(turn_of(game, time_left_ms=0, bank_ms=2_000)) == 40
    # the search plans to end at 80% of the budget and must end by all of it; never past half the turn's time
    assert bot.deadlines(turn_of(game, time_left_ms=10_000), 5.0) == pytest.approx((5.16, 5.2))
    assert bot.deadlines(turn_of(game, time_left_ms=100), 5.0) == pytest.approx((5.04, 5.05))
    assert ExpertBot(budget_ms=200, aim=0.5).deadlines(turn_of(game), 0.0) == pytest.approx((0.1, 0.2))


# ------------------------------------------------------------------ the time budget, on a fake clock
class FakeClock:
    """Seconds that pass only when read: ``step`` per reading (the search reads it once per playout),
    plus ``jumps[n]`` at the n-th reading (a process waiting for a core)."""

    def __init__(self, step: float, start: float = 100.0, jumps: dict[int, float] | None = None) -> None:
        self.now, self.step, self.jumps, self.reads = start, step, jumps or {}, 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step + self.jumps.get(self.reads, 0.0)
        return self.now


def _lead() -> tuple[Turn, int]:
    """A turn at the lead of a trick (13 cards to choose from), and its number of candidates."""
    game = random_position("mizerka", 9, 47)
    return turn_of(game), len(game.legal_actions())


def test_a_stopped_clock_leaves_the_playout_count_in_charge_and_the_answer_to_the_seed() -> None:
    turn, n = _lead()
    answers = set()
    bots = [ExpertBot(seed=3, simulations=5 * n, budget_ms=200, clock=FakeClock(step=0.0)),
            ExpertBot(seed=3, simulations=5 * n, budget_ms=200, clock=FakeClock(step=0.0, start=1e6)),
            ExpertBot(seed=3, simulations=5 * n, budget_ms=SLOW_MS)]  # the real clock, far from the budget
    for bot in bots:
        answers.add(bot.decide(turn).SerializeToString())
        assert bot.last is not None and (bot.last.samples, bot.last.playouts, bot.last.stop) == (5, 5 * n, "playouts")
    assert len(answers) == 1  # the same answer whatever the clock, when the count ends the search


def test_the_search_plans_to_end_at_its_aim_and_reads_the_clock_before_every_playout() -> None:
    turn, n = _lead()
    clock = FakeClock(step=0.001)  # 1 ms per playout
    bot = ExpertBot(seed=3, simulations=10_000, budget_ms=200, clock=clock)
    start = clock.now
    bot.decide(turn)
    stats = bot.last
    assert stats is not None and stats.stop == "clock"
    assert clock.reads == stats.playouts + 2  # the decision's start, the search's start, one per playout
    assert clock.now - start <= 0.8 * 0.200 + 1e-9  # within the plan: 80% of the budget
    assert clock.now - start > 0.8 * 0.200 - (n + 1) * 0.001  # ... and no sample that would fit is left out
    assert stats.playouts == stats.samples * n  # a sample that would pass the plan is not started


def test_a_sample_the_clock_cuts_short_is_dropped() -> None:
    turn, n = _lead()
    # readings: the decision's start, the search's, then one after each playout: the fifth playout of
    # the second sample stalls for 150 ms
    clock = FakeClock(step=0.001, jumps={2 + n + 5: 0.150})
    bot = ExpertBot(seed=3, simulations=10_000, budget_ms=200, clock=clock)
    start = clock.now
    bot.decide(turn)
    stats = bot.last
    assert stats is not None and stats.stop == "clock"
    assert (stats.samples, stats.playouts) == (1, n + 5)  # the second sample's five playouts are not counted
    assert clock.now - start <= 0.200  # the next playout would have passed the plan: none started
    once = ExpertBot(seed=3, simulations=n, budget_ms=SLOW_MS)
    once.decide(turn)
    assert once.last is not None and once.last.means == stats.means  # the means are the first sample's alone


def test_the_first_sample_is_only_cut_at_the_limit() -> None:
    turn, n = _lead()
    view, rules = engine_view(turn), engine_rules(turn.ruleset)
    candidates = random_position("mizerka", 9, 47).legal_actions()
    legal = lambda g: g.legal_actions()  # noqa: E731
    # past the plan but not the limit: the first sample completes, no second one starts
    clock = FakeClock(step=0.001)
    _, stats = search(view, rules, random.Random(0), 10_000, deadline=0.0, candidates_of=legal, limit=1e9, clock=clock)
    assert (stats.samples, stats.playouts, stats.stop) == (1, n, "clock")
    # past the limit too: one playout, and its candidate is the answer
    clock = FakeClock(step=0.001)
    action, stats = search(view, rules, random.Random(0), 10_000, deadline=0.0, candidates_of=legal, clock=clock)
    assert (stats.samples, stats.playouts, len(stats.means), stats.stop) == (0, 1, 1, "clock")
    assert action == candidates[0]
    # 1 ms per playout after the search's start (1 ms): four playouts end by the limit, a fifth would not
    clock = FakeClock(step=0.001)
    action, stats = search(view, rules, random.Random(0), 10_000, deadline=0.0, candidates_of=legal,
                           limit=clock.now + 0.0055, clock=clock)
    assert (stats.samples, stats.playouts, len(stats.means)) == (0, 4, 4)
    assert action in candidates[:4]


def test_a_turn_with_little_time_halves_it() -> None:
    clock = FakeClock(step=0.001)
    bot = ExpertBot(seed=3, simulations=10_000, budget_ms=200, clock=clock)
    start = clock.now
    bot.decide(turn_of(random_position("mizerka", 9, 47), time_left_ms=60))  # at most 30 ms, planned 24
    assert clock.now - start <= 0.024 + 1e-9


def test_it_beats_the_random_bot_clearly() -> None:
    stats = compare(lambda: expert(simulations=40), RandomBot, "mizerka", games=2, seed="beats-random",
                    options={"deals": 3})
    assert min(stats.per_seed) > 4, stats  # points per 3-deal game, in every set


def test_the_other_bots_work_without_the_engine() -> None:
    """The engine is optional for the SDK: without it the expert is not registered, the rest play."""
    code = ("import sys; sys.modules['mizerka_engine'] = None; import mizerka.bots as b, mizerka.cli; "
            "assert b.ExpertBot is None and 'expert' not in b.BOTS; b.make_factory('heuristic')(); print(sorted(b.BOTS))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["['cautious',", "'greedy',", "'heuristic',", "'random']"]
