"""What an organiser sees while a league runs: a rich progress bar and live standings in a terminal,
plain lines elsewhere (CI logs, files)."""

from __future__ import annotations

import time
from typing import Any

from rich.console import Console, Group
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from tournaments.stats import Standings


def standings_table(result: Standings, title: str = "Standings") -> Table:
    table = Table(title=title)
    for col, justify in (("#", "right"), ("bot", "left"), ("rating", "right"), ("mu ± sigma", "right"),
                         ("games", "right"), ("points/game (95% CI)", "right"), ("wins", "right"), ("faults", "left")):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    for i, b in enumerate(result.bots, 1):
        ci = f" ± {b.ci95:.2f}" if b.ci95 is not None else ""
        faults = ", ".join(f"{k} {v}" for k, v in b.faults.items() if v)
        if b.crashes:
            faults = ", ".join(x for x in (faults, f"crashes {b.crashes}") if x)
        if b.disabled:
            faults += " DISABLED"
        table.add_row(str(i), b.name, f"{b.ordinal:.2f}", f"{b.mu:.1f} ± {b.sigma:.1f}", str(b.games),
                      f"{b.mean:+.2f}{ci}", f"{b.wins:g}", faults or "-")
    return table


def head_to_head_table(result: Standings) -> Table:
    names = [b.name for b in result.bots]
    table = Table(title="Head to head (row finished ahead-behind-tied of column)")
    table.add_column("")
    for n in names:
        table.add_column(n, justify="center")
    for a in names:
        cells = []
        for b in names:
            if a == b:
                cells.append("-")
            else:
                h = result.head_to_head[a][b]
                cells.append(f"{h['ahead']}-{h['behind']}-{h['tied']}")
        table.add_row(a, *cells)
    return table


class Reporter:
    """Receives the runner's events; ``standings`` is called to refresh the live table."""

    def __init__(self, console: Console, name: str, standings_fn: Any) -> None:
        self.console = console
        self.name = name
        self.standings_fn = standings_fn
        self.live: Live | None = None
        self.progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("ETA"),
                                 TimeRemainingColumn(), console=console)
        self.task = self.progress.add_task(name, total=0, rate="")
        self.started = time.monotonic()
        self.done = 0
        self.total = 0
        self.new = 0

    def __call__(self, event: str, data: dict[str, Any]) -> None:
        handler = getattr(self, f"on_{event.replace('-', '_')}", None)
        if handler is not None:
            handler(data)

    def _say(self, text: str) -> None:
        self.console.print(text, highlight=False)

    def _render(self) -> Group:
        return Group(self.progress, standings_table(self.standings_fn(), f"{self.name}: live standings"))

    def on_start(self, d: dict[str, Any]) -> None:
        self.total, self.done = d["total"], d["done"]
        self.progress.update(self.task, total=self.total, completed=self.done)
        resumed = f", resuming: {self.done} already played" if self.done else ""
        self._say(f"league {self.name}: {self.total} games{resumed}")
        if self.console.is_terminal and d["todo"]:
            self.live = Live(self._render(), console=self.console, refresh_per_second=4)
            self.live.start()

    def on_game(self, d: dict[str, Any]) -> None:
        self.done += 1
        self.new += 1
        rate = self.new / max(time.monotonic() - self.started, 1e-9)
        self.progress.update(self.task, completed=self.done, rate=f"{rate:.2f} games/s")
        if self.live is not None:
            self.live.update(self._render())
        else:
            eta = (self.total - self.done) / rate if rate else 0
            seats = " ".join(f"{n} {t:+d}" for n, t in zip(d["seats"], d["totals"]))
            self._say(f"[{self.done}/{self.total}] {d['game']}: {seats}  ({rate:.2f} games/s, ETA {eta:.0f} s)")

    def on_bot_crash(self, d: dict[str, Any]) -> None:
        self._say(f"bot {d['bot']} {d['reason']}; restarting (crash {d['crashes']} of {d['max']})")

    def on_bot_disabled(self, d: dict[str, Any]) -> None:
        self._say(f"[bold red]bot {d['bot']} {d['reason']}[/]")

    def on_referee_restart(self, d: dict[str, Any]) -> None:
        self._say(f"the referee exited (code {d['code']}); restarted it, unfinished games will be replayed")

    def on_replay(self, d: dict[str, Any]) -> None:
        self._say(f"game {d['game']}: match {d['match']} was lost; playing its seed again")

    def on_interrupted(self, d: dict[str, Any]) -> None:
        n = len(d["games"])
        self._say(f"{n} game{'s were' if n != 1 else ' was'} in flight when the league stopped: "
                  "their results (if any) are discarded and they are played again")

    def on_aborted(self, d: dict[str, Any]) -> None:
        self._say(f"aborted {len(d['matches'])} unfinished matches of the league on the referee ({d['reason']})")

    def on_abort_unsupported(self, d: dict[str, Any]) -> None:
        self._say("[yellow]warning: the referee has no Arena.AbortMatches (an older version): matches an earlier "
                  "run left in flight may play on there; their results are not counted[/]")

    def on_remote_bot(self, d: dict[str, Any]) -> None:
        self._say(f"remote bot {d['bot']}: connect it with MIZERKA_TOKEN={d['token']}")

    def on_end(self, d: dict[str, Any]) -> None:
        self.close()

    def close(self) -> None:
        if self.live is not None:
            self.live.stop()
            self.live = None
