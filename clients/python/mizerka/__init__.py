"""Mizerka Arena bot SDK.

Write a bot::

    import mizerka

    class MyBot(mizerka.Bot):
        def play(self, turn):
            return turn.play(turn.legal_cards[0])

    mizerka.run(MyBot)          # server from MIZERKA_SERVER, token from MIZERKA_TOKEN

- :class:`Bot` (subclass it; ``decide`` or ``choose_contract`` / ``announce_major`` / ``exchange`` /
  ``play``; hooks ``on_game_start``, ``on_event``, ``on_game_end``, ``on_error``), :class:`FunctionBot`;
- :class:`Turn`: one DecisionRequest with typed accessors and action builders;
- :func:`run` / :func:`run_async`: connect N streams to a referee and play;
- :class:`BotSession`: a bot fed the referee's messages with no transport (what ``run`` does per
  stream; for driving bots offline);
- :mod:`mizerka.cards`: card-string helpers; :mod:`mizerka.bots`: example bots (``BOTS``);
- the generated protocol stubs are the package ``mizerka_proto`` (``from mizerka_proto import referee_pb2``).
"""

from mizerka import cards
from mizerka.bot import Answer, Bot, FunctionBot, answer, retry_answer
from mizerka.runtime import (
    DEFAULT_SERVER,
    ENV_SERVER,
    ENV_TOKEN,
    MizerkaError,
    RefereeRefused,
    RunStats,
    launch_settings,
    run,
    run_async,
)
from mizerka.session import BotSession
from mizerka.turn import CONTRACT, EXCHANGE, MAJOR, PLAY, BadAction, TrickState, Turn

__version__ = "0.2.0"

__all__ = [
    "CONTRACT",
    "DEFAULT_SERVER",
    "ENV_SERVER",
    "ENV_TOKEN",
    "EXCHANGE",
    "MAJOR",
    "PLAY",
    "Answer",
    "BadAction",
    "Bot",
    "BotSession",
    "FunctionBot",
    "MizerkaError",
    "RefereeRefused",
    "RunStats",
    "TrickState",
    "Turn",
    "answer",
    "cards",
    "launch_settings",
    "main",
    "retry_answer",
    "run",
    "run_async",
]


def main(argv=None) -> int:
    """``mizerka-bot NAME ...`` (see :mod:`mizerka.cli`); returns the exit code."""
    from mizerka.cli import main as _main

    return _main(argv)
