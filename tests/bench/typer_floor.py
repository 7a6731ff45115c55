"""The least a typer command costs: one option, parsed and run, doing nothing: what every `mizerka`
command with options pays before any code of ours (bench_cli.py times it beside them). typer is
pinned at 0.28: 0.29 coerces options through pydantic, imported at the first command run (about
90 ms more here)."""

from __future__ import annotations

import typer

app = typer.Typer(add_completion=False)


@app.command()
def main(name: str = "x") -> None:
    """Does nothing."""


if __name__ == "__main__":
    app()
