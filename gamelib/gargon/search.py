"""Gargon's search player ``ismcts:N``: information-set Monte-Carlo tree search, compiled.

*Why one file (about 770 lines):* numba's on-disk cache is keyed on the file a jitted function
lives in and does not follow calls into other files, so the search, its determinizations and
the evaluation its cut-off playouts call stay in one module, compiled and invalidated as one
unit.

Single-observer ISMCTS (SO-ISMCTS, Cowling, Powley and Whitehouse 2012) on the compiled core
(:mod:`gamelib.gargon.kernel`). The player sees only its seat's observation. Every one of its
``N`` iterations

1. **determinizes**: deals every number the seat cannot see again within its colour — the other
   hands, face-down cards on the table and both draw piles, whose colours are public — uniformly
   among the cards it has not seen (its hand, the captures, the discard pile and turned-up
   cards are known): the same resampling as :func:`gamelib.gargon.rules.resample_hidden`, but
   built from the observation alone (:func:`template`);
2. **descends one tree** shared by all determinizations, keyed by the decisions made from the
   root — the searching seat's and its opponents' alike, each edge labelled with who decided
   and in which phase, since hidden numbers change who must draw after a battle. A decision
   with a single option is made without a node. At a node only the options legal in this
   determinization are *available*; each available child's availability count goes up, and
   the child with the best UCB1 score ``mean + C·sqrt(ln(availability) / visits)`` is taken,
   the mean being the share of wins of the seat that decides there (each seat plays for
   itself, as in max-n search);
3. **widens progressively**: a play-out decision with many options (the lead of a hand of ten
   has about 190 plays) would spend a small budget trying each once, so only the
   ``2 + ⌊√visits⌋`` best options by the greedy player's own estimate (its card values for
   the deciding seat in this determinization, passes ranked as greedy ranks them) are open at
   a node; the first untried of those is expanded;
4. **plays out** the determinization to the end with the playout policy on every seat
   (``random``, uniform over the legal options, or ``greedy``, the compiled greedy player),
   and adds the result to every node on the path: each seat's **win share** (1 for a sole
   win, 1/k for a win shared by k, else 0);
5. or, with an **evaluation cut-off** (``cut:K``), plays out only until ``K`` rounds have
   ended since the leaf (the playout stops at the start of the ``K``-th round from there, or
   at the game's end if that comes first) and adds each seat's *estimated* win share instead:
   :func:`evaluate`, a softmax over the seats of the position's features — the amulets
   captured with their zero multipliers, the majority bonuses as they stand, the cards in hand
   and their values, and score and hand weighted by how much of the draw piles is gone —
   with weights fitted by maximum likelihood on the final wins of 20,000 greedy games per
   player count (``bench/gargon_eval.py``; ``bench/results/gargon-eval.json`` keeps the fit,
   its sample and its held-out log-loss: 4 players 1.18 nats a position against 1.39 for a
   uniform guess and 1.24 for score alone). This is MCTS with evaluation cut-offs
   (early playout termination: Lorentz 2008, *Amazons discover Monte-Carlo*; Winands,
   Björnsson and Saito 2010, *Monte Carlo Tree Search in Lines of Action*; the heuristic
   backups of Lanctot, Winands, Pepels and Sturtevant 2014, *Monte Carlo Tree Search with
   Heuristic Evaluations using Implicit Minimax Backups*, whose estimate this is, without
   their minimax mixing). A random playout of a whole Gargon game is ~75 decisions; one round
   is about a tenth of that, so an iteration costs far less and the same time buys several
   times the iterations (docs/performance.md, *Strength per second*).

Known simplifications of SO-ISMCTS, kept for speed: the hidden numbers are dealt uniformly
within their colours, so nothing is inferred from how opponents have played; and the opponents'
nodes, shared across determinizations that all hold the searcher's true hand, learn as if they
knew that hand.

The decision is the root option with the most visits (ties: the best mean, then the first in
the legal order). Random numbers come from one SplitMix64 stream seeded by the player from its
seat's ``rng`` (``rng.getrandbits(63)``) at each searched decision, so the same game seed and
players give the same decisions in any process. A decision with one legal option is returned
without a search and draws no random number.

Spec: ``ismcts:N[:PLAYOUT][:C][:cut:K]`` — ``N`` iterations per decision (≥ 1), ``PLAYOUT``
``random`` (the default) or ``greedy`` (stronger per iteration, about three times slower over a
game, so about as strong for the same time; ``bench/gargon_search.py`` and docs/performance.md
give the numbers), ``C`` the exploration constant (default 0.7), ``cut:K`` the evaluation
cut-off after ``K`` ≥ 1 rounds (default: none, play to the end), e.g. ``ismcts:1000``,
``ismcts:200:random``, ``ismcts:500:greedy:1.0``, ``ismcts:500:1.0``, ``ismcts:3400:cut:1`` or
``ismcts:500:greedy:0.5:cut:2``. The options keep that order; ``cut`` is neither a playout nor
a number, so every earlier spec reads as before. ``N`` may also be a time per decision,
``ismcts:25ms`` or ``ismcts:40ms:cut:1``, which :mod:`gamelib.timed` resolves before play to the
count that takes that long here (the tables record the resolved name).
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from llvmlite import ir  # type: ignore[import-untyped]
from numba import njit
from numba.core import cgutils, types
from numba.extending import intrinsic

from gamelib.core import ConfigError, Move
from gamelib.gargon.kernel import (
    DQ_HEAD,
    DQ_LEN,
    GREEDY,
    KIND_LOSE,
    KIND_PASS,
    L_CAPTURED,
    L_DISCARD,
    L_PILE,
    L_TABLE,
    LEAD,
    N_RESULTS,
    N_SEAT_RESULTS,
    O_DQ_COUNT,
    O_DQ_KIND,
    O_DQ_SEAT,
    O_HAND_N,
    O_LOC,
    O_PILE0,
    O_PILE1,
    O_TABLE_N,
    P_HAND,
    P_N,
    PHASE,
    PILE_N0,
    PILE_N1,
    POS,
    RANDOM,
    REASON,
    RESOLVING,
    ROUNDS,
    S_BONUS,
    S_WINNER,
    SHAPE,
    STATE_LEN,
    TO_MOVE,
    TURNED_UP,
    UNFINISHED,
    KernelTables,
    apply,
    card_values,
    encode,
    greedy,
    legal,
    new_fwork,
    new_work,
    play_score,
    result,
    tables,
)
from gamelib.gargon.rules import (
    COLOUR_OF,
    N_CARDS,
    N_COLOURS,
    OVER,
    PER_COLOUR,
    PHASE_NAMES,
    PLAY,
    SHAPES,
    GargonObservation,
)
from gamelib.jit_cache import guard, njit_borrowing
from gamelib.kernel_rng import rng_below
from gamelib.restrict import Option, keep

IntArray = npt.NDArray[np.int64]

PLAYOUTS = {"random": RANDOM, "greedy": GREEDY}
DEFAULT_PLAYOUT = "random"
DEFAULT_C = 0.7

# an edge of the tree: (decision + 16) << 5 | phase << 3 | seat, so the same decision code met
# in another phase or by another seat is another edge; a node's children are found in one hash
# table keyed by parent << 27 | edge (decisions are < 2**21, so an edge is < 2**27)
_EDGE_SHIFT = 27


# --- the determinization template: what the observation shows ----------------------------------


class Template(NamedTuple):
    """A seat's observation as a kernel state with its hidden cards taken out (``loc`` -1),
    plus, per colour ``col``, the unseen cards ``pool[pool_start[col]:pool_start[col + 1]]``
    and the hidden places ``slot_start[col]:slot_start[col + 1]`` of that colour: the ``loc``
    a card put there gets (``slot_loc``) and, in a draw pile, its index in the state vector
    (``slot_pos``; -1 elsewhere)."""

    base: IntArray
    pool: IntArray
    pool_start: IntArray
    slot_loc: IntArray
    slot_pos: IntArray
    slot_start: IntArray


def template(obs: GargonObservation) -> Template:
    """The determinization template of an observation (only what the seat may see)."""
    cfg = obs.config
    n = cfg.n_players
    me = obs.seat
    if obs.phase == "over":
        raise ValueError("the game is over: there is nothing to search")
    if obs.to_move != me:
        raise ValueError(f"seat {me} searches only on its own decision (seat {obs.to_move} is)")
    st = np.zeros(STATE_LEN, np.int64)
    st[O_LOC : O_LOC + N_CARDS] = -1
    seen: set[int] = set(obs.hand) | set(obs.discard)
    for c in obs.hand:
        st[O_LOC + c] = me
    for s in range(n):
        for c in obs.captured[s]:
            st[O_LOC + c] = L_CAPTURED + s
            seen.add(c)
        st[O_HAND_N + s] = len(obs.hand_colours[s])
        st[O_TABLE_N + s] = len(obs.table_colours[s])
    for c in obs.discard:
        st[O_LOC + c] = L_DISCARD
    if obs.turned_up is not None:
        for s in range(n):
            for c in obs.turned_up[s]:
                st[O_LOC + c] = L_TABLE + s
                seen.add(c)
    # hidden places, in an order fixed by the observation: other hands, face-down table
    # spots, then the piles bottom first
    slots: list[list[tuple[int, int]]] = [[] for _ in range(N_COLOURS)]
    for s in range(n):
        if s != me:
            for col in obs.hand_colours[s]:
                slots[col].append((s, -1))
        if obs.turned_up is None:
            for col in obs.table_colours[s]:
                slots[col].append((L_TABLE + s, -1))
    for o_pile, n_pile, colours in (
        (O_PILE0, PILE_N0, obs.pile_colours[0]),
        (O_PILE1, PILE_N1, obs.pile_colours[1]),
    ):
        st[n_pile] = len(colours)
        for j, col in enumerate(reversed(colours)):  # the kernel keeps piles bottom first
            slots[col].append((L_PILE, o_pile + j))
    pool = [c for c in range(N_CARDS) if c not in seen]
    by_colour = [[c for c in pool if COLOUR_OF[c] == col] for col in range(N_COLOURS)]
    for col in range(N_COLOURS):
        if len(slots[col]) > len(by_colour[col]):
            raise ValueError(
                f"the observation hides {len(slots[col])} cards of colour {col} but only "
                f"{len(by_colour[col])} of that colour are unseen"
            )
    st[TO_MOVE] = obs.to_move
    st[PHASE] = PHASE_NAMES.index(obs.phase)
    st[LEAD] = obs.lead
    st[POS] = n if obs.turned_up is not None else (obs.to_move - obs.lead) % n
    st[SHAPE] = -1 if obs.shape is None else SHAPES.index(obs.shape)
    st[TURNED_UP] = obs.turned_up is not None
    st[RESOLVING] = -1 if obs.resolving is None else obs.resolving
    st[ROUNDS] = obs.round
    st[REASON] = UNFINISHED
    st[DQ_HEAD], st[DQ_LEN] = 0, len(obs.owed)
    kind = KIND_PASS if obs.turned_up is None else KIND_LOSE  # passes draw before the turn-up
    for i, (seat, count) in enumerate(obs.owed):
        st[O_DQ_SEAT + i], st[O_DQ_COUNT + i], st[O_DQ_KIND + i] = seat, count, kind

    def starts(groups: list[list[Any]]) -> IntArray:
        return np.cumsum([0] + [len(g) for g in groups]).astype(np.int64)

    flat_slots = [x for g in slots for x in g]
    return Template(
        base=st,
        pool=np.array([c for g in by_colour for c in g], np.int64),
        pool_start=starts(by_colour),
        slot_loc=np.array([x[0] for x in flat_slots], np.int64),
        slot_pos=np.array([x[1] for x in flat_slots], np.int64),
        slot_start=starts(slots),
    )


# --- compiled search --------------------------------------------------------------------------


@njit_borrowing
def determinize(
    base: Any,
    pool: Any,
    pool_start: Any,
    slot_loc: Any,
    slot_pos: Any,
    slot_start: Any,
    rs: Any,
    st: Any,
    scratch: Any,
) -> None:
    """``st`` := ``base`` with each hidden place dealt a card of its colour, uniformly without
    replacement from the unseen cards of that colour (a partial Fisher–Yates per colour)."""
    for i in range(len(base)):
        st[i] = base[i]
    for col in range(N_COLOURS):
        a = pool_start[col]
        m = pool_start[col + 1] - a
        for i in range(m):
            scratch[i] = pool[a + i]
        s0 = slot_start[col]
        for i in range(slot_start[col + 1] - s0):
            j = i + (rng_below(rs, 0, m - i) if m - i > 1 else 0)
            c = scratch[j]
            scratch[j] = scratch[i]
            scratch[i] = c
            st[O_LOC + c] = slot_loc[s0 + i]
            if slot_pos[s0 + i] >= 0:
                st[slot_pos[s0 + i]] = c


@njit_borrowing
def _find(h_key: Any, h_node: Any, key: int) -> int:
    """The node stored under ``key`` (open addressing, linear probing), or -1."""
    mask = len(h_key) - 1  # Fibonacci hashing: the int64 product wraps
    i = ((key * 0x9E3779B97F4A7C15) >> 20) & mask
    while h_key[i] != -1:
        if h_key[i] == key:
            return int(h_node[i])
        i = (i + 1) & mask
    return -1


@njit_borrowing
def _store(h_key: Any, h_node: Any, key: int, node: int) -> None:
    """Store ``node`` under ``key`` (the key is new; the table is kept under half full)."""
    mask = len(h_key) - 1
    i = ((key * 0x9E3779B97F4A7C15) >> 20) & mask
    while h_key[i] != -1:
        i = (i + 1) & mask
    h_key[i] = key
    h_node[i] = node


@njit(cache=True)
def _rank_options(t: Any, st: Any, work: Any, n: int, fwork: Any, prior: Any) -> None:
    """``prior[k]``: the greedy player's estimate of option ``k`` for the seat to decide (a
    play: its cards' expected gains less 0.01 per value point, as greedy scores a play; a
    pass: 0, less a little the further its draws are from the count greedy wants; a pile or a
    colour: 0, so the legal order decides)."""
    for k in range(n):
        prior[k] = 0.0
    if st[PHASE] != PLAY:
        return
    seat = st[TO_MOVE]
    has_play = False
    for k in range(n):
        if work[k] > 0:
            has_play = True
            break
    if has_play:
        card_values(t, st, seat, True, fwork)
    want = 3 if st[O_HAND_N + seat] < 8 else 1
    for k in range(n):
        x = work[k]
        if x > 0:
            score, likely = play_score(t, x, fwork)
            # a follower's unlikely win ranks below every pass, as greedy never plays it
            prior[k] = score - (0.0 if likely or st[TO_MOVE] == st[LEAD] else 100.0)
        else:
            prior[k] = -0.001 * abs(-1 - x - want)


# --- the profile: where an iteration's time goes -----------------------------------------------

#: the stages :func:`search` counts CPU cycles in when given a ``profile`` array
PROFILE = ("determinize", "tree", "playout", "score", "backup")


@intrinsic
def _read_cycles(typingctx: Any) -> Any:
    """The CPU's cycle counter (LLVM's ``readcyclecounter``: ``rdtsc`` on x86), a few
    nanoseconds a read: what :func:`search`'s profile counts in."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        fnty = ir.FunctionType(ir.IntType(64), [])
        fn = cgutils.get_or_insert_function(  # type: ignore[no-untyped-call]
            builder.module, fnty, "llvm.readcyclecounter"
        )
        return builder.call(fn, [])

    return types.int64(), codegen


_cycles: Any = _read_cycles  # called from compiled code without ``typingctx``

# --- the evaluation at a cut-off -----------------------------------------------------------------

#: per seat, what :func:`features` reads from a position: the amulets captured (with their zero
#: multipliers) and the majority bonuses as they stand, both in tens; the cards in hand and
#: their summed values in fifteens (high cards win battles); and the two that matter more as
#: the piles run down, score × progress and hand × progress (progress: the share of the draw
#: piles already drawn)
FEATURES = ("amulets", "bonus", "hand", "hand_values", "score_x_progress", "hand_x_progress")
N_FEATURES = len(FEATURES)

#: the softmax's weights per player count (row ``n_players``; rows 0–2 unused), fitted by
#: ``python -m bench.gargon_eval`` (see :func:`evaluate`; its provenance is in
#: ``bench/results/gargon-eval.json``)
EVAL_WEIGHTS = np.array(
    [
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        [0.6436, 0.0971, 0.2718, -0.3776, 0.8469, 0.2648],  # 3 players
        [0.8518, 0.1089, 0.1262, -0.0489, 1.1999, 0.2273],  # 4 players
        [0.9069, 0.1124, -0.0761, 0.2452, 1.5205, 0.3251],  # 5 players
    ]
)


@njit(cache=True)
def features(
    t: Any, st: Any, row: Any, seat_rows: Any, scores: Any, amulets: Any, feats: Any
) -> None:
    """``feats[seat]``: the position's :data:`FEATURES` for each seat (scored as if the game
    ended now, by :func:`~gamelib.gargon.kernel.result`)."""
    n = t.params[P_N]
    result(t, st, row, seat_rows, scores, amulets)
    piles = N_CARDS - n * t.params[P_HAND]
    progress = 1.0 - (st[PILE_N0] + st[PILE_N1]) / piles if piles > 0 else 1.0
    for s in range(n):
        feats[s, 0] = amulets[s] / 10.0
        feats[s, 1] = seat_rows[s, S_BONUS] / 10.0
        feats[s, 2] = st[O_HAND_N + s]
        feats[s, 3] = 0.0
        feats[s, 4] = scores[s] / 10.0 * progress
        feats[s, 5] = st[O_HAND_N + s] * progress
    for c in range(N_CARDS):
        loc = st[O_LOC + c]
        if loc < n:  # in a seat's hand
            feats[loc, 3] += t.value_of[c] / 15.0


@njit(cache=True)
def evaluate(
    t: Any,
    st: Any,
    row: Any,
    seat_rows: Any,
    scores: Any,
    amulets: Any,
    feats: Any,
    share: Any,
) -> None:
    """``share[seat]``: each seat's chance to win from an unfinished position, a softmax of the
    seats' :func:`features` (a conditional logit, ``exp(w·f_seat) / Σ exp(w·f)``) with the
    weights :data:`EVAL_WEIGHTS` of its player count — the heuristic evaluation backed up at a
    playout's cut-off (Lorentz 2008; Winands, Björnsson and Saito 2010; Lanctot et al. 2014)."""
    n = t.params[P_N]
    features(t, st, row, seat_rows, scores, amulets, feats)
    w = EVAL_WEIGHTS[n]
    top = -np.inf
    for s in range(n):
        u = 0.0
        for k in range(N_FEATURES):
            u += w[k] * feats[s, k]
        share[s] = u
        top = max(top, u)
    total = 0.0
    for s in range(n):
        share[s] = math.exp(share[s] - top)
        total += share[s]
    for s in range(n):
        share[s] /= total


@njit(cache=True)
def _of_class(t: Any, st: Any, code: int, cls: int, leading: bool, table: int) -> int:
    """Whether decision ``code`` of a play-out is of class ``cls`` (1) or not (0), or -1 when
    the class does not compete with it (a play, for how many cards a pass draws) — the
    ``code`` of :data:`gamelib.gargon.players.OPTIONS`: 1 leading three cards, 2 leading three
    colours, 3 passing, 4 drawing three when passing, 5 following with a colour not on the
    table, whose colours are the bits of ``table``."""
    if cls == 3:
        return int(code < 0)
    if cls == 4:
        return int(code == -4) if code < 0 else -1
    if code < 0:
        return 0
    n_cards, colours, fresh = 0, 0, False
    while code:
        c = (code & 127) - 1
        code >>= 7
        n_cards += 1
        colours |= 1 << t.colour_of[c]
        fresh = fresh or not (table >> t.colour_of[c]) & 1
    if cls == 1:
        return int(leading and n_cards == 3)
    if cls == 2:
        two_or_more = colours & (colours - 1)  # the colours but the lowest
        return int(leading and n_cards == 3 and (two_or_more & (two_or_more - 1)) != 0)
    return int((not leading) and fresh)


@njit(cache=True)
def restrict_options(t: Any, st: Any, work: Any, n: int, cls: int, always: bool) -> int:
    """Keep in ``work[:n]``, in order, the decisions a seat restricted by class ``cls`` may
    take (``always``: the class's; else all but the class's; and those the class does not
    compete with) and return how many; all
    ``n`` stay when that would leave none (:mod:`gamelib.restrict`, whose reference marks —
    ``gamelib.gargon.players.OPTIONS`` — the player checks these against at every root)."""
    if cls == 0 or n <= 1 or st[PHASE] != PLAY:
        return n
    leading = st[TO_MOVE] == st[LEAD]
    table = 0
    if cls == 5:
        for c in range(N_CARDS):
            loc = st[O_LOC + c]
            if L_TABLE <= loc < L_CAPTURED:
                table |= 1 << t.colour_of[c]
    want = 1 if always else 0
    kept = 0
    for k in range(n):
        r = _of_class(t, st, work[k], cls, leading, table)
        if r < 0 or r == want:
            kept += 1
    if kept == 0 or kept == n:
        return n
    j = 0
    for k in range(n):
        r = _of_class(t, st, work[k], cls, leading, table)
        if r < 0 or r == want:
            work[j] = work[k]
            j += 1
    return j


@njit(cache=True)
def search(
    t: Any,
    base: Any,
    pool: Any,
    pool_start: Any,
    slot_loc: Any,
    slot_pos: Any,
    slot_start: Any,
    n_iter: int,
    c_explore: float,
    playout: int,
    seed: int,
    widen: bool = True,
    stop_early: bool = False,
    cutoff: int = 0,
    profile: Any = None,
    mask_seat: int = -1,
    mask_class: int = 0,
    mask_always: bool = False,
) -> Any:
    """SO-ISMCTS from the template (see the module docstring): ``n_iter`` iterations, UCB1
    constant ``c_explore``, playouts by ``playout`` (``RANDOM`` or ``GREEDY``), one SplitMix64
    stream seeded with ``seed``; ``widen`` False opens every option at once (for measuring
    what progressive widening is worth); ``stop_early`` ends the search once the most visited
    root option leads every other by more than the iterations left (no later iteration could
    change the decision, so it is the full budget's; the visit counts returned are then the
    partial ones); ``cutoff`` > 0 ends each playout once ``cutoff`` rounds have ended since its
    leaf and backs up :func:`evaluate`'s win shares of that position instead of a finished
    game's (0: play to the end); ``profile``, an int64 array of :data:`PROFILE` length (or
    None), receives the CPU cycles spent in each stage of the iterations; ``mask_class`` > 0
    restricts seat ``mask_seat``'s decisions everywhere in the tree and the playouts
    (:func:`restrict_options`; ``mask_always``: to the class, else from it). Returns
    ``(decision, options, visits, wins)``: the chosen decision and, per root option in the
    legal order, its visits and summed win shares."""
    n_players = t.params[P_N]
    rs = np.empty(1, np.uint64)
    rs[0] = np.uint64(seed)
    max_nodes = n_iter + 1  # an iteration adds at most one node
    node_actor = np.zeros(max_nodes, np.int64)
    node_visits = np.zeros(max_nodes, np.int64)
    node_avail = np.zeros(max_nodes, np.int64)
    node_wins = np.zeros(max_nodes, np.float64)
    size = 16
    while size < 2 * max_nodes:
        size *= 2
    h_key = np.full(size, -1, np.int64)
    h_node = np.empty(size, np.int64)
    n_nodes = 1
    work = new_work(t)
    fwork = new_fwork(t)
    prior = np.empty(len(work), np.float64)
    opened = np.empty(len(work), np.bool_)
    st = np.empty(STATE_LEN, np.int64)
    scratch = np.empty(PER_COLOUR, np.int64)
    path = np.empty(max_nodes + 1, np.int64)
    row = np.zeros(N_RESULTS, np.int64)
    seat_rows = np.zeros((n_players, N_SEAT_RESULTS), np.int64)
    scores = np.zeros(n_players, np.float64)
    amulets = np.zeros(n_players, np.float64)
    share = np.zeros(n_players, np.float64)
    feats = np.zeros((n_players, N_FEATURES), np.float64)
    # the two largest visit counts among the root's children (each iteration adds one visit to
    # exactly one of them, path[1]), for stop_early
    top_node, top_visits, second_visits = -1, 0, 0
    for it in range(n_iter):
        if profile is not None:
            c0 = _cycles()
        determinize(base, pool, pool_start, slot_loc, slot_pos, slot_start, rs, st, scratch)
        if profile is not None:
            c1 = _cycles()
            profile[0] += c1 - c0
            c0 = c1
        node = 0
        depth = 0
        path[depth] = 0
        depth += 1
        expanded = False
        while st[PHASE] != OVER and not expanded:
            n = legal(t, st, work)
            if mask_class and st[TO_MOVE] == mask_seat:
                n = restrict_options(t, st, work, n, mask_class, mask_always)
            if n == 1:
                apply(t, st, work[0])
                continue
            actor = st[TO_MOVE]
            head = (node << _EDGE_SHIFT) | (st[PHASE] << 3) | actor
            # progressive widening: the best 2 + ⌊√visits⌋ options by greedy's estimate
            width = 2 + int(math.sqrt(node_visits[node])) if widen else n
            if width < n:
                _rank_options(t, st, work, n, fwork, prior)
                for k in range(n):
                    opened[k] = False
                for _w in range(width):
                    best_k = -1
                    for k in range(n):
                        if not opened[k] and (best_k < 0 or prior[k] > prior[best_k]):
                            best_k = k
                    opened[best_k] = True
            else:
                for k in range(n):
                    opened[k] = True
            first_untried = -1
            best_child, best_code, best_ucb = -1, 0, -np.inf
            for k in range(n):
                if not opened[k]:
                    continue
                child = _find(h_key, h_node, head | ((work[k] + 16) << 5))
                if child < 0:
                    if first_untried < 0 or (width < n and prior[k] > prior[first_untried]):
                        first_untried = k
                    continue
                node_avail[child] += 1
                v = node_visits[child]
                ucb = node_wins[child] / v + c_explore * math.sqrt(math.log(node_avail[child]) / v)
                if ucb > best_ucb:
                    best_child, best_code, best_ucb = child, work[k], ucb
            if first_untried >= 0:
                code = work[first_untried]
                child = n_nodes
                n_nodes += 1
                _store(h_key, h_node, head | ((code + 16) << 5), child)
                node_actor[child] = actor
                node_avail[child] = 1
                apply(t, st, code)
                expanded = True
            else:
                child = best_child
                apply(t, st, best_code)
            node = child
            path[depth] = node
            depth += 1
        if profile is not None:
            c1 = _cycles()
            profile[1] += c1 - c0
            c0 = c1
        # the playout: to the end, or (cutoff) to the start of the cutoff-th round from here
        last_round = st[ROUNDS] + cutoff if cutoff > 0 else N_CARDS + 1
        while st[PHASE] != OVER and st[ROUNDS] < last_round:
            n = legal(t, st, work)
            if mask_class and st[TO_MOVE] == mask_seat:
                n = restrict_options(t, st, work, n, mask_class, mask_always)
            if n == 1:
                d = work[0]
            elif playout == RANDOM:
                d = work[rng_below(rs, 0, n)]
            else:
                d = greedy(t, st, work, n, True, fwork)
            apply(t, st, d)
        if profile is not None:
            c1 = _cycles()
            profile[2] += c1 - c0
            c0 = c1
        if st[PHASE] == OVER:
            result(t, st, row, seat_rows, scores, amulets)
            n_win = 0
            for s in range(n_players):
                n_win += seat_rows[s, S_WINNER]
            for s in range(n_players):
                share[s] = seat_rows[s, S_WINNER] / n_win
        else:
            evaluate(t, st, row, seat_rows, scores, amulets, feats, share)
        if profile is not None:
            c1 = _cycles()
            profile[3] += c1 - c0
            c0 = c1
        for i in range(depth):
            nd = path[i]
            node_visits[nd] += 1
            if i > 0:
                node_wins[nd] += share[node_actor[nd]]
        if profile is not None:
            profile[4] += _cycles() - c0
        if stop_early and depth > 1:
            v = node_visits[path[1]]
            if path[1] == top_node:
                top_visits = v
            elif v > top_visits:
                top_node, second_visits, top_visits = path[1], top_visits, v
            elif v > second_visits:
                second_visits = v
            if top_visits - second_visits > n_iter - 1 - it:
                break
    # the root's options are the same in every determinization (the seat's own hand and
    # public colours decide them)
    determinize(base, pool, pool_start, slot_loc, slot_pos, slot_start, rs, st, scratch)
    n = legal(t, st, work)
    if mask_class and st[TO_MOVE] == mask_seat:
        n = restrict_options(t, st, work, n, mask_class, mask_always)
    head = (np.int64(0) << _EDGE_SHIFT) | (st[PHASE] << 3) | st[TO_MOVE]
    options = work[:n].copy()
    visits = np.zeros(n, np.int64)
    wins = np.zeros(n, np.float64)
    best = 0
    for k in range(n):
        child = _find(h_key, h_node, head | ((work[k] + 16) << 5))
        if child >= 0:
            visits[k] = node_visits[child]
            wins[k] = node_wins[child]
        # most visits; among equals the best mean (equal visits: compare the sums)
        if visits[k] > visits[best] or (visits[k] == visits[best] and wins[k] > wins[best]):
            best = k
    return options[best], options, visits, wins


# --- the player -------------------------------------------------------------------------------


class IsmctsPlayer:
    """``ismcts:N``: information-set MCTS on what its seat may see (see the module docstring)."""

    def __init__(
        self,
        iterations: int,
        playout: str = DEFAULT_PLAYOUT,
        c: float = DEFAULT_C,
        *,
        widen: bool = True,
        cutoff: int = 0,
    ) -> None:
        self.iterations = iterations
        self.playout = playout
        self.c = c
        self.widen = widen  # False: no progressive widening (not in the spec; for measuring)
        self.cutoff = cutoff
        self.mask: tuple[Option, str] | None = None
        self.__name__ = (
            f"ismcts:{iterations}:{playout}:{c:g}"
            + (f":cut:{cutoff}" if cutoff else "")
            + ("" if widen else ":flat")
        )

    def restricted(self, option: Option, mode: str, name: str) -> IsmctsPlayer:
        """This search restricted (:mod:`gamelib.restrict`) at its seat's decisions in the tree
        and the playouts (the class's ``code``), named ``name``."""
        out = copy.copy(self)
        out.mask, out.__name__ = (option, mode), name
        return out

    def __call__(
        self, observation: GargonObservation, legal: Sequence[Move], rng: random.Random
    ) -> Move:
        """Search from this seat's observation; returns one of ``legal`` (restricted: one of
        the moves the restriction keeps; the kernel's options must be those same moves)."""
        if self.mask is not None and len(legal) > 1:
            kept = keep(*self.mask, observation, legal)
            legal = legal if len(kept) == len(legal) else [legal[k] for k in kept]
        if len(legal) == 1:
            return legal[0]
        decision, options, _, _ = self.search(observation, rng.getrandbits(63), stop_early=True)
        codes = [encode(m) for m in legal]
        if len(options) != len(legal) or list(options) != codes:
            raise RuntimeError(
                f"ismcts: the kernel's options {list(options)} are not the legal moves {codes}"
            )
        return legal[codes.index(int(decision))]

    def search(
        self, obs: GargonObservation, seed: int, stop_early: bool = False, profile: Any = None
    ) -> tuple[int, IntArray, IntArray, Any]:
        """The compiled search on ``obs`` with ``seed``: ``(decision, options, visits, wins)``
        (``stop_early``: as soon as the decision is settled; visit counts are then partial;
        ``profile``: an int64 array that receives the cycles per stage, see :func:`search`)."""
        t: KernelTables = tables(obs.config)
        tp = template(obs)
        option, mode = self.mask if self.mask is not None else (None, "forbid")
        return search(  # type: ignore[no-any-return]
            t,
            *tp,
            self.iterations,
            self.c,
            PLAYOUTS[self.playout],
            seed,
            self.widen,
            stop_early,
            self.cutoff,
            profile,
            int(obs.seat),
            0 if option is None else option.code,
            mode == "always",
        )


SPEC_FORM = "ismcts:N[:greedy|random][:C][:cut:K]"
USAGE = f"use {SPEC_FORM}, e.g. ismcts:1000, ismcts:200:random:0.5 or ismcts:3000:cut:2"


def ismcts(spec: str | None = None) -> IsmctsPlayer:
    """``ismcts:N[:PLAYOUT][:C][:cut:K]``: N iterations, playouts ``greedy`` or ``random``,
    UCB1's C, playouts cut off after K rounds with the heuristic evaluation backed up."""
    if spec is None:
        raise ConfigError(f"ismcts needs an iteration count; {USAGE}")
    parts = spec.split(":")
    try:
        iterations = int(parts[0])
    except ValueError:
        raise ConfigError(f"ismcts: {parts[0]!r} is not an iteration count; {USAGE}") from None
    if iterations < 1:
        raise ConfigError(f"ismcts: the iteration count must be ≥ 1, got {iterations}; {USAGE}")
    playout, c, cutoff = DEFAULT_PLAYOUT, DEFAULT_C, 0
    rest = parts[1:]
    if rest and rest[0] in PLAYOUTS:
        playout = rest.pop(0)
    if rest and rest[0] != "cut":
        try:
            c = float(rest[0])
        except ValueError:
            raise ConfigError(
                f"ismcts: {rest[0]!r} is neither a playout ({', '.join(PLAYOUTS)}) nor an "
                f"exploration constant; {USAGE}"
            ) from None
        if not (math.isfinite(c) and c >= 0):
            raise ConfigError(f"ismcts: the exploration constant must be ≥ 0, got {rest[0]!r}")
        rest.pop(0)
    if rest and rest[0] == "cut":
        k = rest[1] if len(rest) > 1 else ""
        if not k.isdigit() or int(k) < 1:
            raise ConfigError(
                f"ismcts: cut:K takes a whole number K ≥ 1 of rounds, got {k!r} in "
                f"'ismcts:{spec}'; {USAGE}"
            )
        cutoff = int(k)
        rest = rest[2:]
    if rest:
        raise ConfigError(f"ismcts: unexpected {':'.join(rest)!r} in {spec!r}; {USAGE}")
    return IsmctsPlayer(iterations, playout, c, cutoff=cutoff)


__all__ = [
    "EVAL_WEIGHTS",
    "FEATURES",
    "IsmctsPlayer",
    "Template",
    "determinize",
    "evaluate",
    "features",
    "ismcts",
    "search",
    "template",
]


# the cache of this module's jitted functions is emptied when a file they depend on changed
# (numba watches only this file): gamelib/jit_cache.py
guard(globals())
