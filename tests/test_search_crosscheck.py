"""Generic against compiled search (bench/search_crosscheck.py): the stored studies in
data/results/ re-checked — their first deals played again must match the stored games, and the
verdict decided again from the stored games must be the stored one."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pandas as pd
import pytest

from gamelib.registry import get_game
from gamelib.sim import simulate
from gamelib.verdict import decide

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "data" / "results"
STORED = json.loads((RESULTS / "search-crosscheck.json").read_text())
COLUMNS = ["deal", "rotation", "seed", "winner", "n_winners", "reason", "turns"]


def _study():
    spec = importlib.util.spec_from_file_location(
        "search_crosscheck", ROOT / "bench" / "search_crosscheck.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["search_crosscheck"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


STUDY = _study()


def _tables(study: str) -> list[pd.DataFrame]:
    """A study's stored games: one table, or a solitaire's two (the second level's ``.1``)."""
    paths = [
        RESULTS / f"search-crosscheck-{study}.csv",
        RESULTS / f"search-crosscheck-{study}.1.csv",
    ]
    return [pd.read_csv(p) for p in paths if p.exists()]


@pytest.mark.parametrize("study", sorted(STORED))
def test_the_stored_verdict_is_decided_again_from_the_stored_games(study):
    row = STORED[study]
    tables = _tables(study)
    again = decide(
        tables,
        STUDY.Equal(row["margin"]),
        stronger=row["level"].split(" v ")[0],
        weaker=row["level"].split(" v ")[1],
    )
    assert again["decision"] == row["decision"]
    assert again["deals"] == row["deals"]
    assert again["estimate"] == pytest.approx(row["estimate"])


@pytest.mark.parametrize("study", sorted(STORED))
def test_the_first_deal_of_each_stored_table_is_played_again(study):
    row = STORED[study]
    config = get_game(row["game"]).config(row["setup"])
    compiled, generic = STUDY.levels(study)
    tables = _tables(study)
    seats = len([c for c in tables[0].columns if c.startswith("player_")])
    lineups = [[generic], [compiled]] if seats == 1 else [[generic] + [compiled] * (seats - 1)]
    for table, lineup in zip(tables, lineups, strict=True):
        fresh = simulate(
            config,
            lineup,
            1,
            row["seed"],
            rotate_seats=seats > 1,
            workers=1,
            progress=False,
        )
        cols = COLUMNS + [c for c in table.columns if c.startswith(("score_", "win_", "player_"))]
        head = table.iloc[: len(fresh)][cols].reset_index(drop=True)
        pd.testing.assert_frame_equal(
            fresh[cols].reset_index(drop=True).astype(str), head.astype(str), check_dtype=False
        )


@pytest.mark.parametrize("study", ["garner", "gargon", "deck_the_yard"])
def test_the_generic_search_is_as_strong_as_the_compiled_one(study):
    """Where both sides run the same algorithm at the same budget, skill shows in neither
    direction: Equal holds (decided again from the stored games, above)."""
    row = STORED[study]
    again = decide(
        _tables(study),
        STUDY.Equal(row["margin"]),
        stronger=row["level"].split(" v ")[0],
        weaker=row["level"].split(" v ")[1],
    )
    assert again["decision"] == "holds", again
