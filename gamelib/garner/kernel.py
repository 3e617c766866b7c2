"""Garner's compiled core: the rules of ``shared/rules/garner.md`` as numba functions.

*Why one file (860 lines):* numba's on-disk cache is keyed on the file a jitted function lives
in and does not follow calls into other files (a cached caller keeps the old code of a callee
edited elsewhere), so the jitted functions that call one another in the hot loop stay in one
module, compiled, cached and invalidated as one unit.

The readable reference is :mod:`gamelib.garner.rules`; this module plays the same rules inside
compiled code so a batch of random games never returns to Python per decision.
``tests/test_garner_kernel.py`` replays kernel games through the reference engine decision by
decision (``make crosscheck`` does it at scale), so any difference between the two fails.

Layout, shaped for speed (every array is ``int64`` unless said otherwise):

* **Tables** (:class:`KernelTables`, one per config, built once): ``params`` holds the rule
  fields and the offsets below as ints; ``suit_of``/``number_of`` per card; ``adj`` the
  orthogonal neighbours of each site (padded with -1); ``targets[s]`` the sites a card lifted
  from ``s`` may go to, ascending (``straight_line`` and ``must_move="all"`` applied), with
  ``n_targets[s]`` of them; ``weights`` (float64) what each suit is worth.
* **State**: one flat vector, so a clone is one ``copy()``. A header (``TO_MOVE``, ``PHASE``,
  ``TURNS``, …), then ``height[site]`` and ``top[site]`` (the top card, -1 when empty), then
  ``below[card]`` (the card under it, -1 at the bottom): each stack is a linked list, so a lift or
  a placement is O(1) and the state stays ~``2·sites + cards`` long. Then both scoring piles
  ``pile[seat·suits + suit]``, the lifted cards (``lift_origin``, ``lift_card``, lowest origin
  first; ``LIFT_POS`` of them already placed), the sites already given a card this distribution
  (``used``) and the suit group awaiting the never-exactly-6 decision (``pending``).
* **Decisions** are sites, ``0 ≤ d < rows·cols``, whatever the phase: lift the number group whose
  lowest site is ``d``; place the next lifted card on ``d``; collect the suit group whose lowest
  site is ``d``; leave the card on ``d`` behind. Legal decisions come in the reference's order
  (ascending), so option ``k`` here is option ``k`` of ``GarnerState.legal_moves()``.

Random numbers come from SplitMix64 streams held in the caller's arrays (no global RNG state):
per game one stream deals, one per seat decides, all derived from the game's seed, so a deal
does not depend on the players. The reference engine draws from the same streams
(``gamelib.core.game_rngs``), so it deals the same cards and plays the same random games.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from gamelib.core import ConfigError, Move

# the phases are the reference's: LIFT, PLACE, COLLECT, LEAVE, OVER
from gamelib.garner.rules import (
    COLLECT,
    LEAVE,
    LIFT,
    OVER,
    PLACE,
    Collect,
    GarnerConfig,
    GarnerState,
    LeaveBehind,
    Lift,
    Place,
)
from gamelib.garner.rules import rule_tables as reference_tables
from gamelib.jit_cache import guard, njit_borrowing
from gamelib.kernel_rng import rng_below, seeds_for, streams

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

# --- params: the config as ints, and the state vector's offsets ----------------------------
N_SITES, N_CARDS, N_SUITS, TOP_SURFACE, MUST_MOVE, FPS, MAX_TURNS, HEIGHT = range(8)
O_HEIGHT, O_TOP, O_BELOW, O_PILE, O_LORIG, O_LCARD, O_USED, O_PEND, STATE_LEN = range(8, 17)
N_PARAMS = 17

MUST_NONE, MUST_ONE, MUST_ALL = 0, 1, 2
MUST_MOVE_CODES = {"none": MUST_NONE, "one": MUST_ONE, "all": MUST_ALL}

# --- the state header -----------------------------------------------------------------------
TO_MOVE, PHASE, TURNS, N_LIFTED, LIFT_POS, MOVED, N_PENDING = range(7)
CARDS_0, CARDS_1, EMPTY_COLLECTS, MAX_COLLECT, N_LEFT, REASON = range(7, 13)
HEADER = 13

# REASON while the game is over: the reference's Outcome.reason
LAYOUT_EMPTY, TURN_LIMIT, UNFINISHED = 0, 1, 2
REASONS = ("layout_empty", "turn_limit", "unfinished")

# --- one game's result row (play_random_batch's ``results``) ------------------------------
R_WINNER, R_REASON, R_TURNS, R_DECISIONS, R_CARDS_0, R_CARDS_1 = range(6)
R_CARDS_LEFT, R_EMPTY_COLLECTS, R_MAX_COLLECT, R_SUITS_WON_0, R_SUITS_WON_1 = range(6, 11)
R_OPTIONS, R_MULTI = 11, 12  # legal options summed over the decisions; decisions with 2+
N_RESULTS = 13

# scratch rows of ``work`` (``new_work``): legal options, flood fill, the dead-end search
W_OUT, W_LABEL, W_VAL, W_QUEUE, W_GROUP, W_ORIGINS, W_USED, W_IDX, W_CHOSEN, W_MOVED = range(10)
N_WORK = 10


class KernelTables(NamedTuple):
    """Per-config constants the compiled functions read (see the module docstring)."""

    params: IntArray
    suit_of: IntArray
    number_of: IntArray
    adj: IntArray
    targets: IntArray
    n_targets: IntArray
    weights: FloatArray


@lru_cache(maxsize=64)
def tables(config: GarnerConfig) -> KernelTables:
    """The kernel's tables for one config: the reference's own tables, as arrays."""
    ref = reference_tables(config)
    n_sites = ref.n_sites
    n_cards = len(ref.suit_of)
    n_suits = config.n_suits
    suit_of = np.array(ref.suit_of, np.int64)
    number_of = np.array(ref.number_of, np.int64)
    adj = np.full((n_sites, 4), -1, np.int64)
    targets = np.full((n_sites, n_sites), -1, np.int64)
    n_targets = np.zeros(n_sites, np.int64)
    for s in range(n_sites):
        adj[s, : len(ref.adj[s])] = ref.adj[s]
        targets[s, : len(ref.targets[s])] = ref.targets[s]
        n_targets[s] = len(ref.targets[s])
    p = np.zeros(N_PARAMS, np.int64)
    p[N_SITES], p[N_CARDS], p[N_SUITS] = n_sites, n_cards, n_suits
    p[TOP_SURFACE] = config.top_layer == "surface"
    p[MUST_MOVE] = MUST_MOVE_CODES[config.must_move]
    p[FPS] = -1 if config.forbidden_pile_size is None else config.forbidden_pile_size
    p[MAX_TURNS], p[HEIGHT] = config.max_turns, config.height
    p[O_HEIGHT] = HEADER
    p[O_TOP] = p[O_HEIGHT] + n_sites
    p[O_BELOW] = p[O_TOP] + n_sites
    p[O_PILE] = p[O_BELOW] + n_cards
    p[O_LORIG] = p[O_PILE] + 2 * n_suits
    p[O_LCARD] = p[O_LORIG] + n_sites
    p[O_USED] = p[O_LCARD] + n_sites
    p[O_PEND] = p[O_USED] + n_sites
    p[STATE_LEN] = p[O_PEND] + n_sites
    for a in (suit_of, number_of, adj, targets, n_targets, p):
        a.setflags(write=False)
    weights = np.array(config.weights, np.float64)
    weights.setflags(write=False)
    return KernelTables(p, suit_of, number_of, adj, targets, n_targets, weights)


# --- random numbers: SplitMix64 streams (gamelib.kernel_rng), three per game -------------


@njit(cache=True)
def rng_streams(seed: int) -> Any:
    """Three streams from a game's seed: 0 deals, 1 decides for seat 0, 2 for seat 1."""
    return streams(seed, 3)


# --- the layout --------------------------------------------------------------------------------


@njit_borrowing
def push(t: Any, st: Any, site: int, card: int) -> None:
    """A card put on a site with h cards lands at level h + 1 (top of its stack)."""
    p = t.params
    st[p[O_BELOW] + card] = st[p[O_TOP] + site]
    st[p[O_TOP] + site] = card
    st[p[O_HEIGHT] + site] += 1


@njit_borrowing
def pop(t: Any, st: Any, site: int) -> int:
    """Take the top card off the stack on ``site``."""
    p = t.params
    card = st[p[O_TOP] + site]
    st[p[O_TOP] + site] = st[p[O_BELOW] + card]
    st[p[O_HEIGHT] + site] -= 1
    return int(card)


@njit(cache=True)
def empty_state(t: Any) -> Any:
    """Seat 0 moves first, lifting; the layout starts empty (fill it with ``push``)."""
    p = t.params
    st = np.zeros(p[STATE_LEN], np.int64)
    st[p[O_TOP] : p[O_TOP] + p[N_SITES]] = -1
    st[PHASE] = LIFT
    return st


@njit(cache=True)
def deal(t: Any, rs: Any, deck: Any) -> Any:
    """Components: shuffle the deck (stream 0) and deal it onto the grid, ``height`` per site.

    ``deck`` receives the shuffled deck; site ``s`` holds ``deck[s·height:(s+1)·height]`` bottom
    to top, the way ``gamelib.garner.rules.new_state`` deals its shuffled deck.
    """
    p = t.params
    n = p[N_CARDS]
    for c in range(n):
        deck[c] = c
    for c in range(n - 1, 0, -1):  # Fisher–Yates
        k = rng_below(rs, 0, c + 1)
        deck[c], deck[k] = deck[k], deck[c]
    st = empty_state(t)
    h = p[HEIGHT]
    for s in range(p[N_SITES]):
        for lv in range(h):
            push(t, st, s, deck[s * h + lv])
    st[N_LEFT] = n
    return st


# --- the top layer and groups -------------------------------------------------------------------


@njit_borrowing
def top_level(t: Any, st: Any) -> int:
    """top_layer: under "level", the highest level that holds any card; 0 under "surface"."""
    p = t.params
    if p[TOP_SURFACE]:
        return 0
    top = 0
    for s in range(p[N_SITES]):
        top = max(top, st[p[O_HEIGHT] + s])
    return int(top)


@njit_borrowing
def groups(t: Any, key: Any, st: Any, work: Any) -> int:
    """number_group / suit_group: maximal connected sets of top_layer cards sharing ``key``.

    ``key`` is ``number_of`` or ``suit_of``. Writes each group's lowest site to ``work[W_OUT]``,
    ascending (the reference's order), and to ``work[W_LABEL, s]`` the lowest site of the group
    holding site ``s`` (-1 off the top layer); returns how many groups there are.
    """
    p = t.params
    n_sites = p[N_SITES]
    o_height, o_top = p[O_HEIGHT], p[O_TOP]
    reps, label, val, queue = work[W_OUT], work[W_LABEL], work[W_VAL], work[W_QUEUE]
    adj = t.adj
    top = top_level(t, st)
    for s in range(n_sites):
        h = st[o_height + s]
        label[s] = -1
        val[s] = key[st[o_top + s]] if h > 0 and (top == 0 or h == top) else -1
    n_groups = 0
    for s in range(n_sites):
        k = val[s]
        if k < 0 or label[s] >= 0:
            continue
        label[s] = s
        reps[n_groups] = s
        n_groups += 1
        queue[0] = s
        n_queued, i = 1, 0
        while i < n_queued:  # breadth-first flood fill
            u = queue[i]
            i += 1
            for a in range(4):
                v = adj[u, a]
                if v < 0:
                    break
                if label[v] < 0 and val[v] == k:
                    label[v] = s
                    queue[n_queued] = v
                    n_queued += 1
    return n_groups


@njit_borrowing
def group_of(t: Any, key: Any, st: Any, site: int, work: Any) -> int:
    """The number_group / suit_group (per ``key``) holding top_layer ``site``.

    Writes its sites to ``work[W_GROUP]`` ascending and returns how many there are.
    """
    p = t.params
    n_sites = p[N_SITES]
    o_height, o_top = p[O_HEIGHT], p[O_TOP]
    mark, queue, members = work[W_VAL], work[W_QUEUE], work[W_GROUP]
    adj = t.adj
    top = top_level(t, st)
    for s in range(n_sites):
        mark[s] = 0
    k = key[st[o_top + site]]
    mark[site] = 1
    queue[0] = site
    n_queued, i = 1, 0
    while i < n_queued:
        u = queue[i]
        i += 1
        for a in range(4):
            v = adj[u, a]
            if v < 0:
                break
            if mark[v]:
                continue
            h = st[o_height + v]
            if h > 0 and (top == 0 or h == top) and key[st[o_top + v]] == k:
                mark[v] = 1
                queue[n_queued] = v
                n_queued += 1
    m = 0
    for s in range(n_sites):
        if mark[s]:
            members[m] = s
            m += 1
    return m


# --- distributing: targets and dead-end avoidance ---------------------------------------------


@njit_borrowing
def can_finish(t: Any, origins: Any, n: int, used: Any, moved: int, work: Any) -> bool:
    """Dead-end avoidance: can cards lifted from ``origins[:n]`` all still be placed legally?

    Each card needs its own site among ``targets[origin]`` (straight_line, must_move="all"),
    none of them ``used``; under must_move="one" some card (counting ``moved``, the cards placed
    already) must leave its own site. A depth-first search with explicit stacks (no recursion);
    ``used`` is restored before returning.
    """
    must = t.params[MUST_MOVE]
    if n == 0:
        return moved != 0 or must != MUST_ONE
    targets, n_targets = t.targets, t.n_targets
    idx, chosen, mv = work[W_IDX], work[W_CHOSEN], work[W_MOVED]
    mv[0] = moved
    idx[0] = 0
    d = 0
    while d >= 0:
        if d == n:
            if mv[n] or must != MUST_ONE:
                for k in range(n):
                    used[chosen[k]] = 0
                return True
            d -= 1
            used[chosen[d]] = 0
            idx[d] += 1
            continue
        o = origins[d]
        j = idx[d]
        nt = n_targets[o]
        while j < nt and used[targets[o, j]]:
            j += 1
        if j < nt:
            s = targets[o, j]
            idx[d] = j
            chosen[d] = s
            used[s] = 1
            mv[d + 1] = 1 if (mv[d] or s != o) else 0
            d += 1
            idx[d] = 0
        else:
            d -= 1
            if d >= 0:
                used[chosen[d]] = 0
                idx[d] += 1
    return False


# --- legal decisions, apply, the end ------------------------------------------------------------


@njit_borrowing
def legal(t: Any, st: Any, work: Any) -> int:
    """A turn's decisions, one at a time: lift a number_group, place each lifted card, collect a
    suit_group, leave one card behind (never exactly 6). Never offers a dead end.

    Writes the legal decisions (sites, see the module docstring) to ``work[W_OUT]`` in the
    reference's order and returns how many there are (0 once the game is over).
    """
    p = t.params
    n_sites = p[N_SITES]
    phase = st[PHASE]
    out = work[W_OUT]
    if phase == LIFT:
        n = groups(t, t.number_of, st, work)
        if p[MUST_MOVE] == MUST_NONE:
            return n
        # must_move constrains the placements: drop groups that could not all be placed
        label, origins, used = work[W_LABEL], work[W_ORIGINS], work[W_USED]
        m = 0
        for g in range(n):
            rep = out[g]
            k = 0
            for s in range(rep, n_sites):
                if label[s] == rep:
                    origins[k] = s
                    k += 1
            for s in range(n_sites):
                used[s] = 0
            if can_finish(t, origins, k, used, 0, work):
                out[m] = rep
                m += 1
        return m
    if phase == PLACE:
        pos, n_lifted = st[LIFT_POS], st[N_LIFTED]
        origin = st[p[O_LORIG] + pos]
        used, origins = work[W_USED], work[W_ORIGINS]
        for s in range(n_sites):
            used[s] = st[p[O_USED] + s]
        rest = n_lifted - pos - 1
        for i in range(rest):
            origins[i] = st[p[O_LORIG] + pos + 1 + i]
        constrained = p[MUST_MOVE] != MUST_NONE
        m = 0
        for j in range(t.n_targets[origin]):
            s = t.targets[origin, j]
            if used[s]:  # never two lifted cards on one site
                continue
            if constrained:
                used[s] = 1
                moved = 1 if st[MOVED] != 0 or s != origin else 0
                ok = can_finish(t, origins, rest, used, moved, work)
                used[s] = 0
                if not ok:
                    continue
            out[m] = s
            m += 1
        return m
    if phase == COLLECT:
        return groups(t, t.suit_of, st, work)
    if phase == LEAVE:
        for i in range(st[N_PENDING]):
            out[i] = st[p[O_PEND] + i]
        return int(st[N_PENDING])
    return 0


@njit_borrowing
def apply(t: Any, st: Any, d: int, work: Any) -> None:
    """Make decision ``d`` (a site; it must be legal, unchecked here): lift the number_group,
    place the next lifted card, collect the suit_group (or set it aside when the pile would hold
    exactly forbidden_pile_size), or leave one card of that group behind."""
    p = t.params
    phase = st[PHASE]
    if phase == LIFT:
        n = group_of(t, t.number_of, st, d, work)
        members = work[W_GROUP]
        for i in range(n):
            s = members[i]
            st[p[O_LORIG] + i] = s
            st[p[O_LCARD] + i] = pop(t, st, s)
        st[N_LIFTED] = n
        st[LIFT_POS] = 0
        st[MOVED] = 0
        for s in range(p[N_SITES]):
            st[p[O_USED] + s] = 0
        st[PHASE] = PLACE
    elif phase == PLACE:
        pos = st[LIFT_POS]
        push(t, st, d, st[p[O_LCARD] + pos])
        st[p[O_USED] + d] = 1
        if d != st[p[O_LORIG] + pos]:
            st[MOVED] = 1
        st[LIFT_POS] = pos + 1
        if pos + 1 == st[N_LIFTED]:
            st[PHASE] = COLLECT
    elif phase == COLLECT:
        n = group_of(t, t.suit_of, st, d, work)
        members = work[W_GROUP]
        suit = t.suit_of[st[p[O_TOP] + d]]
        fps = p[FPS]
        if fps >= 0 and st[p[O_PILE] + st[TO_MOVE] * p[N_SUITS] + suit] + n == fps:
            for i in range(n):
                st[p[O_PEND] + i] = members[i]
            st[N_PENDING] = n
            st[PHASE] = LEAVE
        else:
            _collect(t, st, members, n, -1)
    elif phase == LEAVE:
        _collect(t, st, st[p[O_PEND] : p[O_PEND] + st[N_PENDING]], st[N_PENDING], d)
        st[N_PENDING] = 0


@njit_borrowing
def _collect(t: Any, st: Any, sites: Any, n: int, skip: int) -> None:
    """Collect: the group's cards (all but ``skip``) go to the mover's scoring pile; the turn
    ends; the game ends when the layout is empty or after max_turns turns."""
    p = t.params
    seat = st[TO_MOVE]
    o_pile = p[O_PILE] + seat * p[N_SUITS]
    count = 0
    for i in range(n):
        s = sites[i]
        if s == skip:
            continue
        card = pop(t, st, s)
        st[o_pile + t.suit_of[card]] += 1
        count += 1
    st[CARDS_0 + seat] += count
    if count == 0:
        st[EMPTY_COLLECTS] += 1
    st[MAX_COLLECT] = max(st[MAX_COLLECT], count)
    st[N_LEFT] -= count
    st[TURNS] += 1
    if st[N_LEFT] == 0:
        st[PHASE] = OVER
        st[REASON] = LAYOUT_EMPTY
    elif st[TURNS] >= p[MAX_TURNS]:
        st[PHASE] = OVER
        st[REASON] = TURN_LIMIT
    else:
        st[PHASE] = LIFT
        st[TO_MOVE] = 1 - seat


@njit(cache=True)
def is_over(st: Any) -> bool:
    """End: the layout is empty, or max_turns turns were played."""
    return bool(st[PHASE] == OVER)


@njit(cache=True)
def result(t: Any, st: Any, row: Any, scores: Any, piles: Any) -> None:
    """End and result: each suit goes to the seat holding more of it (suit_weights); higher
    total wins, equal totals draw, a turn_limit game is a draw.

    Fills ``row`` (``R_*`` columns; winner -1 for a draw), ``scores[seat]`` and
    ``piles[seat, suit]``.
    """
    p = t.params
    n_suits = p[N_SUITS]
    s0 = s1 = 0.0
    won0 = won1 = 0
    for u in range(n_suits):
        a = st[p[O_PILE] + u]
        b = st[p[O_PILE] + n_suits + u]
        piles[0, u] = a
        piles[1, u] = b
        if a > b:
            s0 += t.weights[u]
            won0 += 1
        elif b > a:
            s1 += t.weights[u]
            won1 += 1
    scores[0] = s0
    scores[1] = s1
    if st[PHASE] != OVER:
        reason = UNFINISHED
        winner = -1
    else:
        reason = st[REASON]
        winner = -1 if reason == TURN_LIMIT or s0 == s1 else 0 if s0 > s1 else 1
    row[R_WINNER] = winner
    row[R_REASON] = reason
    row[R_TURNS] = st[TURNS]
    row[R_CARDS_0] = st[CARDS_0]
    row[R_CARDS_1] = st[CARDS_1]
    row[R_CARDS_LEFT] = st[N_LEFT]
    row[R_EMPTY_COLLECTS] = st[EMPTY_COLLECTS]
    row[R_MAX_COLLECT] = st[MAX_COLLECT]
    row[R_SUITS_WON_0] = won0
    row[R_SUITS_WON_1] = won1


# --- random play ----------------------------------------------------------------------------------


@njit(cache=True)
def new_work(t: Any) -> Any:
    """Scratch space for ``legal``/``apply`` (one per thread of play, reused every decision)."""
    return np.zeros((N_WORK, t.params[N_SITES] + 1), np.int64)


@njit(cache=True)
def play_random_game(t: Any, rs: Any, st: Any, work: Any, decisions: Any, counts: Any) -> Any:
    """The random player on both seats: uniform over the legal options at every decision
    (seat k draws from stream k + 1). Plays ``st`` to the end and returns ``(n, decisions)``:
    how many decisions there were and the buffer holding them (``decisions``, or a larger copy
    when the game outgrew it); adds the options offered to ``counts[0]`` and the decisions with
    two or more to ``counts[1]``."""
    n_dec = 0
    while st[PHASE] != OVER:
        if n_dec == len(decisions):
            grown = np.empty(2 * len(decisions) + 16, np.int64)
            grown[:n_dec] = decisions
            decisions = grown
        n = legal(t, st, work)
        if n == 0:
            raise RuntimeError("garner kernel: no legal decision in an unfinished game")
        counts[0] += n
        counts[1] += n > 1
        k = 0 if n == 1 else rng_below(rs, 1 + st[TO_MOVE], n)
        d = work[W_OUT, k]
        decisions[n_dec] = d
        n_dec += 1
        apply(t, st, d, work)
    return n_dec, decisions


@njit(cache=True)
def keep_record(
    g: int, n_dec: int, buf: Any, deck: Any, deals: Any, decisions: Any, offsets: Any
) -> Any:
    """Keep game ``g``'s deal and its ``n_dec`` decisions (from ``buf``) in a batch's record
    arrays; returns ``decisions``, or a larger copy when it had to grow."""
    deals[g, :] = deck
    at = offsets[g]
    if at + n_dec > len(decisions):
        grown = np.empty(max(2 * len(decisions), at + n_dec), np.int16)
        grown[:at] = decisions[:at]
        decisions = grown
    decisions[at : at + n_dec] = buf[:n_dec]
    offsets[g + 1] = at + n_dec
    return decisions


@njit(cache=True)
def play_random_batch(t: Any, seeds: Any, record: bool) -> Any:
    """Deal and play one random-vs-random game per seed, entirely in compiled code.

    Returns ``(results, scores, piles, decisions, offsets, deals)``: ``results[g]`` the ``R_*``
    columns, ``scores[g, seat]``, ``piles[g, seat, suit]``; with ``record``, game ``g``'s
    decisions are ``decisions[offsets[g]:offsets[g + 1]]`` (int16 sites) and ``deals[g]`` its
    shuffled deck (see ``deal``); without, those three are empty.
    """
    p = t.params
    n_games = len(seeds)
    results = np.zeros((n_games, N_RESULTS), np.int64)
    scores = np.zeros((n_games, 2), np.float64)
    piles = np.zeros((n_games, 2, p[N_SUITS]), np.int64)
    work = new_work(t)
    buf = np.empty(1024, np.int64)  # one game's decisions; grows for very long games
    deck = np.empty(p[N_CARDS], np.int64)
    n_rec = n_games if record else 0
    decisions = np.empty(n_rec * 64, np.int16)
    offsets = np.zeros(n_rec + 1, np.int64)
    deals = np.empty((n_rec, p[N_CARDS]), np.int16)
    for g in range(n_games):
        rs = rng_streams(seeds[g])
        st = deal(t, rs, deck)
        n_dec, buf = play_random_game(t, rs, st, work, buf, results[g, R_OPTIONS:])
        result(t, st, results[g], scores[g], piles[g])
        results[g, R_DECISIONS] = n_dec
        if record:
            decisions = keep_record(g, n_dec, buf, deck, deals, decisions, offsets)
    return results, scores, piles, decisions[: offsets[n_rec]], offsets, deals


# --- from Python ------------------------------------------------------------------------------


@dataclass(frozen=True)
class KernelGames:
    """A batch of kernel games: one table row per game, and the records when asked for."""

    table: np.ndarray[Any, Any]
    """A structured array (``pandas.DataFrame(table)`` makes it a frame): ``game``, ``seed``,
    ``decisions`` and the reference ``Outcome.row()`` columns (``winner`` -1 for a draw,
    ``reason``, ``turns``, ``score_k``, ``win_k``, ``suits_won_k``, ``cards_k``, ``cards_left``,
    ``empty_collects``, ``max_collect``, ``suit{u}_cards_{k}``)."""
    decisions: npt.NDArray[np.int16]
    """Every game's decisions back to back (sites; see the module docstring); empty unless
    recorded."""
    offsets: IntArray
    """Game ``g``'s decisions are ``decisions[offsets[g]:offsets[g + 1]]``."""
    deals: npt.NDArray[np.int16]
    """``deals[g]``: game ``g``'s shuffled deck; site ``s`` holds ``deck[s·h:(s+1)·h]``."""

    def game_decisions(self, g: int) -> IntArray:
        """The decisions of game ``g`` of the batch, in order."""
        return self.decisions[self.offsets[g] : self.offsets[g + 1]].astype(np.int64)


def play_random(
    config: GarnerConfig, n_games: int, seed: int, *, record: bool = False, start: int = 0
) -> KernelGames:
    """Play ``n_games`` random-vs-random games in compiled code; game ``i`` is seeded with the
    ``i``-th per-game seed of ``seed`` (``gamelib.core.game_seeds``), as ``simulate`` seeds its
    games (two random players in ``simulate`` play exactly these games)."""
    if not isinstance(config, GarnerConfig):
        raise ConfigError(f"play_random needs a GarnerConfig, got {type(config).__name__}")
    if not isinstance(n_games, int) or isinstance(n_games, bool) or n_games < 0:
        raise ConfigError(f"n_games must be a non-negative int, got {n_games!r}")
    t = tables(config)
    seeds = seeds_for(seed, n_games, start)
    return games_table(config, seeds, start, play_random_batch(t, seeds, record))


def games_table(config: GarnerConfig, seeds: IntArray, start: int, out: Any) -> KernelGames:
    """A batch's ``KernelGames`` from what a compiled batch returned (``play_random_batch``'s
    ``(results, scores, piles, decisions, offsets, deals)``)."""
    results, scores, piles, decisions, offsets, deals = out
    n_games = len(seeds)
    n_suits = config.n_suits
    columns: list[tuple[str, Any]] = [
        ("game", np.arange(start, start + n_games)),
        ("seed", seeds),
        ("winner", results[:, R_WINNER]),
        ("n_winners", (results[:, R_WINNER] >= 0).astype(np.int64)),
        ("reason", np.array(REASONS, dtype="U12")[results[:, R_REASON]]),
        ("turns", results[:, R_TURNS]),
        ("decisions", results[:, R_DECISIONS]),
        ("options", results[:, R_OPTIONS]),
        ("multi_option_decisions", results[:, R_MULTI]),
        ("score_0", scores[:, 0]),
        ("score_1", scores[:, 1]),
        ("win_0", (results[:, R_WINNER] == 0).astype(np.float64)),
        ("win_1", (results[:, R_WINNER] == 1).astype(np.float64)),
        ("suits_won_0", results[:, R_SUITS_WON_0]),
        ("suits_won_1", results[:, R_SUITS_WON_1]),
        ("cards_0", results[:, R_CARDS_0]),
        ("cards_1", results[:, R_CARDS_1]),
        ("cards_left", results[:, R_CARDS_LEFT]),
        ("empty_collects", results[:, R_EMPTY_COLLECTS]),
        ("max_collect", results[:, R_MAX_COLLECT]),
    ]
    for u in range(n_suits):
        for k in (0, 1):
            columns.append((f"suit{u}_cards_{k}", piles[:, k, u]))
    table = np.empty(n_games, dtype=[(name, col.dtype) for name, col in columns])
    for name, col in columns:
        table[name] = col
    return KernelGames(table, decisions, offsets, deals)


def state_from_deal(t: KernelTables, deck: npt.ArrayLike) -> IntArray:
    """The kernel state dealt from a shuffled ``deck`` (as ``KernelGames.deals`` holds it)."""
    p = t.params
    cards = np.asarray(deck, dtype=np.int64)
    if sorted(cards.tolist()) != list(range(int(p[N_CARDS]))):
        raise ValueError("a deal must hold every card of the deck exactly once")
    st: IntArray = empty_state(t)
    h = int(p[HEIGHT])
    for s in range(int(p[N_SITES])):
        for lv in range(h):
            push(t, st, s, int(cards[s * h + lv]))
    st[N_LEFT] = len(cards)
    return st


def deal_layout(t: KernelTables, deck: npt.ArrayLike) -> list[list[list[int]]]:
    """A deal as the reference's record layout: each site's stack as [suit, number] pairs."""
    cards = np.asarray(deck, dtype=np.int64)
    h = int(t.params[HEIGHT])
    return [
        [[int(t.suit_of[c]), int(t.number_of[c])] for c in cards[s * h : (s + 1) * h]]
        for s in range(int(t.params[N_SITES]))
    ]


def legal_groups(t: KernelTables, st: IntArray, work: IntArray) -> list[tuple[int, ...]]:
    """The legal decisions of ``st`` with the sites each one takes: a lift or collect decision
    as its whole group (ascending), a placement or leave-behind decision as ``(site,)``."""
    n = int(legal(t, st, work))
    options = [int(d) for d in work[W_OUT, :n]]
    phase = int(st[PHASE])
    if phase not in (LIFT, COLLECT):
        return [(d,) for d in options]
    # ``legal`` left each top-layer site's group label in work[W_LABEL]
    label = work[W_LABEL, : int(t.params[N_SITES])]
    return [tuple(int(s) for s in np.flatnonzero(label == d)) for d in options]


def layout(t: KernelTables, st: IntArray) -> list[list[int]]:
    """Every stack of ``st``, bottom to top, as card ids (the reference's ``stacks``)."""
    p = t.params
    out = []
    for s in range(int(p[N_SITES])):
        stack = []
        card = int(st[p[O_TOP] + s])
        while card >= 0:
            stack.append(card)
            card = int(st[p[O_BELOW] + card])
        out.append(stack[::-1])
    return out


def piles(t: KernelTables, st: IntArray) -> list[list[int]]:
    """``piles[seat][suit]``: how many cards of each suit each seat has collected."""
    p = t.params
    n, o = int(p[N_SUITS]), int(p[O_PILE])
    return [[int(x) for x in st[o + k * n : o + (k + 1) * n]] for k in (0, 1)]


def reference_move(phase: int, option: tuple[int, ...]) -> Move:
    """The reference engine's move for one of ``legal_groups``' options in ``phase``."""
    if phase == LIFT:
        return Lift(option)
    if phase == PLACE:
        return Place(option[0])
    if phase == COLLECT:
        return Collect(option)
    if phase == LEAVE:
        return LeaveBehind(option[0])
    raise ValueError(f"no decision is taken in phase {phase}")


def from_reference(state: GarnerState) -> tuple[KernelTables, IntArray]:
    """The kernel state of a reference position, mid-turn and hand-built ones included."""
    t = tables(state.config)
    p = t.params
    st: IntArray = empty_state(t)
    for s, stack in enumerate(state.stacks):
        for card in stack:
            push(t, st, s, card)
    n_suits = int(p[N_SUITS])
    for k in (0, 1):
        for u in range(n_suits):
            st[p[O_PILE] + k * n_suits + u] = state.piles[k][u]
    st[TO_MOVE], st[PHASE], st[TURNS] = state.to_move, state.phase, state.turns
    if state.phase == PLACE:
        origins, placed = state._origins, state.placed
        st[N_LIFTED], st[LIFT_POS] = len(origins), len(placed)
        st[MOVED] = any(o != s for o, s in zip(origins, placed, strict=False))
        for i, o in enumerate(origins):
            st[p[O_LORIG] + i] = o
        for i, (_, card) in enumerate(state.lifted):
            st[p[O_LCARD] + len(placed) + i] = card
        for s in placed:
            st[p[O_USED] + s] = 1
    if state.phase == LEAVE:
        st[N_PENDING] = len(state.pending)
        for i, s in enumerate(state.pending):
            st[p[O_PEND] + i] = s
    per_turn = state.collected_per_turn
    st[CARDS_0], st[CARDS_1] = len(state.collected[0]), len(state.collected[1])
    st[EMPTY_COLLECTS] = sum(1 for k in per_turn if k == 0)
    st[MAX_COLLECT] = max(per_turn, default=0)
    st[N_LEFT] = state.cards_in_layout()
    if state.phase == OVER:
        st[REASON] = TURN_LIMIT if any(state.stacks) else LAYOUT_EMPTY
    return t, st


def same_position(t: KernelTables, a: IntArray, b: IntArray) -> list[str]:
    """Where two kernel states differ in anything the rules read (empty: the same position);
    fields that no longer matter in the current phase (a finished distribution's) are skipped."""
    p = t.params
    out = []
    if layout(t, a) != layout(t, b):
        out.append("layout")
    if piles(t, a) != piles(t, b):
        out.append("piles")
    fields = [
        ("TO_MOVE", TO_MOVE),
        ("PHASE", PHASE),
        ("TURNS", TURNS),
        ("CARDS_0", CARDS_0),
        ("CARDS_1", CARDS_1),
        ("EMPTY_COLLECTS", EMPTY_COLLECTS),
        ("MAX_COLLECT", MAX_COLLECT),
        ("N_LEFT", N_LEFT),
    ]
    phase = int(a[PHASE])
    if phase == PLACE:
        fields += [("N_LIFTED", N_LIFTED), ("LIFT_POS", LIFT_POS), ("MOVED", MOVED)]
        n, pos = int(a[N_LIFTED]), int(a[LIFT_POS])
        for i in range(n):
            fields.append((f"lift_origin[{i}]", int(p[O_LORIG]) + i))
        for i in range(pos, n):
            fields.append((f"lift_card[{i}]", int(p[O_LCARD]) + i))
        for s in range(int(p[N_SITES])):
            fields.append((f"used[{s}]", int(p[O_USED]) + s))
    if phase == LEAVE:
        fields.append(("N_PENDING", N_PENDING))
        for i in range(int(a[N_PENDING])):
            fields.append((f"pending[{i}]", int(p[O_PEND]) + i))
    if phase == OVER:
        fields.append(("REASON", REASON))
    out += [name for name, i in fields if a[i] != b[i]]
    return out


# the cache of this module's jitted functions is emptied when a file they depend on changed
# (numba watches only this file): gamelib/jit_cache.py
guard(globals())
