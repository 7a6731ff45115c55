"""The bot base class, the function adapter, and the one place that turns a bot's answer into an Action.

Subclass :class:`Bot` and implement either ``decide(turn)`` or any of the per-kind methods
``choose_contract``, ``announce_major``, ``exchange`` and ``play``. A per-kind method you do not
implement answers with the safe default (the first legal action; a pass in majors and exchange).
Hooks (``on_game_start``, ``on_event``, ``on_game_end``, ``on_error``) do nothing by default.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from mizerka.turn import CONTRACT, EXCHANGE, MAJOR, PLAY, BadAction, Turn
from mizerka_proto import events_pb2, game_pb2, referee_pb2

__all__ = ["Bot", "FunctionBot", "Answer", "answer", "retry_answer", "MAX_BOT_ATTEMPTS"]

log = logging.getLogger("mizerka")

#: How many times the bot itself is asked for one turn; after that the SDK sends the fallback.
MAX_BOT_ATTEMPTS = 2


class Bot:
    """A Mizerka bot. One instance plays one seat (one Play stream), game after game.

    Answer with an Action built by the turn (``turn.play("AS")``) or, from the per-kind methods,
    a shorthand: a card string, a contract name or (name, trump), a major name or None to pass,
    a list of discards or a (discard, take) pair (see :meth:`Turn.to_action`).
    """

    #: Sent in Hello (the registered name is what others see); defaults to the class name.
    name: str = ""
    #: Sent in Hello, for logs and results.
    version: str = "0"

    # --------------------------------------------------------------------- decisions
    def decide(self, turn: Turn) -> Any:
        """Answer one decision. The default dispatches on ``turn.kind`` to the per-kind methods."""
        kind = turn.kind
        if kind == PLAY:
            return self.play(turn)
        if kind == CONTRACT:
            return self.choose_contract(turn)
        if kind == EXCHANGE:
            return self.exchange(turn)
        if kind == MAJOR:
            return self.announce_major(turn)
        return turn.fallback()

    def choose_contract(self, turn: Turn) -> Any:
        """Announce a contract: ``turn.choose(name)`` / ``turn.choose("trumps", trump="H")``."""
        return turn.fallback()

    def announce_major(self, turn: Turn) -> Any:
        """Announce a major (``turn.major(name)``) or pass (``turn.pass_major()``)."""
        return turn.pass_major()

    def exchange(self, turn: Turn) -> Any:
        """Exchange with the talon: ``turn.exchange(discard=[...], take=[...])``; no cards = a pass."""
        return turn.exchange()

    def play(self, turn: Turn) -> Any:
        """Play a card: ``turn.play(card)`` with a card of ``turn.legal_cards``."""
        return turn.fallback()

    # -------------------------------------------------------------------------- hooks
    def on_game_start(self, start: referee_pb2.GameStart) -> None:
        """A game starts on this seat (seat, names, ruleset, clock)."""

    def on_event(self, event: events_pb2.Event) -> None:
        """Something happened in the game (as this seat may see it)."""

    def on_game_end(self, end: referee_pb2.GameEnd) -> None:
        """The game is over (totals, rank, results)."""

    def on_error(self, error: referee_pb2.ActionError, turn: Turn | None) -> None:
        """The referee refused your last Action; ``turn`` is the pending turn when you may retry."""


class FunctionBot(Bot):
    """A bot made of one function ``decide(turn) -> Action`` (or a shorthand answer)."""

    def __init__(self, decide: Callable[[Turn], Any], name: str = "", version: str = "0") -> None:
        self._decide = decide
        self.name = name or getattr(decide, "__name__", "") or "function-bot"
        self.version = version

    def decide(self, turn: Turn) -> Any:
        return self._decide(turn)


class Answer:
    """The Action to send for a turn, and whether the SDK had to fall back (the bot raised or
    answered something that is no action of this turn's kind)."""

    __slots__ = ("action", "fallback", "reason")

    def __init__(self, action: game_pb2.Action, fallback: bool = False, reason: str = "") -> None:
        self.action = action
        self.fallback = fallback
        self.reason = reason

    def __repr__(self) -> str:
        return f"Answer({self.action.WhichOneof('action')}, fallback={self.fallback})"


def bot_name(bot: Bot) -> str:
    return bot.name or type(bot).__name__


def answer(bot: Bot, turn: Turn) -> Answer:
    """Ask ``bot`` for ``turn``; the fallback (first legal action / empty exchange) if it raises or
    answers garbage. Never raises for the bot's fault."""
    try:
        result = bot.decide(turn)
    except Exception as e:  # noqa: BLE001 -- a bot's bug must not end the game
        log.warning("%s raised on turn %d (%s): %r; sending the fallback", bot_name(bot), turn.number, turn.kind, e,
                    exc_info=log.isEnabledFor(logging.DEBUG))
        return Answer(turn.fallback(), True, f"raised {e!r}")
    try:
        return Answer(turn.to_action(result))
    except BadAction as e:
        log.warning("%s answered turn %d (%s) with %r: %s; sending the fallback", bot_name(bot), turn.number,
                    turn.kind, result, e)
        return Answer(turn.fallback(), True, str(e))


def retry_answer(bot: Bot, turn: Turn, error: referee_pb2.ActionError, sent: list[game_pb2.Action]) -> Answer | None:
    """The next Action after ``error`` refused an answer to ``turn``, or None to stop sending.

    Policy, so that nothing ever loops: ``on_error`` is called; the bot is asked again (up to
    :data:`MAX_BOT_ATTEMPTS` answers in all) unless it repeats a refused answer; then the fallback is
    sent once; after a refused fallback nothing more (the referee applies its default).
    ``sent`` holds this turn's Actions sent so far and is appended to.
    """
    turn.note_error(error)
    call_hook(bot, "on_error", error, turn if error.retry else None)
    if not error.retry:
        return None
    fallback = turn.fallback()
    if any(a == fallback for a in sent):
        return None  # even the fallback was refused: leave it to the referee
    if len(sent) < MAX_BOT_ATTEMPTS:
        nxt = answer(bot, turn)
        if not any(a == nxt.action for a in sent):
            sent.append(nxt.action)
            return nxt
    sent.append(fallback)
    return Answer(fallback, True, f"refused {error.code}: {error.message}")


def call_hook(bot: Bot, hook: str, *args: Any) -> None:
    """Call a hook; a hook's exception is logged, never raised."""
    try:
        getattr(bot, hook)(*args)
    except Exception as e:  # noqa: BLE001
        log.warning("%s.%s raised %r (ignored)", bot_name(bot), hook, e, exc_info=log.isEnabledFor(logging.DEBUG))
