#!/usr/bin/env bash
# Re-make every stored study in data/results/ with the commands the notebooks name
# (`make results`; a few minutes on 2 cores with the compiled cores, plus about 33 minutes
# on 2 idle cores for the skill ladders' search players, ladders.sh). The Garner confirmation
# runs last: notebook 01 picks its shortlist from the new screen (papermill -p CONFIRM_RUN True).
set -euo pipefail
cd "$(dirname "$0")/../.."
G=".venv/bin/gamelib"
OUT=data/results

COLS=winner,n_winners,reason,turns,win_0,win_1,decisions,options,multi_option_decisions
for spec in "random 1000" "greedy 300" "cautious 150"; do
  set -- $spec
  $G sweep garner --setup standard,A,B,C,D,E --must-move none,one,all --straight-line false,true \
    --top-layer level,surface --players "$1" -n "$2" --seed 2026 --columns $COLS --no-progress \
    --out $OUT/garner-fairness-$1.parquet
done

COLS=winner,n_winners,reason,turns,rounds
for s in 0 1 2 3 4; do COLS=$COLS,score_$s,win_$s,amulets_$s,bonus_$s,zeros_$s,captured_$s; done
$G sweep gargon --setup 3p,4p,5p --zero-multiplier 1,2,3 --players random -n 3000 --seed 2026 \
  --columns $COLS --no-progress --out $OUT/gargon-zeros-random.parquet
$G sweep gargon --setup 3p,4p,5p --amulets 0,3,3,3,3,3,3,3,3,3,3,3,3,0,0,0 --players random \
  -n 3000 --seed 2026 --columns $COLS --no-progress --out $OUT/gargon-zeros-flat-amulets.parquet
players=greedy
for p in 3 4 5; do
  players=greedy$(printf ',greedy:ignore%.0s' $(seq 2 $p))
  keep=winner,n_winners,reason,turns,rounds
  for s in $(seq 0 $((p - 1))); do keep=$keep,score_$s,win_$s,amulets_$s,bonus_$s,zeros_$s,captured_$s; done
  $G simulate gargon --setup ${p}p --players "$players" --rotate-seats -n 1000 --seed 2026 \
    --columns $keep --no-progress --out $OUT/gargon-zeros-greedy-${p}p.parquet
done

COLS=winner,n_winners,reason,turns,won,claimed,claimed_patterns,claimed_characters,blackouts
$G sweep deck_the_yard --events 3,0 --broken 5,0 --hand-counts cards,bulbs \
  --players "random;greedy;greedy:claim_characters;greedy:protect_strand;greedy:never" \
  -n 2000 --seed 2026 --no-progress \
  --columns $COLS,blackout_turn_1,blackout_turn_2,blackout_turn_3,strands_lost,events_cancelled,broken_cancelled \
  --out $OUT/deck-the-yard-interventions.parquet
$G sweep deck_the_yard --plugs 4,8,12 \
  --players "greedy;greedy:claim_characters;greedy:protect_strand;greedy:never" \
  -n 1500 --seed 2026 --columns $COLS --no-progress --out $OUT/deck-the-yard-plugs.parquet

# the skill ladders of notebook 04 (and the README's picture of the Garner A ladder)
bash data/results/ladders.sh

.venv/bin/papermill -p CONFIRM_RUN True notebooks/01-garner-fairness.ipynb /tmp/01-confirm.ipynb

# the multi-fidelity tuning searches of notebook 05 (issue 22): each folder holds the screen's
# Optuna journal, games.parquet (every rung's and the top's games, with provenance) and
# ladder.json (the verdicts and the recommendation); a rerun on a finished folder reads it back,
# so the old folder goes first. Run times on 2 busy cores (load 8-11, niced, 2 workers):
# garner ~, gargon ~, deck_the_yard ~ (each folder's ladder.json keeps its stages' seconds).
# -p SAVE_FIGURE True draws the README's docs/tuning.png
rm -rf $OUT/tune-garner $OUT/tune-gargon $OUT/tune-deck-the-yard
$G tune garner --setup A --space rows=3..4 cols=3..4 height=2..4 n_suits=2..4 \
  must_move=none,one,all straight_line=false,true top_layer=level,surface \
  forbidden_pile_size=none,4,5,6 "suit_weights[2]=0.5..1.5:0.25" \
  --goal fair:0.05 --constraint stalls:0.05 --constraint length:8..40 --constraint skill:0.03 \
  --rung cautious=400 --rung mcts:50=1000 --rung mcts:100=2000 --confirm-at mcts:200=4000/greedy \
  --budget 150 --keep 9 --eta 3 --seed 2026 --workers 2 --no-progress --storage $OUT/tune-garner
$G tune gargon --setup 4p --space "amulets[1]=0..8" "amulets[2]=0..8" "amulets[3]=0..8" \
  majority_bonus=0..20 shared_bonus=0..10 \
  --goal fair:0.05 --constraint stalls:0.05 --constraint skill:0.03 \
  --rung greedy=1000/random --rung ismcts:10=300 --confirm-at ismcts:30=2000/greedy \
  --compare-games 0 --budget 60 --keep 4 --eta 3 --seed 2026 --workers 2 --no-progress \
  --storage $OUT/tune-gargon
$G tune deck_the_yard --space plugs=4..12 characters=2..10 events=0..5 broken=0..8 \
  hand_size=4..7 win_threshold=5..10 \
  --goal target:0.3:0.05 --constraint stalls:0.05 --constraint skill:0.03 \
  --rung rollout:50=100 --rung rollout:50=600 \
  --confirm-at rollout:50=2400/greedy:claim_characters --compare-games 1200 \
  --budget 30 --keep 4 --eta 3 --seed 2026 --workers 2 --no-progress \
  --storage $OUT/tune-deck-the-yard
.venv/bin/papermill -p SAVE_FIGURE True notebooks/05-tuning.ipynb /tmp/05-figure.ipynb

# notebook 06 (what to print): every candidate rule set through gamelib verdict at every level
bash data/results/print.sh
