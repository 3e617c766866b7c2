"""What a Gargon seat's observation says about the position: the game's ``resample`` hook.

:func:`resample` deals every number the seat cannot see again, within its colour, uniformly
among the cards it has not seen — exactly the determinization the compiled ``ismcts`` player
searches (:func:`gamelib.gargon.search.template` and :func:`~gamelib.gargon.search.determinize`,
drawn from a SplitMix64 stream seeded from ``rng``) — and hands it back as a reference
:class:`~gamelib.gargon.rules.GargonState`, so gamelib's generic information-set search
(:mod:`gamelib.search`) plays Gargon through the protocol alone. As the compiled search's, the
determinization is made from the observation alone: the seat's own face-down cards, which the
observation shows by colour only, are dealt again too, and nothing is inferred from how the
other seats have played. Counters no observation shows (battles, ties, draws taken) start at 0.

The kernel is imported on first use, so ``import gamelib.gargon`` stays light.
"""

from __future__ import annotations

import random
from typing import Any

from gamelib.core import Chance
from gamelib.gargon.rules import (
    N_CARDS,
    PHASE_NAMES,
    SHAPES,
    GargonObservation,
    GargonState,
)

__all__ = ["resample", "state_from_kernel"]


def state_from_kernel(obs: GargonObservation, st: Any) -> GargonState:
    """The reference state of kernel position ``st`` (a determinization of ``obs``; the
    observation supplies what the kernel does not keep: who has acted and passed)."""
    from gamelib.gargon import kernel as k

    cfg = obs.config
    n = cfg.n_players
    loc = st[k.O_LOC : k.O_LOC + N_CARDS].tolist()
    hands: list[list[int]] = [[] for _ in range(n)]
    table: list[list[int]] = [[] for _ in range(n)]
    captured: list[list[int]] = [[] for _ in range(n)]
    discard: list[int] = []
    for c, where in enumerate(loc):
        if 0 <= where < k.L_TABLE:
            hands[where].append(c)
        elif k.L_TABLE <= where < k.L_CAPTURED:
            table[where - k.L_TABLE].append(c)
        elif k.L_CAPTURED <= where < k.L_DISCARD:
            captured[where - k.L_CAPTURED].append(c)
        elif where == k.L_DISCARD:
            discard.append(c)
    piles = [  # bottom first, as both engines keep them
        st[k.O_PILE0 : k.O_PILE0 + st[k.PILE_N0]].tolist(),
        st[k.O_PILE1 : k.O_PILE1 + st[k.PILE_N1]].tolist(),
    ]
    state = GargonState(cfg, hands, piles, Chance(None))
    state.table = table
    state.captured = captured
    state.discard = discard
    state.lead = int(st[k.LEAD])
    state.order = [(state.lead + i) % n for i in range(n)]
    state.pos = int(st[k.POS])
    state.passed = list(obs.passed)
    state.acted = list(obs.acted)
    state.shape = None if st[k.SHAPE] < 0 else SHAPES[int(st[k.SHAPE])]
    state.turned_up = bool(st[k.TURNED_UP])
    state.phase = int(st[k.PHASE])
    state.to_move = int(st[k.TO_MOVE])
    head = int(st[k.DQ_HEAD])
    state.draw_queue = [
        [
            int(st[k.O_DQ_SEAT + i]),
            int(st[k.O_DQ_COUNT + i]),
            "pass" if st[k.O_DQ_KIND + i] == k.KIND_PASS else "lose",
        ]
        for i in range(head, head + int(st[k.DQ_LEN]))
    ]
    state.resolving = None if st[k.RESOLVING] < 0 else int(st[k.RESOLVING])
    state.rounds = int(st[k.ROUNDS])
    assert PHASE_NAMES[state.phase] == obs.phase
    return state


def resample(observation: GargonObservation, rng: random.Random) -> GargonState:
    """A whole position that agrees with ``observation`` (at its seat's own decision), every
    number the seat cannot see dealt again within its colour, uniformly (see the module
    docstring)."""
    import numpy as np

    from gamelib.gargon import search

    tp = search.template(observation)
    rs = np.zeros(1, np.uint64)
    rs[0] = np.uint64(rng.getrandbits(64))
    st = np.empty_like(tp.base)
    scratch = np.empty(N_CARDS, np.int64)
    search.determinize(*tp, rs, st, scratch)
    return state_from_kernel(observation, st)
