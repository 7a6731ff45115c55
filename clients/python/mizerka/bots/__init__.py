"""Built-in example bots, registered by name in :data:`BOTS` (``mizerka-bot NAME`` runs one).

Add a style by writing a :class:`mizerka.Bot` subclass and registering it: ``BOTS["mine"] = MyBot``.
A registered class may take a ``seed`` keyword (random-number bots do). Card sense the example
bots share (unseen cards, masters, contract fits, minus-contract play) is in :mod:`mizerka.bots.common`.
"""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable

from mizerka.bot import Bot
from mizerka.bots.cautious import CautiousBot
from mizerka.bots.greedy import GreedyBot
from mizerka.bots.heuristic import HeuristicBot
from mizerka.bots.random_bot import RandomBot

try:  # the expert searches with the rules engine, an optional dependency of the SDK (`mizerka-client[expert]`)
    from mizerka.bots.expert import ExpertBot
except ModuleNotFoundError as missing:
    if missing.name != "mizerka_engine":
        raise
    ExpertBot = None  # type: ignore[assignment,misc]

__all__ = ["BOTS", "CautiousBot", "ExpertBot", "GreedyBot", "HeuristicBot", "RandomBot", "make_factory"]

#: Bot name -> Bot class (or any callable that returns a Bot).
BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "greedy": GreedyBot,
    "cautious": CautiousBot,
}
if ExpertBot is not None:
    BOTS["expert"] = ExpertBot


def make_factory(name: str, seed: int | None = None) -> Callable[[], Bot]:
    """A factory for bot ``name``: each call makes a new Bot (with seed, seed+1, ... when given)."""
    try:
        cls = BOTS[name]
    except KeyError:
        raise KeyError(f"no bot named {name!r}; bots are {', '.join(sorted(BOTS))}") from None
    takes_seed = "seed" in inspect.signature(cls).parameters
    if seed is None or not takes_seed:
        return cls
    counter = itertools.count(seed)
    return lambda: cls(seed=next(counter))
