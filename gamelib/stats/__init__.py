"""Intervals, balance tables and findings in words for result tables.

One package, four rooms: :mod:`gamelib.stats.intervals` (intervals and tests on numbers),
:mod:`gamelib.stats.rates` (win rates counted in plain Python from a table's columns),
:mod:`gamelib.stats.tables` (balance tables from result tables) and :mod:`gamelib.stats.text`
(findings in words).  Every name is importable from ``gamelib.stats`` as before, its room
imported the first time it is asked for (PEP 562); scipy and statsmodels are imported inside the
functions that use them and pandas with the tables, so ``gamelib simulate`` prints its win rates
without any of them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gamelib.stats.intervals import (
        PROCEDURES,
        adjust_pvalues,
        clustered_rate,
        games_for_half_width,
        games_needed,
        paired_difference,
        paired_ratio,
        rank_correlation,
        share_lost,
        wilson,
        wilson_half_width,
    )
    from gamelib.stats.tables import (
        INCOMPLETE,
        by_seat,
        clustered_mean_table,
        effect,
        game_metrics,
        mean_table,
        paired_change,
        paired_effects,
        player_gap,
        player_win_rates,
        rate_table,
        rates_against_reference,
        seat_screen,
        share_at_least,
        top_coded,
        victory_margins,
        win_rates,
    )
    from gamelib.stats.text import (
        change_text,
        direction,
        findings,
        interval_text,
        number_text,
    )

#: each public name's room, imported the first time the name is asked for
_LAZY = {
    "PROCEDURES": "gamelib.stats.intervals",
    "adjust_pvalues": "gamelib.stats.intervals",
    "clustered_rate": "gamelib.stats.intervals",
    "games_for_half_width": "gamelib.stats.intervals",
    "games_needed": "gamelib.stats.intervals",
    "paired_difference": "gamelib.stats.intervals",
    "paired_ratio": "gamelib.stats.intervals",
    "rank_correlation": "gamelib.stats.intervals",
    "share_lost": "gamelib.stats.intervals",
    "wilson": "gamelib.stats.intervals",
    "wilson_half_width": "gamelib.stats.intervals",
    "INCOMPLETE": "gamelib.stats.tables",
    "by_seat": "gamelib.stats.tables",
    "clustered_mean_table": "gamelib.stats.tables",
    "effect": "gamelib.stats.tables",
    "game_metrics": "gamelib.stats.tables",
    "mean_table": "gamelib.stats.tables",
    "paired_change": "gamelib.stats.tables",
    "paired_effects": "gamelib.stats.tables",
    "player_gap": "gamelib.stats.tables",
    "player_win_rates": "gamelib.stats.tables",
    "rate_table": "gamelib.stats.tables",
    "rates_against_reference": "gamelib.stats.tables",
    "seat_screen": "gamelib.stats.tables",
    "share_at_least": "gamelib.stats.tables",
    "top_coded": "gamelib.stats.tables",
    "victory_margins": "gamelib.stats.tables",
    "win_rates": "gamelib.stats.tables",
    "change_text": "gamelib.stats.text",
    "direction": "gamelib.stats.text",
    "findings": "gamelib.stats.text",
    "interval_text": "gamelib.stats.text",
    "number_text": "gamelib.stats.text",
}

__all__ = [
    "INCOMPLETE",
    "PROCEDURES",
    "adjust_pvalues",
    "by_seat",
    "change_text",
    "clustered_mean_table",
    "clustered_rate",
    "direction",
    "effect",
    "findings",
    "game_metrics",
    "games_for_half_width",
    "games_needed",
    "interval_text",
    "mean_table",
    "number_text",
    "paired_change",
    "paired_difference",
    "paired_effects",
    "paired_ratio",
    "player_gap",
    "player_win_rates",
    "rank_correlation",
    "rate_table",
    "rates_against_reference",
    "seat_screen",
    "share_at_least",
    "share_lost",
    "top_coded",
    "victory_margins",
    "wilson",
    "wilson_half_width",
    "win_rates",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from its room the first time it is asked for."""
    try:
        module = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'gamelib.stats' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
