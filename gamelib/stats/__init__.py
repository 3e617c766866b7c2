"""Intervals, balance tables and findings in words for result tables.

One package, three rooms: :mod:`gamelib.stats.intervals` (intervals and tests on numbers),
:mod:`gamelib.stats.tables` (balance tables from result tables) and :mod:`gamelib.stats.text`
(findings in words).  Every name is importable from ``gamelib.stats`` as before.  scipy and
statsmodels are imported inside the functions that use them, so ``gamelib simulate`` prints its
table without them.
"""

from __future__ import annotations

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
