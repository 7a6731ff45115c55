"""The JSON Schemas of docs/schemas/ (draft 2020-12), for tests that check what the project writes
against what bot authors are told to expect."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator

from harness import ROOT

SCHEMAS = ROOT / "docs" / "schemas"


@cache
def validator(name: str) -> Draft202012Validator:
    """The validator of ``docs/schemas/NAME.schema.json`` (the schema itself checked first)."""
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


def problems(name: str, obj: Any) -> list[str]:
    """Why ``obj`` does not conform to schema ``name`` (empty when it does)."""
    return [f"{'/'.join(map(str, e.absolute_path)) or '(line)'}: {e.message}"
            for e in validator(name).iter_errors(obj)]


def assert_conforms(name: str, objs: Any) -> None:
    """Every object of ``objs`` conforms to schema ``name``; else fail naming the first that does not."""
    for obj in objs:
        found = problems(name, obj)
        assert not found, f"{name}: {found[:3]} in {json.dumps(obj)[:400]}"
