"""Any registered gamelib game as an OpenSpiel game, through the protocol alone.

A game without an adapter of its own becomes ``gamelib_<name>`` when it offers the ``moves``
hook (``moves(config)``: every move it can ever offer, in a fixed order; an action is a move's
index there). Everything else comes from the protocol:

* **Chance**: every ``rng.shuffle`` the game makes — in ``new_state`` and, through its
  :class:`~gamelib.core.Chance`, during play — is a chance node per card, each card left
  equally likely; a game that draws random numbers any other way is refused by name.
* **Returns**: gamelib's points (a sole winner 1, a win shared by k 1/k, a game nobody wins 1/n
  each; a solitaire 1 for a win), constant-sum; the outcome's scores stay in the reference state.
* **Strings**: ``observation_string`` is the observation's fields; the information-state string
  the seat's observations and own moves step by step. No tensors.
* **Resampling** (``resample_from_infostate``): every shuffle dealt again uniformly and the same
  decisions replayed until the seat's information-state string is the real one's — rejection
  sampling from the deal conditioned on what the seat saw, exact for any game and cheap for a
  small one (Leduc: about one deal in 30 is kept); a game whose seat sees everything is copied.

Record conversions (``record_to_actions``) need an adapter of the game's own.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pyspiel

from gamelib.core import Chance, ConfigError, Game, Move, Outcome, State
from gamelib.openspiel.adapter import Adapter, ResampledHistory
from gamelib.openspiel.state import GamelibSpielGame

__all__ = ["GenericAdapter", "generic_classes"]

#: deals tried by resample_from_infostate before giving up
MAX_TRIES = 20_000


class _AskingRandom(random.Random):
    """An RNG whose only chance primitive is ``shuffle``: each shuffle's order is asked of the
    chance source it points at (an :class:`~gamelib.openspiel.adapter.AskingChance`)."""

    def __init__(self, chance: Chance | None = None, game: str = "") -> None:
        super().__init__(0)
        self.target = chance if chance is not None else Chance(None, replay=[])
        self.game = game

    def __reduce__(self) -> tuple[Any, ...]:
        return (_AskingRandom, (self.target, self.game))

    def shuffle(self, x: Any) -> None:
        """Put ``x`` in the next chosen order (or ask for one)."""
        x[:] = self.target.shuffle(list(x))

    def random(self) -> float:
        raise ConfigError(
            f"{self.game} draws a random number outside shuffle; the OpenSpiel adapter deals "
            "chance as shuffles (rng.shuffle) only"
        )

    def getrandbits(self, k: int) -> int:
        self.random()
        return 0


class _Recording(random.Random):
    """A plain RNG that notes the size of every shuffle (to size OpenSpiel's chance nodes)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.largest = 1

    def shuffle(self, x: Any) -> None:
        self.largest = max(self.largest, len(x))
        super().shuffle(x)


class GenericAdapter(Adapter):
    """The protocol-only adapter of one registered game (see the module docstring)."""

    provides_tensor = False

    def __init__(self, game: Game) -> None:
        if game.moves is None:
            raise ConfigError(f"{game.name} offers no moves(config) hook: OpenSpiel needs one")
        self.game = game
        self.short_name = f"gamelib_{game.name}"
        self.long_name = f"gamelib {game.name}"
        configs = [game.config(), *game.setups.values()]
        seats = [self.n_players(c) for c in configs]
        self.min_players, self.max_players = min(seats), max(seats)
        self.information = (
            pyspiel.GameType.Information.PERFECT_INFORMATION
            if game.resample is None and self._sees_everything(game.config())
            else pyspiel.GameType.Information.IMPERFECT_INFORMATION
        )
        self.utility = (
            pyspiel.GameType.Utility.GENERAL_SUM
            if self.max_players == 1
            else pyspiel.GameType.Utility.CONSTANT_SUM
        )
        self._codes: dict[Any, dict[Move, int]] = {}

    def _sees_everything(self, config: Any) -> bool:
        state = self.game.new_state(config, random.Random(0))
        return isinstance(state.observation(state.current_player()), State)

    def n_players(self, config: Any) -> int:
        return int(self.game.new_state(config, random.Random(0)).n_players)

    def deal(self, config: Any) -> list[list[int]]:
        return []  # every shuffle is asked for while the game is built

    def max_chance_outcomes(self, config: Any) -> int:
        rng = _Recording(0)
        state = self.game.new_state(config, rng)
        while not state.is_over():  # a random game, for the reshuffles during play
            state.apply(rng.choice(state.legal_moves()))
        return rng.largest

    def build(self, config: Any, orders: list[list[int]], chance: Chance) -> State:
        state = self.game.new_state(config, _AskingRandom(chance, self.game.name))
        return state

    def set_chance(self, state: State, chance: Chance) -> None:
        rng = getattr(state.chance, "_rng", None)
        if isinstance(rng, _AskingRandom):
            rng.target = chance
        else:
            super().set_chance(state, chance)

    def deal_orders(
        self, config: Any, start: Mapping[str, Any], chance: Sequence[Any]
    ) -> list[list[int]]:
        raise ConfigError(
            f"records of {self.game.name} convert to OpenSpiel actions only with an adapter of "
            "its own (gamelib.openspiel.Adapter)"
        )

    def _code_of(self, config: Any) -> dict[Move, int]:
        codes = self._codes.get(config)
        if codes is None:
            assert self.game.moves is not None
            codes = self._codes[config] = {m: i for i, m in enumerate(self.game.moves(config))}
        return codes

    def encode(self, move: Move) -> int:
        for codes in self._codes.values():
            if move in codes:
                return codes[move]
        raise ValueError(f"{move!r} is not among {self.game.name}'s moves(config)")

    def n_actions(self, config: Any) -> int:
        return len(self._code_of(config))

    def returns(self, outcome: Outcome, n: int) -> list[float]:
        from gamelib.search import points

        return points(outcome, n)

    def utility_range(self, config: Any) -> tuple[float, float, float]:
        return 0.0, 1.0, 1.0 if self.n_players(config) > 1 else 0.0

    def observation_string(self, state: State, seat: int) -> str:
        obs = state.observation(seat)
        if dataclasses.is_dataclass(obs) and not isinstance(obs, type):
            return super().observation_string(state, seat)
        return repr(obs)

    def max_length(self, config: Any) -> int:
        return 100_000

    def resample(self, state: Any, seat: int, rng: random.Random) -> ResampledHistory | None:
        if self.information == pyspiel.GameType.Information.PERFECT_INFORMATION:
            return None
        from gamelib.openspiel.state import replay_parts

        info = state.information_state_string(seat)
        log = [list(o) for o in state.chance_log]
        decisions = [self.encode(m) for _, m in state.moves]
        game = state.get_game()
        for _ in range(MAX_TRIES):
            orders = [rng.sample(o, len(o)) for o in log]
            try:
                other = replay_parts(game, [], orders, decisions)
            except (ValueError, ConfigError):
                continue  # the deal does not allow the same decisions
            if other.information_state_string(seat) == info:
                return [], orders, decisions
        raise ConfigError(
            f"resample_from_infostate: no deal agreeing with seat {seat}'s information in "
            f"{MAX_TRIES} tries; {self.game.name} needs an adapter of its own to resample"
        )


def generic_classes(known: set[str]) -> dict[str, type[GamelibSpielGame]]:
    """OpenSpiel game classes for registered games without an adapter of their own (those with
    a ``moves`` hook)."""
    from gamelib.registry import GAMES

    out: dict[str, type[GamelibSpielGame]] = {}
    for game in GAMES.values():
        name = f"gamelib_{game.name}"
        if name in known or game.moves is None:
            continue
        adapter = GenericAdapter(game)
        out[name] = type(
            f"GamelibSpielGame_{game.name}",
            (GamelibSpielGame,),
            {"adapter": adapter, "__doc__": f"{game.name} as an OpenSpiel game (protocol only)."},
        )
    return out
