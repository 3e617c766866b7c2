"""gamelib.tune: the space, the objective terms on hand-made tables, the search (pruning,
confirmation, a clearly better rule set found), resume and reproducibility, bad input, the CLI."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

import gamelib.tune as tune_mod
import gamelib.tune.study as study_mod
from gamelib.cli import main
from gamelib.core import ConfigError, GamelibError, ResumeError
from gamelib.garner import GARNER
from gamelib.tune import (
    Choice,
    DrawRate,
    FloatRange,
    IntRange,
    Length,
    SeatFair,
    SeatsFair,
    SkillShows,
    SoloWinRate,
    TuneError,
    build_config,
    check_printable,
    grid,
    is_printable,
    load_study,
    parse_objective,
    parse_space,
    recheck,
    snap,
    space_table,
    tune,
)

# --- hand-made tables ----------------------------------------------------------------------


def _table(winners: list[list[int]], n_seats: int, players: list[list[str]] | None = None):
    """A results table with one row per game: the winning seats of each game (empty: draw)."""
    rows = []
    for i, ws in enumerate(winners):
        seated = players[i] if players else [f"p{s}" for s in range(n_seats)]
        row = {
            "deal": i // (n_seats if players else 1),
            "winner": ws[0] if len(ws) == 1 else -1,
            "n_winners": len(ws),
            "reason": "turn_limit" if not ws else "end",
            "turns": 10 + i % 3,
        }
        for s in range(n_seats):
            row[f"player_{s}"] = seated[s]
            row[f"win_{s}"] = (1 / len(ws)) if s in ws else 0.0
        rows.append(row)
    return pd.DataFrame(rows)


def test_seat_fair_is_seat_zeros_share_of_decided_games():
    # 6 games won by seat 0, 2 by seat 1, 2 draws: seat 0 has 6 of 8 decided = 0.75
    t = _table([[0]] * 6 + [[1]] * 2 + [[]] * 2, 2)
    m = SeatFair().measure(t)
    assert m.estimate == pytest.approx(0.75)
    assert m.loss == pytest.approx(0.25)
    assert m.lo < 0.75 < m.hi and m.target_lo == m.target_hi == 0.5
    assert SeatFair(0.3).measure(t).loss == 0.0  # within 0.5 ± 0.3
    assert SeatFair(seat=1).measure(t).estimate == pytest.approx(0.25)
    assert not m.shown


def test_seats_fair_takes_the_seat_farthest_from_its_share():
    # 4 seats, 12 games: seat 2 wins 6, the others 2 each → worst gap 0.5 - 0.25
    t = _table([[2]] * 6 + [[0]] * 2 + [[1]] * 2 + [[3]] * 2, 4)
    m = SeatsFair().measure(t)
    assert m.estimate == pytest.approx(0.25)
    assert m.loss == pytest.approx(0.25)
    assert SeatsFair(0.3).measure(t).loss == 0.0
    even = _table([[0], [1], [2], [3]] * 5, 4)
    assert SeatsFair().measure(even).loss == 0.0


def test_skill_shows_counts_the_strong_players_points_and_splits_draws():
    # two deals, both seatings: strong wins 3 games, one draw → (3 + 0.5) / 4
    players = [["s", "w"], ["w", "s"], ["s", "w"], ["w", "s"]]
    t = _table([[0], [1], [0], []], 2, players)
    m = SkillShows("s", "w", 0.9).measure(t)
    assert m.estimate == pytest.approx(3.5 / 4)
    assert m.loss == pytest.approx(0.9 - 3.5 / 4)
    assert SkillShows("s", "w", 0.8).measure(t).loss == 0.0


def test_solo_draws_and_length_terms():
    solo = _table([[0]] * 3 + [[]] * 7, 1)
    assert SoloWinRate(0.3).measure(solo).loss == pytest.approx(0.0)
    assert SoloWinRate(0.5).measure(solo).loss == pytest.approx(0.2)
    t = _table([[0]] * 8 + [[]] * 2, 2)
    assert DrawRate(0.1).measure(t).loss == pytest.approx(0.1)
    assert DrawRate(0.2).measure(t).loss == 0.0
    m = Length(12, 20).measure(t)  # turns 10, 11, 12, 10, … mean 10.9
    assert m.estimate == pytest.approx(t.turns.mean())
    assert m.loss == pytest.approx((12 - t.turns.mean()) / 20)


def test_objectives_compose_and_parse_back():
    obj = SeatFair() + 0.5 * DrawRate(0.05) + SkillShows("cautious", "greedy", 0.6)
    assert obj.text() == ["seat0", "0.5*draws:0.05", "skill:cautious>greedy:0.6"]
    back = parse_objective(obj.text())
    assert back.text() == obj.text()
    assert parse_objective(["seat0@cautious + 2*length:10..40"]).text() == [
        "seat0@cautious",
        "2*length:10..40",
    ]
    t = _table([[0]] * 8 + [[]] * 2, 2)
    tables = {(("p0", "p1"), False): t}
    value, measures = tune_mod.evaluate(SeatFair() + 2 * DrawRate(0.1), tables, ["p0", "p1"])
    assert value == pytest.approx(measures[0].loss + 2 * measures[1].loss) and value > 0


@pytest.mark.parametrize(
    ("items", "match"),
    [
        (["bogus"], "unknown term"),
        (["skill:greedy:0.6"], "STRONG>WEAK"),
        (["seat0:x"], "not a number"),
        (["length:10"], "LO..HI"),
    ],
)
def test_a_bad_objective_is_named(items, match):
    with pytest.raises(ConfigError, match=match):
        parse_objective(items)


# --- the space -----------------------------------------------------------------------------


def test_parse_space_reads_ranges_and_choices_by_the_fields_type():
    space = parse_space(
        "garner",
        [
            "height=2..4",
            "must_move=none,one",
            "straight_line=false,true",
            "forbidden_pile_size=none,6",
            "suit_weights[2]=0.5..1",
            "suit_sizes=9,9,9;13,14",
        ],
    )
    assert space["height"] == IntRange(2, 4)
    assert space["must_move"] == Choice(["none", "one"])
    assert space["straight_line"] == Choice([False, True])
    assert space["forbidden_pile_size"] == Choice([None, 6])
    assert space["suit_weights[2]"] == FloatRange(0.5, 1.0)
    assert space["suit_sizes"] == Choice([(9, 9, 9), (13, 14)])
    gargon = parse_space("gargon", ["zero_multiplier=1..3", "amulets[15]=0..4"])
    assert gargon["zero_multiplier"] == FloatRange(1.0, 3.0)


@pytest.mark.parametrize(
    ("game", "item", "match"),
    [
        ("garner", "colour=1..2", "unknown garner field 'colour'"),
        ("garner", "setup=A,B", "not a rule to tune"),
        ("garner", "height=4..2", "empty"),
        ("garner", "height=1.5..3", "whole number"),
        ("garner", "must_move=1..3", "choices, not a range"),
        ("garner", "must_move=none", "at least two"),
        ("garner", "height=two,three", "not a whole number"),
        ("gargon", "amulets[16]=0..3", "indices 0..15"),
        ("gargon", "hand_size[0]=1..3", "not a tuple field"),
        ("gargon", "hand_size", "FIELD=LO..HI"),
        ("deck_the_yard", "plugs=1..4:0", "step must be positive"),
    ],
)
def test_a_bad_space_is_a_config_error_naming_the_field(game, item, match):
    with pytest.raises(ConfigError, match=match):
        parse_space(game, [item])


def test_garner_grid_fields_refill_the_deck_with_equal_suits():
    base = GARNER.config("A")
    c = build_config(base, {"height": 4, "n_suits": 4})
    assert c.suit_sizes == (9, 9, 9, 9) and c.height == 4
    assert build_config(base, {"height": 2}).suit_sizes == (6, 6, 6)
    with pytest.raises(ConfigError, match="do not split into 5 equal suits"):
        build_config(base, {"n_suits": 5})
    w = build_config(GARNER.config("C"), {"suit_weights[3]": 0.75})
    assert w.suit_weights == (1.0, 1.0, 1.0, 0.75)
    # an unweighted base weighs each of the trial's own suits 1; a weight it lacks is refused
    four = build_config(GARNER.config("A"), {"height": 4, "n_suits": 4, "suit_weights[2]": 0.5})
    assert four.suit_sizes == (9, 9, 9, 9) and four.suit_weights == (1.0, 1.0, 0.5, 1.0)
    with pytest.raises(ConfigError, match=r"suit_weights\[2\]: this rule set has 2"):
        build_config(GARNER.config("A"), {"height": 2, "n_suits": 2, "suit_weights[2]": 0.5})


# --- printable values --------------------------------------------------------------------


def test_a_grid_lists_exact_printable_values():
    assert grid(IntRange(2, 8, 3)) == (2, 5, 8)
    quarters = grid(FloatRange(0.5, 1.5, 0.25))
    assert quarters == (0.5, 0.75, 1.0, 1.25, 1.5)
    # 0.1 steps: binary noise (0.30000000000000004) is rounded to the step's decimals
    tenths = grid(FloatRange(0.1, 0.5, 0.1))
    assert tenths == (0.1, 0.2, 0.3, 0.4, 0.5) and all(is_printable(v) for v in tenths)
    assert grid(Choice(["none", "one"])) == ("none", "one")
    assert snap(FloatRange(0.5, 1.5, 0.25), 0.8592193236258718) == 0.75
    assert snap(FloatRange(0.5, 1.5, 0.25), 9.0) == 1.5  # clamped to the grid
    with pytest.raises(ConfigError, match="continuous"):
        grid(FloatRange(0.5, 1.5))
    assert is_printable((1.0, 1.0, 0.75)) and is_printable(None) and is_printable("all")
    assert not is_printable(0.8592193236258718) and not is_printable((1.0, 0.125))


def test_a_space_that_samples_unprintable_values_is_refused():
    check_printable({"height": IntRange(2, 4), "suit_weights[2]": FloatRange(0.5, 1.5, 0.25)})
    with pytest.raises(ConfigError, match=r"suit_weights\[2\]=0.5..1.5 is continuous"):
        check_printable({"suit_weights[2]": FloatRange(0.5, 1.5)})
    with pytest.raises(ConfigError, match="more than 2 decimals"):
        check_printable({"suit_weights[2]": FloatRange(0.5, 1.0, 0.125)})
    with pytest.raises(ConfigError, match="more than 2 decimals"):
        check_printable({"suit_weights": Choice([(1.0, 1.0, 0.333), (1.0, 1.0, 1.0)])})
    table = space_table({"height": IntRange(2, 4), "must_move": Choice(["none", "all"])})
    assert table["count"].tolist() == [3, 2] and table.attrs["size"] == 6
    assert table["values"].tolist() == ["2 · 3 · 4", "none · all"]


def test_a_search_on_a_grid_tries_only_grid_values_and_refuses_a_continuous_range():
    # tenths: Optuna's stepped floats carry binary noise there (1.2000000000000002)
    weights = FloatRange(0.5, 1.5, 0.1)
    space = {"suit_weights[2]": weights, "must_move": Choice(["none", "one", "all"])}
    result = tune(
        "garner", space, SeatFair(), 16, 3, setup="A", n_games=60, confirm_games=60, progress=False
    )
    sampled = [float(r.split("suit_weights[2]=")[1].split(",")[0]) for r in result.trials.rules]
    assert len(set(sampled)) > 1 and set(sampled) <= set(grid(weights)), sampled
    for c in result.report["config"]:
        assert is_printable(c.suit_weights), c.suit_weights
    continuous = {"suit_weights[2]": FloatRange(0.5, 1.5)}
    with pytest.raises(ConfigError, match="continuous"):
        tune("garner", continuous, SeatFair(), 2, 3, setup="A", n_games=10, progress=False)
    loose = tune(
        "garner",
        continuous,
        SeatFair(),
        2,
        3,
        setup="A",
        n_games=10,
        confirm_games=10,
        progress=False,
        printable=False,
    )
    assert len(loose.trials) == 2


# --- the search ----------------------------------------------------------------------------

SPACE = {"must_move": Choice(["none", "one", "all"]), "n_suits": (2, 4)}


def _small(storage: Path | None = None, budget: int = 6, space=SPACE, **kw):
    return tune(
        "garner",
        space,
        SeatFair(),
        budget,
        11,
        setup="A",
        n_games=300,
        confirm_games=600,
        storage=storage,
        progress=False,
        **kw,
    )


def _history(result) -> list[tuple[str, object, str]]:
    t = result.trials
    rows = zip(t.state, t.value, t.rules, strict=True)
    return [(s, v if v == v else None, r) for s, v, r in rows]


def test_tune_prunes_refused_rule_sets_and_beats_the_original_on_fresh_seeds():
    result = _small(budget=8)
    pruned = result.trials[result.trials.state == "PRUNED"]
    # n_suits 2 and 4 do not divide setup A's 27 places: refused by the game, reason kept
    assert len(pruned) > 0
    assert pruned.invalid.str.contains("equal suits").all()
    report = result.report
    assert report.rules.iloc[0] == "original" and len(report) >= 2
    orig = report.iloc[0]
    best = report[report.rules != "original"].iloc[0]
    # setup A under greedy favours seat 0 clearly; must_move=one/all is much nearer even
    assert orig.seat0_lo > 0.5
    assert best.value < orig.value
    assert best.seat0_hi > orig.seat0_hi - 1 and abs(best.seat0 - 0.5) < abs(orig.seat0 - 0.5)
    assert result.best.must_move != "none"
    assert report.attrs["seed"] == 12 and (report.games == 600).all()
    assert "original rules" in result.text and "confirmed value" in result.text


def test_tune_is_reproducible_for_a_seed(tmp_path: Path):
    a = _small(tmp_path / "a")
    b = _small(tmp_path / "b")
    assert _history(a) == _history(b)
    pd.testing.assert_frame_equal(a.report.drop(columns="config"), b.report.drop(columns="config"))


def test_an_interrupted_search_resumes_to_the_uninterrupted_result(tmp_path, monkeypatch):
    whole = _small(tmp_path / "whole")
    real = study_mod.build_config  # called once at the start of every trial
    calls = {"n": 0}

    def interrupted(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(study_mod, "build_config", interrupted)
    with pytest.raises(TuneError, match="interrupted: 3 of 6 trials are kept"):
        _small(tmp_path / "cut")
    monkeypatch.setattr(study_mod, "build_config", real)
    spec, kept = load_study(tmp_path / "cut")
    assert len(kept) == 3 and spec["seed"] == 11
    resumed = _small(tmp_path / "cut")
    assert _history(resumed) == _history(whole)
    pd.testing.assert_frame_equal(
        resumed.report.drop(columns="config"), whole.report.drop(columns="config")
    )
    # a smaller budget on a finished folder runs nothing new, and writes nothing to it
    before = (tmp_path / "cut" / "journal.log").read_bytes()
    assert len(_small(tmp_path / "cut", budget=4).trials) == 6
    assert (tmp_path / "cut" / "journal.log").read_bytes() == before


def test_a_folder_of_another_search_or_a_damaged_one_is_refused(tmp_path: Path):
    folder = tmp_path / "s"
    moves = {"must_move": Choice(["none", "one", "all"])}
    _small(folder, budget=2, space=moves)
    with pytest.raises(ResumeError, match="another n_games"):
        tune(
            "garner",
            moves,
            SeatFair(),
            2,
            11,
            setup="A",
            n_games=301,
            storage=folder,
            progress=False,
            confirm_games=50,
        )
    with pytest.raises(ResumeError, match="another space"):
        _small(folder, budget=2)
    log = folder / "journal.log"
    lines = log.read_bytes().split(b"\n")
    # a half-written last entry (a killed run) is cut off and its trial run again
    log.write_bytes(b"\n".join(lines[:-1]) + b"\n" + b'{"op_code": 5, "wor')
    assert len(_small(folder, budget=2, space=moves).trials) == 2
    log.write_bytes(b"not a journal\n" + log.read_bytes())
    with pytest.raises(ResumeError, match="line 1 is not a journal entry"):
        _small(folder, budget=2, space=moves)
    afile = tmp_path / "file"
    afile.write_text("x")
    with pytest.raises(TuneError, match="is a file"):
        _small(afile, budget=2)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"budget": 0}, TuneError, "budget"),
        ({"game_or_config": "chess"}, ConfigError, "unknown game 'chess'"),
        ({"space": {}}, ConfigError, "at least one field"),
        ({"space": {"height": (3, 3)}}, ConfigError, "empty or a single value"),
        ({"objective": SoloWinRate(0.3)}, ConfigError, "not solitaire"),
        ({"objective": SkillShows("greedy", "nobody", 0.6)}, ConfigError, "nobody"),
        ({"players": "greedy,random,random"}, ConfigError, "2 seats, 3 players"),
        ({"objective": SeatFair(players=("greedy",) * 3)}, ConfigError, "2 seats, 3 players"),
        ({"confirm_seed": 11}, ConfigError, "must differ from seed"),
        ({"seed": -1}, ConfigError, "seed"),
    ],
)
def test_bad_tune_arguments_are_named_before_any_game(kwargs, error, match):
    args = {
        "game_or_config": GARNER.config("A"),
        "space": SPACE,
        "objective": SeatFair(),
        "budget": 2,
        "seed": 11,
    }
    args.update(kwargs)
    with pytest.raises(error, match=match):
        tune(**args, n_games=10, progress=False)
    assert issubclass(error, GamelibError)


def test_recheck_plays_the_first_trials_again(tmp_path: Path):
    _small(tmp_path / "r", budget=4)
    checked = recheck(tmp_path / "r", k=4)
    assert len(checked) == 4
    for _, stored, fresh in checked:
        assert (math.isnan(stored) and math.isnan(fresh)) or stored == fresh


# --- the command line ----------------------------------------------------------------------

CLI = [
    "tune",
    "garner",
    "--setup",
    "A",
    "--space",
    "must_move=none,one,all",
    "--objective",
    "seat0",
    "--budget",
    "3",
    "-n",
    "200",
    "--seed",
    "5",
    "--confirm-games",
    "300",
    "--no-progress",
]


def test_cli_tunes_and_prints_the_confirmation(tmp_path: Path, capsys):
    out = tmp_path / "report.parquet"
    assert main([*CLI, "--storage", str(tmp_path / "s"), "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "original rules: seat0" in text and "300 fresh deals" in text
    report = pd.read_parquet(out)
    assert report.rules.iloc[0] == "original" and "changes" in report
    # the same command again resumes: nothing new to run, the same report
    assert main([*CLI, "--storage", str(tmp_path / "s")]) == 0
    assert capsys.readouterr().out.splitlines()[:-1] == text.splitlines()[:-2]


@pytest.mark.parametrize(
    ("change", "match"),
    [
        (["--budget", "0"], "--budget must be at least 1"),
        (["--space", "foo=1..2"], "unknown garner field 'foo'"),
        (["--objective", "nope"], "unknown term 'nope'"),
        (["--seed", "-3"], "--seed"),
        (["--precision", "0.7"], "--precision"),
        (["--players", "nobody"], "unknown garner player 'nobody'"),
        (["--must-move", "sideways"], "must_move"),
    ],
)
def test_cli_bad_flags_are_one_error_line(change, match, capsys, tmp_path):
    args = [*CLI, *change]
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("gamelib: error:") and match in err[0], err


def test_cli_storage_that_is_a_file_is_one_error_line(tmp_path, capsys):
    f = tmp_path / "f"
    f.write_text("x")
    assert main([*CLI, "--storage", str(f)]) == 2
    assert "is a file" in capsys.readouterr().err
