"""Stored studies in data/results/ can never drift from the code that claims to produce them:
the first games of every run in every stored table are simulated again and must match."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from gamelib.records import config_from_json, engine_for
from gamelib.registry import get_game
from gamelib.sim import load, results_dir, simulate

STORED = sorted(results_dir().glob("*.parquet"))
PREFIX = 2  # deals re-simulated per run
#: deals re-simulated per run whose line-up plays through the protocol (a search player, as in
#: the stored skill ladders), each in its first seat arrangement only: a search decision costs
#: milliseconds and a ladder holds many such runs
SEARCH_PREFIX = 1


def test_results_dir_is_the_projects():
    assert results_dir() == Path(__file__).resolve().parents[1] / "data" / "results"


@pytest.mark.parametrize("path", STORED, ids=lambda p: p.name)
def test_a_stored_table_matches_a_fresh_simulation_of_its_first_games(path: Path):
    table = load(path)
    prov = table.attrs["provenance"]
    runs = prov.get("runs", [prov])
    offset = 0
    checked = 0
    for run in runs:
        game = get_game(run["game"])
        config = config_from_json(game, run["config"])
        per_deal = len(run["players"]) if run["rotate_seats"] else 1
        rows = run["n_games"] * per_deal
        stored = table.iloc[offset : offset + rows]
        offset += rows
        if engine_for(game, run["players"]) == "python":
            # a deal's first arrangement is the line-up as given: the same game, unrotated
            k = min(SEARCH_PREFIX, run["n_games"])
            fresh = simulate(config, run["players"], k, run["seed"], workers=1, progress=False)
            fresh = fresh.drop(columns="game_index")  # unrotated games are numbered by deal
            head = stored.iloc[: k * per_deal : per_deal].reset_index(drop=True)
        else:
            k = min(PREFIX, run["n_games"])
            fresh = simulate(
                config,
                run["players"],
                k,
                run["seed"],
                rotate_seats=run["rotate_seats"],
                workers=1,
                progress=False,
            )
            head = stored.iloc[: k * per_deal].reset_index(drop=True)
        cols = [c for c in head.columns if c in fresh.columns and c != "gamelib_version"]
        pd.testing.assert_frame_equal(_comparable(fresh[cols]), _comparable(head[cols]))
        checked += 1
    assert offset == len(table), "the table holds rows that no run in its provenance made"
    assert checked == len(runs) > 0


def _comparable(frame: pd.DataFrame) -> pd.DataFrame:
    """Numbers as nullable floats, everything else as text: a sweep that concatenates runs with
    different columns (a 3-player run has no ``score_3``, a run without events no
    ``blackout_turn_1``) stores those counts as floats with gaps, a fresh run as ints."""
    out = {}
    for c in frame.columns:
        col = frame[c]
        if pd.api.types.is_bool_dtype(col):
            out[c] = col.astype(str)
            continue
        try:  # text that holds numbers (a field that may be None is stored as text)
            out[c] = pd.to_numeric(col).astype("Float64")
        except (ValueError, TypeError):
            out[c] = col.astype(str)
    return pd.DataFrame(out).reset_index(drop=True)


def test_slim_keeps_every_seat_of_a_sweep_over_player_counts():
    from gamelib.sim import slim, sweep

    table = sweep("gargon", {"setup": ["3p", "5p"]}, ["random"], 2, 1, workers=1, progress=False)
    kept = slim(table, ["winner", "score_0"])
    assert [c for c in kept.columns if c.startswith("player_")] == [f"player_{s}" for s in range(5)]
    assert "score_1" not in kept and kept["player_4"].notna().sum() == 2


def test_combined_runs_keep_each_runs_provenance_and_tidy_dtypes(tmp_path: Path):
    from gamelib.garner import GARNER
    from gamelib.sim import ResultsError, combine, save

    runs = [
        simulate(GARNER.config(s), ["greedy", "greedy"], 3, 11, workers=1, progress=False)
        for s in ("A", "B")  # B has forbidden_pile_size 6, A None: one nullable column
    ]
    table = combine(runs)
    assert [r["config"]["setup"] for r in table.attrs["provenance"]["runs"]] == ["A", "B"]
    assert str(table["forbidden_pile_size"].dtype) == "Int64"
    assert table["forbidden_pile_size"].tolist()[-1] == 6
    back = load(save(table, tmp_path / "both.parquet"))
    assert back.attrs["provenance"]["runs"][1]["n_games"] == 3
    pd.testing.assert_frame_equal(back, table, check_dtype=False)
    with pytest.raises(ResultsError, match="no provenance"):
        combine([runs[0], pd.DataFrame(runs[1])])
