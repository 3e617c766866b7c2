"""Garner as the OpenSpiel game ``gamelib_garner``: its adapter, its compiled engine and its
game class.

Garner is a game of perfect information: every card of the layout lies face up, nothing is
drawn after the deal, so ``resample_from_infostate`` hands back a copy of the state.  Actions
are the sites a decision names (``row * cols + col``), the compiled core's decision codes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pyspiel

from gamelib.core import Chance, Move, Outcome, State
from gamelib.garner import GARNER, kernel
from gamelib.garner import rules as garner
from gamelib.garner.kernel_players import encode as garner_encode
from gamelib.openspiel.adapter import Adapter, Engine
from gamelib.openspiel.state import GamelibSpielGame

__all__ = ["GarnerAdapter", "GarnerEngine", "GarnerSpielGame"]


class GarnerEngine(Engine):
    """Garner's kernel (:mod:`gamelib.garner.kernel`) behind the OpenSpiel state."""

    def __init__(self, config: garner.GarnerConfig) -> None:
        self.t = kernel.tables(config)
        self.work = kernel.new_work(self.t)
        self._row = np.zeros(kernel.N_RESULTS, np.int64)
        self._scores = np.zeros(2, np.float64)
        self._piles = np.zeros((2, config.n_suits), np.int64)
        self._decisions = np.zeros(1024, np.int64)
        self._counts = np.zeros(2, np.int64)

    deal_only_chance = True

    def start(self, ref: State) -> np.ndarray:
        assert isinstance(ref, garner.GarnerState)
        return kernel.from_reference(ref)[1]

    def legal(self, k: np.ndarray) -> list[int]:
        # the kernel lists decisions in the reference's order, ascending sites
        n = kernel.legal(self.t, k, self.work)
        out: list[int] = self.work[kernel.W_OUT, :n].tolist()
        return out

    def apply(self, k: np.ndarray, action: int) -> bool:
        kernel.apply(self.t, k, action, self.work)
        return True

    def current_player(self, k: np.ndarray) -> int:
        return -1 if k[kernel.PHASE] == garner.OVER else int(k[kernel.TO_MOVE])

    def playout(self, k: np.ndarray, seed: int) -> list[float]:
        st = k.copy()
        kernel.play_random_game(
            self.t, kernel.rng_streams(seed), st, self.work, self._decisions, self._counts
        )
        return self.returns(st)

    def returns(self, k: np.ndarray) -> list[float]:
        kernel.result(self.t, k, self._row, self._scores, self._piles)
        w = int(self._row[kernel.R_WINNER])
        return [0.0, 0.0] if w < 0 else [1.0 if s == w else -1.0 for s in range(2)]


class GarnerAdapter(Adapter):
    """Garner: two seats, zero-sum, the deck dealt site by site, bottom card first."""

    game = GARNER
    short_name = "gamelib_garner"
    long_name = "gamelib Garner"
    information = pyspiel.GameType.Information.PERFECT_INFORMATION
    utility = pyspiel.GameType.Utility.ZERO_SUM
    min_players = max_players = 2

    def deal(self, config: Any) -> list[list[int]]:
        return [list(range(sum(config.suit_sizes)))]

    def build(self, config: Any, orders: list[list[int]], chance: Chance) -> State:
        (deck,) = orders
        h = config.height
        stacks = [deck[i * h : (i + 1) * h] for i in range(config.rows * config.cols)]
        return garner.GarnerState(config, stacks, chance)

    def deal_orders(
        self, config: Any, start: Mapping[str, Any], chance: Sequence[Any]
    ) -> list[list[int]]:
        state = garner.state_from_start(config, start)
        return [[c for st in state.stacks for c in st]]

    def encode(self, move: Move) -> int:
        return garner_encode(move)

    def n_actions(self, config: Any) -> int:
        return int(config.rows * config.cols)

    def move_string(self, state: State, move: Move) -> str:
        cols = state.config.cols

        def at(s: int) -> str:
            return f"({s // cols},{s % cols})"

        if isinstance(move, garner.Lift):
            return "lift the number group at " + " ".join(map(at, move.sites))
        if isinstance(move, garner.Place):
            return f"place the next lifted card on {at(move.site)}"
        if isinstance(move, garner.Collect):
            return "collect the suit group at " + " ".join(map(at, move.sites))
        if isinstance(move, garner.LeaveBehind):
            return f"leave the card on {at(move.site)} behind"
        return repr(move)

    def chance_string(self, config: Any, shuffle: int, item: int) -> str:
        t = garner.rule_tables(config)
        return f"deal suit {t.suit_of[item]} number {t.number_of[item]}"

    def returns(self, outcome: Outcome, n: int) -> list[float]:
        if len(outcome.winners) != 1:
            return [0.0, 0.0]
        w = outcome.winners[0]
        return [1.0 if s == w else -1.0 for s in range(2)]

    def utility_range(self, config: Any) -> tuple[float, float, float]:
        return -1.0, 1.0, 0.0

    def observation_string(self, state: State, seat: int) -> str:
        assert isinstance(state, garner.GarnerState)
        t = state.t
        stacks = "|".join(
            ",".join(f"{t.suit_of[c]}.{t.number_of[c]}" for c in st) for st in state.stacks
        )
        return (
            f"to_move={state.to_move} decision={state.decision} turn={state.turns} "
            f"piles={state.piles} lifted={state.lifted} placed={state.placed} "
            f"origins={state._origins} pending={state.pending} stacks={stacks}"
        )

    def tensor_shapes(self, config: Any) -> list[tuple[str, tuple[int, ...]]]:
        cards, sites = sum(config.suit_sizes), config.rows * config.cols
        return [
            ("to_move", (2,)),
            ("decision", (5,)),
            ("turn", (1,)),
            ("site", (cards, sites)),  # where each card lies in the layout
            ("level", (cards,)),  # its level in that stack (0: the bottom)
            ("pile", (cards, 2)),  # in whose scoring pile
            ("lifted_from", (cards, sites)),  # lifted and still to place: its origin site
            ("origins", (sites,)),
            ("placed", (sites,)),
            ("pending", (sites,)),
        ]

    def fill_tensor(self, state: State, seat: int, out: dict[str, np.ndarray]) -> None:
        assert isinstance(state, garner.GarnerState)
        out["to_move"][state.to_move] = 1
        out["decision"][state.phase] = 1
        out["turn"][0] = state.turns
        for s, stack in enumerate(state.stacks):
            for level, c in enumerate(stack):
                out["site"][c, s] = 1
                out["level"][c] = level
        for p, pile in enumerate(state.collected):
            out["pile"][pile, p] = 1
        for origin, c in state.lifted:
            out["lifted_from"][c, origin] = 1
        out["origins"][state._origins] = 1
        out["placed"][state.placed] = 1
        out["pending"][list(state.pending)] = 1

    def max_length(self, config: Any) -> int:
        sites = config.rows * config.cols
        # a turn: one lift, a placement per lifted card, one collect, one leave-behind
        return int(sum(config.suit_sizes) + config.max_turns * (sites + 3))

    def engine(self, config: Any) -> Engine | None:
        return GarnerEngine(config)


class GarnerSpielGame(GamelibSpielGame):
    """Garner as an OpenSpiel game (``gamelib_garner``)."""

    adapter = GarnerAdapter()
