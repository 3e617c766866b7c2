"""Garner's built-in players inside compiled code: random, greedy and cautious, seat by seat.

*Why one file (about 800 lines):* numba's on-disk cache is keyed on the file a jitted function lives
in and does not follow calls into other files (a cached caller keeps the old code of a callee
edited elsewhere), so the jitted functions that call one another in the hot loop stay in one
module, compiled, cached and invalidated as one unit.

``gamelib.garner.players`` is the readable reference; this module computes the same numbers
with numba so that whole games of greedy (or greedy against random) never return to Python per
decision. ``tests/test_garner_kernel_players.py`` replays kernel games through the reference
player and checks, at every decision, that the kernel's choice is one the reference could make
(among its tied best options): the same value estimate (``DECIDED_SUIT_FACTOR``, the
never-exactly-6 cut, the local lift estimate, the exact estimate when a lift empties the top
level), the same plan per lift, the same placement pool and the same collect values.

Ties are broken with the seat's own random stream, drawn in the kernel's own order, so a greedy
game here may differ from the reference players' game for the same seed (``engine="python"``);
``simulate`` plays these line-ups here (``supports``, ``play_seeds``, ``encode``).

Two details make the plans identical, not only their values: the reference keeps the *first*
option that reaches the best value, and it walks the sites next to a suit's top-layer cards in
site order (ascending), as ``prepare_lifts`` lists them here.

Caching: numba's on-disk cache (``cache=True``) notices edits to this file only; the module
ends with :func:`gamelib.jit_cache.guard`, which empties its cache when ``kernel.py``,
``heuristics.py`` or any other file it imports has changed, so nothing stale is ever loaded.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from gamelib.core import ConfigError
from gamelib.garner.heuristics import DECIDED_SUIT_FACTOR
from gamelib.garner.kernel import (
    FPS,
    LIFT_POS,
    N_CARDS,
    N_RESULTS,
    N_SITES,
    N_SUITS,
    O_BELOW,
    O_HEIGHT,
    O_PILE,
    O_TOP,
    PHASE,
    R_DECISIONS,
    R_OPTIONS,
    STATE_LEN,
    TO_MOVE,
    TOP_SURFACE,
    W_LABEL,
    W_OUT,
    KernelGames,
    KernelTables,
    apply,
    deal,
    games_table,
    groups,
    keep_record,
    legal,
    new_work,
    result,
    rng_streams,
    tables,
)
from gamelib.garner.rules import (
    COLLECT,
    LIFT,
    OVER,
    PLACE,
    Collect,
    GarnerConfig,
    LeaveBehind,
    Lift,
    Place,
)
from gamelib.jit_cache import guard, njit_borrowing
from gamelib.kernel_rng import rng_below, seeds_for

IntArray = npt.NDArray[np.int64]

RANDOM, GREEDY, CAUTIOUS = 0, 1, 2
PLAYER_CODES = {"random": RANDOM, "greedy": GREEDY, "cautious": CAUTIOUS}

# rows of the players' scratch ``pw`` (``new_player_work``)
P_LIFTS, P_NLAB, P_CLAB, P_CSUIT, P_CCOUNT, P_CSTART, P_CSITES, P_HEIGHT = range(8)
P_LIFTED, P_LOST, P_LOSTORD, P_LIFT, P_POOL, P_AVOID0, P_AVOID1, P_PLAN = range(8, 16)
P_REPIDX, P_CAND, P_TRACE = range(16, 19)
P_TRIAL, P_REPLY_TRIAL = 19, 20  # two states: the exact estimate's and cautious's look-ahead
P_NEAR = 21  # then n_suits rows of near-site order, n_suits rows of near masks, one of counts
# the float scratch ``fv``: rows of per-lift values, per-group values, per-suit values
F_PLAN, F_COMP, F_SV, F_REPLY = range(4)
TIE = 1e-9


class PlayerTables(NamedTuple):
    """Per-config constants the players read: ``tmask[o, s]`` whether a card lifted from ``o``
    may go to ``s``; ``suit_total[u]`` the cards of suit ``u``."""

    tmask: IntArray
    suit_total: IntArray


@lru_cache(maxsize=64)
def player_tables(config: GarnerConfig) -> PlayerTables:
    """The players' tables for one config (from the kernel's own tables)."""
    t = tables(config)
    n = int(t.params[N_SITES])
    tmask = np.zeros((n, n), np.int64)
    for o in range(n):
        for j in range(int(t.n_targets[o])):
            tmask[o, t.targets[o, j]] = 1
    suit_total = np.array(config.suit_sizes, np.int64)
    for a in (tmask, suit_total):
        a.setflags(write=False)
    return PlayerTables(tmask, suit_total)


@njit(cache=True)
def new_player_work(t: Any) -> Any:
    """The players' scratch space (one per thread of play, reused every decision)."""
    p = t.params
    n = p[N_SITES]
    width = max(n + 1, 4, p[STATE_LEN])
    pw = np.zeros((P_NEAR + 2 * p[N_SUITS] + 1, width), np.int64)
    fv = np.zeros((4, max(n + 1, p[N_SUITS])), np.float64)
    return pw, fv


# --- greedy ---------------------------------------------------------------------------------------


@njit_borrowing
def _cv(t: Any, st: Any, seat: int, suit: int, count: int, sv: Any) -> float:
    """collect_value: ``count`` cards of ``suit`` now (never-exactly-6 cuts one)."""
    p = t.params
    fps = p[FPS]
    if fps >= 0 and st[p[O_PILE] + seat * p[N_SUITS] + suit] + count == fps:
        count -= 1
    return float(count * sv[suit])


@njit_borrowing
def _suit_values(t: Any, suit_total: Any, st: Any, seat: int, sv: Any) -> None:
    """suit_values: a suit's weight while it is open, a tenth of it once decided."""
    p = t.params
    n_suits = p[N_SUITS]
    mine = p[O_PILE] + seat * n_suits
    theirs = p[O_PILE] + (1 - seat) * n_suits
    for u in range(n_suits):
        total = suit_total[u]
        if 2 * st[mine + u] > total or 2 * st[theirs + u] > total:
            sv[u] = t.weights[u] * DECIDED_SUIT_FACTOR
        else:
            sv[u] = t.weights[u]


@njit_borrowing
def prepare_lifts(
    t: Any, pt: Any, st: Any, seat: int, n_lifts: int, work: Any, pw: Any, fv: Any
) -> Any:
    """What every lift's estimate reads: the legal lifts and number labels (from ``legal``), the
    top layer's suit groups, their values, and the sites next to each suit's groups."""
    p = t.params
    n_sites = p[N_SITES]
    n_suits = p[N_SUITS]
    for i in range(n_lifts):
        pw[P_LIFTS, i] = work[W_OUT, i]
    for s in range(n_sites):
        pw[P_NLAB, s] = work[W_LABEL, s]
    sv = fv[F_SV]
    _suit_values(t, pt.suit_total, st, seat, sv)
    height = pw[P_HEIGHT]
    top = 0
    for s in range(n_sites):
        height[s] = st[p[O_HEIGHT] + s]
        top = max(top, height[s])
    n_top = 0
    for s in range(n_sites):
        if height[s] == top:
            n_top += 1
    nc = groups(t, t.suit_of, st, work)
    repidx, clab, csuit, ccount = pw[P_REPIDX], pw[P_CLAB], pw[P_CSUIT], pw[P_CCOUNT]
    cstart, csites = pw[P_CSTART], pw[P_CSITES]
    for c in range(nc):
        rep = work[W_OUT, c]
        repidx[rep] = c
        csuit[c] = t.suit_of[st[p[O_TOP] + rep]]
        ccount[c] = 0
    for s in range(n_sites):
        lab = work[W_LABEL, s]
        clab[s] = repidx[lab] if lab >= 0 else -1
        if lab >= 0:
            ccount[clab[s]] += 1
    at = 0
    for c in range(nc):
        cstart[c] = at
        at += ccount[c]
    cstart[nc] = at
    fill = pw[P_LOSTORD]  # borrowed: next free slot of each group
    for c in range(nc):
        fill[c] = cstart[c]
    for s in range(n_sites):
        c = clab[s]
        if c >= 0:
            csites[fill[c]] = s
            fill[c] += 1
    for c in range(nc):
        fv[F_COMP, c] = _cv(t, st, seat, csuit[c], ccount[c], sv)
    # near[u]: the sites next to top-layer cards of suit u (a mask), walked in site order
    counts = pw[P_NEAR + 2 * n_suits]
    for u in range(n_suits):
        order = pw[P_NEAR + u]
        mask = pw[P_NEAR + n_suits + u]
        for s in range(n_sites):
            mask[s] = 0
        for c in range(nc):
            if csuit[c] != u:
                continue
            for j in range(cstart[c], cstart[c + 1]):
                s = csites[j]
                for a in range(4):
                    nb = t.adj[s, a]
                    if nb < 0:
                        break
                    mask[nb] = 1
        m = 0
        for s in range(n_sites):
            if mask[s]:
                order[m] = s
                m += 1
        counts[u] = m
    for c in range(n_sites + 1):
        pw[P_LOST, c] = 0
        pw[P_LIFTED, c] = 0
    return nc, top, n_top


@njit_borrowing
def _join(t: Any, pw: Any, site: int, suit: int, avoid: Any, mark: bool) -> int:
    """A new top card of ``suit`` on ``site`` merged with the neighbouring groups of its suit
    that the lift (``pw[P_LIFTED]``) leaves linked: how many cards the merged group holds. With
    ``mark``, its sites are marked in ``avoid``."""
    clab, csuit, ccount = pw[P_CLAB], pw[P_CSUIT], pw[P_CCOUNT]
    cstart, csites, lifted = pw[P_CSTART], pw[P_CSITES], pw[P_LIFTED]
    adj = t.adj
    count = 1
    if mark:
        avoid[site] = 1
    for a in range(4):
        nb = adj[site, a]
        if nb < 0:
            break
        c = clab[nb]
        if c < 0 or csuit[c] != suit:
            continue
        seen = False
        for b in range(a):
            if clab[adj[site, b]] == c:
                seen = True
                break
        if seen:
            continue
        all_lifted = True
        for b in range(a, 4):
            nb2 = adj[site, b]
            if nb2 < 0:
                break
            if clab[nb2] == c and not lifted[nb2]:
                all_lifted = False
        if all_lifted:
            continue  # the lift removes every card that linked this group to site
        k = 0
        for j in range(cstart[c], cstart[c + 1]):
            x = csites[j]
            if lifted[x] or x == site:
                k += 1
            if mark:
                avoid[x] = 1
        count += ccount[c] - k
    return count


@njit_borrowing
def _exact_lift(
    t: Any, st: Any, seat: int, rep: int, work: Any, pw: Any, sv: Any, avoid: Any, mark: bool
) -> float:
    """A lift that empties the top level: the best collection of the new top layer, flooded
    exactly on a copy of ``st`` (``pw[P_TRIAL]``); with ``mark``, its sites written to ``avoid``."""
    p = t.params
    n_sites = p[N_SITES]
    trial = pw[P_TRIAL, : len(st)]
    for i in range(len(st)):
        trial[i] = st[i]
    apply(t, trial, rep, work)
    ng = groups(t, t.suit_of, trial, work)
    value = 0.0
    best_rep = -1
    for g in range(ng):
        r = work[W_OUT, g]
        cnt = 0
        for s in range(r, n_sites):
            if work[W_LABEL, s] == r:
                cnt += 1
        v = _cv(t, st, seat, t.suit_of[trial[p[O_TOP] + r]], cnt, sv)
        if v > value:
            value = v
            best_rep = r
    if mark and best_rep >= 0:
        for s in range(n_sites):
            if work[W_LABEL, s] == best_rep:
                avoid[s] = 1
    return value


@njit_borrowing
def lift_plan(
    t: Any,
    pt: Any,
    st: Any,
    seat: int,
    li: int,
    nc: int,
    top: int,
    n_top: int,
    work: Any,
    pw: Any,
    fv: Any,
    avoid: Any,
    mark: bool,
) -> Any:
    """Greedy's estimate for lift ``li`` (evaluate_lifts for one lift): ``(value, card_index,
    target)``; with ``mark``, the plan's sites to keep clear are written to ``avoid``."""
    p = t.params
    n_sites = p[N_SITES]
    n_suits = p[N_SUITS]
    level = p[TOP_SURFACE] == 0
    sv = fv[F_SV]
    cval = fv[F_COMP]
    rep = pw[P_LIFTS, li]
    nlab, clab, csuit, ccount = pw[P_NLAB], pw[P_CLAB], pw[P_CSUIT], pw[P_CCOUNT]
    cstart, csites, height = pw[P_CSTART], pw[P_CSITES], pw[P_HEIGHT]
    lifted, lost, lostord, lift = pw[P_LIFTED], pw[P_LOST], pw[P_LOSTORD], pw[P_LIFT]
    counts = pw[P_NEAR + 2 * n_suits]
    if mark:
        for s in range(n_sites):
            avoid[s] = 0
    nl = 0
    for s in range(rep, n_sites):
        if nlab[s] == rep:
            lift[nl] = s
            lifted[s] = 1
            nl += 1
    value = 0.0
    ci = -1
    tg = -1
    if level and nl == n_top:
        # the lift empties the top level: flood the new top layer exactly
        value = _exact_lift(t, st, seat, rep, work, pw, sv, avoid, mark)
        for j in range(nl):
            lifted[lift[j]] = 0
        return value, ci, tg
    # suit groups left standing, less the lifted cards they lose
    n_lost = 0
    for j in range(nl):
        c = clab[lift[j]]
        if c >= 0:
            if lost[c] == 0:
                lostord[n_lost] = c
                n_lost += 1
            lost[c] += 1
    best_c = -1
    for c in range(nc):  # the best group the lift leaves whole (the first of equal ones)
        if lost[c] == 0 and (best_c < 0 or cval[c] > cval[best_c]):
            best_c = c
    if best_c >= 0:
        value = cval[best_c]
    for j in range(n_lost):
        c = lostord[j]
        v = _cv(t, st, seat, csuit[c], ccount[c] - lost[c], sv)
        if v > value:
            value = v
            best_c = c
    for j in range(n_lost):
        lost[lostord[j]] = 0
    if mark and best_c >= 0:
        for j in range(cstart[best_c], cstart[best_c + 1]):
            avoid[csites[j]] = 1
    # surface reading: the cards uncovered by the lift join the top layer
    if not level:
        for j in range(nl):
            s = lift[j]
            if height[s] >= 2:
                u = t.suit_of[st[p[O_BELOW] + st[p[O_TOP] + s]]]
                v = _cv(t, st, seat, u, _join(t, pw, s, u, avoid, False), sv)
                if v > value:
                    value = v
                    ci = -1
                    tg = -1
                    if mark:
                        for x in range(n_sites):
                            avoid[x] = 0
                        _join(t, pw, s, u, avoid, True)
    # a lifted card placed so that it joins top-layer cards of its suit
    for i in range(nl):
        origin = lift[i]
        u = t.suit_of[st[p[O_TOP] + origin]]
        lone = _cv(t, st, seat, u, 1, sv)
        if lone > value and t.n_targets[origin] > 0:
            value = lone
            ci = i
            tg = -1
            if mark:
                for x in range(n_sites):
                    avoid[x] = 0
        order = pw[P_NEAR + u]
        near = pw[P_NEAR + n_suits + u]
        n_near = counts[u]
        n_cand = n_near + (nl if level else 0)
        for q in range(n_cand):
            if q < n_near:
                s = order[q]
                if level and height[s] != top - 1:
                    continue
            else:
                s = lift[q - n_near]
                if not near[s]:
                    continue
            if not pt.tmask[origin, s]:
                continue
            v = _cv(t, st, seat, u, _join(t, pw, s, u, avoid, False), sv)
            if v > value:
                value = v
                ci = i
                tg = s
                if mark:
                    for x in range(n_sites):
                        avoid[x] = 0
                    _join(t, pw, s, u, avoid, True)
    for j in range(nl):
        lifted[lift[j]] = 0
    return value, ci, tg


@njit_borrowing
def lift_values(
    t: Any, pt: Any, st: Any, seat: int, n_lifts: int, work: Any, pw: Any, fv: Any
) -> Any:
    """Greedy's estimate for each of the ``n_lifts`` legal lifts ``legal`` just wrote (in
    ``fv[F_PLAN]``); returns what ``lift_plan`` needs besides."""
    nc, top, n_top = prepare_lifts(t, pt, st, seat, n_lifts, work, pw, fv)
    avoid = pw[P_AVOID0 + seat]
    for li in range(n_lifts):
        v, _, _ = lift_plan(t, pt, st, seat, li, nc, top, n_top, work, pw, fv, avoid, False)
        fv[F_PLAN, li] = v
    return nc, top, n_top


@njit_borrowing
def _greedy_lift(
    t: Any, pt: Any, st: Any, seat: int, n: int, work: Any, pw: Any, fv: Any, rs: Any
) -> int:
    """Greedy's lift: a random one of the best-valued plans; the plan is kept for placing."""
    nc, top, n_top = lift_values(t, pt, st, seat, n, work, pw, fv)
    values = fv[F_PLAN]
    best = values[0]
    for li in range(1, n):
        best = max(best, values[li])
    pool = pw[P_POOL]
    m = 0
    for li in range(n):
        if values[li] >= best - TIE:
            pool[m] = li
            m += 1
    li = pool[0] if m == 1 else pool[rng_below(rs, 1 + seat, m)]
    avoid = pw[P_AVOID0 + seat]
    _, ci, tg = lift_plan(t, pt, st, seat, li, nc, top, n_top, work, pw, fv, avoid, True)
    pw[P_PLAN, 2 * seat] = ci
    pw[P_PLAN, 2 * seat + 1] = tg
    return int(pw[P_LIFTS, li])


@njit_borrowing
def plan_lift(t: Any, pt: Any, st: Any, seat: int, li: int, work: Any, pw: Any, fv: Any) -> int:
    """Make lift ``li`` of ``st``'s legal lifts ``seat``'s plan (as greedy keeps it); returns the
    lift's decision."""
    n = legal(t, st, work)
    nc, top, n_top = prepare_lifts(t, pt, st, seat, n, work, pw, fv)
    avoid = pw[P_AVOID0 + seat]
    _, ci, tg = lift_plan(t, pt, st, seat, li, nc, top, n_top, work, pw, fv, avoid, True)
    pw[P_PLAN, 2 * seat] = ci
    pw[P_PLAN, 2 * seat + 1] = tg
    return int(pw[P_LIFTS, li])


@njit_borrowing
def cautious_reply(
    t: Any, pt: Any, st: Any, seat: int, li: int, work: Any, pw: Any, fv: Any, rs: Any, trace: Any
) -> Any:
    """Cautious's look-ahead for lift ``li`` of ``st``: make it the plan, play the planned turn
    greedily on a copy (its decisions written to ``trace``) and return ``(reply, n)``: the
    opponent's best lift estimate afterwards (0 when the game is over) and how many decisions
    the turn took after the lift."""
    d = plan_lift(t, pt, st, seat, li, work, pw, fv)
    trial = pw[P_REPLY_TRIAL, : len(st)]
    for i in range(len(st)):
        trial[i] = st[i]
    apply(t, trial, d, work)
    k = 0
    while trial[PHASE] != OVER and trial[PHASE] != LIFT and trial[TO_MOVE] == seat:
        n2 = legal(t, trial, work)
        d2 = _rest_of_turn(t, pt, trial, n2, work, pw, fv, rs)
        if k < len(trace):
            trace[k] = d2
        k += 1
        apply(t, trial, d2, work)
    if trial[PHASE] == OVER:
        return 0.0, k
    n3 = legal(t, trial, work)
    lift_values(t, pt, trial, 1 - seat, n3, work, pw, fv)
    reply = fv[F_PLAN, 0]
    for i in range(1, n3):
        reply = max(reply, fv[F_PLAN, i])
    return reply, k


@njit_borrowing
def _cautious_lift(
    t: Any, pt: Any, st: Any, seat: int, n: int, width: int, work: Any, pw: Any, fv: Any, rs: Any
) -> int:
    """Cautious's lift: among greedy's tied best (a random ``width`` of them when there are
    more), the one whose planned turn, played out greedily on a copy, leaves the opponent the
    smallest best lift estimate (0 when the game ends); ties at random."""
    lift_values(t, pt, st, seat, n, work, pw, fv)
    values = fv[F_PLAN]
    best = values[0]
    for li in range(1, n):
        best = max(best, values[li])
    cand = pw[P_CAND]
    m = 0
    for li in range(n):
        if values[li] >= best - TIE:
            cand[m] = li
            m += 1
    if m > width:  # a random sample of width of them (partial Fisher–Yates)
        for j in range(width):
            k = j + rng_below(rs, 1 + seat, m - j)
            cand[j], cand[k] = cand[k], cand[j]
        m = width
    if m == 1:
        return plan_lift(t, pt, st, seat, cand[0], work, pw, fv)
    replies = fv[F_REPLY]
    trace = pw[P_TRACE]
    for j in range(m):
        replies[j], _ = cautious_reply(t, pt, st, seat, cand[j], work, pw, fv, rs, trace)
    low = replies[0]
    for j in range(1, m):
        low = min(low, replies[j])
    k = 0
    for j in range(m):  # the candidates at the lowest reply, in their order
        if replies[j] <= low + TIE:
            cand[k] = cand[j]
            k += 1
    pick = cand[0] if k == 1 else cand[rng_below(rs, 1 + seat, k)]
    return plan_lift(t, pt, st, seat, pick, work, pw, fv)


@njit_borrowing
def place_pool(t: Any, st: Any, seat: int, n: int, work: Any, pw: Any) -> int:
    """Greedy's placement options among the ``n`` legal ones: the plan's target when this card
    is the one it plans for (one option), else the sites that cannot spoil the plan (or every
    legal one when none is safe). Writes them to ``pw[P_POOL]``; returns how many."""
    p = t.params
    pos = st[LIFT_POS]
    ci = pw[P_PLAN, 2 * seat]
    tg = pw[P_PLAN, 2 * seat + 1]
    pool = pw[P_POOL]
    out = work[W_OUT]
    if ci == pos:
        for k in range(n):
            if out[k] == tg:
                pool[0] = tg
                return 1
    reserved = tg if ci > pos else -1
    avoid = pw[P_AVOID0 + seat]
    level = p[TOP_SURFACE] == 0
    top = 0
    for s in range(p[N_SITES]):
        top = max(top, st[p[O_HEIGHT] + s])
    m = 0
    for k in range(n):
        s = out[k]
        if s != reserved and not avoid[s] and (not level or st[p[O_HEIGHT] + s] < top or top == 0):
            pool[m] = s
            m += 1
    if m == 0:
        for k in range(n):
            pool[k] = out[k]
        m = n
    return m


@njit_borrowing
def collect_values(t: Any, pt: Any, st: Any, seat: int, n: int, work: Any, fv: Any) -> None:
    """Greedy's worth of each of the ``n`` legal collects (in ``fv[F_PLAN]``)."""
    p = t.params
    sv = fv[F_SV]
    _suit_values(t, pt.suit_total, st, seat, sv)
    label = work[W_LABEL]
    for k in range(n):
        rep = work[W_OUT, k]
        cnt = 0
        for s in range(rep, p[N_SITES]):
            if label[s] == rep:
                cnt += 1
        fv[F_PLAN, k] = _cv(t, st, seat, t.suit_of[st[p[O_TOP] + rep]], cnt, sv)


@njit_borrowing
def greedy_decision(
    t: Any, pt: Any, st: Any, n: int, work: Any, pw: Any, fv: Any, rs: Any, width: int
) -> int:
    """Greedy's decision among the ``n`` legal ones ``legal`` just wrote; with ``width`` ≥ 1,
    cautious's (its lift differs, the rest of its turn is greedy's)."""
    seat = st[TO_MOVE]
    phase = st[PHASE]
    if phase == LIFT:
        if width > 0:
            return _cautious_lift(t, pt, st, seat, n, width, work, pw, fv, rs)
        return _greedy_lift(t, pt, st, seat, n, work, pw, fv, rs)
    return _rest_of_turn(t, pt, st, n, work, pw, fv, rs)


@njit_borrowing
def _rest_of_turn(t: Any, pt: Any, st: Any, n: int, work: Any, pw: Any, fv: Any, rs: Any) -> int:
    """Greedy's placement, collect or leave-behind among the ``n`` legal decisions."""
    seat = st[TO_MOVE]
    phase = st[PHASE]
    if phase == PLACE:
        m = place_pool(t, st, seat, n, work, pw)
        return int(pw[P_POOL, 0 if m == 1 else rng_below(rs, 1 + seat, m)])
    if phase == COLLECT:
        collect_values(t, pt, st, seat, n, work, fv)
        values = fv[F_PLAN]
        best = values[0]
        for k in range(1, n):
            best = max(best, values[k])
        pool = pw[P_POOL]
        m = 0
        for k in range(n):
            if values[k] >= best - TIE:
                pool[m] = work[W_OUT, k]
                m += 1
        return int(pool[0] if m == 1 else pool[rng_below(rs, 1 + seat, m)])
    return int(work[W_OUT, 0])  # LEAVE: the first card


# --- whole games ---------------------------------------------------------------------------


@njit(cache=True)
def play_game(
    t: Any,
    pt: Any,
    codes: Any,
    rs: Any,
    st: Any,
    work: Any,
    pw: Any,
    fv: Any,
    decisions: Any,
    counts: Any,
) -> Any:
    """Play ``st`` to the end with player ``codes[seat, 0]`` on each seat (``RANDOM``: uniform,
    as ``kernel.play_random_game``; ``GREEDY``; ``CAUTIOUS`` of width ``codes[seat, 1]``);
    returns ``(n, decisions)`` and adds to ``counts`` like it."""
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
        seat = st[TO_MOVE]
        code = codes[seat, 0]
        if code == GREEDY:
            d = greedy_decision(t, pt, st, n, work, pw, fv, rs, 0)
        elif code == CAUTIOUS:
            d = greedy_decision(t, pt, st, n, work, pw, fv, rs, codes[seat, 1])
        else:
            d = work[W_OUT, 0 if n == 1 else rng_below(rs, 1 + seat, n)]
        decisions[n_dec] = d
        n_dec += 1
        apply(t, st, d, work)
    return n_dec, decisions


@njit(cache=True)
def play_batch_kernel(t: Any, pt: Any, codes: Any, seeds: Any, record: bool) -> Any:
    """``kernel.play_random_batch`` with a player code per seat (same outputs)."""
    p = t.params
    n_games = len(seeds)
    results = np.zeros((n_games, N_RESULTS), np.int64)
    scores = np.zeros((n_games, 2), np.float64)
    piles = np.zeros((n_games, 2, p[N_SUITS]), np.int64)
    work = new_work(t)
    pw, fv = new_player_work(t)
    buf = np.empty(1024, np.int64)
    deck = np.empty(p[N_CARDS], np.int64)
    n_rec = n_games if record else 0
    decisions = np.empty(n_rec * 64, np.int16)
    offsets = np.zeros(n_rec + 1, np.int64)
    deals = np.empty((n_rec, p[N_CARDS]), np.int16)
    for g in range(n_games):
        rs = rng_streams(seeds[g])
        st = deal(t, rs, deck)
        n_dec, buf = play_game(t, pt, codes, rs, st, work, pw, fv, buf, results[g, R_OPTIONS:])
        result(t, st, results[g], scores[g], piles[g])
        results[g, R_DECISIONS] = n_dec
        if record:
            decisions = keep_record(g, n_dec, buf, deck, deals, decisions, offsets)
    return results, scores, piles, decisions[: offsets[n_rec]], offsets, deals


def player_codes(players: tuple[str, str] | list[str]) -> IntArray:
    """Each seat's player as the kernel's ``[code, width]`` (``random``, ``greedy``,
    ``cautious`` or ``cautious:N``, as ``gamelib.garner.players`` names them)."""
    if isinstance(players, str) or len(players) != 2:
        raise ConfigError(f"players must name one player per seat (two), got {players!r}")
    codes = np.zeros((2, 2), np.int64)
    for seat, name in enumerate(players):
        base, _, arg = str(name).partition(":")
        if base not in PLAYER_CODES or (arg and base != "cautious"):
            raise ConfigError(
                f"no compiled Garner player {name!r}; compiled players: random, greedy, "
                "cautious, cautious:N"
            )
        codes[seat, 0] = PLAYER_CODES[base]
        if base == "cautious":
            width = int(arg) if arg.isdigit() else 0 if arg else 3
            if width < 1:
                raise ConfigError(f"cautious:N takes a whole number N ≥ 1 of options, got {arg!r}")
            codes[seat, 1] = width
    return codes


def play_batch(
    config: GarnerConfig,
    players: tuple[str, str] | list[str] = ("greedy", "greedy"),
    n_games: int = 1,
    seed: int = 0,
    *,
    record: bool = False,
    start: int = 0,
) -> KernelGames:
    """Play ``n_games`` games between compiled players (``players[seat]``: ``"random"``,
    ``"greedy"``, ``"cautious"`` or ``"cautious:N"``) in compiled code, seeded as
    ``kernel.play_random`` seeds its games; with two random players the games are
    ``play_random``'s."""
    if not isinstance(config, GarnerConfig):
        raise ConfigError(f"play_batch needs a GarnerConfig, got {type(config).__name__}")
    if not isinstance(n_games, int) or isinstance(n_games, bool) or n_games < 0:
        raise ConfigError(f"n_games must be a non-negative int, got {n_games!r}")
    return play_seeds(config, players, seeds_for(seed, n_games, start), record=record, start=start)


def supports(player: object) -> bool:
    """Whether a player spec has a compiled version here (``simulate`` then plays in compiled
    code)."""
    if not isinstance(player, str):
        return False
    try:
        player_codes([player, player])
    except (ConfigError, ValueError):
        return False
    return True


def play_seeds(
    config: GarnerConfig,
    players: tuple[str, str] | list[str],
    seeds: IntArray,
    *,
    record: bool = False,
    start: int = 0,
) -> KernelGames:
    """:func:`play_batch` on explicit per-game seeds."""
    codes = player_codes(players)
    t: KernelTables = tables(config)
    seeds = np.asarray(seeds, dtype=np.int64)
    out = play_batch_kernel(t, player_tables(config), codes, seeds, record)
    return games_table(config, seeds, start, out)


def encode(move: Any) -> int:
    """The kernel decision for a reference move: the site it names (a group by its lowest)."""
    if isinstance(move, Lift | Collect):
        return int(move.sites[0])
    if isinstance(move, Place | LeaveBehind):
        return int(move.site)
    raise ValueError(f"{move!r} is not a Garner decision")


# the cache of this module's jitted functions is emptied when a file they depend on changed
# (numba watches only this file): gamelib/jit_cache.py
guard(globals())
