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
    # nothing to compare with the baseline: no rows, the same columns (a table a caller can still
    # label, chart and say in words)
    assert list(ch.columns) == ["n", "changed", "rate", "lo", "hi"]
    alone = paired_change(b, "mult", 2, by="rotation")
    assert alone.empty and list(alone.columns) == ["mult", "rotation", *ch.columns]


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


# --- issue 9 (notebooks 02/03) helpers ---------------------------------------------------------


def test_rates_against_reference_adjusts_with_the_stated_procedure():
    from statsmodels.stats.multitest import multipletests

    from gamelib.stats import rates_against_reference

    rates = pd.DataFrame({"seat": [0, 1, 2], "n": [1000] * 3, "rate": [0.30, 0.34, 0.36]})
    out = rates_against_reference(rates, 1 / 3, method="holm")
    z = (0.30 - 1 / 3) / math.sqrt(1 / 3 * 2 / 3 / 1000)
    assert out.loc[0, "p_value"] == pytest.approx(2 * (1 - 0.5 * (1 + math.erf(abs(z) / 2**0.5))))
    want = multipletests(out["p_value"], method="holm")[1]
    assert list(out["p_adjusted"]) == pytest.approx(list(want))
    assert out.loc[0, "p_value"] < 0.05 and not out["differs"].any()  # Holm keeps it
    assert out.attrs["procedure"] == {"method": "holm", "alpha": 0.05, "tests": 3}
    far = rates.assign(rate=[0.2, 0.34, 0.46], fair=1 / 3)
    bh = rates_against_reference(far, "fair", method="fdr_bh")
    assert list(bh["differs"]) == [True, False, True]
    with pytest.raises(ValueError, match="strictly between"):
        rates_against_reference(rates, 1.0)


def test_clustered_mean_table_counts_deals_not_games():
    from gamelib.stats import clustered_mean_table, mean_table

    # two rows per deal, identical within a deal: the naive interval is too narrow
    v = pd.DataFrame({"deal": [0, 0, 1, 1, 2, 2, 3, 3], "x": [1, 1, 0, 0, 1, 1, 0, 0], "g": "a"})
    c = clustered_mean_table(v, "g", "x").iloc[0]
    naive = mean_table(v, "g", "x").iloc[0]
    assert c["mean"] == pytest.approx(0.5) and c["clusters"] == 4 and c["n"] == 8
    assert c["hi"] - c["lo"] > naive["hi"] - naive["lo"]
    per_deal = mean_table(v.groupby("deal", as_index=False)["x"].mean().assign(g="a"), "g", "x")
    assert c["lo"] == pytest.approx(per_deal.loc[0, "lo"])  # equal cluster sizes: deal means
    assert c["hi"] == pytest.approx(per_deal.loc[0, "hi"])


def test_paired_effects_is_the_paired_difference_per_group():
    from gamelib.stats import paired_effects

    a = _table([0, 0, 0, 0, 1, 1]).assign(events=3, won=[1, 1, 1, 1, 0, 0])
    b = _table([0, 1, 1, 1, 1, 1]).assign(events=0, won=[1, 0, 0, 0, 0, 0])
    both = pd.concat([a, b], ignore_index=True)
    out = paired_effects(both, "events", 3, ["won", "turns"])
    won = out[out.metric == "won"].iloc[0]
    assert won["events"] == 0 and won["diff"] == pytest.approx(-3 / 6) and won["n"] == 6
    direct = paired_difference(b, a, "won")
    assert (won["lo"], won["hi"]) == pytest.approx((direct["lo"], direct["hi"]))
    assert out[out.metric == "turns"].iloc[0]["diff"] == 0
    two = paired_effects(both.assign(who=["p", "q"] * 6), "events", 3, ["won"], by="who")
    assert list(two["who"]) == ["p", "q"] and list(two["n"]) == [3, 3]
    with pytest.raises(ValueError, match="events=5"):
        paired_effects(both, "events", 5, ["won"])


def test_share_at_least_and_top_coded_bins():
    from gamelib.stats import share_at_least, top_coded

    v = pd.DataFrame({"claimed": [5, 6, 7, 8, 9, 10]})
    s = share_at_least(v, "claimed", [6, 8, 11]).set_index("threshold")
    assert list(s["rate"]) == pytest.approx([5 / 6, 3 / 6, 0.0])
    assert s.loc[8, "lo"] < 0.5 < s.loc[8, "hi"]
    coded = top_coded(pd.Series([0, 1, 2, 3, 4, 7]), 3)
    assert list(coded.astype(str)) == ["0", "1", "2", "3+", "3+", "3+"]
    assert list(coded.cat.categories) == ["0", "1", "2", "3+"]
    with pytest.raises(ValueError, match="non-negative"):
        top_coded(pd.Series([-1, 2]), 3)


def test_victory_margins_and_what_decided_the_game():
    from gamelib.stats import victory_margins

    t = pd.DataFrame(
        {
            "game_index": [0, 1, 2],
            "deal": [0, 1, 2],
            "player_0": ["r"] * 3,
            "player_1": ["r"] * 3,
            "player_2": ["r", "r", None],
            "score_0": [20.0, 15.0, 9.0],
            "score_1": [12.0, 14.0, 9.0],
            "score_2": [30.0, 3.0, 99.0],  # game 2 had no seat 2
            "bonus_0": [0.0, 10.0, 0.0],
            "bonus_1": [0.0, 0.0, 5.0],
            "bonus_2": [15.0, 0.0, math.nan],
        }
    )
    m = victory_margins(t, component="bonus")
    assert list(m["margin"]) == [10.0, 1.0, 0.0]
    # game 0: seat 2 wins 30-20, without the bonus 15 < 20: the bonus decided it
    # game 1: seat 0 wins 15-14, without the bonus 5 < 14: decided; game 2: a shared win,
    # without the bonus seat 0 alone is on top, seat 1 is not
    assert list(m["won_without"]) == [False, False, False]
    solo = t.assign(score_1=[12.0, 14.0, 8.0])  # game 2: seat 0 alone, amulets suffice
    assert list(victory_margins(solo, component="bonus")["won_without"]) == [False, False, True]
    m2 = victory_margins(
        t.assign(bonus_2=[5.0, 0.0, 0.0], bonus_0=0.0, bonus_1=0.0), "score", "bonus"
    )
    assert list(m2["won_without"]) == [True, True, True]


def test_interval_words_follow_the_interval():
    from gamelib.stats import change_text, direction, findings, interval_text

    assert interval_text(0.0872, 0.078, 0.0981) == "0.087 [0.078, 0.098]"
    assert interval_text(0.0872, 0.078, 0.0981, pct=True) == "8.7% [7.8%, 9.8%]"
    assert direction(0.01, 0.2, "up", "down", "flat") == "up"
    assert direction(-0.2, -0.01, "up", "down", "flat") == "down"
    assert direction(-0.2, 0.01, "up", "down", "flat") == "flat"
    assert direction(0.3, 0.4, "above", "below", "at", at=0.25) == "above"
    assert findings(["a", "b"], "T").data == "**T**\n\n- a\n- b"
    row = {"mean_a": 0.258, "mean_b": 0.09, "diff": 0.168, "lo": 0.15, "hi": 0.186}
    assert change_text(row) == "0.090 → 0.258 (+0.168 [+0.150, +0.186])"
    assert change_text(row, pct=True) == "9.0% → 25.8% (+16.8% [+15.0%, +18.6%])"


def test_clustered_effect_widens_the_interval_for_duplicated_rows():
    import numpy as np

    from gamelib.stats import effect

    rng = np.random.default_rng(3)
    x = rng.normal(size=200)
    y = 2 * x + rng.normal(size=200)
    once = pd.DataFrame({"x": x, "y": y, "deal": range(200)})
    twice = pd.concat([once, once], ignore_index=True)  # every deal counted twice
    naive = effect(twice, "y ~ x", "x").iloc[0]
    c = effect(twice, "y ~ x", "x", cluster="deal").iloc[0]
    assert c["coef"] == pytest.approx(naive["coef"]) and c["clusters"] == 200
    assert c["hi"] - c["lo"] > 1.2 * (naive["hi"] - naive["lo"])
    assert c["lo"] < 2 < c["hi"]


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


def test_top_coded_labels_the_open_ended_bin():
    from gamelib.stats import top_coded

    c = top_coded(pd.Series([0, 1, 2, 3, 7]), 3)
    assert list(c.astype(str)) == ["0", "1", "2", "3+", "3+"]
    assert list(c.cat.categories) == ["0", "1", "2", "3+"] and c.cat.ordered
    with pytest.raises(ValueError, match="negative"):
        top_coded(pd.Series([-1]), 3)
    with pytest.raises(ValueError, match="at least 1"):
        top_coded(pd.Series([1]), 0)


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


# --- issue 22: no negative zero; the share a rule costs, with Fieller's interval -------------


def test_a_rounded_zero_prints_without_a_sign():
    from gamelib.stats import change_text, interval_text, number_text

    assert number_text(-0.0003) == "0.000"
    assert number_text(-0.0003, signed=True) == "0.000"
    assert number_text(0.0004, signed=True) == "0.000"
    assert number_text(-0.0006, signed=True) == "-0.001"
    assert number_text(0.0006, signed=True) == "+0.001"
    assert number_text(-0.00004, pct=True) == "0.0%"
    assert number_text(-0.2, digits=2) == "-0.20"
    assert interval_text(-0.006, -0.013, -0.0003) == "-0.006 [-0.013, 0.000]"
    assert interval_text(0.0, -0.0, 0.0, pct=True) == "0.0% [0.0%, 0.0%]"
    row = {"mean_a": 0.981, "mean_b": 0.988, "diff": -0.0064, "lo": -0.0128, "hi": -0.0002}
    assert change_text(row) == "0.988 → 0.981 (-0.006 [-0.013, 0.000])"
    assert "-0.0" not in change_text({**row, "diff": -0.0, "lo": -0.0, "hi": 0.0})


def test_paired_ratio_covers_the_true_ratio_as_often_as_its_level_says():
    import numpy as np

    from gamelib.stats import paired_ratio, share_lost

    rng = np.random.default_rng(22)
    # a win without the rule (rate 0.3) survives the rule half the time: the ratio is 0.5 and
    # the two are strongly correlated, so an interval that ignored the covariance would cover
    # far more often than 95% (and one with the wrong sign of it far less)
    covered, reps = 0, 2000
    for _ in range(reps):
        without = rng.random(400) < 0.3
        with_rule = without & (rng.random(400) < 0.5)
        r = paired_ratio(with_rule, without)
        covered += r["lo"] < 0.5 < r["hi"]
    assert 0.93 < covered / reps < 0.97, covered / reps
    lost = share_lost(with_rule, without)
    assert lost["share"] == pytest.approx(1 - with_rule.mean() / without.mean())
    assert lost["lo"] == pytest.approx(1 - r["hi"]) and lost["hi"] == pytest.approx(1 - r["lo"])
    assert lost["with"] == pytest.approx(with_rule.mean()) and lost["n"] == 400


def test_paired_ratio_is_exact_without_noise_and_unbounded_over_a_zero_denominator():
    import numpy as np

    from gamelib.stats import paired_ratio

    y = np.array([1.0, 2.0, 3.0, 4.0])
    r = paired_ratio(0.25 * y, y)  # x is exactly a quarter of y on every deal
    assert r["ratio"] == pytest.approx(0.25)
    assert r["lo"] == pytest.approx(0.25) and r["hi"] == pytest.approx(0.25)
    flat = paired_ratio([1.0, 0.0, 1.0, 0.0], [1.0, -1.0, 1.0, -1.0])  # y's mean is 0
    assert flat["lo"] == -np.inf and flat["hi"] == np.inf
    with pytest.raises(ValueError, match="same deals"):
        paired_ratio([1.0, 2.0], [1.0])
