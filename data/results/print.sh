#!/usr/bin/env bash
# The verdict tables of notebook 06 (what to print): for each game, the designer's original rule
# set and the recommended one(s), every question at every level of the ladder on fresh seeds
# (2028), every game stored with its provenance (`gamelib verdict --table`), so notebook 06
# decides the same table again from the files (gamelib.verdict.redecide) and
# tests/test_results.py re-simulates their first games. regenerate.sh runs this script too.
set -euo pipefail
cd "$(dirname "$0")/../.."
G=".venv/bin/gamelib"
OUT=data/results
SEED=2028
# finished deals are kept here (not in git): an interrupted run resumes where it stopped
PARTS=${PRINT_PARTS:-${TMPDIR:-/tmp}/gamelib-print-parts}

# Garner: fair within ±0.05 (a quick screen's margin: ±0.03 would need about 5,300 deals of
# mcts:200 per level on an even rule set), stalls below 0.05, median length 10–60 turns, and
# each level stronger than the one below it by at least 0.05
GARNER_Q="--question fair --question stalls --question length --turns 10,60 --question skill --margin 0.05"
GARNER_LEVELS=random,greedy,cautious,mcts:200
garner() {  # NAME RULE-FLAGS...
  local name=$1; shift
  $G verdict garner "$@" --players $GARNER_LEVELS $GARNER_Q --max-games 12000 --seed $SEED \
    --no-progress --resume "$PARTS/garner-$name" --table $OUT/print-garner-$name.parquet
}
garner standard --setup standard
garner c-one-true-level --setup C --must-move one --straight-line true --top-layer level

# Gargon: every seat within its fair share ± 0.05, stalls below 0.05, median length 5–20 rounds
# (Gargon's turns are its rounds), and each level stronger than the one below it (alone against
# copies of it) by at least 0.05; the search level at every player count
GARGON_Q="--question fair --question stalls --question length --turns 5,20 --question skill --margin 0.05"
gargon() {  # NAME LEVELS RULE-FLAGS...
  local name=$1 levels=$2; shift 2
  $G verdict gargon "$@" --players $levels $GARGON_Q --max-games 12000 --seed $SEED \
    --no-progress --resume "$PARTS/gargon-$name" --table $OUT/print-gargon-$name.parquet
}
gargon 4p random,greedy,ismcts:100 --setup 4p
gargon 3p random,greedy,ismcts:100 --setup 3p
gargon 5p random,greedy,ismcts:100 --setup 5p
# notebook 05's five-player finalist (data/results/tune-gargon-5p), at 06's ladder
gargon 5p-tuned random,greedy,ismcts:100 --setup 5p --majority-bonus 19 --shared-bonus 7 \
  --amulets 0,0,0,6,3,3,3,2,2,2,1,1,1,0,0,0

# Deck the Yard: the designer's target, a win rate of 0.30 ± 0.05, at the level it is meant for
# (rollout:50, a careful player), stalls below 0.05, and each level winning at least 0.05 more
# often than the one below it; a solitaire's length is set by its deck, so it is not asked
DTY_Q="--question target --target 0.30 --question stalls --question skill --margin 0.05"
dty() {  # NAME RULE-FLAGS...
  local name=$1; shift
  $G verdict deck_the_yard "$@" --players random,greedy:claim_characters,rollout:50 $DTY_Q \
    --max-games 12000 --seed $SEED --no-progress --resume "$PARTS/deck-the-yard-$name" \
    --table $OUT/print-deck-the-yard-$name.parquet
}
dty original
