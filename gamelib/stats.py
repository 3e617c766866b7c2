"""Intervals and balance metrics for result tables (scipy / statsmodels underneath).

scipy and statsmodels are imported inside the functions that use them: together they take
seconds to import, and ``gamelib simulate`` needs only Wilson intervals (the standard library's
normal quantile), so a small run prints its table without them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from statistics import NormalDist
from typing import Any

import numpy as np
import pandas as pd


def wilson(successes: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (e.g. a win rate): Wilson (1927), "Probable
    inference, the law of succession, and statistical inference", JASA 22(158) — the same
    interval as statsmodels' ``proportion_confint(method="wilson")`` (a test holds them equal)."""
    if n == 0:
        return (0.0, 1.0)
    # statsmodels' proportion_confint(method="wilson") to within 1e-14, without importing scipy;
    # the bounds at 0 and n successes are exact (the formula leaves a rounding error there)
    lo, hi = _wilson_at(successes / n, n, NormalDist().inv_cdf(0.5 + level / 2))
    return (0.0 if successes == 0 else lo, 1.0 if successes == n else hi)


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


def paired_difference(
    a: pd.DataFrame,
    b: pd.DataFrame,
    metric: str | Callable[[pd.DataFrame], pd.Series],
    level: float = 0.95,
) -> pd.Series:
    """Difference (a − b) of a per-game metric between two variants played on common seeds.

    Rows are paired by ``deal`` and ``rotation`` (and must share their seeds), so the deal's own
    luck cancels; the interval is the paired t interval and ``p_value`` the paired t-test's.
    """
    from scipy import stats

    keys = ["deal", "rotation"]
    for name, t in (("a", a), ("b", b)):
        missing = [k for k in [*keys, "seed"] if k not in t]
        if missing:
            raise ValueError(f"table {name} lacks {missing}: not a simulate() table")
    va = metric(a) if callable(metric) else a[metric]
    vb = metric(b) if callable(metric) else b[metric]
    left = a[[*keys, "seed"]].assign(value=pd.to_numeric(va).astype(float))
    right = b[[*keys, "seed"]].assign(value=pd.to_numeric(vb).astype(float))
    both = left.merge(right, on=keys, suffixes=("_a", "_b"), validate="one_to_one")
    if len(both) == 0:
        raise ValueError("the two tables share no deals")
    if not (both["seed_a"] == both["seed_b"]).all():
        raise ValueError("paired deals have different seeds: the runs did not use common seeds")
    d = both["value_a"] - both["value_b"]
    n = len(d)
    mean = float(d.mean())
    if n > 1 and float(d.std(ddof=1)) > 0:
        lo, hi = stats.t.interval(level, n - 1, loc=mean, scale=float(d.std(ddof=1)) / n**0.5)
        p = float(stats.ttest_rel(both["value_a"], both["value_b"]).pvalue)
    else:
        lo = hi = mean
        p = 1.0 if mean == 0 else 0.0
    return pd.Series(
        {
            "diff": mean,
            "lo": float(lo),
            "hi": float(hi),
            "n": n,
            "p_value": p,
            "mean_a": float(both["value_a"].mean()),
            "mean_b": float(both["value_b"].mean()),
        }
    )


def paired_ratio(
    x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray, level: float = 0.95
) -> pd.Series:
    """The ratio of two means measured on the same deals, mean(x) / mean(y) — e.g. the win rate
    with a rule over the win rate without it — with Fieller's interval (Fieller 1954, "Some
    problems in interval estimation", JRSS-B 16(2)): every ratio ρ for which the paired
    differences x − ρy have mean zero at the t test's ``level``, so the covariance of the pair
    is allowed for and the interval may be lopsided.  When y's mean is not clearly away from
    zero that set is unbounded and the bounds are −inf and +inf.  Returns ``ratio``, ``lo``,
    ``hi``, ``n``, ``mean_x``, ``mean_y``."""
    from scipy import stats

    a = np.asarray(x, dtype=float)
    b = np.asarray(y, dtype=float)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError("x and y must be one value per deal, the same deals in the same order")
    n = len(a)
    if n < 2:
        raise ValueError("a ratio's interval needs at least two deals")
    mx, my = float(a.mean()), float(b.mean())
    cov = np.cov(a, b, ddof=1) / n  # the covariance matrix of the two means
    t2 = float(stats.t.ppf(0.5 + level / 2, n - 1)) ** 2
    # (mx − ρ my)² ≤ t² (sxx − 2ρ sxy + ρ² syy): a quadratic in ρ, A ρ² − 2 B ρ + C ≤ 0
    qa = my * my - t2 * cov[1, 1]
    qb = mx * my - t2 * cov[0, 1]
    qc = mx * mx - t2 * cov[0, 0]
    ratio = mx / my if my != 0 else math.nan
    if qa <= 0:
        lo, hi = -math.inf, math.inf
    else:
        root = math.sqrt(max(qb * qb - qa * qc, 0.0))
        lo, hi = (qb - root) / qa, (qb + root) / qa
    return pd.Series({"ratio": ratio, "lo": lo, "hi": hi, "n": n, "mean_x": mx, "mean_y": my})


def share_lost(
    with_rule: Sequence[float] | np.ndarray,
    without_rule: Sequence[float] | np.ndarray,
    level: float = 0.95,
) -> pd.Series:
    """What share of the outcome a rule takes away, 1 − mean(with) / mean(without), on the same
    deals (e.g. the share of the wins a player has without the event cards that the blackouts
    cost it), with the interval of :func:`paired_ratio` turned the same way.  Returns
    ``share``, ``lo``, ``hi``, ``n``, ``with``, ``without``."""
    r = paired_ratio(with_rule, without_rule, level)
    return pd.Series(
        {
            "share": 1 - r["ratio"],
            "lo": 1 - r["hi"],
            "hi": 1 - r["lo"],
            "n": int(r["n"]),
            "with": r["mean_x"],
            "without": r["mean_y"],
        }
    )


def games_needed(
    advantage: float, *, baseline: float = 0.5, alpha: float = 0.05, power: float = 0.8
) -> int:
    """Games needed to detect a seat win rate of ``baseline + advantage`` (two-sided test)."""
    from statsmodels.stats.power import NormalIndPower
    from statsmodels.stats.proportion import proportion_effectsize

    if not 0 < baseline + advantage < 1 or advantage == 0:
        raise ValueError(f"advantage {advantage} must be non-zero and keep the rate inside (0, 1)")
    effect = proportion_effectsize(baseline + advantage, baseline)
    n = NormalIndPower().solve_power(
        effect_size=abs(effect), alpha=alpha, power=power, ratio=0, alternative="two-sided"
    )
    return math.ceil(float(n))


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
    the zero multiplier does.  Rates with Wilson intervals."""
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
    return pd.DataFrame(rows)


# --- issue 9 (notebooks 02/03): interval-aware findings ---------------------------------------
# Generic helpers for notebook answers that follow from their data: tests of many rates against
# a reference with a stated multiple-comparison procedure, intervals that respect deals rotated
# over seats, paired effects of a rule intervention, threshold curves, open-ended bins, victory
# margins, and the words a generated summary uses for an interval.


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
    seeds (an intervention, not a correlation): :func:`paired_difference` of every other value
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


def number_text(x: float, digits: int = 3, *, signed: bool = False, pct: bool = False) -> str:
    """A number as a finding prints it: ``digits`` decimals (a percentage: ``digits`` − 2), with
    its sign when ``signed`` — and a value that rounds to zero prints as a plain zero
    (``0.000``, ``0.0%``), never ``-0.000`` or ``+0.000``: a rounded zero has no direction."""
    d = max(digits - 2, 0) if pct else digits
    spec = f".{d}%" if pct else f".{d}f"
    text = format(x, ("+" if signed else "") + spec)
    if math.isfinite(x) and float(text.rstrip("%")) == 0:
        return format(0.0, spec)
    return text


def interval_text(est: float, lo: float, hi: float, digits: int = 3, *, pct: bool = False) -> str:
    """An estimate with its interval as text: ``0.087 [0.078, 0.098]`` or ``8.7% [7.8%, 9.8%]``
    (a bound that rounds to zero prints as ``0.000``, never ``-0.000``)."""
    f = [number_text(x, digits, pct=pct) for x in (est, lo, hi)]
    return f"{f[0]} [{f[1]}, {f[2]}]"


def direction(lo: float, hi: float, up: str, down: str, neither: str, at: float = 0.0) -> str:
    """The word an interval supports: ``up`` if it lies above ``at``, ``down`` if below,
    ``neither`` if it contains ``at`` — so a generated sentence never outruns its interval."""
    if lo > at:
        return up
    if hi < at:
        return down
    return neither


def change_text(effect: Mapping[str, Any], *, digits: int = 3, pct: bool = False) -> str:
    """A paired effect (a row of :func:`paired_effects`) as text: the baseline mean, the
    variant's, and the difference with its interval — ``0.090 → 0.258 (+0.168 [+0.150, +0.186])``
    (signed; a value that rounds to zero prints as ``0.000``, never ``-0.000``).
    """

    def f(x: float) -> str:
        return number_text(x, digits, pct=pct)

    def g(x: float) -> str:
        return number_text(x, digits, signed=True, pct=pct)

    return (
        f"{f(effect['mean_b'])} → {f(effect['mean_a'])} "
        f"({g(effect['diff'])} [{g(effect['lo'])}, {g(effect['hi'])}])"
    )


def findings(items: Sequence[str], title: str | None = None) -> Any:
    """The notebook's answers as a Markdown bullet list (``IPython.display.Markdown``), so every
    number, direction and ranking in the summary is rendered from the result tables."""
    from IPython.display import Markdown

    head = [f"**{title}**", ""] if title else []
    text = "\n".join([*head, *(f"- {item}" for item in items)])
    return Markdown(text)  # type: ignore[no-untyped-call]


# --- end of issue 9 (notebooks 02/03) helpers --------------------------------------------------


# ---------------------------------------------------------------------------------------------
# Findings from the data (issue 9): screening with a stated multiple-comparison procedure,
# intervals clustered by deal, sample sizes for a target precision, and the small formatting
# helpers a notebook uses to render its answers from its tables.  Generic: any game, any seat.
# ---------------------------------------------------------------------------------------------

#: the procedures :func:`adjust_pvalues` accepts, by the name a notebook states
PROCEDURES = {"holm": "Holm", "fdr_bh": "Benjamini–Hochberg"}


def adjust_pvalues(
    table: pd.DataFrame,
    p: str = "p_value",
    method: str = "holm",
    alpha: float = 0.05,
) -> pd.DataFrame:
    """``table`` with ``p_adjusted`` and ``reject`` columns from statsmodels' ``multipletests``.

    ``method="holm"`` controls the family-wise error rate (the chance of any false rejection);
    ``"fdr_bh"`` (Benjamini–Hochberg) the expected share of false rejections.  ``alpha`` is the
    family's level.  ``table.attrs["procedure"]`` names the procedure for the prose.
    """
    from statsmodels.stats.multitest import multipletests

    if method not in PROCEDURES:
        raise ValueError(f"method must be one of {sorted(PROCEDURES)}, got {method!r}")
    if p not in table:
        raise ValueError(f"the table has no p-value column {p!r}")
    values = pd.to_numeric(table[p]).astype(float)
    if values.isna().any() or not values.between(0, 1).all():
        raise ValueError(f"column {p!r} holds values that are not p-values (NaN or outside 0..1)")
    out = table.copy()
    if len(out) == 0:
        out["p_adjusted"] = pd.Series(dtype=float)
        out["reject"] = pd.Series(dtype=bool)
    else:
        reject, adjusted, _, _ = multipletests(values.to_numpy(), alpha=alpha, method=method)
        out["p_adjusted"] = adjusted
        out["reject"] = reject
    out.attrs["procedure"] = f"{PROCEDURES[method]} at family-wise level {alpha}"
    if method == "fdr_bh":
        out.attrs["procedure"] = f"{PROCEDURES[method]} at false-discovery rate {alpha}"
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
    per group); for rotated seats use :func:`clustered_rate`.
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


def wilson_half_width(n: int, p: float = 0.5, level: float = 0.95) -> float:
    """Half the width of the Wilson interval for ``n`` games whose observed rate is ``p``."""
    from scipy import stats

    if n <= 0:
        raise ValueError(f"n must be positive, got {n}")
    z = float(stats.norm.ppf(0.5 + level / 2))
    return z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))


def games_for_half_width(half_width: float, p: float = 0.5, level: float = 0.95) -> int:
    """The fewest games whose Wilson interval at rate ``p`` is at most ±``half_width`` wide
    (``p = 0.5`` is the widest case, so the answer holds for any rate)."""
    from scipy import stats

    if not 0 < half_width < 0.5:
        raise ValueError(f"half_width must lie in (0, 0.5), got {half_width}")
    z = float(stats.norm.ppf(0.5 + level / 2))
    n = max(1, math.floor(z * z * p * (1 - p) / half_width**2) - 2 * math.ceil(z * z))
    while wilson_half_width(n, p, level) > half_width:
        n += 1
    return n


def _wilson_at(p: float, n: float, z: float) -> tuple[float, float]:
    """Wilson's interval for an observed rate ``p`` over a (possibly effective, fractional) n."""
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def clustered_rate(
    table: pd.DataFrame,
    success: str | pd.Series,
    cluster: str = "deal",
    by: str | list[str] | None = None,
    weight: str | pd.Series | None = None,
    level: float = 0.95,
) -> pd.DataFrame:
    """A rate over games that are grouped into correlated clusters (a deal played from every
    seat, say), with a cluster-robust interval.

    ``success`` is a 0/1 column (or Series); ``weight`` (default 1) says which rows count, e.g.
    the games a player sat in.  The rate is Σ success / Σ weight and its standard error the
    ratio estimator's, from the clusters' totals (the sandwich estimator with the small-sample
    factor C / (C − 1)), so games sharing a deal are not counted as independent evidence.
    The interval is Wilson's at the effective number of games p(1 − p) / se², capped at the
    number of games (Korn and Graubard's interval for clustered samples), so it stays inside
    [0, 1] and keeps a width when every game went the same way.  Columns: ``games``,
    ``clusters``, ``rate``, ``se``, ``effective_games``, ``lo``, ``hi``, and ``naive_lo`` /
    ``naive_hi`` (the Wilson interval that treats every game as independent).
    """
    from scipy import stats

    y = table[success] if isinstance(success, str) else success
    w = (
        pd.Series(1.0, index=table.index)
        if weight is None
        else table[weight]
        if isinstance(weight, str)
        else weight
    )
    if cluster not in table:
        raise ValueError(f"the table has no cluster column {cluster!r}")
    df = pd.DataFrame(
        {
            "y": pd.to_numeric(y).astype(float) * pd.to_numeric(w).astype(float),
            "w": pd.to_numeric(w).astype(float),
            "c": table[cluster].to_numpy(),
        },
        index=table.index,
    )
    if not df["y"].between(0, 1).all():
        raise ValueError("success must be 0/1 (or a share between 0 and 1) per game")
    names = [] if by is None else [by] if isinstance(by, str) else list(by)
    for k in names:
        df[k] = table[k]
    z = float(stats.norm.ppf(0.5 + level / 2))
    groups = [((), df)] if not names else df.groupby(names, observed=True, sort=True)
    rows = []
    for key, g in groups:
        keys = key if isinstance(key, tuple) else (key,)
        totals = g.groupby("c", sort=False)[["y", "w"]].sum()
        totals = totals[totals["w"] > 0]
        n_c = len(totals)
        games = float(totals["w"].sum())
        rate = float(totals["y"].sum() / games) if games else float("nan")
        if n_c > 1:
            resid = totals["y"] - rate * totals["w"]
            se = math.sqrt(n_c / (n_c - 1) * float((resid**2).sum())) / games
        else:
            se = float("nan")
        spread = rate * (1 - rate)
        n_eff = min(games, spread / se**2) if se > 0 and spread > 0 else games
        lo, hi = _wilson_at(rate, n_eff, z) if games else (0.0, 1.0)
        naive = _wilson_at(rate, games, z) if games else (0.0, 1.0)
        rows.append(
            {
                **dict(zip(names, keys, strict=True)),
                "games": round(games),
                "clusters": n_c,
                "rate": rate,
                "se": se,
                "effective_games": n_eff,
                "lo": lo,
                "hi": hi,
                "naive_lo": naive[0],
                "naive_hi": naive[1],
            }
        )
    return pd.DataFrame(rows)


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


def rank_correlation(x: Sequence[float], y: Sequence[float], level: float = 0.95) -> pd.Series:
    """Spearman's rank correlation of two paired series with its interval (Fisher z, with the
    Bonett–Wright standard error sqrt((1 + rho² / 2) / (n − 3))) — e.g. whether two kinds of
    player rank rule sets alike.  Noise in both series pulls rho towards 0."""
    from scipy import stats

    if len(x) != len(y):
        raise ValueError(f"x and y must pair up, got {len(x)} and {len(y)} values")
    n = len(x)
    if n < 4:
        raise ValueError(f"a rank correlation interval needs at least 4 pairs, got {n}")
    rho = float(stats.spearmanr(x, y).statistic)
    z = float(stats.norm.ppf(0.5 + level / 2))
    r = max(min(rho, 1 - 1e-12), -1 + 1e-12)
    se = math.sqrt((1 + r * r / 2) / (n - 3))
    return pd.Series(
        {
            "rho": rho,
            "lo": math.tanh(math.atanh(r) - z * se),
            "hi": math.tanh(math.atanh(r) + z * se),
            "n": n,
        }
    )


# --------------------------------------------------------------------------- end of issue-9 block
