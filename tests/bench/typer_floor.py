"""The least a typer command costs: one option, parsed and run, doing nothing. typer coerces
parameters through pydantic, imported at the first command run, so every `mizerka` command with
options pays this much before any code of ours (bench_cli.py times it beside them)."""

from __future__ import annotations

import typer

app = typer.Typer(add_completion=False)


@app.command()
def main(name: str = "x") -> None:
    """Does nothing."""


if __name__ == "__main__":
    app()
