#!/usr/bin/env bash
# The commands that made the tables stored in data/results/ before the study cache existed, kept
# as their provenance (each table's own provenance names its runs). `make results` no longer runs
# this: it plays every notebook against an empty study cache and packs the search players' runs
# into data/results/studies/ (docs/guide/rerun.md). This script still works.
#
# Re-make every stored study in data/results/ with the commands the notebooks name
# (`make results`; a few minutes on 2 cores with the compiled cores, plus about 33 minutes
# on 2 idle cores for the skill ladders' search players, ladders.sh, and hours for the search
# players of notebooks 02 and 03, whose measured times are in the README). The Garner confirmation
# runs last: notebook 01 picks its shortlist from the new screen (garner_confirm.py).
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
# notebook 02: what x2 is worth, by intervention — greedy alone against zero-blind copies under
# x1 and x2 on the same deals, every deal from every seat (compiled: seconds), and the same
# comparison decided by gamelib compare (its JSON; tests/test_results.py checks that the
# notebook's decisions on the stored deals are the command's)
for p in 3 4 5; do
  k=$((p - 1))
  players=greedy$(printf ',greedy:ignore%.0s' $(seq 2 $p))
  keep=winner,n_winners,reason,turns,rounds
  for s in $(seq 0 $k); do keep=$keep,score_$s,win_$s,bonus_$s; done
  $G sweep gargon --setup ${p}p --zero-multiplier 1,2 --players "$players" --rotate-seats \
    -n 5000 --seed 2026 --columns $keep --no-progress --out $OUT/gargon-zeros-greedy-${p}p.parquet
  $G compare gargon --setup ${p}p --zero-multiplier 1 --variant zero-multiplier=2 \
    --players "greedy+greedy:ignore*$k" --question effect:level:* --question changes \
    --max-games $((p * 5000)) --seed 2026 --no-progress \
    --json $OUT/gargon-zeros-compare-greedy-${p}p.json
done
# ... and at the search level ismcts:200 against the same zero-blind copies, with depends (the
# long part: hours on 2 busy cores; a budget of 1,500 deals a level at 4 and 5 players, 1,600 at
# 3). Each comparison keeps its deals in a --resume folder, packed into one stored table.
RUNS=$(mktemp -d)
for p in 3 4 5; do
  k=$((p - 1))
  deals=$((p == 3 ? 1600 : 1500))
  nice -n 10 $G compare gargon --setup ${p}p --zero-multiplier 1 --variant zero-multiplier=2 \
    --players "greedy+greedy:ignore*$k,ismcts:200+greedy:ignore*$k" \
    --question effect:level:* --question changes --question depends:level:* \
    --max-games $((p * deals)) --seed 2026 --workers 2 --no-progress \
    --resume $RUNS/gargon-zeros-${p}p --json $OUT/gargon-zeros-compare-${p}p.json
  .venv/bin/python -m gamelib.verdict.stored $RUNS/gargon-zeros-${p}p \
    $OUT/gargon-zeros-compare-${p}p.parquet --columns rounds
done
# the seats: mirror games at the heuristic, and a fairness verdict at the search level ismcts:100
COLS=winner,n_winners,reason,turns,rounds
for s in 0 1 2 3 4; do COLS=$COLS,win_$s; done
$G sweep gargon --setup 3p,4p,5p --players greedy -n 20000 --seed 2026 --columns $COLS \
  --no-progress --out $OUT/gargon-seats-greedy.parquet
for p in 3 4 5; do
  nice -n 10 $G verdict gargon --setup ${p}p --players ismcts:100 --question fair --margin 0.05 \
    --max-games 1000 --seed 2026 --workers 2 --no-progress --resume $RUNS/gargon-seats-${p}p \
    --json $OUT/gargon-seats-ismcts-${p}p.json
  .venv/bin/python -m gamelib.verdict.stored $RUNS/gargon-seats-${p}p \
    $OUT/gargon-seats-ismcts-${p}p.parquet
done
rm -rf "$RUNS"

# notebooks 03, 03b and 03c: every player on the same seeds with and without the event cards and
# the broken bulbs (and under both hand_counts readings); the search player rollout:50 on 1,000 of
# them (half an hour on 2 busy cores); notebook 03 decides the cost verdicts on these tables
COLS=winner,n_winners,reason,turns,win_0,won,claimed,claimed_patterns,claimed_characters,blackouts
$G sweep deck_the_yard --events 3,0 --broken 5,0 --hand-counts cards,bulbs \
  --players "random;greedy;greedy:claim_characters;greedy:protect_strand;greedy:never" \
  -n 2000 --seed 2026 --no-progress \
  --columns $COLS,blackout_turn_1,blackout_turn_2,blackout_turn_3,strands_lost,events_cancelled,broken_cancelled \
  --out $OUT/deck-the-yard-interventions.parquet
nice -n 10 $G sweep deck_the_yard --events 3,0 --broken 5,0 --players rollout:50 -n 1000 --seed 2026 \
  --workers 2 --columns $COLS,strands_lost,events_cancelled,broken_cancelled --no-progress \
  --out $OUT/deck-the-yard-rollout.parquet
$G sweep deck_the_yard --plugs 4,8,12 \
  --players "greedy;greedy:claim_characters;greedy:protect_strand;greedy:never" \
  -n 1500 --seed 2026 --columns $COLS --no-progress --out $OUT/deck-the-yard-plugs.parquet

# the skill ladders of notebooks 04 and 04b (and the README's picture of the Garner A ladder)
bash data/results/ladders.sh

# notebook 01's confirmation: the notebook, at its committed parameters, picks its shortlist from
# the new screens and plays it into an empty study cache; garner_confirm.py writes those runs out
# (notebook 01b reads the same tables: its RULE_SETS are 01's shortlist, to be copied if it changes)
RUNS=$(mktemp -d)
GAMELIB_CACHE=$RUNS .venv/bin/papermill --engine gamelib -k python3 --cwd notebooks \
  notebooks/01-garner-fairness.ipynb "$RUNS/01.ipynb" -p MINUTES 30
GAMELIB_CACHE=$RUNS .venv/bin/python data/results/garner_confirm.py
rm -rf "$RUNS"

# the multi-fidelity searches of notebook 05 (its markdown shows the same commands): Optuna
# journals and the top's games in tune-*/ (a rerun on a finished folder reads it back, so the old
# folders go first); Gargon's at 4 players (tune-gargon) and at 5 players (tune-gargon-5p, where
# the original's stalls fail at ismcts:100 in notebook 06; greedy is not stronger than random at
# five players, so its screen asks no skill step); -p SAVE_FIGURE True draws docs/tuning.png
rm -rf $OUT/tune-garner $OUT/tune-gargon $OUT/tune-gargon-5p $OUT/tune-deck-the-yard
$G tune garner --setup A --space rows=3..4 cols=3..4 height=2..4 n_suits=2..4 \
  must_move=none,one,all straight_line=false,true top_layer=level,surface \
  forbidden_pile_size=none,4,5,6 "suit_weights[2]=0.5..1.5:0.25" \
  --goal fair:0.05 --constraint stalls:0.05 --constraint length:8..40 --constraint skill:0.03 \
  --rung cautious=400 --rung mcts:50=1000 --rung mcts:100=2000 --confirm-at mcts:200=4000/greedy \
  --budget 150 --keep 9 --eta 3 --seed 2026 --workers 2 --no-progress --storage $OUT/tune-garner
for players in 4p 5p; do
  if [ $players = 4p ]; then screen=greedy=1000/random; folder=tune-gargon
  else screen=greedy=1000; folder=tune-gargon-5p; fi
  $G tune gargon --setup $players --space "amulets[1]=0..8" "amulets[2]=0..8" "amulets[3]=0..8" \
    majority_bonus=0..20 shared_bonus=0..10 \
    --goal fair:0.05 --constraint stalls:0.05 --constraint skill:0.03 \
    --rung $screen --rung ismcts:10=300 --confirm-at ismcts:30=2000/greedy \
    --compare-games 0 --budget 60 --keep 4 --eta 3 --seed 2026 --workers 2 --no-progress \
    --storage $OUT/$folder
done
$G tune deck_the_yard --space plugs=4..12 characters=2..10 events=0..5 broken=0..8 \
  hand_size=4..7 win_threshold=5..10 \
  --goal target:0.3:0.05 --constraint stalls:0.05 --constraint skill:0.03 \
  --rung rollout:50=100 --rung rollout:50=600 \
  --confirm-at rollout:50=2400/greedy:claim_characters --compare-games 1200 \
  --budget 30 --keep 4 --eta 3 --seed 2026 --workers 2 --no-progress --storage $OUT/tune-deck-the-yard
.venv/bin/papermill -p SAVE_FIGURE True notebooks/05-tuning.ipynb /tmp/05.ipynb

# notebook 07: card worth at the search level (a searching holder against greedy opponents), its
# arms stored with their provenance; the notebook decides them from the file
$G worth gargon --setup 4p --cards --players "ismcts:100+greedy*3" --margin 0.03 \
  --max-deals 4000 --max-minutes 30 --workers 1 --seed 47 --no-progress \
  --table $OUT/worth-gargon-ismcts.parquet
# notebook 07 at its committed parameters: the greedy tables (values, the colour null, the values
# again on the next seed's fresh deals) and Deck the Yard's patterns, stored so the notebook
# decides them from the files (compiled, about a minute on 2 cores)
for cards in value colour; do
  suffix=$([ $cards = colour ] && echo -colours || true)
  $G worth gargon --setup 4p --cards $cards --players greedy --margin 0.01 --max-deals 3000 \
    --seed 47 --no-progress --table $OUT/worth-gargon-greedy$suffix.parquet
done
$G worth gargon --setup 4p --cards value --players greedy --margin 0.01 --max-deals 3000 \
  --seed 48 --no-progress --table $OUT/worth-gargon-greedy-seed48.parquet
$G worth deck_the_yard --cards pattern --players greedy:claim_characters --margin 0.02 \
  --max-deals 6000 --seed 47 --no-progress --table $OUT/worth-deck-the-yard-patterns.parquet
# the same pattern table at the search level (rollout:50, about 40 minutes on one core)
$G worth deck_the_yard --cards pattern --players rollout:50 --margin 0.02 --max-deals 2000 \
  --seed 47 --no-progress --workers 1 --table $OUT/worth-deck-the-yard-rollout.parquet
# notebook 07: option worth (restricted play) — each game's classes of moves forbidden to a
# greedy holder (Gargon also at the search level, and forced: always drawing three on a pass),
# every arm through the reference engine, stored so the notebook decides them from the files
$G worth gargon --setup 4p --options --players greedy --margin 0.03 --decisive 0.1 \
  --max-deals 2000 --seed 47 --no-progress --table $OUT/options-gargon-greedy.parquet
$G worth gargon --setup 4p --options draw-three --always --players greedy --margin 0.03 \
  --max-deals 2000 --seed 47 --no-progress --table $OUT/options-gargon-greedy-always.parquet
$G worth gargon --setup 4p --options --players "ismcts:100+greedy*3" --margin 0.03 \
  --decisive 0.1 --max-deals 300 --seed 47 --no-progress --table $OUT/options-gargon-ismcts.parquet
$G worth garner --setup C --options --players greedy --margin 0.03 --decisive 0.1 \
  --max-deals 2000 --seed 47 --no-progress --table $OUT/options-garner-c-greedy.parquet
$G worth deck_the_yard --options --players greedy:claim_characters --margin 0.03 \
  --decisive 0.1 --max-deals 4000 --seed 47 --no-progress \
  --table $OUT/options-deck-the-yard.parquet
