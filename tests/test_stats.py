"""gamelib.stats against hand-computed values and known formulas."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from gamelib.garner import GARNER
from gamelib.sim import simulate
from gamelib.stats import game_metrics, games_needed, paired_difference, wilson, win_rates


def test_wilson_matches_the_formula():
    k, n, z = 30, 100, 1.959963984540054
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    lo, hi = wilson(k, n)
    assert lo == pytest.approx(centre - half) and hi == pytest.approx(centre + half)
    assert wilson(0, 10)[0] == pytest.approx(0.0, abs=1e-12)
    assert wilson(0, 0) == (0.0, 1.0)


def _table(winners: list[int], **extra) -> pd.DataFrame:
    n = len(winners)
    base = {
        "game_index": range(n),
        "deal": range(n),
        "rotation": [0] * n,
        "seed": range(100, 100 + n),
        "player_0": ["a"] * n,
        "player_1": ["b"] * n,
        "winner": winners,
        "n_winners": [1 if w >= 0 else 0 for w in winners],
        "winner_player": ["a" if w == 0 else "b" if w == 1 else "" for w in winners],
        "reason": ["layout_empty"] * n,
        "turns": [10] * n,
        "decisions": [20] * n,
        "options": [60] * n,
        "multi_option_decisions": [10] * n,
    }
    base.update(extra)
    return pd.DataFrame(base)


def test_win_rates_by_seat_and_player():
    t = _table([0, 0, 0, 1, -1])
    seats = win_rates(t, by="seat").set_index("seat")
    assert seats.loc[0, "wins"] == 3 and seats.loc[0, "win_rate"] == pytest.approx(0.6)
    assert seats.loc[1, "wins"] == 1
    players = win_rates(t, by="player").set_index("player")
    assert players.loc["a", "games"] == 5 and players.loc["a", "wins"] == 3
    assert players.attrs["draw_rate"][0] == pytest.approx(0.2)
    with pytest.raises(ValueError, match="by must be"):
        win_rates(t, by="colour")


def test_game_metrics_on_a_hand_made_table():
    t = _table([0, 0, 0, 1, -1], reason=["layout_empty"] * 4 + ["turn_limit"])
    m = game_metrics(t).iloc[0]
    assert m["win_rate_0"] == pytest.approx(0.6) and m["win_rate_1"] == pytest.approx(0.2)
    assert m["seat_advantage"] == pytest.approx(0.6 - 0.4)
    assert m["balance"] == pytest.approx(1 - 0.4)
    assert m["completion_rate"] == pytest.approx(0.8)
    assert m["draw_rate"] == pytest.approx(0.2)
    assert m["branching_factor"] == pytest.approx(3.0)
    assert m["multi_option_share"] == pytest.approx(0.5)
    assert m["lo_0"] < 0.6 < m["hi_0"]
    grouped = game_metrics(t.assign(setup=["x", "x", "y", "y", "y"]), by="setup")
    assert list(grouped["setup"]) == ["x", "y"]
    assert list(grouped["games"]) == [2, 3]


def test_paired_difference_on_common_seeds():
    a = _table([0, 0, 0, 0, 1, 1])
    b = _table([0, 1, 1, 1, 1, 1])
    d = paired_difference(a, b, lambda t: t["winner"] == 0)
    assert d["diff"] == pytest.approx(3 / 6) and d["n"] == 6
    assert d["lo"] < d["diff"] < d["hi"]
    assert d["mean_a"] == pytest.approx(4 / 6) and d["mean_b"] == pytest.approx(1 / 6)
    shifted = b.assign(seed=b["seed"] + 1)
    with pytest.raises(ValueError, match="different seeds"):
        paired_difference(a, shifted, "winner")


def test_paired_difference_of_two_real_variants():
    a = simulate(GARNER.config("A"), ["greedy", "random"], 40, 3, workers=1, progress=False)
    b = simulate(
        GARNER.config("A", must_move="all"), ["greedy", "random"], 40, 3, workers=1, progress=False
    )
    d = paired_difference(a, b, "turns")
    assert d["n"] == 40
    assert d["diff"] == pytest.approx(a["turns"].mean() - b["turns"].mean())


def test_games_needed_matches_the_normal_approximation():
    n = games_needed(0.02)
    z = 1.959963984540054 + 0.8416212335729143
    approx = (z / (2 * math.asin(math.sqrt(0.52)) - 2 * math.asin(math.sqrt(0.5)))) ** 2
    assert n == math.ceil(approx)
    assert games_needed(0.05) < n
    with pytest.raises(ValueError, match="non-zero"):
        games_needed(0.0)


def test_by_seat_rate_and_mean_tables():
    from gamelib.stats import by_seat, mean_table, rate_table

    t = _table([0, 1, 0, -1]).assign(
        score_0=[3, 1, 4, 2], score_1=[1, 5, 2, 2], win_0=[1, 0, 1, 0.0], win_1=[0, 1, 0, 0.0]
    )
    long = by_seat(t, ["score", "win"])
    assert len(long) == 8 and set(long["seat"]) == {0, 1}
    assert long[long.seat == 0]["score"].tolist() == [3, 1, 4, 2]
    rates = rate_table(long, "seat", "win").set_index("seat")
    assert rates.loc[0, "rate"] == pytest.approx(0.5) and rates.loc[1, "rate"] == 0.25
    means = mean_table(long, "seat", "score").set_index("seat")
    assert means.loc[0, "mean"] == pytest.approx(2.5)
    assert means.loc[0, "lo"] < 2.5 < means.loc[0, "hi"]
    with pytest.raises(ValueError, match="no columns"):
        by_seat(t, ["zeros"])


def test_effect_recovers_a_known_slope():
    import numpy as np

    from gamelib.stats import effect

    x = pd.Series(range(200), dtype=float)
    noise = pd.Series(np.random.default_rng(0).normal(0, 0.5, 200))
    df = pd.DataFrame({"x": x % 4, "z": x % 7, "y": 3 * (x % 4) - (x % 7) + noise})
    e = effect(df, "y ~ x + z", "x").iloc[0]
    assert e["coef"] == pytest.approx(3, abs=0.05) and e["lo"] < 3 < e["hi"]


def test_paired_change_counts_changed_winners_on_common_deals():
    from gamelib.stats import paired_change

    a = _table([0, 1, 0, 1]).assign(mult=1)
    b = _table([0, 0, 0, 1]).assign(mult=2)
    c = _table([1, 0, 1, 0]).assign(mult=3)
    ch = paired_change(pd.concat([a, b, c]), "mult", 2).set_index("mult")
    assert ch.loc[1, "changed"] == 1 and ch.loc[3, "changed"] == 3
    assert ch.loc[1, "rate"] == pytest.approx(0.25)


def test_metrics_and_by_seat_handle_tables_of_several_player_counts():
    from gamelib.gargon import GARGON
    from gamelib.sim import sweep
    from gamelib.stats import by_seat

    t = sweep(GARGON, {"setup": ["3p", "5p"]}, ["random"], 30, 1, workers=1, progress=False)
    m = game_metrics(t, by="n_players").set_index("n_players")
    assert "win_rate_4" not in m.columns or m.loc[3, "win_rate_4"] != m.loc[3, "win_rate_4"]
    for n in (3, 5):
        g = t[t.n_players == n]
        rates = [(g.winner == s).mean() for s in range(n)]
        assert m.loc[n, "seat_advantage"] == pytest.approx(rates[0] - sum(rates) / n)
    long = by_seat(t, ["score"], keep=["n_players"])
    assert len(long) == 30 * 3 + 30 * 5
