"""Garner's search player ``mcts:N``: UCT Monte-Carlo tree search over the engine's decisions.

*Why one file (630 lines):* numba's on-disk cache is keyed on the file a jitted function lives
in and does not follow calls into other files (a cached caller keeps the old code of a callee
edited elsewhere), so the jitted functions that call one another in the hot loop stay in one
module, compiled, cached and invalidated as one unit.

The tree is over the kernel's sub-decisions — lift a number_group, place each lifted card,
collect a suit_group, leave a card behind — exactly ``kernel.legal``'s options in the reference
``legal_moves()`` order, so option ``k`` of a node is ``legal[k]`` of the position. Each decision
gets a fresh search of ``N`` iterations from the current position:

1. **select**: from the root, while a node has tried as many children as it may, follow the
   tried child with the highest UCT value ``mean + C·sqrt(ln visits(node) / visits(child))``;
   the mean is the reward of the seat that *makes* the child's decision (the kernel state's
   ``TO_MOVE`` at the node), so the several sub-decisions of one turn all count for the same
   seat;
2. **expand**: the first time a node is reached its legal decisions become its children, and an
   untried one is taken (at random). The root tries all its children. With greedy playouts a
   node below the root tries greedy's own decision first and at most ``ceil(sqrt(visits))`` of
   its children (progressive widening): a lift is then judged by good placements, not by the
   average of every placement of its first card;
3. **play out**: from there with the playout policy (``greedy``, the default: the compiled
   greedy of :mod:`gamelib.garner.kernel_players` on both seats; ``random``: uniform), to the
   end of the game or, with a cut-off of ``CUTOFF`` turns (greedy's default: 2, this turn and
   the opponent's reply; random's: 0, no cut-off), until the game's turn count is ``CUTOFF``
   past the *leaf* (rounded up by one turn where needed so every estimate is taken with the
   same seat to move as at the root's own horizon) — so the horizon deepens as the tree grows,
   and a larger budget sees further — and then the material estimate below;
4. **back up**: each seat's reward is added to the visited nodes, each node keeping the reward
   of the seat that moved into it. A finished game gives ``RESULT_WEIGHT`` (0.8) of the result
   (win 1, draw 0.5 — a ``turn_limit`` stall is a draw — loss 0) plus 0.2 of the seats' card
   share, so lines that all lose still rank by how much they lose by.

**Tree reuse** (``:reuse`` at the end of the spec, e.g. ``mcts:1000:reuse``): a turn is several
sub-decisions of one seat (lift, each placement, collect), and by default each gets a fresh tree.
With reuse the player keeps the tree: when the position is the one its last decision led to
(same turn and seat, :func:`~gamelib.garner.kernel.same_position`), the search starts at that
decision's node, with its visits, values and subtree, and adds ``N`` iterations there (the node
acts as the root: every child is tried, no widening). The opponent's turn starts a fresh tree.

The decision taken is the root child visited most (ties: the higher mean, then the first in
legal order). The player's search stops early once that child leads every other by more than
the iterations left — no later iteration could change the decision, so the moves are exactly
those of the full budget, 18–34 % sooner (measured on 425 decisions of setups A and standard at
400 and 1,600 iterations; ``root_children``, which reports visit counts, always runs the full
budget). A position with one legal decision is answered without searching. The player
remembers its own lift, so the searches for that lift's placements give their greedy playouts
the lift's plan.

**Material estimate** (cut-off playouts): ``0.5 + 0.5·tanh(lead / 4)``, the lead counted in
weighted cards: an open suit counts the seats' difference in it, a suit already won (more than
half its cards) a full majority to its winner. Its differences are a few hundredths, so the
exploration constant is small (greedy's default C = 0.1; random's, with win/loss rewards, 0.5).

Layout, shaped for speed: the tree is two preallocated arrays (``nodes[i, F_*]`` ints,
``value[i]`` floats) that double when full; nodes hold no positions — each iteration copies the
root's state vector and re-applies the path's decisions (a handful of O(sites) ``apply`` calls,
so a node is nine numbers whatever the position). A node's untried children sit at the end of its
child block; taking one swaps it forward, so every child keeps its legal-order ``F_INDEX``.

Random numbers: the search seed (drawn by :class:`MCTSPlayer` from its seat's ``rng``) starts
three SplitMix64 streams (``kernel.rng_streams``): stream 0 picks untried children, stream
``1 + seat`` plays that seat in playouts. Same seed, same position → same decision.

Caching: numba's on-disk cache notices edits to this file only; the module ends with
:func:`gamelib.jit_cache.guard`, which empties its cache when ``kernel.py``,
``kernel_players.py`` or any other file it imports has changed, so nothing stale is loaded.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from gamelib.core import ConfigError, Move
from gamelib.garner.kernel import (
    N_SITES,
    N_SUITS,
    O_PILE,
    PHASE,
    REASON,
    TO_MOVE,
    TURN_LIMIT,
    TURNS,
    W_OUT,
    apply,
    from_reference,
    legal,
    new_work,
    rng_streams,
    same_position,
)
from gamelib.garner.kernel_players import (
    P_AVOID0,
    P_AVOID1,
    P_PLAN,
    greedy_decision,
    new_player_work,
    plan_lift,
    player_tables,
)
from gamelib.garner.rules import LIFT, OVER, PLACE, GarnerState
from gamelib.jit_cache import guard, njit_borrowing
from gamelib.kernel_rng import rng_below

# playout policies
RANDOM, GREEDY = 0, 1
POLICIES = {"random": RANDOM, "greedy": GREEDY}

# The defaults, measured (mcts:200 against greedy, seats rotated, share of games won).
# Full greedy playouts with win/draw/loss rewards, C = 0.5 (the first version): 0.63 in A
# (300 deals) but 0.05 in standard (30 deals) — standard's long games made every playout's
# result noise, and all-losing lines could not be told apart. Rewards that add the card share
# (RESULT_WEIGHT) took standard to 0.20. Cut-off playouts scored by a graded material estimate,
# all cut at the same turn, with a small C (the estimate's differences are a few hundredths,
# which C = 0.5 drowns): cut-off 2, C = 0.1 scores 0.85 in standard (30 deals) and 0.72 in A
# (60 deals); C = 0.25 0.83; cut-off 4 0.79 in A, and it loses 0.42 to cut-off 2 in standard.
# Cut-off 2 is also 5× cheaper than full playouts in standard (mcts:1000: 28 against 160 ms).
# Those cut-offs were counted from the searched position, and the tree stopped there too: the
# search never looked more than two turns ahead whatever its budget, and its strength did not
# grow with it (issue 21: mcts:400 v mcts:200 0.500 [0.460, 0.540] in A). Counted from the
# leaf, in A: mcts:200 v the root-horizon mcts:200 0.567 [0.517, 0.616] (150 deals, both
# seats), mcts:200 v mcts:50 0.573 [0.535, 0.612], mcts:800 v mcts:200 0.555 [0.509, 0.601].
# Random playouts lose to greedy at these budgets (mcts:200:random 0.15 of 100 games in A,
# mcts:1000:random 0.40 of 60); they keep full playouts and C = 0.5 by default.
DEFAULT_POLICY = "greedy"
DEFAULT_CUTOFF = {"greedy": 2, "random": 0}
DEFAULT_C = {"greedy": 0.1, "random": 0.5}
RESULT_WEIGHT = 0.8
"""A finished playout's reward: this share is the result (win 1, draw ½, loss 0), the rest the
seats' card share, so lines that all lose (or all win) still rank by how much."""
MATERIAL_SCALE = 4.0
"""The material estimate's lead (in weighted cards) that scores tanh(1) ≈ 0.76 of a win."""

# the int fields of a tree node (``nodes[i, F_*]``)
F_PARENT, F_INDEX, F_MOVE, F_MOVER, F_FIRST, F_N_CHILD, F_N_TRIED, F_VISITS = range(8)
N_FIELDS = 8


# --- rewards --------------------------------------------------------------------------------


@njit_borrowing
def final_reward(t: Any, st: Any) -> float:
    """End and result, as seat 0's reward: win 1, draw 0.5 (turn_limit included), loss 0."""
    if st[REASON] == TURN_LIMIT:
        return 0.5
    p = t.params
    n_suits = p[N_SUITS]
    s0 = s1 = 0.0
    for u in range(n_suits):
        a = st[p[O_PILE] + u]
        b = st[p[O_PILE] + n_suits + u]
        if a > b:
            s0 += t.weights[u]
        elif b > a:
            s1 += t.weights[u]
    return 1.0 if s0 > s1 else 0.0 if s1 > s0 else 0.5


@njit_borrowing
def card_share(t: Any, suit_total: Any, st: Any) -> float:
    """Seat 0's weighted share of the cards collected, in [0, 1]: 0.5 + 0.5·Σ wᵤ·(aᵤ − bᵤ)/nᵤ
    / Σ wᵤ over suits u of nᵤ cards, a and b the seats' piles."""
    p = t.params
    n_suits = p[N_SUITS]
    diff = 0.0
    total = 0.0
    for u in range(n_suits):
        a = st[p[O_PILE] + u]
        b = st[p[O_PILE] + n_suits + u]
        w = t.weights[u]
        total += w
        diff += w * (a - b) / suit_total[u]
    return 0.5 + 0.5 * diff / total if total > 0 else 0.5


@njit_borrowing
def end_reward(t: Any, suit_total: Any, st: Any) -> float:
    """Seat 0's reward for a finished game: ``RESULT_WEIGHT`` of the result (``final_reward``)
    and the rest of the card share (``card_share``), so lines that all lose (or all win) still
    rank by how much they lose by."""
    return RESULT_WEIGHT * final_reward(t, st) + (1.0 - RESULT_WEIGHT) * card_share(
        t, suit_total, st
    )


@njit_borrowing
def material(t: Any, suit_total: Any, st: Any) -> float:
    """The material estimate of an unfinished game, as seat 0's reward in (0, 1):
    ``0.5 + 0.5·tanh(lead / MATERIAL_SCALE)``, the lead counted in weighted cards — an open suit
    counts the seats' difference in it, a suit won (more than half its n cards) counts a full
    majority, n // 2 + 1 cards, to its winner."""
    p = t.params
    n_suits = p[N_SUITS]
    lead = 0.0
    for u in range(n_suits):
        a = st[p[O_PILE] + u]
        b = st[p[O_PILE] + n_suits + u]
        w = t.weights[u]
        if 2 * a > suit_total[u]:
            lead += w * (suit_total[u] // 2 + 1)
        elif 2 * b > suit_total[u]:
            lead -= w * (suit_total[u] // 2 + 1)
        else:
            lead += w * (a - b)
    return 0.5 + 0.5 * math.tanh(lead / MATERIAL_SCALE)


# --- playouts -------------------------------------------------------------------------------


@njit_borrowing
def playout(
    t: Any,
    pt: Any,
    st: Any,
    policy: int,
    cutoff: int,
    work: Any,
    pw: Any,
    fv: Any,
    rs: Any,
    pre: Any,
    lift_k: int,
    stop: int,
) -> float:
    """Play ``st`` on with ``policy`` on both seats (seat k draws from stream ``1 + k``) to the
    end, or with a cut-off (``cutoff`` > 0) until the game's turn count reaches ``stop``;
    returns seat 0's reward.

    Greedy keeps a plan from its lift for its placements. A playout that starts while this
    turn's cards are being placed gets the plan greedy would have made for the tree's lift
    (option ``lift_k`` of position ``pre``; ``lift_k`` < 0: none known, place anywhere safe).
    """
    for j in range(4):
        pw[P_PLAN, j] = -1
    pw[P_AVOID0, :] = 0
    pw[P_AVOID1, :] = 0
    if policy == GREEDY and lift_k >= 0 and st[PHASE] == PLACE:
        plan_lift(t, pt, pre, pre[TO_MOVE], lift_k, work, pw, fv)
    while st[PHASE] != OVER:
        if cutoff > 0 and st[TURNS] >= stop and st[PHASE] == LIFT:
            return material(t, pt.suit_total, st)
        n = legal(t, st, work)
        if n == 0:
            raise RuntimeError("garner search: no legal decision in an unfinished game")
        if policy == GREEDY:
            d = greedy_decision(t, pt, st, n, work, pw, fv, rs, 0)
        else:
            d = work[W_OUT, 0 if n == 1 else rng_below(rs, 1 + st[TO_MOVE], n)]
        apply(t, st, d, work)
    return end_reward(t, pt.suit_total, st)


# --- the tree -------------------------------------------------------------------------------


@njit_borrowing
def _greedy_choice(
    t: Any, pt: Any, st: Any, pre: Any, lift_k: int, work: Any, pw: Any, fv: Any, rs: Any
) -> int:
    """Greedy's decision at ``st`` (placing with the plan of lift ``lift_k`` of ``pre``, as in
    ``playout``)."""
    for j in range(4):
        pw[P_PLAN, j] = -1
    pw[P_AVOID0, :] = 0
    pw[P_AVOID1, :] = 0
    if lift_k >= 0 and st[PHASE] == PLACE:
        plan_lift(t, pt, pre, pre[TO_MOVE], lift_k, work, pw, fv)
    n = legal(t, st, work)
    return int(greedy_decision(t, pt, st, n, work, pw, fv, rs, 0))


@njit(cache=True)
def _grow(nodes: Any, value: Any, need: int) -> Any:
    """The tree's arrays with room for at least ``need`` nodes (doubling)."""
    cap = len(value)
    while cap < need:
        cap *= 2
    grown = np.zeros((cap, N_FIELDS), np.int64)
    grown[: len(value)] = nodes
    more = np.zeros(cap, np.float64)
    more[: len(value)] = value
    return grown, more


@njit(cache=True)
def search_tree(
    t: Any,
    pt: Any,
    root: Any,
    pre0: Any,
    lift_k0: int,
    iterations: int,
    policy: int,
    cutoff: int,
    c: float,
    seed: int,
    early: bool = False,
) -> Any:
    """Run ``iterations`` UCT iterations from position ``root`` (see the module docstring);
    returns ``(nodes, value, n_nodes)``: node 0 is the root, its children (``F_FIRST``,
    ``F_N_CHILD``) the root's legal decisions. ``pre0``/``lift_k0``: the position before this
    turn's lift and the lift's option index, when the root is a placement of that lift
    (``lift_k0`` < 0: not known), so greedy playouts follow the lift's plan."""
    cap = 1 + (iterations + 1) * min(t.params[N_SITES], 8)
    nodes = np.zeros((cap, N_FIELDS), np.int64)
    value = np.zeros(cap, np.float64)
    nodes[0, F_PARENT] = -1
    nodes[0, F_FIRST] = -1
    return grow_tree(
        t, pt, root, pre0, lift_k0, iterations, policy, cutoff, c, seed, early, nodes, value, 1, 0
    )


@njit(cache=True)
def grow_tree(
    t: Any,
    pt: Any,
    root: Any,
    pre0: Any,
    lift_k0: int,
    iterations: int,
    policy: int,
    cutoff: int,
    c: float,
    seed: int,
    early: bool,
    nodes: Any,
    value: Any,
    n_nodes: int,
    r: int,
) -> Any:
    """``search_tree`` on a tree already grown: ``iterations`` more iterations from node ``r``
    of ``nodes``/``value`` (``n_nodes`` in use), whose position is ``root``; node ``r`` acts
    as the root (all its children tried, no widening) and its statistics and subtree are kept
    (tree reuse); the back-ups stop at it. Returns ``(nodes, value, n_nodes)`` (grown)."""
    work = new_work(t)
    pw, fv = new_player_work(t)
    rs = rng_streams(seed)
    st = root.copy()
    pre = pre0.copy()  # the position before the path's last lift (greedy playouts plan it)
    for done in range(iterations):
        st[:] = root
        pre[:] = pre0
        node = r
        lift_k = lift_k0
        while st[PHASE] != OVER:
            if nodes[node, F_FIRST] < 0:  # expand: the legal decisions become children
                n = legal(t, st, work)
                if n_nodes + n > len(value):
                    nodes, value = _grow(nodes, value, n_nodes + n)
                first = n_nodes
                for k in range(n):
                    ch = first + k
                    nodes[ch, F_PARENT] = node
                    nodes[ch, F_INDEX] = k
                    nodes[ch, F_MOVE] = work[W_OUT, k]
                    nodes[ch, F_MOVER] = st[TO_MOVE]
                    nodes[ch, F_FIRST] = -1
                    nodes[ch, F_N_CHILD] = 0
                    nodes[ch, F_N_TRIED] = 0
                    nodes[ch, F_VISITS] = 0
                    value[ch] = 0.0
                n_nodes += n
                nodes[node, F_FIRST] = first
                nodes[node, F_N_CHILD] = n
                nodes[node, F_N_TRIED] = 0
                if policy == GREEDY and n > 1 and node != r:
                    # greedy's own decision is tried first (with the plan of the path's lift)
                    d = _greedy_choice(t, pt, st, pre, lift_k, work, pw, fv, rs)
                    for ch in range(first, first + n):
                        if nodes[ch, F_MOVE] == d and ch != first:
                            for f in range(N_FIELDS):
                                nodes[first, f], nodes[ch, f] = nodes[ch, f], nodes[first, f]
                            break
            first = nodes[node, F_FIRST]
            n = nodes[node, F_N_CHILD]
            tried = nodes[node, F_N_TRIED]
            # progressive widening (greedy playouts, below the root): a node visited v times
            # tries at most ceil(sqrt(v)) of its children, greedy's first
            allowed = n
            if policy == GREEDY and node != r:
                v = nodes[node, F_VISITS]
                k = int(math.sqrt(v))
                allowed = min(n, max(1, k + 1 if k * k < v else k))
            if tried < allowed:  # an untried child, swapped to the front of the untried
                if policy == GREEDY and node != r and tried == 0:
                    j = first
                else:
                    j = first + tried + (0 if tried + 1 == n else rng_below(rs, 0, n - tried))
                a = first + tried
                if j != a:
                    for f in range(N_FIELDS):
                        nodes[a, f], nodes[j, f] = nodes[j, f], nodes[a, f]
                nodes[node, F_N_TRIED] = tried + 1
                node = a
                if st[PHASE] == LIFT:
                    pre[:] = st
                    lift_k = nodes[node, F_INDEX]
                apply(t, st, nodes[node, F_MOVE], work)
                break
            log_n = math.log(nodes[node, F_VISITS])
            best = -1.0
            pick = first
            for ch in range(first, first + tried):
                v = nodes[ch, F_VISITS]
                u = value[ch] / v + c * math.sqrt(log_n / v)
                if u > best:
                    best = u
                    pick = ch
            node = pick
            if st[PHASE] == LIFT:
                pre[:] = st
                lift_k = nodes[node, F_INDEX]
            apply(t, st, nodes[node, F_MOVE], work)
        if st[PHASE] == OVER:
            r0 = end_reward(t, pt.suit_total, st)
        else:
            # cut-off playouts run ``cutoff`` turns past the leaf, so the horizon deepens with
            # the tree; the stop keeps the root horizon's parity, so every estimate is taken
            # with the same seat to move
            stop = st[TURNS] + cutoff
            if (stop - root[TURNS] - cutoff) % 2 != 0:
                stop += 1
            r0 = playout(t, pt, st, policy, cutoff, work, pw, fv, rs, pre, lift_k, stop)
        while True:  # back up: each node keeps the reward of the seat that moved into it
            nodes[node, F_VISITS] += 1
            value[node] += r0 if nodes[node, F_MOVER] == 0 else 1.0 - r0
            if node == r:
                break
            node = nodes[node, F_PARENT]
        if early and _decided(nodes, iterations - done - 1, r):
            break
    return nodes, value, n_nodes


@njit(cache=True)
def _decided(nodes: Any, remaining: int, r: int = 0) -> bool:
    """Whether the root's most visited child leads every other by more than ``remaining``
    visits: no later iteration can change the search's decision (the most visited child), so
    the search may stop. Root children are all created at the first expansion (untried ones
    count 0 visits). ``r``: the root's node."""
    first = nodes[r, F_FIRST]
    top = -1
    second = -1
    for ch in range(first, first + nodes[r, F_N_CHILD]):
        v = nodes[ch, F_VISITS]
        if v > top:
            second = top
            top = v
        elif v > second:
            second = v
    return top - second > remaining


@njit(cache=True)
def best_root_child(nodes: Any, value: Any, r: int = 0) -> int:
    """The root's decision: its most visited child (ties: higher mean, then first in legal
    order), as the child's legal-order index (``r``: the root's node)."""
    first = nodes[r, F_FIRST]
    best = first
    for ch in range(first + 1, first + nodes[r, F_N_CHILD]):
        v, b = nodes[ch, F_VISITS], nodes[best, F_VISITS]
        if v < b:
            continue
        if v == b:
            mv = value[ch] / v if v else 0.0
            mb = value[best] / b if b else 0.0
            if mv < mb or (mv == mb and nodes[ch, F_INDEX] > nodes[best, F_INDEX]):
                continue
        best = ch
    return int(nodes[best, F_INDEX])


@njit(cache=True)
def search(
    t: Any,
    pt: Any,
    root: Any,
    pre0: Any,
    lift_k0: int,
    iterations: int,
    policy: int,
    cutoff: int,
    c: float,
    seed: int,
) -> Any:
    """``mcts:N``'s decision at ``root``: ``(k, n)``, option ``k`` of the ``n`` legal ones
    (``n`` = 1 is answered without searching); ``pre0``/``lift_k0`` as in ``search_tree``."""
    work = new_work(t)
    n = legal(t, root, work)
    if n <= 1:
        return 0, n
    nodes, value, _ = search_tree(
        t, pt, root, pre0, lift_k0, iterations, policy, cutoff, c, seed, True
    )
    return best_root_child(nodes, value), n


@njit(cache=True)
def search_reuse(
    t: Any,
    pt: Any,
    root: Any,
    pre0: Any,
    lift_k0: int,
    iterations: int,
    policy: int,
    cutoff: int,
    c: float,
    seed: int,
    nodes: Any,
    value: Any,
    n_nodes: int,
    r: int,
) -> Any:
    """``mcts:N:reuse``'s decision at ``root``, node ``r`` of a kept tree (``r`` = 0 with a
    fresh one): ``iterations`` more iterations there (``grow_tree``), stopping early as
    ``search`` does. Returns ``(k, n, nodes, value, n_nodes, child)``: option ``k`` of ``n``,
    the tree, and the node of the decision taken (the next root when the same seat decides
    next; -1 when there was nothing to search)."""
    work = new_work(t)
    n = legal(t, root, work)
    if n <= 1:
        return 0, n, nodes, value, n_nodes, _child(nodes, r, 0)
    nodes, value, n_nodes = grow_tree(
        t,
        pt,
        root,
        pre0,
        lift_k0,
        iterations,
        policy,
        cutoff,
        c,
        seed,
        True,
        nodes,
        value,
        n_nodes,
        r,
    )
    k = best_root_child(nodes, value, r)
    return k, n, nodes, value, n_nodes, _child(nodes, r, k)


@njit(cache=True)
def _child(nodes: Any, r: int, k: int) -> int:
    """The child of node ``r`` for its legal option ``k`` (-1: ``r`` is not expanded)."""
    first = nodes[r, F_FIRST]
    if first < 0:
        return -1
    for ch in range(first, first + nodes[r, F_N_CHILD]):
        if nodes[ch, F_INDEX] == k:
            return ch
    return -1


def root_children(
    state: GarnerState,
    settings: MCTSSettings,
    seed: int,
    plan: tuple[Any, int] | None = None,
) -> list[tuple[int, int, float]]:
    """What a search from ``state`` saw at its root, per legal decision in legal order:
    ``(decision site, visits, mean reward of the seat to move)``. ``plan``: the position before
    this turn's lift and the lift's option (:meth:`MCTSPlayer.plan`), for greedy playouts."""
    t, st = from_reference(state)
    pre, lift_k = plan if plan is not None else (st, -1)
    nodes, value, _ = search_tree(
        t,
        player_tables(state.config),
        st,
        pre,
        lift_k,
        settings.iterations,
        POLICIES[settings.policy],
        settings.cutoff,
        settings.c,
        seed,
    )
    first, n = int(nodes[0, F_FIRST]), int(nodes[0, F_N_CHILD])
    out = [(0, 0, 0.0)] * n
    for ch in range(first, first + n):
        v = int(nodes[ch, F_VISITS])
        out[int(nodes[ch, F_INDEX])] = (
            int(nodes[ch, F_MOVE]),
            v,
            float(value[ch]) / v if v else 0.0,
        )
    return out


# --- the player -----------------------------------------------------------------------------


@dataclass(frozen=True)
class MCTSSettings:
    """What ``mcts:N[:POLICY[:CUTOFF[:C]]]`` asks for."""

    iterations: int
    """N: search iterations per decision."""
    policy: str = DEFAULT_POLICY
    """The playout policy: ``greedy`` (default) or ``random``."""
    cutoff: int = DEFAULT_CUTOFF[DEFAULT_POLICY]
    """Playouts stop after this many whole turns and take the material estimate (0: play out
    to the end)."""
    c: float = DEFAULT_C[DEFAULT_POLICY]
    """The UCT exploration constant C (rewards lie in [0, 1])."""
    reuse: bool = False
    """Keep the tree between the sub-decisions of a turn: the next search starts from the
    subtree of the decision taken, with its visits, and adds N iterations to it."""


SPEC_FORM = (
    "mcts:N[:POLICY[:CUTOFF[:C]]][:reuse] (e.g. mcts:1000, mcts:1000:random, "
    "mcts:500:greedy:20:1, mcts:1000:reuse)"
)


def parse_spec(spec: str | None) -> MCTSSettings:
    """The settings of an ``mcts`` spec (the part after ``mcts:``); a bad one is refused with a
    ConfigError naming the problem."""
    if spec is None or spec == "":
        raise ConfigError(f"mcts needs an iteration budget: {SPEC_FORM}")
    parts = str(spec).split(":")
    reuse = len(parts) > 1 and parts[-1] == "reuse"
    if reuse:
        parts = parts[:-1]
    if len(parts) > 4:
        raise ConfigError(f"mcts takes at most four ':' options, got 'mcts:{spec}'; {SPEC_FORM}")
    n_text = parts[0]
    if not n_text.isdigit() or int(n_text) < 1:
        raise ConfigError(
            f"mcts:N takes a whole number N ≥ 1 of iterations, got {n_text!r} in 'mcts:{spec}'"
        )
    policy = parts[1] if len(parts) > 1 else DEFAULT_POLICY
    if policy not in POLICIES:
        raise ConfigError(
            f"mcts playout policy must be one of {', '.join(POLICIES)}, got {policy!r} in "
            f"'mcts:{spec}'"
        )
    cutoff = DEFAULT_CUTOFF[policy]
    if len(parts) > 2:
        if not parts[2].isdigit():
            raise ConfigError(
                "mcts CUTOFF takes a whole number of turns ≥ 0 (0: play out to the end), got "
                f"{parts[2]!r} in 'mcts:{spec}'"
            )
        cutoff = int(parts[2])
    c = DEFAULT_C[policy]
    if len(parts) > 3:
        try:
            c = float(parts[3])
        except ValueError:
            c = -1.0
        if not (math.isfinite(c) and c >= 0):
            raise ConfigError(
                f"mcts exploration constant C takes a number ≥ 0, got {parts[3]!r} in 'mcts:{spec}'"
            )
    return MCTSSettings(int(n_text), policy, cutoff, c, reuse)


class MCTSPlayer:
    """UCT search over the kernel's decisions with a fixed iteration budget, seeded by the
    seat's ``rng``: one 63-bit draw per decision with more than one option (a forced one is
    answered without a draw or a search).

    The player remembers its own lift (the position before it and the option taken), so the
    searches for that lift's placements run their greedy playouts with the lift's plan, as the
    tree does below a lift it chose itself."""

    #: it looks ahead through its own later decisions, which a restriction cannot reach
    searches = True

    def __init__(self, settings: MCTSSettings, name: str = "mcts") -> None:
        self.settings = settings
        self.__name__ = name
        self._lift: tuple[int, int, Any, int] | None = None  # turn, seat, position, option
        # with reuse: the turn, the seat, the position expected next, and the tree
        # (nodes, value, n_nodes) with that position's node
        self._tree: tuple[int, int, Any, Any, Any, int, int] | None = None

    def __call__(self, observation: GarnerState, legal: Sequence[Move], rng: random.Random) -> Move:
        """Choose one decision of the current turn: the root child the search visited most."""
        lifting = observation.phase == LIFT
        if self.settings.reuse:
            return self._reusing(observation, legal, rng)
        if len(legal) == 1:
            if lifting:
                self._lift = (
                    observation.turns,
                    observation.to_move,
                    from_reference(observation)[1],
                    0,
                )
            return legal[0]
        s = self.settings
        t, st = from_reference(observation)
        pre, lift_k = self.plan(observation, st)
        k, n = search(
            t,
            player_tables(observation.config),
            st,
            pre,
            lift_k,
            s.iterations,
            POLICIES[s.policy],
            s.cutoff,
            s.c,
            rng.getrandbits(63),
        )
        if n != len(legal):  # pragma: no cover - the kernel and the reference disagree: a bug
            raise RuntimeError(
                f"garner search: the kernel sees {n} legal decisions, the engine {len(legal)}"
            )
        if lifting:
            self._lift = (observation.turns, observation.to_move, st, int(k))
        return legal[int(k)]

    def _reusing(self, observation: GarnerState, moves: Sequence[Move], rng: random.Random) -> Move:
        """``mcts:N:reuse``: the search from the subtree kept from this turn's last decision
        (when this position is the one it led to), else from a fresh tree."""
        s = self.settings
        t, st = from_reference(observation)
        turn, seat = observation.turns, observation.to_move
        kept = self._tree
        if (
            kept is not None
            and kept[:2] == (turn, seat)
            and kept[6] >= 0
            and not same_position(t, kept[2], st)
        ):
            nodes, value, n_nodes, r = kept[3], kept[4], kept[5], kept[6]
        else:
            cap = 1 + (s.iterations + 1) * min(t.params[N_SITES], 8)
            nodes, value, n_nodes, r = np.zeros((cap, N_FIELDS), np.int64), np.zeros(cap), 1, 0
            nodes[0, F_PARENT] = -1
            nodes[0, F_FIRST] = -1
        pre, lift_k = self.plan(observation, st)
        seed = rng.getrandbits(63) if len(moves) > 1 else 0  # a forced decision draws nothing
        k, n, nodes, value, n_nodes, child = search_reuse(
            t,
            player_tables(observation.config),
            st,
            pre,
            lift_k,
            s.iterations,
            POLICIES[s.policy],
            s.cutoff,
            s.c,
            seed,
            nodes,
            value,
            n_nodes,
            r,
        )
        if n != len(moves):  # pragma: no cover - the kernel and the reference disagree: a bug
            raise RuntimeError(
                f"garner search: the kernel sees {n} legal decisions, the engine {len(moves)}"
            )
        if observation.phase == LIFT:
            self._lift = (turn, seat, st, int(k))
        nxt = st.copy()
        work = new_work(t)
        legal(t, st, work)
        apply(t, nxt, work[W_OUT, int(k)], work)
        self._tree = (turn, seat, nxt, nodes, value, int(n_nodes), int(child))
        return moves[int(k)]

    def plan(self, observation: GarnerState, st: Any) -> tuple[Any, int]:
        """The position before this turn's lift and the lift's option, if this player lifted
        (kernel state ``st`` and -1 otherwise): greedy playouts plan the lift's placements."""
        mine = self._lift
        if (
            observation.phase != LIFT
            and mine is not None
            and mine[:2] == (observation.turns, observation.to_move)
        ):
            return mine[2], mine[3]
        return st, -1

    def remember_lift(self, observation: GarnerState, st: Any, k: int) -> None:
        """Note that this seat lifted option ``k`` at ``observation`` (kernel state ``st``)."""
        self._lift = (observation.turns, observation.to_move, st, int(k))


def mcts(spec: str | None = None) -> MCTSPlayer:
    """A fresh ``mcts:N[:POLICY[:CUTOFF[:C]]][:reuse]`` player."""
    return MCTSPlayer(parse_spec(spec), f"mcts:{spec}")


# the cache of this module's jitted functions is emptied when a file they depend on changed
# (numba watches only this file): gamelib/jit_cache.py
guard(globals())
