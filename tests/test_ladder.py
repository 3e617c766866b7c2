"""The skill ladder: every pairing on common deals, reproducible on any number of workers; the
matchup matrix, seat 0's rate and the ratings read it correctly; the CLI refuses bad input."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pandas as pd
import pytest

from gamelib.cli import main
from gamelib.core import ConfigError, random_player
from gamelib.deck_the_yard import DECK_THE_YARD
from gamelib.gargon import GARGON
from gamelib.garner import GARNER
from gamelib.ladder import (
    LADDER_COLUMNS,
    first_player,
    format_matrix,
    ladder_plan,
    matchups,
    matrix,
    ratings,
    solitaire_table,
)
from gamelib.plots import plot_matrix
from gamelib.sim import load, simulate

GARNER_A = GARNER.config("A")
LEVELS = ["random", "greedy", "cautious"]
DEALS = 60


@pytest.fixture(scope="module")
def garner() -> pd.DataFrame:
    return matchups(GARNER_A, LEVELS, DEALS, seed=11, workers=1, progress=False)


@pytest.fixture(scope="module")
def gargon() -> pd.DataFrame:
    return matchups(
        GARGON.config("3p"), ["random", "greedy"], 15, seed=4, workers=1, progress=False
    )


@pytest.fixture(scope="module")
def yard() -> pd.DataFrame:
    return matchups(
        DECK_THE_YARD.config(), ["random", "greedy"], 40, seed=2, workers=1, progress=False
    )


# --- the table ---------------------------------------------------------------------------


def test_a_two_player_ladder_plays_every_pair_in_both_seat_orders(garner: pd.DataFrame):
    # 3 mirror tables (one game a deal) and 3 pairs (both seat orders on every deal)
    assert len(garner) == 3 * DEALS + 3 * 2 * DEALS
    cols = list(garner.columns)
    at = cols.index("seed") + 1
    assert cols[at : at + 4] == LADDER_COLUMNS
    assert {"player_0", "player_1", "winner", "win_0", "win_1", "score_0"} <= set(cols)
    counts = garner["pairing"].astype(str).value_counts().to_dict()
    assert counts == {
        "random v random": DEALS,
        "greedy v greedy": DEALS,
        "cautious v cautious": DEALS,
        "random v greedy": 2 * DEALS,
        "random v cautious": 2 * DEALS,
        "greedy v cautious": 2 * DEALS,
    }
    pairs = garner[garner["matchup"] == "pair"]
    for (_, _), g in pairs.groupby(["pairing", "deal"], observed=True):
        seated = sorted(zip(g["player_0"].astype(str), g["player_1"].astype(str), strict=True))
        a, b = str(g["level_a"].iloc[0]), str(g["level_b"].iloc[0])
        assert seated == sorted([(a, b), (b, a)])
    # common deals: deal i has the same seed in every pairing
    assert (garner.groupby("deal")["seed"].nunique() == 1).all()
    prov = garner.attrs["provenance"]
    assert prov["ladder"]["levels"] == LEVELS and prov["ladder"]["design"] == "pair"
    per_run = [r["n_games"] * (2 if r["rotate_seats"] else 1) for r in prov["runs"]]
    assert sum(per_run) == len(garner)


def test_a_run_of_the_ladder_is_the_simulate_run_it_names(garner: pd.DataFrame):
    run = garner[garner["pairing"] == "greedy v cautious"].reset_index(drop=True)
    alone = simulate(
        GARNER_A, ["greedy", "cautious"], DEALS, 11, rotate_seats=True, workers=1, progress=False
    )
    cols = [c for c in alone.columns if c != "game_index"]
    pd.testing.assert_frame_equal(run[cols].astype(str), alone[cols].astype(str), check_dtype=False)


def test_same_seed_same_table_on_one_or_two_workers():
    one = matchups(GARNER_A, ["random", "greedy"], 12, seed=3, workers=1, progress=False)
    again = matchups(GARNER_A, ["random", "greedy"], 12, seed=3, workers=1, progress=False)
    two = matchups(
        GARNER_A, ["random", "greedy"], 12, seed=3, workers=2, chunk_size=5, progress=False
    )
    pd.testing.assert_frame_equal(one, again)
    pd.testing.assert_frame_equal(one, two)
    other = matchups(GARNER_A, ["random", "greedy"], 12, seed=4, workers=1, progress=False)
    assert not other["seed"].equals(one["seed"])


def test_an_interrupted_ladder_resumes_to_the_same_table(tmp_path):
    folder = tmp_path / "ladder"
    kept = matchups(
        GARNER_A,
        ["random", "greedy"],
        8,
        5,
        workers=1,
        chunk_size=3,
        progress=False,
        resume=folder,
        keep_resume=True,
    )
    runs = sorted(p.name for p in folder.iterdir())
    assert runs == ["run-0", "run-1", "run-2"]
    for part in list((folder / "run-2").glob("part-*"))[:2]:  # as if the run died there
        part.unlink()
    resumed = matchups(
        GARNER_A, ["random", "greedy"], 8, 5, workers=1, chunk_size=3, progress=False, resume=folder
    )
    pd.testing.assert_frame_equal(resumed, kept)
    assert not folder.exists()


@pytest.mark.parametrize(
    ("players", "n", "message"),
    [
        (["random", "nobody"], 5, "unknown garner player 'nobody'"),
        (["greedy"], 5, "at least two levels"),
        (["greedy", "greedy"], 5, "repeated: greedy"),
        ("random,greedy", 5, "must be a list"),
        (["random", "greedy"], 0, "n_games must be a whole number ≥ 1"),
        (["random", "greedy"], 2.5, "n_games must be a whole number ≥ 1"),
    ],
)
def test_bad_ladders_are_refused_before_any_game(players, n, message):
    with pytest.raises(ConfigError, match=message):
        matchups(GARNER_A, players, n, 1, workers=1, progress=False)


# --- the matrix, seat 0 and the ratings --------------------------------------------------


def test_the_matrix_is_antisymmetric_and_greedy_beats_random(garner: pd.DataFrame):
    m = matrix(garner)
    assert len(m) == 6 and (m["fair"] == 0.5).all()
    assert (m["games"] == 2 * DEALS).all() and (m["deals"] == DEALS).all()
    by = m.set_index(["level_a", "level_b"])
    for a, b in [("random", "greedy"), ("random", "cautious"), ("greedy", "cautious")]:
        ab, ba = by.loc[(a, b)], by.loc[(b, a)]
        assert ab["rate"] + ba["rate"] == pytest.approx(1.0)
        assert ab["lo"] + ba["hi"] == pytest.approx(1.0)
        assert ab["lo"] <= ab["rate"] <= ab["hi"]
    greedy_random = by.loc[("greedy", "random")]
    assert greedy_random["lo"] > 0.5 and greedy_random["beats"]
    assert not by.loc[("random", "greedy")]["beats"]
    text = format_matrix(m)
    assert text.splitlines()[0].split() == LEVELS and "[" in text


def test_a_draw_counts_half_in_the_matrix(garner: pd.DataFrame):
    before = matrix(garner).set_index(["level_a", "level_b"]).loc[("greedy", "cautious"), "rate"]
    drawn = garner.copy()
    row = drawn.index[(drawn["pairing"] == "greedy v cautious") & (drawn["winner"] >= 0)][0]
    winner_seat = int(drawn.at[row, "winner"])
    greedy_won = str(drawn.at[row, f"player_{winner_seat}"]) == "greedy"
    drawn.loc[row, ["winner", "n_winners", "win_0", "win_1"]] = [-1, 0, 0.0, 0.0]
    after = matrix(drawn).set_index(["level_a", "level_b"]).loc[("greedy", "cautious"), "rate"]
    change = -0.5 if greedy_won else 0.5
    assert after == pytest.approx(before + change / (2 * DEALS))


def test_first_player_per_level_and_per_pairing(garner: pd.DataFrame):
    fp = first_player(garner)
    assert list(fp["pairing"])[:3] == ["random v random", "greedy v greedy", "cautious v cautious"]
    assert list(fp["level"])[:3] == LEVELS and (fp["fair"] == 0.5).all()
    assert len(fp) == 6 and ((fp["lo"] <= fp["rate"]) & (fp["rate"] <= fp["hi"])).all()
    mirror = garner[garner["pairing"] == "greedy v greedy"]
    expected = (mirror["win_0"] + 0.5 * (mirror["n_winners"] == 0)).mean()
    assert fp.loc[fp["pairing"] == "greedy v greedy", "rate"].item() == pytest.approx(expected)
    assert fp.loc[1, "games"] == DEALS and fp.loc[3, "games"] == 2 * DEALS


def test_ratings_put_greedy_above_random_and_are_deterministic(garner: pd.DataFrame):
    r = ratings(garner)
    assert list(r.columns[:6]) == ["rank", "level", "mu", "sigma", "ordinal", "games"]
    order = list(r["level"])
    assert order.index("greedy") < order.index("random")
    rated = r.set_index("level")
    assert (
        rated.loc["greedy", "ordinal"]
        > rated.loc["random", "mu"] + 3 * rated.loc["random", "sigma"]
    )
    assert (r["sigma"] > 0).all() and (r["sigma"] < 25 / 3).all()
    assert (r["games"] == 4 * DEALS).all()  # two pairings of 2 × DEALS games; mirrors skipped
    assert (r["ordinal"] == r["mu"] - 3 * r["sigma"]).all()
    pd.testing.assert_frame_equal(r, ratings(garner))


# --- Gargon: one level alone against copies of another -----------------------------------


def test_a_gargon_ladder_seats_each_level_alone_in_every_seat(gargon: pd.DataFrame):
    assert len(gargon) == 2 * 15 + 2 * 15 * 3
    one = gargon[gargon["matchup"] == "one_v_rest"]
    assert set(one["pairing"].astype(str)) == {"random v greedy", "greedy v random"}
    for (pairing, _), g in one.groupby(["pairing", "deal"], observed=True):
        alone = str(pairing).split(" v ")[0]
        seats = g[[f"player_{s}" for s in range(3)]].astype(str)
        assert sorted((seats == alone).to_numpy().nonzero()[1]) == [0, 1, 2]
        assert ((seats == alone).sum(axis=1) == 1).all()
    m = matrix(gargon).set_index(["level_a", "level_b"])
    assert m["fair"].tolist() == pytest.approx([1 / 3, 1 / 3])
    assert m.loc[("greedy", "random"), "lo"] > 1 / 3 and m.loc[("greedy", "random"), "beats"]
    assert m.loc[("random", "greedy"), "hi"] < 1 / 3
    r = ratings(gargon)
    assert list(r["level"]) == ["greedy", "random"]
    fp = first_player(gargon)
    assert fp["fair"].tolist() == pytest.approx([1 / 3] * 4)


def test_a_level_on_several_seats_gets_the_sum_of_their_updates(gargon: pd.DataFrame):
    """One game, one greedy seat against two random seats: with equal priors Plackett–Luce's
    update is zero-sum, so random's two seats together lose what greedy gains."""
    first = gargon[gargon["matchup"] == "one_v_rest"].iloc[[0]]
    first.attrs = gargon.attrs
    r = ratings(first).set_index("level")
    assert r.loc["greedy", "mu"] != 25.0
    assert (r.loc["greedy", "mu"] - 25.0) + (r.loc["random", "mu"] - 25.0) == pytest.approx(0.0)


# --- Deck the Yard: each level on the same shuffles --------------------------------------


def test_a_solitaire_ladder_plays_the_same_shuffles_per_level(yard: pd.DataFrame):
    assert len(yard) == 2 * 40 and set(yard["matchup"].astype(str)) == {"solo"}
    assert yard["level_b"].isna().all()
    seeds = yard.pivot(index="deal", columns="level_a", values="seed")
    assert (seeds["random"] == seeds["greedy"]).all()
    t = solitaire_table(yard).set_index("level")
    assert list(t.index) == ["random", "greedy"]
    assert t.loc["greedy", "blackout_hi"] < t.loc["random", "blackout_lo"]
    assert pd.isna(t.loc["random", "gain"]) and not pd.isna(t.loc["greedy", "gain"])
    greedy_won = (yard.loc[yard["level_a"] == "greedy", "win_0"] > 0).mean()
    random_won = (yard.loc[yard["level_a"] == "random", "win_0"] > 0).mean()
    assert t.loc["greedy", "gain"] == pytest.approx(greedy_won - random_won)
    for f in (matrix, first_player, ratings):
        with pytest.raises(ConfigError, match="solitaire_table"):
            f(yard)


def test_summaries_refuse_a_table_that_is_not_a_ladder():
    plain = simulate(GARNER_A, ["random", "greedy"], 2, 1, workers=1, progress=False)
    with pytest.raises(ValueError, match="not a ladder table"):
        matrix(plain)


def test_a_cheating_level_is_marked(garner: pd.DataFrame):
    class Peeker:
        """Plays at random but declares that it reads the whole state (as an oracle does)."""

        __name__ = "peeker"
        observes = "state"

        def __call__(self, observation, legal, rng):
            return random_player(observation, legal, rng)

    t = matchups(GARNER_A, ["random", Peeker()], 3, 1, workers=1, progress=False)
    assert t.attrs["provenance"]["ladder"]["cheating"] == ["peeker"]
    assert ratings(t).set_index("level")["cheating"].to_dict() == {"peeker": True, "random": False}
    assert "peeker *" in format_matrix(matrix(t))


def test_the_matrix_plot_writes_every_cell_with_its_interval(garner: pd.DataFrame):
    ax = plot_matrix(matrix(garner))
    texts = [t.get_text() for t in ax.texts]
    assert len(texts) == 6 and all("[" in t and "]" in t for t in texts)
    assert [t.get_text() for t in ax.get_xticklabels()] == LEVELS
    plt.close("all")


# --- the command line ---------------------------------------------------------------------


def test_cli_ladder_prints_matrix_seat0_ratings_and_writes_the_table(tmp_path, capsys):
    out = tmp_path / "ladder.parquet"
    args = ["ladder", "garner", "--setup", "A", "--players", "random,greedy", "-n", "6"]
    code = main([*args, "--seed", "2", "--out", str(out), "--no-progress", "--workers", "1"])
    assert code == 0
    text = capsys.readouterr().out
    assert "matchup matrix" in text and "seat 0" in text and "ratings" in text
    assert "random v random" in text and "greedy v greedy" in text
    table = load(out)
    assert len(table) == 2 * 6 + 2 * 6 and table.attrs["provenance"]["ladder"]["levels"] == [
        "random",
        "greedy",
    ]
    assert not (tmp_path / "ladder.parquet.parts").exists()
    pd.testing.assert_frame_equal(
        table, matchups(GARNER_A, ["random", "greedy"], 6, 2, workers=1, progress=False)
    )


def test_cli_ladder_columns_slims_the_stored_table_and_the_ladder_still_reads(tmp_path, capsys):
    out = tmp_path / "slim.parquet"
    args = ["ladder", "garner", "--setup", "A", "--players", "random,greedy", "-n", "4"]
    keep = "winner,n_winners,win_0,win_1"
    code = main([*args, "--seed", "2", "--out", str(out), "--columns", keep, "--no-progress"])
    assert code == 0
    printed = capsys.readouterr().out
    table = load(out)
    full = matchups(GARNER_A, ["random", "greedy"], 4, 2, workers=1, progress=False)
    assert "score_0" in full and "score_0" not in table and "turns" not in table
    assert [c for c in table.columns if c in LADDER_COLUMNS] == LADDER_COLUMNS
    assert table["player_1"].tolist() == full["player_1"].astype(str).tolist()
    pd.testing.assert_frame_equal(matrix(table), matrix(full))  # the slim table still reads
    assert format_matrix(matrix(table)) in printed


def test_cli_ladder_of_gargon_keeps_its_player_count_and_of_deck_the_yard(capsys):
    assert (
        main(
            [
                "ladder",
                "gargon",
                "--players",
                "random,greedy",
                "-n",
                "1",
                "--seed",
                "1",
                "--no-progress",
                "--workers",
                "1",
                "--no-self-play",
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "4 players" in text and "alone against copies" in text
    assert "random v random" not in text
    assert (
        main(
            [
                "ladder",
                "deck_the_yard",
                "--players",
                "greedy",
                "-n",
                "3",
                "--seed",
                "1",
                "--no-progress",
                "--workers",
                "1",
            ]
        )
        == 0
    )
    assert "blackout" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "random,nobody"], "unknown garner player 'nobody'"),
        (["--players", "greedy"], "at least two levels"),
        (["--players", "greedy,greedy"], "repeated: greedy"),
        (["--players", ","], "names no player"),
        (["-n", "0"], "-n must be at least 1"),
        (["--seed", "-1"], "--seed"),
        (["--out", "x.csv"], "expected a .parquet file"),
        (["--workers", "0"], "--workers must be at least 1"),
        (["--setup", "Z"], "unknown garner setup 'Z'"),
        (["--columns", "winner,nope", "--out", "x.parquet"], "no such result column(s) nope"),
        (["--columns", "winner"], "--columns chooses what --out keeps"),
    ],
)
def test_cli_ladder_bad_input_is_one_line_and_status_2(argv, message, capsys):
    base = {"--players": "random,greedy", "-n": "2", "--seed": "1", "--no-progress": None}
    for flag, value in zip(argv[::2], argv[1::2], strict=True):
        base[flag] = value
    args = ["ladder", "garner"]
    for flag, value in base.items():
        args += [flag] if value is None else [flag, value]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert err.startswith("gamelib: error:") and "Traceback" not in err


def test_ladder_plan_lists_the_runs_in_order():
    plan = ladder_plan(GARGON.config("4p"), ["random", "greedy", "greedy:ignore"], self_play=False)
    assert [r.pairing for r in plan] == [
        "random v greedy",
        "random v greedy:ignore",
        "greedy v random",
        "greedy v greedy:ignore",
        "greedy:ignore v random",
        "greedy:ignore v greedy",
    ]
    assert plan[0].seats == ["random", "greedy", "greedy", "greedy"] and plan[0].rotate
