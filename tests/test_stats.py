"""The one statistics helper, ``mean_ci95``, against textbook Student t values (two-sided 95%)."""

from __future__ import annotations

import math
import statistics

import pytest
from scipy.stats import t

from tournaments.live import settled_line, standings_table
from tournaments.standings.sequential import PairEvidence, Separation, Verdict
from tournaments.standings.stats import BotLine, MeanCI, Standings, mean_ci95

# t(0.975, df) from printed tables, to the digits they give.
TABLE = {1: 12.7062, 4: 2.7764, 39: 2.0227, 120: 1.9799}


@pytest.mark.parametrize(("values", "df"), [
    ([1.0, 3.0], 1),  # n = 2: the widest interval
    ([1.0, 2.0, 3.0, 4.0, 5.0], 4),
    ([float(i % 7) - 2.5 for i in range(40)], 39),
    ([math.sin(i) for i in range(121)], 120),  # past the end of the old 30-row tables
])
def test_the_interval_is_the_mean_plus_minus_t_times_the_standard_error(values: list[float], df: int) -> None:
    mean, lo, hi = mean_ci95(values)
    assert mean == pytest.approx(statistics.fmean(values))
    half = TABLE[df] * statistics.stdev(values) / math.sqrt(len(values))
    assert lo == pytest.approx(mean - half, rel=1e-4) and hi == pytest.approx(mean + half, rel=1e-4)
    assert (hi - lo) / 2 == pytest.approx(t.ppf(0.975, df) * statistics.stdev(values) / math.sqrt(len(values)))


def test_known_intervals_for_small_samples() -> None:
    assert mean_ci95([1.0, 3.0]) == pytest.approx((2.0, 2.0 - 12.7062, 2.0 + 12.7062), rel=1e-5)
    assert mean_ci95([1, 2, 3, 4, 5]) == pytest.approx((3.0, 1.03676, 4.96324), rel=1e-5)


def test_one_value_has_a_mean_but_no_interval() -> None:
    assert mean_ci95([4.5]) == MeanCI(4.5, None, None)
    assert mean_ci95([4.5]).half_width is None


def test_equal_values_have_an_interval_of_width_zero() -> None:
    result = mean_ci95([2.0, 2.0, 2.0])
    assert result == (2.0, 2.0, 2.0) and result.half_width == 0.0


def test_no_values_is_an_error_not_a_nan() -> None:
    with pytest.raises(ValueError, match="at least one value"):
        mean_ci95([])


def test_the_standings_table_says_why_a_bot_with_one_set_has_no_interval() -> None:
    table = standings_table(Standings([BotLine("solo", games=3, mean=1.5, sets=1),
                                       BotLine("many", games=6, mean=-0.5, ci95=2.25, sets=2)], {}, {}, 9))
    cells = list(table.columns[5].cells)
    assert cells == ["+1.50 (no CI: 1 set)", "-0.50 ± 2.25"]


def test_counts_agree_with_their_nouns_in_the_standings_caption() -> None:
    pair = PairEvidence("a", "b", 1.0, None, None, Verdict.OPEN)
    one = Separation(0.95, rounds=1, games=1, scheduled=9, pairs=(pair,))
    assert settled_line(one) == "not settled at 95%: 0 of 1 adjacent pairs separated after 1 complete round (1 game)"
    two = Separation(0.95, rounds=2, games=6, scheduled=9, pairs=(pair,))
    assert "after 2 complete rounds (6 games)" in settled_line(two)
