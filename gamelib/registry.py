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

The installed packages' games are looked up the first time a name the built-in and registered
games do not have is asked for, or the whole list is read (``gamelib games``, a command line's
help): reading the entry points costs a run about 0.03 s (``importlib.metadata`` and its scan
of every installed package), a tenth of a small command-line run, and a run that names a built-in
game never needs them.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Iterator, MutableMapping

from gamelib.core import ConfigError, Game, GamelibWarning, Player
from gamelib.deck_the_yard import DECK_THE_YARD
from gamelib.gargon import GARGON
from gamelib.garner import GARNER
from gamelib.search import players_for

__all__ = ["ENTRY_POINT_GROUP", "GAMES", "get_game", "register", "with_search"]

#: the entry-point group a game package declares its Game under
ENTRY_POINT_GROUP = "gamelib.games"


class _Games(MutableMapping[str, Game]):
    """The registry's mapping: the games registered so far, and the installed packages' games
    (:func:`_load_entry_points`) read in the first time a name is missing or every game is
    listed."""

    def __init__(self) -> None:
        self._games: dict[str, Game] = {}
        self._plugins_read = False

    def _read_plugins(self) -> None:
        if not self._plugins_read:
            self._plugins_read = True  # first: registering a plug-in looks itself up here
            _load_entry_points()

    def registered(self, name: str) -> Game | None:
        """The game registered under ``name`` so far (the entry points are not read)."""
        return self._games.get(name)

    def of_config(self, config: object) -> Game | None:
        """The game whose config type ``config`` is: among the games registered so far, then
        (only if none is) among the installed packages' games too."""
        for games in (list(self._games.values()), self.values()):
            for game in games:
                if isinstance(config, game.config_type):
                    return game
        return None

    def __getitem__(self, name: str) -> Game:
        try:
            return self._games[name]
        except KeyError:
            if self._plugins_read:
                raise
        self._read_plugins()
        return self._games[name]

    def __setitem__(self, name: str, game: Game) -> None:
        self._games[name] = game

    def __delitem__(self, name: str) -> None:
        del self._games[name]

    def __iter__(self) -> Iterator[str]:
        self._read_plugins()
        return iter(self._games)

    def __len__(self) -> int:
        self._read_plugins()
        return len(self._games)

    def __repr__(self) -> str:
        return repr(dict(self))


#: every registered game by name (``gamelib games`` lists them); installed packages' games
#: are read in on first need (see above)
#:
#: :meta hide-value:
GAMES = _Games()


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
    known = GAMES.registered(game.name)
    if known is not None:
        if known.config_type is game.config_type:
            return known
        raise ConfigError(f"a different game is already registered as {game.name!r}")
    GAMES[game.name] = out = with_search(game)
    return out


def _load_entry_points() -> None:
    """Register every Game installed packages declare under ``gamelib.games``."""
    from importlib.metadata import entry_points

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


#: the games gamelib itself defines (a command line naming one never reads the entry points)
BUILT_IN = tuple(register(g).name for g in (GARNER, GARGON, DECK_THE_YARD))


def get_game(name: str) -> Game:
    """A game by name; an unknown name is refused with the list of known ones."""
    try:
        return GAMES[name]
    except KeyError:
        raise ConfigError(f"unknown game {name!r}; known games: {', '.join(GAMES)}") from None
