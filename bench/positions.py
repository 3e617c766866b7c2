"""The reference positions the benchmarks time (one place, so every bench row and every bench
module measures the same position)."""

from __future__ import annotations

import random

from gamelib.core import State
from gamelib.registry import GAMES


def mid_game(name: str, setup: str | None, seed: int = 2024) -> tuple[State, int, int]:
    """A reference position about halfway through a seeded random game: (state, moves made,
    moves in the whole game).  The same seed plays the game once to the end to learn its length,
    then again to half of it."""
    game = GAMES[name]
    cfg = game.config(setup)

    def play(stop: int | None) -> tuple[State, int]:
        rng = random.Random(seed)
        state = game.new_state(cfg, rng)
        made = 0
        while not state.is_over() and (stop is None or made < stop):
            state.apply(rng.choice(state.legal_moves()))
            made += 1
        return state, made

    _, length = play(None)
    state, made = play(length // 2)
    return state, made, length
