"""Intervals and tests on result tables' numbers: Wilson and clustered intervals for rates, paired
differences and ratios on the same deals, the games a half-width needs, multiple-comparison
adjustment and rank correlation (scipy / statsmodels underneath, and pandas, imported inside the
functions that use them: together they take seconds to import, and ``gamelib simulate`` needs
only Wilson intervals, from the standard library's normal quantile)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from statistics import NormalDist
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pandas: imported by the functions that use it
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
    import pandas as pd
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
    import pandas as pd
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
    import pandas as pd

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
    import pandas as pd
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
    import pandas as pd
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


def rank_correlation(x: Sequence[float], y: Sequence[float], level: float = 0.95) -> pd.Series:
    """Spearman's rank correlation of two paired series with its interval (Fisher z, with the
    Bonett–Wright standard error sqrt((1 + rho² / 2) / (n − 3))) — e.g. whether two kinds of
    player rank rule sets alike.  Noise in both series pulls rho towards 0."""
    import pandas as pd
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
