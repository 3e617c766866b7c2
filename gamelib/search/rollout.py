"""Flat Monte-Carlo over the protocol (``rollout``): every legal move tried in the same
futures, continued by a player of the game to the end.

Each of ``N`` futures is a determinization (the position itself when the seat sees
everything; else the game's ``resample(observation, rng)``) with its own seed; every legal move
is played in each future (common random numbers: the same deal and the same continuation
streams for every move), and the game goes on with the continuation player on every seat, which
sees only its own observations. A future is worth the seat's score plus its points (a sole win
1, a win shared by k 1/k; nobody winning 1/n), so futures that all lose still rank by how much
they score — a solitaire's claimed cards, say, plus one for a win. The move with the highest
total is taken (ties: the first in legal order). This is the simplest Monte-Carlo player
(Abramson 1990, "Expected-outcome: a general model of static evaluation", IEEE TPAMI 12(2));
with an observation-only continuation it is a determinized (PIMC) search.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from gamelib.core import Move, Player, State
from gamelib.search.tree import Determinize, points

__all__ = ["continue_game", "rollout_values"]


def continue_game(state: State, policy: Player, seed: int) -> None:
    """Play ``state`` to the end with ``policy`` on every seat, each seat's random stream seeded
    from ``seed`` (a forced move asks no player)."""
    rngs: dict[int, random.Random] = {}
    look = getattr(policy, "observes", True)
    while not state.is_over():
        legal = state.legal_moves()
        if len(legal) == 1:
            state.apply(legal[0])
            continue
        seat = state.current_player()
        r = rngs.get(seat)
        if r is None:
            r = rngs[seat] = random.Random(seed * 31 + seat)
        obs = state.clone() if look == "state" else state.observation(seat) if look else None
        state.apply(policy(obs, legal, r))


def rollout_values(
    observation: Any,
    legal: Sequence[Move],
    seat: int,
    futures: int,
    policy: Player,
    determinize: Determinize,
    rng: random.Random,
) -> list[float]:
    """Per legal move, its futures' summed worth for ``seat`` (score plus points)."""
    totals = [0.0] * len(legal)
    for _ in range(futures):
        deal_seed = rng.getrandbits(63)
        play_seed = rng.getrandbits(63)
        for k, move in enumerate(legal):
            state = determinize(observation, random.Random(deal_seed))
            state.apply(move)
            continue_game(state, policy, play_seed)
            outcome = state.outcome()
            totals[k] += outcome.scores[seat] + points(outcome, state.n_players)[seat]
    return totals
