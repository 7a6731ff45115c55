"""The league's progress events (tournaments/progress.py): their wire form (a worker's JSON log, as
before they were records), and the organiser's terminal (tournaments/live.py) holding a handler for
every kind or declaring it silent."""

from __future__ import annotations

import dataclasses
import io
import json
import typing
from typing import Any

import pytest
from rich.console import Console

from tournaments import progress
from tournaments.live import Reporter
from tournaments.standings.stats import standings

# One of each kind, with its wire form: the name and fields a worker logged before events were records.
WIRE: list[tuple[progress.Event, str, dict[str, Any]]] = [
    (progress.Start(total=9, done=3, todo=6), "start", {"total": 9, "done": 3, "todo": 6}),
    (progress.Game("t0/g0/s1", ("a", "b", "c"), (2, -1, -1)), "game", {"game": "t0/g0/s1", "seats": ["a", "b", "c"], "totals": [2, -1, -1]}),
    (progress.Settled(12, 4, 300, 0.95), "settled", {"games": 12, "rounds": 4, "scheduled": 300, "confidence": 0.95}),
    (progress.Interrupted(("t0/g0/s0",)), "interrupted", {"games": ["t0/g0/s0"]}),
    (progress.Published("l#abc"), "published", {"group": "l#abc"}),
    (progress.End(9), "end", {"games": 9}),
    (progress.Replay("t0/g0/s0", "m-1"), "replay", {"game": "t0/g0/s0", "match": "m-1"}),
    (progress.Refused("t0/g0/s0", "m-1"), "refused", {"game": "t0/g0/s0", "match": "m-1"}),
    (progress.LeaseLost("t0/g0/s0", None), "lease-lost", {"game": "t0/g0/s0", "match": None}),
    (progress.Aborted(("m-1", "m-2"), "stopping"), "aborted", {"matches": ["m-1", "m-2"], "reason": "stopping"}),
    (progress.AbortUnsupported(), "abort-unsupported", {}),
    (progress.Sandbox(on=False, why="no bwrap", limits="memory 1 GiB", network=False), "sandbox",
     {"on": False, "why": "no bwrap", "limits": "memory 1 GiB", "network": False}),
    (progress.RemoteBot("far", "10.0.0.1:7000", "MIZERKA_TOKEN=t", "/d/remote-bots.txt"), "remote-bot",
     {"bot": "far", "server": "10.0.0.1:7000", "command": "MIZERKA_TOKEN=t", "file": "/d/remote-bots.txt"}),
    (progress.SandboxRetry("a", "ENOSPC", 2), "sandbox-retry", {"bot": "a", "error": "ENOSPC", "failures": 2}),
    (progress.BotCrash("a", "exited with code 1", crashes=1, max=3), "bot-crash",
     {"bot": "a", "reason": "exited with code 1", "crashes": 1, "max": 3}),
    (progress.BotExit("a", "exited with code 1", charged=False, error="refused"), "bot-exit",
     {"bot": "a", "reason": "exited with code 1", "charged": False, "error": "refused"}),
    (progress.BotDisabled("a", "disabled after 3 crashes", "did not connect", True, "/d/logs/a.log", ("oops",)), "bot-disabled",
     {"bot": "a", "reason": "disabled after 3 crashes", "last": "did not connect", "never_connected": True,
      "log": "/d/logs/a.log", "log_tail": ["oops"]}),
    (progress.RefereeError("database is locked"), "referee-error", {"error": "database is locked"}),
    (progress.RefereeRestart(-9, 1), "referee-restart", {"code": -9, "restarts": 1}),
    (progress.WebPage("http://127.0.0.1:8080/"), "web-page", {"url": "http://127.0.0.1:8080/"}),
    (progress.Submitted("l"), "submitted", {"league": "l"}),
    (progress.Workers({"h/1": {"running": 1, "finished": 2}}, 1), "workers",
     {"workers": {"h/1": {"running": 1, "finished": 2}}, "running": 1}),
    (progress.WorkerStart("w-1", 2), "worker-start", {"worker": "w-1", "slots": 2}),
    (progress.League("l"), "league", {"league": "l"}),
    (progress.CannotPlay("l", "no bwrap", 60.0), "cannot-play", {"league": "l", "error": "no bwrap", "retry_in_s": 60.0}),
    (progress.LeagueError("l", "the referee exited at start"), "league-error", {"league": "l", "error": "the referee exited at start"}),
    (progress.GameError("t0/g0/s0", "INVALID_ARGUMENT: no"), "game-error", {"game": "t0/g0/s0", "error": "INVALID_ARGUMENT: no"}),
    (progress.Retaken("t0/g0/s0", "w-2"), "retaken", {"game": "t0/g0/s0", "from": "w-2"}),
    (progress.HandedBack(2), "handed-back", {"games": 2}),
    (progress.DatabaseUnreachable("refused", retrying="renew"), "database-unreachable", {"error": "refused", "retrying": "renew"}),
    (progress.DatabaseUnreachable("refused"), "database-unreachable", {"error": "refused"}),
    (progress.DatabaseLost("refused", gave_up="finish"), "database-lost", {"error": "refused", "gave_up": "finish"}),
    (progress.DatabaseLost("refused"), "database-lost", {"error": "refused"}),
]
KINDS = set(typing.get_args(progress.Event))


DEFINED = {v for v in vars(progress).values() if isinstance(v, type) and issubclass(v, progress.Progress)} - {progress.Progress}


def reporter() -> tuple[Reporter, io.StringIO]:
    out = io.StringIO()
    return Reporter(Console(file=out, width=200), "l", lambda: standings(["a", "b", "c"], [])), out


def test_every_kind_of_event_is_in_the_union_reports_take_and_has_a_name_of_its_own() -> None:
    assert KINDS == DEFINED
    assert {type(event) for event, _, _ in WIRE} == KINDS
    names = [kind.name for kind in KINDS]
    assert len(set(names)) == len(names)
    assert all(dataclasses.is_dataclass(kind) and kind.__dataclass_params__.frozen for kind in KINDS)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("event", "name", "fields"), WIRE, ids=[f"{n}-{i}" for i, (_, n, _) in enumerate(WIRE)])
def test_an_events_wire_form_is_what_a_worker_logged_before(event: progress.Event, name: str, fields: dict[str, Any]) -> None:
    assert event.name == name
    assert event.fields() == fields
    assert json.loads(json.dumps(event.fields())) == fields  # lists, not tuples, as they were


def test_the_terminal_has_a_handler_for_every_kind_or_says_it_is_silent() -> None:
    handled: dict[type, str] = {}
    for attr in dir(Reporter):
        if attr.startswith("on_"):
            kind = typing.get_type_hints(getattr(Reporter, attr))["e"]
            assert kind in KINDS, f"{attr} handles {kind}, which is not an event"
            assert kind not in handled, f"{attr} and {handled.get(kind)} both handle {kind.__name__}"
            handled[kind] = attr
    silent = set(Reporter.SILENT)
    assert not silent & set(handled), silent & set(handled)
    assert silent | set(handled) == KINDS, KINDS - silent - set(handled)


def test_the_terminal_shows_every_kind_but_the_silent_ones_and_refuses_anything_else() -> None:
    for event, _, _ in WIRE:
        shown, out = reporter()
        shown(event)
        silent = isinstance(event, Reporter.SILENT)
        assert (out.getvalue() == "") == (silent or isinstance(event, progress.End)), (event, out.getvalue())
    shown, out = reporter()
    shown(progress.BotCrash("a", "exited with code 1", crashes=1, max=3))
    assert out.getvalue() == "bot a exited with code 1; restarting (crash 1 of 3)\n"
    for unknown in ("bot-crash", {"bot": "a"}, object()):
        with pytest.raises(AssertionError):
            shown(unknown)  # type: ignore[arg-type]
