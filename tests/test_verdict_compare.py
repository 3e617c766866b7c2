"""gamelib.verdict.compare: a rule change decided by intervention (the same deals under both
rules), on real games and on synthetic tables where the truth is known."""

import json

import numpy as np
import pandas as pd
import pytest

from gamelib.cli import main
from gamelib.core import ConfigError
from gamelib.registry import get_game
from gamelib.verdict import Fair
from gamelib.verdict.compare import (
    Changes,
    Depends,
    Effect,
    Measure,
    compare,
    format_comparison,
    meaning,
)
from gamelib.verdict.run import decide


def dty(**changes):
    return get_game("deck_the_yard").config(None, **changes)


def gargon(**changes):
    return get_game("gargon").config("4p", **changes)


def test_a_clear_effect_fails_with_its_sign():
    # a lower target makes the same games easier to win: a decided rise in the win rate
    t = compare(
        dty(),
        dty(win_threshold=3),
        ["greedy:claim_characters"],
        [Effect("win", 0.03)],
        seed=4,
        max_games=4000,
        progress=False,
        workers=1,
    )
    r = t.iloc[0]
    assert r["decision"] == "fails"
    assert r["lo"] > 0.03 and r["estimate"] > 0.03
    assert r["band_lo"] == -0.03 and r["band_hi"] == 0.03
    assert meaning("effect", r["decision"]) == "an effect"
    assert t.attrs["compare"]["change"] == "win_threshold=3"
    assert "win_threshold=3" in r["claim"]


def test_a_change_random_play_ignores_has_no_effect_on_a_seat_but_changes_winners():
    # random players never look at the scoring rule: the same deals are played the same way,
    # so seat 0's share does not move beyond the margin, while the winner often changes
    t = compare(
        gargon(),
        gargon(zero_multiplier=1),
        ["random"],
        [Effect("seat:0", 0.05), Changes(0.05)],
        seed=3,
        max_games=2000,
        progress=False,
        workers=1,
    )
    eff, chg = t.iloc[0], t.iloc[1]
    assert eff["decision"] == "holds", format_comparison(t)
    assert -0.05 < eff["lo"] <= eff["estimate"] <= eff["hi"] < 0.05
    assert chg["decision"] == "fails" and chg["lo"] > 0.05


def _table(values, player, deal_offset=0):
    """A one-seat run table with the given win per deal."""
    n = len(values)
    return pd.DataFrame(
        {
            "deal": np.arange(n) + deal_offset,
            "rotation": np.zeros(n, dtype=int),
            "player_0": [player] * n,
            "win_0": np.asarray(values, dtype=int),
            "winner": np.where(np.asarray(values) == 1, 0, -1),
            "n_winners": np.asarray(values, dtype=int),
            "reason": ["natural"] * n,
        }
    )


def test_depends_decides_both_ways_on_synthetic_tables():
    rng = np.random.default_rng(5)
    n = 3000
    base = rng.random(n) < 0.3
    weak_b, weak_v = _table(base, "weak"), _table(base | (rng.random(n) < 0.2), "weak")
    strong_same = _table(base | (rng.random(n) < 0.2), "strong")
    strong_more = _table(base | (rng.random(n) < 0.6), "strong")
    strong_b = _table(base, "strong")
    ctx = dict(level="strong / weak", stronger="strong", weaker="weak")
    q = Depends("win", 0.05)
    from gamelib.verdict.compare import _Bound

    same = decide(
        [weak_b, weak_v, strong_b, strong_same],
        _Bound(q, {"change": "x", **ctx}),
        **{"level": ctx["level"]},
    )
    more = decide(
        [weak_b, weak_v, strong_b, strong_more],
        _Bound(q, {"change": "x", **ctx}),
        **{"level": ctx["level"]},
    )
    assert same["decision"] == "holds", same
    assert more["decision"] == "fails" and more["lo"] > 0.05, more
    assert "strong" in more["measure"] and "weak" in more["measure"]


def test_depends_and_level_measures_on_real_games():
    # greedy:claim_characters against greedy:never on the same shuffles with and without the
    # event cards: each level's effect, then whether the two differ
    t = compare(
        dty(),
        dty(events=0),
        ["greedy:never", "greedy:claim_characters"],
        [Effect("win", 0.03), Depends("win", 0.03)],
        seed=6,
        max_games=1200,
        progress=False,
        workers=1,
    )
    assert list(t["question"]) == ["effect", "effect", "depends"]
    assert t.iloc[2]["level"] == "greedy:claim_characters / greedy:never"
    assert set(t["decision"]) <= {"holds", "fails", "undecided"}
    # the depends row's estimate is the difference of the two levels' effects on common deals
    tables = {}
    t2 = compare(
        dty(),
        dty(events=0),
        ["greedy:never", "greedy:claim_characters"],
        [Effect("win", 0.03), Depends("win", 0.03)],
        seed=6,
        max_games=1200,
        progress=False,
        workers=1,
        tables=tables,
    )
    pd.testing.assert_frame_equal(t, t2)
    wb, wv, sb, sv = tables[t.iloc[2]["level"]]
    deals = t.iloc[2]["deals"]
    eff = lambda b, v: v.win_0[v.deal < deals].mean() - b.win_0[b.deal < deals].mean()  # noqa: E731
    assert t.iloc[2]["estimate"] == pytest.approx(eff(sb, sv) - eff(wb, wv))


def test_one_level_against_copies_of_another_is_rotated_and_measured_by_level():
    lineup = ["greedy", "greedy:ignore", "greedy:ignore", "greedy:ignore"]
    tables = {}
    t = compare(
        gargon(),
        gargon(zero_multiplier=1),
        [lineup],
        [Effect("level:*", 0.1)],
        seed=2,
        max_games=400,
        progress=False,
        workers=1,
        tables=tables,
    )
    r = t.iloc[0]
    assert r["level"] == "greedy v greedy:ignore ×3"
    assert r["measure"] == "change in greedy's share of the points"
    base, _ = tables[r["level"]]
    assert sorted(base.rotation.unique()) == [0, 1, 2, 3]  # every seat of every deal


def test_same_comparison_on_one_worker_and_two():
    args = (dty(), dty(broken=0), ["greedy:claim_characters"], [Effect("win", 0.02)])
    a = compare(*args, seed=8, max_games=3000, progress=False, workers=1)
    b = compare(*args, seed=8, max_games=3000, progress=False, workers=2)
    pd.testing.assert_frame_equal(a, b)


def test_a_resumed_comparison_reaches_the_same_decision(tmp_path):
    args = (dty(), dty(events=0), ["greedy"], [Effect("win", 0.03)])
    first = compare(*args, seed=9, max_games=600, progress=False, workers=1, resume=tmp_path)
    assert (tmp_path / "compare.json").exists() and any(tmp_path.glob("run-*"))
    again = compare(*args, seed=9, max_games=600, progress=False, workers=1, resume=tmp_path)
    pd.testing.assert_frame_equal(first, again)
    with pytest.raises(ConfigError, match="another comparison"):
        compare(*args, seed=10, max_games=600, progress=False, workers=1, resume=tmp_path)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: compare(dty(), dty(), ["greedy"], [Effect()]), "no change"),
        (lambda: compare(dty(), gargon(), ["random"], [Effect()]), "same game"),
        (lambda: compare(dty(), dty(plugs=1), ["greedy"], [Fair()]), "verdict question"),
        (lambda: compare(dty(), dty(plugs=1), ["greedy"], [Depends()]), "two levels"),
        (lambda: compare(dty(), dty(plugs=1), ["nobody"], [Effect()]), "nobody"),
        (
            lambda: compare(
                gargon(), gargon(zero_multiplier=1), [["random", "greedy"]], [Effect()]
            ),
            "4 seats",
        ),
        (
            lambda: compare(
                gargon(),
                gargon(zero_multiplier=1),
                ["random"],
                [Effect("level:random")],
                max_games=50,
                progress=False,
                workers=1,
            ),
            "holds every seat",
        ),
        (lambda: compare(dty(), dty(plugs=1), ["greedy"], []), "no question"),
        (lambda: compare(dty(), dty(plugs=1), ["greedy"], [Effect()], alpha=0.7), "alpha"),
    ],
)
def test_bad_comparisons_are_refused(call, message):
    with pytest.raises(ConfigError, match=message):
        call()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("foo", "unknown measure"),
        ("seat:x", "seat number"),
        ("level", "needs an argument"),
        ("column:turns:9", "NAME:LO:HI"),
        ("column:turns:9:1", "LO < HI"),
    ],
)
def test_bad_measures_are_refused(text, message):
    with pytest.raises(ValueError, match=message):
        Measure.parse(text)


def test_measures_read_the_table():
    t = _table([1, 0, 1, 1], "p")
    t["turns"] = [10, 20, 30, 40]
    assert list(Measure.parse("win").values(t)) == [1, 0, 1, 1]
    assert list(Measure.parse("column:turns:10:50").values(t)) == [0, 0.25, 0.5, 0.75]
    assert str(Measure.parse("level:mcts:200")) == "level:mcts:200"
    assert Measure.parse("level:mcts:200").arg == "mcts:200"


def test_compare_cli_prints_the_decisions_and_writes_json(tmp_path, capsys):
    out = tmp_path / "c.json"
    status = main(
        [
            "compare",
            "deck_the_yard",
            "--variant",
            "win-threshold=3",
            "--players",
            "greedy:claim_characters",
            "--seed",
            "4",
            "--max-games",
            "3000",
            "--workers",
            "1",
            "--no-progress",
            "--json",
            str(out),
        ]
    )
    printed = capsys.readouterr().out
    assert status == 0
    assert "win_threshold=3 against the base rules" in printed and "AN EFFECT" in printed
    rows = json.loads(out.read_text())
    assert rows[0]["question"] == "effect" and rows[0]["decision"] == "fails"


def test_compare_cli_line_ups_and_default_questions(capsys):
    status = main(
        [
            "compare",
            "gargon",
            "--setup",
            "4p",
            "--variant",
            "zero-multiplier=1",
            "--players",
            "greedy+greedy:ignore*3",
            "--seed",
            "1",
            "--max-games",
            "200",
            "--workers",
            "1",
            "--no-progress",
            "--question",
            "effect:level:*",
            "--question",
            "changes",
        ]
    )
    printed = capsys.readouterr().out
    assert status == 0
    assert "greedy v greedy:ignore ×3" in printed and "changes" in printed


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--variant", "nonsense=1"], "rule field of deck_the_yard"),
        (["--variant", "plugs"], "FIELD=VALUE"),
        (["--variant", "plugs=many"], "--variant 'plugs=many'"),
        (["--variant", "plugs=1", "--question", "effect:foo"], "unknown measure"),
        (["--variant", "plugs=1", "--question", "fair"], "ask effect"),
        (["--variant", "plugs=1", "--players", "greedy+greedy"], "names 2 seats"),
        (["--variant", "plugs=1", "--players", "greedy*x"], "NAME*K"),
    ],
)
def test_bad_compare_flags_get_one_line(argv, message, capsys):
    base = ["compare", "deck_the_yard", "--seed", "1", "--no-progress"]
    if "--players" not in argv:
        argv = [*argv, "--players", "greedy"]
    assert main(base + argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("gamelib: error:") and message in err and len(err.splitlines()) == 1
