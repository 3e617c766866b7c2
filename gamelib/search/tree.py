"""Tree search over the protocol: UCT (``mcts``) and single-observer information-set MCTS
(``ismcts``), one algorithm for any game gamelib's protocol describes.

**UCT** (Kocsis and Szepesvári 2006, "Bandit based Monte-Carlo planning", ECML, LNCS 4212):
each iteration descends the tree from the position by the child with the highest
``mean + C·sqrt(ln n / n_child)`` (``n`` the node's visits), adds one node, plays uniformly at
random to the end and adds the result to the nodes on its path, each node keeping the points of
the seat that decided there (max-n: every seat plays for itself).

**SO-ISMCTS** (Cowling, Powley and Whitehouse 2012, "Information set Monte Carlo tree search",
IEEE TCIAIG 4(2)): where the seat to decide cannot see everything, each iteration first
*determinizes* — the game's ``resample(observation, rng)`` deals everything the seat has not
seen again — and descends one tree shared by all determinizations, keyed by the decisions made
from the root; at a node only the options legal in this determinization are *available*, each
available child's availability count goes up, and ``n`` in the formula is the child's
availability. With nothing hidden (the determinization is the position itself) it is UCT.

A decision with a single option is made without a node. The decision taken is the root option
visited most (ties: the better mean, then the first in legal order). Points: a sole winner 1, a
win shared by k 1/k, a game nobody wins 1/n to each seat (a solitaire: 1 for a win, 0 else).
Every random number comes from the ``rng`` the play loop hands the player: one 63-bit draw a
decision with options seeds the search, so the same seed gives the same game.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from gamelib.core import Move, Outcome, State
from gamelib.restrict import Option, keep

__all__ = ["Determinize", "Mask", "Reward", "points", "search"]

#: an observation and an rng -> a whole state to search (the position itself, or a resampling)
Determinize = Callable[[Any, random.Random], State]
#: a finished playout -> each seat's reward in [0, 1]
Reward = Callable[[State], Sequence[float]]
#: a restriction of the searching seat's moves: a class of moves and ``"forbid"``/``"always"``
Mask = tuple[Option, str]


def points(outcome: Outcome, n: int) -> list[float]:
    """Each seat's points of a finished game: a win shared by k is 1/k; nobody winning gives
    every seat 1/n (a solitaire: 1 for a win, 0 for a loss)."""
    if not outcome.winners:
        return [0.0] if n == 1 else [1.0 / n] * n
    share = 1.0 / len(outcome.winners)
    return [share if s in outcome.winners else 0.0 for s in range(n)]


class _Node:
    """A node of the tree: the seat that decided into it, its visits, availability and the
    points it was given; children keyed by (seat, move)."""

    __slots__ = ("actor", "avail", "children", "total", "visits")

    def __init__(self, actor: int) -> None:
        self.actor = actor
        self.visits = 0
        self.avail = 1
        self.total = 0.0
        self.children: dict[tuple[int, Move], _Node] = {}


def outcome_points(state: State) -> list[float]:
    """The default reward of a finished playout: each seat's :func:`points`."""
    return points(state.outcome(), state.n_players)


def play_out(state: State, rng: random.Random, mask: Mask | None = None, seat: int = -1) -> None:
    """Uniform random play to the end (a forced move draws no number); ``mask`` restricts
    ``seat``'s moves (:mod:`gamelib.restrict`)."""
    while not state.is_over():
        legal: Sequence[Move] = state.legal_moves()
        if mask is not None and len(legal) > 1 and state.current_player() == seat:
            legal = _masked(mask, state, legal)
        state.apply(legal[0] if len(legal) == 1 else legal[rng.randrange(len(legal))])


def _masked(mask: Mask, state: Any, legal: Sequence[Move]) -> Sequence[Move]:
    """The moves a restricted seat may take here (all of them if the class leaves none)."""
    kept = keep(mask[0], mask[1], state, legal)
    return legal if len(kept) == len(legal) else [legal[k] for k in kept]


def search(
    observation: Any,
    legal: Sequence[Move],
    seat: int,
    iterations: int,
    c: float,
    determinize: Determinize,
    rng: random.Random,
    uct: bool = False,
    reward: Reward = outcome_points,
    expand: str = "random",
    mask: Mask | None = None,
) -> tuple[Move, list[tuple[Move, int, float]]]:
    """``iterations`` iterations of SO-ISMCTS for ``seat`` at ``observation`` (``uct``: the
    determinization is the position itself, and UCB's ``n`` the parent's visits, as UCT);
    returns the decision and, per root option in legal order, ``(move, visits, mean
    reward)``. ``reward``: each seat's reward of a finished playout (default its points);
    ``expand``: which untried option a node adds, ``"random"`` (the textbook's) or ``"first"``
    (in legal order) — the two options exist so the generic search can be checked against a
    compiled one that makes the other choice or shapes its reward (``bench/search_crosscheck``);
    ``mask``: a restriction (:mod:`gamelib.restrict`) of ``seat``'s own moves at every decision
    of the tree and the playouts — ``legal`` is then the moves it keeps at the root."""
    if expand not in ("random", "first"):
        raise ValueError(f"expand must be 'random' or 'first', got {expand!r}")
    first = expand == "first"
    root = _Node(-1)
    for _ in range(iterations):
        state = determinize(observation, rng)
        node = root
        path: list[_Node] = []
        while not state.is_over():
            options: Sequence[Move] = state.legal_moves()
            if len(options) == 1:
                state.apply(options[0])
                continue
            actor = state.current_player()
            if mask is not None and actor == seat:
                options = _masked(mask, state, options)
                if len(options) == 1:
                    state.apply(options[0])
                    continue
            untried: list[Move] = []
            best: _Node | None = None
            best_move: Move = None
            best_ucb = -math.inf
            log_parent = math.log(max(node.visits, 1))
            for m in options:
                child = node.children.get((actor, m))
                if child is None:
                    untried.append(m)
                    continue
                child.avail += 1
                log_n = log_parent if uct else math.log(child.avail)
                ucb = child.total / child.visits + c * math.sqrt(log_n / child.visits)
                if ucb > best_ucb:
                    best, best_move, best_ucb = child, m, ucb
            if untried:  # expand one untried option, then play out
                pick = 0 if first or len(untried) == 1 else rng.randrange(len(untried))
                m = untried[pick]
                child = node.children[(actor, m)] = _Node(actor)
                state.apply(m)
                path.append(child)
                break
            assert best is not None
            state.apply(best_move)
            node = best
            path.append(node)
        play_out(state, rng, mask, seat)
        result = reward(state)
        root.visits += 1
        for nd in path:
            nd.visits += 1
            nd.total += result[nd.actor]
    stats = []
    for m in legal:
        child = root.children.get((seat, m))
        v = child.visits if child is not None else 0
        stats.append((m, v, child.total / v if child is not None and v else 0.0))
    best_k = 0
    for k, (_, v, mean) in enumerate(stats):
        bv, bmean = stats[best_k][1], stats[best_k][2]
        if v > bv or (v == bv and mean > bmean):
            best_k = k
    return stats[best_k][0], stats
