"""The games gamelib knows, by name: the three built in, any registered with
:func:`~gamelib.registry.register`,
and any an installed package declares under the ``gamelib.games`` entry point.

A registered game gets gamelib's generic search players (:mod:`gamelib.search`: ``mcts``,
``ismcts``, ``rollout`` and ``generic:<spec>``) beside its own; a name the game's own players
already use keeps the game's player (its compiled fast path). Registering a game is one line::

    gamelib.registry.register(MY_GAME)            # in a script or notebook

or, so the command line and worker processes know it too, one line in the game package's
``pyproject.toml``::

    [project.entry-points."gamelib.games"]
    my_game = "my_game:MY_GAME"
"""

from __future__ import annotations

import dataclasses
import warnings
from importlib.metadata import entry_points

from gamelib.core import ConfigError, Game, GamelibWarning, Player
from gamelib.deck_the_yard import DECK_THE_YARD
from gamelib.gargon import GARGON
from gamelib.garner import GARNER
from gamelib.search import players_for

__all__ = ["ENTRY_POINT_GROUP", "GAMES", "get_game", "register", "with_search"]

#: the entry-point group a game package declares its Game under
ENTRY_POINT_GROUP = "gamelib.games"

#: every registered game by name (``gamelib games`` lists them)
#:
#: :meta hide-value:
GAMES: dict[str, Game] = {}


def with_search(game: Game) -> Game:
    """``game`` with the generic search players added under every name its own players leave
    free (and ``generic``, which takes any: ``generic:mcts:200``)."""
    box: list[Game] = []

    def resolve(spec: str) -> Player:
        return box[0].player(spec)

    generic = players_for(game, resolve)
    players = {**game.players}
    players.update({k: v for k, v in generic.items() if k not in game.players})
    players["generic"] = generic["generic"]
    out = dataclasses.replace(game, players=players)
    box.append(out)
    return out


def register(game: Game) -> Game:
    """Make ``game`` known by its name to every gamelib tool (simulate, ladder, verdict, report,
    tune, the command line, OpenSpiel); returns the registered game (with the generic search
    players). Registering the same game again is harmless; another game under a taken name is
    refused."""
    if not isinstance(game, Game):
        raise ConfigError(f"register takes a gamelib.core.Game, got {type(game).__name__}")
    known = GAMES.get(game.name)
    if known is not None:
        if known.config_type is game.config_type:
            return known
        raise ConfigError(f"a different game is already registered as {game.name!r}")
    GAMES[game.name] = out = with_search(game)
    return out


def _load_entry_points() -> None:
    """Register every Game installed packages declare under ``gamelib.games``."""
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            game = ep.load()
            register(game)
        except Exception as exc:  # a broken plug-in must not break gamelib
            warnings.warn(
                f"the game {ep.name!r} ({ep.value}) could not be registered: {exc}",
                GamelibWarning,
                stacklevel=2,
            )


for _game in (GARNER, GARGON, DECK_THE_YARD):
    register(_game)
_load_entry_points()


def get_game(name: str) -> Game:
    """A game by name; an unknown name is refused with the list of known ones."""
    try:
        return GAMES[name]
    except KeyError:
        raise ConfigError(f"unknown game {name!r}; known games: {', '.join(GAMES)}") from None
