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
- :func:`run` / :func:`run_async`: connect N streams to a referee and play (over TLS with
  :class:`Tls` or the MIZERKA_TLS* variables, :mod:`mizerka.connection`);
- :class:`BotSession`: a bot fed the referee's messages with no transport (what ``run`` does per
  stream; for driving bots offline);
- :mod:`mizerka.cards`: card-string helpers; :mod:`mizerka.bots`: example bots (``BOTS``);
- :func:`main`: the ``mizerka-bot`` command line (:mod:`mizerka.cli`);
- the generated protocol stubs are the package ``mizerka_proto`` (``from mizerka_proto import referee_pb2``).

This module only re-exports, each name at its first use (a module ``__getattr__``): a process
that imports one submodule (``mizerka.stdio``, a built-in bot) does not import gRPC and the rest
with it. The submodules import each other, never the package, so importing any of them needs
nothing from here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mizerka.lazy import lazy_names
from mizerka.version import __version__ as __version__

if TYPE_CHECKING:  # what the names are, for type checkers and the layer checks; loaded by __getattr__
    from mizerka import cards
    from mizerka.bot import Answer, Bot, FunctionBot, answer, retry_answer
    from mizerka.cli import main
    from mizerka.connection import Tls
    from mizerka.errors import MizerkaError
    from mizerka.runtime import (
        DEFAULT_SERVER,
        ENV_SERVER,
        ENV_TOKEN,
        RefereeRefused,
        RunStats,
        launch_settings,
        run,
        run_async,
    )
    from mizerka.session import BotSession
    from mizerka.turn import CONTRACT, EXCHANGE, MAJOR, PLAY, BadAction, TrickState, Turn

# Each public name and the submodule that defines it.
_HOMES = {
    "cards": "mizerka.cards",
    "Answer": "mizerka.bot",
    "Bot": "mizerka.bot",
    "FunctionBot": "mizerka.bot",
    "answer": "mizerka.bot",
    "retry_answer": "mizerka.bot",
    "main": "mizerka.cli",
    "Tls": "mizerka.connection",
    "DEFAULT_SERVER": "mizerka.runtime",
    "ENV_SERVER": "mizerka.runtime",
    "ENV_TOKEN": "mizerka.runtime",
    "MizerkaError": "mizerka.errors",
    "RefereeRefused": "mizerka.runtime",
    "RunStats": "mizerka.runtime",
    "launch_settings": "mizerka.runtime",
    "run": "mizerka.runtime",
    "run_async": "mizerka.runtime",
    "BotSession": "mizerka.session",
    "CONTRACT": "mizerka.turn",
    "EXCHANGE": "mizerka.turn",
    "MAJOR": "mizerka.turn",
    "PLAY": "mizerka.turn",
    "BadAction": "mizerka.turn",
    "TrickState": "mizerka.turn",
    "Turn": "mizerka.turn",
}

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
    "Tls",
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

__getattr__, __dir__ = lazy_names(__name__, globals(), _HOMES)
