"""Balance tables from result tables: win rates, game metrics, per-seat rows, rate and mean tables
with intervals, regression effects clustered by deal, paired changes and effects, seat screens,
player gaps and victory margins — each a tidy DataFrame a notebook charts or renders."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from gamelib.stats.intervals import adjust_pvalues, clustered_rate, paired_difference, wilson
from gamelib.stats.rates import win_rate_rows


def win_rates(table: pd.DataFrame, by: str = "player", level: float = 0.95) -> pd.DataFrame:
    """Win rate with its Wilson interval, per player name (``by="player"``) or per seat.

    With ``by="seat"`` a row per seat: how often that seat won.  With ``by="player"`` a row per
    player name: how often a game was won by that player, counting games it sat in.  The draw
    rate (no sole winner) with its interval is in ``attrs["draw_rate"]``.  Counted by
    :func:`gamelib.stats.rates.win_rate_rows`, which the command line calls without pandas.
    """
    rows, draw_rate = win_rate_rows(table, by, level)
    out = pd.DataFrame(rows)
    out.attrs["draw_rate"] = draw_rate
    return out


def game_metrics(table: pd.DataFrame, by: str | list[str] | None = None) -> pd.DataFrame:
    """The metrics general game systems report, per group of ``by`` (or for the whole table).

    ``win_rate_<seat>`` with ``lo_0``/``hi_0`` (seat 0's Wilson interval); ``seat_advantage``:
    seat 0's win rate minus the seats' mean; ``balance``: 1 − the largest gap between two seats'
    win rates; ``completion_rate`` (not stopped by a turn limit); ``draw_rate``; duration in turns
    (mean and standard deviation); ``branching_factor`` (options per decision) and
    ``multi_option_share`` (decisions with more than one option).
    """
    seats = sorted(int(c.split("_")[1]) for c in table.columns if c.startswith("player_"))
    groups = [((), table)] if by is None else table.groupby(by, observed=True, sort=True)
    rows = []
    for key, g in groups:
        n = len(g)
        row: dict[str, object] = {}
        if by is not None:
            names = [by] if isinstance(by, str) else by
            keys = key if isinstance(key, tuple) else (key,)
            row.update(dict(zip(names, keys, strict=True)))
        present = [s for s in seats if g[f"player_{s}"].notna().all()]  # mixed-size sweeps
        rates = [float((g["winner"] == s).mean()) for s in present]
        for s, r in zip(present, rates, strict=True):
            row[f"win_rate_{s}"] = r
        lo, hi = wilson(int((g["winner"] == 0).sum()), n)
        row.update(
            games=n,
            lo_0=lo,
            hi_0=hi,
            seat_advantage=rates[0] - sum(rates) / len(rates),
            balance=1 - (max(rates) - min(rates)),
            completion_rate=float((~g["reason"].astype(str).isin(INCOMPLETE)).mean()),
            draw_rate=float((g["n_winners"] != 1).mean()),
            duration_mean=float(g["turns"].mean()),
            duration_std=float(g["turns"].std(ddof=1)) if n > 1 else 0.0,
            branching_factor=float(g["options"].sum() / g["decisions"].sum()),
            multi_option_share=float(g["multi_option_decisions"].sum() / g["decisions"].sum()),
        )
        rows.append(row)
    return pd.DataFrame(rows)


#: outcome reasons that mean the game did not reach its natural end
INCOMPLETE = ("turn_limit", "unfinished")


def by_seat(table: pd.DataFrame, fields: Sequence[str], keep: Sequence[str] = ()) -> pd.DataFrame:
    """Per-seat columns (``score_0``, ``zeros_1``, …) as a long table: one row per game and seat.

    Columns: ``game_index``, ``deal``, ``seat``, ``player``, the ``keep`` columns (e.g. the
    rule fields of a sweep) and one column per field.  Seats a game did not have (a 3-player
    game in a table that also holds 5-player games) are left out.
    """
    seats = sorted(int(c.split("_")[1]) for c in table.columns if c.startswith("player_"))
    parts = []
    for s in seats:
        missing = [f"{f}_{s}" for f in fields if f"{f}_{s}" not in table]
        if missing:
            raise ValueError(f"the table has no columns {missing}")
        sat = table[table[f"player_{s}"].notna()]
        part = pd.DataFrame(
            {
                "game_index": sat["game_index"].to_numpy(),
                "deal": sat["deal"].to_numpy(),
                "seat": s,
                "player": sat[f"player_{s}"].astype(str).to_numpy(),
            }
        )
        for k in keep:
            part[k] = sat[k].to_numpy()
        for f in fields:
            part[f] = sat[f"{f}_{s}"].to_numpy()
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def rate_table(
    values: pd.DataFrame, by: str | list[str], column: str, level: float = 0.95
) -> pd.DataFrame:
    """Mean of a 0/1 (or share) column per group with its Wilson interval (rates for charts)."""
    rows = []
    for key, g in values.groupby(by, observed=True, sort=True):
        n = len(g)
        k = float(g[column].sum())
        lo, hi = wilson(round(k), n, level)
        keys = key if isinstance(key, tuple) else (key,)
        names = [by] if isinstance(by, str) else list(by)
        rows.append(
            {**dict(zip(names, keys, strict=True)), "n": n, "rate": k / n, "lo": lo, "hi": hi}
        )
    return pd.DataFrame(rows)


def mean_table(
    values: pd.DataFrame, by: str | list[str], column: str, level: float = 0.95
) -> pd.DataFrame:
    """Mean of a column per group with its t interval."""
    from scipy import stats

    rows = []
    for key, g in values.groupby(by, observed=True, sort=True):
        x = g[column].astype(float)
        n = len(x)
        mean = float(x.mean())
        if n > 1 and float(x.std(ddof=1)) > 0:
            lo, hi = stats.t.interval(level, n - 1, loc=mean, scale=float(x.std(ddof=1)) / n**0.5)
        else:
            lo = hi = mean
        keys = key if isinstance(key, tuple) else (key,)
        names = [by] if isinstance(by, str) else list(by)
        rows.append(
            {
                **dict(zip(names, keys, strict=True)),
                "n": n,
                "mean": mean,
                "lo": float(lo),
                "hi": float(hi),
            }
        )
    return pd.DataFrame(rows)


def effect(
    values: pd.DataFrame,
    formula: str,
    term: str,
    by: str | None = None,
    level: float = 0.95,
    cluster: str | None = None,
) -> pd.DataFrame:
    """The coefficient of ``term`` in an OLS fit of ``formula`` (statsmodels), with its
    interval, per group of ``by`` — e.g. points per captured zero, holding captures fixed.

    With ``cluster`` (a column), standard errors are cluster-robust (statsmodels ``cov_type=
    "cluster"``): rows that share a cluster value (the seats of one game, the seat rotations of
    one deal) are not independent, so the interval counts clusters; a ``clusters`` column says
    how many."""
    import statsmodels.formula.api as smf

    groups = [(None, values)] if by is None else values.groupby(by, observed=True, sort=True)
    rows = []
    for key, g in groups:
        model = smf.ols(formula, data=g)
        if cluster is None:
            fit = model.fit()
        else:
            groups_of = pd.factorize(g[cluster])[0]
            fit = model.fit(cov_type="cluster", cov_kwds={"groups": groups_of})
        lo, hi = fit.conf_int(alpha=1 - level).loc[term]
        row: dict[str, object] = {} if by is None else {by: key}
        row["n"] = int(fit.nobs)
        if cluster is not None:
            row["clusters"] = int(g[cluster].nunique())
        row.update(
            coef=float(fit.params[term]),
            lo=float(lo),
            hi=float(hi),
            p_value=float(fit.pvalues[term]),
        )
        rows.append(row)
    return pd.DataFrame(rows)


def paired_change(
    table: pd.DataFrame,
    variant: str,
    baseline: object,
    column: str = "winner",
    by: str | list[str] | None = None,
    level: float = 0.95,
) -> pd.DataFrame:
    """How often ``column`` differs from the ``baseline`` value of ``variant`` on the same deal
    (same seed), per other value of ``variant`` — e.g. how often the winner changes when only
    the zero multiplier does.  Rates with Wilson intervals; a table with no other value of
    ``variant`` gives no rows, with the same columns."""
    keys = ["deal", "rotation"] + ([] if by is None else [by] if isinstance(by, str) else by)
    base = table[table[variant] == baseline][[*keys, "seed", column]]
    rows = []
    for value, g in table[table[variant] != baseline].groupby(variant, observed=True):
        both = g[[*keys, "seed", column]].merge(base, on=keys, suffixes=("", "_base"))
        if not (both["seed"] == both["seed_base"]).all():
            raise ValueError("paired deals have different seeds: not common random numbers")
        for key, h in [((), both)] if by is None else both.groupby(by, observed=True):
            changed = int((h[column] != h[f"{column}_base"]).sum())
            lo, hi = wilson(changed, len(h), level)
            row: dict[str, object] = {variant: value}
            if by is not None:
                names = [by] if isinstance(by, str) else by
                ks = key if isinstance(key, tuple) else (key,)
                row.update(dict(zip(names, ks, strict=True)))
            row.update(n=len(h), changed=changed, rate=changed / len(h), lo=lo, hi=hi)
            rows.append(row)
    names = [] if by is None else [by] if isinstance(by, str) else list(by)
    return pd.DataFrame(rows, columns=[variant, *names, "n", "changed", "rate", "lo", "hi"])


def rates_against_reference(
    rates: pd.DataFrame,
    reference: float | str,
    *,
    method: str = "holm",
    alpha: float = 0.05,
    rate: str = "rate",
    n: str = "n",
) -> pd.DataFrame:
    """Each rate tested against a reference share (two-sided score test), adjusted together for
    multiple comparisons with ``statsmodels.stats.multitest.multipletests(method=...)``
    (``holm``: Holm–Bonferroni; ``fdr_bh``: Benjamini–Hochberg).

    ``reference`` is a number or the name of a column (e.g. each seat's fair share).  Adds
    ``reference``, ``p_value``, ``p_adjusted`` and ``differs`` (rejected after adjustment).
    """
    from scipy import stats

    if rates.empty:
        raise ValueError("no rates to test")
    out = rates.copy()
    ref = out[reference].astype(float) if isinstance(reference, str) else float(reference)
    out["reference"] = ref
    p0 = out["reference"].to_numpy(dtype=float)
    if ((p0 <= 0) | (p0 >= 1)).any():
        raise ValueError("reference shares must lie strictly between 0 and 1")
    counts = out[n].to_numpy(dtype=float)
    z = (out[rate].to_numpy(dtype=float) - p0) / (p0 * (1 - p0) / counts) ** 0.5
    out["p_value"] = 2 * stats.norm.sf(abs(z))
    adjusted = adjust_pvalues(out, method=method, alpha=alpha)
    out["p_adjusted"] = adjusted["p_adjusted"]
    out["differs"] = adjusted["reject"]
    out.attrs["procedure"] = {"method": method, "alpha": alpha, "tests": len(out)}
    return out


def clustered_mean_table(
    values: pd.DataFrame,
    by: str | list[str],
    column: str,
    cluster: str = "deal",
    level: float = 0.95,
) -> pd.DataFrame:
    """Mean of ``column`` per group with a t interval over clusters (e.g. deals): games that
    replay one deal from every seat are not independent, so each deal's rows are averaged first
    and the interval counts deals, not games.  Columns: the ``by`` keys, ``n`` (rows),
    ``clusters``, ``mean``, ``lo``, ``hi``."""
    from scipy import stats

    names = [by] if isinstance(by, str) else list(by)
    if cluster not in values:
        raise ValueError(f"no cluster column {cluster!r}")
    per = values.groupby([*names, cluster], observed=True, sort=True)[column]
    cl = per.agg(["mean", "size"]).reset_index()
    rows = []
    for key, g in cl.groupby(names, observed=True, sort=True):
        # the deal means weighted by their rows equal the plain mean of the rows
        w = g["size"].to_numpy(dtype=float)
        m = g["mean"].to_numpy(dtype=float)
        k = len(g)
        mean = float((w * m).sum() / w.sum())
        if k > 1:
            # cluster-robust (CR1-style) standard error of a weighted mean of cluster means
            resid = w * (m - mean)
            se = float(((resid**2).sum() * k / (k - 1)) ** 0.5 / w.sum())
        else:
            se = 0.0
        if se > 0:
            lo, hi = stats.t.interval(level, k - 1, loc=mean, scale=se)
        else:
            lo = hi = mean
        keys = key if isinstance(key, tuple) else (key,)
        rows.append(
            {
                **dict(zip(names, keys, strict=True)),
                "n": int(w.sum()),
                "clusters": k,
                "mean": mean,
                "lo": float(lo),
                "hi": float(hi),
            }
        )
    return pd.DataFrame(rows)


def paired_effects(
    table: pd.DataFrame,
    variant: str,
    baseline: object,
    metrics: Sequence[str],
    by: str | list[str] | None = None,
    level: float = 0.95,
) -> pd.DataFrame:
    """What changing ``variant`` from ``baseline`` does to each metric, game by game on common
    seeds (an intervention, not a correlation): :func:`~gamelib.stats.intervals.paired_difference`
    of every other value
    of ``variant`` against the baseline, per group of ``by`` (e.g. the player), holding every
    other rule column equal.  ``diff`` is variant − baseline."""
    names = [] if by is None else [by] if isinstance(by, str) else list(by)
    if variant not in table:
        raise ValueError(f"no column {variant!r} in the table")
    values = list(dict.fromkeys(table[variant].tolist()))
    if baseline not in values:
        raise ValueError(f"{variant}={baseline!r} is not in the table (values: {values})")
    # a stored sweep's provenance (every run's config) rides in attrs and pandas deep-copies it
    # on every operation: work on a view without it
    table = table.copy(deep=False)
    table.attrs = {}
    rows = []
    groups = [((), table)] if not names else table.groupby(names, observed=True, sort=True)
    for key, g in groups:
        base = g[g[variant] == baseline]
        for value in values:
            if value == baseline:
                continue
            other = g[g[variant] == value]
            for metric in metrics:
                d: dict[str, object] = dict(paired_difference(other, base, metric, level))
                keys = key if isinstance(key, tuple) else (key,)
                row: dict[str, object] = dict(zip(names, keys, strict=True))
                row.update({variant: value, "metric": metric, **d})
                rows.append(row)
    out = pd.DataFrame(rows)
    out["n"] = out["n"].astype(int)
    return out


def share_at_least(
    values: pd.DataFrame,
    column: str,
    thresholds: Sequence[int | float],
    by: str | list[str] | None = None,
    level: float = 0.95,
) -> pd.DataFrame:
    """The share of rows whose ``column`` reaches each threshold, with Wilson intervals — e.g.
    the win rate for every possible target when the target does not change the play."""
    names = [] if by is None else [by] if isinstance(by, str) else list(by)
    groups = [((), values)] if not names else values.groupby(names, observed=True, sort=True)
    rows = []
    for key, g in groups:
        keys = key if isinstance(key, tuple) else (key,)
        for t in thresholds:
            k = int((g[column] >= t).sum())
            lo, hi = wilson(k, len(g), level)
            rows.append(
                {
                    **dict(zip(names, keys, strict=True)),
                    "threshold": t,
                    "n": len(g),
                    "rate": k / len(g) if len(g) else 0.0,
                    "lo": lo,
                    "hi": hi,
                }
            )
    return pd.DataFrame(rows)


def top_coded(values: pd.Series, top: int) -> pd.Series:
    """Counts as ordered labels with the open-ended last bin marked: 0, 1, 2, ``"3+"``."""
    if top < 1:
        raise ValueError(f"top must be at least 1, got {top}")
    labels = [str(i) for i in range(top)] + [f"{top}+"]
    lowest = int(values.min()) if len(values) else 0
    if lowest < 0:
        raise ValueError(f"counts must be non-negative, got {lowest}")
    coded = values.clip(upper=top).astype(int).map(lambda v: labels[v])
    return pd.Series(pd.Categorical(coded, categories=labels, ordered=True), index=values.index)


def victory_margins(
    table: pd.DataFrame, score: str = "score", component: str | None = None
) -> pd.DataFrame:
    """Per game: the winner's lead over the best other seat (``margin``; 0 for a shared win),
    and, given a score ``component`` (``bonus``), whether the winners would still be on top
    with that component taken away (``won_without``: ``False`` means the component decided
    the game).  Seats are the ``player_<seat>`` columns; a game a seat did not have is skipped.
    """
    seats = sorted(int(c.split("_")[1]) for c in table.columns if c.startswith("player_"))
    scores = table[[f"{score}_{s}" for s in seats]].to_numpy(dtype=float)
    present = table[[f"player_{s}" for s in seats]].notna().to_numpy()
    scores = scores.copy()
    scores[~present] = -math.inf
    ordered = np.sort(scores, axis=1)[:, ::-1]
    out = pd.DataFrame(
        {
            "game_index": table["game_index"].to_numpy(),
            "deal": table["deal"].to_numpy(),
            "margin": ordered[:, 0] - ordered[:, 1],
            "top_score": ordered[:, 0],
        },
        index=table.index,
    )
    if component is not None:
        parts = table[[f"{component}_{s}" for s in seats]].to_numpy(dtype=float).copy()
        parts[~present] = 0.0  # a seat the game did not have (a gap in a mixed-size table)
        rest = scores - parts
        top = scores == scores.max(axis=1, keepdims=True)
        rest_top = rest == rest.max(axis=1, keepdims=True)
        out["won_without"] = (top <= rest_top).all(axis=1)
    return out


def seat_screen(
    table: pd.DataFrame,
    by: str | list[str],
    seat: int = 0,
    null: float | None = None,
    level: float = 0.95,
) -> pd.DataFrame:
    """Seat ``seat``'s share of the decided games per group of ``by`` (e.g. per rule set), with
    its Wilson interval and the exact binomial test against ``null`` (default: a fair share,
    1 / number of seats).

    A game counts as decided when it has a sole winner; draws and turn-limit stalls are left out
    of the share and reported as ``draw_rate`` and ``stall_rate``, so a rule set that is "fair"
    only because it stalls is visible.  Each row must be an independent game (one game a deal
    per group); for rotated seats use :func:`~gamelib.stats.intervals.clustered_rate`.
    """
    from scipy import stats

    seats = sorted(int(c.split("_")[1]) for c in table.columns if c.startswith("player_"))
    if seat not in seats:
        raise ValueError(f"the table has no seat {seat}; seats: {seats}")
    p0 = 1 / len(seats) if null is None else null
    if not 0 < p0 < 1:
        raise ValueError(f"null must lie strictly between 0 and 1, got {p0}")
    names = [by] if isinstance(by, str) else list(by)
    rows = []
    for key, g in table.groupby(names, observed=True, sort=True):
        keys = key if isinstance(key, tuple) else (key,)
        decided = int((g["n_winners"] == 1).sum())
        wins = int(((g["winner"] == seat) & (g["n_winners"] == 1)).sum())
        lo, hi = wilson(wins, decided, level)
        pv = float(stats.binomtest(wins, decided, p0).pvalue) if decided else 1.0
        rows.append(
            {
                **dict(zip(names, keys, strict=True)),
                "games": len(g),
                "decided": decided,
                "wins": wins,
                "share": wins / decided if decided else float("nan"),
                "lo": lo,
                "hi": hi,
                "p_value": pv,
                "draw_rate": float((g["n_winners"] != 1).mean()),
                "stall_rate": float(g["reason"].astype(str).isin(INCOMPLETE).mean()),
            }
        )
    out = pd.DataFrame(rows)
    out.attrs["null"] = p0
    return out


def player_win_rates(table: pd.DataFrame, level: float = 0.95) -> pd.DataFrame:
    """Each player's win rate over the games it sat in, with an interval clustered by deal.

    With ``rotate_seats=True`` every deal is played once per seat arrangement, so the games of
    one deal share its luck: they are one cluster, not independent games.  A player holding
    several seats in a line-up wins a game when any of them does; ``fair_share`` is the share of
    the seats it holds (what it would win if seats and players were all alike).
    """
    seats = sorted(int(c.split("_")[1]) for c in table.columns if c.startswith("player_"))
    names = sorted({str(x) for s in seats for x in table[f"player_{s}"].dropna().unique()})
    rows = []
    for name in names:
        held = pd.Series(0, index=table.index)
        for s in seats:
            held += (table[f"player_{s}"].astype(str) == name).astype(int)
        sat = (held > 0).astype(float)
        won = (table["winner_player"].astype(str) == name).astype(float)
        r = clustered_rate(table, won, weight=sat, level=level)
        share = float((held / pd.Series(len(seats), index=table.index))[sat > 0].mean())
        rows.append(r.assign(player=name, fair_share=share))
    out = pd.concat(rows, ignore_index=True)
    return out[["player", *[c for c in out.columns if c != "player"]]]


def player_gap(table: pd.DataFrame, a: str, b: str, level: float = 0.95) -> pd.Series:
    """How much more often player ``a`` wins than player ``b`` in the same games (a − b, per
    game), with a t interval over deals: each deal's rotations form one paired observation."""
    from scipy import stats

    names = {str(x) for c in table.columns if c.startswith("player_") for x in table[c].unique()}
    missing = [p for p in (a, b) if p not in names]
    if missing:
        raise ValueError(f"no player {missing} in the table; players: {sorted(names)}")
    won = table["winner_player"].astype(str)
    d = ((won == a).astype(float) - (won == b).astype(float)).groupby(table["deal"]).mean()
    n = len(d)
    mean = float(d.mean())
    sd = float(d.std(ddof=1)) if n > 1 else 0.0
    if sd > 0:
        lo, hi = stats.t.interval(level, n - 1, loc=mean, scale=sd / n**0.5)
    else:
        lo = hi = mean
    return pd.Series({"diff": mean, "lo": float(lo), "hi": float(hi), "deals": n})
