"""Search for any game that speaks the protocol: ``mcts``, ``ismcts`` and ``rollout`` players
that need nothing from a game but :mod:`gamelib.core`'s State (new state, legal moves, apply,
is it over, outcome, observation) and, for a game that hides cards, its ``resample`` hook.

* :mod:`gamelib.search.tree` — UCT (Kocsis and Szepesvári 2006) and SO-ISMCTS (Cowling, Powley
  and Whitehouse 2012), one tree search;
* :mod:`gamelib.search.rollout` — flat Monte-Carlo with a continuation player;
* :mod:`gamelib.search.players` — the players by name, built for one game.

This package sits above the games and below ``gamelib.sim``: it imports only ``gamelib.core``.
The registry offers these players for every registered game; a game's own compiled search
keeps its name (Garner's ``mcts``, Gargon's ``ismcts``, Deck the Yard's ``rollout`` are the
kernels') and the generic one stays reachable as ``generic:<spec>``.
"""

from gamelib.search.players import (
    DEFAULT_C,
    IsmctsPlayer,
    MctsPlayer,
    RolloutPlayer,
    generic_player,
    players_for,
)
from gamelib.search.rollout import continue_game, rollout_values
from gamelib.search.tree import points, search

__all__ = [
    "DEFAULT_C",
    "IsmctsPlayer",
    "MctsPlayer",
    "RolloutPlayer",
    "continue_game",
    "generic_player",
    "players_for",
    "points",
    "rollout_values",
    "search",
]
