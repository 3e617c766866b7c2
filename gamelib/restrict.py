"""Restricted players: a player that never takes one class of moves wherever it has another
legal move (``greedy:forbid=pass``), or always takes it wherever it may (``greedy:always=pass``).

Restricted play measures what an option is worth as what a player loses when it is forbidden
(Jaffe, Miller, Andersen, Liu, Karlin and Popović 2012, "Evaluating competitive game balance
with restricted play", AIIDE): :func:`gamelib.verdict.options.option_worth` plays the same deals
with and without the restriction and decides the difference with error rates.

A game names its classes of moves in the rules' words (``Game.options``, an :class:`Options`
of :class:`Option`); a class marks, given what the deciding seat sees (its observation, or a whole
state inside a search tree) and the legal moves, which of them belong to it.  The restriction
keeps the other moves (``forbid``) or the class's moves (``always``) — and the moves the class
does not compete with — and keeps them all when that would leave none, so a restricted player
never lacks a move.

* A player that decides from the position in front of it (``random``, ``greedy``, …) is
  wrapped: it chooses among the moves the restriction keeps, with its own rules and random
  numbers, so where the class is never offered its games are the unrestricted player's, byte
  for byte (``tests/test_restrict.py``).
* A search player applies the restriction at its own decisions inside its tree and playouts,
  not only at the root: the generic search (:mod:`gamelib.search`) and Gargon's compiled
  ``ismcts`` (the class's ``code``, read by :func:`gamelib.gargon.search.search`).  A search
  that cannot apply it (Garner's compiled ``mcts`` and ``solver``, Deck the Yard's ``rollout``
  and ``oracle``, the generic ``rollout``) is refused in one line naming why.

The restriction is part of the player's name, so a run's key, a cache entry and a table's
player columns keep it, and every unrestricted name is what it was.  Restricted players play
through the reference engine (the compiled batch players do not take one).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from gamelib.core import ConfigError, Move, Player

if TYPE_CHECKING:
    from gamelib.core import Game

__all__ = ["MODES", "Option", "Restricted", "keep", "restricted_player", "restriction"]

#: how a restriction treats its class: never take it, or always take it when offered
MODES = ("forbid", "always")


class Option(NamedTuple):
    """A class of moves, as a game names it (``Game.options``)."""

    words: str
    """What the class is, in the rules' words (``"passing (drawing 1–3 cards)"``)."""
    marks: Callable[[Any, Sequence[Move]], Sequence[bool | None]]
    """``marks(view, legal)``: for each legal move, whether it is of the class — or None for a
    move the class does not compete with (a play, for how many cards a pass draws), which both
    restrictions keep; ``view`` is the deciding seat's observation, or a whole state (a
    search's)."""
    code: int = 0
    """The class's number in the game's compiled search (0: it has none)."""


def restriction(spec: str) -> tuple[str, tuple[str, str] | None]:
    """``(player, (mode, class))`` of a spec: ``"greedy:forbid=pass"`` →
    ``("greedy", ("forbid", "pass"))``; an unrestricted spec → ``(spec, None)``.  More than
    one restriction, or another ``key=value`` option, is refused in one line."""
    parts = spec.split(":")
    found: list[tuple[str, str]] = []
    kept = []
    for part in parts:
        if "=" not in part:
            kept.append(part)
            continue
        mode, _, cls = part.partition("=")
        if mode not in MODES:
            raise ConfigError(
                f"{spec!r}: a player option {part!r} must be forbid=CLASS or always=CLASS"
            )
        found.append((mode, cls))
    if len(found) > 1:
        raise ConfigError(f"{spec!r}: a player takes one restriction (forbid= or always=)")
    return ":".join(kept), (found[0] if found else None)


def keep(option: Option, mode: str, view: Any, legal: Sequence[Move]) -> list[int]:
    """The indices of ``legal`` a restricted player may choose (all of them when the
    restriction would leave none)."""
    marks = option.marks(view, legal)
    want = mode == "always"
    kept = [k for k, m in enumerate(marks) if m is None or bool(m) == want]
    return kept if kept else list(range(len(legal)))


class Restricted:
    """A player that decides from the position in front of it, restricted (module docstring)."""

    def __init__(self, inner: Player, option: Option, mode: str, name: str) -> None:
        self.inner = inner
        self.option = option
        self.mode = mode
        self.__name__ = name
        self.observes = True  # the marks read the view, even when the player itself does not

    def __call__(self, observation: Any, legal: Sequence[Move], rng: random.Random) -> Move:
        if len(legal) > 1:
            kept = keep(self.option, self.mode, observation, legal)
            if len(kept) < len(legal):
                legal = [legal[k] for k in kept]
        return self.inner(observation, legal, rng)


def restricted_player(game: Game, spec: str) -> Player:
    """The player ``spec`` names with its restriction (``greedy:forbid=pass``); an unknown
    class, or a search that cannot apply it inside its tree, is refused in one line."""
    base, found = restriction(spec)
    if found is None or not base:
        raise ConfigError(f"{spec!r}: name a player before its restriction, e.g. greedy:{spec}")
    mode, cls = found
    if cls not in game.options:
        known = ", ".join(game.options) or "none"
        raise ConfigError(
            f"{spec!r}: {game.name} has no class of moves {cls!r}; its classes: {known}"
        )
    option = game.options[cls]
    inner = game.player(base)
    masked = getattr(inner, "restricted", None)
    if masked is not None:
        return masked(option, mode, spec)  # type: ignore[no-any-return]
    if getattr(inner, "searches", False):
        raise ConfigError(
            f"{spec!r}: {base} searches ahead and cannot apply the restriction at its own "
            "decisions inside its search; restricted play takes random, the heuristic players "
            "and the searches that can (gamelib.restrict)"
        )
    return Restricted(inner, option, mode, spec)


class Options(dict[str, Option]):
    """A game's classes of moves by name (``Game.options``); ``Game.player`` hands it a spec
    with a restriction (:func:`restricted_player`)."""

    def player(self, game: Game, spec: str) -> Player:
        """The restricted player ``spec`` names (:func:`restricted_player`)."""
        return restricted_player(game, spec)
