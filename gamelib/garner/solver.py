"""Garner's exact endgame solver, and how often a player keeps a position's value.

*Why one file (770 lines):* numba's on-disk cache is keyed on the file a jitted function lives
in and does not follow calls into other files (a cached caller keeps the old code of a callee
edited elsewhere), so the jitted functions that call one another in the hot loop stay in one
module, compiled, cached and invalidated as one unit.

Garner has no hidden information and no chance after the deal, so every position has a
game-theoretic value: seat 0's result under perfect play by both seats (1 win, 0.5 draw,
0 loss; suits won weighted, a ``turn_limit`` ending a draw — ``search.final_reward``'s result).
This module owns that value:

* **The search** (compiled): alpha–beta minimax over exactly the kernel's sub-decisions
  (``kernel.legal`` / ``kernel.apply``: lift a number_group, place each lifted card, collect a
  suit_group, leave a card behind). The seat to move is ``st[TO_MOVE]`` at every node, so the
  several sub-decisions of one turn all maximise (seat 0) or all minimise (seat 1) — they are
  not alternations. Alpha–beta with fail-soft bounds follows Knuth & Moore, "An analysis of
  alpha-beta pruning", *Artificial Intelligence* 6 (1975); positions are hashed with Zobrist's
  scheme (Zobrist, "A new hashing method with application for game playing", 1970) into a
  transposition table that keeps a lower and an upper bound per position (an exact value when
  they meet) and the decision that was best or cut off there.
* **Null windows**: results are only loss/draw/win (0/1/2 inside the search), so a value is
  settled by at most two zero-width tests ("is it at least a draw?", "is it a win?"), the first
  one guessed by a greedy playout; the second test reuses the first one's table.
* **Static bounds**: a suit is decided once a seat holds more of it than its rival can still
  reach; when the decided suits fix the result whatever happens to the open ones, the search
  stops there (bounds for seat 0's best and worst case, one suit at a time).
* **Move ordering**: the table's decision first, then the compiled greedy's estimates
  (``kernel_players``): lifts by greedy's value of the turn they start, the lifted card greedy
  plans to join a suit group on its target first, then placements that stay below the top
  level, each class by how often the site cut the search off for that card before (the
  history heuristic, Schaeffer 1989); collects by greedy's worth. Greedy's lift estimates
  make a node about a third dearer and pay for it many times over: two setup-A deals are
  solved in about half a million nodes with them, and not within 3 million without.
* **Decided suits** are hashed by their winner only, so lines where the seats split such a
  suit's last cards differently meet in the table.

The Python API (:class:`Solver`, :func:`solve`, :func:`option_values`, :func:`keeping_moves`)
takes reference positions (:class:`~gamelib.garner.rules.GarnerState`, mid-turn ones included,
any setup and rule variation the kernel plays) and a node budget: a search that would pass it
stops and raises :class:`SolverBudgetError`, so callers bound their time.

**Keeping the value** — how often a player's move keeps a position's value, the ladder's
distance from perfect play — is measured in :mod:`gamelib.garner.keeps` on top of this module.

Layout, shaped for speed: the search runs on an explicit stack of preallocated per-depth rows
(state vectors, ordered options, greedy's lift plans, the nodes' windows) — numba cannot cache a
recursive function (numba issue #6061: loading it segfaults) — so a node allocates nothing; the
table is four flat arrays indexed by the low bits of the 64-bit hash.

Caching: numba's on-disk cache notices edits to this file only; the module ends with
:func:`gamelib.jit_cache.guard`, which empties its cache when ``kernel.py``,
``kernel_players.py`` or any other file it imports has changed, so nothing stale is loaded.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from gamelib.core import ConfigError, GamelibError
from gamelib.garner.kernel import (
    FPS,
    LIFT_POS,
    MAX_TURNS,
    MOVED,
    MUST_MOVE,
    MUST_ONE,
    N_CARDS,
    N_LEFT,
    N_LIFTED,
    N_PENDING,
    N_SITES,
    N_SUITS,
    O_BELOW,
    O_HEIGHT,
    O_LCARD,
    O_LORIG,
    O_PEND,
    O_PILE,
    O_TOP,
    O_USED,
    PHASE,
    REASON,
    STATE_LEN,
    TO_MOVE,
    TOP_SURFACE,
    TURN_LIMIT,
    TURNS,
    W_OUT,
    KernelTables,
    apply,
    from_reference,
    legal,
    new_work,
    tables,
)
from gamelib.garner.kernel_players import (
    F_PLAN,
    GREEDY,
    P_AVOID0,
    P_LIFTS,
    P_PLAN,
    collect_values,
    lift_plan,
    new_player_work,
    play_game,
    player_tables,
    prepare_lifts,
)
from gamelib.garner.rules import (
    COLLECT,
    LEAVE,
    LIFT,
    OVER,
    PLACE,
    GarnerConfig,
    GarnerState,
)
from gamelib.jit_cache import guard
from gamelib.kernel_rng import streams

IntArray = npt.NDArray[np.int64]

LOSS, DRAW, WIN = 0, 1, 2
"""Results inside the search, for seat 0 (``value / 2`` is the public 0 / 0.5 / 1)."""

# --- the context's int fields (``SolverContext.zp``) ------------------------------------------
Z_CARD, Z_MAXH, Z_PILE, Z_PSTRIDE, Z_SIDE, Z_PHASE, Z_LIFT, Z_USED = range(8)
Z_MOVED, Z_PEND, Z_TURN, Z_USE_TURNS, Z_USE_MOVED, Z_ORDER, Z_MASK = range(8, 15)
Z_TOTAL = 15  # the last field: from here, each suit's number of cards

# --- the search's counters (``SolverContext.stats``) ------------------------------------------
S_NODES, S_BUDGET, S_ABORT, S_TT_HITS, S_DEPTH = range(5)
N_STATS = 5
ABORT_BUDGET, ABORT_DEPTH = 1, 2

# --- a node's frame in the explicit stack (``SolverContext.frames[depth]``) --------------------
FR_ALPHA, FR_BETA, FR_CI, FR_TG, FR_A, FR_B, FR_A0, FR_B0 = range(8)
FR_LO, FR_HI, FR_BEST, FR_BESTD, FR_K, FR_N, FR_SLOT, FR_MAX = range(8, 16)
N_FRAME = 16

MAX_DEPTH = 4000
"""Deepest line the search follows (decisions); deeper (a stalling never-exactly-6 line run to
``max_turns``) stops it with a SolverBudgetError instead of overflowing the stack."""

UNLIMITED = np.iinfo(np.int64).max


class SolverBudgetError(GamelibError):
    """A solve that would have searched more positions than its node budget allowed."""


class SolverContext(NamedTuple):
    """What the compiled search reads and writes (one per :class:`Solver`): the Zobrist keys
    ``z`` and their offsets ``zp`` (``Z_*``), the transposition table (``tt_key``; ``tt_lo``
    and ``tt_hi`` the bounds on seat 0's result; ``tt_move`` the decision that was best or cut
    off), per-depth rows (``states``, ``moves`` in search order, ``plans``: greedy's
    ``(card, target)`` for each lift, ``frames``: each open node's window and progress),
    scratch, the counters ``stats`` (``S_*``) and ``hist[card, site]``: how often placing that
    card there cut the search off (the history heuristic)."""

    z: npt.NDArray[np.uint64]
    zp: IntArray
    tt_key: npt.NDArray[np.uint64]
    tt_lo: npt.NDArray[np.int8]
    tt_hi: npt.NDArray[np.int8]
    tt_move: npt.NDArray[np.int16]
    states: IntArray
    moves: IntArray
    scores: npt.NDArray[np.float64]
    plans: IntArray
    frames: IntArray
    hashes: npt.NDArray[np.uint64]
    work: IntArray
    pw: IntArray
    fv: npt.NDArray[np.float64]
    stats: IntArray
    hist: IntArray


# --- hashing and static bounds ------------------------------------------------------------------


@njit(cache=True)
def position_hash(t: Any, c: Any, st: Any) -> Any:
    """Zobrist hash of everything the rest of the game depends on: every stack (card, site,
    level), both scoring piles (a decided suit only by its winner, unless never-exactly-N
    reads pile sizes), the seat to move and the decision, the lifted cards still to
    place (with their origins) and the sites already given one, the group awaiting the
    leave-behind, and — only where ``max_turns`` could still end the game — the turn count."""
    p = t.params
    z, zp = c.z, c.zp
    n_sites = p[N_SITES]
    o_top, o_below, o_height = p[O_TOP], p[O_BELOW], p[O_HEIGHT]
    zc, maxh = zp[Z_CARD], zp[Z_MAXH]
    h = np.uint64(0)
    for s in range(n_sites):
        card = st[o_top + s]
        lv = st[o_height + s] - 1
        while card >= 0:
            h ^= z[zc + (card * n_sites + s) * maxh + lv]
            card = st[o_below + card]
            lv -= 1
    n_suits = p[N_SUITS]
    zpile, stride = zp[Z_PILE], zp[Z_PSTRIDE]
    o = p[O_PILE]
    counts = p[FPS] >= 0  # never-exactly-N reads every pile's size
    for u in range(n_suits):
        a = st[o + u]
        b = st[o + n_suits + u]
        r = zp[Z_TOTAL + u] - a - b
        # a decided suit counts only for its winner, so positions where the seats split its
        # cards differently are one position (a + b is fixed by the layout otherwise)
        if not counts and a > b + r:
            h ^= z[zpile + u * stride]
        elif not counts and b > a + r:
            h ^= z[zpile + (n_suits + u) * stride]
        else:
            h ^= z[zpile + u * stride + 1 + a]
            h ^= z[zpile + (n_suits + u) * stride + 1 + b]
    if st[TO_MOVE] == 1:
        h ^= z[zp[Z_SIDE]]
    phase = st[PHASE]
    h ^= z[zp[Z_PHASE] + phase]
    if phase == PLACE:
        for i in range(st[LIFT_POS], st[N_LIFTED]):
            h ^= z[zp[Z_LIFT] + st[p[O_LCARD] + i] * n_sites + st[p[O_LORIG] + i]]
        for s in range(n_sites):
            if st[p[O_USED] + s]:
                h ^= z[zp[Z_USED] + s]
        if zp[Z_USE_MOVED] and st[MOVED]:
            h ^= z[zp[Z_MOVED]]
    elif phase == LEAVE:
        for i in range(st[N_PENDING]):
            h ^= z[zp[Z_PEND] + st[p[O_PEND] + i]]
    if zp[Z_USE_TURNS]:
        h ^= z[zp[Z_TURN] + st[TURNS]]
    return h


@njit(cache=True)
def final_result(t: Any, st: Any) -> int:
    """End and result, for seat 0: WIN, DRAW (equal totals, or a turn_limit end) or LOSS."""
    if st[REASON] == TURN_LIMIT:
        return DRAW
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
    return WIN if s0 > s1 else LOSS if s1 > s0 else DRAW


@njit(cache=True)
def static_bounds(t: Any, suit_total: Any, st: Any) -> Any:
    """Bounds on seat 0's result from the suits alone: ``(lo, hi)``.

    A suit with ``r`` cards still in play goes to seat 0 at best if ``a + r > b`` and surely if
    ``a > b + r`` (``a``, ``b`` the seats' piles); seat 0's best case takes every suit it can
    still win and concedes only those it surely loses, its worst case the reverse. Where a
    turn_limit end is still possible (never-exactly-6, or fewer turns left than cards), a draw
    stays within the bounds."""
    p = t.params
    n_suits = p[N_SUITS]
    o = p[O_PILE]
    best0 = sure0 = best1 = sure1 = 0.0
    for u in range(n_suits):
        a = st[o + u]
        b = st[o + n_suits + u]
        r = suit_total[u] - a - b
        w = t.weights[u]
        if a + r > b:
            best0 += w
        if a > b + r:
            sure0 += w
        if b + r > a:
            best1 += w
        if b > a + r:
            sure1 += w
    hi = WIN if best0 > sure1 else DRAW if best0 == sure1 else LOSS
    lo = WIN if sure0 > best1 else DRAW if sure0 == best1 else LOSS
    if p[FPS] >= 0 or st[TURNS] + st[N_LEFT] > p[MAX_TURNS]:
        hi = max(hi, DRAW)
        lo = min(lo, DRAW)
    return lo, hi


# --- the search -----------------------------------------------------------------------------------


@njit(cache=True)
def _order(t: Any, pt: Any, c: Any, st: Any, d: int, n: int, tt_d: int, ci: int, tg: int) -> None:
    """Write the ``n`` legal decisions ``legal`` just wrote to ``c.moves[d]`` in search order:
    the table's decision first, then by greedy's estimates (lifts by the value of their planned
    turn, each lift's plan kept in ``c.plans[d]``; the planned card on its target; placements
    that stay below the top level; collects by greedy's worth); ties keep legal order."""
    p = t.params
    work, pw, fv = c.work, c.pw, c.fv
    moves, scores, plans = c.moves[d], c.scores[d], c.plans[d]
    phase = st[PHASE]
    seat = st[TO_MOVE]
    for k in range(n):
        moves[k] = work[W_OUT, k]
        scores[k] = 0.0
        plans[k, 0] = -1
        plans[k, 1] = -1
    if c.zp[Z_ORDER] and n > 1:
        if phase == LIFT:
            nc, top, n_top = prepare_lifts(t, pt, st, seat, n, work, pw, fv)
            avoid = pw[P_AVOID0 + seat]
            for k in range(n):
                v, pci, ptg = lift_plan(
                    t, pt, st, seat, k, nc, top, n_top, work, pw, fv, avoid, False
                )
                moves[k] = pw[P_LIFTS, k]
                scores[k] = v
                plans[k, 0] = pci
                plans[k, 1] = ptg
        elif phase == PLACE:
            pos = st[LIFT_POS]
            level = p[TOP_SURFACE] == 0
            top = 0
            for s in range(p[N_SITES]):
                top = max(top, st[p[O_HEIGHT] + s])
            card = st[p[O_LCARD] + pos]
            for k in range(n):
                s = moves[k]
                # within each class, the sites where this card cut the search off before
                # (the history heuristic) come first
                cuts = c.hist[card, s] / (1.0 + c.hist[card, s])
                if pos == ci and s == tg:
                    scores[k] = 2.0 + cuts
                elif not level or st[p[O_HEIGHT] + s] < top or top == 0:
                    scores[k] = 1.0 + cuts
                else:
                    scores[k] = cuts
        elif phase == COLLECT:
            collect_values(t, pt, st, seat, n, work, fv)
            for k in range(n):
                scores[k] = fv[F_PLAN, k]
    for k in range(n):
        if moves[k] == tt_d:
            scores[k] = np.inf
    for k in range(1, n):  # insertion sort, highest score first, stable
        m, sc, a, b = moves[k], scores[k], plans[k, 0], plans[k, 1]
        j = k - 1
        while j >= 0 and scores[j] < sc:
            moves[j + 1] = moves[j]
            scores[j + 1] = scores[j]
            plans[j + 1, 0] = plans[j, 0]
            plans[j + 1, 1] = plans[j, 1]
            j -= 1
        moves[j + 1] = m
        scores[j + 1] = sc
        plans[j + 1, 0] = a
        plans[j + 1, 1] = b


@njit(cache=True)
def _enter(t: Any, pt: Any, c: Any, d: int) -> Any:
    """Open node ``d`` (its window and plan already in ``c.frames[d]``): returns its result when
    it is settled at once (game over, static bounds, the table, a cut by bounds) or -1 after
    generating and ordering its decisions (the frame then holds the running search)."""
    stats = c.stats
    if stats[S_NODES] >= stats[S_BUDGET]:
        stats[S_ABORT] = ABORT_BUDGET
        return DRAW
    stats[S_NODES] += 1
    st = c.states[d]
    if st[PHASE] == OVER:
        return final_result(t, st)
    lo, hi = static_bounds(t, pt.suit_total, st)
    if lo == hi:
        return lo
    fr = c.frames[d]
    h = position_hash(t, c, st)
    slot = np.int64(h & np.uint64(c.zp[Z_MASK]))
    tt_d = -1
    if c.tt_key[slot] == h:
        stats[S_TT_HITS] += 1
        lo = max(lo, np.int64(c.tt_lo[slot]))
        hi = min(hi, np.int64(c.tt_hi[slot]))
        tt_d = int(c.tt_move[slot])
        if lo >= hi:
            return lo
    if lo >= fr[FR_BETA]:
        return lo
    if hi <= fr[FR_ALPHA]:
        return hi
    if d + 1 >= len(c.states):
        stats[S_ABORT] = ABORT_DEPTH
        return DRAW
    stats[S_DEPTH] = max(stats[S_DEPTH], d + 1)
    c.hashes[d] = h
    fr[FR_SLOT] = slot
    fr[FR_LO] = lo
    fr[FR_HI] = hi
    fr[FR_A0] = fr[FR_A] = max(fr[FR_ALPHA], lo)
    fr[FR_B0] = fr[FR_B] = min(fr[FR_BETA], hi)
    n = legal(t, st, c.work)
    _order(t, pt, c, st, d, n, tt_d, fr[FR_CI], fr[FR_TG])
    fr[FR_N] = n
    fr[FR_K] = 0
    fr[FR_MAX] = st[TO_MOVE] == 0
    fr[FR_BEST] = -1 if fr[FR_MAX] else 3
    fr[FR_BESTD] = -1
    return -1


@njit(cache=True)
def _descend(t: Any, c: Any, d: int) -> None:
    """Make node ``d``'s next decision into ``c.states[d + 1]`` and set the child's window
    (node ``d``'s running one) and greedy plan."""
    fr = c.frames[d]
    k = fr[FR_K]
    fr[FR_K] = k + 1
    st = c.states[d]
    child = c.states[d + 1]
    child[:] = st
    apply(t, child, c.moves[d, k], c.work)
    cf = c.frames[d + 1]
    cf[FR_ALPHA] = fr[FR_A]
    cf[FR_BETA] = fr[FR_B]
    phase = st[PHASE]
    if phase == LIFT:
        cf[FR_CI], cf[FR_TG] = c.plans[d, k, 0], c.plans[d, k, 1]
    elif phase == PLACE:
        cf[FR_CI], cf[FR_TG] = fr[FR_CI], fr[FR_TG]
    else:
        cf[FR_CI], cf[FR_TG] = -1, -1


@njit(cache=True)
def _close(c: Any, d: int) -> int:
    """Node ``d`` has searched its decisions (or cut off): store what it proved in the table
    and return its fail-soft result."""
    fr = c.frames[d]
    best = fr[FR_BEST]
    lo, hi = fr[FR_LO], fr[FR_HI]
    if best <= fr[FR_A0]:
        hi = min(hi, best)
    elif best >= fr[FR_B0]:
        lo = max(lo, best)
    else:
        lo = hi = best
    slot = fr[FR_SLOT]
    c.tt_key[slot] = c.hashes[d]
    c.tt_lo[slot] = lo
    c.tt_hi[slot] = hi
    c.tt_move[slot] = fr[FR_BESTD]
    return int(best)


@njit(cache=True)
def alphabeta(t: Any, pt: Any, c: Any, root: Any, alpha: int, beta: int) -> int:
    """Seat 0's result at ``root`` by fail-soft alpha–beta within ``(alpha, beta)``.

    A result ``g`` with ``alpha < g < beta`` is exact; ``g <= alpha`` means the value is at most
    ``g``, ``g >= beta`` at least ``g``. Seat 0 maximises and seat 1 minimises at their own
    sub-decisions, whoever moved before. The recursion runs on explicit per-depth frames
    (``c.frames``; numba cannot cache recursive functions). Counts nodes in ``c.stats`` and
    stops (``S_ABORT``) past the budget or ``MAX_DEPTH``; an aborted search's result means
    nothing (what it stored before stopping is proved and stays)."""
    c.states[0, :] = root
    fr = c.frames[0]
    fr[FR_ALPHA] = alpha
    fr[FR_BETA] = beta
    fr[FR_CI] = -1
    fr[FR_TG] = -1
    d = 0
    ret = _enter(t, pt, c, 0)
    while True:
        if c.stats[S_ABORT]:
            return DRAW
        if ret < 0:  # node d is open: search its next decision, or close it
            fr = c.frames[d]
            if fr[FR_K] < fr[FR_N] and fr[FR_A] < fr[FR_B]:
                _descend(t, c, d)
                d += 1
                ret = _enter(t, pt, c, d)
                continue
            ret = _close(c, d)
        # node d is settled with result ret: hand it to its parent
        if d == 0:
            return int(ret)
        d -= 1
        fr = c.frames[d]
        m = c.moves[d, fr[FR_K] - 1]
        if fr[FR_MAX]:
            if ret > fr[FR_BEST]:
                fr[FR_BEST] = ret
                fr[FR_BESTD] = m
                fr[FR_A] = max(fr[FR_A], ret)
        elif ret < fr[FR_BEST]:
            fr[FR_BEST] = ret
            fr[FR_BESTD] = m
            fr[FR_B] = min(fr[FR_B], ret)
        if fr[FR_A] >= fr[FR_B] and c.states[d, PHASE] == PLACE:
            pos = c.states[d, LIFT_POS]
            c.hist[c.states[d, t.params[O_LCARD] + pos], m] += 1
        ret = -1


@njit(cache=True)
def greedy_guess(t: Any, pt: Any, root: Any, seed: int) -> int:
    """Seat 0's result when the compiled greedy plays ``root`` out on both seats: the first
    guess of the null-window tests."""
    st = root.copy()
    codes = np.zeros((2, 2), np.int64)
    codes[:, 0] = GREEDY
    work = new_work(t)
    pw, fv = new_player_work(t)
    pw[P_PLAN, :4] = -1  # a mid-turn root: no plan known, greedy places anywhere safe
    decisions = np.empty(256, np.int64)
    counts = np.zeros(2, np.int64)
    play_game(t, pt, codes, streams(seed, 3), st, work, pw, fv, decisions, counts)
    return final_result(t, st)


# --- from Python ----------------------------------------------------------------------------------

ZOBRIST_SEED = 0x5EED_6A12
"""Seed of the Zobrist keys (fixed: a position hashes the same in every run)."""
MAX_KEYS = 1 << 22
"""Largest Zobrist table built (card × site × level keys); bigger decks are refused."""
DEFAULT_TT_BITS = 20
"""The transposition table holds ``2**tt_bits`` positions (13 bytes each)."""


def _zobrist(config: GarnerConfig, t: KernelTables) -> tuple[npt.NDArray[np.uint64], IntArray]:
    """The Zobrist keys of one config and their offsets (``Z_*``)."""
    p = t.params
    n_sites, n_cards, n_suits = int(p[N_SITES]), int(p[N_CARDS]), int(p[N_SUITS])
    zp = np.zeros(Z_TOTAL + n_suits, np.int64)
    maxh = n_cards  # a stack can at most hold every card
    stride = max(config.suit_sizes) + 2  # key 0: the suit is decided for this seat
    sizes = [
        (Z_CARD, n_cards * n_sites * maxh),
        (Z_PILE, 2 * n_suits * stride),
        (Z_SIDE, 1),
        (Z_PHASE, 5),
        (Z_LIFT, n_cards * n_sites),
        (Z_USED, n_sites),
        (Z_MOVED, 1),
        (Z_PEND, n_sites),
        (Z_TURN, config.max_turns + 1),
    ]
    total = sum(size for _, size in sizes)
    if total > MAX_KEYS:
        raise ConfigError(
            f"the solver's Zobrist table holds at most {MAX_KEYS} keys (card × site × level); "
            f"{n_cards} cards on {n_sites} sites would need {total}"
        )
    at = 0
    for field, size in sizes:
        zp[field] = at
        at += size
    zp[Z_MAXH], zp[Z_PSTRIDE] = maxh, stride
    zp[Z_TOTAL : Z_TOTAL + n_suits] = config.suit_sizes
    zp[Z_USE_MOVED] = int(p[MUST_MOVE]) == MUST_ONE
    rng = np.random.default_rng(ZOBRIST_SEED)
    z = rng.integers(0, np.iinfo(np.uint64).max, size=total, dtype=np.uint64, endpoint=True)
    return z, zp


def _max_depth(config: GarnerConfig, t: KernelTables) -> int:
    """Rows of the per-depth arrays: the longest line of decisions a game can still take."""
    p = t.params
    n_sites, n_cards = int(p[N_SITES]), int(p[N_CARDS])
    if config.forbidden_pile_size is not None:
        return MAX_DEPTH  # empty collects: a line can run on to max_turns
    # every turn removes a card and takes a lift, at most n_sites placements and a collect
    return min(MAX_DEPTH, n_cards * (n_sites + 2) + n_sites + 4)


class Solver:
    """Exact values of Garner positions of one config, sharing one transposition table.

    ``tt_bits``: the table holds ``2**tt_bits`` positions (13 bytes each; always-replace).
    ``ordering``: try the table's and greedy's decisions first (False: legal order; the same
    values, more nodes — for tests and benchmarks). After each call, :attr:`nodes` holds the
    positions it searched."""

    def __init__(
        self, config: GarnerConfig, *, tt_bits: int = DEFAULT_TT_BITS, ordering: bool = True
    ) -> None:
        if not isinstance(config, GarnerConfig):
            raise ConfigError(f"Solver needs a GarnerConfig, got {type(config).__name__}")
        if not isinstance(tt_bits, int) or not 4 <= tt_bits <= 30:
            raise ConfigError(f"tt_bits must be an int from 4 to 30, got {tt_bits!r}")
        self.config = config
        self.t = tables(config)
        self.pt = player_tables(config)
        z, zp = _zobrist(config, self.t)
        zp[Z_ORDER] = int(bool(ordering))
        size = 1 << tt_bits
        zp[Z_MASK] = size - 1
        depth = _max_depth(config, self.t)
        n_sites = int(self.t.params[N_SITES])
        work = new_work(self.t)
        pw, fv = new_player_work(self.t)
        self.ctx = SolverContext(
            z,
            zp,
            np.zeros(size, np.uint64),
            np.zeros(size, np.int8),
            np.full(size, WIN, np.int8),  # an empty slot bounds nothing, even if a key hits it
            np.full(size, -1, np.int16),
            np.zeros((depth, int(self.t.params[STATE_LEN])), np.int64),
            np.zeros((depth, n_sites + 1), np.int64),
            np.zeros((depth, n_sites + 1), np.float64),
            np.zeros((depth, n_sites + 1, 2), np.int64),
            np.zeros((depth, N_FRAME), np.int64),
            np.zeros(depth, np.uint64),
            work,
            pw,
            fv,
            np.zeros(N_STATS, np.int64),
            np.zeros((int(self.t.params[N_CARDS]), n_sites), np.int64),
        )
        #: the positions the last call searched
        self.nodes = 0
        self._budget = UNLIMITED

    def clear(self) -> None:
        """Forget every stored position and the history counts (a cold start, for timings)."""
        c = self.ctx
        c.tt_key[:] = 0
        c.tt_lo[:] = LOSS
        c.tt_hi[:] = WIN
        c.tt_move[:] = -1
        c.hist[:] = 0

    # -- the kernel-state core --
    def _start(self, max_nodes: int | None) -> None:
        if max_nodes is not None and (
            not isinstance(max_nodes, int) or isinstance(max_nodes, bool) or max_nodes < 1
        ):
            raise ConfigError(f"max_nodes must be None or a positive int, got {max_nodes!r}")
        self.nodes = 0
        self._budget = UNLIMITED if max_nodes is None else max_nodes

    def _test(self, st: IntArray, alpha: int, beta: int) -> int:
        """One window test of kernel state ``st`` within the call's node budget."""
        c = self.ctx
        c.stats[:] = 0
        c.stats[S_BUDGET] = self._budget - self.nodes
        p = self.t.params
        c.zp[Z_USE_TURNS] = int(
            self.config.forbidden_pile_size is not None
            or st[TURNS] + st[N_LEFT] > int(p[MAX_TURNS])
        )
        g = int(alphabeta(self.t, self.pt, c, st, alpha, beta))
        self.nodes += int(c.stats[S_NODES])
        if c.stats[S_ABORT] == ABORT_DEPTH:
            raise SolverBudgetError(
                f"the solver's line passed {len(c.states)} decisions (a never-exactly-6 game "
                "stalling towards max_turns?); solve positions with fewer turns left"
            )
        if c.stats[S_ABORT]:
            raise SolverBudgetError(
                f"the solve needs more than max_nodes={self._budget} positions; raise "
                "max_nodes, or solve positions with fewer cards left"
            )
        return g

    def value_of(self, st: IntArray, max_nodes: int | None = None) -> int:
        """Seat 0's result at kernel state ``st`` as LOSS/DRAW/WIN (0/1/2): null-window tests
        (at most two), the first at a greedy playout's result."""
        self._start(max_nodes)
        return self._value(st)

    def _value(self, st: IntArray) -> int:
        if st[PHASE] == OVER:
            return int(final_result(self.t, st))
        lo, hi = (int(x) for x in static_bounds(self.t, self.pt.suit_total, st))
        if lo < hi:
            thr = max(int(greedy_guess(self.t, self.pt, st, 0)), lo + 1)
            thr = min(thr, hi)
            while lo < hi:
                g = self._test(st, thr - 1, thr)
                if g >= thr:
                    lo = max(lo, g)
                else:
                    hi = min(hi, g)
                thr = hi
        return lo

    def _keeps(self, child: IntArray, v: int, mover: int) -> bool:
        """Whether ``child`` keeps value ``v`` for ``mover`` (one null-window test)."""
        if mover == 0:
            return v == LOSS or self._test_at_least(child, v)
        return v == WIN or not self._test_at_least(child, v + 1)

    def _test_at_least(self, st: IntArray, thr: int) -> bool:
        if st[PHASE] == OVER:
            return int(final_result(self.t, st)) >= thr
        return self._test(st, thr - 1, thr) >= thr

    def _children(self, state: GarnerState) -> tuple[IntArray, list[IntArray]]:
        self._check(state)
        t, st = from_reference(state)
        work = self.ctx.work
        n = int(legal(t, st, work))
        moves = [int(d) for d in work[W_OUT, :n]]
        children = []
        for d in moves:
            child = st.copy()
            apply(t, child, d, work)
            children.append(child)
        return st, children

    def _check(self, state: GarnerState) -> None:
        if not isinstance(state, GarnerState):
            raise ConfigError(f"the solver takes a GarnerState, got {type(state).__name__}")
        if state.config != self.config:
            raise ConfigError(
                f"this solver is for {self.config.setup!r} ({self.config}); the position is "
                f"from {state.config}"
            )

    # -- the public answers --
    def solve(self, state: GarnerState, max_nodes: int | None = None) -> float:
        """Seat 0's result under perfect play from ``state``: 1 win, 0.5 draw, 0 loss."""
        self._check(state)
        return self.value_of(from_reference(state)[1], max_nodes) / 2

    def option_values(self, state: GarnerState, max_nodes: int | None = None) -> list[float]:
        """Seat 0's result under perfect play after each legal option, in ``legal_moves()``
        order (``max_nodes`` bounds the whole call)."""
        self._start(max_nodes)
        _, children = self._children(state)
        return [self._value(child) / 2 for child in children]

    def keeping_moves(self, state: GarnerState, max_nodes: int | None = None) -> list[int]:
        """The options (indices into ``legal_moves()``) that keep the position's value for the
        seat to move: one null-window test per option after the position's own value."""
        return self.analyse(state, max_nodes)[1]

    def analyse(self, state: GarnerState, max_nodes: int | None = None) -> tuple[float, list[int]]:
        """``(solve(state), keeping_moves(state))`` in one call, sharing the position's solve."""
        self._start(max_nodes)
        st, children = self._children(state)
        v = self._value(st)
        mover = int(st[TO_MOVE])
        keep = [k for k, child in enumerate(children) if self._keeps(child, v, mover)]
        return v / 2, keep


@lru_cache(maxsize=4)
def solver_for(config: GarnerConfig) -> Solver:
    """The shared :class:`Solver` of a config (a table of ``2**DEFAULT_TT_BITS`` positions)."""
    return Solver(config)


def solve(state: GarnerState, max_nodes: int | None = None) -> float:
    """Seat 0's result under perfect play from ``state`` (1 win, 0.5 draw, 0 loss); raises
    :class:`SolverBudgetError` past ``max_nodes`` searched positions."""
    return solver_for(state.config).solve(state, max_nodes)


def option_values(state: GarnerState, max_nodes: int | None = None) -> list[float]:
    """Seat 0's result under perfect play after each legal option, in ``legal_moves()`` order."""
    return solver_for(state.config).option_values(state, max_nodes)


def keeping_moves(state: GarnerState, max_nodes: int | None = None) -> list[int]:
    """The options (indices into ``legal_moves()``) that keep the position's value for the seat
    to move."""
    return solver_for(state.config).keeping_moves(state, max_nodes)


# the cache of this module's jitted functions is emptied when a file they depend on changed
# (numba watches only this file): gamelib/jit_cache.py
guard(globals())
