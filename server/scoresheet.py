"""The score sheet of a game (contracts used per player, points per deal, running totals) as a rich table."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text

from mizerka_engine.events import DealResult, contract_text
from mizerka_engine.rules import Ruleset
from server.text import printable


def name_cell(name: str) -> Text:
    """A name as a table cell: printable (server/text.py) and never read as Rich markup (a bot
    named ``[/]`` would stop the table with an error, ``[blink]`` would style it)."""
    return Text(printable(name))


def render_scoresheet(rules: Ruleset, results: Sequence[DealResult], names: Sequence[str], title: str = "") -> Group:
    """``names``, ``title``: as given, made printable here."""
    n = rules.players
    cells = [name_cell(name) for name in names]
    deals = Table(title=Text(f"Score sheet {printable(title)}".strip()), show_lines=False)
    for col in ("#", "dealer", "declarer", "contract", "tricks"):
        deals.add_column(col, justify="right" if col in ("#", "tricks") else "left")
    for cell in cells:
        deals.add_column(cell, justify="right")
    totals = [0] * n
    for i, r in enumerate(results, 1):
        for s in range(n):
            totals[s] += r.points[s]
        contract = contract_text(r.contract, r.major, r.trump, rules)
        if r.void:
            contract += f" VOID (revoke by {printable(names[r.revoker or 0])})"
        if r.tiebreak:
            contract += " tie-break"
        deals.add_row(
            str(i), cells[r.dealer], cells[r.declarer], Text(contract), "/".join(map(str, r.tricks)),
            *(f"{p:+d} ({t})" for p, t in zip(r.points, totals)),
        )
    used = Table(title="Contracts used as declarer")
    used.add_column("player")
    for c in rules.contracts:
        used.add_column(c.name, justify="center")
    used.add_column("total", justify="right")
    for s, cell in enumerate(cells):
        played = {r.contract for r in results if r.declarer == s and not r.void and not r.tiebreak}
        used.add_row(cell, *("x" if c.name in played else "" for c in rules.contracts), f"{totals[s]:+d}")
    return Group(deals, used)
