"""Garner players: random, greedy, cautious and mcts.

* **random** — uniform over the legal options at every decision (lift, each placement, collect,
  leave-behind). The baseline every study compares against.
* **greedy** — plans one turn to collect as much as it can *now*. Each card is worth its suit's
  weight while the suit is still open and a tenth of that once either player holds a majority of
  the suit (more cards would not change who wins it); a collection that the never-exactly-6 rule
  would cut short counts one card less. For every liftable number group it estimates the best
  collection afterwards: the suit groups left standing, or a lifted card placed next to top-layer
  cards of its own suit so that it joins (and bridges) them. The estimate is local — it looks at
  the lifted sites and their neighbours instead of re-flooding the whole layout for every option,
  which keeps the player fast — and it places the other lifted cards where they cannot spoil the
  plan (not above the top layer, not on the group it means to collect). The collect decision
  itself is exact: the most valuable suit group in the layout as it stands. Ties are broken at
  random with the player's own RNG.
* **cautious** — greedy, but among the lifts greedy rates best (up to ``width`` of them) it plays
  each planned turn out on a copy and keeps the one that leaves the opponent the smallest best
  collection (by the same estimate, from the opponent's side).
* **mcts:N** — UCT Monte-Carlo tree search, N iterations per decision, random or greedy playouts
  in compiled code (``gamelib.garner.search`` describes it and its options).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from gamelib.core import ConfigError, Move, Player, random_player
from gamelib.garner.heuristics import DECIDED_SUIT_FACTOR
from gamelib.garner.rules import (
    COLLECT,
    LEAVE,
    LIFT,
    PLACE,
    Collect,
    GarnerState,
    Lift,
    Place,
    Site,
)
from gamelib.restrict import Option, Options


def suit_values(state: GarnerState, seat: int) -> list[float]:
    """What one more card of each suit is worth to ``seat``: the suit's weight while it is open."""
    mine, theirs = state.piles[seat], state.piles[1 - seat]
    out = []
    for u, (w, total) in enumerate(zip(state.config.weights, state.t.suit_total, strict=True)):
        decided = 2 * mine[u] > total or 2 * theirs[u] > total
        out.append(w * DECIDED_SUIT_FACTOR if decided else float(w))
    return out


def collect_value(
    state: GarnerState, seat: int, suit: int, count: int, sv: Sequence[float]
) -> float:
    """The worth of collecting ``count`` cards of ``suit`` now (never-exactly-6 cuts one)."""
    fps = state.config.forbidden_pile_size
    if fps is not None and state.piles[seat][suit] + count == fps:
        count -= 1
    return count * sv[suit]


@dataclass(slots=True)
class _Plan:
    turn: int
    lift: tuple[Site, ...]
    card_index: int  # which lifted card goes to target (-1: none)
    target: Site
    avoid: Collection[Site]  # sites of the group it means to collect
    value: float


class _Components:
    """The top layer's suit groups: a label per site and each label's suit, count and sites."""

    __slots__ = ("count", "label", "sites", "suit")

    def __init__(self, state: GarnerState) -> None:
        groups = state.groups(state.t.suit_of)
        n = len(state.stacks)
        self.label = [-1] * n
        self.suit: list[int] = []
        self.count: list[int] = []
        self.sites = groups
        suit_of = state.t.suit_of
        stacks = state.stacks
        for i, g in enumerate(groups):
            for s in g:
                self.label[s] = i
            self.suit.append(suit_of[stacks[g[0]][-1]])
            self.count.append(len(g))


def evaluate_lifts(state: GarnerState, seat: int, legal: Sequence[Move]) -> list[_Plan]:
    """Greedy's estimate, for every legal lift, of the best collection it leads to this turn."""
    t = state.t
    stacks = state.stacks
    suit_of = t.suit_of
    adj = t.adj
    sv = suit_values(state, seat)
    comps = _Components(state)
    label = comps.label
    level = state.config.top_layer == "level"
    heights = [len(st) for st in stacks]
    top = max(heights)
    n_top = sum(1 for h in heights if h == top)
    # near[u]: sites next to a top-layer card of suit u
    near: list[set[Site]] = [set() for _ in state.config.suit_sizes]
    for lab, sites in enumerate(comps.sites):
        bucket = near[comps.suit[lab]]
        for s in sites:
            bucket.update(adj[s])
    values = [
        collect_value(state, seat, u, cnt, sv)
        for u, cnt in zip(comps.suit, comps.count, strict=True)
    ]
    order = sorted(range(len(values)), key=values.__getitem__, reverse=True)
    # the near sites are walked in site order, so that the first of equally valued plans kept
    # does not depend on how a set happens to iterate (the compiled players walk the same)
    walk = [sorted(sites) for sites in near]
    # level reading: a card joins the top layer only on a stack one below the top
    cand = [[x for x in sites if heights[x] == top - 1] for sites in walk]
    joins: dict[int, list[tuple[tuple[Site, ...], list[Site]]]] = {}
    plans = []
    for mv in legal:
        lift: tuple[Site, ...] = mv.sites  # type: ignore[attr-defined]
        lifted = set(lift)
        if level and len(lift) == n_top:
            plans.append(_exact_after_lift(state, seat, lift, sv))
            continue
        # suit groups left standing, less the lifted cards they lose
        lost: dict[int, int] = {}
        for s in lift:
            lab = label[s]
            if lab >= 0:
                lost[lab] = lost.get(lab, 0) + 1
        best = 0.0
        best_lab = -1
        for lab in order:  # the best group the lift leaves whole
            if lab not in lost:
                best, best_lab = values[lab], lab
                break
        for lab, k in lost.items():  # groups that lose lifted cards
            v = collect_value(state, seat, comps.suit[lab], comps.count[lab] - k, sv)
            if v > best:
                best, best_lab = v, lab
        plan = _Plan(
            state.turns,
            lift,
            -1,
            -1,
            comps.sites[best_lab] if best_lab >= 0 else (),
            best,
        )
        # surface reading: the cards uncovered by the lift join the top layer
        if not level:
            for s in lift:
                if heights[s] >= 2:
                    u = suit_of[stacks[s][-2]]
                    count, joined = _join(s, u, lifted, comps, adj)
                    v = collect_value(state, seat, u, count, sv)
                    if v > plan.value:
                        plan = _Plan(state.turns, lift, -1, -1, joined, v)
        # a lifted card placed so that it joins top-layer cards of its suit: only sites next
        # to such cards can beat a lone card, so only those are looked at; a join the lift
        # does not touch is worth the same for every lift, so it is worked out once
        for i, origin in enumerate(lift):
            u = suit_of[stacks[origin][-1]]
            lone = collect_value(state, seat, u, 1, sv)
            if lone > plan.value and t.targets[origin]:
                plan = _Plan(state.turns, lift, i, -1, (), lone)
            targets = t.target_sets[origin]
            for s in (*cand[u], *(x for x in lift if x in near[u])) if level else walk[u]:
                if s not in targets:
                    continue
                key = s * 64 + u
                links = joins.get(key)
                if links is None:
                    links = joins[key] = _links(s, u, comps, adj)
                bound = 1 + sum(len(sites) for sites, _ in links)
                if bound * sv[u] <= plan.value:
                    continue  # cannot beat the plan in hand, however the lift falls
                count = 1
                joined = [s]
                for lab_sites, via in links:
                    if all(x in lifted for x in via):
                        continue  # the lift removes every card that linked this group to s
                    count += len(lab_sites) - sum(1 for x in lab_sites if x in lifted or x == s)
                    joined += lab_sites
                v = collect_value(state, seat, u, count, sv)
                if v > plan.value:
                    plan = _Plan(state.turns, lift, i, s, joined, v)
        plans.append(plan)
    return plans


def _join(
    site: Site,
    suit: int,
    lifted: Collection[Site],
    comps: _Components,
    adj: Sequence[Sequence[Site]],
) -> tuple[int, list[Site]]:
    """A new top card of ``suit`` on ``site`` merged with neighbouring groups of its suit
    that the lift leaves linked: (cards in the merged group, its sites)."""
    count = 1
    joined = [site]
    for sites, via in _links(site, suit, comps, adj):
        if all(x in lifted for x in via):
            continue
        count += len(sites) - sum(1 for x in sites if x in lifted or x == site)
        joined += sites
    return count, joined


def _links(
    site: Site, suit: int, comps: _Components, adj: Sequence[Sequence[Site]]
) -> list[tuple[tuple[Site, ...], list[Site]]]:
    """The top-layer groups of ``suit`` next to ``site``, each with the neighbours linking it."""
    via: dict[int, list[Site]] = {}
    for nb in adj[site]:
        lab = comps.label[nb]
        if lab >= 0 and comps.suit[lab] == suit:
            via.setdefault(lab, []).append(nb)
    return [(comps.sites[lab], nbs) for lab, nbs in via.items()]


def _exact_after_lift(
    state: GarnerState, seat: int, lift: tuple[Site, ...], sv: Sequence[float]
) -> _Plan:
    """When a lift empties the top level, flood the new top layer exactly (a rare case)."""
    trial = state.clone()
    trial.apply(Lift(lift))
    # judge the layout with the lifted cards off it: where they land comes after
    saved = trial.stacks
    best = 0.0
    avoid: Collection[Site] = ()
    suit_of = state.t.suit_of
    for g in trial.groups(suit_of):
        v = collect_value(state, seat, suit_of[saved[g[0]][-1]], len(g), sv)
        if v > best:
            best, avoid = v, g
    return _Plan(state.turns, lift, -1, -1, avoid, best)


def _best(options: Sequence[Move], values: Sequence[float], rng: random.Random) -> Move:
    top = max(values)
    tied = [o for o, v in zip(options, values, strict=True) if v >= top - 1e-9]
    return tied[rng.randrange(len(tied))] if len(tied) > 1 else tied[0]


class GreedyPlayer:
    """Maximises what it collects this turn, weighted towards suits it can still win."""

    __name__ = "greedy"

    def __init__(self) -> None:
        self._plan: _Plan | None = None

    def __call__(self, observation: GarnerState, legal: Sequence[Move], rng: random.Random) -> Move:
        """Choose one decision of the current turn."""
        state = observation
        phase = state.phase
        seat = state.to_move
        if phase == LIFT:
            plans = evaluate_lifts(state, seat, legal)
            plan = self._choose(state, seat, plans, rng)
            self._plan = plan
            return Lift(plan.lift)
        if phase == PLACE:
            return self._place(state, legal, rng)
        if phase == COLLECT:
            return self._collect(state, seat, legal, rng)
        if phase == LEAVE:
            return legal[0]
        raise ValueError(f"greedy was asked to move in phase {state.decision}")

    def _choose(
        self, state: GarnerState, seat: int, plans: list[_Plan], rng: random.Random
    ) -> _Plan:
        top = max(p.value for p in plans)
        tied = [p for p in plans if p.value >= top - 1e-9]
        return tied[rng.randrange(len(tied))] if len(tied) > 1 else tied[0]

    def _place(self, state: GarnerState, legal: Sequence[Move], rng: random.Random) -> Move:
        pool, planned = place_options(state, legal, self._plan)
        if planned:
            return pool[0]
        return pool[rng.randrange(len(pool))]

    def _collect(
        self, state: GarnerState, seat: int, legal: Sequence[Move], rng: random.Random
    ) -> Move:
        return _best(legal, collect_values(state, seat, legal), rng)


def place_options(
    state: GarnerState, legal: Sequence[Move], plan: _Plan | None
) -> tuple[list[Move], bool]:
    """Greedy's placement options: ``([target], True)`` when this card is the one the plan
    places (and its target is legal), else the legal placements that cannot spoil the plan
    (every legal one when none is safe) and ``False``; greedy picks one of them at random."""
    i = len(state.placed)
    if plan is not None and plan.turn == state.turns:
        if plan.card_index == i and Place(plan.target) in legal:
            return [Place(plan.target)], True
        reserved = plan.target if plan.card_index > i else -1
        avoid = plan.avoid
    else:
        reserved, avoid = -1, ()
    stacks = state.stacks
    top = max(map(len, stacks))
    level = state.config.top_layer == "level"
    safe = [
        m
        for m in legal
        if (s := m.site) != reserved  # type: ignore[attr-defined]
        and s not in avoid
        and (not level or len(stacks[s]) < top or top == 0)
    ]
    return (safe or list(legal)), False


def collect_values(state: GarnerState, seat: int, legal: Sequence[Move]) -> list[float]:
    """Greedy's worth of each legal collect: the group's cards at their suit's value."""
    sv = suit_values(state, seat)
    suit_of = state.t.suit_of
    stacks = state.stacks
    return [
        collect_value(state, seat, suit_of[stacks[m.sites[0]][-1]], len(m.sites), sv)  # type: ignore[attr-defined]
        for m in legal
    ]


class CautiousPlayer(GreedyPlayer):
    """Greedy, but among its best options leaves the opponent the smallest best collection."""

    __name__ = "cautious"

    def __init__(self, width: int = 3) -> None:
        super().__init__()
        self.width = width

    def _choose(
        self, state: GarnerState, seat: int, plans: list[_Plan], rng: random.Random
    ) -> _Plan:
        top = max(p.value for p in plans)
        tied = [p for p in plans if p.value >= top - 1e-9]
        if len(tied) > self.width:
            tied = rng.sample(tied, self.width)
        if len(tied) == 1:
            return tied[0]
        scored = []
        for plan in tied:
            trial = state.clone()
            follow = GreedyPlayer()
            follow._plan = plan
            trial.apply(Lift(plan.lift))
            while trial.phase in (PLACE, COLLECT, LEAVE) and trial.to_move == seat:
                legal = trial.legal_moves()
                trial.apply(follow(trial, legal, rng))
            if trial.is_over():
                reply = 0.0
            else:
                opp_legal = trial.legal_moves()
                reply = max(p.value for p in evaluate_lifts(trial, 1 - seat, opp_legal))
            scored.append((reply, plan))
        low = min(r for r, _ in scored)
        best = [p for r, p in scored if r <= low + 1e-9]
        return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


def greedy() -> Player:
    """A fresh greedy player."""
    return GreedyPlayer()


def cautious(width: str | int = 3) -> Player:
    """A fresh cautious player; ``cautious:N`` looks at up to N tied best lifts."""
    try:
        n = int(width)
    except ValueError:
        n = 0
    if n < 1:
        raise ConfigError(f"cautious:N takes a whole number N ≥ 1 of options, got {width!r}")
    return CautiousPlayer(n)


def random_() -> Player:
    """The random player."""
    return random_player


def mcts(spec: str | None = None) -> Player:
    """A fresh ``mcts:N[:POLICY[:CUTOFF[:C]]][:reuse]`` search player
    (``gamelib.garner.search``); ``mcts:25ms`` by time per decision (:mod:`gamelib.timed`)."""
    # imported here: the search imports the compiled players, which import this module
    from gamelib.garner.search import mcts as make

    return make(spec)


def solver(spec: str | None = None) -> Player:
    """A fresh ``solver:N[:CARDS[:MAX_NODES]]`` player: ``mcts:N``, exact near the end
    (``gamelib.garner.perfect``); ``solver:25ms`` sets its ``mcts`` part's ``N`` by time per
    decision (:mod:`gamelib.timed`)."""
    from gamelib.garner.perfect import solver_player

    return solver_player(spec)


PLAYERS = {
    "random": random_,
    "greedy": greedy,
    "cautious": cautious,
    "mcts": mcts,
    "solver": solver,
}


# --- the classes of moves a player can be restricted from or to (gamelib.restrict) ------------


def _not_largest(kind: type) -> Any:
    def marks(view: Any, legal: Sequence[Move]) -> list[bool]:
        sizes = [len(m.sites) if isinstance(m, kind) else 0 for m in legal]  # type: ignore[attr-defined]
        top = max(sizes, default=0)
        return [isinstance(m, kind) and n < top for m, n in zip(legal, sizes, strict=True)]

    return marks


def _origin(view: Any) -> tuple[int, int]:
    """The row and column the next lifted card came from."""
    r, c = divmod(int(view.lifted[0][0]), int(view.config.cols))
    return r, c


def _stay(view: Any, legal: Sequence[Move]) -> list[bool]:
    if not legal or not isinstance(legal[0], Place):
        return [False] * len(legal)
    origin = view.lifted[0][0]
    return [isinstance(m, Place) and m.site == origin for m in legal]


def _line(view: Any, legal: Sequence[Move]) -> list[bool]:
    if not legal or not isinstance(legal[0], Place):
        return [False] * len(legal)
    r0, c0 = _origin(view)
    out = []
    for m in legal:
        r, c = divmod(m.site, view.config.cols)  # type: ignore[attr-defined]
        out.append((r, c) != (r0, c0) and (r == r0 or c == c0 or abs(r - r0) == abs(c - c0)))
    return out


def _half(view: Any, legal: Sequence[Move]) -> list[bool]:
    weights = view.config.weights
    top = max(weights)
    suit_of = view.t.suit_of
    return [
        isinstance(m, Collect) and weights[suit_of[view.stacks[m.sites[0]][-1]]] < top
        for m in legal
    ]


#: Garner's classes of moves in the rules' words
OPTIONS = Options(
    {
        "lift-small": Option(
            "lifting a number group that is not the largest one offered", _not_largest(Lift)
        ),
        "collect-small": Option(
            "collecting a suit group that is not the largest one offered", _not_largest(Collect)
        ),
        "stay": Option("putting a lifted card back on its own site", _stay),
        "line": Option(
            "distributing a card in a straight line or diagonally (to another site on its row, "
            "column or diagonal)",
            _line,
        ),
        "collect-half": Option(
            "collecting a group of a suit worth less than a whole suit (setup C's nine-card "
            "suit, worth half)",
            _half,
        ),
    }
)
