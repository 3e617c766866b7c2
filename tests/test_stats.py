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


# --- issue 9: screening, clustered intervals, sample sizes, rendered findings -----------------


def test_interval_text_and_findings_render_the_numbers_given():
    from gamelib.stats import findings, interval_text

    assert interval_text(0.39333, 0.34, 0.45) == "0.393 [0.340, 0.450]"
    assert interval_text(0.5, 0.25, 0.75, digits=2) == "0.50 [0.25, 0.75]"
    md = findings(["a is 0.393", "b"], title="Answers")
    assert md.data == "**Answers**\n\n- a is 0.393\n- b"


def test_adjust_pvalues_matches_hand_computed_holm_and_bh():
    from gamelib.stats import adjust_pvalues

    t = pd.DataFrame({"rule": list("abcd"), "p_value": [0.01, 0.04, 0.03, 0.005]})
    holm = adjust_pvalues(t, method="holm", alpha=0.05).set_index("rule")
    # Holm by hand: sorted p 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1, kept monotone
    assert holm["p_adjusted"].to_dict() == pytest.approx(
        {"d": 0.02, "a": 0.03, "c": 0.06, "b": 0.06}
    )
    assert holm["reject"].to_dict() == {"a": True, "b": False, "c": False, "d": True}
    assert "Holm" in holm.attrs["procedure"]
    bh = adjust_pvalues(t, method="fdr_bh").set_index("rule")
    # Benjamini–Hochberg by hand: p * 4 / rank, made monotone from the top: all 0.04
    assert bh["p_adjusted"].to_dict() == pytest.approx({"a": 0.02, "b": 0.04, "c": 0.04, "d": 0.02})
    assert bh["reject"].all()
    with pytest.raises(ValueError, match="method must be"):
        adjust_pvalues(t, method="bonferonni")
    with pytest.raises(ValueError, match="not p-values"):
        adjust_pvalues(t.assign(p_value=[0.1, 2.0, 0.3, 0.4]))
    with pytest.raises(ValueError, match="no p-value column"):
        adjust_pvalues(t, p="p")


def test_seat_screen_counts_decided_games_and_tests_against_a_fair_share():
    from scipy.stats import binomtest

    from gamelib.stats import seat_screen

    winners = [0] * 14 + [1] * 4 + [-1] * 2 + [0, 1, 0, 1]
    t = _table(winners).assign(rule=["x"] * 20 + ["y"] * 4)
    t.loc[18, "reason"] = "turn_limit"
    s = seat_screen(t, "rule").set_index("rule")
    assert s.loc["x", "decided"] == 18 and s.loc["x", "wins"] == 14
    assert s.loc["x", "share"] == pytest.approx(14 / 18)
    assert s.loc["x", "p_value"] == pytest.approx(binomtest(14, 18, 0.5).pvalue)
    assert s.loc["x", "lo"] > 0.5  # 14 of 18 is a detectable edge
    assert s.loc["x", "draw_rate"] == pytest.approx(0.1)
    assert s.loc["x", "stall_rate"] == pytest.approx(0.05)
    assert s.loc["y", "share"] == 0.5 and s.loc["y", "p_value"] == pytest.approx(1.0)
    assert s.attrs["null"] == 0.5
    with pytest.raises(ValueError, match="no seat 3"):
        seat_screen(t, "rule", seat=3)


def test_games_for_half_width_is_the_smallest_sufficient_n():
    from gamelib.stats import games_for_half_width, wilson, wilson_half_width

    n = games_for_half_width(0.02)
    assert wilson_half_width(n) <= 0.02 < wilson_half_width(n - 1)
    lo, hi = wilson(n // 2, n) if n % 2 == 0 else wilson(n // 2, n - 1)
    assert 2395 < n < 2405  # z² / (4 · 0.02²) ≈ 2401 under the normal approximation
    assert (hi - lo) / 2 == pytest.approx(0.02, abs=2e-4)
    assert games_for_half_width(0.05) < n
    assert games_for_half_width(0.02, p=0.1) < n  # a rate far from 1/2 is measured faster
    with pytest.raises(ValueError, match="half_width"):
        games_for_half_width(0.0)


def test_clustered_rate_equals_the_hand_formula_and_widens_for_correlated_deals():
    from gamelib.stats import clustered_rate

    # independent games (one per deal): se² = C/(C-1) · Σ(y - p)² / n², and the Wilson
    # interval is taken at the effective n = p(1 - p) / se² (here 9: one game's worth lost to
    # the small-sample factor)
    y = [1, 0, 1, 1, 0, 1, 1, 0, 1, 1]
    t = _table([0] * 10).assign(ok=y)
    r = clustered_rate(t, "ok").iloc[0]
    p, z = 0.7, 1.959963984540054
    se = math.sqrt(10 / 9 * sum((v - p) ** 2 for v in y)) / 10
    assert r["rate"] == pytest.approx(p) and r["clusters"] == 10
    assert r["se"] == pytest.approx(se) and r["effective_games"] == pytest.approx(9)
    n = 9
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert r["lo"] == pytest.approx(centre - half) and r["hi"] == pytest.approx(centre + half)
    assert (r["naive_lo"], r["naive_hi"]) == pytest.approx(wilson(7, 10))
    # every game won: still an interval of positive width (Wilson at all the games)
    allwon = clustered_rate(t.assign(ok=1), "ok").iloc[0]
    assert allwon["hi"] == pytest.approx(1.0) and allwon["lo"] == pytest.approx(wilson(10, 10)[0])
    # the same outcomes, each deal played twice with an identical result: twice the games but
    # no more information, so the clustered interval keeps its width while the naive one shrinks
    twice = pd.concat([t, t], ignore_index=True)
    c = clustered_rate(twice, "ok").iloc[0]
    assert c["games"] == 20 and c["clusters"] == 10
    assert c["hi"] - c["lo"] == pytest.approx(r["hi"] - r["lo"])
    assert c["hi"] - c["lo"] > 1.3 * (c["naive_hi"] - c["naive_lo"])
    # grouped, and with a weight that says which rows count
    g = clustered_rate(twice.assign(half=[0] * 10 + [1] * 10), "ok", by="half")
    assert list(g["rate"]) == pytest.approx([0.7, 0.7])
    w = clustered_rate(t, "ok", weight=pd.Series([1] * 5 + [0] * 5)).iloc[0]
    assert w["games"] == 5 and w["rate"] == pytest.approx(0.6)
    with pytest.raises(ValueError, match="cluster column"):
        clustered_rate(t, "ok", cluster="shuffle")


def test_player_win_rates_cluster_rotations_and_know_each_players_fair_share():
    from gamelib.stats import player_win_rates

    # 3 seats, "r" holds two of them; 4 deals × 3 rotations; the winner is decided by the deal
    rows = []
    for deal in range(4):
        for rot in range(3):
            seats = ["g", "r", "r"][rot:] + ["g", "r", "r"][:rot]
            winner = "g" if deal < 3 else "r"
            rows.append(
                {"deal": deal, "rotation": rot, "player_0": seats[0], "player_1": seats[1],
                 "player_2": seats[2], "winner_player": winner}
            )  # fmt: skip
    t = pd.DataFrame(rows)
    r = player_win_rates(t).set_index("player")
    assert r.loc["g", "rate"] == pytest.approx(0.75) and r.loc["g", "games"] == 12
    assert r.loc["g", "clusters"] == 4
    assert r.loc["g", "fair_share"] == pytest.approx(1 / 3)
    assert r.loc["r", "fair_share"] == pytest.approx(2 / 3)
    assert r.loc["r", "rate"] == pytest.approx(0.25)
    # whole deals move together: the clustered interval is wider than the naive one
    assert r.loc["g", "hi"] - r.loc["g", "lo"] > r.loc["g", "naive_hi"] - r.loc["g", "naive_lo"]


def test_player_gap_pairs_the_players_within_each_deal():
    from gamelib.stats import player_gap

    rows = []
    for deal in range(6):
        for rot in range(2):
            winner = "a" if (deal < 4 or rot == 0) else "b"
            p0, p1 = ("a", "b") if rot == 0 else ("b", "a")
            rows.append({"deal": deal, "player_0": p0, "player_1": p1, "winner_player": winner})
    d = player_gap(pd.DataFrame(rows), "a", "b")
    # per deal: 1 for the four deals a wins twice, 0 for the two it splits
    assert d["diff"] == pytest.approx(4 / 6) and d["deals"] == 6
    sd = math.sqrt(sum((v - 4 / 6) ** 2 for v in [1, 1, 1, 1, 0, 0]) / 5)
    from scipy import stats as st

    half = st.t.ppf(0.975, 5) * sd / math.sqrt(6)
    assert d["lo"] == pytest.approx(4 / 6 - half) and d["hi"] == pytest.approx(4 / 6 + half)
    with pytest.raises(ValueError, match="no player"):
        player_gap(pd.DataFrame(rows), "a", "c")


def test_capped_labels_the_open_ended_bin():
    from gamelib.stats import capped

    c = capped(pd.Series([0, 1, 2, 3, 7]), 3)
    assert list(c.astype(str)) == ["0", "1", "2", "3+", "3+"]
    assert list(c.cat.categories) == ["0", "1", "2", "3+"] and c.cat.ordered
    with pytest.raises(ValueError, match="negative"):
        capped(pd.Series([-1]), 3)


def test_rank_correlation_interval_follows_fisher_z():
    from gamelib.stats import rank_correlation

    x = [1, 2, 3, 4, 5, 6, 7, 8]
    y = [2, 1, 4, 3, 6, 5, 8, 7]
    r = rank_correlation(x, y)
    rho = 1 - 6 * 8 / (8 * 63)  # eight adjacent swaps: Σd² = 8
    se = math.sqrt((1 + rho**2 / 2) / 5)
    assert r["rho"] == pytest.approx(rho)
    assert r["lo"] == pytest.approx(math.tanh(math.atanh(rho) - 1.959963984540054 * se))
    assert r["hi"] == pytest.approx(math.tanh(math.atanh(rho) + 1.959963984540054 * se))
    assert r["lo"] < rho < r["hi"] < 1
    with pytest.raises(ValueError, match="at least 4"):
        rank_correlation([1, 2, 3], [1, 2, 3])
