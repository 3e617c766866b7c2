"""Findings in words: a row of an estimate table, and a table of them in one finding."""

import math

import numpy as np
import pandas as pd
import pytest

from gamelib.stats import clustered_mean_table, paired_effects, rate_table, share_lost
from gamelib.stats.text import budget_text, change_text, estimate_text, listed, listed_changes


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


def test_each_row_is_judged_against_its_own_reference_when_at_names_a_column():
    from gamelib.stats import player_win_rates
    from gamelib.stats.text import direction, interval_text

    # four seats, "r" holding two of them (fair share 0.5, the others 0.25): 100 deals from
    # every arrangement, won by "a" half the time, by "b" and by "r" a quarter each
    rng = np.random.default_rng(1)
    rows = [
        {"deal": d, "rotation": k, "winner_player": w, "n_winners": 1}
        | {f"player_{s}": ("a", "b", "r", "r")[(s + k) % 4] for s in range(4)}
        for d in range(100)
        for k, w in enumerate(rng.choice(["a", "b", "r"], 4, p=[0.5, 0.25, 0.25]))
    ]
    rates = player_win_rates(pd.DataFrame(rows))
    share = ("above its fair share {at}", "below its fair share {at}", "at its fair share {at}")
    text = listed(rates, "player", words=share, at="fair_share")
    said = text.split("; ")
    assert len(said) == len(rates) == 3
    for part, r in zip(said, rates.itertuples(), strict=True):
        word = direction(r.lo, r.hi, *share, at=r.fair_share).replace("{at}", f"{r.fair_share:.3f}")
        assert part == f"`{r.player}` {interval_text(r.rate, r.lo, r.hi)} ({word})", part
    assert [p.split("(")[1].split(" its")[0] for p in said] == ["above", "at", "below"]
    assert said[2].endswith("(below its fair share 0.500)")  # r's own reference, not a's
    # a number for at works as before, and {at} says it
    assert estimate_text({"rate": 0.3, "lo": 0.2, "hi": 0.4}, words=share, at=0.25).endswith(
        "(at its fair share 0.250)"
    )
    with pytest.raises(KeyError):
        estimate_text({"rate": 0.3, "lo": 0.2, "hi": 0.4}, words=share, at="fair_share")


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


def test_a_table_of_paired_effects_in_one_finding_says_each_rows_change():
    # two players on the same four deals, with and without a rule: each row's means, its signed
    # difference and interval, after its key — and nothing its row does not hold
    games = pd.DataFrame(
        {
            "player": ["a"] * 8 + ["b"] * 8,
            "deal": [0, 1, 2, 3] * 4,
            "rotation": 0,
            "seed": [10, 11, 12, 13] * 4,
            "events": ([3] * 4 + [0] * 4) * 2,
            "won": [0, 0, 1, 0, 1, 1, 1, 0, 1, 1, 0, 1, 1, 0, 0, 1],  # a, then b
        }
    )
    table = paired_effects(games, "events", 3, ["won"], "player")
    text = listed_changes(table, "player")
    said = text.split("; ")
    assert len(said) == len(table) == 2
    for part, row in zip(said, table.to_dict("records"), strict=True):
        assert part == f"`{row['player']}` {change_text(row)}"
        before, after = (f"{row[k]:.3f}" for k in ("mean_b", "mean_a"))
        assert part.startswith(f"`{row['player']}` {before} → {after} (")
    assert said[0].startswith("`a` 0.250 → 0.750 (+0.500 [")  # a: one win, then three
    assert said[1].startswith("`b` 0.750 → 0.500 (-0.250 [")  # b: three wins, then two
    by_index = listed_changes(table.set_index("player"), sep=" / ", digits=1)
    assert by_index.startswith("`a` 0.2 → 0.8") and by_index.count(" / ") == 1
    assert listed_changes(table, "player", pct=True).startswith("`a` 25.0% → 75.0% (+50.0% [")


def test_the_budget_says_which_asks_it_cut_and_where():
    assert budget_text({}, 1.0) == "every ask played the deals asked for"
    text = budget_text({("heuristics", "greedy"): 1200, "search": 40}, 0.5)
    assert (
        text == "the time budget (0.5 min) cut heuristics greedy to 1,200 deals; search to 40 deals"
    )


def test_a_range_names_its_lowest_and_highest_rows():
    from gamelib.stats.text import range_text

    medians = pd.Series([31.0, 12.0, 20.0], index=["standard", "A", "C"])
    assert range_text(medians, 0) == "from 12 (`A`) to 31 (`standard`)"
    assert range_text(medians[["C"]], 1) == "20.0 (`C`)"
    assert range_text(pd.Series([0.8, 0.8], index=["x", "y"])) == "0.800 (`x`)"
    assert range_text(pd.Series([math.nan, 0.25], index=["x", "y"])) == "0.250 (`y`)"
    assert range_text(pd.Series([], dtype=float)) == "no values"
    # a table of estimates: its lowest and highest rows, each with its interval
    rates = pd.DataFrame(
        {"rate": [0.6, 0.2, math.nan], "lo": [0.5, 0.1, 0], "hi": [0.7, 0.3, 1]}, index=list("abc")
    )
    assert range_text(rates) == "from 0.200 [0.100, 0.300] (`b`) to 0.600 [0.500, 0.700] (`a`)"
    with pytest.raises(ValueError, match="not an estimate table"):
        range_text(pd.DataFrame({"n": [1]}))


def test_a_screen_in_one_finding_counts_what_its_table_rejects():
    from gamelib.stats import adjust_pvalues, seat_screen
    from gamelib.stats.text import interval_text, range_text, screen_text

    # two player types over three rule sets of 200 games each: seat 0 wins 150, 100 or 40 of
    # them under "a", 104, 96 or 100 under "b"
    wins = {("a", "r1"): 150, ("a", "r2"): 100, ("a", "r3"): 40, ("b", "r1"): 104}
    wins |= {("b", "r2"): 96, ("b", "r3"): 100}
    games = pd.DataFrame(
        [
            {"players": p, "rule": r, "player_0": p, "player_1": p, "n_winners": 1,
             "winner": int(i >= k), "reason": "ended"}
            for (p, r), k in wins.items()
            for i in range(200)
        ]
    )  # fmt: skip
    screen = pd.concat(
        [
            adjust_pvalues(seat_screen(g, "rule")).assign(players=p)
            for p, g in games.groupby("players")
        ]
    ).set_index("rule")
    text = screen_text(screen, "players")
    said = dict(part.split(": ", 1) for part in text.split("; "))
    assert list(said) == ["`a`", "`b`"]
    for p, g in screen.groupby("players"):
        above = int((g.reject & (g.share > 0.5)).sum())
        below = int((g.reject & (g.share < 0.5)).sum())
        assert said[f"`{p}`"] == (
            f"{above} above 0.5, {below} below, of {len(g)} ({range_text(g)})"
        )
        low, high = g.loc[g.share.idxmin()], g.loc[g.share.idxmax()]
        assert (
            f"from {interval_text(low.share, low.lo, low.hi)} (`{low.name}`) to " in said[f"`{p}`"]
        )
        assert f"to {interval_text(high.share, high.lo, high.hi)} (`{high.name}`)" in said[f"`{p}`"]
    assert said["`a`"].startswith("1 above 0.5, 1 below, of 3 (from 0.200 [")
    assert "(`r3`) to 0.750 [" in said["`a`"] and said["`a`"].endswith("(`r1`))")
    assert said["`b`"].startswith("0 above 0.5, 0 below, of 3")
    # no groups: the whole table in one clause
    assert screen_text(screen).startswith("1 above 0.5, 1 below, of 6 (from 0.200 [")
