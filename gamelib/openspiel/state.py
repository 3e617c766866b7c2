"""The OpenSpiel game, state and observer every gamelib adapter shares.

*Why one file (610 lines):* OpenSpiel's game, state and observer are one interface that pyspiel
calls back and forth between, shared by every adapter.

A :class:`GamelibSpielState` deals the starting position card by card (chance nodes), then
plays on the adapter's compiled :class:`~gamelib.openspiel.adapter.Engine` when there is one:
legal actions, apply and clone touch one int64 vector.  The reference engine's position
(``ref``) is brought up to date only when something needs it — an observation or
information-state string, a tensor, a record, an action's name — by applying the actions taken
since, so random play and searches that only ask for legal actions and returns run at the
kernel's speed, and everything a seat is shown still comes from the reference engine.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pyspiel

from gamelib.core import Move, State
from gamelib.openspiel.adapter import Adapter, AskingChance, Engine, NeedShuffle
from gamelib.openspiel.observer import Observer
from gamelib.openspiel.params import params_of

__all__ = ["GamelibSpielGame", "GamelibSpielState", "game_type", "load", "rebuild_state"]

_BUILD = object()  # the pending step before play: dealing the starting position
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)


def load(name: str, params: Mapping[str, Any] | None = None) -> Any:
    """``pyspiel.load_game`` after registering gamelib's games (what an unpickled game calls)."""
    import gamelib.openspiel  # noqa: F401  registers the games

    return pyspiel.load_game(name, dict(params or {}))


def rebuild_state(game: Any, history: Sequence[int]) -> GamelibSpielState:
    """The state ``history`` reaches from the game's start (what an unpickled state calls)."""
    state = game.new_initial_state()
    for action in history:
        state.apply_action(int(action))
    assert isinstance(state, GamelibSpielState)
    return state


def game_type(a: Adapter) -> Any:
    """The ``pyspiel.GameType`` of an adapter's game."""
    return pyspiel.GameType(
        short_name=a.short_name,
        long_name=a.long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=a.information,
        utility=a.utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=a.max_players,
        min_num_players=a.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=a.provides_tensor,
        parameter_specification=a.parameters(),
    )


class GamelibSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One gamelib game with one config, as an OpenSpiel game; each adapter's module defines
    its subclass at module level (setting ``adapter``), so games pickle by name and
    parameters."""

    adapter: Adapter

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        a = self.adapter
        params = dict(params or {})
        self.config = a.config(params)
        n = a.n_players(self.config)
        lo, hi, total = a.utility_range(self.config)
        info = pyspiel.GameInfo(
            num_distinct_actions=a.n_actions(self.config),
            max_chance_outcomes=a.max_chance_outcomes(self.config),
            num_players=n,
            min_utility=lo,
            max_utility=hi,
            utility_sum=total if a.utility != pyspiel.GameType.Utility.GENERAL_SUM else None,
            max_game_length=a.max_length(self.config),
        )
        # the parameters of the config actually played, so the game's name reloads it
        self._shown = {"setup": params.get("setup", "custom"), **params_of(self.config)}
        super().__init__(game_type(a), info, self._shown)
        self.engine: Engine | None = a.engine(self.config)

    def __reduce__(self) -> tuple[Any, ...]:
        return (load, (self.adapter.short_name, self._shown))

    def new_initial_state(self) -> GamelibSpielState:
        """The state before the deal (a chance node)."""
        return GamelibSpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> Observer:
        """Observation strings (perfect_recall: information-state strings) of a seat."""
        if params:
            raise ValueError(f"gamelib observers take no parameters, got {dict(params)}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return Observer(self.adapter, self.config, recall)


class _Box:
    """The positions and logs of a game, copied fast: OpenSpiel clones a Python state with
    ``copy.deepcopy``, which would otherwise copy the config's precomputed tables too.

    ``k`` is the compiled position (None without an engine); ``ref`` the reference position as
    of ``behind`` actions ago, shared with clones until one of them needs to bring it up to
    date (``shared``)."""

    __slots__ = (
        "behind",
        "chance_log",
        "k",
        "keyed",
        "keys",
        "moves",
        "ref",
        "seen",
        "shared",
        "trail",
    )

    def __init__(
        self,
        ref: State | None,
        moves: list[tuple[int, Move]],
        chance_log: list[list[int]],
        seen: list[list[str]],
        k: np.ndarray | None = None,
        behind: list[tuple[int, int]] | None = None,
        shared: bool = False,
    ) -> None:
        self.ref = ref
        self.moves = moves
        self.chance_log = chance_log
        self.seen = seen
        self.k = k
        self.behind = behind if behind is not None else []
        self.shared = shared
        #: with an engine that gives keys: every step's (seat, action, each seat's key after —
        #: or the position after, its keys worked out when first asked for) and, per seat, the
        #: information-state lines made of them so far (how many steps)
        self.trail: list[tuple[int, int, Any]] = []
        self.keys: list[list[str]] = [[] for _ in seen]
        self.keyed = [0] * len(seen)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        # moves, orders and strings are never changed once logged, so the lists are copied
        # shallowly; the reference position is shared until one side brings it up to date
        self.shared = self.ref is not None
        new = _Box(
            self.ref,
            self.moves[:],
            self.chance_log[:],
            [s[:] for s in self.seen],
            None if self.k is None else self.k.copy(),
            self.behind[:],
            self.shared,
        )
        new.trail = self.trail[:]  # a logged step is never changed
        new.keys = [s[:] for s in self.keys]
        new.keyed = self.keyed[:]
        return new


class _Shared:
    """What every state of one game shares: adapter, config, engine, the deal's items. OpenSpiel
    clones a Python state by deep-copying its attributes; this one is handed over as it is
    (the engine's scratch arrays alone are 1.4 MB for Gargon)."""

    __slots__ = ("adapter", "config", "deal", "engine", "keyed", "n", "params")

    def __init__(self, game: GamelibSpielGame) -> None:
        self.params = game._shown
        self.adapter = game.adapter
        self.config = game.config
        self.engine = game.engine
        self.keyed = self.engine is not None and self.engine.keys
        self.n = self.adapter.n_players(self.config)
        self.deal = self.adapter.deal(self.config)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # rebuilt from the game's name and parameters (an adapter need not pickle)
        return (_shared_of, (self.adapter.short_name, self.params))


def _shared_of(name: str, params: Mapping[str, Any]) -> _Shared:
    """The shared part of a game's states, for an unpickled state."""
    return _Shared(load(name, params))


class GamelibSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state of a gamelib game: the compiled position when the game has an engine
    (``k``), and the reference engine's State (``ref``, None before the deal is complete),
    brought up to date when asked for."""

    def __init__(self, game: GamelibSpielGame) -> None:
        super().__init__(game)
        self._shared = _Shared(game)
        self._box = _Box(None, [], [], [[] for _ in range(self.n)])
        self._orders: list[list[int]] = []  # the deal's chosen orders
        self._step_orders: list[list[int]] = []  # orders chosen for the step being resolved
        self._pending: Any = _BUILD
        self._pending_seat = -1
        self._left: list[int] | None = None  # items still to come in the current shuffle
        self._drawn: list[int] = []
        self._shuffle_index = 0
        self._legal_map: dict[int, Move] | None = None
        self._legal: list[int] | None = None
        self._player = _CHANCE
        self._bulk = False
        self._advance()

    def __reduce__(self) -> tuple[Any, ...]:
        return (rebuild_state, (self.get_game(), list(self.history())))

    # what every state of the game shares (not copied by OpenSpiel's clone)
    @property
    def adapter(self) -> Adapter:
        """The game's adapter."""
        return self._shared.adapter

    @property
    def config(self) -> Any:
        """The gamelib config played."""
        return self._shared.config

    @property
    def engine(self) -> Engine | None:
        """The compiled core the state plays on (None: the reference engine)."""
        return self._shared.engine

    @property
    def n(self) -> int:
        """How many seats play."""
        return self._shared.n

    @property
    def _keyed(self) -> bool:
        return self._shared.keyed

    @property
    def _deal(self) -> list[list[int]]:
        return self._shared.deal

    @property
    def ref(self) -> State | None:
        """The reference engine's position (None until the deal is complete)."""
        self._sync()
        return self._box.ref

    @property
    def moves(self) -> list[tuple[int, Move]]:
        """Every decision so far as (seat, reference move)."""
        self._sync()
        return self._box.moves

    @property
    def chance_log(self) -> list[list[int]]:
        """Every shuffle's order after the deal, as a gamelib record's ``chance``."""
        return self._box.chance_log

    @property
    def deal_orders(self) -> list[list[int]]:
        """The deal's orders (each shuffle before play, in the order chosen)."""
        return [o[:] for o in self._orders]

    # -- the reference position, brought up to date --
    def _sync(self) -> None:
        """Apply the actions taken on the compiled position to the reference one, logging what
        every seat sees after each."""
        box = self._box
        if not box.behind:
            return
        assert box.ref is not None
        if box.shared:
            box.ref = box.ref.clone()
            box.shared = False
        a = self.adapter
        ref = box.ref
        strings = not self._keyed  # with keys, the information states are made of keys
        for seat, action in box.behind:
            move = self._move_of(ref, action)
            if strings:
                box.seen[seat].append("I: " + a.move_string(ref, move))
            ref.apply(move)
            box.moves.append((seat, move))
            if strings:
                for s in range(self.n):
                    box.seen[s].append(a.observation_string(ref, s))
        box.behind = []
        self._legal_map = None

    def _move_of(self, ref: State, action: int) -> Move:
        for m in ref.legal_moves():
            if self.adapter.encode(m) == action:
                return m
        raise AssertionError(f"action {action} is not legal in the reference position")

    # -- chance and steps --
    def _start_shuffle(self, items: list[int]) -> None:
        self._left = sorted(items)
        self._drawn = []
        self._player = _CHANCE
        self._maybe_finish_shuffle()

    def _maybe_finish_shuffle(self) -> None:
        assert self._left is not None
        if len(self._left) <= 1:
            order = self._drawn + self._left
            self._left = None
            if self._pending is _BUILD and len(self._orders) < len(self._deal):
                self._orders.append(order)
            else:
                self._step_orders.append(order)
            self._shuffle_index += 1
            self._advance()

    def _advance(self) -> None:
        """Resolve the pending step on the reference engine, or start the chance node it
        needs."""
        a = self.adapter
        box = self._box
        step = (-1, -1)  # the deal
        if self._pending is _BUILD:
            if len(self._orders) < len(self._deal):
                self._start_shuffle(list(self._deal[len(self._orders)]))
                return
            chance = AskingChance(None, replay=self._step_orders)
            try:
                state = a.build(self.config, [o[:] for o in self._orders], chance)
            except NeedShuffle as need:
                self._start_shuffle(need.items)
                return
        else:
            assert box.ref is not None and not box.behind
            state = box.ref.clone()
            a.set_chance(state, AskingChance(None, replay=self._step_orders))
            try:
                state.apply(self._pending)
            except NeedShuffle as need:
                self._start_shuffle(need.items)
                return
            box.moves.append((self._pending_seat, self._pending))
            step = (self._pending_seat, self.adapter.encode(self._pending))
        box.chance_log += self._step_orders
        self._step_orders = []
        self._pending = None
        box.ref = state
        box.shared = False
        box.k = None if self.engine is None else self.engine.start(state)
        if self._keyed:
            assert box.k is not None and self.engine is not None
            box.trail.append((*step, self.engine.step_keys(box.k)))
        self._legal_map = None
        self._legal = None
        if not self._keyed:
            for seat in range(self.n):
                box.seen[seat].append(a.observation_string(state, seat))
        self._update_player()

    # -- the OpenSpiel protocol --
    def current_player(self) -> int:
        """Chance while cards are dealt or reshuffled, else the seat to decide, or terminal."""
        return self._player

    def _update_player(self) -> None:
        # asked several times an action (OpenSpiel's apply_action, is_terminal, is_chance_node),
        # so it is worked out once a step
        if self._left is not None:
            self._player = _CHANCE
            return
        box = self._box
        if box.k is not None:
            assert self.engine is not None
            seat = self.engine.current_player(box.k)
            self._player = _TERMINAL if seat < 0 else seat
            return
        assert box.ref is not None
        self._player = _TERMINAL if box.ref.is_over() else int(box.ref.current_player())

    def legal_map(self) -> dict[int, Move]:
        """The legal decisions by action (reference moves)."""
        self._sync()
        if self._legal_map is None:
            ref = self._box.ref
            assert ref is not None
            out: dict[int, Move] = {}
            for m in ref.legal_moves():
                code = self.adapter.encode(m)
                if code in out:
                    raise AssertionError(f"{m!r} and {out[code]!r} share action {code}")
                out[code] = m
            self._legal_map = out
        return self._legal_map

    def _legal_list(self) -> list[int]:
        if self._legal is None:
            k = self._box.k
            if k is not None:
                assert self.engine is not None
                self._legal = self.engine.legal(k)
            else:
                self._legal = sorted(self.legal_map())
        return self._legal

    def _legal_actions(self, player: int) -> list[int]:
        if self._player < 0:
            return []
        return self._legal_list()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards that may come next, each equally likely."""
        assert self._left is not None
        p = 1.0 / len(self._left)
        return list(zip(self._left, itertools.repeat(p)))

    def _apply_action(self, action: int) -> None:
        if self._bulk:  # _fast_forward logs the history first and builds the position after
            return
        if self._left is not None:
            if action not in self._left:
                raise ValueError(f"chance outcome {action} is not one of the cards left")
            self._left.remove(action)
            self._drawn.append(action)
            self._maybe_finish_shuffle()
            return
        legal = self._legal_list()
        if action not in legal:
            raise ValueError(f"action {action} is not legal here; legal: {legal}")
        box = self._box
        seat = self.current_player()
        self._legal = None
        if box.k is not None:
            assert self.engine is not None
            if self.engine.apply(box.k, action):
                box.behind.append((seat, action))
                if self._keyed:
                    box.trail.append((seat, action, box.k.copy()))  # keys when asked
                self._update_player()
                return
        self._sync()  # the step goes through the reference engine
        assert box.ref is not None
        move = self.legal_map()[action]
        self._pending_seat = seat
        if not self._keyed:
            box.seen[seat].append("I: " + self.adapter.move_string(box.ref, move))
        self._pending = move
        self._advance()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            shuffle = self._shuffle_index if self._pending is _BUILD else -1
            return self.adapter.chance_string(self.config, shuffle, action)
        if self._box.ref is not None and self._left is None and action in self.legal_map():
            ref = self._box.ref
            return self.adapter.move_string(ref, self.legal_map()[action])
        return f"action {action}"

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._player == _TERMINAL

    def returns(self) -> list[float]:
        """Each seat's return (0 before the end)."""
        if not self.is_terminal():
            return [0.0] * self.n
        if self._box.k is not None:
            assert self.engine is not None
            return self.engine.returns(self._box.k)
        ref = self._box.ref
        assert ref is not None
        return self.adapter.returns(ref.outcome(), self.n)

    def observation_string_of(self, seat: int) -> str:
        """What ``seat`` sees now (``observation(seat)`` of the reference state)."""
        ref = self.ref
        if ref is None:
            return f"dealing: {sum(map(len, self._orders)) + len(self._drawn)} cards dealt"
        text = self.adapter.observation_string(ref, seat)
        return text + (" (reshuffling)" if self._left is not None else "")

    def information_state_string_of(self, seat: int) -> str:
        """Everything ``seat`` has seen and done, step by step: its observation strings (with
        an engine that gives keys, each observation's key) and its own actions."""
        box = self._box
        if self._keyed and box.trail:
            assert self.engine is not None
            keys = box.keys[seat]
            for i in range(box.keyed[seat], len(box.trail)):
                actor, action, seen = box.trail[i]
                if isinstance(seen, np.ndarray):  # a position: its keys, once
                    seen = self.engine.step_keys(seen)
                    box.trail[i] = (actor, action, seen)
                if actor == seat:
                    keys.append(f"I: {action}")
                keys.append(f"{seen[seat]:016x}")
            box.keyed[seat] = len(box.trail)
            tail = " (reshuffling)" if self._left is not None else ""
            return "\n".join(keys) + tail
        self._sync()
        return "\n".join([*box.seen[seat], self.observation_string_of(seat)])

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state ``player_id`` cannot tell from this one (the same information-state string),
        every card it has not seen dealt again uniformly at random; its history is a whole
        game's, so it replays, clones and pickles like any other state. The sampler (a callable
        giving numbers in [0, 1), e.g. ``pyspiel.UniformProbabilitySampler``) seeds the draw."""
        if self._left is not None or self._box.ref is None:
            raise ValueError("resample_from_infostate: the cards are being dealt; resample after")
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        history = self.adapter.resample(self, int(player_id), rng)
        if history is None:  # nothing is hidden from this seat
            return self.clone()
        orders, chance_log, decisions = history
        return replay_parts(self.get_game(), orders, chance_log, decisions)

    def _fast_forward(self, orders: Sequence[Sequence[int]], decisions: Sequence[int]) -> None:
        """Deal ``orders`` and take ``decisions`` (a game whose chance acts only in the deal):
        the positions are built once and stepped on the engine, while each action still goes
        through OpenSpiel's ``apply_action`` so its history is the whole game's."""
        assert self._pending is _BUILD and not self._orders and self.engine is not None
        a, box, engine = self.adapter, self._box, self.engine
        self._bulk = True
        try:
            for order in orders:  # OpenSpiel logs each action with the player before it
                for c in order[:-1]:
                    self.apply_action(int(c))
            ref = a.build(self.config, [list(o) for o in orders], AskingChance(None, replay=[]))
            self._left = None
            self._orders = [list(o) for o in orders]
            self._shuffle_index = len(orders)
            self._pending = None
            box.ref, box.shared = ref, False
            box.k = k = engine.start(ref)
            if self._keyed:
                box.trail.append((-1, -1, engine.step_keys(k)))
            else:
                for seat in range(self.n):
                    box.seen[seat].append(a.observation_string(ref, seat))
            actions = [int(x) for x in decisions]
            seats, keys = engine.run(k, actions)
            for seat, action, seen in zip(seats, actions, keys, strict=True):
                self._player = seat
                self.apply_action(action)
                box.behind.append((seat, action))
                if self._keyed:
                    box.trail.append((seat, action, seen))
        finally:
            self._bulk = False
        self._legal_map = None
        self._legal = None
        self._update_player()

    def __str__(self) -> str:
        ref = self.ref
        if ref is None:
            return self.observation_string_of(0)
        a = self.adapter
        parts = [a.observation_string(ref, s) for s in range(self.n)]
        return "\n".join(parts) + f"\nend={ref.end()!r}"


def replay_parts(
    game: Any,
    orders: Sequence[Sequence[int]],
    chance_log: Sequence[Sequence[int]],
    decisions: Sequence[int],
) -> GamelibSpielState:
    """The state reached by dealing ``orders``, then taking ``decisions`` (actions) with the
    reshuffles of ``chance_log`` wherever the rules shuffle; the last card of each shuffle comes
    without a chance node."""
    state: GamelibSpielState = game.new_initial_state()
    if not chance_log and state.engine is not None and state.engine.deal_only_chance:
        state._fast_forward(orders, decisions)
        return state
    pending = [list(o) for o in chance_log]

    def feed(order: Sequence[int]) -> None:
        for c in order[:-1]:
            if not state.is_chance_node():
                raise ValueError("the chance outcomes do not match the game's shuffles")
            state.apply_action(int(c))

    for order in orders:
        feed(order)
    for i, action in enumerate(decisions):
        while state.is_chance_node():
            if not pending:
                raise ValueError(f"the reshuffles run out before decision {i}")
            feed(pending.pop(0))
        state.apply_action(int(action))
    while state.is_chance_node() and pending:
        feed(pending.pop(0))
    return state
