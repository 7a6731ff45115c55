"""tests/needs.py: a missing tool skips a test, except under MIZERKA_REQUIRE_ALL (CI), where it fails."""

from __future__ import annotations

import pytest

from needs import REQUIRE_ALL, missing, need_program


@pytest.mark.parametrize(("value", "outcome"), [(None, pytest.skip.Exception), ("", pytest.skip.Exception),
                                                ("0", pytest.skip.Exception), ("1", pytest.fail.Exception)])
def test_a_missing_tool_skips_unless_every_check_is_required(monkeypatch: pytest.MonkeyPatch, value: str | None,
                                                             outcome: type[BaseException]) -> None:
    if value is None:
        monkeypatch.delenv(REQUIRE_ALL, raising=False)
    else:
        monkeypatch.setenv(REQUIRE_ALL, value)
    either = (pytest.skip.Exception, pytest.fail.Exception)  # caught both ways: a wrong skip must not skip this test
    with pytest.raises(either, match="no-such-tool is not installed .the Debian package nothing.") as program:
        need_program("no-such-tool", "nothing")
    with pytest.raises(either, match="bubblewrap") as tool:
        missing("no sandbox here (bubblewrap)")
    assert program.type is tool.type is outcome


def test_a_present_tool_is_found_whatever_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(REQUIRE_ALL, "1")
    assert need_program("sh", "dash").endswith("/sh")
