"""Gargon: a 3–5 player battle card game with hidden numbers and public colours (Dorn, 2001)."""

from gamelib.core import Game
from gamelib.gargon.belief import resample
from gamelib.gargon.players import OPTIONS, PLAYERS, GreedyPlayer
from gamelib.gargon.rules import (
    COLOURS,
    SETUPS,
    Card,
    DrawFrom,
    GargonConfig,
    GargonObservation,
    GargonState,
    Pass,
    Play,
    Resolve,
    card,
    check_edit,
    edit_deal,
    load_amulets,
    new_state,
    rotate_deal,
    shape_of,
    state_from_start,
)

#: Gargon as a registered game: its config type, setups, players and compiled core
#:
#: :meta hide-value:
GARGON = Game(
    name="gargon",
    config_type=GargonConfig,
    new_state=new_state,
    state_from_start=state_from_start,
    players=PLAYERS,
    options=OPTIONS,
    setups=SETUPS,
    kernel="gamelib.gargon.kernel",
    resample=resample,
    rotate_deal=rotate_deal,
    edit_deal=edit_deal,
    check_edit=check_edit,
    edit_kinds=("value", "colour"),
)

__all__ = [
    "COLOURS",
    "GARGON",
    "SETUPS",
    "Card",
    "DrawFrom",
    "GargonConfig",
    "GargonObservation",
    "GargonState",
    "GreedyPlayer",
    "Pass",
    "Play",
    "Resolve",
    "card",
    "check_edit",
    "edit_deal",
    "load_amulets",
    "new_state",
    "rotate_deal",
    "shape_of",
    "state_from_start",
]
