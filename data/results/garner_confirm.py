"""Write notebook 01's stored confirmation (data/results/garner-confirm-{greedy,cautious}.parquet)
from the runs its confirmation cell played into the study cache ``$GAMELIB_CACHE``: every run on
the notebook's ``CONFIRM_SEED``, one table per player type, each with the deals the notebook
played (regenerate.sh runs the notebook into an empty cache first, then this)."""

import json
import os
import sys
from pathlib import Path

import papermill

from gamelib.garner import GARNER
from gamelib.records import config_from_json
from gamelib.sim import combine, save, simulate

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "01-garner-fairness.ipynb"
CONFIRM_SEED = int(papermill.inspect_notebook(str(NOTEBOOK))["CONFIRM_SEED"]["default"])
# notebook 01's CONFIRM_COLS (set outside its parameters cell, where papermill's inspection cannot
# read it; notebook 01b asks for the same columns)
COLS = "winner n_winners reason turns win_0 win_1 score_0 score_1 suits_won_0 suits_won_1 cards_0"
COLS = [*COLS.split(), "cards_1", "decisions", "options", "multi_option_decisions"]
RULES = ("setup", "must_move", "straight_line", "top_layer")

root = Path(os.environ["GAMELIB_CACHE"]) / "deals" / "garner"
runs: dict[str, list[tuple[dict, int]]] = {}
for folder in sorted(root.iterdir()):
    spec = json.loads((folder / "run.json").read_text())
    played = [int(p.stem.split("-")[2]) for p in folder.glob("part-*.parquet")]
    if spec["seed"] == CONFIRM_SEED and played:
        runs.setdefault(spec["players"][0], []).append((spec, max(played)))
if not runs:
    sys.exit(f"no confirmation run on seed {CONFIRM_SEED} in {root}: run notebook 01 into it first")
for player, held in sorted(runs.items()):
    held.sort(key=lambda sn: [str(sn[0]["config"][k]) for k in RULES])
    tables = [
        simulate(
            config_from_json(GARNER, spec["config"]),
            spec["players"],
            n,
            CONFIRM_SEED,
            cache=True,
            columns=COLS,
            progress=False,
        )
        for spec, n in held
    ]
    out = save(combine(tables), f"data/results/garner-confirm-{player}.parquet")
    print(f"{out}: {len(held)} rule sets, {sorted({n for _, n in held})} deals each")
