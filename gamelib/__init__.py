"""gamelib: a balance lab for tabletop card games (Garner, and more to come)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from gamelib.version import __version__

if TYPE_CHECKING:
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

# The names below are imported on first use (PEP 562), so ``import gamelib`` and every command
# line start without numpy, the rules of every game or the records; ``from gamelib import
# play_game`` works as before.
_LAZY = {
    "TERMINAL": "gamelib.core",
    "ConfigError": "gamelib.core",
    "GamelibError": "gamelib.core",
    "IllegalMoveError": "gamelib.core",
    "Outcome": "gamelib.core",
    "RecordError": "gamelib.core",
    "play_game": "gamelib.records",
    "read_records": "gamelib.records",
    "replay": "gamelib.records",
    "write_records": "gamelib.records",
    "GAMES": "gamelib.registry",
    "get_game": "gamelib.registry",
}

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


def __getattr__(name: str) -> Any:
    """A public name, imported from its module the first time it is asked for."""
    try:
        module = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'gamelib' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
