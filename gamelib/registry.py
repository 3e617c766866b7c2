"""The games gamelib knows, by name."""

from __future__ import annotations

from gamelib.core import ConfigError, Game
from gamelib.deck_the_yard import DECK_THE_YARD
from gamelib.gargon import GARGON
from gamelib.garner import GARNER

#: every registered game by name (``gamelib games`` lists them)
#:
#: :meta hide-value:
GAMES: dict[str, Game] = {
    GARNER.name: GARNER,
    GARGON.name: GARGON,
    DECK_THE_YARD.name: DECK_THE_YARD,
}


def get_game(name: str) -> Game:
    """A game by name; an unknown name is refused with the list of known ones."""
    try:
        return GAMES[name]
    except KeyError:
        raise ConfigError(f"unknown game {name!r}; known games: {', '.join(GAMES)}") from None
