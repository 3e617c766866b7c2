"""The constants of Garner's heuristic players, shared by the reference players
(:mod:`gamelib.garner.players`) and their compiled twins (:mod:`gamelib.garner.kernel_players`),
which must value a position alike: they live here, below both, so neither imports the other."""

#: a suit already decided (more than half its cards collected by one seat) is worth this share
#: of its weight to the greedy players' estimate: its points are settled, a little of its cards'
#: value is left in denying them
DECIDED_SUIT_FACTOR = 0.1
