"""Deck the Yard's search players, compiled on the kernel: ``rollout:N`` and the ``oracle``.

Both search with :mod:`gamelib.deck_the_yard.kernel` (state vectors copied with ``copy()``,
``legal``, ``apply``, and the compiled greedy player as the continuation); the Python players
around them are :class:`gamelib.deck_the_yard.players.RolloutPlayer` and
:class:`~gamelib.deck_the_yard.players.OraclePlayer`.

**A result's value.** The oracle compares finished games by ``(won, claimed)``: a win first,
then the claimed cards (patterns and characters). ``rollout`` scores a decision by its futures'
total of ``claimed + WIN_WEIGHT × won`` (``WIN_WEIGHT`` = 1: a win is worth one more claimed
card), ties to the first decision in legal order. Greedy continuations seldom win (the default
``greedy`` won none of 20,000 standard kernel games here, ``greedy:claim_characters`` 8.7%), so
a few futures' wins are mostly noise, while claims separate the decisions: on 100 standard games
(seeds 99, ``rollout:50``) ranking by wins first (weight 1000) won 17%, by claims alone 31%,
weight 1 29%, weight 2 28%, weight 4 24%. Weight 1 keeps a win in the value at no measurable
cost.

**What ``rollout`` knows: the belief.** :func:`belief` turns a kernel position into what the
player's observation (``DeckTheYardState.observation``) shows, as a canonical kernel state: hand,
strand, pattern row, phase, turn, claim counts and the pending card's kind are kept; the draw
pile holds the unseen cards (every card of the game minus hand, strand, discard pile, claimed
characters and the pending card — exactly the pile, since cards go out of play only when the
pile has run dry) as the lowest card ids of each kind in ascending order; the pattern deck holds
every pattern not in the row in ascending order (the observation counts the claimed patterns but
does not say which, so any of them may be the deck's); counters the observation does not show
are zero, except ``events_drawn`` and ``characters_drawn`` (the discard pile and the claimed
characters show them, and the greedy continuation reads them). :func:`belief_from_observation`
builds the same vector from a ``DeckTheYardObservation``; a test checks the two agree on every
position of many games, so the compiled belief reads nothing the observation hides.

**A determinized future** (:func:`determinize`) shuffles that belief's draw pile and draws the
pattern deck as a uniform ordered sample of the patterns outside the row, both from the future's
own SplitMix64 stream, which then also drives every later reshuffle (a blackout's) inside the
future — so the unseen order and future reshuffles are resampled, nothing is read.
:func:`rollout_decide` plays each legal decision in each of ``n_futures`` futures (the same
futures for every decision: common random numbers) and continues with the compiled greedy player
(plug policy ``policy``) to the end.

**What ``oracle`` knows.** Everything the state holds: the draw pile's and the pattern deck's
order, and the chance stream's state, so it also knows the result of every future reshuffle
(for a given line of play the game is deterministic). :func:`oracle_plan` searches its
decisions by beam search: from the position, each depth (one decision) expands every node of the
beam by every legal decision, values each child by a greedy continuation to the end (policy
``policy``), and keeps the ``width`` best distinct children (ties in generation order, equal
positions once); the best finished line seen anywhere — a beam prefix plus its greedy
continuation — is the plan. The greedy line of every plug policy from the position is a
candidate too, so the plan's result is never below any greedy player's from the same position.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from gamelib.deck_the_yard.kernel import (
    BLACKOUTS,
    CHARACTER,
    CHARACTERS_DRAWN,
    EVENT,
    EVENTS_DRAWN,
    HAND_TOTAL,
    KIND_NAMES,
    N_CARDS,
    N_CHARS,
    N_CLAIMS,
    N_DECK,
    N_HAND_KINDS,
    N_PATTERNS,
    N_PILE,
    N_ROW,
    N_STRAND,
    O_BLACKOUT,
    O_CLAIMS,
    O_DECK,
    O_HAND,
    O_PILE,
    O_ROW,
    O_STRAND,
    PENDING,
    PHASE,
    STATE_LEN,
    STRAND_LEN,
    TURNS,
    W_OUT,
    WIN,
    KernelTables,
    apply,
    greedy,
    legal,
    new_work,
)
from gamelib.deck_the_yard.rules import (
    OVER,
    PHASE_NAMES,
    DeckTheYardObservation,
)
from gamelib.jit_cache import guard, njit_borrowing
from gamelib.kernel_rng import rng_below, rng_next

IntArray = npt.NDArray[np.int64]
WIN_WEIGHT = 1  # rollout: a winning future is worth one more claimed card (see docstring)
N_KINDS = len(KIND_NAMES)
N_POLICIES = 4  # the greedy plug policies, in ``players.POLICIES`` order

# --- positions -----------------------------------------------------------------------------------


@njit(cache=True)
def _kind_ranges(t: Any) -> tuple[Any, Any]:
    """Each kind's first card id and number of cards (a kind's ids are consecutive)."""
    start = np.zeros(N_KINDS, np.int64)
    total = np.zeros(N_KINDS, np.int64)
    for c in range(t.params[N_CARDS] - 1, -1, -1):
        k = t.kind_of[c]
        start[k] = c
        total[k] += 1
    return start, total


@njit(cache=True)
def _fill_belief(t: Any, b: Any, unseen: Any, pending_kind: int) -> None:
    """Write the canonical pile (the lowest ids of each unseen kind, ascending), the pending
    card (its kind's highest id) and the pattern deck (every pattern outside the row,
    ascending) into ``b``, whose header, hand, strand and row are already set."""
    p = t.params
    start, total = _kind_ranges(t)
    at = p[O_PILE]
    for k in range(N_KINDS):
        for i in range(unseen[k]):
            if at < p[O_PILE] + b[N_PILE]:
                b[at] = start[k] + i
                at += 1
    b[PENDING] = -1 if pending_kind < 0 else start[pending_kind] + total[pending_kind] - 1
    at = p[O_DECK]
    for pat in range(p[N_PATTERNS]):
        in_row = False
        for i in range(b[N_ROW]):
            if b[p[O_ROW] + i] == pat:
                in_row = True
        if not in_row:
            b[at] = pat
            at += 1


@njit(cache=True)
def belief(t: Any, st: Any) -> Any:
    """What the observation of kernel position ``st`` shows, as a canonical kernel state (see the
    module docstring): the same vector :func:`belief_from_observation` builds."""
    p = t.params
    b = np.zeros(p[STATE_LEN], np.int64)
    for i in (PHASE, TURNS, N_ROW, N_DECK, N_PILE, N_STRAND, HAND_TOTAL, N_CLAIMS, N_CHARS):
        b[i] = st[i]
    b[EVENTS_DRAWN] = st[EVENTS_DRAWN]
    b[CHARACTERS_DRAWN] = st[CHARACTERS_DRAWN]
    for j in range(N_HAND_KINDS):
        b[p[O_HAND] + j] = st[p[O_HAND] + j]
    for s in range(p[STRAND_LEN]):
        b[p[O_STRAND] + s] = st[p[O_STRAND] + s]
    for i in range(st[N_ROW]):
        b[p[O_ROW] + i] = st[p[O_ROW] + i]
    unseen = np.zeros(N_KINDS, np.int64)
    for i in range(st[N_PILE]):
        unseen[t.kind_of[st[p[O_PILE] + i]]] += 1
    pending_kind = -1 if st[PENDING] < 0 else t.kind_of[st[PENDING]]
    _fill_belief(t, b, unseen, pending_kind)
    return b


def belief_from_observation(t: KernelTables, obs: DeckTheYardObservation) -> IntArray:
    """The canonical kernel state of what ``obs`` shows (see the module docstring)."""
    cfg = obs.config
    p = t.params
    b = np.zeros(int(p[STATE_LEN]), np.int64)
    kind = {name: k for k, name in enumerate(KIND_NAMES)}
    b[PHASE], b[TURNS] = PHASE_NAMES.index(obs.phase), obs.turn
    b[N_ROW], b[N_DECK], b[N_PILE] = len(obs.row), obs.patterns_left, obs.pile_left
    b[HAND_TOTAL], b[N_CLAIMS] = len(obs.hand), obs.claimed_patterns
    b[N_CHARS] = obs.claimed_characters
    seen = np.zeros(N_KINDS, np.int64)  # every card whose place the observation shows
    for name in obs.hand:
        b[int(p[O_HAND]) + kind[name]] += 1
        seen[kind[name]] += 1
    for s, slot in enumerate(obs.strand):
        b[int(p[O_STRAND]) + s] = -1 if slot is None else kind[slot]
        if slot is not None:
            b[N_STRAND] += 1
            seen[kind[slot]] += 1
    for name in obs.discard:
        seen[kind[name]] += 1
    seen[CHARACTER] += obs.claimed_characters
    pending = -1 if obs.pending is None else kind[obs.pending]
    if pending >= 0:
        seen[pending] += 1
    b[EVENTS_DRAWN] = obs.discard.count("event") + (pending == EVENT)
    b[CHARACTERS_DRAWN] = (
        obs.discard.count("character") + obs.claimed_characters + (pending == CHARACTER)
    )
    for i, pattern in enumerate(obs.row):
        b[int(p[O_ROW]) + i] = cfg.patterns.index(pattern)
    total = np.bincount(t.kind_of, minlength=N_KINDS)
    _fill_belief(t, b, total - seen, pending)
    return b


@njit_borrowing
def same_position(t: Any, a: Any, b: Any) -> bool:
    """Whether two kernel states hold the same position (every part the rules read; slots past
    a pile's or row's size are ignored)."""
    p = t.params
    for i in range(p[O_HAND]):
        if a[i] != b[i]:
            return False
    for i in range(p[O_HAND], p[O_ROW] + a[N_ROW]):
        if a[i] != b[i]:
            return False
    for lo, n in (
        (p[O_DECK], a[N_DECK]),
        (p[O_PILE], a[N_PILE]),
        (p[O_CLAIMS], 3 * a[N_CLAIMS]),
        (p[O_BLACKOUT], a[BLACKOUTS]),
    ):
        for i in range(lo, lo + n):
            if a[i] != b[i]:
                return False
    return True


@njit_borrowing
def _position_hash(t: Any, st: Any) -> int:
    """A 64-bit hash of what :func:`same_position` compares (FNV-1a over those ints)."""
    p = t.params
    h = np.uint64(0xCBF29CE484222325)
    prime = np.uint64(0x100000001B3)
    for i in range(p[O_ROW] + st[N_ROW]):
        h = (h ^ np.uint64(st[i] & 0xFFFF)) * prime
    for lo, n in ((p[O_DECK], st[N_DECK]), (p[O_PILE], st[N_PILE])):
        for i in range(lo, lo + n):
            h = (h ^ np.uint64(st[i])) * prime
    return int(h >> np.uint64(1))


# --- playouts ------------------------------------------------------------------------------------


@njit_borrowing
def _playout(t: Any, st: Any, rs: Any, clog: Any, work: Any, policy: int, line: Any) -> int:
    """Play ``st`` to the end with the compiled greedy player (plug policy ``policy``), writing
    its decisions to ``line`` when it has room; returns how many decisions it made."""
    n_dec = 0
    while True:
        n = legal(t, st, work)
        if n == 0:
            return n_dec
        d = greedy(t, st, work, n, policy)
        if n_dec < len(line):
            line[n_dec] = d
        n_dec += 1
        apply(t, st, d, rs, clog, work)


@njit_borrowing
def _claimed(st: Any) -> int:
    return int(st[N_CLAIMS] + st[N_CHARS])


@njit_borrowing
def _won(t: Any, st: Any) -> int:
    return 1 if st[PHASE] == OVER and _claimed(st) >= t.params[WIN] else 0


# --- rollout --------------------------------------------------------------------------------


@njit_borrowing
def determinize(t: Any, b: Any, st: Any, rs: Any) -> None:
    """One future consistent with belief ``b``: ``st`` becomes ``b`` with its draw pile shuffled
    and its pattern deck drawn from the patterns outside the row, from stream ``rs[0]``."""
    p = t.params
    for i in range(len(b)):
        st[i] = b[i]
    o = p[O_PILE]
    for c in range(b[N_PILE] - 1, 0, -1):
        k = rng_below(rs, 0, c + 1)
        st[o + c], st[o + k] = st[o + k], st[o + c]
    o = p[O_DECK]
    n_cand = p[N_PATTERNS] - b[N_ROW]
    for c in range(n_cand - 1, 0, -1):
        k = rng_below(rs, 0, c + 1)
        st[o + c], st[o + k] = st[o + k], st[o + c]


@njit(cache=True)
def rollout_values(t: Any, b: Any, seed: int, n_futures: int, policy: int) -> Any:
    """For each legal decision of belief ``b``: ``(decision, winning futures, claimed cards
    summed over the futures)``, one row per decision in legal order, over ``n_futures``
    determinized futures (shared by every decision) continued by greedy ``policy``."""
    work = new_work(t)
    n = legal(t, b, work)
    out = np.zeros((n, 3), np.int64)
    for m in range(n):
        out[m, 0] = work[W_OUT, m]
    root = np.empty(1, np.uint64)
    root[0] = np.uint64(seed)
    rs = np.zeros(2, np.uint64)
    det = np.empty_like(b)
    st = np.empty_like(b)
    no_log = np.zeros(0, np.int64)
    no_line = np.zeros(0, np.int64)
    for _ in range(n_futures):
        rs[0] = rng_next(root, 0)
        determinize(t, b, det, rs)
        after = rs[0]  # every decision meets the same later reshuffles
        for m in range(n):
            st[:] = det
            rs[0] = after
            apply(t, st, out[m, 0], rs, no_log, work)
            _playout(t, st, rs, no_log, work, policy, no_line)
            out[m, 1] += _won(t, st)
            out[m, 2] += _claimed(st)
    return out


@njit(cache=True)
def rollout_decide(
    t: Any, b: Any, seed: int, n_futures: int, policy: int, win_weight: int = WIN_WEIGHT
) -> int:
    """The decision with the best total ``win_weight`` × winning futures + claimed cards (see
    :func:`rollout_values`), ties to the first in legal order; a forced decision is returned
    unsearched."""
    work = new_work(t)
    if legal(t, b, work) == 1:
        return int(work[W_OUT, 0])
    v = rollout_values(t, b, seed, n_futures, policy)
    best, best_v = 0, -1
    for m in range(len(v)):
        value = win_weight * v[m, 1] + v[m, 2]
        if value > best_v:
            best, best_v = m, value
    return int(v[best, 0])


# --- the oracle's beam search ----------------------------------------------------------------


@njit(cache=True)
def _better(won: int, claimed: int, best_won: int, best_claimed: int) -> bool:
    return won > best_won or (won == best_won and claimed > best_claimed)


@njit(cache=True)
def oracle_plan(t: Any, st: Any, chance: Any, width: int, policy: int) -> Any:
    """The best line the beam search finds from exact position ``st`` whose chance stream is at
    ``chance`` (see the module docstring). Returns ``(line, won, claimed)``: every decision to
    the end of the game, and the result it reaches."""
    p = t.params
    work = new_work(t)
    no_log = np.zeros(0, np.int64)
    max_len = 2 * p[N_CARDS] + 8  # a turn per card entering the hand, a plug choice per special
    rs = np.zeros(2, np.uint64)
    scratch = np.empty_like(st)
    tail = np.zeros(max_len, np.int64)
    best_line = np.zeros(max_len, np.int64)
    best_len, best_won, best_claimed = 0, -1, -1
    # the greedy line of every plug policy is a candidate
    for pol in range(N_POLICIES):
        scratch[:] = st
        rs[0] = np.uint64(chance)
        n_dec = _playout(t, scratch, rs, no_log, work, pol, tail)
        won, claimed = _won(t, scratch), _claimed(scratch)
        if _better(won, claimed, best_won, best_claimed):
            best_won, best_claimed, best_len = won, claimed, n_dec
            best_line[:n_dec] = tail[:n_dec]
    # the beam: states, their chance streams and decision prefixes
    beam = np.empty((width, len(st)), np.int64)
    beam_rs = np.empty(width, np.uint64)
    prefix = np.zeros((width, max_len), np.int64)
    beam[0] = st
    beam_rs[0] = np.uint64(chance)
    n_beam, depth = 1, 0
    if st[PHASE] == OVER:
        n_beam = 0
    max_children = width * (N_HAND_KINDS + 9)
    cand_parent = np.empty(max_children, np.int64)
    cand_d = np.empty(max_children, np.int64)
    cand_key = np.empty(max_children, np.int64)
    cand_hash = np.empty(max_children, np.int64)
    new_beam = np.empty_like(beam)
    new_rs = np.empty_like(beam_rs)
    new_prefix = np.empty_like(prefix)
    options = np.empty(N_HAND_KINDS + 9, np.int64)
    kept_hash = np.empty(width, np.int64)
    while n_beam > 0:
        n_cand = 0
        for j in range(n_beam):
            n = legal(t, beam[j], work)
            for m in range(n):
                options[m] = work[W_OUT, m]
            for m in range(n):
                d = options[m]
                scratch[:] = beam[j]
                rs[0] = beam_rs[j]
                apply(t, scratch, d, rs, no_log, work)
                h = _position_hash(t, scratch)
                n_dec = _playout(t, scratch, rs, no_log, work, policy, tail)
                won, claimed = _won(t, scratch), _claimed(scratch)
                if _better(won, claimed, best_won, best_claimed):
                    best_won, best_claimed = won, claimed
                    best_line[:depth] = prefix[j, :depth]
                    best_line[depth] = d
                    best_line[depth + 1 : depth + 1 + n_dec] = tail[:n_dec]
                    best_len = depth + 1 + n_dec
                if n_dec == 0:
                    continue  # the decision ends the game: nothing left to expand
                cand_parent[n_cand], cand_d[n_cand], cand_hash[n_cand] = j, d, h
                # larger is better: won, then claimed, then earlier generation
                cand_key[n_cand] = (won * 64 + claimed) * max_children + (max_children - n_cand)
                n_cand += 1
        order = np.argsort(-cand_key[:n_cand])
        n_new = 0
        for i in order:
            if n_new == width:
                break
            dup = False
            for q in range(n_new):
                if kept_hash[q] == cand_hash[i]:
                    dup = True
                    break
            if dup:
                continue
            kept_hash[n_new] = cand_hash[i]
            j = cand_parent[i]
            new_beam[n_new] = beam[j]
            rs[0] = beam_rs[j]
            apply(t, new_beam[n_new], cand_d[i], rs, no_log, work)
            new_rs[n_new] = rs[0]
            new_prefix[n_new, :depth] = prefix[j, :depth]
            new_prefix[n_new, depth] = cand_d[i]
            n_new += 1
        beam, new_beam = new_beam, beam
        beam_rs, new_rs = new_rs, beam_rs
        prefix, new_prefix = new_prefix, prefix
        n_beam = n_new
        depth += 1
    return best_line[:best_len].copy(), best_won, best_claimed


# the cache of this module's jitted functions is emptied when a file they depend on changed
# (numba watches only this file): gamelib/jit_cache.py
guard(globals())
