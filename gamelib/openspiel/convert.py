"""Records and positions across the border: a gamelib record as an OpenSpiel action history and
back, a gamelib position as an OpenSpiel state and back."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pyspiel

from gamelib import __version__
from gamelib.core import ConfigError, Move, RecordError, State, config_to_json
from gamelib.openspiel.adapter import Adapter
from gamelib.openspiel.games import ADAPTERS, BY_GAMELIB_NAME
from gamelib.openspiel.params import params_of
from gamelib.openspiel.state import GamelibSpielState
from gamelib.records import RECORD_FORMAT

__all__ = [
    "actions_to_record",
    "from_openspiel",
    "from_openspiel_record",
    "record_to_actions",
    "to_openspiel",
]


def _load(adapter: Adapter, config: Any) -> Any:
    return pyspiel.load_game(adapter.short_name, params_of(config))


def _adapter_of(state: State) -> Adapter:
    for a in ADAPTERS.values():
        if isinstance(state.config, a.game.config_type):
            return a
    raise ConfigError(f"{type(state).__name__} is not a state of a gamelib game OpenSpiel knows")


def record_to_actions(record: Mapping[str, Any]) -> tuple[Any, list[int]]:
    """A gamelib game record as (OpenSpiel game, its action history, chance outcomes
    included); playing them reaches the record's final position."""
    from gamelib.records import config_from_json

    name = record.get("game") if isinstance(record, Mapping) else None
    if name not in BY_GAMELIB_NAME:
        raise RecordError(f"the record is of unknown game {name!r}; known: {list(BY_GAMELIB_NAME)}")
    a = BY_GAMELIB_NAME[str(name)]
    config = config_from_json(a.game, record["config"])
    game = _load(a, config)
    state = game.new_initial_state()
    actions: list[int] = []

    def play(action: int) -> None:
        actions.append(action)
        state.apply_action(action)

    def feed(order: list[int]) -> None:
        # the last card of a shuffle comes without a chance node
        for c in order[:-1]:
            if not state.is_chance_node():
                raise RecordError("the record's chance outcomes do not match the game's shuffles")
            play(int(c))

    chance = [list(map(int, o)) for o in record.get("chance", [])]
    for order in a.deal_orders(config, record["start"], chance):
        feed(order)
    for i, entry in enumerate(record["moves"]):
        while state.is_chance_node():
            if not chance:
                raise RecordError(f"the record's chance log runs out before move {i}")
            feed(chance.pop(0))
        move = state.ref.move_from_json(entry["move"])
        play(a.encode(move))
    while state.is_chance_node() and chance:
        feed(chance.pop(0))
    return game, actions


def actions_to_record(game: Any, actions: Sequence[int]) -> dict[str, Any]:
    """The gamelib record of an OpenSpiel game played with ``actions``."""
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(int(action))
    return from_openspiel_record(state)


def from_openspiel_record(state: GamelibSpielState) -> dict[str, Any]:
    """The gamelib record (``gamelib-record/2``) of an OpenSpiel state's game so far."""
    ref = state.ref
    if ref is None:
        raise RecordError("the deal is not complete: there is no gamelib position yet")
    a = state.adapter
    rec: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "game": a.game.name,
        "gamelib_version": __version__,
        "config": config_to_json(state.config),
        "seed": None,
        "players": ["openspiel"] * state.n,
        "start": ref.start(),
        "moves": [{"seat": s, "move": ref.move_to_json(m)} for s, m in state.moves],
        "chance": [list(o) for o in state.chance_log],
        "outcome": ref.outcome().to_json(),
    }
    end = ref.end()
    if end is not None:
        rec["end"] = end
    return rec


def to_openspiel(state: State, moves: Sequence[Move] | None = None) -> Any:
    """The OpenSpiel state of a gamelib position: its deal (``state.start()``) as chance
    outcomes, then ``moves`` (the decisions since the start, with the reshuffles of
    ``state.chance.log``); without ``moves`` the state must be at its start."""
    a = _adapter_of(state)
    record = {
        "game": a.game.name,
        "config": config_to_json(state.config),
        "start": state.start(),
        "chance": state.chance.log,
        "moves": [{"move": state.move_to_json(m)} for m in moves or ()],
    }
    game, actions = record_to_actions(record)
    out = game.new_initial_state()
    for action in actions:
        out.apply_action(action)
    if not _same_position(out.ref, state):
        raise ConfigError(
            "replaying the deal and the moves given does not reach this position; pass every "
            "move made since the start as moves="
        )
    return out


def _same_position(ref: State | None, state: State) -> bool:
    return (
        ref is not None
        and ref.end() == state.end()
        and ref.current_player() == state.current_player()
        and ref.legal_moves() == state.legal_moves()
    )


def from_openspiel(state: GamelibSpielState) -> State:
    """The gamelib reference State an OpenSpiel state wraps (a copy)."""
    if state.ref is None:
        raise ConfigError("the deal is not complete: there is no gamelib position yet")
    return state.ref.clone()
