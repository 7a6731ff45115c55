"""The stdio bridge: play through a program that speaks JSON Lines on its stdin and stdout.

``mizerka-bot stdio [options] -- CMD ARGS...`` (also ``mizerka bot stdio -- CMD ...``) connects to
the referee like any bot (launch contract: MIZERKA_SERVER, MIZERKA_TOKEN, MIZERKA_PARALLEL) and
opens one Play stream per parallel game, each with its own child process ``CMD ARGS...``. The
bridge translates the gRPC conversation into lines of JSON and back; the program needs no gRPC and
no protobuf, only a JSON parser. The line protocol is specified in docs/stdio-protocol.md:

bridge -> program (every line is one JSON object with a ``"type"``):

- ``hello``       first line, once per process: ``{"type": "hello", "protocol": 1, ...}``
- ``game_start``  a game starts: seat, names, ruleset, clock
- ``event``       something happened (optional to read): ``{"type": "event", "event": "card_played", ...}``
- ``decide``      your turn: turn, kind, legal answers, the seat's view
- ``error``       the last answer was refused (code, message, retry); answer again when retry
- ``game_end``    the game is over: rank, totals, results, seat records

program -> bridge: one answer line per ``decide`` line (and one more per ``error`` with retry):
``{"turn": 7, "play": "AS"}``, ``{"turn": 1, "contract": "trumps", "trump": "H"}``,
``{"turn": 3, "major": null}``, ``{"turn": 2, "discard": ["2C"], "take": ["AH"]}``.

Faults are handled like a faulty gRPC bot's: a line that is no answer (not JSON, an unknown field,
no action) while a decision is pending is forwarded to the referee as an empty Action, so the
referee's MALFORMED refusal, retry limit and clock apply, and the program gets an ``error`` line;
an answer for another turn gets a STALE_TURN ``error`` line and is not sent. A program that exits
(or closes its stdout) makes the bridge close that Play stream at once (the referee plays the rest
of the game by default, the seat is recorded disconnected); the bridge then starts the program
again and opens a new stream for the next game, and gives up after ``max_restarts`` exits in a
row without a finished game. A silent program is left to the referee's clock. The program's stderr
goes to the bridge's stderr.

The package's modules, one job each, each importing only those listed before it:
:mod:`~mizerka.stdio.codec` (proto <-> JSON lines, pure functions), :mod:`~mizerka.stdio.translate`
(one conversation's state: which turn owes an answer, how a faulty line is judged; no I/O, also
driven by the offline stdio seats), :mod:`~mizerka.stdio.program` (the child process),
:mod:`~mizerka.stdio.bridge` (a Play stream <-> its program, on the SDK's runner) and
:mod:`~mizerka.stdio.cli` (the command line). The names below are only re-exported here, each
at its first use (:mod:`mizerka.lazy`), so ``from mizerka import stdio; stdio.decide_line(...)``
works and a process that needs only the codec does not import the bridge (gRPC). It does not import the server; it
needs only the SDK (grpcio, protobuf).
"""

from typing import TYPE_CHECKING

from mizerka.lazy import lazy_names

if TYPE_CHECKING:  # what the names are, for type checkers and the layer checks; loaded by __getattr__
    from mizerka.stdio.bridge import StdioStats, run_stdio, run_stdio_async
    from mizerka.stdio.cli import build_parser, main
    from mizerka.stdio.codec import (
        PROTOCOL,
        LineError,
        action_from_line,
        answer_json,
        bridge_error_line,
        clock_json,
        contract_json,
        decide_line,
        dump_line,
        error_line,
        event_line,
        game_end_line,
        game_start_line,
        hello_line,
        result_json,
        ruleset_json,
        view_json,
    )
    from mizerka.stdio.program import ENV_PROTOCOL, LINE_LIMIT, program_env
    from mizerka.stdio.translate import LineCounts, Reply, Translator

# Each public name and the submodule that defines it.
_HOMES = {
    "StdioStats": "mizerka.stdio.bridge",
    "run_stdio": "mizerka.stdio.bridge",
    "run_stdio_async": "mizerka.stdio.bridge",
    "build_parser": "mizerka.stdio.cli",
    "main": "mizerka.stdio.cli",
    "PROTOCOL": "mizerka.stdio.codec",
    "LineError": "mizerka.stdio.codec",
    "action_from_line": "mizerka.stdio.codec",
    "answer_json": "mizerka.stdio.codec",
    "bridge_error_line": "mizerka.stdio.codec",
    "clock_json": "mizerka.stdio.codec",
    "contract_json": "mizerka.stdio.codec",
    "decide_line": "mizerka.stdio.codec",
    "dump_line": "mizerka.stdio.codec",
    "error_line": "mizerka.stdio.codec",
    "event_line": "mizerka.stdio.codec",
    "game_end_line": "mizerka.stdio.codec",
    "game_start_line": "mizerka.stdio.codec",
    "hello_line": "mizerka.stdio.codec",
    "result_json": "mizerka.stdio.codec",
    "ruleset_json": "mizerka.stdio.codec",
    "view_json": "mizerka.stdio.codec",
    "ENV_PROTOCOL": "mizerka.stdio.program",
    "LINE_LIMIT": "mizerka.stdio.program",
    "program_env": "mizerka.stdio.program",
    "LineCounts": "mizerka.stdio.translate",
    "Reply": "mizerka.stdio.translate",
    "Translator": "mizerka.stdio.translate",
}

__all__ = [
    "ENV_PROTOCOL",
    "LINE_LIMIT",
    "PROTOCOL",
    "LineCounts",
    "LineError",
    "Reply",
    "StdioStats",
    "Translator",
    "action_from_line",
    "answer_json",
    "bridge_error_line",
    "build_parser",
    "clock_json",
    "contract_json",
    "decide_line",
    "dump_line",
    "error_line",
    "event_line",
    "game_end_line",
    "game_start_line",
    "hello_line",
    "main",
    "program_env",
    "result_json",
    "ruleset_json",
    "run_stdio",
    "run_stdio_async",
    "view_json",
]

__getattr__, __dir__ = lazy_names(__name__, globals(), _HOMES)
