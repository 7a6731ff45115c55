"""The example bots (mizerka.bots) through tournaments/selfplay.py: legal play in every preset, and the
heuristic, greedy and cautious bots measurably better than random in duplicate play. Also the
launch contract's MIZERKA_PARALLEL (flag > environment > 1).

Deterministic: fixed seeds, seeded bots; no timing assertions.
"""

from __future__ import annotations

import pytest

import mizerka
import mizerka.cli
import mizerka.runtime
from mizerka.bots import BOTS, CautiousBot, GreedyBot, HeuristicBot, RandomBot, make_factory
from mizerka.runtime import ENV_PARALLEL, parallel_setting
from mizerka_engine.rules import PRESETS, load_ruleset
from server.settings import ClockSettings
from tournaments.selfplay import compare, play_game, seatings


def _check_clean(totals, rules):
    n = rules.players
    assert len(totals) == n
    assert totals.refusals == [0] * n, f"refused actions: {totals.refusals}"
    assert totals.fallbacks == [0] * n, f"bots raised or answered garbage: {totals.fallbacks}"
    assert totals.defaults == [0] * n
    assert sum(totals) == 0  # no void deals: every deal's points sum to zero
    assert sum(1 for r in totals.results if not r.tiebreak) == rules.deals


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("bot", ["heuristic", "random", "greedy", "cautious"])
def test_bot_plays_full_games_without_a_refusal(preset, bot):
    rules = load_ruleset(preset)
    make = BOTS[bot]
    bots = [make(seed=s) if bot == "random" else make() for s in range(rules.players)]
    _check_clean(play_game(bots, rules, seed=11), rules)


@pytest.mark.parametrize("preset", ["mizerka", "trjamann", "manni-major"])
def test_mixed_table_with_options(preset):
    rules = load_ruleset(preset, {"revoke": "penalty", "tiebreak": "lowest"} if preset != "mizerka"
                         else {"choose_after": "all", "declarer": "continuous"})
    bots = [HeuristicBot(), RandomBot(seed=1), HeuristicBot()]
    totals = play_game(bots, rules, seed="mixed")
    assert totals.refusals == [0, 0, 0] and totals.fallbacks == [0, 0, 0]


class Watcher(HeuristicBot):
    """Counts what the selfplay referee delivers."""

    def __init__(self):
        self.events: dict[str, int] = {}
        self.starts: list = []
        self.ends: list = []
        self.turns = 0

    def on_game_start(self, start):
        self.starts.append(start)

    def on_event(self, event):
        kind = event.WhichOneof("kind")
        self.events[kind] = self.events.get(kind, 0) + 1

    def decide(self, turn):
        self.turns += 1
        assert turn.view.seat == turn.seat and turn.game_start is not None
        return super().decide(turn)

    def on_game_end(self, end):
        self.ends.append(end)


def test_selfplay_delivers_the_stream_of_a_play_stream():
    rules = load_ruleset("mizerka-short")
    bots = [Watcher() for _ in range(3)]
    totals = play_game(bots, rules, seed=3)
    for s, b in enumerate(bots):
        assert [st.seat for st in b.starts] == [s] and b.starts[0].ruleset.preset == "mizerka-short"
        assert b.events["deal_started"] == rules.deals == b.events["deal_ended"]
        assert b.events["card_played"] == rules.deals * rules.players * rules.hand_size
        assert b.events["trick_won"] == rules.deals * rules.hand_size
        assert b.turns == totals.decisions[s]
        assert len(b.ends) == 1 and list(b.ends[0].totals) == list(totals) and b.ends[0].seat == s


def test_refused_actions_get_errors_then_the_fallback():
    errors = []

    class Revoker(mizerka.Bot):
        """Always answers with a card it does not hold (or garbage contract), never learns."""

        def decide(self, turn):
            if turn.kind == mizerka.PLAY:
                return turn.play(next(c for c in mizerka.cards.DECK if c not in turn.hand))
            if turn.kind == mizerka.CONTRACT:
                return turn.choose("no-such-contract")
            return turn.exchange(["AS", "AS"])  # a repeated card: BAD_EXCHANGE

        def on_error(self, error, turn):
            errors.append(error.code)

    rules = load_ruleset("mizerka-short")
    bots = [Revoker(), HeuristicBot(), HeuristicBot()]
    totals = play_game(bots, rules, seed=5)
    d = totals.decisions[0]
    # Each decision: one refusal, then the SDK's fallback (the bot repeats itself), which is legal.
    assert totals.refusals[0] == d and totals.fallbacks[0] == d and totals.defaults[0] == 0
    assert set(errors) == {"CARD_NOT_HELD", "UNKNOWN_CONTRACT", "BAD_EXCHANGE"}
    assert totals.refusals[1:] == [0, 0]

    class Hopeless(mizerka.Bot):
        """Answers differently every time, always wrong: the SDK falls back after two tries."""

        def __init__(self):
            self.n = 0

        def decide(self, turn):
            self.n += 1
            return turn.choose(f"nonsense-{self.n}") if turn.kind == mizerka.CONTRACT else turn.fallback()

    totals = play_game([Hopeless(), HeuristicBot(), HeuristicBot()], rules, seed=5)
    contracts = rules.deals // rules.players
    # Two answers from the bot, then the first legal contract (the SDK fallback) is accepted.
    assert totals.refusals[0] == 2 * contracts and totals.fallbacks[0] == contracts and totals.defaults[0] == 0


def test_seatings_cover_every_mix():
    assert seatings(3) == [(0, 0, 1), (0, 1, 0), (0, 1, 1), (1, 0, 0), (1, 0, 1), (1, 1, 0)]
    assert len(seatings(4)) == 14


def test_heuristic_beats_random_in_duplicate_play():
    stats = compare(HeuristicBot, make_factory("random", seed=100), "mizerka", games=8, seed="bots-test")
    print(f"\nheuristic (A) vs random (B): {stats}")
    print(f"per seed set (A - B): {[round(x, 2) for x in stats.per_seed]}")
    assert stats.games == 8 * 6 and stats.refusals == (0, 0) and stats.fallbacks == (0, 0)
    assert stats.mean_a > 0 > stats.mean_b
    lo, hi = stats.ci95
    assert lo > 0, f"the 95% CI of heuristic - random includes 0: {stats}"


def test_random_bot_seeded_games_repeat():
    rules = load_ruleset("spoileri")
    a = play_game([RandomBot(seed=s) for s in range(3)], rules, seed=9)
    b = play_game([RandomBot(seed=s) for s in range(3)], rules, seed=9)
    assert list(a) == list(b) and a.results == b.results


def test_default_applied_when_even_the_fallback_is_refused(monkeypatch):
    """If the SDK's fallback were refused too, the SDK stops answering and the referee times the seat
    out, as it would on a Play stream (self-play runs the referee's own turn loop)."""
    from mizerka_proto import events_pb2, game_pb2

    events = []

    class Broken(mizerka.Bot):
        def decide(self, turn):
            return turn.play("AS" if "AS" not in turn.hand else "2S") if turn.kind == mizerka.PLAY else turn.fallback()

        def on_event(self, event):
            if event.WhichOneof("kind") == "default_applied":
                events.append(event.default_applied)

    # A Turn whose fallback is a card nobody can hold: every play decision ends with the default.
    monkeypatch.setattr(mizerka.Turn, "fallback", lambda self: game_pb2.Action(
        turn=self.number, play_card=game_pb2.PlayCard(card="1Z")) if self.kind == mizerka.PLAY else
        game_pb2.Action(turn=self.number, exchange_cards=game_pb2.ExchangeCards()) if self.kind == mizerka.EXCHANGE
        else self.legal_actions[0])
    rules = load_ruleset("mizerka-short", {"deals": 3})
    never_forfeit = ClockSettings(max_strikes=0)
    totals = play_game([Broken(), HeuristicBot(), HeuristicBot()], rules, seed=2, clock=never_forfeit)
    plays = rules.deals * rules.hand_size
    assert totals.defaults[0] == plays and len(events) == plays
    assert totals.refusals[0] == 2 * plays  # the bot's card, then the fallback: no more
    assert all(e.reason == events_pb2.DEFAULT_REASON_TIMEOUT for e in events)
    # With the default clock the third timeout forfeits the seat: the referee plays the rest.
    events.clear()
    totals = play_game([Broken(), HeuristicBot(), HeuristicBot()], rules, seed=2)
    reasons = [e.reason for e in events]
    assert reasons[:3] == [events_pb2.DEFAULT_REASON_TIMEOUT] * 3
    assert set(reasons[3:]) == {events_pb2.DEFAULT_REASON_FORFEITED} and totals.defaults[0] == len(events)


def test_new_styles_are_registered():
    assert BOTS["greedy"] is GreedyBot and BOTS["cautious"] is CautiousBot
    assert isinstance(make_factory("greedy", seed=1)(), GreedyBot)  # no seed parameter: the class itself


def test_majors_greedy_announces_cautious_never():
    rules = load_ruleset("manni-major")
    # Seed 0 deals greedy hands with 5+ aces and kings: it announces (and plays) majors legally.
    totals = play_game([GreedyBot(), GreedyBot(), HeuristicBot()], rules, seed=0)
    _check_clean(totals, rules)
    assert any(r.major for r in totals.results)
    totals = play_game([CautiousBot(), CautiousBot(), CautiousBot()], rules, seed=0)
    _check_clean(totals, rules)
    assert not any(r.major for r in totals.results)


@pytest.mark.parametrize("bot", [GreedyBot, CautiousBot])
def test_new_styles_beat_random_in_duplicate_play(bot):
    # 3 seed sets x 6 seatings: enough here (measured with 8 sets: greedy - random +57.8, CI +53.0 .. +62.6;
    # cautious - random +58.4, CI +53.4 .. +63.4 points/game).
    stats = compare(bot, make_factory("random", seed=100), "mizerka", games=3, seed="bots-test")
    print(f"\n{bot.name} (A) vs random (B): {stats}")
    assert stats.refusals == (0, 0) and stats.fallbacks == (0, 0)
    assert stats.mean_a > 0 > stats.mean_b
    lo, _ = stats.ci95
    assert lo > 0, f"the 95% CI of {bot.name} - random includes 0: {stats}"


# ------------------------------------------------------------------- MIZERKA_PARALLEL
def test_parallel_setting_flag_over_env_over_one(monkeypatch):
    monkeypatch.delenv(ENV_PARALLEL, raising=False)
    assert parallel_setting() == 1
    assert parallel_setting(3) == 3
    monkeypatch.setenv(ENV_PARALLEL, " 4 ")
    assert parallel_setting() == 4
    assert parallel_setting(2) == 2  # the flag wins
    monkeypatch.setenv(ENV_PARALLEL, "")
    assert parallel_setting() == 1
    for bad in ("0", "-2", "two", "1.5"):
        monkeypatch.setenv(ENV_PARALLEL, bad)
        with pytest.raises(mizerka.MizerkaError, match=ENV_PARALLEL):
            parallel_setting()
        assert parallel_setting(5) == 5  # a flag makes a bad environment irrelevant
    with pytest.raises(ValueError):
        parallel_setting(0)


def test_cli_and_run_honour_mizerka_parallel(monkeypatch, capsys):
    seen = []

    def fake_run(factory, server, token, *, parallel, **kw):
        seen.append(parallel)
        return mizerka.RunStats()

    monkeypatch.setattr(mizerka.cli, "run", fake_run)
    monkeypatch.delenv(ENV_PARALLEL, raising=False)
    assert mizerka.cli.main(["random", "--token", "t"]) == 0
    monkeypatch.setenv(ENV_PARALLEL, "6")
    assert mizerka.cli.main(["greedy", "--token", "t"]) == 0
    assert mizerka.cli.main(["cautious", "--token", "t", "--parallel", "2"]) == 0
    assert seen == [1, 6, 2]
    monkeypatch.setenv(ENV_PARALLEL, "lots")
    assert mizerka.cli.main(["random", "--token", "t"]) == 2
    assert mizerka.cli.main(["random", "--token", "t", "--parallel", "0"]) == 2
    assert "MIZERKA_PARALLEL" in capsys.readouterr().err

    # mizerka.run / run_async: the streams opened follow the same rule.
    opened = []

    class FakeRunner:
        def __init__(self, factory, server, token, parallel, *args):
            opened.append(parallel)

        async def run(self):
            pass

    monkeypatch.setattr(mizerka.runtime, "_Runner", FakeRunner)
    monkeypatch.setenv(ENV_PARALLEL, "3")
    mizerka.run(RandomBot, token="t")
    mizerka.run(RandomBot, token="t", parallel=1)
    mizerka.run(RandomBot(), token="t")  # one Bot instance plays one stream, whatever the environment says
    monkeypatch.delenv(ENV_PARALLEL)
    mizerka.run(RandomBot, token="t")
    assert opened == [3, 1, 1, 1]
