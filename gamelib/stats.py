"""Intervals and balance metrics for result tables (scipy / statsmodels underneath)."""

from __future__ import annotations

import pandas as pd
from statsmodels.stats.proportion import proportion_confint


def wilson(successes: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (e.g. a win rate)."""
    if n == 0:
        return (0.0, 1.0)
    lo, hi = proportion_confint(successes, n, alpha=1 - level, method="wilson")
    return float(lo), float(hi)


def win_rates(table: pd.DataFrame, by: str = "player", level: float = 0.95) -> pd.DataFrame:
    """Win rate with its Wilson interval, per player name (``by="player"``) or per seat.

    With ``by="seat"`` a row per seat: how often that seat won.  With ``by="player"`` a row per
    player name: how often a game was won by that player, counting games it sat in.
    """
    n = len(table)
    rows: list[dict[str, object]] = []
    seats = sorted(int(c.split("_")[1]) for c in table.columns if c.startswith("player_"))
    if by == "seat":
        for s in seats:
            k = int((table["winner"] == s).sum())
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
        names = sorted({str(x) for s in seats for x in table[f"player_{s}"].unique()})
        for name in names:
            sat = pd.Series(False, index=table.index)
            for s in seats:
                sat |= table[f"player_{s}"].astype(str) == name
            games = int(sat.sum())
            k = int((table["winner_player"].astype(str) == name).sum())
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
    out = pd.DataFrame(rows)
    k_draw = int((table["n_winners"] != 1).sum())
    lo, hi = wilson(k_draw, n, level)
    out.attrs["draw_rate"] = (k_draw / n if n else 0.0, lo, hi)
    return out
