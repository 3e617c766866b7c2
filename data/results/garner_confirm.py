"""Write notebook 01's stored confirmation (data/results/garner-confirm-{greedy,cautious}.parquet)
from the runs its confirmation cell played into the study cache ``$GAMELIB_CACHE``: every run of
a strong player type on ``CONFIRM_SEED``, one table per player type (regenerate.sh runs the
notebook into an empty cache first, then this)."""

import json
import os
import sys
from pathlib import Path

from gamelib.garner import GARNER
from gamelib.records import config_from_json
from gamelib.sim import combine, save, simulate

CONFIRM_SEED = 2027  # notebook 01's CONFIRM_SEED
N_CONFIRM = 2525  # notebook 01's deals a rule set (HALF_WIDTH 0.02, MAX_UNDECIDED 0.05)
COLS = [
    "winner",
    "n_winners",
    "reason",
    "turns",
    "win_0",
    "win_1",
    "score_0",
    "score_1",
    "suits_won_0",
    "suits_won_1",
    "cards_0",
    "cards_1",
    "decisions",
    "options",
    "multi_option_decisions",
]  # notebook 01's CONFIRM_COLS
RULES = ("setup", "must_move", "straight_line", "top_layer")

root = Path(os.environ["GAMELIB_CACHE"]) / "deals" / "garner"
for player in ("greedy", "cautious"):
    specs = [json.loads(f.read_text()) for f in sorted(root.glob("*/run.json"))]
    specs = [s for s in specs if s["seed"] == CONFIRM_SEED and s["players"] == [player, player]]
    if not specs:
        sys.exit(f"no {player} confirmation run in {root}: run notebook 01 into this cache first")
    specs.sort(key=lambda s: [str(s["config"][k]) for k in RULES])
    tables = [
        simulate(
            config_from_json(GARNER, s["config"]),
            [player, player],
            N_CONFIRM,
            CONFIRM_SEED,
            cache=True,
            columns=COLS,
            progress=False,
        )
        for s in specs
    ]
    out = save(combine(tables), f"data/results/garner-confirm-{player}.parquet")
    print(f"{out}: {len(specs)} rule sets, {N_CONFIRM} deals each")
