"""Win rates with their Wilson intervals, per player name or per seat, counted in plain Python
from a table's columns: a DataFrame's, or the lists of a run's summary
(:class:`gamelib.sim.chunks.Summary`), so ``gamelib simulate`` prints them without pandas, and
:func:`gamelib.stats.win_rates` tables the same rows."""

from __future__ import annotations

from collections import Counter
from typing import Any

from gamelib.stats.intervals import wilson

#: a draw rate: (rate, lo, hi)
Rate = tuple[float, float, float]


def win_rate_rows(
    table: Any, by: str = "player", level: float = 0.95
) -> tuple[list[dict[str, Any]], Rate]:
    """The rows of :func:`~gamelib.stats.win_rates` and the draw rate (no sole winner) with its
    interval, from any ``table`` whose iteration gives its column names and ``table[name]`` a
    column: ``player_<seat>``, ``winner``, ``winner_player`` and ``n_winners`` are read.

    With ``by="seat"`` a row per seat: how often that seat won.  With ``by="player"`` a row per
    player name: how often a game was won by that player, counting games it sat in.  A value is
    counted as pandas compares it (``==``; names as ``str``).
    """
    n_winners = list(table["n_winners"])
    n = len(n_winners)
    seats = sorted(int(c.split("_")[1]) for c in table if c.startswith("player_"))
    rows: list[dict[str, Any]] = []
    if by == "seat":
        won = Counter(table["winner"])
        for s in seats:
            k = int(won[s])
            lo, hi = wilson(k, n, level)
            rows.append(
                {
                    "seat": s,
                    "games": n,
                    "wins": k,
                    "win_rate": k / n if n else 0.0,
                    "lo": lo,
                    "hi": hi,
                }
            )
    elif by == "player":
        sat = [[str(x) for x in table[f"player_{s}"]] for s in seats]
        won = Counter(str(x) for x in table["winner_player"])
        for name in sorted({x for column in sat for x in column}):
            games = sum(1 for game in zip(*sat, strict=True) if name in game)
            k = won[name]
            lo, hi = wilson(k, games, level)
            rows.append(
                {
                    "player": name,
                    "games": games,
                    "wins": k,
                    "win_rate": k / games if games else 0.0,
                    "lo": lo,
                    "hi": hi,
                }
            )
    else:
        raise ValueError(f"by must be 'player' or 'seat', got {by!r}")
    k_draw = n - Counter(n_winners)[1]
    lo, hi = wilson(k_draw, n, level)
    return rows, (k_draw / n if n else 0.0, lo, hi)
