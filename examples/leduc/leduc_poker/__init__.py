"""Leduc hold'em as a gamelib game: the example of bringing your own game (see README.md).

``LEDUC`` is everything gamelib needs: the config type, the state factories, the players (only
random: gamelib adds its generic search players when the game is registered), the setups and
two optional hooks — ``resample`` for information-set search, ``moves`` for OpenSpiel. The
package's ``pyproject.toml`` registers it in one line (the ``gamelib.games`` entry point).
"""

from gamelib.core import Game, Player, random_player
from leduc_poker.rules import (
    MOVES,
    SETUPS,
    Call,
    Fold,
    LeducConfig,
    LeducObservation,
    LeducState,
    Raise,
    all_moves,
    new_state,
    resample,
    state_from_start,
)


def random_() -> Player:
    """The random player (uniform over the legal moves)."""
    return random_player


LEDUC = Game(
    name="leduc",
    config_type=LeducConfig,
    new_state=new_state,
    state_from_start=state_from_start,
    players={"random": random_},
    setups=SETUPS,
    resample=resample,
    moves=all_moves,
)

__all__ = [
    "LEDUC",
    "MOVES",
    "SETUPS",
    "Call",
    "Fold",
    "LeducConfig",
    "LeducObservation",
    "LeducState",
    "Raise",
    "all_moves",
    "new_state",
    "resample",
    "state_from_start",
]
