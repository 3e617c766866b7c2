"""Deck the Yard: a solitaire card game of light strands (Don Riddle, on Christmas Lights)."""

from gamelib.core import Game
from gamelib.deck_the_yard.belief import resample
from gamelib.deck_the_yard.players import OPTIONS, PLAYERS, GreedyPlayer
from gamelib.deck_the_yard.rules import (
    BULB_COLOURS,
    DeckTheYardConfig,
    DeckTheYardObservation,
    DeckTheYardState,
    Discard,
    PlayBubble,
    PlayBulb,
    UsePlug,
    check_edit,
    edit_deal,
    generate_patterns,
    load_patterns,
    new_state,
    stacked,
    state_from_start,
)

#: Deck the Yard as a registered game: its config type, setups, players and compiled core
#:
#: :meta hide-value:
DECK_THE_YARD = Game(
    name="deck_the_yard",
    config_type=DeckTheYardConfig,
    new_state=new_state,
    state_from_start=state_from_start,
    players=PLAYERS,
    options=OPTIONS,
    setups={"standard": DeckTheYardConfig()},
    kernel="gamelib.deck_the_yard.kernel",
    resample=resample,
    edit_deal=edit_deal,
    check_edit=check_edit,
    edit_kinds=("pattern",),
)

__all__ = [
    "BULB_COLOURS",
    "DECK_THE_YARD",
    "DeckTheYardConfig",
    "DeckTheYardObservation",
    "DeckTheYardState",
    "Discard",
    "GreedyPlayer",
    "PlayBubble",
    "PlayBulb",
    "UsePlug",
    "check_edit",
    "edit_deal",
    "generate_patterns",
    "load_patterns",
    "new_state",
    "stacked",
    "state_from_start",
]
