"""gamelib.verdict.stored: a comparison packed from its --resume folder, split into its runs and
decided again without playing — the same rows as the comparison that played it."""

import numpy as np
import pandas as pd
import pytest

from gamelib.core import ConfigError, GamelibError
from gamelib.registry import get_game
from gamelib.sim import combine, load, simulate
from gamelib.verdict import Fair, decide
from gamelib.verdict.compare import Changes, Depends, Effect, compare
from gamelib.verdict.stored import (
    decide_comparison,
    main,
    pack,
    paired_runs,
    rule_recommendation,
    runs_of,
    sentence,
)

GARGON = get_game("gargon")
DTY = get_game("deck_the_yard")
LEVELS_3P = [
    ["random", "greedy:ignore", "greedy:ignore"],
    ["greedy", "greedy:ignore", "greedy:ignore"],
]
QUESTIONS = [Effect("level:*", 0.05), Changes(0.05), Depends("level:*", 0.05)]


def _compare(tmp_path=None, **kw):
    return compare(
        GARGON.config("3p", zero_multiplier=1),
        GARGON.config("3p"),
        LEVELS_3P,
        QUESTIONS,
        seed=7,
        max_games=3 * 300,
        progress=False,
        workers=1,
        resume=tmp_path,
        **kw,
    )


def test_a_packed_comparison_decides_again_as_the_command_did(tmp_path):
    played = _compare(tmp_path / "run")
    table = pack(tmp_path / "run", tmp_path / "packed.parquet", ["score_0", "zeros_0"])
    back = load(tmp_path / "packed.parquet")
    assert back.attrs["provenance"]["compare"]["levels"] == list(played["level"][[0, 2]])
    specs = [s for s, _ in runs_of(back)]
    assert [s["players"] for s in specs] == [p for p in LEVELS_3P for _ in (0, 1)]
    # each run keeps exactly the deals the comparison played, whatever unit asked for them
    assert all(s["n_games"] == t["deal"].max() + 1 for s, t in runs_of(back))
    assert {"score_0", "zeros_0", "win_2", "n_winners"} <= set(back.columns)
    assert "amulets_0" not in back.columns and len(back) == len(table)
    pairs = paired_runs(back, "zero_multiplier", 1, 2)
    assert list(pairs) == list(played["level"][[0, 2]])
    again = decide_comparison(pairs, QUESTIONS, change="zero_multiplier=2")
    pd.testing.assert_frame_equal(again, played)


def test_fixed_runs_decide_as_a_comparison_with_that_budget():
    # simulate's runs of the same line-ups and seed hold the same deals as compare's: deciding
    # on 300 stored deals is the comparison whose budget is 300 deals
    played = _compare()
    runs = [
        simulate(
            GARGON.config("3p", zero_multiplier=m),
            lu,
            300,
            7,
            rotate_seats=True,
            workers=1,
            progress=False,
        )
        for lu in LEVELS_3P
        for m in (1, 2)
    ]
    pairs = paired_runs(combine(runs), "zero_multiplier", 1, 2)
    again = decide_comparison(pairs, QUESTIONS, change="zero_multiplier=2")
    pd.testing.assert_frame_equal(again, played)
    # a smaller margin on the same deals: fewer decisions, each undecided one with its need
    tight = decide_comparison(pairs, [Effect("level:*", 0.005)], change="x")
    assert (tight["deals"] <= 300).all()
    undecided = tight[tight["decision"] == "undecided"]
    assert len(undecided) and (undecided["more_deals"].fillna(1) > 0).all()


def test_a_solitaire_comparison_on_sweep_runs():
    from gamelib.sim import sweep

    levels = ["greedy", "greedy:claim_characters"]
    qs = [Effect("win", 0.03), Depends("win", 0.03)]
    played = compare(
        DTY.config(None),
        DTY.config(None, events=0),
        levels,
        qs,
        seed=3,
        max_games=400,
        progress=False,
        workers=1,
    )
    table = sweep(DTY, {"events": [3, 0]}, [[p] for p in levels], 400, 3, workers=1, progress=False)
    again = decide_comparison(paired_runs(table, "events", 3, 0), qs, change="events=0")
    pd.testing.assert_frame_equal(again, played)


def test_a_verdict_folder_packs_for_decide(tmp_path):
    from gamelib.verdict import verdict

    cfg = GARGON.config("4p")
    played = verdict(
        cfg,
        ["greedy"],
        [Fair(0.05)],
        seed=5,
        max_games=2000,
        progress=False,
        workers=1,
        resume=tmp_path / "v",
    )
    table = pack(tmp_path / "v", tmp_path / "v.parquet")
    assert "verdict" in table.attrs["provenance"]
    row = decide([table], Fair(0.05), level="greedy")
    for k in ("decision", "estimate", "lo", "hi", "deals", "games"):
        assert row[k] == played.iloc[0][k], k


def test_pack_refuses_what_is_not_a_finished_run(tmp_path, capsys):
    with pytest.raises(GamelibError, match="not the --resume folder"):
        pack(tmp_path, tmp_path / "x.parquet")
    assert main([str(tmp_path), str(tmp_path / "x.parquet")]) == 2
    assert "gamelib: error:" in capsys.readouterr().err
    _compare(tmp_path / "run")
    with pytest.raises(ConfigError, match="no nonsense"):
        pack(tmp_path / "run", tmp_path / "x.parquet", ["nonsense"])
    assert main([str(tmp_path / "run"), str(tmp_path / "y.parquet")]) == 0
    assert "games in 4 runs" in capsys.readouterr().out


def test_paired_runs_refuses_runs_that_do_not_pair():
    one = simulate(GARGON.config("3p"), ["greedy"] * 3, 5, 1, workers=1, progress=False)
    other = simulate(
        GARGON.config("3p", zero_multiplier=1), ["greedy"] * 3, 5, 2, workers=1, progress=False
    )
    with pytest.raises(GamelibError, match="same deals"):
        paired_runs(combine([other, one]), "zero_multiplier", 1, 2)
    with pytest.raises(GamelibError, match="no variant run"):
        paired_runs(one, "zero_multiplier", 2, 3)
    with pytest.raises(GamelibError, match="no provenance"):
        runs_of(pd.DataFrame(one))


def _row(**kw):
    base = dict(
        level="L",
        question="effect",
        decision="holds",
        estimate=0.004,
        lo=-0.0003,
        hi=0.012,
        measure="change in L's share",
        claim="x moves it by less than ±0.03",
        deals=1200,
        games=7200,
        margin=0.03,
        alpha=0.05,
        beta=0.05,
        more_deals=0,
    )
    return {**base, **kw}


def test_sentence_says_the_decision_with_its_margin_error_rates_level_and_deals():
    s = sentence(_row())
    assert s.startswith("**no effect** at L")
    assert "+0.004 [0.000, +0.012]" in s  # a rounded zero carries no sign
    assert "α 0.05, β 0.05; 1,200 deals, 7,200 games" in s and "±0.03" in s
    u = sentence(_row(decision="undecided", more_deals=4152.0))
    assert "**undecided**" in u and "about 4,152 more deals would decide" in u
    m = sentence(_row(decision="undecided", more_deals=np.nan))
    assert "no number of deals would decide" in m
    f = sentence(_row(question="fair", decision="holds", estimate=0.26, lo=0.24, hi=0.27))
    assert f.startswith("**fair**") and "0.260 [0.240, 0.270]" in f
    d = sentence(_row(question="depends", decision="fails", estimate=0.2, lo=0.1, hi=0.3))
    assert d.startswith("**depends on the level**")
    # a study's row the time budget stopped short of the deals it asked for says where
    cut = sentence(_row(decision="undecided", more_deals=900.0, asked=np.int64(5000)))
    assert cut.endswith("— the time budget stopped it at 1,200 of the 5,000 deals asked for")
    assert "stopped" not in sentence(_row(asked=5000)) + sentence(_row(asked=1200))


def test_a_rule_is_kept_only_when_it_pays_and_dropped_only_when_it_does_not():
    keep = rule_recommendation(_row(decision="fails", estimate=0.05, lo=0.034), "×2")
    assert keep.startswith("**keep ×2**")
    assert rule_recommendation(_row(), "×2").startswith("**drop ×2**")
    worse = rule_recommendation(_row(decision="fails", estimate=-0.05), "×2")
    assert worse.startswith("**drop ×2**") and "costs" in worse
    open_ = rule_recommendation(_row(decision="undecided", more_deals=900.0), "×2")
    assert open_.startswith("**undecided**") and "900 more deals" in open_
    with pytest.raises(ConfigError, match="effect verdict"):
        rule_recommendation(_row(question="depends"), "×2")


def test_crossed_bounds_are_said_instead_of_a_deal_count():
    s = sentence(_row(question="fair", decision="undecided", estimate=0.307, lo=0.296, hi=0.294))
    assert "crossed" in s and "more deals" not in s


def test_several_decisions_in_one_finding_each_after_its_name():
    from gamelib.verdict.stored import sentences

    rows = pd.DataFrame([_row(at="heuristic"), _row(at="search", decision="fails", lo=0.04)])
    text = sentences(rows, "at", {"heuristic": "at the heuristic"})
    first = f"at the heuristic — {sentence(_row(at='heuristic'))}"
    # a value without a name says itself
    second = f"search — {sentence(_row(at='search', decision='fails', lo=0.04))}"
    assert text == f"{first}; {second}" and second.startswith("search — **an effect**")
    assert sentences(rows.iloc[:0], "at") == ""


def test_paired_runs_picks_runs_of_a_sweep_over_other_rules():
    from gamelib.sim import sweep

    table = sweep(
        GARGON,
        {"setup": ["3p", "4p"], "zero_multiplier": [1, 2]},
        ["random"],
        4,
        1,
        workers=1,
        progress=False,
    )
    with pytest.raises(GamelibError, match="pick one"):
        paired_runs(table, "zero_multiplier", 1, 2)
    pairs = paired_runs(table, "zero_multiplier", 1, 2, where={"n_players": 4})
    base, variant = pairs["random"]
    assert len(base) == len(variant) == 4 and "player_3" in base and "win_3" in variant
    three = paired_runs(table, "zero_multiplier", 1, 2, where={"n_players": 3})["random"][0]
    assert "player_3" not in three and "win_3" not in three  # not a seat of a 3-player game
    with pytest.raises(ConfigError, match="no rule"):
        paired_runs(table, "zero_multiplier", 1, 2, where={"nonsense": 1})


def test_verdict_list_says_each_rows_answer_estimate_and_deals_and_groups_them():
    from gamelib.stats import interval_text
    from gamelib.verdict.stored import verdict_list

    rows = pd.DataFrame(
        [
            _row(level="a", question="fair", decision="holds", measure="seat 0 wins"),
            _row(level="b", question="fair", decision="fails", measure="seat 0 wins"),
            _row(
                level="c",
                question="fair",
                decision="undecided",
                measure="seat 0 wins",
                more_deals=4152.0,
            ),
            _row(level="d", question="fair", decision="undecided", more_deals=0.4),
            _row(
                level="e",
                question="fair",
                decision="undecided",
                more_deals=None,
                deals=300,
                asked=1000,
            ),
        ]
    )
    text = verdict_list(rows)
    clauses = text.split(". In all: ")[0].split("); ")
    assert [c.split("`")[1] for c in clauses] == list(rows.level)
    est = interval_text(0.004, -0.0003, 0.012)
    assert clauses[0] == f"`a` **fair** (seat 0 wins {est}"
    assert clauses[1].startswith("`b` **not fair** (") and "more deals" not in clauses[1]
    assert clauses[2].endswith("about 4,152 more deals would decide")
    assert "a few more deals would decide" in clauses[3]
    assert "on the margin" in clauses[4] and "stopped it at 300 of 1,000 deals" in clauses[4]
    assert "stopped" not in "".join(clauses[:4])  # no asked column value: never a budget stop
    assert text.endswith("In all: fair at `a`; not fair at `b`; undecided at `c`, `d`, `e`.")
    skill = verdict_list(pd.DataFrame([_row(level="s v w", question="skill", decision="holds")]))
    assert skill.startswith("`s v w` **skill shows**") and verdict_list(rows.iloc[0:0]) == ""
