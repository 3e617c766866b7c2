"""The statistical core of a verdict: anytime-valid bounds on a mean and the sequential decision
they give, on plain arrays of per-deal outcomes (no games are played here).

Method.  Each question watches one or more *streams*: one number in [0, 1] per deal (seat 0's
share of the points over the deal's games, whether the deal stalled, …), independent from deal
to deal because every deal is a fresh shuffle.  For each stream the predictable plug-in
empirical-Bernstein confidence sequence of Waudby-Smith and Ramdas (2023, "Estimating means of
bounded random variables by betting", JRSS-B 86(1), Theorem 2 and eq. (13)) gives a lower and an
upper bound on the stream's mean that hold *at every deal count at once* with the stated error
(Ville's inequality on the nonnegative supermartingale prod exp(λ_i (X_i − μ) − v_i ψ_E(λ_i))).
So the bounds may be looked at after every batch and the run stopped the first time they decide,
with no penalty for the looks: optional stopping is what the sequence is built for (Howard,
Ramdas, McAuliffe and Sekhon 2021, "Time-uniform, nonparametric, nonasymptotic confidence
sequences", Ann. Statist. 49(2)).  The running intersection of the bounds is used (still valid).

Decision.  A question is a claim that every stream's mean lies inside its *band* (L, U) — fair:
seat shares inside fair share ± δ; stalls: the stall rate below a ceiling (L = −∞); skill: a
share above fair share + margin (U = +∞).

* **holds** the first time every stream's one-sided lower bound (error α) is above L and its
  upper bound (error α) below U.  If the claim is false some stream's mean lies outside its band,
  and "holds" needs that stream's bound on that side to be wrong: probability ≤ α, with no
  correction for the number of streams (an intersection–union test, Berger 1982, "Multiparameter
  hypothesis testing and acceptance sampling", Technometrics 24(4)) — the same reason the two
  one-sided tests of TOST (Schuirmann 1987) each run at α.
* **fails** the first time some stream's bounds at error β / (number of finite band edges over
  all streams) lie wholly outside its band.  If the claim is true, that needs one of those bounds
  to be wrong: probability ≤ β by Bonferroni's inequality.
* **undecided** when the budget runs out first.

The two rules cannot both fire on one stream (both intervals contain the running mean), and the
guarantees hold whatever the true means are, including at the margin itself — where the honest
answer is "undecided" and a fixed-size test would flip with the seed.  Fishtest's SPRT on game
pairs (pentanomial model) is the model for the deal as the unit: a deal played from every seat
is one observation, its seats averaged, so the pairing's variance reduction is kept.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

__all__ = [
    "FAILS",
    "HOLDS",
    "UNDECIDED",
    "Band",
    "StreamDecision",
    "bounds",
    "decide_streams",
    "fixed_deals",
    "look_schedule",
]

HOLDS, FAILS, UNDECIDED = "holds", "fails", "undecided"

#: the cap on the betting fraction λ (the paper's c; 1/2 keeps ψ_E small)
LAMBDA_CAP = 0.5


@dataclass(frozen=True)
class Band:
    """The claim on one stream: its mean lies strictly between ``lo`` and ``hi`` (either may be
    infinite for a one-sided claim)."""

    lo: float = -math.inf
    hi: float = math.inf

    def __post_init__(self) -> None:
        if not self.lo < self.hi:
            raise ValueError(f"a band needs lo < hi, got ({self.lo}, {self.hi})")

    @property
    def edges(self) -> int:
        """How many finite edges the band has (1 or 2): a fail can cross each."""
        return int(math.isfinite(self.lo)) + int(math.isfinite(self.hi))


def bounds(
    x: np.ndarray, error: float, edges: Sequence[float] = ()
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Running mean and one-sided anytime-valid lower and upper bounds on the mean of ``x``.

    ``x``: values in [0, 1], the last axis is time (leading axes are independent streams, e.g.
    many simulated runs at once).  Returns ``(mean, lower, upper)`` of ``x``'s shape: at every
    t, the mean of the first t values and the predictable plug-in empirical-Bernstein bounds
    (Waudby-Smith and Ramdas 2023, eq. (13), one-sided at ``error``) with their running
    intersection, so P(lower ever exceeds the true mean) ≤ ``error`` and likewise for upper.

    Betting fractions.  Any predictable λ_t keeps the guarantee; the choice only moves where the
    bounds are tight.  Without ``edges``, the paper's λ_t = sqrt(2 log(1/error) / (σ̂²_{t−1}
    t log(1 + t))).  With ``edges`` (the band edges the bounds will be compared with), each
    side tunes λ for the sample size at which it would reach the nearest edge on its side, as
    the paper tunes λ for a sample size of interest: λ_t = sqrt(2 log(1/error) / (σ̂²_{t−1}
    max(t, n*_t))) with n*_t = 2 · 2 log(1/error) σ̂²_{t−1} / gap²_{t−1}, the gap measured from
    the previous running mean (so λ stays predictable).  Near a margin this halves the deals a
    decision needs (``make bench``: 10.7k → about 5k for an even game at δ = 0.03).
    """
    if not 0 < error < 1:
        raise ValueError(f"error must lie in (0, 1), got {error}")
    x = np.asarray(x, dtype=float)
    if x.size and (np.nanmin(x) < 0 or np.nanmax(x) > 1):
        raise ValueError("stream values must lie in [0, 1]")
    t = np.arange(1, x.shape[-1] + 1, dtype=float)
    log_e = math.log(1 / error)
    # regularised running mean and variance (the paper's μ̂_t and σ̂²_t, with 1/2 and 1/4 priors)
    mu_reg = (0.5 + np.cumsum(x, axis=-1)) / (t + 1)
    mu_prev = np.concatenate([np.full((*x.shape[:-1], 1), 0.5), mu_reg[..., :-1]], axis=-1)
    var_reg = (0.25 + np.cumsum((x - mu_reg) ** 2, axis=-1)) / (t + 1)
    var_prev = np.concatenate([np.full((*x.shape[:-1], 1), 0.25), var_reg[..., :-1]], axis=-1)
    v = 4 * (x - mu_prev) ** 2
    finite = [float(e) for e in edges if math.isfinite(e)]

    def side(sign: int) -> np.ndarray:
        horizon = t * np.log1p(t)
        if finite:
            gap = np.full(x.shape, np.inf)
            for e in finite:
                g = sign * (mu_prev - e)  # how far the bound on this side has to travel
                gap = np.where(g > 0, np.minimum(gap, g), gap)
            target = 4 * log_e * var_prev / np.maximum(gap, 1e-6) ** 2
            horizon = np.where(np.isinf(gap), horizon, np.maximum(t, np.minimum(target, 1e9)))
        lam = np.minimum(np.sqrt(2 * log_e / (var_prev * horizon)), LAMBDA_CAP)
        psi = (-np.log1p(-lam) - lam) / 4
        sum_lam = np.cumsum(lam, axis=-1)
        centre = np.cumsum(lam * x, axis=-1) / sum_lam
        half = (log_e + np.cumsum(v * psi, axis=-1)) / sum_lam
        if sign > 0:
            return np.maximum.accumulate(np.clip(centre - half, 0.0, 1.0), axis=-1)
        return np.minimum.accumulate(np.clip(centre + half, 0.0, 1.0), axis=-1)

    lower, upper = side(+1), side(-1)
    mean = np.cumsum(x, axis=-1) / t
    return mean, lower, upper


def look_schedule(max_deals: int, first: int = 50, growth: float = 1.25) -> list[int]:
    """The deal counts after which a verdict looks at its bounds: ``first``, then growing by
    ``growth`` each batch (so a run overshoots its decision by at most that factor), ending
    exactly at the budget ``max_deals``."""
    if max_deals < 1:
        raise ValueError(f"the budget must allow at least one deal, got {max_deals}")
    if first < 1 or growth <= 1:
        raise ValueError("first must be ≥ 1 and growth > 1")
    looks = []
    n = min(first, max_deals)
    while n < max_deals:
        looks.append(n)
        n = max(n + 1, math.ceil(n * growth))
    looks.append(max_deals)
    return looks


@dataclass
class StreamDecision:
    """A decision on streams at the looks: which look decided (``look``, an index into the
    looks; ``None`` if none did), the decision word, and per stream the running mean and the
    bounds at error α (``lo``/``hi``) and at the split β (``lo_fail``/``hi_fail``) when it
    stopped."""

    decision: str
    deals: int
    look: int | None
    mean: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    lo_fail: np.ndarray
    hi_fail: np.ndarray
    bands: list[Band] = field(default_factory=list)

    def more_deals(self) -> float | None:
        """For an undecided run: about how many more deals would decide if the estimates and
        their spread stay as they are (the bounds' width shrinks like 1/sqrt(deals)); ``None``
        when an estimate sits on its band's edge (no number of deals decides it)."""
        if self.decision != UNDECIDED or self.deals == 0:
            return 0.0 if self.decision != UNDECIDED else None
        needs: list[float] = []
        fail_needs: list[float] = []
        for k, band in enumerate(self.bands):
            m = float(self.mean[k])
            width = max(float(self.hi[k] - self.lo[k]) / 2, 1e-12)
            width_f = max(float(self.hi_fail[k] - self.lo_fail[k]) / 2, 1e-12)
            if band.lo < m < band.hi:
                gap = min(m - band.lo, band.hi - m)
                needs.append(self.deals * (width / gap) ** 2)
            else:
                gap = max(band.lo - m, m - band.hi)
                if gap <= 0:
                    return None
                fail_needs.append(self.deals * (width_f / gap) ** 2)
        total = min(fail_needs) if fail_needs else max(needs)
        # undecided now, so at least one more deal: the 1/sqrt scaling can put the decision at
        # or before the deals already played when the bounds lag the estimate
        return max(1.0, total - self.deals)


def _stack(streams: Sequence[np.ndarray]) -> np.ndarray:
    arrays = [np.asarray(s, dtype=float) for s in streams]
    if not arrays:
        raise ValueError("a decision needs at least one stream")
    shape = arrays[0].shape
    if any(a.shape != shape for a in arrays):
        raise ValueError("every stream of a decision must have the same length")
    return np.stack(arrays)  # (stream, ..., time)


def decide_streams(
    streams: Sequence[np.ndarray],
    bands: Sequence[Band],
    alpha: float,
    beta: float,
    looks: Sequence[int],
) -> StreamDecision:
    """Decide the claim "every stream's mean lies inside its band" at the first look that
    decides (see the module docstring); ``streams`` are 1-D arrays of per-deal values in [0, 1]
    at least ``looks[-1]`` long (extra values are ignored)."""
    if len(streams) != len(bands):
        raise ValueError(f"{len(streams)} streams but {len(bands)} bands")
    x = _stack(streams)
    if x.ndim != 2:
        raise ValueError("decide_streams takes 1-D streams; use decide_many for many runs")
    res = decide_many(x[:, None, :], bands, alpha, beta, looks)
    k = int(res["look"][0])
    look = None if k < 0 else k
    deals = int(res["deals"][0])
    return StreamDecision(
        decision=str(res["decision"][0]),
        deals=deals,
        look=look,
        mean=res["mean"][:, 0],
        lo=res["lo"][:, 0],
        hi=res["hi"][:, 0],
        lo_fail=res["lo_fail"][:, 0],
        hi_fail=res["hi_fail"][:, 0],
        bands=list(bands),
    )


def decide_many(
    x: np.ndarray, bands: Sequence[Band], alpha: float, beta: float, looks: Sequence[int]
) -> dict[str, np.ndarray]:
    """:func:`decide_streams` for many runs at once (the calibration tests' engine): ``x`` has
    shape (stream, run, deal).  Returns arrays over runs: ``decision`` (str), ``look`` (−1 if
    undecided), ``deals`` used; and (stream, run) arrays ``mean``, ``lo``, ``hi``,
    ``lo_fail``, ``hi_fail`` at the deal count where each run stopped."""
    for name, value in (("alpha", alpha), ("beta", beta)):
        if not 0 < value < 1:
            raise ValueError(f"{name} must lie in (0, 1), got {value}")
    looks = [int(n) for n in looks]
    if not looks or looks != sorted(set(looks)) or looks[0] < 1:
        raise ValueError(f"looks must be increasing deal counts ≥ 1, got {looks}")
    if x.shape[-1] < looks[-1]:
        raise ValueError(f"the streams hold {x.shape[-1]} deals, the last look is {looks[-1]}")
    x = x[..., : looks[-1]]
    n_edges = sum(b.edges for b in bands)
    beta_each = beta / n_edges
    at = np.asarray(looks) - 1
    parts = []
    for k, band in enumerate(bands):  # each stream's bounds tuned to its own band's edges
        edges = (band.lo, band.hi)
        m, lo_k, hi_k = bounds(x[k], alpha, edges)
        _, lof_k, hif_k = bounds(x[k], beta_each, edges) if beta_each != alpha else (m, lo_k, hi_k)
        parts.append([a[..., at] for a in (m, lo_k, hi_k, lof_k, hif_k)])
    mean, lo, hi, lo_f, hi_f = (np.stack([p[i] for p in parts]) for i in range(5))
    blo = np.asarray([b.lo for b in bands])[:, None, None]
    bhi = np.asarray([b.hi for b in bands])[:, None, None]
    holds: np.ndarray = np.asarray(((lo > blo) & (hi < bhi)).all(axis=0))  # (run, look)
    fails: np.ndarray = np.asarray(((hi_f < blo) | (lo_f > bhi)).any(axis=0))
    decided: np.ndarray = holds | fails
    runs = x.shape[1]
    first = np.where(decided.any(axis=1), decided.argmax(axis=1), -1)
    stop = np.where(first >= 0, first, len(looks) - 1)
    r = np.arange(runs)
    decision = np.where(
        first < 0, UNDECIDED, np.where(holds[r, stop] & (first >= 0), HOLDS, FAILS)
    ).astype(object)
    return {
        "decision": decision,
        "look": first,
        "deals": np.asarray(looks)[stop],
        "mean": mean[:, r, stop],
        "lo": lo[:, r, stop],
        "hi": hi[:, r, stop],
        "lo_fail": lo_f[:, r, stop],
        "hi_fail": hi_f[:, r, stop],
    }


def fixed_deals(sd: float, margin: float, alpha: float, beta: float, edge: float = 0.0) -> int:
    """Deals a fixed-size test needs, the baseline the sequential test is compared with in
    ``make bench`` (normal approximation).

    Inside the margin (``|edge| < margin``), an equivalence test (TOST) calling the mean within
    ±``margin`` with error α and missing it at most β of the time:
    n = (z_{1−α} + z_{1−β/2})² sd² / margin² at edge 0 and (z_{1−α} + z_{1−β})² sd² /
    (margin − |edge|)² otherwise (Chow, Shao and Wang 2008, "Sample Size Calculations in
    Clinical Research", §3.2.3).  Beyond it (``|edge| > margin``), a one-sided test calling the
    mean outside the margin with error β and missing that at most α of the time:
    (z_{1−β} + z_{1−α})² sd² / (|edge| − margin)².  On the margin no fixed size decides."""
    from scipy.stats import norm

    gap = abs(abs(edge) - margin)
    if gap == 0:
        raise ValueError(f"the edge {edge} lies on the margin {margin}: no fixed size decides")
    if abs(edge) < margin:
        zb = norm.ppf(1 - beta / 2) if edge == 0 else norm.ppf(1 - beta)
        z = norm.ppf(1 - alpha) + zb
    else:
        z = norm.ppf(1 - beta) + norm.ppf(1 - alpha)
    return math.ceil(float(z * z * sd * sd / gap**2))
