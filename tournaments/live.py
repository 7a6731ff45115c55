"""What an organiser sees while a league runs: a rich progress bar and live standings in a terminal,
plain lines elsewhere (CI logs, files)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, assert_never

from rich.console import Console, Group
from rich.live import Live
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from server.scoresheet import name_cell
from server.text import counted, printable
from tournaments import progress
from tournaments.standings.sequential import PairEvidence, Separation, Verdict
from tournaments.standings.stats import Standings


def shown(text: str) -> str:
    """A name (or a bot's own words) inside a line of Rich markup: printable, its brackets escaped."""
    return escape(printable(text))


def standings_table(result: Standings, title: str = "Standings") -> Table:
    evidence = result.separation
    table = Table(title=name_cell(title), caption=settled_line(evidence) if evidence is not None else None)  # it names the league
    columns = [("#", "right"), ("bot", "left"), ("rating", "right"), ("mu ± sigma", "right"), ("games", "right"),
               ("points/game (95% CI)", "right"), ("wins", "right"), ("faults", "left")]
    if evidence is not None:
        columns.append((f"ahead of next ({evidence.confidence:.0%})", "left"))
    for col, justify in columns:
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    for i, b in enumerate(result.bots, 1):
        # One set has no spread to estimate an interval from: say so rather than show a bare mean.
        ci = f" ± {b.ci95:.2f}" if b.ci95 is not None else f" (no CI: {counted(b.sets, 'set')})"
        faults = ", ".join(f"{k} {v}" for k, v in b.faults.items() if v)
        if b.crashes:
            faults = ", ".join(x for x in (faults, f"crashes {b.crashes}") if x)
        if b.disabled:
            faults += " DISABLED"
        cells = [str(i), name_cell(b.name), f"{b.ordinal:.2f}", f"{b.mu:.1f} ± {b.sigma:.1f}", str(b.games),
                 f"{b.mean:+.2f}{ci}", f"{b.wins:g}", faults or "-"]
        if evidence is not None:
            cells.append(pair_cell(evidence.pairs[i - 1]) if i <= len(evidence.pairs) else "")
        table.add_row(*cells)
    return table


def pair_cell(pair: PairEvidence) -> str:
    """A bot's lead over the next one in points per game, its interval and the verdict."""
    if pair.difference is None:
        return f"{pair.verdict} (no complete round)"
    if pair.lo is None or pair.hi is None:
        return f"{pair.difference:+.2f}, too few rounds for an interval: {pair.verdict}"
    return f"{pair.difference:+.2f} [{pair.lo:+.2f}, {pair.hi:+.2f}] {pair.verdict}"


def settled_line(evidence: Separation) -> str:
    """Whether the order is settled, and whether the league stopped for it."""
    level = f"{evidence.confidence:.0%}"
    if not evidence.settled:
        done = sum(p.verdict is Verdict.SETTLED for p in evidence.pairs)
        return (f"not settled at {level}: {done} of {len(evidence.pairs)} adjacent pairs separated "
                f"after {counted(evidence.rounds, 'complete round')} ({counted(evidence.games, 'game')})")
    left = evidence.scheduled - evidence.games
    stopped = f"; the league stopped: {left} scheduled games were not needed" if left > 0 else ""
    return (f"settled at {level} after {counted(evidence.games, 'game')} ({counted(evidence.rounds, 'round')}): every adjacent pair "
            f"separated{stopped}")


def head_to_head_table(result: Standings) -> Table:
    names = [b.name for b in result.bots]
    table = Table(title="Head to head (row finished ahead-behind-tied of column)")
    table.add_column("")
    for n in names:
        table.add_column(name_cell(n), justify="center")
    for a in names:
        cells = []
        for b in names:
            if a == b:
                cells.append("-")
            else:
                h = result.head_to_head[a][b]
                cells.append(f"{h['ahead']}-{h['behind']}-{h['tied']}")
        table.add_row(name_cell(a), *cells)
    return table


class Reporter:
    """Shows the runner's events (tournaments/progress.py) in the terminal; ``standings`` is called to
    refresh the live table."""

    def __init__(self, console: Console, name: str, standings_fn: Any) -> None:
        self.console = console
        self.name = name
        self.standings_fn = standings_fn
        self.live: Live | None = None
        self.progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("ETA"),
                                 TimeRemainingColumn(), console=console)
        self.task = self.progress.add_task(shown(name), total=0, rate="")
        self.started = time.monotonic()
        self.done = 0
        self.total = 0
        self.new = 0
        self.workers: Mapping[str, Mapping[str, int]] = {}  # a league submitted to workers: their games
        self.unsandboxed = ""  # the warning that its bots ran without a sandbox, repeated under the standings
        self.never_connected: list[str] = []  # bots disabled before they ever connected: "NAME (why; its log: PATH)"

    # What the terminal does not show: a worker's own events (they are in its log), and what the
    # runner notes on its way (a call tried again, a result refused, the league published).
    SILENT = (progress.RefereeError, progress.LeaseLost, progress.Refused, progress.Published, progress.WorkerStart,
              progress.League, progress.CannotPlay, progress.LeagueError, progress.GameError, progress.Retaken,
              progress.HandedBack, progress.DatabaseLost)

    def __call__(self, event: progress.Event) -> None:
        """Show ``event``: each kind is shown by its ``on_`` method or is one of :attr:`SILENT`; a
        type checker holds this to every kind (assert_never), and anything else is an error."""
        if isinstance(event, self.SILENT):
            return
        match event:
            case progress.Start():
                self.on_start(event)
            case progress.Game():
                self.on_game(event)
            case progress.Sandbox():
                self.on_sandbox(event)
            case progress.BotCrash():
                self.on_bot_crash(event)
            case progress.SandboxRetry():
                self.on_sandbox_retry(event)
            case progress.BotExit():
                self.on_bot_exit(event)
            case progress.BotDisabled():
                self.on_bot_disabled(event)
            case progress.RefereeRestart():
                self.on_referee_restart(event)
            case progress.Replay():
                self.on_replay(event)
            case progress.Interrupted():
                self.on_interrupted(event)
            case progress.Aborted():
                self.on_aborted(event)
            case progress.AbortUnsupported():
                self.on_abort_unsupported(event)
            case progress.RemoteBot():
                self.on_remote_bot(event)
            case progress.WebPage():
                self.on_web_page(event)
            case progress.Settled():
                self.on_settled(event)
            case progress.Submitted():
                self.on_submitted(event)
            case progress.Workers():
                self.on_workers(event)
            case progress.DatabaseUnreachable():
                self.on_database_unreachable(event)
            case progress.End():
                self.on_end(event)
            case _:
                assert_never(event)

    def _say(self, text: str) -> None:
        self.console.print(text, highlight=False)

    def _render(self) -> Group:
        parts: list[Any] = [self.progress]
        if self.workers:
            table = Table(title="workers")
            for col in ("worker (host/pid)", "playing", "done"):
                table.add_column(col, justify="left" if col.startswith("worker") else "right")
            for name, n in sorted(self.workers.items()):
                table.add_row(name_cell(name), str(n["running"]), str(n["finished"]))
            parts.append(table)
        return Group(*parts, standings_table(self.standings_fn(), f"{self.name}: live standings"))

    def on_start(self, e: progress.Start) -> None:
        self.total, self.done = e.total, e.done
        self.progress.update(self.task, total=self.total, completed=self.done)
        resumed = f", resuming: {self.done} already played" if self.done else ""
        self._say(f"league {shown(self.name)}: {counted(self.total, 'game')}{resumed}")
        if self.console.is_terminal and e.todo:
            self.live = Live(self._render(), console=self.console, refresh_per_second=4)
            self.live.start()

    def on_game(self, e: progress.Game) -> None:
        self.done += 1
        self.new += 1
        rate = self.new / max(time.monotonic() - self.started, 1e-9)
        self.progress.update(self.task, completed=self.done, rate=f"{rate:.2f} games/s")
        if self.live is not None:
            self.live.update(self._render())
        else:
            eta = (self.total - self.done) / rate if rate else 0
            seats = " ".join(f"{shown(n)} {t:+d}" for n, t in zip(e.seats, e.totals))
            self._say(f"[{self.done}/{self.total}] {e.game}: {seats}  ({rate:.2f} games/s, ETA {eta:.0f} s)")

    def on_sandbox(self, e: progress.Sandbox) -> None:
        if e.on:
            network = "the network (the referee is remote)" if e.network else "no network but the referee"
            self._say(f"bots run in a sandbox (bubblewrap): {network}, their own folders; {e.limits}")
            return
        why = (f"WITHOUT A SANDBOX ({e.why}): each could read the league's database and every bot's token, use the "
               "network, and take the machine's memory and CPU (docs/security.md, The sandbox)")
        self.unsandboxed = f"WARNING: the bots ran {why}"
        self._say(f"[bold red]WARNING: the bots run {why}[/]")

    def on_bot_crash(self, e: progress.BotCrash) -> None:
        self._say(f"bot {shown(e.bot)} {shown(e.reason)}; restarting (crash {e.crashes} of {e.max})")

    def on_sandbox_retry(self, e: progress.SandboxRetry) -> None:
        self._say(f"[yellow]bot {shown(e.bot)}: {shown(e.error)} (the host's, not the bot's: trying again, "
                  f"{e.failures} in a row)[/]")

    def on_bot_exit(self, e: progress.BotExit) -> None:
        self._say(f"[yellow]bot {shown(e.bot)} {shown(e.reason)} while the database cannot be reached; restarting, "
                  "not counted as a crash[/]")

    def on_bot_disabled(self, e: progress.BotDisabled) -> None:
        self._say(f"[bold red]bot {shown(e.bot)} {shown(e.reason)}[/]")
        if not e.never_connected:
            return
        self.never_connected.append(f"{printable(e.bot)} (last: {printable(e.last)}; its log: {e.log})")
        tail = e.log_tail or ("(empty)",)
        # the bot's own words: printed as they are, never read as markup
        self.console.print(f"bot {printable(e.bot)} never connected; the last lines of its log, {e.log}:\n"
                           + "\n".join(f"  | {printable(line)}" for line in tail), markup=False, highlight=False, soft_wrap=True)

    def failure_summary(self) -> str:
        """What went wrong with the league's bots, for the end of `league run` (empty: nothing)."""
        if not self.never_connected:
            return ""
        n = len(self.never_connected)
        return (f"{n} bot{'s' if n != 1 else ''} never connected and {'were' if n != 1 else 'was'} disabled, "
                f"{'their' if n != 1 else 'its'} games played as forfeits: {'; '.join(self.never_connected)}")

    def on_referee_restart(self, e: progress.RefereeRestart) -> None:
        self._say(f"the referee exited (code {e.code}); restarted it, unfinished games will be replayed")

    def on_replay(self, e: progress.Replay) -> None:
        self._say(f"game {e.game}: match {e.match} was lost; playing its seed again")

    def on_interrupted(self, e: progress.Interrupted) -> None:
        n = len(e.games)
        self._say(f"{n} game{'s were' if n != 1 else ' was'} in flight when the league stopped: "
                  "their results (if any) are discarded and they are played again")

    def on_aborted(self, e: progress.Aborted) -> None:
        self._say(f"aborted {counted(len(e.matches), 'unfinished match', 'unfinished matches')} of the league on the referee ({e.reason})")

    def on_abort_unsupported(self, e: progress.AbortUnsupported) -> None:
        self._say("[yellow]warning: the referee has no Arena.AbortMatches (an older version): matches an earlier "
                  "run left in flight may play on there; their results are not counted[/]")

    def on_remote_bot(self, e: progress.RemoteBot) -> None:
        # Plain and unwrapped: the command line is meant to be pasted.
        self.console.print(f"remote bot {e.bot}: the referee is at {e.server}; start the bot with this command "
                           f"line, its own command appended (also in {e.file}):\n  {e.command}",
                           markup=False, highlight=False, soft_wrap=True)

    def on_web_page(self, e: progress.WebPage) -> None:
        # Plain and unwrapped: the address is meant to be opened (and read by scripts: "web page: URL").
        self.console.print(f"web page: {e.url}  (live matches, the league's live standings)",
                           markup=False, highlight=False, soft_wrap=True)

    def on_settled(self, e: progress.Settled) -> None:
        self._say(f"settled after {counted(e.games, 'game')} ({counted(e.rounds, 'round')}): every adjacent pair of the standings "
                  f"is separated at {e.confidence:.0%}; the other {e.scheduled - e.games} scheduled games "
                  "are not needed")

    def on_submitted(self, e: progress.Submitted) -> None:
        self._say(f"league {shown(e.league)} is open to the workers (mizerka worker --db ...); following their games")

    def on_workers(self, e: progress.Workers) -> None:
        self.workers = e.workers
        if self.live is not None:
            self.live.update(self._render())
        else:
            busy = ", ".join(f"{shown(w)}: {n['running']} playing, {n['finished']} done" for w, n in sorted(e.workers.items()))
            self._say(f"workers: {busy or 'none yet'}")

    def on_database_unreachable(self, e: progress.DatabaseUnreachable) -> None:
        self._say(f"[yellow]the database cannot be reached ({e.error}); the workers go on, still trying[/]")

    def on_end(self, e: progress.End) -> None:
        self.close()

    def close(self) -> None:
        if self.live is not None:
            self.live.stop()
            self.live = None
