"""Any registered gamelib game as an OpenSpiel game, through the protocol alone."""

from __future__ import annotations

from gamelib.openspiel.state import GamelibSpielGame


def generic_classes(known: set[str]) -> dict[str, type[GamelibSpielGame]]:
    """OpenSpiel game classes for registered games without an adapter of their own."""
    return {}
