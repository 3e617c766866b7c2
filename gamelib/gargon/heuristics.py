"""The constants of Gargon's greedy player, shared by the reference player
(:mod:`gamelib.gargon.players`) and the compiled core's greedy (:mod:`gamelib.gargon.kernel`),
which must value a card alike: they live here, below both, so neither imports the other."""

FOLLOW_CHANCE = 0.6  # how likely an opponent holding a colour is to put it on the table
BONUS_PER_CARD = 1.5  # what one more captured card of a colour is worth towards its bonus
LOSS_COST = 1.5  # a lost card is gone (the loser's draw gives a little of it back)
FUTURE_AMULETS = 3.0  # amulets a zero can still expect to double in a colour with none yet
