"""What a Deck the Yard observation says about the position: the game's ``resample`` hook.

:func:`resample` is the future the compiled ``rollout`` player plays: the belief of
:func:`gamelib.deck_the_yard.search.belief_from_observation` (the unseen cards as the draw pile,
every pattern outside the row as candidates for the pattern deck) determinized by
:func:`~gamelib.deck_the_yard.search.determinize` from a SplitMix64 stream seeded from ``rng``,
handed back as a reference :class:`~gamelib.deck_the_yard.rules.DeckTheYardState` whose later
reshuffles draw from ``rng`` too — so gamelib's generic search (:mod:`gamelib.search`) plays
Deck the Yard through the protocol alone.

A reference state names cards by id where the kernel counts kinds: the belief's draw pile holds
the lowest ids of each kind and the pending card its kind's highest, so the cards the player
holds, has played or has discarded take the ids left of their kind. Which patterns were claimed
the observation does not say (it counts them); the determinization's unused candidates stand in
for them. Counters no observation shows start at 0.
"""

from __future__ import annotations

import random
from typing import Any

from gamelib.core import Chance
from gamelib.deck_the_yard.rules import DeckTheYardObservation, DeckTheYardState

__all__ = ["resample", "state_from_kernel"]


def state_from_kernel(obs: DeckTheYardObservation, st: Any, rng: random.Random) -> DeckTheYardState:
    """The reference state of kernel position ``st`` (a determinization of ``obs``); its later
    reshuffles draw from ``rng``."""
    from gamelib.deck_the_yard import kernel as k

    cfg = obs.config
    t = k.tables(cfg)
    p = t.params
    kinds = cfg.kinds()
    pile = st[p[k.O_PILE] : p[k.O_PILE] + st[k.N_PILE]].tolist()  # top card last
    pending = None if st[k.PENDING] < 0 else int(st[k.PENDING])
    taken = {*pile, *([] if pending is None else [pending])}
    spare: dict[str, list[int]] = {}  # ids of each kind for the cards the player has seen
    for c, kind in enumerate(kinds):
        if c not in taken:
            spare.setdefault(kind, []).append(c)

    def take(kind: str) -> int:
        return spare[kind].pop(0)

    state = DeckTheYardState.__new__(DeckTheYardState)
    state.config = cfg
    state.kind = kinds
    state._chance = Chance(rng)
    state.row = st[p[k.O_ROW] : p[k.O_ROW] + st[k.N_ROW]].tolist()
    state.deck = st[p[k.O_DECK] : p[k.O_DECK] + st[k.N_DECK]].tolist()  # top card last
    state.pile = pile
    state.hand = [take(kind) for kind in obs.hand]
    state.strand = list(obs.strand)
    state.strand_cards = [take(kind) for kind in obs.strand if kind is not None]
    outside = [x for x in range(len(cfg.patterns)) if x not in state.row and x not in state.deck]
    state.claimed = outside[: obs.claimed_patterns]
    state.claims = [[-1, x, -1] for x in state.claimed]
    state.characters = [take("character") for _ in range(obs.claimed_characters)]
    state.discard = [take(kind) for kind in obs.discard]
    state.out_of_play = []
    state.pending = pending
    state.phase = int(st[k.PHASE])
    state.turns = obs.turn
    state._start = {"patterns": [*state.row, *reversed(state.deck)], "draw_pile": pile[::-1]}
    state.counts = dict.fromkeys(k.COUNT_NAMES, 0)
    state.counts["events_drawn"] = int(st[k.EVENTS_DRAWN])
    state.counts["characters_drawn"] = int(st[k.CHARACTERS_DRAWN])
    state.blackout_turns = []
    state._legal = None
    return state


def resample(observation: DeckTheYardObservation, rng: random.Random) -> DeckTheYardState:
    """A whole position that agrees with ``observation``: the draw pile and the pattern deck
    dealt again uniformly (see the module docstring)."""
    import numpy as np

    from gamelib.deck_the_yard import kernel, search

    t = kernel.tables(observation.config)
    b = search.belief_from_observation(t, observation)
    rs = np.zeros(1, np.uint64)
    rs[0] = np.uint64(rng.getrandbits(64))
    st = np.empty_like(b)
    search.determinize(t, b, st, rs)
    return state_from_kernel(observation, st, random.Random(rng.getrandbits(63)))
