"""The printable spaces notebook 05 searches, one function a game, each docstring its grid.

Every value these spaces can give is one a designer can print: whole-number counts and
tables, Garner's third suit weight in quarters.  ``space_text(garner_a())`` is the command
line's ``--space`` items (``data/results/regenerate.sh`` runs them), and
:func:`gamelib.tune.space_table` spells out each grid.
"""

from __future__ import annotations

from gamelib.tune.space import Choice, Domain, FloatRange, IntRange

__all__ = ["SPACES", "deck_the_yard", "gargon_amulets", "garner_a"]


def garner_a() -> dict[str, Domain]:
    """Garner from setup A: the grid ``rows`` 3–4 × ``cols`` 3–4 × ``height`` 2–4, dealt as
    ``n_suits`` 2–4 equal suits (a suit count that does not divide the grid's places is refused
    by the game), ``must_move`` none / one / all, ``straight_line`` no / yes, ``top_layer``
    level / surface, ``forbidden_pile_size`` none / 4 / 5 / 6, and the third suit's weight
    ``suit_weights[2]`` in quarters from 0.5 to 1.5 (0.5, 0.75, 1, 1.25, 1.5; the other suits
    weigh 1)."""
    return {
        "rows": IntRange(3, 4),
        "cols": IntRange(3, 4),
        "height": IntRange(2, 4),
        "n_suits": IntRange(2, 4),
        "must_move": Choice(["none", "one", "all"]),
        "straight_line": Choice([False, True]),
        "top_layer": Choice(["level", "surface"]),
        "forbidden_pile_size": Choice([None, 4, 5, 6]),
        "suit_weights[2]": FloatRange(0.5, 1.5, 0.25),
    }


def gargon_amulets() -> dict[str, Domain]:
    """Gargon at any player count: the amulets of the numbers 1, 2 and 3 (``amulets[1..3]``, whole
    numbers 0–8; the rest of the table as printed), the ``majority_bonus`` 0–20 and the
    ``shared_bonus`` 0–10, whole points."""
    return {
        "amulets[1]": IntRange(0, 8),
        "amulets[2]": IntRange(0, 8),
        "amulets[3]": IntRange(0, 8),
        "majority_bonus": IntRange(0, 20),
        "shared_bonus": IntRange(0, 10),
    }


def deck_the_yard() -> dict[str, Domain]:
    """Deck the Yard's component mix, whole cards: ``plugs`` 4–12, ``characters`` 2–10,
    ``events`` 0–5, ``broken`` bulbs 0–8, a ``hand_size`` of 4–7 and a ``win_threshold`` of
    5–10."""
    return {
        "plugs": IntRange(4, 12),
        "characters": IntRange(2, 10),
        "events": IntRange(0, 5),
        "broken": IntRange(0, 8),
        "hand_size": IntRange(4, 7),
        "win_threshold": IntRange(5, 10),
    }


#: each game's space, by game name
SPACES = {"garner": garner_a, "gargon": gargon_amulets, "deck_the_yard": deck_the_yard}
