"""Built-in example bots, registered by name in :data:`BOTS` (``mizerka-bot NAME`` runs one).

Add a style by writing a :class:`mizerka.Bot` subclass and registering it: ``BOTS["mine"] = MyBot``.
A registered class may take a ``seed`` keyword (random-number bots do). Card sense the example
bots share (unseen cards, masters, contract fits, minus-contract play) is in :mod:`mizerka.bots.common`.
"""

from __future__ import annotations

import importlib.util
import inspect
import itertools
from collections.abc import Callable, Iterator, MutableMapping

from mizerka.bot import Bot

__all__ = ["BOTS", "CautiousBot", "ExpertBot", "GreedyBot", "HeuristicBot", "RandomBot", "make_factory"]

# A bot process imports only the bot it runs: each built-in's module is imported by its loader, at
# its first look-up in BOTS (the imports inside these functions are for start-up time, never to
# dodge a cycle). The expert's import of the rules engine takes the longest.


def _random() -> Callable[..., Bot]:
    from mizerka.bots.random_bot import RandomBot
    return RandomBot


def _heuristic() -> Callable[..., Bot]:
    from mizerka.bots.heuristic import HeuristicBot
    return HeuristicBot


def _greedy() -> Callable[..., Bot]:
    from mizerka.bots.greedy import GreedyBot
    return GreedyBot


def _cautious() -> Callable[..., Bot]:
    from mizerka.bots.cautious import CautiousBot
    return CautiousBot


def _expert() -> Callable[..., Bot]:
    from mizerka.bots.expert import ExpertBot
    return ExpertBot


class BotRegistry(MutableMapping[str, Callable[..., Bot]]):
    """Bot name -> Bot class (or any callable that returns a Bot); a built-in one is loaded at its
    first look-up, a registered one (``BOTS["mine"] = MyBot``) is kept as given."""

    def __init__(self, loaders: dict[str, Callable[[], Callable[..., Bot]]]) -> None:
        self._loaders = loaders
        self._bots: dict[str, Callable[..., Bot]] = {}

    def __getitem__(self, name: str) -> Callable[..., Bot]:
        if name not in self._bots:
            self._bots[name] = self._loaders[name]()  # KeyError: no such bot
        return self._bots[name]

    def __setitem__(self, name: str, bot: Callable[..., Bot]) -> None:
        self._bots[name] = bot

    def __delitem__(self, name: str) -> None:
        if name not in self._bots and name not in self._loaders:
            raise KeyError(name)
        self._bots.pop(name, None)
        self._loaders.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys([*self._loaders, *self._bots]))

    def __len__(self) -> int:
        return len(set(self._loaders) | set(self._bots))


_BUILTIN = {"random": _random, "heuristic": _heuristic, "greedy": _greedy, "cautious": _cautious}
# The expert searches with the rules engine, an optional dependency of the SDK (`mizerka-client[expert]`):
# registered only where it is installed.
_HAS_ENGINE = importlib.util.find_spec("mizerka_engine") is not None
if _HAS_ENGINE:
    _BUILTIN["expert"] = _expert

#: Bot name -> Bot class (or any callable that returns a Bot).
BOTS: MutableMapping[str, Callable[..., Bot]] = BotRegistry(dict(_BUILTIN))

_CLASSES = {"RandomBot": _random, "HeuristicBot": _heuristic, "GreedyBot": _greedy, "CautiousBot": _cautious,
            "ExpertBot": _expert}


def __getattr__(name: str) -> object:
    """The built-in classes by name (``from mizerka.bots import HeuristicBot``), imported when asked
    for; ``ExpertBot`` is None where the rules engine is not installed."""
    if name == "ExpertBot" and not _HAS_ENGINE:
        return None
    if name in _CLASSES:
        return _CLASSES[name]()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
