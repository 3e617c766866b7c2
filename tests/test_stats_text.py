"""Findings in words: a row of an estimate table, and a table of them in one finding."""

import math

import pandas as pd
import pytest

from gamelib.stats import clustered_mean_table, rate_table, share_lost
from gamelib.stats.text import budget_text, estimate_text, listed


def test_an_estimate_row_says_its_estimate_and_interval_whatever_the_table():
    games = pd.DataFrame({"player": ["a"] * 4 + ["b"] * 4, "won": [1, 0, 0, 0, 1, 1, 1, 0]})
    rate = rate_table(games, "player", "won").set_index("player").loc["a"]
    assert estimate_text(rate).startswith("0.250 [") and estimate_text(rate).endswith("]")
    assert estimate_text({"mean": 0.1234, "lo": -0.0001, "hi": 0.3}) == "0.123 [0.000, 0.300]"
    assert estimate_text({"coef": 1.5, "lo": 1, "hi": 2}, 1) == "1.5 [1.0, 2.0]"
    lost = share_lost([1, 0, 1, 0, 0, 1], [1, 1, 1, 1, 0, 1])
    assert estimate_text(lost, pct=True).startswith("40.0% [")
    # a describe() row: the median and its quartiles
    q = pd.Series([10, 11, 13, 15, 20]).describe()
    assert estimate_text(q, 0) == "13 (11–15)"


def test_an_unbounded_interval_or_a_missing_estimate_is_said_not_printed():
    unbounded = {"share": 0.5, "lo": -math.inf, "hi": math.inf}
    assert "inf" not in estimate_text(unbounded, pct=True)
    assert estimate_text(unbounded, pct=True).startswith("50.0% (an interval these deals cannot")
    assert "nan" not in estimate_text({"share": math.nan, "lo": 0.1, "hi": 0.2})
    with pytest.raises(ValueError, match="not a row of an estimate table"):
        estimate_text({"n": 3})


def test_the_word_follows_the_interval_not_the_estimate():
    even = ("more than even", "less than even", "consistent with even")
    assert estimate_text({"mean": 0.17, "lo": 0.16, "hi": 0.18}, words=even, at=0.1).endswith(
        "(more than even)"
    )
    assert estimate_text({"mean": 0.05, "lo": 0.04, "hi": 0.06}, words=even, at=0.1).endswith(
        "(less than even)"
    )
    # an estimate above the mark whose interval reaches below it supports no direction
    assert estimate_text({"mean": 0.12, "lo": 0.09, "hi": 0.15}, words=even, at=0.1).endswith(
        "(consistent with even)"
    )


def test_a_table_in_one_finding_names_each_row():
    strikes = pd.DataFrame(
        {"player": ["a"] * 4 + ["b"] * 4, "deal": [0, 0, 1, 2] * 2, "late": [1, 0, 0, 0] * 2}
    )
    table = clustered_mean_table(strikes, "player", "late")
    text = listed(table, "player")
    assert text.startswith("`a` 0.250 [") and "; `b` 0.250 [" in text
    assert listed(table.set_index("player"), sep=" / ").count(" / ") == 1
    lengths = pd.DataFrame({"p": ["x"] * 3 + ["y"] * 3, "turns": [9, 10, 12, 20, 21, 22]})
    assert listed(lengths.groupby("p")["turns"].describe(), digits=0) == (
        "`x` 10 (10–11); `y` 21 (20–22)"
    )


def test_the_budget_says_which_asks_it_cut_and_where():
    assert budget_text({}, 1.0) == "every ask played the deals asked for"
    text = budget_text({("heuristics", "greedy"): 1200, "search": 40}, 0.5)
    assert (
        text == "the time budget (0.5 min) cut heuristics greedy to 1,200 deals; search to 40 deals"
    )
