"""gamelib: a balance lab for tabletop card games (Garner, and more to come)."""

__version__ = "0.1.0"

from gamelib.core import (
    TERMINAL,
    ConfigError,
    GamelibError,
    IllegalMoveError,
    Outcome,
    RecordError,
)
from gamelib.records import play_game, read_records, replay, write_records
from gamelib.registry import GAMES, get_game

__all__ = [
    "GAMES",
    "TERMINAL",
    "ConfigError",
    "GamelibError",
    "IllegalMoveError",
    "Outcome",
    "RecordError",
    "__version__",
    "get_game",
    "play_game",
    "read_records",
    "replay",
    "write_records",
]
