"""Gargon's compiled core: the rules of ``shared/rules/gargon.md`` as numba functions.

*Why one file (1220 lines):* numba's on-disk cache is keyed on the file a jitted function lives
in and does not follow calls into other files (a cached caller keeps the old code of a callee
edited elsewhere), so the jitted functions that call one another in the hot loop stay in one
module, compiled, cached and invalidated as one unit.

The readable reference is :mod:`gamelib.gargon.rules`; this module plays the same rules inside
compiled code so a batch of games never returns to Python per decision, each seat played by
the random player or by the greedy one (``greedy``/``greedy:value`` or ``greedy:ignore``,
:mod:`gamelib.gargon.players`' ``GreedyPlayer`` compiled: see ``greedy``; :func:`play`).
``tests/test_gargon_kernel.py`` replays kernel games through the reference engine decision by
decision (``make crosscheck`` does it at scale), so any difference between the two fails;
``tests/test_gargon_kernel_players.py`` also asks the Python ``GreedyPlayer`` at every greedy
decision and checks the kernel player ignores hidden numbers.

Layout, shaped for speed (every array is ``int64`` unless said otherwise):

* **Tables** (:class:`KernelTables`, one per config, built once): ``params`` holds the rule
  fields as ints (``n_players``, ``hand_size``, ``allow_three_colours``,
  ``last_player_restriction``, ``tie_losers_draw``, ``majority_bonus``, ``shared_bonus``);
  ``zero_multiplier`` (float64, one entry); ``amulets`` per value 0–15; ``colour_of`` and
  ``value_of`` per card id (the reference's ids: ``colour·17 + k``).
* **State**: one flat vector of fixed length (room for 5 seats whatever ``n_players``), so a
  clone is one ``copy()``. A header (``TO_MOVE``, ``PHASE``, ``LEAD``, ``POS``, the lead's
  ``SHAPE``, ``TURNED_UP``, the colour being ``RESOLVING``, the counters, the draw queue's head
  and length, both piles' sizes), then ``loc[card]`` — where each of the 102 cards is: a seat's
  hand (``seat``), a seat's table spot (``L_TABLE + seat``), a seat's captures
  (``L_CAPTURED + seat``), the discard pile or a draw pile — then per seat the hand and table
  sizes and the cards drawn passing and losing, the draw queue (seat, cards owed, pass or lose)
  and both draw piles, bottom card first (the reference's order; the top is the last card).
  Cards on a seat's table spot, in its hand or in its captures are a set: the reference keeps
  them in ascending id order where the order matters (which of two zeros goes forward first).
* **Decisions** are ints, read by phase, listed in the order of ``GargonState.legal_moves()``
  so option ``k`` here is option ``k`` there:

  - play-out: ``Play(cards)`` is ``(a+1) | (b+1)<<7 | (c+1)<<14`` for its ascending card ids
    (missing cards 0, so every play is ≥ 1); ``Pass(k)`` is ``-1 - k``. The plays come first,
    shape by shape in ``SHAPES`` order (the lead: every shape, ``1:1:1`` only with
    ``allow_three_colours``; a follower: the lead's shape, in the colours on the table when the
    last player's restriction applies), each shape enumerated as the reference's ``_plays``
    does; then the passes, ``Pass(1..min(3, cards in the piles))`` or ``Pass(0)``. Every legal
    play is listed (a hand of ``h`` cards has at most ``h + C(h,2) + C(h,3)`` of them; the
    buffer holds the 102-card worst case, 1.4 MB per thread of play).
  - draw: ``DrawFrom(pile)`` is ``pile`` (0, 1).
  - battle: ``Resolve(colour)`` is ``colour`` (0–5).

Random numbers come from SplitMix64 streams (``gamelib.kernel_rng``): per game one stream
deals, one per seat decides, all derived from the game's seed. ``simulate`` and ``play_game``
play every line-up of these players here (``supports``, ``play_seeds``, ``encode``); the
reference engine draws from the same streams (``gamelib.core.game_rngs``), so it deals the same
cards and plays the same random games for a seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from gamelib.core import ConfigError, Move
from gamelib.gargon.heuristics import BONUS_PER_CARD, FOLLOW_CHANCE, FUTURE_AMULETS, LOSS_COST
from gamelib.gargon.rules import (
    COLOUR_OF,
    DRAW,
    N_CARDS,
    N_COLOURS,
    OVER,
    PER_COLOUR,
    PLAY,
    RESOLVE,
    SHAPES,
    VALUE_OF,
    DrawFrom,
    GargonConfig,
    GargonState,
    Pass,
    Play,
    Resolve,
    check_edit,
    from_deal,
    shape_of,
)
from gamelib.jit_cache import guard, njit_borrowing
from gamelib.kernel_rng import rng_below, seeds_for, streams

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

MAX_SEATS = 5

# --- params: the config as ints ---------------------------------------------------------------
P_N, P_HAND, P_ALLOW3, P_LAST, P_TIE_DRAW, P_MAJORITY, P_SHARED = range(7)
N_PARAMS = 7

# --- the state header --------------------------------------------------------------------------
TO_MOVE, PHASE, LEAD, POS, SHAPE, TURNED_UP, RESOLVING, ROUNDS, BATTLES, TIES = range(10)
REASON, DQ_HEAD, DQ_LEN, PILE_N0, PILE_N1 = range(10, 15)
HEADER = 16

# card locations (loc[card]): a seat's hand is the seat itself
L_TABLE = MAX_SEATS
L_CAPTURED = 2 * MAX_SEATS
L_DISCARD = 3 * MAX_SEATS
L_PILE = L_DISCARD + 1

O_LOC = HEADER
O_HAND_N = O_LOC + N_CARDS
O_TABLE_N = O_HAND_N + MAX_SEATS
O_DRAWN_PASS = O_TABLE_N + MAX_SEATS
O_DRAWN_LOSE = O_DRAWN_PASS + MAX_SEATS
DQ_CAP = 8
O_DQ_SEAT = O_DRAWN_LOSE + MAX_SEATS
O_DQ_COUNT = O_DQ_SEAT + DQ_CAP
O_DQ_KIND = O_DQ_COUNT + DQ_CAP
O_PILE0 = O_DQ_KIND + DQ_CAP
O_PILE1 = O_PILE0 + N_CARDS
STATE_LEN = O_PILE1 + N_CARDS

KIND_PASS, KIND_LOSE = 0, 1

# REASON while the game is over: the reference's Outcome.reason
PILE_EMPTY, HANDS_EMPTY, UNFINISHED = 0, 1, 2
REASONS = ("pile_empty", "hands_empty", "unfinished")

# shapes: SHAPE holds an index into SHAPES ((1,), (2,), (1, 1), (2, 1), (1, 1, 1)); -1 none yet
S_ONE, S_PAIR, S_TWO_COLOURS, S_PAIR_ONE, S_THREE_COLOURS = range(5)

# scratch (``new_work``): the options, then each colour's cards in hand
MAX_OPTIONS = N_CARDS + N_CARDS * (N_CARDS - 1) // 2 + N_CARDS * (N_CARDS - 1) * (N_CARDS - 2) // 6
W_OUT = 0
W_BYCOL = MAX_OPTIONS + 4
W_BYCOL_N = W_BYCOL + N_COLOURS * PER_COLOUR
WORK_LEN = W_BYCOL_N + N_COLOURS

# --- one game's result row (play_random_batch's ``results``) ----------------------------------
R_REASON, R_ROUNDS, R_BATTLES, R_TIES, R_DECISIONS = range(5)
R_OPTIONS, R_MULTI = 5, 6  # legal options summed over the decisions; decisions with 2+
N_RESULTS = 7
# per seat (``seat_results[g, seat, :]``)
S_BONUS, S_CAPTURED, S_ZEROS, S_DRAWN_PASSING, S_DRAWN_LOSING, S_HAND_LEFT, S_WINNER = range(7)
N_SEAT_RESULTS = 7


class KernelTables(NamedTuple):
    """Per-config constants the compiled functions read (see the module docstring)."""

    params: IntArray
    zero_multiplier: FloatArray
    amulets: IntArray
    colour_of: IntArray
    value_of: IntArray


@lru_cache(maxsize=64)
def tables(config: GargonConfig) -> KernelTables:
    """The kernel's tables for one config (built in Python once)."""
    p = np.zeros(N_PARAMS, np.int64)
    p[P_N], p[P_HAND] = config.n_players, config.hand_size
    p[P_ALLOW3] = config.allow_three_colours
    p[P_LAST] = config.last_player_restriction
    p[P_TIE_DRAW] = config.tie_losers_draw
    p[P_MAJORITY], p[P_SHARED] = config.majority_bonus, config.shared_bonus
    zm = np.array([float(config.zero_multiplier)], np.float64)
    amulets = np.array(config.amulets, np.int64)
    colour_of = np.array(COLOUR_OF, np.int64)
    value_of = np.array(VALUE_OF, np.int64)
    for a in (p, zm, amulets, colour_of, value_of):
        a.setflags(write=False)
    return KernelTables(p, zm, amulets, colour_of, value_of)


# --- random numbers and the deal ---------------------------------------------------------------


@njit(cache=True)
def rng_streams(seed: int, n_players: int) -> Any:
    """``n_players + 1`` streams from a game's seed: 0 deals, ``1 + seat`` decides for a seat."""
    return streams(seed, n_players + 1)


@njit(cache=True)
def state_from_deck(t: Any, deck: Any) -> Any:
    """The start of a game dealt from a shuffled ``deck``: seat ``i`` gets
    ``deck[i·h:(i+1)·h]``; the rest splits into pile 0 (its first ⌈r/2⌉ cards) and pile 1,
    bottom card first — ``gamelib.gargon.rules.new_state``'s deal. Seat 0 leads."""
    p = t.params
    n, h = p[P_N], p[P_HAND]
    st = np.zeros(STATE_LEN, np.int64)
    for i in range(n):
        for j in range(h):
            st[O_LOC + deck[i * h + j]] = i
        st[O_HAND_N + i] = h
    rest = N_CARDS - n * h
    half = (rest + 1) // 2
    for j in range(half):
        c = deck[n * h + j]
        st[O_LOC + c] = L_PILE
        st[O_PILE0 + j] = c
    for j in range(rest - half):
        c = deck[n * h + half + j]
        st[O_LOC + c] = L_PILE
        st[O_PILE1 + j] = c
    st[PILE_N0] = half
    st[PILE_N1] = rest - half
    st[SHAPE] = -1
    st[RESOLVING] = -1
    st[PHASE] = PLAY
    return st


@njit(cache=True)
def deal(t: Any, rs: Any, deck: Any) -> Any:
    """Components and setup: shuffle the 102 cards (stream 0; ``deck`` receives the order)
    and deal them (see ``state_from_deck``)."""
    for c in range(N_CARDS):
        deck[c] = c
    for c in range(N_CARDS - 1, 0, -1):  # Fisher–Yates
        k = rng_below(rs, 0, c + 1)
        deck[c], deck[k] = deck[k], deck[c]
    return state_from_deck(t, deck)


#: a deal edit's kinds (``play_seeds(edit=...)``): none, a value swap, a colour swap
EDIT_NONE, EDIT_VALUE, EDIT_COLOUR = 0, 1, 2
EDIT_KINDS = ("value", "colour")


@njit(cache=True)
def edit_deck(t: Any, deck: Any, kind: int, holder: int, target: int) -> None:
    """A deal edit on a shuffled ``deck``, in place (``gamelib.gargon.rules.edit_deal``'s):
    the first card dealt to seat ``holder``, (c, x), trades places with the card of the same
    colour and value ``target`` (``EDIT_VALUE``; a zero: the colour's first zero) or of colour
    ``target`` and the same value (``EDIT_COLOUR``; a zero: the zero in the same place),
    wherever that card was dealt; nothing moves when it is the card itself."""
    if kind == EDIT_NONE:
        return
    at = holder * t.params[P_HAND]
    a = deck[at]
    k = a % PER_COLOUR
    if kind == EDIT_VALUE:
        if t.value_of[a] == target:
            return
        b = (a - k) + (0 if target == 0 else target + 1)
    else:
        if t.colour_of[a] == target:
            return
        b = target * PER_COLOUR + k
    for j in range(N_CARDS):
        if deck[j] == b:
            deck[j] = a
            deck[at] = b
            return


@njit(cache=True)
def rotate_hands(t: Any, deck: Any, rotation: int) -> None:
    """Rotation ``rotation`` of a shuffled ``deck``, in place: seat ``i``'s block of ``h`` cards
    becomes the block dealt to seat ``(i + rotation) mod n``; the cards of the piles stay
    (``gamelib.gargon.rules.rotate_deal``'s deal)."""
    p = t.params
    n, h = p[P_N], p[P_HAND]
    hands = deck[: n * h].copy()
    for i in range(n):
        j = (i + rotation) % n
        for k in range(h):
            deck[i * h + k] = hands[j * h + k]


# --- legal decisions ---------------------------------------------------------------------------


@njit_borrowing
def _code(a: int, b: int, c: int) -> int:
    """A play's decision: its ascending card ids packed 7 bits each (-1: no card)."""
    return (a + 1) | ((b + 1) << 7) | ((c + 1) << 14)


@njit_borrowing
def _plays(t: Any, st: Any, seat: int, shape: int, allowed: int, work: Any) -> int:
    """Play-out: every play from ``seat``'s hand of ``shape`` (-1: every shape the lead may
    use) in colours of the ``allowed`` bit mask, in the reference's ``_plays`` order."""
    bycol = work[W_BYCOL:W_BYCOL_N]
    cnt = work[W_BYCOL_N : W_BYCOL_N + N_COLOURS]
    for col in range(N_COLOURS):
        k = 0
        if allowed & (1 << col):
            base = col * PER_COLOUR
            for c in range(base, base + PER_COLOUR):
                if st[O_LOC + c] == seat:
                    bycol[base + k] = c
                    k += 1
        cnt[col] = k
    m = 0
    for s in range(5):
        if shape >= 0 and s != shape:
            continue
        if s == S_THREE_COLOURS and not t.params[P_ALLOW3]:
            continue
        if s == S_ONE:
            for col in range(N_COLOURS):
                for i in range(cnt[col]):
                    work[m] = _code(bycol[col * PER_COLOUR + i], -1, -1)
                    m += 1
        elif s == S_PAIR:
            for col in range(N_COLOURS):
                o = col * PER_COLOUR
                for i in range(cnt[col]):
                    for j in range(i + 1, cnt[col]):
                        work[m] = _code(bycol[o + i], bycol[o + j], -1)
                        m += 1
        elif s == S_TWO_COLOURS:
            for a in range(N_COLOURS):
                for b in range(a + 1, N_COLOURS):
                    for i in range(cnt[a]):
                        for j in range(cnt[b]):
                            work[m] = _code(
                                bycol[a * PER_COLOUR + i], bycol[b * PER_COLOUR + j], -1
                            )
                            m += 1
        elif s == S_PAIR_ONE:
            for a in range(N_COLOURS):
                oa = a * PER_COLOUR
                if cnt[a] < 2:
                    continue
                for b in range(N_COLOURS):
                    if b == a:
                        continue
                    ob = b * PER_COLOUR
                    for i in range(cnt[a]):
                        for j in range(i + 1, cnt[a]):
                            for k in range(cnt[b]):
                                x, y, z = bycol[oa + i], bycol[oa + j], bycol[ob + k]
                                work[m] = _code(z, x, y) if b < a else _code(x, y, z)
                                m += 1
        else:
            for a in range(N_COLOURS):
                for b in range(a + 1, N_COLOURS):
                    for c in range(b + 1, N_COLOURS):
                        for i in range(cnt[a]):
                            for j in range(cnt[b]):
                                for k in range(cnt[c]):
                                    work[m] = _code(
                                        bycol[a * PER_COLOUR + i],
                                        bycol[b * PER_COLOUR + j],
                                        bycol[c * PER_COLOUR + k],
                                    )
                                    m += 1
    return m


@njit_borrowing
def legal(t: Any, st: Any, work: Any) -> int:
    """The decisions open now, written to ``work[:n]`` in the reference's order (see the module
    docstring); returns ``n`` (0 once the game is over)."""
    phase = st[PHASE]
    seat = st[TO_MOVE]
    if phase == PLAY:
        n = t.params[P_N]
        is_lead = seat == st[LEAD]
        allowed = (1 << N_COLOURS) - 1
        if not is_lead and t.params[P_LAST] and st[POS] == n - 1:
            allowed = 0
            for c in range(N_CARDS):
                loc = st[O_LOC + c]
                if L_TABLE <= loc < L_CAPTURED:
                    allowed |= 1 << t.colour_of[c]
        m = _plays(t, st, seat, -1 if is_lead else st[SHAPE], allowed, work)
        if not is_lead:
            avail = st[PILE_N0] + st[PILE_N1]
            if avail:
                for k in range(1, min(3, avail) + 1):
                    work[m] = -1 - k
                    m += 1
            else:
                work[m] = -1
                m += 1
        return m
    if phase == DRAW:
        m = 0
        if st[PILE_N0]:
            work[m] = 0
            m += 1
        if st[PILE_N1]:
            work[m] = 1
            m += 1
        return m
    if phase == RESOLVE:
        mask = 0
        for c in range(N_CARDS):
            if st[O_LOC + c] == L_TABLE + seat:
                mask |= 1 << t.colour_of[c]
        m = 0
        for col in range(N_COLOURS):
            if mask & (1 << col):
                work[m] = col
                m += 1
        return m
    return 0


# --- apply: the reference's steps, without recursion ---------------------------------------


@njit_borrowing
def _start_draws(st: Any) -> bool:
    """Drop owed draws while both piles are empty; True when a DRAW decision is due."""
    while st[DQ_LEN] and st[PILE_N0] + st[PILE_N1] == 0:
        st[DQ_HEAD] += 1
        st[DQ_LEN] -= 1
    if st[DQ_LEN] == 0:
        return False
    st[TO_MOVE] = st[O_DQ_SEAT + st[DQ_HEAD]]
    st[PHASE] = DRAW
    return True


@njit_borrowing
def _owe(st: Any, seat: int, count: int, kind: int) -> None:
    """Queue ``count`` draws for ``seat`` (the queue is empty or being filled at once)."""
    if st[DQ_LEN] == 0:
        st[DQ_HEAD] = 0
    i = st[DQ_HEAD] + st[DQ_LEN]
    if i >= DQ_CAP:
        raise RuntimeError("gargon kernel: draw queue overflow")
    st[O_DQ_SEAT + i] = seat
    st[O_DQ_COUNT + i] = count
    st[O_DQ_KIND + i] = kind
    st[DQ_LEN] += 1


@njit_borrowing
def _end_round(t: Any, st: Any) -> None:
    """Next round: the game ends when a pile is empty or no hand holds a card; else the lead
    passes clockwise to the next seat holding a card."""
    n = t.params[P_N]
    st[ROUNDS] += 1
    if st[PILE_N0] == 0 or st[PILE_N1] == 0:
        st[PHASE] = OVER
        st[REASON] = PILE_EMPTY
        return
    total = 0
    for s in range(n):
        total += st[O_HAND_N + s]
    if total == 0:
        st[PHASE] = OVER
        st[REASON] = HANDS_EMPTY
        return
    if st[ROUNDS] > N_CARDS:
        raise RuntimeError("gargon kernel: more rounds than cards")
    nxt = st[LEAD]
    for step in range(1, n + 1):
        nxt = (st[LEAD] + step) % n
        if st[O_HAND_N + nxt]:
            break
    st[LEAD] = nxt
    st[POS] = 0
    st[SHAPE] = -1
    st[TURNED_UP] = 0
    st[TO_MOVE] = nxt
    st[PHASE] = PLAY


@njit_borrowing
def _next_chooser(t: Any, st: Any) -> None:
    """The first seat from the lead clockwise with unresolved cards chooses; none: next round."""
    n = t.params[P_N]
    for i in range(n):
        s = (st[LEAD] + i) % n
        if st[O_TABLE_N + s]:
            st[TO_MOVE] = s
            st[PHASE] = RESOLVE
            return
    _end_round(t, st)


@njit_borrowing
def _next_in_play_out(t: Any, st: Any) -> None:
    """The next seat of the round's order plays or passes; after the last, all turn up."""
    n = t.params[P_N]
    st[POS] += 1
    if st[POS] < n:
        st[TO_MOVE] = (st[LEAD] + st[POS]) % n
        st[PHASE] = PLAY
        return
    st[TURNED_UP] = 1
    st[PHASE] = RESOLVE
    _next_chooser(t, st)


#: ``_resolve``'s packed slots: a seat (< 8) in 3 bits, a card id (< 128) in 7
SEAT_BITS, CARD_BITS = 3, 7
assert MAX_SEATS <= 1 << SEAT_BITS and N_CARDS <= 1 << CARD_BITS and MAX_SEATS * CARD_BITS < 63


@njit_borrowing
def _slot(bits: int, k: int, width: int) -> int:
    """Slot ``k`` of ``width`` bits packed in ``bits``."""
    return (bits >> (width * k)) & ((1 << width) - 1)


@njit_borrowing
def _resolve(t: Any, st: Any) -> None:
    """Resolve the colour ``RESOLVING`` step by step, pausing (phase DRAW) whenever losers
    must draw; when it is done, the next chooser picks a colour."""
    p = t.params
    n = p[P_N]
    col = st[RESOLVING]
    base = col * PER_COLOUR
    while True:
        # the seats holding cards of the colour and each one's best card, in ``_slot``s of two
        # ints (no arrays: this runs without numba's runtime, which allocates them)
        holders = 0
        best = 0
        nh = 0
        for i in range(n):
            s = (st[LEAD] + i) % n
            b = -1
            for c in range(base, base + PER_COLOUR):  # ascending ids: the first highest
                if st[O_LOC + c] == L_TABLE + s and (b < 0 or t.value_of[c] > t.value_of[b]):
                    b = c
            if b >= 0:
                holders |= s << (SEAT_BITS * nh)
                best |= b << (CARD_BITS * nh)
                nh += 1
        if nh == 0:
            break
        if nh == 1:
            s = _slot(holders, 0, SEAT_BITS)
            for c in range(base, base + PER_COLOUR):
                if st[O_LOC + c] == L_TABLE + s:
                    st[O_LOC + c] = L_CAPTURED + s
                    st[O_TABLE_N + s] -= 1
            break
        top = -1
        for k in range(nh):
            top = max(top, t.value_of[_slot(best, k, CARD_BITS)])
        n_top = 0
        for k in range(nh):
            if t.value_of[_slot(best, k, CARD_BITS)] == top:
                n_top += 1
        st[BATTLES] += 1
        for k in range(nh):
            st[O_TABLE_N + _slot(holders, k, SEAT_BITS)] -= 1
            st[O_LOC + _slot(best, k, CARD_BITS)] = L_DISCARD
        if n_top == 1:
            draw = True
            for k in range(nh):
                b = _slot(best, k, CARD_BITS)
                if t.value_of[b] == top:
                    st[O_LOC + b] = L_CAPTURED + _slot(holders, k, SEAT_BITS)
        else:  # only 0 against 0 can tie
            st[TIES] += 1
            draw = p[P_TIE_DRAW] != 0
        if draw:
            for k in range(nh):  # clockwise from the lead
                if n_top > 1 or t.value_of[_slot(best, k, CARD_BITS)] != top:
                    _owe(st, _slot(holders, k, SEAT_BITS), 1, KIND_LOSE)
            if st[DQ_LEN] and st[PILE_N0] + st[PILE_N1]:
                _start_draws(st)
                return
            st[DQ_LEN] = 0
            st[DQ_HEAD] = 0
    st[RESOLVING] = -1
    _next_chooser(t, st)


@njit_borrowing
def _after_draws(t: Any, st: Any) -> None:
    """Owed draws done: back to the colour being resolved, the next chooser, or the play-out."""
    if st[TURNED_UP]:
        if st[RESOLVING] >= 0:
            _resolve(t, st)
        else:
            _next_chooser(t, st)
    else:
        _next_in_play_out(t, st)


@njit_borrowing
def apply(t: Any, st: Any, d: int) -> None:
    """Make decision ``d`` (it must be legal, unchecked here; see the module docstring)."""
    phase = st[PHASE]
    seat = st[TO_MOVE]
    if phase == PLAY:
        if d > 0:
            k = 0
            cols = 0
            n_cols = 0
            x = d
            while x:
                c = (x & 127) - 1
                x >>= 7
                st[O_LOC + c] = L_TABLE + seat
                k += 1
                bit = 1 << t.colour_of[c]
                if not cols & bit:
                    n_cols += 1
                cols |= bit
            st[O_HAND_N + seat] -= k
            st[O_TABLE_N + seat] += k
            if seat == st[LEAD]:
                if k == 1:
                    st[SHAPE] = S_ONE
                elif k == 2:
                    st[SHAPE] = S_PAIR if n_cols == 1 else S_TWO_COLOURS
                else:
                    st[SHAPE] = S_PAIR_ONE if n_cols == 2 else S_THREE_COLOURS
            _next_in_play_out(t, st)
        else:
            draws = -1 - d
            if draws:
                _owe(st, seat, draws, KIND_PASS)
                if not _start_draws(st):
                    _after_draws(t, st)
            else:
                _next_in_play_out(t, st)
    elif phase == DRAW:
        if d == 0:
            st[PILE_N0] -= 1
            c = st[O_PILE0 + st[PILE_N0]]
        else:
            st[PILE_N1] -= 1
            c = st[O_PILE1 + st[PILE_N1]]
        st[O_LOC + c] = seat
        st[O_HAND_N + seat] += 1
        head = st[DQ_HEAD]
        if st[O_DQ_KIND + head] == KIND_PASS:
            st[O_DRAWN_PASS + seat] += 1
        else:
            st[O_DRAWN_LOSE + seat] += 1
        st[O_DQ_COUNT + head] -= 1
        if st[O_DQ_COUNT + head] == 0:
            st[DQ_HEAD] += 1
            st[DQ_LEN] -= 1
        if not _start_draws(st):
            _after_draws(t, st)
    elif phase == RESOLVE:
        st[RESOLVING] = d
        _resolve(t, st)


@njit(cache=True)
def is_over(st: Any) -> bool:
    """End: a pile ran empty by the end of a round, or no hand holds a card."""
    return bool(st[PHASE] == OVER)


# --- scoring ----------------------------------------------------------------------------------


@njit(cache=True)
def result(t: Any, st: Any, row: Any, seat_rows: Any, scores: Any, amulets: Any) -> None:
    """Scoring: per seat and colour the amulets of its captures, times ``zero_multiplier`` per
    captured zero; per colour +``majority_bonus`` to the one seat with most captures of it,
    +``shared_bonus`` to each seat tied for most. The highest total wins (ties share).

    Fills ``row`` (``R_*``), ``seat_rows[seat]`` (``S_*``; ``S_WINNER`` 1 for each winner),
    ``scores[seat]`` and ``amulets[seat]`` (the amulet part of the score).
    """
    p = t.params
    n = p[P_N]
    zm = t.zero_multiplier[0]
    counts = np.zeros((MAX_SEATS, N_COLOURS), np.int64)
    am = np.zeros((MAX_SEATS, N_COLOURS), np.int64)
    zeros = np.zeros((MAX_SEATS, N_COLOURS), np.int64)
    for c in range(N_CARDS):
        loc = st[O_LOC + c]
        if L_CAPTURED <= loc < L_DISCARD:
            s = loc - L_CAPTURED
            col = t.colour_of[c]
            v = t.value_of[c]
            counts[s, col] += 1
            am[s, col] += t.amulets[v]
            if v == 0:
                zeros[s, col] += 1
    for s in range(n):
        seat_rows[s, S_BONUS] = 0
        seat_rows[s, S_CAPTURED] = 0
        seat_rows[s, S_ZEROS] = 0
    for col in range(N_COLOURS):
        top = 0
        for s in range(n):
            top = max(top, counts[s, col])
        if top == 0:
            continue
        n_best = 0
        for s in range(n):
            if counts[s, col] == top:
                n_best += 1
        for s in range(n):
            if counts[s, col] == top:
                seat_rows[s, S_BONUS] += p[P_MAJORITY] if n_best == 1 else p[P_SHARED]
    best = -np.inf
    for s in range(n):
        total = 0.0
        for col in range(N_COLOURS):
            total += am[s, col] * zm ** zeros[s, col]
            seat_rows[s, S_CAPTURED] += counts[s, col]
            seat_rows[s, S_ZEROS] += zeros[s, col]
        amulets[s] = total
        scores[s] = total + seat_rows[s, S_BONUS]
        best = max(best, scores[s])
        seat_rows[s, S_DRAWN_PASSING] = st[O_DRAWN_PASS + s]
        seat_rows[s, S_DRAWN_LOSING] = st[O_DRAWN_LOSE + s]
        seat_rows[s, S_HAND_LEFT] = st[O_HAND_N + s]
    over = st[PHASE] == OVER
    for s in range(n):
        seat_rows[s, S_WINNER] = 1 if over and scores[s] == best else 0
    row[R_REASON] = st[REASON] if over else UNFINISHED
    row[R_ROUNDS] = st[ROUNDS]
    row[R_BATTLES] = st[BATTLES]
    row[R_TIES] = st[TIES]


# --- the players: random, greedy, greedy:ignore ------------------------------------------------

RANDOM, GREEDY, GREEDY_IGNORE = range(3)
PLAYER_NAMES = ("random", "greedy", "greedy:ignore")
F_EV = 0  # fwork: each card's expected gain if played now, then its chance to win
F_PWIN = N_CARDS
FWORK_LEN = 2 * N_CARDS


@njit(cache=True)
def new_work(t: Any) -> Any:
    """Scratch space for ``legal`` (one per thread of play, reused every decision)."""
    return np.zeros(WORK_LEN, np.int64)


@njit(cache=True)
def new_fwork(t: Any) -> Any:
    """The greedy player's scratch space (one per thread of play)."""
    return np.zeros(FWORK_LEN, np.float64)


@njit(cache=True)
def card_values(t: Any, st: Any, seat: int, value_zeros: bool, fwork: Any) -> None:
    """``GreedyPlayer.card_values`` for the cards in ``seat``'s hand: ``fwork[F_EV + c]`` the
    expected gain of playing card ``c`` now, ``fwork[F_PWIN + c]`` its chance to win its battle.

    Reads only what ``seat``'s observation shows: its own hand; every seat's captures and the
    discard pile; other seats' hands and face-down table cards by colour only (and the table's
    numbers once turned up); who has acted this round. The same float operations in the same
    order as the reference, so the values are equal to the last bit.
    """
    n = t.params[P_N]
    zm = t.zero_multiplier[0]
    # the values not yet seen, per colour (a histogram over 0–15)
    unseen = np.zeros((N_COLOURS, 16), np.int64)
    pool = np.zeros(N_COLOURS, np.int64)
    for c in range(N_CARDS):
        loc = st[O_LOC + c]
        seen = (
            loc in (seat, L_DISCARD)
            or (L_CAPTURED <= loc < L_CAPTURED + n)
            or (st[TURNED_UP] != 0 and L_TABLE <= loc < L_TABLE + n)
        )
        if not seen:
            unseen[t.colour_of[c], t.value_of[c]] += 1
            pool[t.colour_of[c]] += 1
    # how many opponents contest each colour: face down on the table (1) or held by a seat that
    # has not acted yet this round (FOLLOW_CHANCE); colours are public
    on_table = np.zeros((MAX_SEATS, N_COLOURS), np.bool_)
    held = np.zeros((MAX_SEATS, N_COLOURS), np.bool_)
    for c in range(N_CARDS):
        loc = st[O_LOC + c]
        if 0 <= loc < n:
            held[loc, t.colour_of[c]] = True
        elif L_TABLE <= loc < L_TABLE + n:
            on_table[loc - L_TABLE, t.colour_of[c]] = True
    acted = np.zeros(MAX_SEATS, np.bool_)
    if st[PHASE] == PLAY and not st[TURNED_UP]:
        for i in range(st[POS]):
            acted[(st[LEAD] + i) % n] = True
    else:  # out of the play-out every seat has acted
        for s in range(n):
            acted[s] = True
    contest = np.zeros(N_COLOURS, np.float64)
    for s in range(n):
        if s == seat:
            continue
        for col in range(N_COLOURS):
            if on_table[s, col]:
                contest[col] += 1.0
            elif not acted[s] and held[s, col]:
                contest[col] += FOLLOW_CHANCE
    zeros = np.zeros(N_COLOURS, np.int64)
    amulets = np.zeros(N_COLOURS, np.float64)
    for c in range(N_CARDS):
        if st[O_LOC + c] == L_CAPTURED + seat:
            col = t.colour_of[c]
            zeros[col] += t.value_of[c] == 0
            amulets[col] += t.amulets[t.value_of[c]]
    for c in range(N_CARDS):
        if st[O_LOC + c] != seat:
            continue
        col, v = t.colour_of[c], t.value_of[c]
        if pool[col]:
            lower = 0
            for x in range(v):
                lower += unseen[col, x]
            below = lower / pool[col]
        else:
            below = 1.0
        p_win = below ** contest[col] if contest[col] else 1.0
        worth = t.amulets[v] * zm ** float(zeros[col]) + BONUS_PER_CARD
        if v == 0 and value_zeros:
            worth += (amulets[col] + FUTURE_AMULETS) * (zm - 1)
        fwork[F_EV + c] = p_win * worth - (1 - p_win) * LOSS_COST
        fwork[F_PWIN + c] = p_win


@njit(cache=True)
def play_score(t: Any, x: int, fwork: Any) -> Any:
    """Greedy's score of the play packed in ``x`` (its cards' expected gains, from
    ``card_values``, less 0.01 per value point) and whether each of its cards is likely to win
    (``(score, likely)``); the search's priors use the same numbers."""
    ev = 0.0
    values = 0
    likely = True
    while x:
        c = (x & 127) - 1
        x >>= 7
        ev += fwork[F_EV + c]
        values += t.value_of[c]
        if fwork[F_PWIN + c] < 0.5:
            likely = False
    return ev - 0.01 * values, likely


@njit(cache=True)
def greedy(t: Any, st: Any, work: Any, n: int, value_zeros: bool, fwork: Any) -> int:
    """The greedy player (``gamelib.gargon.players.GreedyPlayer``; ``value_zeros`` False is
    ``greedy:ignore``) on the ``n`` legal options in ``work[:n]``: returns its decision.

    It sees only the seat's observation (see ``card_values``; the pile decision reads the
    piles' top colours, the pass its own hand size) and, like the reference, takes the first
    best option in the legal order, so it draws no random numbers.
    """
    phase = st[PHASE]
    seat = st[TO_MOVE]
    if phase == RESOLVE:
        return int(work[0])
    if phase == DRAW:  # the pile whose top colour it wants most
        nn = t.params[P_N]
        best_d, best_w = -1, -np.inf
        for k in range(n):
            pile = work[k]
            size = st[PILE_N0] if pile == 0 else st[PILE_N1]
            if size == 0:
                w = -np.inf
            else:
                top = st[(O_PILE0 if pile == 0 else O_PILE1) + size - 1]
                col = t.colour_of[top]
                free = 0
                for s in range(nn):
                    if s == seat:
                        continue
                    holds = False
                    for c in range(col * PER_COLOUR, (col + 1) * PER_COLOUR):
                        if st[O_LOC + c] == s:
                            holds = True
                            break
                    if not holds:
                        free += 1
                mine = 0
                for c in range(col * PER_COLOUR, (col + 1) * PER_COLOUR):
                    if st[O_LOC + c] == L_CAPTURED + seat:
                        mine += 1
                w = free + 0.5 * mine
            if best_d < 0 or w > best_w:
                best_d, best_w = work[k], w
        return int(best_d)
    # play-out: plays come first in ``work``, then the passes
    n_plays = 0
    while n_plays < n and work[n_plays] > 0:
        n_plays += 1
    has_pass = n_plays < n
    if n_plays:
        card_values(t, st, seat, value_zeros, fwork)
        best, best_score = -1, -np.inf
        for k in range(n_plays):
            score, likely = play_score(t, work[k], fwork)
            if has_pass and not likely:
                continue  # follows only with cards likely to win
            if score > best_score:
                best, best_score = k, score
        if best >= 0 and (not has_pass or best_score > 0):
            return int(work[best])
        if not has_pass:  # the lead must play: the least bad play
            best, best_ev = 0, -np.inf
            for k in range(n_plays):
                x = work[k]
                ev = 0.0
                while x:
                    ev += fwork[F_EV + (x & 127) - 1]
                    x >>= 7
                if ev > best_ev:
                    best, best_ev = k, ev
            return int(work[best])
    want = 3 if st[O_HAND_N + seat] < 8 else 1
    best_d, best_key = 0, -1
    for k in range(n_plays, n):
        draws = -1 - work[k]
        key = (1000 if draws <= want else 0) + draws
        if key > best_key:
            best_d, best_key = work[k], key
    return int(best_d)


@njit(cache=True)
def play_game(
    t: Any, rs: Any, st: Any, work: Any, fwork: Any, decisions: Any, players: Any, counts: Any
) -> Any:
    """Play ``st`` to the end, seat ``s`` played by ``players[s]`` (``RANDOM``: uniform over
    the legal options, drawing from stream ``s + 1``; ``GREEDY`` or ``GREEDY_IGNORE``). Returns
    ``(n, decisions)``: how many decisions there were and the buffer holding them (grown when
    needed); adds the options offered to ``counts[0]``, the decisions with 2+ to ``counts[1]``."""
    n_dec = 0
    while st[PHASE] != OVER:
        if n_dec == len(decisions):
            grown = np.empty(2 * len(decisions) + 16, np.int64)
            grown[:n_dec] = decisions
            decisions = grown
        n = legal(t, st, work)
        if n == 0:
            raise RuntimeError("gargon kernel: no legal decision in an unfinished game")
        counts[0] += n
        counts[1] += n > 1
        seat = st[TO_MOVE]
        who = players[seat]
        if who == RANDOM:
            d = work[0 if n == 1 else rng_below(rs, 1 + seat, n)]
        else:
            d = greedy(t, st, work, n, who == GREEDY, fwork)
        decisions[n_dec] = d
        n_dec += 1
        apply(t, st, d)
    return n_dec, decisions


@njit(cache=True)
def play_random_game(t: Any, rs: Any, st: Any, work: Any, decisions: Any) -> Any:
    """The random player on every seat (see ``play_game``)."""
    players = np.zeros(MAX_SEATS, np.int64)
    return play_game(t, rs, st, work, new_fwork(t), decisions, players, np.zeros(2, np.int64))


@njit(cache=True)
def play_batch(t: Any, seeds: Any, record: bool, players: Any, rotation: int, edit: Any) -> Any:
    """Deal and play one game per seed, seat ``s`` played by ``players[s]`` (``RANDOM``,
    ``GREEDY``, ``GREEDY_IGNORE``), entirely in compiled code; ``rotation`` r plays rotation r
    of each seed's deal (``rotate_hands``; 0: the deal as shuffled); ``edit`` (kind, holder,
    target) edits each deal after that (``edit_deck``; kind ``EDIT_NONE``: none).

    Returns ``(results, seat_results, scores, amulets, decisions, offsets, deals)``:
    ``results[g]`` the ``R_*`` columns, ``seat_results[g, seat]`` the ``S_*`` ones,
    ``scores[g, seat]`` and ``amulets[g, seat]``; with ``record``, game ``g``'s decisions are
    ``decisions[offsets[g]:offsets[g + 1]]`` (int32) and ``deals[g]`` its shuffled deck; without,
    those three are empty.
    """
    n_players = t.params[P_N]
    n_games = len(seeds)
    results = np.zeros((n_games, N_RESULTS), np.int64)
    seat_results = np.zeros((n_games, n_players, N_SEAT_RESULTS), np.int64)
    scores = np.zeros((n_games, n_players), np.float64)
    amulets = np.zeros((n_games, n_players), np.float64)
    work = new_work(t)
    fwork = new_fwork(t)
    buf = np.empty(1024, np.int64)
    deck = np.empty(N_CARDS, np.int64)
    n_rec = n_games if record else 0
    decisions = np.empty(n_rec * 128, np.int32)
    offsets = np.zeros(n_rec + 1, np.int64)
    deals = np.empty((n_rec, N_CARDS), np.int16)
    for g in range(n_games):
        rs = rng_streams(seeds[g], n_players)
        st = deal(t, rs, deck)
        if rotation:
            rotate_hands(t, deck, rotation)
            st = state_from_deck(t, deck)
        if edit[0] != EDIT_NONE:
            edit_deck(t, deck, edit[0], edit[1], edit[2])
            st = state_from_deck(t, deck)
        n_dec, buf = play_game(t, rs, st, work, fwork, buf, players, results[g, R_OPTIONS:])
        result(t, st, results[g], seat_results[g], scores[g], amulets[g])
        results[g, R_DECISIONS] = n_dec
        if record:
            for c in range(N_CARDS):
                deals[g, c] = deck[c]
            at = offsets[g]
            if at + n_dec > len(decisions):
                grown = np.empty(max(2 * len(decisions), at + n_dec), np.int32)
                grown[:at] = decisions[:at]
                decisions = grown
            for i in range(n_dec):
                decisions[at + i] = buf[i]
            offsets[g + 1] = at + n_dec
    return results, seat_results, scores, amulets, decisions[: offsets[n_rec]], offsets, deals


@njit(cache=True)
def deal_batch(t: Any, seeds: Any) -> Any:
    """The shuffled deck of each seed's deal (``deal``), no game played: ``decks[g]``."""
    decks = np.empty((len(seeds), N_CARDS), np.int64)
    deck = np.empty(N_CARDS, np.int64)
    for g in range(len(seeds)):
        deal(t, rng_streams(seeds[g], t.params[P_N]), deck)
        decks[g] = deck
    return decks


@njit(cache=True)
def play_random_batch(t: Any, seeds: Any, record: bool) -> Any:
    """``play_batch`` with the random player on every seat."""
    return play_batch(t, seeds, record, np.zeros(MAX_SEATS, np.int64), 0, np.zeros(3, np.int64))


# --- from Python ------------------------------------------------------------------------------


@dataclass(frozen=True)
class KernelGames:
    """A batch of kernel games: one table row per game, and the records when asked for."""

    table: np.ndarray[Any, Any]
    """A structured array (``pandas.DataFrame(table)`` makes it a frame): ``game``, ``seed``,
    ``decisions`` and the reference ``Outcome.row()`` columns (``winner`` -1 unless one seat
    won alone, ``n_winners``, ``reason``, ``turns``, ``score_k``, ``win_k``, ``rounds``,
    ``battles``, ``ties``, ``amulets_k``, ``bonus_k``, ``captured_k``, ``zeros_k``,
    ``drawn_passing_k``, ``drawn_losing_k``, ``hand_left_k``)."""
    decisions: npt.NDArray[np.int32]
    """Every game's decisions back to back (see the module docstring); empty unless recorded."""
    offsets: IntArray
    """Game ``g``'s decisions are ``decisions[offsets[g]:offsets[g + 1]]``."""
    deals: npt.NDArray[np.int16]
    """``deals[g]``: game ``g``'s shuffled deck (see ``state_from_deck``)."""

    def game_decisions(self, g: int) -> IntArray:
        """The decisions of game ``g`` of the batch, in order."""
        return self.decisions[self.offsets[g] : self.offsets[g + 1]].astype(np.int64)


def player_codes(config: GargonConfig, players: str | Sequence[str]) -> IntArray:
    """One code per seat (``RANDOM``, ``GREEDY``, ``GREEDY_IGNORE``) from the players' names:
    ``random``, ``greedy`` (= ``greedy:value``) or ``greedy:ignore`` — one name for every seat
    or one per seat."""
    n = config.n_players
    names = [players] * n if isinstance(players, str) else list(players)
    if len(names) != n:
        raise ConfigError(f"{n} players play this config, got {len(names)} names: {names!r}")
    codes = np.zeros(MAX_SEATS, np.int64)
    for s, name in enumerate(names):
        key = "greedy" if name == "greedy:value" else name
        if key not in PLAYER_NAMES:
            raise ConfigError(
                "the Gargon kernel plays random, greedy (greedy:value) or greedy:ignore, "
                f"got {name!r} for seat {s}"
            )
        codes[s] = PLAYER_NAMES.index(key)
    return codes


def play_random(
    config: GargonConfig, n_games: int, seed: int, *, record: bool = False, start: int = 0
) -> KernelGames:
    """Play ``n_games`` random games in compiled code (see :func:`play`)."""
    return play(config, "random", n_games, seed, record=record, start=start)


def play(
    config: GargonConfig,
    players: str | Sequence[str],
    n_games: int,
    seed: int,
    *,
    record: bool = False,
    start: int = 0,
) -> KernelGames:
    """Play ``n_games`` games in compiled code, each seat played by ``random``, ``greedy``
    (``greedy:value``) or ``greedy:ignore`` (one name for every seat, or one per seat); game
    ``i`` is seeded with the ``i``-th per-game seed of ``seed`` (``gamelib.core.game_seeds``),
    as ``simulate`` seeds its games (``simulate`` plays these line-ups here). The greedy
    players draw no random numbers (as in the reference), so an all-greedy game depends on the
    deal only."""
    if not isinstance(config, GargonConfig):
        raise ConfigError(f"the Gargon kernel needs a GargonConfig, got {type(config).__name__}")
    if not isinstance(n_games, int) or isinstance(n_games, bool) or n_games < 0:
        raise ConfigError(f"n_games must be a non-negative int, got {n_games!r}")
    return play_seeds(config, players, seeds_for(seed, n_games, start), record=record, start=start)


def dealt_decks(config: GargonConfig, seeds: npt.ArrayLike) -> IntArray:
    """The shuffled deck each game seed deals (seat ``i``'s hand: ``deck[i·h:(i+1)·h]``; see
    ``state_from_deck``), without playing: what an ordinary game's holder was dealt."""
    return np.asarray(deal_batch(tables(config), np.asarray(seeds, dtype=np.int64)))


def supports(player: object) -> bool:
    """Whether a player spec has a compiled version here (``simulate`` then plays in compiled
    code)."""
    return (
        isinstance(player, str)
        and ("greedy" if player == "greedy:value" else player) in PLAYER_NAMES
    )


def play_seeds(
    config: GargonConfig,
    players: str | Sequence[str],
    seeds: IntArray,
    *,
    record: bool = False,
    start: int = 0,
    rotation: int = 0,
    edit: Sequence[Any] | None = None,
    holder: int = 0,
) -> KernelGames:
    """:func:`play` on explicit per-game seeds; ``rotation`` r plays rotation r of every deal
    (seat ``i`` gets the hand dealt to seat ``(i + r) mod n``, the piles stay: see
    :func:`gamelib.gargon.rules.rotate_deal`), and ``deals`` then holds the rotated decks;
    ``edit`` (``("value", v)`` or ``("colour", c)``) then edits every deal for seat ``holder``
    (:func:`gamelib.gargon.rules.edit_deal`; ``deals`` holds the edited decks)."""
    codes = player_codes(config, players)
    kind, target = check_edit(edit) if edit is not None else (None, 0)
    n_seats = config.n_players
    if not isinstance(holder, int) or isinstance(holder, bool) or not 0 <= holder < n_seats:
        raise ConfigError(f"holder must be a seat 0–{config.n_players - 1}, got {holder!r}")
    edit_code = np.array(
        [EDIT_NONE if kind is None else 1 + EDIT_KINDS.index(kind), holder, target], np.int64
    )
    if not isinstance(rotation, int) or isinstance(rotation, bool):
        raise ConfigError(f"rotation must be a whole number, got {rotation!r}")
    if not 0 <= rotation < config.n_players:
        raise ConfigError(
            f"a deal of {config.n_players} hands has rotations 0–{config.n_players - 1}, "
            f"got {rotation}"
        )
    t = tables(config)
    n = config.n_players
    seeds = np.asarray(seeds, dtype=np.int64)
    n_games = len(seeds)
    results, seat_res, scores, amulets, decisions, offsets, deals = play_batch(
        t, seeds, record, codes, rotation, edit_code
    )
    n_win = seat_res[:, :, S_WINNER].sum(axis=1)
    sole = np.where(n_win == 1, np.argmax(seat_res[:, :, S_WINNER], axis=1), -1)
    share = np.divide(1.0, n_win, out=np.zeros(n_games), where=n_win > 0)
    columns: list[tuple[str, Any]] = [
        ("game", np.arange(start, start + n_games)),
        ("seed", seeds),
        ("winner", sole),
        ("n_winners", n_win),
        ("reason", np.array(REASONS, dtype="U11")[results[:, R_REASON]]),
        ("turns", results[:, R_ROUNDS]),
        ("decisions", results[:, R_DECISIONS]),
        ("options", results[:, R_OPTIONS]),
        ("multi_option_decisions", results[:, R_MULTI]),
    ]
    columns += [(f"score_{s}", scores[:, s]) for s in range(n)]
    columns += [(f"win_{s}", seat_res[:, s, S_WINNER] * share) for s in range(n)]
    columns += [
        ("rounds", results[:, R_ROUNDS]),
        ("battles", results[:, R_BATTLES]),
        ("ties", results[:, R_TIES]),
    ]
    for s in range(n):
        columns += [
            (f"amulets_{s}", amulets[:, s]),
            (f"bonus_{s}", seat_res[:, s, S_BONUS]),
            (f"captured_{s}", seat_res[:, s, S_CAPTURED]),
            (f"zeros_{s}", seat_res[:, s, S_ZEROS]),
            (f"drawn_passing_{s}", seat_res[:, s, S_DRAWN_PASSING]),
            (f"drawn_losing_{s}", seat_res[:, s, S_DRAWN_LOSING]),
            (f"hand_left_{s}", seat_res[:, s, S_HAND_LEFT]),
        ]
    table = np.empty(n_games, dtype=[(name, np.asarray(col).dtype) for name, col in columns])
    for name, col in columns:
        table[name] = col
    return KernelGames(table, decisions, offsets, deals)


def _check_deck(deck: npt.ArrayLike) -> IntArray:
    cards = np.asarray(deck, dtype=np.int64)
    if sorted(cards.tolist()) != list(range(N_CARDS)):
        raise ValueError(f"a deal must hold every one of the {N_CARDS} cards exactly once")
    return cards


def state_from_deal(t: KernelTables, deck: npt.ArrayLike) -> IntArray:
    """The kernel state dealt from a shuffled ``deck`` (as ``KernelGames.deals`` holds it)."""
    return np.asarray(state_from_deck(t, _check_deck(deck)))


def reference_state(config: GargonConfig, deck: npt.ArrayLike) -> GargonState:
    """The reference position dealt from the same shuffled ``deck`` (``from_deal``)."""
    cards = [int(c) for c in _check_deck(deck)]
    n, h = config.n_players, config.hand_size
    hands = [cards[i * h : (i + 1) * h] for i in range(n)]
    rest = cards[n * h :]
    half = (len(rest) + 1) // 2
    return from_deal(config, hands, [rest[:half][::-1], rest[half:][::-1]])


def decode(phase: int, d: int) -> Move:
    """The reference engine's move for decision ``d`` in ``phase``."""
    if phase == PLAY:
        if d < 0:
            return Pass(-1 - d)
        cards = []
        while d:
            cards.append((d & 127) - 1)
            d >>= 7
        return Play(tuple(cards))
    if phase == DRAW:
        return DrawFrom(d)
    if phase == RESOLVE:
        return Resolve(d)
    raise ValueError(f"no decision is taken in phase {phase}")


def encode(move: Move) -> int:
    """The kernel's decision for a reference move (the inverse of ``decode``)."""
    if isinstance(move, Play):
        ids = [*move.cards, -1, -1][:3]
        if len(move.cards) > 3 or shape_of(move.cards) not in SHAPES:
            raise ValueError(f"{move!r} is no Gargon play")
        return int(_code(ids[0], ids[1], ids[2]))
    if isinstance(move, Pass):
        return -1 - int(move.draws)
    if isinstance(move, DrawFrom):
        return int(move.pile)
    if isinstance(move, Resolve):
        return int(move.colour)
    raise ValueError(f"{move!r} is not a Gargon move")


def legal_moves(t: KernelTables, st: IntArray, work: IntArray) -> list[Move]:
    """The legal decisions of ``st`` as reference moves, in order."""
    n = int(legal(t, st, work))
    phase = int(st[PHASE])
    return [decode(phase, int(d)) for d in work[:n]]


def position(t: KernelTables, st: IntArray) -> dict[str, Any]:
    """Where every card is, as the reference's ``end()`` names it (hands, table and captures
    as ascending ids, piles top card first, the discard pile ascending) plus whose move, the
    phase and the lead."""
    n = int(t.params[P_N])
    loc = st[O_LOC : O_LOC + N_CARDS]
    ids = np.arange(N_CARDS)
    return {
        "hands": [ids[loc == s].tolist() for s in range(n)],
        "table": [ids[loc == L_TABLE + s].tolist() for s in range(n)],
        "captured": [ids[loc == L_CAPTURED + s].tolist() for s in range(n)],
        "discard": ids[loc == L_DISCARD].tolist(),
        "piles": [
            st[O_PILE0 : O_PILE0 + st[PILE_N0]][::-1].tolist(),
            st[O_PILE1 : O_PILE1 + st[PILE_N1]][::-1].tolist(),
        ],
        "to_move": int(st[TO_MOVE]),
        "phase": int(st[PHASE]),
        "lead": int(st[LEAD]),
    }


def reference_position(state: GargonState) -> dict[str, Any]:
    """``position`` read off a reference state (for comparing the two engines)."""
    end = state.end()
    return {
        "hands": end["hands"],
        "table": [sorted(x) for x in end["table"]],
        "captured": [sorted(x) for x in end["captured"]],
        "discard": sorted(end["discard"]),
        "piles": end["piles"],
        "to_move": state.to_move,
        "phase": state.phase,
        "lead": state.lead,
    }


def from_reference(state: GargonState) -> tuple[KernelTables, IntArray]:
    """The kernel state of a reference position, mid-round and hand-built ones included
    (cards a hand-built deal leaves out are nowhere: ``loc`` -1)."""
    t = tables(state.config)
    n = state.config.n_players
    st = np.zeros(STATE_LEN, np.int64)
    st[O_LOC : O_LOC + N_CARDS] = -1
    for s in range(n):
        for c in state.hands[s]:
            st[O_LOC + c] = s
        for c in state.table[s]:
            st[O_LOC + c] = L_TABLE + s
        for c in state.captured[s]:
            st[O_LOC + c] = L_CAPTURED + s
        st[O_HAND_N + s] = len(state.hands[s])
        st[O_TABLE_N + s] = len(state.table[s])
        st[O_DRAWN_PASS + s] = state.drawn_passing[s]
        st[O_DRAWN_LOSE + s] = state.drawn_losing[s]
    for c in state.discard:
        st[O_LOC + c] = L_DISCARD
    for i, (o_pile, n_pile) in enumerate(((O_PILE0, PILE_N0), (O_PILE1, PILE_N1))):
        pile = state.piles[i]  # bottom first
        st[o_pile : o_pile + len(pile)] = pile
        st[n_pile] = len(pile)
        for c in pile:
            st[O_LOC + c] = L_PILE
    st[TO_MOVE], st[PHASE], st[LEAD], st[POS] = state.to_move, state.phase, state.lead, state.pos
    st[SHAPE] = -1 if state.shape is None else SHAPES.index(state.shape)
    st[TURNED_UP] = state.turned_up
    st[RESOLVING] = -1 if state.resolving is None else state.resolving
    st[ROUNDS], st[BATTLES], st[TIES] = state.rounds, state.battles, state.ties
    st[REASON] = REASONS.index(state.reason) if state.reason else UNFINISHED
    if len(state.draw_queue) > DQ_CAP:
        raise ValueError(f"{len(state.draw_queue)} owed draws; the kernel holds {DQ_CAP}")
    st[DQ_HEAD], st[DQ_LEN] = 0, len(state.draw_queue)
    for i, (seat, count, kind) in enumerate(state.draw_queue):
        st[O_DQ_SEAT + i] = seat
        st[O_DQ_COUNT + i] = count
        st[O_DQ_KIND + i] = KIND_PASS if kind == "pass" else KIND_LOSE
    return t, st


# the cache of this module's jitted functions is emptied when a file they depend on changed
# (numba watches only this file): gamelib/jit_cache.py
guard(globals())
