"""One stdio conversation, sans I/O: referee messages in, lines for the program out; the program's
lines in, Actions for the referee (or an error line back to the program) out.

The gRPC bridge (:mod:`mizerka.stdio.bridge`) and the offline stdio seats (tournaments/local_bots.py)
both drive a :class:`Translator`, so a program meets one behaviour on a server and offline. Besides
the codec's pure functions it keeps the state the protocol needs: the turn that owes an answer, and
the answer sent for it that the referee has not judged yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from mizerka.stdio.codec import (
    LineError,
    action_from_line,
    bridge_error_line,
    decide_line,
    error_line,
    event_line,
    game_end_line,
    game_start_line,
)
from mizerka_proto import events_pb2, game_pb2, referee_pb2

__all__ = ["Line", "LineCounts", "Reply", "Translator"]

#: One line of the protocol, before it is written as JSON.
Line = dict[str, Any]


@dataclass
class LineCounts:
    """What the lines of one or more conversations came to (a bridge run shares one over its streams)."""

    decisions: int = 0  #: decide lines written
    answers: int = 0  #: answer lines forwarded to the referee as Actions
    refusals: int = 0  #: refusals by the referee (error lines with source "referee")
    garbage: int = 0  #: program lines the bridge could not read as an answer
    stale: int = 0  #: answers for a turn that was not pending (not sent)


class Reply(NamedTuple):
    """What one program line comes to: the Action to send, or the error line telling the program why
    nothing is sent (neither for a blank line)."""

    action: game_pb2.Action | None
    line: Line | None


class Translator:
    """One Play stream's conversation with its program, across games.

    Faults are judged as the referee judges a gRPC bot's: a line that is no answer while a decision
    is pending goes out as an empty Action (the referee refuses it MALFORMED, and its retry limit and
    clock apply); an answer for a turn that is not pending, or a second answer before the first was
    judged, is not sent and the program gets an error line from the bridge.
    """

    def __init__(self, counts: LineCounts | None = None, events: bool = True) -> None:
        self.counts = counts if counts is not None else LineCounts()
        self.events = events  # False: no event lines (the program reads only its decisions)
        self.game: referee_pb2.GameStart | None = None  # the game in progress
        self.strikes = 0
        self.pending: int | None = None  # the turn awaiting an answer line
        self.inflight: tuple[int, str | None] | None = None  # (turn, the bridge's note) sent, not judged yet

    # -------------------------------------------------------------------- referee -> program
    def to_program(self, message: referee_pb2.RefereeMessage) -> list[Line]:
        """The lines that tell the program about ``message``, in order."""
        which = message.WhichOneof("message")
        inflight = self.inflight
        if inflight is not None and not (which == "action_error" and message.action_error.turn == inflight[0]):
            # Anything but a refusal after an answer means the referee accepted it.
            if self.pending == inflight[0]:
                self.pending = None
            self.inflight = None
        if which == "event_batch":
            return self._events(message.event_batch.events)
        if which == "decision_request":
            d = message.decision_request
            lines = self._events(d.events)
            self.pending = d.turn
            self.inflight = None
            self.counts.decisions += 1
            return [*lines, decide_line(d)]
        if which == "action_error":
            return [self._refused(message.action_error)]
        if which == "game_start":
            self.game = message.game_start
            self.strikes = 0
            self.pending = self.inflight = None
            return [game_start_line(message.game_start)]
        if which == "game_end":
            self.game = None
            self.pending = self.inflight = None
            return [game_end_line(message.game_end)]
        return []

    def lost(self) -> list[Line]:
        """The stream is gone: nothing is pending any more. Returns the aborted ``game_end`` line
        that ends a game in progress for the program, if it is still there to read it."""
        game, self.game = self.game, None
        self.pending = self.inflight = None
        if game is None:
            return []
        return [game_end_line(referee_pb2.GameEnd(
            match_id=game.match_id, game_number=game.game_number, seat=game.seat, aborted=True,
            abort_reason="the connection to the referee was lost"))]

    def _refused(self, e: referee_pb2.ActionError) -> Line:
        self.strikes = e.strikes
        note = None
        if self.inflight is not None and e.turn == self.inflight[0]:
            note = self.inflight[1]
            self.inflight = None
            if not e.retry and self.pending == e.turn:
                self.pending = None
        if note is None:
            self.counts.refusals += 1
            return error_line(e)
        # A line the bridge could not read, refused by the referee as an empty Action.
        return error_line(e, message=note, code=referee_pb2.ACTION_ERROR_CODE_MALFORMED, source="bridge")

    def _events(self, events: Sequence[events_pb2.Event]) -> list[Line]:
        for e in events:
            which = e.WhichOneof("kind")
            if which == "default_applied" and e.default_applied.turn == self.pending:
                self.pending = None  # decided for the program: a later answer is stale
            elif which == "strike_counted":
                self.strikes = e.strike_counted.strikes
        return [event_line(e) for e in events] if self.events else []

    # -------------------------------------------------------------------- program -> referee
    def from_program(self, line: str | bytes) -> Reply:
        """What to do with one line the program wrote (see the class for how faults are judged)."""
        if not line.strip():
            return Reply(None, None)  # blank lines are harmless
        counts = self.counts
        try:
            action: game_pb2.Action | None = action_from_line(line)
            problem = None
        except LineError as e:
            action, problem = None, e
        turn = action.turn if action is not None else problem.turn  # type: ignore[union-attr]
        pending = self.pending
        if pending is None or self.inflight is not None:
            if action is None:
                counts.garbage += 1
                why = "nothing is pending" if pending is None else f"an answer to turn {pending} was already sent"
                return self._not_sent(turn, referee_pb2.ACTION_ERROR_CODE_MALFORMED, f"{problem}; not sent ({why})")
            counts.stale += 1
            if pending is None:
                return self._not_sent(turn, referee_pb2.ACTION_ERROR_CODE_STALE_TURN, f"turn {turn} is not pending (nothing is): not sent")
            return self._not_sent(turn, referee_pb2.ACTION_ERROR_CODE_NOT_EXPECTED, f"an answer to turn {pending} was already sent; answer "
                                  "again only after an error line with retry true: not sent")
        if turn is not None and turn != pending:
            counts.stale += 1
            return self._not_sent(turn, referee_pb2.ACTION_ERROR_CODE_STALE_TURN, f"turn {turn} is not pending; the pending turn is {pending}: "
                                  "not sent")
        if action is None:
            counts.garbage += 1
            self.inflight = (pending, str(problem))
            return Reply(game_pb2.Action(turn=pending), None)  # no action set: the referee refuses it MALFORMED
        counts.answers += 1
        self.inflight = (pending, None)
        return Reply(action, None)

    def _not_sent(self, turn: int | None, code: referee_pb2.ActionErrorCode.ValueType, message: str) -> Reply:
        return Reply(None, bridge_error_line(turn, code, message, self.strikes))
