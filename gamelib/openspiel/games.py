"""The gamelib games OpenSpiel knows, by OpenSpiel name, registered with ``pyspiel``.

Garner, Gargon and Deck the Yard have adapters of their own (:mod:`gamelib.openspiel.garner`
and its siblings); every other game in gamelib's registry gets the protocol-only adapter of
:mod:`gamelib.openspiel.generic` under the name ``gamelib_<name>``.
"""

from __future__ import annotations

import pyspiel

from gamelib.openspiel.adapter import Adapter
from gamelib.openspiel.deck_the_yard import DeckTheYardSpielGame
from gamelib.openspiel.gargon import GargonSpielGame
from gamelib.openspiel.garner import GarnerSpielGame
from gamelib.openspiel.state import GamelibSpielGame, game_type

__all__ = ["ADAPTERS", "BY_GAMELIB_NAME", "GAME_CLASSES", "register"]

#: the game class of each OpenSpiel name (module-level classes, so games pickle)
GAME_CLASSES: dict[str, type[GamelibSpielGame]] = {
    cls.adapter.short_name: cls for cls in (GarnerSpielGame, GargonSpielGame, DeckTheYardSpielGame)
}


def _classes() -> dict[str, type[GamelibSpielGame]]:
    from gamelib.openspiel.generic import generic_classes

    return {**generic_classes(set(GAME_CLASSES)), **GAME_CLASSES}


def register() -> None:
    """Register every game with ``pyspiel`` (names already registered are left alone)."""
    registered = set(pyspiel.registered_names())
    for name, cls in _classes().items():
        GAME_CLASSES.setdefault(name, cls)
        ADAPTERS.setdefault(name, cls.adapter)
        BY_GAMELIB_NAME.setdefault(cls.adapter.game.name, cls.adapter)
        if name not in registered:
            pyspiel.register_game(game_type(cls.adapter), cls)


#: every adapter by OpenSpiel name, and by gamelib name
ADAPTERS: dict[str, Adapter] = {name: cls.adapter for name, cls in GAME_CLASSES.items()}
BY_GAMELIB_NAME: dict[str, Adapter] = {a.game.name: a for a in ADAPTERS.values()}
