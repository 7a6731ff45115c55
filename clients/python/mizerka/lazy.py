"""Packages whose names load at their first use (PEP 562): ``mizerka`` and ``mizerka.stdio``
re-export their submodules' names, and a process that needs one submodule (``mizerka replay``
needs the stdio codec; a built-in bot, its own module) must not pay for importing all of them."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(package: str, namespace: dict[str, Any], homes: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``, whose globals are ``namespace``:
    ``homes`` maps each re-exported name to the module that defines it (a name that is that
    module's own last part is the module itself). A name is looked up once, then kept."""

    def getattr_(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = importlib.import_module(home)
        value = module if home == f"{package}.{name}" else getattr(module, name)
        namespace[name] = value
        return value

    def dir_() -> list[str]:
        return sorted({*namespace, *homes})

    return getattr_, dir_
