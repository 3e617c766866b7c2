"""The ``solver:N[:CARDS]`` player: Garner's search player that plays perfectly near the end.

Until at most ``CARDS`` cards are left (every card not yet collected: on the grid, or lifted and
not yet placed; default :data:`DEFAULT_CARDS`), it is ``mcts:N`` (:mod:`gamelib.garner.search`).
From then on every decision with two or more options is solved exactly
(:mod:`gamelib.garner.solver`), and the player chooses among the options that keep the
position's value for its seat:

* one such option: it is played, without a search;
* every option keeps the value (the game is already decided, or every move is as good): the
  ``mcts:N`` choice, which keeps playing for material and for the rival's mistakes;
* otherwise the keeping option ``mcts:N``'s search visited most.

A solve that would pass ``MAX_NODES`` searched positions (default :data:`DEFAULT_MAX_NODES`,
a few seconds at most) is abandoned and that decision is left to ``mcts:N``, and the player
tries again only once :data:`RETRY_AFTER` more cards are gone, so its time per decision is
bounded in every setup; :attr:`SolverPlayer.solved` and
:attr:`SolverPlayer.fallbacks` count both kinds. The exact part is the "oracle bound" of
Garner's ladder: no player keeps the value more often, so where it does not beat the rung below
it, the rung below plays perfectly wherever it matters.

In setup A (27 cards) whole deals are solved in about half a second (``bench/garner_solver.py``),
so ``solver:N:27`` plays setup A perfectly from the first move; on the standard 5×5 setup the
solver reaches about 12–15 cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from gamelib.core import ConfigError, Move
from gamelib.garner.kernel import from_reference
from gamelib.garner.rules import LIFT, GarnerState
from gamelib.garner.search import MCTSPlayer, parse_spec, root_children
from gamelib.garner.solver import SolverBudgetError, solver_for

DEFAULT_CARDS = 18
"""Cards left at which exact play starts by default (setup A: a median solve of 17 ms;
standard: about 1 s at 15)."""
DEFAULT_MAX_NODES = 1_000_000
"""The solver's node budget per decision before it leaves the decision to the search (about
3 s at the solver's slowest rate)."""
RETRY_AFTER = 3
"""After a solve over budget at ``c`` cards left, the next try waits for ``c - RETRY_AFTER``."""

SPEC_FORM = "solver:N[:CARDS[:MAX_NODES]] (e.g. solver:400, solver:400:27)"


def _whole(text: str, what: str, spec: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise ConfigError(
            f"solver:{what} takes a whole number ≥ 1, got {text!r} in 'solver:{spec}'"
        )
    return int(text)


class SolverPlayer:
    """``mcts:N`` that switches to exact play at ``cards`` cards left (see the module)."""

    #: it looks ahead through its own later decisions, which a restriction cannot reach
    searches = True

    def __init__(self, mcts: MCTSPlayer, cards: int, max_nodes: int, name: str = "solver") -> None:
        self.mcts = mcts
        self.cards = cards
        self.max_nodes = max_nodes
        self.__name__ = name
        self.solved = 0
        """Decisions chosen with the solver's values."""
        self.fallbacks = 0
        """Decisions left to the search because the solve passed ``max_nodes``."""
        self._last = 0  # cards left at the last decision (more now: a new game)
        self._below = cards + 1  # try the solver below this many cards left

    def __call__(self, observation: GarnerState, legal: Sequence[Move], rng: random.Random) -> Move:
        """Choose one decision of the current turn."""
        left = observation.cards_in_layout()
        if left > self._last:  # a new game
            self._below = self.cards + 1
        self._last = left
        if len(legal) < 2 or left >= self._below:
            return self.mcts(observation, legal, rng)
        try:
            _, keep = solver_for(observation.config).analyse(observation, self.max_nodes)
        except SolverBudgetError:
            self.fallbacks += 1
            self._below = left - RETRY_AFTER + 1
            return self.mcts(observation, legal, rng)
        self.solved += 1
        if len(keep) == len(legal):
            return self.mcts(observation, legal, rng)
        st = from_reference(observation)[1]
        if len(keep) == 1:
            k = keep[0]
        else:
            plan = self.mcts.plan(observation, st)
            seen = root_children(observation, self.mcts.settings, rng.getrandbits(63), plan)
            k = max(keep, key=lambda i: seen[i][1])
        if observation.phase == LIFT:  # the search plans this lift's placements with it
            self.mcts.remember_lift(observation, st, k)
        return legal[k]


def solver_player(spec: str | None = None) -> SolverPlayer:
    """A fresh ``solver:N[:CARDS[:MAX_NODES]]`` player."""
    if spec is None or spec == "":
        raise ConfigError(f"solver needs the search's iteration budget: {SPEC_FORM}")
    parts = str(spec).split(":")
    if len(parts) > 3:
        raise ConfigError(
            f"solver takes at most three ':' options, got 'solver:{spec}'; {SPEC_FORM}"
        )
    n = _whole(parts[0], "N", spec)
    cards = _whole(parts[1], "CARDS", spec) if len(parts) > 1 else DEFAULT_CARDS
    nodes = _whole(parts[2], "MAX_NODES", spec) if len(parts) > 2 else DEFAULT_MAX_NODES
    return SolverPlayer(MCTSPlayer(parse_spec(str(n)), f"mcts:{n}"), cards, nodes, f"solver:{spec}")
