"""The vocabulary of Deck the Yard's greedy player, shared by the reference player
(:mod:`gamelib.deck_the_yard.players`) and the compiled core (:mod:`gamelib.deck_the_yard.kernel`),
which numbers the policies in this order: it lives here, below both, so neither imports the
other."""

#: the greedy player's plug policies (``greedy:POLICY``), in the compiled core's code order
POLICIES = ("save_for_events", "claim_characters", "protect_strand", "never")
