"""Calibration of the verdict's statistical core on synthetic deal streams (no games played):
at the margin the false-"holds" rate stays within α, in the middle the false-"fails" rate
within β, with deals whose two games are correlated (a deal played from both seats)."""

import numpy as np
import pytest

from gamelib.verdict.sequential import Band, bounds, decide_many, fixed_deals, look_schedule

RUNS = 1000
ALPHA = BETA = 0.05
DELTA = 0.03


def paired_deals(p: float, runs: int, deals: int, seed: int) -> np.ndarray:
    """Seat 0's share over a deal's two games; half the time the second game repeats the first
    (the deal decides it), so deals are correlated inside, independent across."""
    rng = np.random.default_rng(seed)
    g1 = (rng.random((runs, deals)) < p).astype(float)
    same = rng.random((runs, deals)) < 0.5
    g2 = np.where(same, g1, (rng.random((runs, deals)) < p).astype(float))
    return (g1 + g2) / 2


def simulation_error(rate: float, n: int = RUNS) -> float:
    return 3 * (max(rate, 0.01) * (1 - rate) / n) ** 0.5


def rates(p: float, seed: int, band: Band, deals: int = 6000):
    x = paired_deals(p, RUNS, deals, seed)[None]
    dec = decide_many(x, [band], ALPHA, BETA, look_schedule(deals))["decision"]
    return {k: float((dec == k).mean()) for k in ("holds", "fails", "undecided")}


@pytest.mark.parametrize("p", [0.5 + DELTA, 0.5 - DELTA, 0.5 + 1.5 * DELTA])
def test_unfair_streams_are_rarely_called_fair(p):
    r = rates(p, seed=int(p * 1000), band=Band(0.5 - DELTA, 0.5 + DELTA))
    assert r["holds"] <= ALPHA + simulation_error(ALPHA)


@pytest.mark.parametrize("p", [0.5, 0.5 + DELTA / 2])
def test_fair_streams_are_rarely_called_unfair(p):
    r = rates(p, seed=7 + int(p * 1000), band=Band(0.5 - DELTA, 0.5 + DELTA))
    assert r["fails"] <= BETA + simulation_error(BETA)


def test_clear_cases_decide_early_and_correctly():
    band = Band(0.5 - DELTA, 0.5 + DELTA)
    x = paired_deals(0.62, RUNS, 2000, 3)[None]
    res = decide_many(x, [band], ALPHA, BETA, look_schedule(2000))
    assert (res["decision"] == "fails").mean() > 0.99
    assert np.median(res["deals"]) < 500
    x = paired_deals(0.5, 200, 12000, 4)[None]
    res = decide_many(x, [band], ALPHA, BETA, look_schedule(12000))
    assert (res["decision"] == "holds").mean() > 0.9


def test_one_sided_claim_and_many_streams():
    # a stall ceiling: a rate of 0.10 against a ceiling of 0.10 is never called "below"
    rng = np.random.default_rng(5)
    x = (rng.random((1, RUNS, 4000)) < 0.10).astype(float)
    res = decide_many(x, [Band(hi=0.10)], ALPHA, BETA, look_schedule(4000))
    assert (res["decision"] == "holds").mean() <= ALPHA + simulation_error(ALPHA)
    # four seats, all fair: fails stays within β across the seats
    seats = (rng.random((4, RUNS, 3000)) < 0.25).astype(float)
    band = Band(0.25 - DELTA, 0.25 + DELTA)
    res = decide_many(seats, [band] * 4, ALPHA, BETA, look_schedule(3000))
    assert (res["decision"] == "fails").mean() <= BETA + simulation_error(BETA)


def test_bounds_cover_the_mean_at_every_time():
    rng = np.random.default_rng(9)
    x = (rng.random((2000, 3000)) < 0.3).astype(float)
    _, lo, hi = bounds(x, 0.05)
    assert ((lo > 0.3).any(axis=1)).mean() <= 0.05 + simulation_error(0.05, 2000)
    assert ((hi < 0.3).any(axis=1)).mean() <= 0.05 + simulation_error(0.05, 2000)
    # tuned to edges just either side of the truth (the tightest tuning), still at every time
    _, lo, hi = bounds(x, 0.05, edges=(0.28, 0.32))
    assert ((lo > 0.3).any(axis=1)).mean() <= 0.05 + simulation_error(0.05, 2000)
    assert ((hi < 0.3).any(axis=1)).mean() <= 0.05 + simulation_error(0.05, 2000)
    with pytest.raises(ValueError, match="lie in"):
        bounds(np.array([0.2, 1.5]), 0.05)


def test_fixed_size_baseline():
    # TOST at an even game: (z_0.95 + z_0.975)² · 0.25 / 0.03² = 3,610 deals
    assert fixed_deals(0.5, 0.03, 0.05, 0.05) == 3610
    # beyond the margin a one-sided test; nearer the margin needs more deals
    assert fixed_deals(0.5, 0.03, 0.05, 0.05, edge=0.06) < fixed_deals(0.5, 0.03, 0.05, 0.05, 0.045)
    with pytest.raises(ValueError, match="on the margin"):
        fixed_deals(0.5, 0.03, 0.05, 0.05, edge=0.03)
