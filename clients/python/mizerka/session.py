"""``BotSession``: what an SDK bot does with each referee message, with no transport attached.

The gRPC runtime (:mod:`mizerka.runtime`) feeds it the messages of one Play stream, and the server
drives SDK bots offline (self-play, replays) through the same class, so a bot meets one behaviour
everywhere. It needs neither grpc nor asyncio: one synchronous call per message.
"""

from __future__ import annotations

from mizerka.bot import Answer, Bot, answer, call_hook, retry_answer
from mizerka.turn import Turn
from mizerka_proto import game_pb2, referee_pb2

__all__ = ["BotSession"]


class BotSession:
    """One seat's bot, fed the referee's messages in order; ``handle`` returns what to send back.

    Not thread-safe: one message at a time (the runtime may call it from a worker thread).
    """

    def __init__(self, bot: Bot) -> None:
        if not isinstance(bot, Bot):
            raise TypeError(f"expected a mizerka.Bot, not {bot!r}")
        self.bot = bot
        #: The GameStart of the game in progress (Turns read the ruleset from it).
        self.game_start: referee_pb2.GameStart | None = None
        #: The decision whose answer may still be refused (None once settled).
        self.turn: Turn | None = None
        #: The Answer behind the Action the last :meth:`handle` returned (None if it returned none):
        #: ``answer.fallback`` and ``answer.reason`` tell when the SDK answered for a faulty bot.
        self.answer: Answer | None = None
        self._sent: list[game_pb2.Action] = []  # this turn's Actions so far, for the retry policy

    def handle(self, message: referee_pb2.RefereeMessage) -> list[referee_pb2.BotMessage]:
        """Pass one message to the bot's hooks; the Action to send for a decision or a retry.

        DecisionRequest -> one answer (its folded events go to ``on_event`` first); ActionError
        with retry -> ``on_error`` and at most one more answer (bounded: see
        :func:`mizerka.bot.retry_answer`); any other message -> nothing to send. A hook or a
        ``decide`` that raises never escapes: the fallback is sent instead.
        """
        self.answer = None
        which = message.WhichOneof("message")
        if which == "game_start":
            self.game_start = message.game_start
            self.turn = None
            call_hook(self.bot, "on_game_start", message.game_start)
        elif which == "event_batch":
            self._events(message.event_batch)
        elif which == "decision_request":
            request = message.decision_request
            self._events(request)
            self.turn = Turn(request, self.game_start)
            self.answer = answer(self.bot, self.turn)
            self._sent = [self.answer.action]
        elif which == "action_error":
            self._refused(message.action_error)
        elif which == "game_end":
            self.turn = None
            call_hook(self.bot, "on_game_end", message.game_end)
        return [] if self.answer is None else [referee_pb2.BotMessage(action=self.answer.action)]

    def _events(self, carrier: referee_pb2.EventBatch | referee_pb2.DecisionRequest) -> None:
        for event in carrier.events:
            call_hook(self.bot, "on_event", event)

    def _refused(self, error: referee_pb2.ActionError) -> None:
        turn = self.turn
        if turn is None or error.turn != turn.number:  # about an answer no longer pending: nothing to redo
            call_hook(self.bot, "on_error", error, None)
            return
        self.answer = retry_answer(self.bot, turn, error, self._sent)
        if self.answer is None:
            self.turn = None
