"""The C++ example bot (clients/cpp) against a real referee: full games of mizerka and
manni-major, a refused action answered correctly, parallel streams, reconnecting and leaving, mutual
TLS (the tests shared with the other languages' bots are in foreign_bots.py); and its strategy before
crafted requests (mizerka-cpp-decide, built beside it).

The bot is built with `make -C clients/cpp` (cmake, Debian's libgrpc++-dev, protobuf-compiler-grpc,
libprotobuf-dev, protobuf-compiler, pkg-config; .ci/run installs them), which `make clients` runs
before the tests in `make test`. When those packages are not installed it is skipped, and the reason
is printed (pytest -ra): never silently."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from mizerka_proto import game_pb2, referee_pb2

import foreign_bots


@pytest.fixture(scope="module")
def cpp_bot() -> str:
    return foreign_bots.built_cpp_bot()


@pytest.mark.parametrize(("preset", "live"), foreign_bots.LIVE_EVENTS_CASES)
def test_the_cpp_bot_plays_full_games_cleanly_and_sensibly(tmp_path: Path, cpp_bot: str, preset: str, live: bool) -> None:
    foreign_bots.check_full_games_cleanly_and_sensibly(tmp_path, [cpp_bot], "cpp", preset, live)


def test_the_cpp_bot_answers_a_refused_action_then_plays_legally(tmp_path: Path, cpp_bot: str) -> None:
    foreign_bots.check_refused_action_then_legal_play(tmp_path, [cpp_bot], "cpp")


def test_one_cpp_process_plays_parallel_streams_and_leaves_after_its_games(tmp_path: Path, cpp_bot: str) -> None:
    foreign_bots.check_parallel_streams_then_leaving(tmp_path, [cpp_bot], "cpp")


def test_the_cpp_bot_retries_until_the_referee_is_up_and_exits_when_it_stops(tmp_path: Path, cpp_bot: str) -> None:
    foreign_bots.check_retries_until_up_and_exits_when_stopped(tmp_path, [cpp_bot], "cpp")


def test_the_cpp_bot_stops_on_bad_settings_and_on_a_refused_token(tmp_path: Path, cpp_bot: str) -> None:
    foreign_bots.check_bad_settings_and_refused_token(tmp_path, [cpp_bot])


def test_the_cpp_bot_plays_over_mutual_tls(tmp_path: Path, cpp_bot: str) -> None:
    foreign_bots.check_plays_over_mutual_tls(tmp_path, [cpp_bot], "cpp")


def decide(cpp_bot: str, request: referee_pb2.DecisionRequest) -> game_pb2.Action:
    """The C++ strategy's answer to ``request``, from mizerka-cpp-decide (a real process, the bot's code)."""
    program = Path(cpp_bot).with_name("mizerka-cpp-decide")
    done = subprocess.run([str(program)], input=request.SerializeToString(), capture_output=True, timeout=30)
    assert done.returncode == 0, done.stderr.decode()
    return game_pb2.Action.FromString(done.stdout)


def last_to_play(contract: str, trump: str, minus: bool, hand: list[str], legal: list[str], takes: list[bool]
                 ) -> referee_pb2.DecisionRequest:
    """Seat 0 plays last to a trick of 9H (seat 1) and TH (seat 2) in a three-player game."""
    view = game_pb2.SeatView(
        seat=0, contract=contract, contract_name=contract, trump=trump, contract_minus=minus,
        players=[game_pb2.PlayerState(seat=0, hand=hand), game_pb2.PlayerState(seat=1), game_pb2.PlayerState(seat=2)],
        tricks=[game_pb2.Trick(leader=1, winning=2, plays=[game_pb2.TrickPlay(seat=1, card="9H"),
                                                           game_pb2.TrickPlay(seat=2, card="TH")])])
    return referee_pb2.DecisionRequest(
        turn=7, kind=referee_pb2.DECISION_KIND_PLAY, view=view,
        ruleset=game_pb2.Ruleset(preset="mizerka", players=3, hand_size=13),
        legal_actions=[game_pb2.Action(turn=7, play_card=game_pb2.PlayCard(card=c)) for c in legal],
        takes_trick=takes, default_action=game_pb2.Action(turn=7, play_card=game_pb2.PlayCard(card=legal[0])))


def test_the_cpp_strategy_plays_by_the_referees_takes_trick_not_by_card_ranks(cpp_bot: str) -> None:
    # Flags that card ranks contradict (by the ranks JH and AH beat TH): a strategy that compared
    # the ranks itself would play JH in the plus contract and 8H in the minus one.
    legal, flags = ["7H", "JH", "AH"], [True, False, False]
    plus = decide(cpp_bot, last_to_play("spades", "S", False, [*legal, "2S"], legal, flags))
    assert plus.play_card.card == "7H"  # the cheapest card the referee says takes the trick
    legal = ["7H", "8H", "JH"]
    minus = decide(cpp_bot, last_to_play("mizerka", "", True, [*legal, "AS"], legal, flags))
    assert minus.play_card.card == "JH"  # the highest card the referee says loses
    honest = decide(cpp_bot, last_to_play("mizerka", "", True, [*legal, "AS"], legal, [False, False, True]))
    assert honest.play_card.card == "8H"


def test_the_cpp_strategy_answers_what_it_does_not_know_with_the_referees_default_action(cpp_bot: str) -> None:
    told = game_pb2.Action(turn=4, choose_contract=game_pb2.ChooseContract(contract="mizerka"))
    unknown = referee_pb2.DecisionRequest(turn=4, kind=referee_pb2.DECISION_KIND_UNSPECIFIED, default_action=told)
    assert decide(cpp_bot, unknown) == told
    # A referee older than default_action leaves it unset: one legal card is still played, turn set.
    old = last_to_play("spades", "S", False, ["7H", "2S"], ["7H"], [])
    old.ClearField("default_action")
    old.legal_actions[0].ClearField("turn")
    assert decide(cpp_bot, old) == game_pb2.Action(turn=7, play_card=game_pb2.PlayCard(card="7H"))
