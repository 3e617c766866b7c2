"""Stored studies in data/results/ can never drift from the code that claims to produce them:
the first games of every run in every stored table are simulated again and must match."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from gamelib.records import config_from_json, engine_for
from gamelib.registry import get_game
from gamelib.sim import load, results_dir, simulate
from gamelib.verdict.compare import Changes, Depends, Effect

#: the stored tables, and the runs ``make results`` packs into studies/ (the study cache's
#: read-only tier: docs/guide/rerun.md)
STORED = sorted(results_dir().glob("*.parquet")) + sorted(results_dir().glob("studies/*.parquet"))
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
        if engine_for(game, run["players"]) == "python" or run.get("engine") == "python":
            # a deal's first arrangement is the line-up as given: the same game, unrotated (an
            # arm of option worth plays through the reference engine even when it could not)
            k = min(SEARCH_PREFIX, run["n_games"])
            fresh = simulate(
                config, run["players"], k, run["seed"], workers=1, progress=False,
                edit=run.get("edit"), engine="python",
            )  # fmt: skip
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
                edit=run.get("edit"),  # an arm of card worth: its deals edited
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


# --- stored comparisons and verdicts (notebooks 02 and 03) ---------------------------------------
# Each JSON is what `gamelib compare` / `gamelib verdict` decided while it played (the commands are
# in data/results/regenerate.sh); the notebooks decide again on the stored games without playing.
# The two must agree: the stored games are the command's deals (re-simulated above), and the
# decision taken on them is the command's, look for look.

#: JSON → (the stored tables whose runs hold its games, with the rules that pick them), the rule
#: it changes (base → variant) and its questions
GARGON_ZEROS = ("zero_multiplier", 1, 2)
STORED_DECISIONS: dict[str, tuple[list[tuple[str, dict]], tuple, list]] = {
    **{
        f"gargon-zeros-compare-greedy-{p}p.json": (
            [(f"gargon-zeros-greedy-{p}p.parquet", {})],
            GARGON_ZEROS,
            [Effect("level:*", 0.03), Changes(0.05)],
        )
        for p in (3, 4, 5)
    },
    **{
        f"gargon-zeros-compare-{p}p.json": (
            [(f"gargon-zeros-compare-{p}p.parquet", {})],
            GARGON_ZEROS,
            [Effect("level:*", 0.03), Changes(0.05), Depends("level:*", 0.03)],
        )
        for p in (3, 4, 5)
    },
}
STORED_VERDICTS = {
    f"gargon-seats-ismcts-{p}p.json": f"gargon-seats-ismcts-{p}p.parquet" for p in (3, 4, 5)
}
DECIDED = ["level", "question", "decision", "deals", "games"]
ESTIMATED = ["estimate", "lo", "hi"]


#: stored JSONs that another test file checks
CHECKED_ELSEWHERE = {"search-crosscheck.json": "tests/test_search_crosscheck.py"}


def test_every_stored_decision_is_checked():
    kept = {p.name for p in results_dir().glob("*.json")} - set(CHECKED_ELSEWHERE)
    assert kept == set(STORED_DECISIONS) | set(STORED_VERDICTS), kept
    for name, test in CHECKED_ELSEWHERE.items():
        assert name in (results_dir().parents[1] / test).read_text(encoding="utf-8"), (name, test)


@pytest.mark.parametrize("name", sorted(STORED_DECISIONS))
def test_a_stored_comparison_decides_on_its_stored_games_as_the_command_did(name: str):
    import json

    from gamelib.verdict.stored import decide_comparison, paired_runs

    sources, (field, base, variant), questions = STORED_DECISIONS[name]
    played = pd.DataFrame(json.loads((results_dir() / name).read_text(encoding="utf-8")))
    pairs: dict[str, list[pd.DataFrame]] = {}
    for table, where in sources:
        pairs.update(paired_runs(load(results_dir() / table), field, base, variant, where))
    levels = list(dict.fromkeys(played.loc[played["question"] != "depends", "level"]))
    again = decide_comparison({lv: pairs[lv] for lv in levels}, questions, change="x")
    pd.testing.assert_frame_equal(again[DECIDED], played[DECIDED], check_dtype=False)
    pd.testing.assert_frame_equal(again[ESTIMATED], played[ESTIMATED], check_dtype=False)


@pytest.mark.parametrize("name", sorted(STORED_VERDICTS))
def test_a_stored_verdict_decides_on_its_stored_games_as_the_command_did(name: str):
    import json

    from gamelib.verdict import Fair, decide

    (row,) = json.loads((results_dir() / name).read_text(encoding="utf-8"))
    table = load(results_dir() / STORED_VERDICTS[name])
    again = decide([table], Fair(row["margin"]), level=row["level"])
    for k in [*DECIDED, *ESTIMATED]:
        assert again[k] == pytest.approx(row[k]) if k in ESTIMATED else again[k] == row[k], k
