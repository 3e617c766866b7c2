"""What the OpenSpiel game needs to know about one gamelib game: the :class:`Adapter` base, the
compiled :class:`Engine` a state may run on, and the chance source that asks for shuffles.

A game's adapter (``gamelib.openspiel.garner`` and its siblings, or the protocol-only
:mod:`gamelib.openspiel.generic` for any other registered game) says how the deal is dealt card
by card, how moves become actions, what a seat sees as a string and a tensor, and what the
returns are.  An adapter whose game has a compiled core also hands out an :class:`Engine`: the
kernel's legal moves, apply and copy behind the OpenSpiel state, so play runs at the kernel's
speed and the reference engine is consulted only when a string, a tensor or a record is asked
for (and for reshuffles, which the kernels draw themselves).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from gamelib.core import Chance, ConfigError, Game, Move, Outcome, State
from gamelib.openspiel.params import field_from_param, params_of

__all__ = ["Adapter", "AskingChance", "Engine", "NeedShuffle", "ResampledHistory"]


class NeedShuffle(Exception):
    """Raised by :class:`AskingChance` when the rules shuffle and no order was chosen yet."""

    def __init__(self, items: list[Any]) -> None:
        super().__init__(f"a shuffle of {len(items)} items needs chance outcomes")
        self.items = items


class AskingChance(Chance):
    """A chance source replaying the orders chosen so far, asking for the next one."""

    __slots__ = ()

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        """The next chosen order, or :class:`NeedShuffle` when none is left."""
        if not self._replay:
            raise NeedShuffle(list(items))
        return super().shuffle(items)


class Engine:
    """A game's compiled core behind an OpenSpiel state: a position is one int64 vector.

    ``apply`` returns False (leaving the vector as it was) when the step needs chance outcomes
    the kernel would draw itself (a reshuffle): the state then takes that step on the reference
    engine, which asks for them, and starts a new vector from the result.
    """

    def start(self, ref: State) -> np.ndarray:
        """The kernel vector of a reference position."""
        raise NotImplementedError

    def legal(self, k: np.ndarray) -> list[int]:
        """The legal actions, ascending."""
        raise NotImplementedError

    def apply(self, k: np.ndarray, action: int) -> bool:
        """Take a legal action in place; False if the step needs chance outcomes."""
        raise NotImplementedError

    def current_player(self, k: np.ndarray) -> int:
        """The seat to decide, or -1 once the game is over."""
        raise NotImplementedError

    def run(self, k: np.ndarray, actions: Sequence[int]) -> tuple[list[int], list[list[int]]]:
        """Take ``actions`` (none of which needs chance) on ``k``: who took each, and each
        step's :meth:`step_keys` (empty lists without keys)."""
        seats, keys = [], []
        for action in actions:
            seats.append(self.current_player(k))
            if not self.apply(k, action):
                raise ValueError(f"action {action} cannot be taken without chance here")
            keys.append(self.step_keys(k) if self.keys else [])
        return seats, keys

    def returns(self, k: np.ndarray) -> list[float]:
        """The returns of a finished game."""
        raise NotImplementedError

    def playout(self, k: np.ndarray, seed: int) -> list[float]:
        """The returns of uniform random play from ``k`` to the end, in compiled code (``k``
        itself is not changed; ``seed`` drives the play and any reshuffle on the way)."""
        raise NotImplementedError

    #: whether :meth:`step_keys` gives the information-state strings (else they are the
    #: reference engine's observation strings, step by step)
    keys = False

    #: whether chance acts only in the deal (no reshuffles): a history then replays in bulk
    deal_only_chance = False

    def step_keys(self, k: np.ndarray) -> list[int]:
        """Per seat, a 64-bit number determined by exactly what its observation of ``k``
        shows."""
        raise NotImplementedError


#: a resampled history: the deal's orders, the reshuffles after it and the decisions (actions)
ResampledHistory = tuple[list[list[int]], list[list[int]], list[int]]


class Adapter:
    """What the generic OpenSpiel game needs to know about one gamelib game."""

    game: Game
    short_name: str
    long_name: str
    information: Any
    utility: Any
    min_players: int
    max_players: int
    provides_tensor = True

    def parameters(self) -> dict[str, Any]:
        """The parameter specification: ``setup`` (``"custom"``: the default rules with the
        fields given) plus every config field's default."""
        base = self.game.config_type()
        return {"setup": "custom", **params_of(base)}

    def config(self, params: Mapping[str, Any]) -> Any:
        """The gamelib config of a set of parameters (those given override the setup)."""
        setup: str | None = str(params.get("setup", "custom"))
        if setup not in self.game.setups:
            if setup != "custom":
                # an empty name is not the defaults: it is a setup left unnamed by mistake
                raise ConfigError(
                    f"unknown {self.game.name} setup {setup!r}; known setups: "
                    f"{', '.join(self.game.setups)}, or custom (the default rules)"
                )
            setup = None
        base = self.game.config(setup)
        defaults = self.parameters()
        overrides = {}
        for name, value in params.items():
            # OpenSpiel hands every parameter over, defaults included: a value equal to the
            # default config's means "the setup's value"
            if name == "setup" or (name in defaults and value == defaults[name]):
                continue
            if not hasattr(base, name):
                raise ConfigError(
                    f"{self.short_name} has no parameter {name!r}; parameters are: "
                    f"{', '.join(self.parameters())}"
                )
            overrides[name] = field_from_param(name, getattr(base, name), value)
        return self.game.config(setup, **overrides)

    def n_players(self, config: Any) -> int:
        """Seats of this config."""
        return self.min_players

    def deal(self, config: Any) -> list[list[int]]:
        """The items of each shuffle before play (each chosen card by card)."""
        raise NotImplementedError

    def build(self, config: Any, orders: list[list[int]], chance: Chance) -> State:
        """The reference state dealt from the chosen orders."""
        raise NotImplementedError

    def max_chance_outcomes(self, config: Any) -> int:
        """The most outcomes a chance node has (the largest shuffle)."""
        return max(len(items) for items in self.deal(config))

    def set_chance(self, state: State, chance: Chance) -> None:
        """Make ``state`` draw its next shuffles from ``chance`` (a reshuffle during play)."""
        state._chance = chance  # type: ignore[attr-defined]

    def deal_orders(
        self, config: Any, start: Mapping[str, Any], chance: Sequence[Any]
    ) -> list[list[int]]:
        """The deal's orders that give a record's ``start`` (``chance``: the record's)."""
        raise NotImplementedError

    def encode(self, move: Move) -> int:
        """The OpenSpiel action of a move."""
        raise NotImplementedError

    def n_actions(self, config: Any) -> int:
        """``num_distinct_actions``."""
        raise NotImplementedError

    def move_string(self, state: State, move: Move) -> str:
        """A move in the rules' words."""
        return repr(move)

    def chance_string(self, config: Any, shuffle: int, item: int) -> str:
        """A chance outcome in the rules' words (``shuffle``: 0, 1, … before play, -1 later)."""
        return f"next card {item}"

    def returns(self, outcome: Outcome, n: int) -> list[float]:
        """The returns of a finished game."""
        raise NotImplementedError

    def utility_range(self, config: Any) -> tuple[float, float, float]:
        """(min_utility, max_utility, utility_sum)."""
        raise NotImplementedError

    def observation_string(self, state: State, seat: int) -> str:
        """``state.observation(seat)`` as text."""
        import dataclasses

        obs = state.observation(seat)
        fields = {f.name: getattr(obs, f.name) for f in dataclasses.fields(obs)}
        fields.pop("config", None)
        return " ".join(f"{k}={v!r}" for k, v in fields.items())

    def max_length(self, config: Any) -> int:
        """An upper bound on the number of actions (chance ones included) in a game."""
        raise NotImplementedError

    def tensor_shapes(self, config: Any) -> list[tuple[str, tuple[int, ...]]]:
        """The named pieces of the observation tensor, in order."""
        raise NotImplementedError

    def fill_tensor(self, state: State, seat: int, out: dict[str, np.ndarray]) -> None:
        """Write what ``observation(seat)`` shows into the zeroed pieces."""
        raise NotImplementedError

    def engine(self, config: Any) -> Engine | None:
        """The compiled core behind the states of this config (None: the reference engine)."""
        return None

    def resample(self, state: Any, seat: int, rng: random.Random) -> ResampledHistory | None:
        """A history ``seat`` cannot tell from the (OpenSpiel) state's, every card it has not
        seen dealt again uniformly (None: the game hides nothing from ``seat``)."""
        return None
