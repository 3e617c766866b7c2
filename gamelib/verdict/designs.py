"""Other ways to decide the same claim: sequential designs that are not anytime-valid, each
cheaper than the confidence sequences of :mod:`gamelib.verdict.sequential` where it is valid.

Every design here decides the claim "every stream's mean lies inside its band" on the inputs of
:func:`gamelib.verdict.sequential.decide_many` — per-deal values in [0, 1] of shape
(stream, run, deal), one band a stream, α, β and the look schedule a run may take (ending at
its budget) — and returns the same arrays, so the designs are interchangeable
(:func:`decide_design`).  They take two-sided bands only (lo, hi both finite: fair, target,
effect, depends): a design planned in advance needs a point where its β is promised, and a
two-sided band has one, its centre c = (lo + hi) / 2 at distance δ = (hi − lo) / 2 from either
edge.  One-sided claims (stalls, skill, length, changes) have none and stay with ``"cs"``.

The designs (``DESIGNS``):

* ``"cs"`` — today's: the confidence sequences (:mod:`gamelib.verdict.sequential`); every look
  is allowed, the run may stop at any time (a time budget), β holds everywhere inside the band.
* ``"fixed"`` — a fixed-sample TOST (Schuirmann 1987, "A comparison of the two one-sided tests
  procedure and the power approach for assessing the equivalence of average bioavailability",
  J. Pharmacokin. Biopharm. 15(6)) at one look, sized in advance for the centre
  (:func:`planned_deals`, :func:`gamelib.verdict.sequential.fixed_deals`).
* ``"sprt"`` — two one-sided sequential probability ratio tests per stream, Wald's bounds
  (Wald 1945, "Sequential tests of statistical hypotheses", Ann. Math. Statist. 16(2)), with
  fishtest's normal approximation of the log-likelihood ratio on the per-deal values and their
  running variance (the GSPRT fishtest runs on pentanomial game pairs: Van den Bergh, "A
  Generalized Sequential Probability Ratio Test"; Fishtest's ``stat_util``).
* ``"gst"`` / ``"gst-pocock"`` — a group-sequential TOST: per side a one-sided test with an
  efficacy ("inside") and a binding futility ("fails") boundary from error-spending functions
  (Lan and DeMets 1983, "Discrete sequential boundaries for clinical trials", Biometrika 70(3);
  O'Brien–Fleming-type α(t) = 2 − 2Φ(z_{1−α/2} / √t) or Pocock-type α log(1 + (e − 1) t);
  Jennison and Turnbull 2000, "Group Sequential Methods with Applications to Clinical Trials",
  §7.2 and ch. 19), its maximum deals planned so the two boundaries meet at the last look.

What each promises (E: the finite band edges over all streams, 2 a stream here; every design
uses the intersection–union rule for *holds* — every side of every stream must pass at α, no
correction for the number of streams, Berger 1982 — and Bonferroni for *fails*, β / E a side):

* false **holds** ≤ α at any mean outside the band, for every design (each side's test is
  calibrated at the band edge, and a mean further out only makes *holds* rarer).
* false **fails** ≤ β: ``"cs"`` at every mean inside the band; ``"fixed"``, ``"sprt"`` and
  ``"gst"`` **only at the centre** c.  They plan for c and must answer by their last look, so
  inside the band but away from c (the indifference zone, fishtest's space between elo0 and
  elo1) false *fails* rise towards 1 − α as the mean nears an edge: at c ± δ/2 the SPRT's is
  about one half.  Where ``"cs"`` would say *undecided* they say *fails*.
* the guarantees are normal approximations (the z statistic, the SPRT's Gaussian likelihood
  ratio, Wald's bounds ignoring overshoot); ``"cs"``'s are exact for values in [0, 1].
* The spread a planned size needs is taken as √(c (1 − c)), the largest a value in [0, 1] with
  mean c can have, so ``"fixed"`` and ``"gst"`` are sized safely for any game and oversized for
  paired differences (compare's effect), whose spread is far smaller; ``"sprt"`` and ``"cs"``
  estimate the spread as they go.

A time budget.  Cutting a planned design short does not break its error rates (a decision
already reached keeps them; a run stopped before its last planned look is undecided), but a
clock stops the run at whatever look it allows, where ``"fixed"`` and ``"gst"`` have nothing to
say and the SPRT has spent deals on a decision it may not reach; so
:func:`gamelib.verdict.verdict` and :func:`gamelib.verdict.compare.compare` refuse a time budget
with any design but ``"cs"``, the design whose bounds mean something at every look.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence

import numpy as np

from gamelib.verdict.sequential import (
    FAILS,
    HOLDS,
    UNDECIDED,
    Band,
    StreamDecision,
    decide_many,
    decide_streams,
    fixed_deals,
)

__all__ = [
    "DESIGNS",
    "check_design",
    "decide_design",
    "decide_streams_with",
    "design_looks",
    "gst_boundaries",
    "planned_deals",
    "two_sided",
]

#: the designs by name; ``"cs"`` (the confidence sequences) is the default everywhere
DESIGNS = ("cs", "fixed", "sprt", "gst", "gst-pocock")

#: grid points a look's continuation region is integrated on (Jennison and Turnbull ch. 19)
GRID = 401
SQRT_2PI = math.sqrt(2 * math.pi)


def check_design(design: object) -> str:
    """The design's name, or a one-line ``ValueError`` naming the known ones."""
    if not isinstance(design, str) or design not in DESIGNS:
        raise ValueError(f"unknown design {design!r}; known: {', '.join(DESIGNS)}")
    return design


def two_sided(bands: Sequence[Band]) -> bool:
    """Whether every band has two finite edges (the designs other than ``"cs"`` need them)."""
    return all(b.edges == 2 for b in bands)


def _plan_sd(band: Band) -> float:
    c = (band.lo + band.hi) / 2
    return math.sqrt(max(c * (1 - c), 1e-6))


def _half(band: Band) -> float:
    return (band.hi - band.lo) / 2


def _check(bands: Sequence[Band], alpha: float, beta: float) -> int:
    for name, value in (("alpha", alpha), ("beta", beta)):
        if not 0 < value < 0.5:
            raise ValueError(f"{name} must lie in (0, 0.5), got {value}")
    if not bands:
        raise ValueError("a decision needs at least one stream")
    if not two_sided(bands):
        raise ValueError(
            "the designs other than 'cs' decide two-sided bands (lo and hi finite); "
            "a one-sided claim has no centre to plan for"
        )
    return sum(b.edges for b in bands)


def planned_deals(design: str, bands: Sequence[Band], alpha: float, beta: float) -> int | None:
    """The deals ``design`` plans before it plays: the fixed TOST's size, the group-sequential
    design's maximum (its looks are the run's below it, then it); ``None`` for the open-ended
    designs (``"cs"``, ``"sprt"``).

    The fixed size is (z_{1−α} + z_{1−β/E})² σ² / δ² (E: band edges over all streams, σ the
    planned spread √(c (1 − c)), the largest stream's) — the TOST of
    :func:`gamelib.verdict.sequential.fixed_deals` with β split over the edges."""
    check_design(design)
    if design in ("cs", "sprt"):
        return None
    edges = _check(bands, alpha, beta)
    fixed = max(fixed_deals(_plan_sd(b), _half(b), alpha, 2 * beta / edges) for b in bands)
    if design == "fixed":
        return fixed
    raise ValueError("the group-sequential maximum depends on the looks: see design_looks")


def design_looks(
    design: str, bands: Sequence[Band], alpha: float, beta: float, looks: Sequence[int]
) -> list[int]:
    """The deal counts at which ``design`` looks, given the looks a run may take (``looks``,
    ending at its budget): every one for ``"cs"`` and ``"sprt"``; the planned size (or the
    budget, if smaller) for ``"fixed"``; for ``"gst"`` the run's looks below its planned
    maximum, then the maximum (all the run's looks if the budget is smaller)."""
    check_design(design)
    looks = [int(n) for n in looks]
    if not looks or looks != sorted(set(looks)) or looks[0] < 1:
        raise ValueError(f"looks must be increasing deal counts ≥ 1, got {looks}")
    if design in ("cs", "sprt"):
        return looks
    if design == "fixed":
        n = planned_deals(design, bands, alpha, beta)
        assert n is not None
        return [min(n, looks[-1])]
    n_max = _gst_max(tuple(bands), alpha, beta, tuple(looks), design)
    if n_max >= looks[-1]:
        return looks
    return [n for n in looks if n < n_max] + [n_max]


# --- group-sequential boundaries ------------------------------------------------------------------


def _spending(kind: str) -> Callable[[float, float], float]:
    from scipy.stats import norm

    if kind == "obf":  # O'Brien–Fleming-type (Lan and DeMets 1983)
        return lambda t, e: 0.0 if t <= 0 else float(2 * norm.sf(norm.isf(e / 2) / math.sqrt(t)))
    return lambda t, e: e * math.log1p((math.e - 1) * min(t, 1.0))  # Pocock-type


@functools.lru_cache(maxsize=256)
def gst_boundaries(
    fractions: tuple[float, ...], alpha: float, beta: float, spending: str = "obf"
) -> tuple[tuple[float, ...], tuple[float, ...], float]:
    """One side's group-sequential boundaries on the z scale at the information ``fractions``
    (increasing, the last 1): ``(efficacy, futility, drift)``.

    The test: H0 the mean on the band edge (z has mean 0) against the design point at the
    centre (z has mean ``drift`` · √t).  At look j the side passes when z ≥ efficacy[j] and
    fails when z ≤ futility[j] (binding); P_H0(pass by look j) = α(t_j) and P_design(fail by
    look j) = β(t_j) with the spending function ``spending`` ("obf": O'Brien–Fleming-type,
    "pocock": Pocock-type; Lan and DeMets 1983), computed by recursive numerical integration
    (Armitage, McPherson and Rowe 1969; Jennison and Turnbull 2000, ch. 19).  ``drift`` is
    found so the boundaries meet at the last look: the maximum deals are drift² σ² / δ²."""
    from scipy.optimize import brentq
    from scipy.stats import norm

    t = np.asarray(fractions, dtype=float)
    if len(t) == 0 or np.any(np.diff(t) <= 0) or t[0] <= 0 or abs(t[-1] - 1) > 1e-12:
        raise ValueError(f"fractions must increase to 1, got {fractions}")
    spend = _spending(spending)

    def run(theta: float) -> tuple[list[float], list[float]]:
        eff: list[float] = []
        fut: list[float] = []
        grid = np.zeros(1)
        f0 = f1 = np.ones(1)  # sub-densities (times quadrature weights) under H0 and H1
        prev = 0.0
        for j, tj in enumerate(t):
            dt = tj - prev
            sd = math.sqrt(dt)

            last = j == len(t) - 1
            da = (alpha if last else spend(tj, alpha)) - spend(prev, alpha)
            db = (beta if last else spend(tj, beta)) - spend(prev, beta)
            reach = 10.0 * math.sqrt(tj) + abs(theta) * tj  # 10 sd: nothing lies beyond
            # under H0 the side passes above a_w with probability da; under the design point
            # it fails below b_w with probability db (W_j = grid + N(drift dt, dt))
            a_w = _quantile(f0, grid, sd, da, reach, upper=True)
            b_w = _quantile(f1, grid + theta * dt, sd, db, reach, upper=False)
            eff.append(a_w / math.sqrt(tj))
            fut.append(b_w / math.sqrt(tj))
            if j == len(t) - 1 or b_w >= a_w:
                break
            new = np.linspace(b_w, a_w, GRID)
            w = np.full(GRID, (a_w - b_w) / (GRID - 1))
            w[0] = w[-1] = w[0] / 2  # trapezoid weights
            step = new[:, None] - grid[None, :]
            g0 = np.exp(-0.5 * (step / sd) ** 2) @ f0 / (sd * SQRT_2PI)
            g1 = np.exp(-0.5 * ((step - theta * dt) / sd) ** 2) @ f1 / (sd * SQRT_2PI)
            grid, f0, f1 = new, g0 * w, g1 * w
            prev = tj
        return eff, fut

    z = float(norm.isf(alpha) + norm.isf(beta))

    def gap(theta: float) -> float:
        eff, fut = run(theta)
        if len(eff) < len(t):  # stopped early: the drift is more than enough
            return -1.0
        return eff[-1] - fut[-1]

    theta = brentq(gap, 0.5 * z, 3.0 * z, xtol=1e-6)
    eff, fut = run(theta)
    # where the boundaries meet (the last look, or one before it) a side must decide: the
    # larger of the two (α kept, β a hair over its share if they crossed early)
    meet = max(eff[-1], fut[-1])
    eff[-1] = fut[-1] = meet
    while len(eff) < len(t):
        eff.append(meet)
        fut.append(meet)
    return tuple(eff), tuple(fut), theta


def _quantile(
    f: np.ndarray, grid: np.ndarray, sd: float, mass: float, reach: float, upper: bool
) -> float:
    """The c with P(grid + N(0, sd²) ≥ c) = ``mass`` (``upper``; else ≤ c) under the
    sub-density ``f`` on ``grid``; ±``reach`` when no c in between carries that mass."""
    from scipy.optimize import brentq
    from scipy.special import ndtr

    def tail(c: float) -> float:
        z = (grid - c) / sd if upper else (c - grid) / sd
        return float(f @ ndtr(z)) - mass

    far = -reach if upper else reach  # where the whole sub-density lies on the tail's side
    if tail(far) <= 0:  # everything still running is in the tail
        return far
    if mass <= 1e-15:
        return -far
    return float(brentq(tail, -reach, reach))


def _gst_kind(design: str) -> str:
    return "pocock" if design == "gst-pocock" else "obf"


@functools.lru_cache(maxsize=256)
def _gst_max(
    bands: tuple[Band, ...], alpha: float, beta: float, looks: tuple[int, ...], design: str
) -> int:
    """The group-sequential maximum: drift² σ² / δ² for its own looks (the run's looks below
    it, then it), found by iterating from the fixed size (a look entering or leaving moves the
    drift a little)."""
    edges = _check(bands, alpha, beta)
    scale = max(_plan_sd(b) ** 2 / _half(b) ** 2 for b in bands)
    n = max(1, math.ceil(scale * (_z(alpha) + _z(beta / edges)) ** 2))
    seen: list[int] = []
    for _ in range(30):
        own = [x for x in looks if x < n] + [n]
        *_, theta = gst_boundaries(
            tuple(x / n for x in own), alpha, beta / edges, _gst_kind(design)
        )
        new = max(1, math.ceil(scale * theta**2))
        if new == n or new in seen:
            return max(new, n)
        seen.append(n)
        n = new
    return n


def _z(p: float) -> float:
    from scipy.stats import norm

    return float(norm.isf(p))


# --- the decision ---------------------------------------------------------------------------------


def decide_design(
    x: np.ndarray,
    bands: Sequence[Band],
    alpha: float,
    beta: float,
    looks: Sequence[int],
    design: str = "cs",
) -> dict[str, np.ndarray]:
    """Decide "every stream's mean lies inside its band" with ``design`` (see the module
    docstring), on the inputs of :func:`gamelib.verdict.sequential.decide_many`: ``x`` of shape
    (stream, run, deal) with values in [0, 1], one band a stream, and ``looks`` the deal counts
    a run may look at, ending at its budget.  ``x`` may hold fewer deals than the budget (a run
    in progress): the design's looks up to what ``x`` holds are taken, and a run not decided by
    them is undecided so far.  Returns :func:`~gamelib.verdict.sequential.decide_many`'s
    arrays (``look`` indexes the design's own looks, :func:`design_looks`)."""
    check_design(design)
    x = np.asarray(x, dtype=float)
    if x.ndim != 3 or x.shape[0] != len(bands):
        raise ValueError(f"x must have shape (stream, run, deal) with {len(bands)} streams")
    if design == "cs":
        return decide_many(x, bands, alpha, beta, looks)
    edges = _check(bands, alpha, beta)
    if x.size and (np.nanmin(x) < 0 or np.nanmax(x) > 1):
        raise ValueError("stream values must lie in [0, 1]")
    own = design_looks(design, bands, alpha, beta, looks)
    budget = int(looks[-1])
    taken = [n for n in own if n <= x.shape[-1]]
    runs = x.shape[1]
    lo = np.asarray([b.lo for b in bands])[:, None, None]
    hi = np.asarray([b.hi for b in bands])[:, None, None]
    centre, half = (lo + hi) / 2, (hi - lo) / 2
    plan_var = np.asarray([_plan_sd(b) ** 2 for b in bands])[:, None, None]
    at = np.asarray(taken if taken else [max(1, min(x.shape[-1], own[0]))])
    n = at.astype(float)[None, None, :]
    s1 = np.cumsum(x, axis=-1)[..., at - 1]
    s2 = np.cumsum(x * x, axis=-1)[..., at - 1]
    mean = s1 / n
    # the running variance, with one pseudo-deal at the planned spread so it is never 0
    var = (plan_var + np.maximum(s2 - n * mean**2, 0.0)) / n
    se = np.sqrt(var / n)
    z_lo, z_hi = (mean - lo) / se, (hi - mean) / se  # each side: > 0 inside

    if not taken:
        held = np.zeros((runs, len(at)), dtype=bool)
        out = np.zeros((runs, len(at)), dtype=bool)
    elif design == "fixed":
        za = _z(alpha)
        inside = (z_lo > za) & (z_hi > za)
        held = np.asarray(inside.all(axis=0))
        planned = planned_deals(design, bands, alpha, beta)
        out = ~held if planned is not None and planned <= budget else np.zeros_like(held)
    else:
        if design == "sprt":
            # Wald's bounds; the log-likelihood ratio of the centre against each edge, normal
            # with the running variance (fishtest's GSPRT): n δ (2 x̄ − edge − c) / (2 σ̂²)
            b_pass = math.log((1 - beta / edges) / alpha)
            b_fail = math.log((beta / edges) / (1 - alpha))
            llr_lo = n * half * (2 * mean - lo - centre) / (2 * var)
            llr_hi = n * half * (hi + centre - 2 * mean) / (2 * var)
            pass_lo, fail_lo = llr_lo >= b_pass, llr_lo <= b_fail
            pass_hi, fail_hi = llr_hi >= b_pass, llr_hi <= b_fail
        else:
            n_max = _gst_max(tuple(bands), alpha, beta, tuple(int(k) for k in looks), design)
            fr = tuple(k / n_max for k in own)
            kind = _gst_kind(design)
            # cut short by the budget: the full design's boundaries at the looks allowed, the
            # last without a forced decision (undecided unless a boundary is crossed)
            whole = fr if own[-1] == n_max else (*fr, 1.0)
            eff, fut, _ = gst_boundaries(whole, alpha, beta / edges, kind)
            e = np.asarray(eff[: len(at)])[None, None, :]
            f = np.asarray(fut[: len(at)])[None, None, :]
            pass_lo, fail_lo = z_lo >= e, z_lo <= f
            pass_hi, fail_hi = z_hi >= e, z_hi <= f
        # a side that passes stops there (frozen); fails count only before a side passed
        side_pass = [np.maximum.accumulate(p, axis=-1) for p in (pass_lo, pass_hi)]
        side_fail = [f & ~p for f, p in zip((fail_lo, fail_hi), side_pass, strict=True)]
        held = np.asarray((side_pass[0] & side_pass[1]).all(axis=0))
        out = np.maximum.accumulate((side_fail[0] | side_fail[1]).any(axis=0), axis=-1)
    decided = held | out
    first = np.where(decided.any(axis=1), decided.argmax(axis=1), -1)
    stop = np.where(first >= 0, first, len(at) - 1)
    r = np.arange(runs)
    fails_first = out[r, stop] & (first >= 0)
    decision = np.where(first < 0, UNDECIDED, np.where(fails_first, FAILS, HOLDS)).astype(object)
    za, zb = _z(alpha), _z(beta / edges)
    m = mean[:, r, stop]
    s = se[:, r, stop]
    return {
        "decision": decision,
        "look": first,
        "deals": at[stop] if taken else np.full(runs, 0),
        "mean": m,
        "lo": np.clip(m - za * s, 0.0, 1.0),
        "hi": np.clip(m + za * s, 0.0, 1.0),
        "lo_fail": np.clip(m - zb * s, 0.0, 1.0),
        "hi_fail": np.clip(m + zb * s, 0.0, 1.0),
    }


def decide_streams_with(
    design: str,
    streams: Sequence[np.ndarray],
    bands: Sequence[Band],
    alpha: float,
    beta: float,
    looks: Sequence[int],
) -> StreamDecision:
    """:func:`gamelib.verdict.sequential.decide_streams` under ``design``: 1-D streams of one
    run, ``looks`` the deal counts the run may look at, ending at its budget (under ``"cs"``
    the streams must hold them all; under the others they may hold fewer, a run in
    progress)."""
    check_design(design)
    if len(streams) != len(bands):
        raise ValueError(f"{len(streams)} streams but {len(bands)} bands")
    if design == "cs":
        return decide_streams(streams, bands, alpha, beta, looks)
    x = np.stack([np.asarray(s, dtype=float) for s in streams])
    if x.ndim != 2:
        raise ValueError("decide_streams_with takes 1-D streams; use decide_design for many runs")
    res = decide_design(x[:, None, :], bands, alpha, beta, looks, design)
    k = int(res["look"][0])
    return StreamDecision(
        decision=str(res["decision"][0]),
        deals=int(res["deals"][0]),
        look=None if k < 0 else k,
        mean=res["mean"][:, 0],
        lo=res["lo"][:, 0],
        hi=res["hi"][:, 0],
        lo_fail=res["lo_fail"][:, 0],
        hi_fail=res["hi_fail"][:, 0],
        bands=list(bands),
    )
