"""The one way a test says a tool it needs is missing here (bubblewrap, a compiler, node, chromium...):
a skip that names the tool and how to get it, or, where MIZERKA_REQUIRE_ALL=1 (.ci/run sets it), a
failure, so that CI, which installs every tool, never passes with checks that did not run."""

from __future__ import annotations

import os
import shutil
from typing import NoReturn

import pytest

REQUIRE_ALL = "MIZERKA_REQUIRE_ALL"


def required() -> bool:
    """Whether a missing tool fails the test instead of skipping it (MIZERKA_REQUIRE_ALL=1)."""
    return os.environ.get(REQUIRE_ALL, "") not in ("", "0")


def missing(reason: str) -> NoReturn:
    """Skip the running test because ``reason`` (what is missing and how to get it); fail when required()."""
    if required():
        pytest.fail(f"{reason} [{REQUIRE_ALL} is set: a missing tool is a failure, not a skip]", pytrace=False)
    pytest.skip(reason)


def need_program(name: str, package: str) -> str:
    """The path of program ``name`` on PATH, else missing() naming the Debian ``package`` that has it."""
    found = shutil.which(name)
    if found is None:
        missing(f"{name} is not installed (the Debian package {package})")
    return found
