#!/usr/bin/env bash
# Re-make the skill ladders of notebooks 04 and 04b (`bash data/results/ladders.sh`; regenerate.sh
# runs it too). Measured on the 2-core machine: see notebook 04 and the README ("The skill ladder").
# Garner: TAG's ladder — random, one-step look-ahead (greedy), cautious, MCTS and an "elite" MCTS
# with twice the budget — each deal from both seats, with self-play; setup A adds the top rung
# solver:400 (mcts:400 that plays perfectly from 18 cards left, gamelib.garner.perfect). 300 deals
# per pairing on A, 150 on the standard setup and C (their search games take two to four times as
# long).
set -euo pipefail
cd "$(dirname "$0")/../.."
G=".venv/bin/gamelib"
OUT=data/results

LEVELS=random,greedy,cautious,mcts:200,mcts:400
COLS=winner,n_winners,reason,turns,score_0,score_1,win_0,win_1
$G ladder garner --setup A --players $LEVELS,solver:400 -n 300 --seed 2026 --columns $COLS --no-progress \
  --out $OUT/ladder-garner-a.parquet
$G ladder garner --setup standard --players $LEVELS -n 150 --seed 2026 --columns $COLS \
  --no-progress --out $OUT/ladder-garner-standard.parquet
$G ladder garner --setup C --must-move one --straight-line true --top-layer level \
  --players $LEVELS -n 150 --seed 2026 --columns $COLS --no-progress \
  --out $OUT/ladder-garner-c-one-true-level.parquet
COLS=winner,n_winners,reason,turns,rounds
for s in 0 1 2 3; do COLS=$COLS,score_$s,win_$s,zeros_$s,captured_$s; done
$G ladder gargon --setup 4p --players random,greedy,ismcts:100,ismcts:200 -n 150 --seed 2026 \
  --columns $COLS --no-progress --out $OUT/ladder-gargon-4p.parquet
$G ladder deck_the_yard --players random,greedy:claim_characters,rollout:50,oracle -n 2000 \
  --seed 2026 --columns winner,n_winners,reason,turns,score_0,win_0,won,claimed,blackouts \
  --no-progress --out $OUT/ladder-deck-the-yard.parquet
# the README's picture of the ladder
.venv/bin/python -c "import matplotlib; matplotlib.use('Agg')
from gamelib.ladder import matrix; from gamelib.plots import plot_matrix, theme; from gamelib.sim import load
theme(); ax = plot_matrix(matrix(load('$OUT/ladder-garner-a.parquet')))
ax.set_title(\"Garner A: row's share of the points against column (95% CI)\")
ax.figure.savefig('docs/ladder-garner-a.png', dpi=80, bbox_inches='tight')"
