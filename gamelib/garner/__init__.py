"""Garner: a two-player abstract card game on a grid of stacks (Michael Amundsen, 2021)."""

from gamelib.core import Game, random_player
from gamelib.garner.players import OPTIONS, PLAYERS, CautiousPlayer, GreedyPlayer
from gamelib.garner.rules import (
    SETUPS,
    Card,
    Collect,
    GarnerConfig,
    GarnerState,
    LeaveBehind,
    Lift,
    Place,
    custom,
    new_state,
    state_from_start,
)

#: Garner as a registered game: its config type, setups, players and compiled core
#:
#: :meta hide-value:
GARNER = Game(
    name="garner",
    config_type=GarnerConfig,
    new_state=new_state,
    state_from_start=state_from_start,
    players=PLAYERS,
    options=OPTIONS,
    setups=SETUPS,
    kernel="gamelib.garner.kernel_players",
    # 1: greedy and cautious walk the sites next to a suit in site order (before: a Python
    # set's order), which keeps another of equally valued plans in about 0.3 % of their games
    play_revision=1,
)

__all__ = [
    "GARNER",
    "SETUPS",
    "Card",
    "CautiousPlayer",
    "Collect",
    "GarnerConfig",
    "GarnerState",
    "GreedyPlayer",
    "LeaveBehind",
    "Lift",
    "Place",
    "custom",
    "new_state",
    "random_player",
    "state_from_start",
]
