"""The generic search players a user picks by name — ``mcts:N[:C]``, ``ismcts:N[:C]``,
``rollout:N[:POLICY]`` — for any game that speaks the protocol.

Each is built for one game (:func:`players_for`): it needs the game's ``resample`` hook when
the game hides something from its seats, and ``rollout``'s continuation is one of the game's
own players. The registry (:mod:`gamelib.registry`) offers them under those names for every
registered game whose own players do not already use the name — a game's compiled search is
its fast path under the same name — and always as ``generic:<spec>`` (``generic:mcts:200``).
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from gamelib.core import ConfigError, Game, Move, Player, State
from gamelib.restrict import Option, keep
from gamelib.search.rollout import rollout_values
from gamelib.search.tree import Determinize, Mask, Reward, outcome_points, search

__all__ = [
    "DEFAULT_C",
    "IsmctsPlayer",
    "MctsPlayer",
    "RolloutPlayer",
    "clone_state",
    "generic_player",
    "players_for",
]

#: UCT's exploration constant on points in [0, 1]: 1/√2, Kocsis and Szepesvári's C_p
DEFAULT_C = 1 / math.sqrt(2)
#: the most iterations or futures a decision may ask for (a typo guard, not a limit of the code)
MAX_BUDGET = 10_000_000


def clone_state(observation: Any, rng: random.Random) -> State:
    """The determinization of a seat that sees everything: the position itself."""
    assert isinstance(observation, State)
    return observation.clone()


class _SearchPlayer:
    """A search player's common parts: its name, budget, determinization and seeding."""

    def __init__(self, name: str, budget: int, determinize: Determinize) -> None:
        self.__name__ = name
        self.budget = budget
        self.determinize = determinize

    def __call__(self, observation: Any, legal: Sequence[Move], rng: random.Random) -> Move:
        """Search from this seat's observation (a forced move draws no random number)."""
        if len(legal) == 1:
            return legal[0]
        seat = _seat_of(observation)
        return self.choose(observation, legal, seat, random.Random(rng.getrandbits(63)))

    def choose(
        self, observation: Any, legal: Sequence[Move], seat: int, rng: random.Random
    ) -> Move:
        """The search's decision."""
        raise NotImplementedError


def _seat_of(observation: Any) -> int:
    """The seat an observation belongs to (a whole state: the seat to move)."""
    if isinstance(observation, State):
        return int(observation.current_player())
    seat = getattr(observation, "seat", None)
    if seat is None:
        # a solitaire's observation need not name its seat
        return 0
    return int(seat)


class MctsPlayer(_SearchPlayer):
    """``mcts:N[:C]``: UCT with uniform random playouts (:mod:`gamelib.search.tree`).
    ``reward`` and ``expand`` (not in the spec) are the search's options, for cross-checks."""

    def __init__(
        self,
        name: str,
        iterations: int,
        c: float,
        determinize: Determinize,
        *,
        reward: Reward = outcome_points,
        expand: str = "random",
    ) -> None:
        super().__init__(name, iterations, determinize)
        self.c = c
        self.reward = reward
        self.expand = expand
        self.mask: Mask | None = None

    def restricted(self, option: Option, mode: str, name: str) -> MctsPlayer:
        """This search restricted (:mod:`gamelib.restrict`) at its own decisions in the tree and
        its playouts, named ``name``."""
        out = copy.copy(self)
        out.mask, out.__name__ = (option, mode), name
        return out

    def __call__(self, observation: Any, legal: Sequence[Move], rng: random.Random) -> Move:
        if self.mask is not None and len(legal) > 1:
            kept = keep(*self.mask, observation, legal)
            legal = legal if len(kept) == len(legal) else [legal[k] for k in kept]
        return super().__call__(observation, legal, rng)

    def choose(
        self, observation: Any, legal: Sequence[Move], seat: int, rng: random.Random
    ) -> Move:
        uct = self.determinize is clone_state
        move, _ = search(
            observation,
            legal,
            seat,
            self.budget,
            self.c,
            self.determinize,
            rng,
            uct,
            self.reward,
            self.expand,
            self.mask,
        )
        return move


class IsmctsPlayer(MctsPlayer):
    """``ismcts:N[:C]``: SO-ISMCTS, determinizing with the game's ``resample`` hook."""


class RolloutPlayer(_SearchPlayer):
    """``rollout:N[:POLICY]``: flat Monte-Carlo, N futures a move continued by POLICY
    (:mod:`gamelib.search.rollout`); its futures are its POLICY's, so it takes no restriction."""

    searches = True

    def __init__(self, name: str, futures: int, policy: Player, determinize: Determinize) -> None:
        super().__init__(name, futures, determinize)
        self.policy = policy

    def choose(
        self, observation: Any, legal: Sequence[Move], seat: int, rng: random.Random
    ) -> Move:
        totals = rollout_values(
            observation, legal, seat, self.budget, self.policy, self.determinize, rng
        )
        best = max(range(len(legal)), key=lambda k: (totals[k], -k))
        return legal[best]


def _sees_everything(game: Game) -> bool:
    """Whether a seat's observation of the game is the whole state (perfect information)."""
    state = game.new_state(game.config(), random.Random(0))
    return isinstance(state.observation(state.current_player()), State)


def _determinizer(game: Game, name: str) -> Determinize:
    """How a search of ``game`` gets whole states from an observation; a game that hides
    something and offers no ``resample`` hook is refused by name."""
    if _sees_everything(game):
        return clone_state
    if game.resample is None:
        raise ConfigError(
            f"{name} needs whole states: {game.name} hides cards from its seats and offers no "
            "resample(observation, rng) hook to deal them (see the bring-your-own-game guide)"
        )
    return game.resample


def _budget(text: str, what: str, spec: str, usage: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= MAX_BUDGET:
        raise ConfigError(f"{spec!r}: {what} must be a whole number from 1, got {text!r}; {usage}")
    return int(text)


def _tree_player(
    game: Game, kind: str, arg: str | None, resolve: Callable[[str], Player]
) -> MctsPlayer:
    usage = f"use {kind}:N[:C], e.g. {kind}:200 or {kind}:200:0.5"
    spec = kind if arg is None else f"{kind}:{arg}"
    if not arg:
        raise ConfigError(f"{kind} needs an iteration count; {usage}")
    parts = arg.split(":")
    if len(parts) > 2:
        raise ConfigError(f"{spec!r}: {kind} takes at most N and C; {usage}")
    iterations = _budget(parts[0], "the iteration count", spec, usage)
    c = DEFAULT_C
    if len(parts) == 2:
        try:
            c = float(parts[1])
        except ValueError:
            c = -1.0
        if not (math.isfinite(c) and c >= 0):
            raise ConfigError(f"{spec!r}: the exploration constant must be ≥ 0; {usage}")
    if kind == "mcts" and not _sees_everything(game):
        raise ConfigError(
            f"{spec!r}: mcts searches whole states, and {game.name} hides cards from its seats; "
            f"use ismcts:{parts[0]} (information-set search)"
        )
    cls = MctsPlayer if kind == "mcts" else IsmctsPlayer
    return cls(spec, iterations, c, _determinizer(game, spec))


def _rollout_player(game: Game, arg: str | None, resolve: Callable[[str], Player]) -> RolloutPlayer:
    usage = "use rollout:N[:POLICY], e.g. rollout:50 or rollout:50:greedy"
    spec = "rollout" if arg is None else f"rollout:{arg}"
    if not arg:
        raise ConfigError(f"rollout needs the number of futures per move; {usage}")
    n, _, policy_spec = arg.partition(":")
    futures = _budget(n, "the number of futures", spec, usage)
    policy = resolve(policy_spec or "random")
    return RolloutPlayer(spec, futures, policy, _determinizer(game, spec))


#: the generic players by name
KINDS = ("mcts", "ismcts", "rollout")


def generic_player(
    game: Game, spec: str | None, resolve: Callable[[str], Player] | None = None
) -> Player:
    """The generic player ``spec`` (``mcts:200``, ``ismcts:100:0.5``, ``rollout:50:greedy``)
    of ``game``; ``resolve`` turns a continuation's name into a player (default: the game's)."""
    resolve = resolve or game.player
    if not spec:
        raise ConfigError(
            "generic takes a search spec: generic:mcts:N, generic:ismcts:N or generic:rollout:N"
        )
    kind, _, arg = spec.partition(":")
    if kind not in KINDS:
        raise ConfigError(
            f"unknown generic player {kind!r} in {spec!r}; generic players: {', '.join(KINDS)}"
        )
    if kind == "rollout":
        return _rollout_player(game, arg or None, resolve)
    return _tree_player(game, kind, arg or None, resolve)


def players_for(
    game: Game, resolve: Callable[[str], Player] | None = None
) -> dict[str, Callable[..., Player]]:
    """The generic players' factories for ``game`` by name (``mcts``, ``ismcts``, ``rollout``
    and ``generic``, which takes any of them: ``generic:mcts:200``)."""

    def factory(kind: str) -> Callable[..., Player]:
        def make(arg: str | None = None) -> Player:
            return generic_player(game, kind if arg is None else f"{kind}:{arg}", resolve)

        make.__doc__ = f"The generic {kind} player (gamelib.search)."
        return make

    out = {kind: factory(kind) for kind in KINDS}

    def generic(arg: str | None = None) -> Player:
        """Any generic search player: generic:mcts:N, generic:ismcts:N, generic:rollout:N."""
        return generic_player(game, arg, resolve)

    out["generic"] = generic
    return out
