"""The sequential designs of gamelib.verdict.designs: calibration on synthetic deals with a
known truth (false holds within α on the margins, false fails within β at the centre, for one
stream and for four seats whose shares sum to 1), the group-sequential boundaries against a
simulated Brownian motion, one interface with the confidence sequences, and the refusals."""

import numpy as np
import pandas as pd
import pytest

from gamelib.core import ConfigError
from gamelib.registry import get_game
from gamelib.verdict import Fair, Stalls, decide, verdict
from gamelib.verdict.designs import (
    DESIGNS,
    decide_design,
    decide_streams_with,
    design_looks,
    gst_boundaries,
    planned_deals,
)
from gamelib.verdict.sequential import Band, decide_many, decide_streams, look_schedule

ALPHA = BETA = 0.05
DELTA = 0.05
RUNS = 1200
BUDGET = 5000
PLANNED = [d for d in DESIGNS if d != "cs"]


def simulation_error(rate: float, n: int = RUNS) -> float:
    return 3 * (max(rate, 0.01) * (1 - rate) / n) ** 0.5


def deals(seats: int, edge: float, runs: int, seed: int, n: int = BUDGET) -> np.ndarray:
    """(stream, run, deal): two seats, seat 0's points (a Bernoulli draw); more, every seat's
    points with one winner a deal, seat 0 at 1/seats + edge."""
    rng = np.random.default_rng(seed)
    u = rng.random((runs, n))
    if seats == 2:
        return (u < 0.5 + edge)[None].astype(float)
    p = np.full(seats, 1 / seats - edge / (seats - 1))
    p[0] = 1 / seats + edge
    winner = np.searchsorted(np.cumsum(p)[:-1], u, side="right")
    return np.stack([(winner == s).astype(float) for s in range(seats)])


def rates(design: str, seats: int, edge: float, seed: int) -> dict[str, float]:
    band = Band(1 / seats - DELTA, 1 / seats + DELTA)
    bands = [band] if seats == 2 else [band] * seats
    words = []
    for part in range(4):  # four chunks keep the arrays small
        x = deals(seats, edge, RUNS // 4, seed * 10 + part)
        res = decide_design(x, bands, ALPHA, BETA, look_schedule(BUDGET), design)
        words.append(res["decision"])
    w = np.concatenate(words)
    return {k: float((w == k).mean()) for k in ("holds", "fails", "undecided")}


@pytest.mark.parametrize("design", PLANNED)
@pytest.mark.parametrize("seats, edge", [(2, DELTA), (2, -DELTA), (4, DELTA)])
def test_on_the_margin_unfair_games_are_rarely_called_fair(design, seats, edge):
    r = rates(design, seats, edge, seed=seats + int(100 * edge) + len(design))
    assert r["holds"] <= ALPHA + simulation_error(ALPHA)


@pytest.mark.parametrize("design", PLANNED)
@pytest.mark.parametrize("seats", [2, 4])
def test_at_the_centre_fair_games_are_rarely_called_unfair(design, seats):
    r = rates(design, seats, 0.0, seed=50 + seats + len(design))
    assert r["fails"] <= BETA + simulation_error(BETA)
    assert r["undecided"] == 0.0  # the budget is beyond every design's plan: each decides


@pytest.mark.parametrize("design", ["sprt", "gst", "fixed"])
def test_inside_the_band_away_from_the_centre_beta_is_not_promised(design):
    # the indifference zone: halfway to the margin these designs call a fair game unfair far
    # more often than β, where the confidence sequences stay within β (undecided instead)
    assert rates(design, 2, DELTA / 2, seed=77)["fails"] > 4 * BETA
    assert rates("cs", 2, DELTA / 2, seed=77)["fails"] <= BETA + simulation_error(BETA)


def test_clear_cases_stop_early_and_the_designs_cost_less_than_cs_at_the_centre():
    band = Band(0.5 - DELTA, 0.5 + DELTA)
    looks = look_schedule(BUDGET)
    far = deals(2, 4 * DELTA, 300, 5)
    for d in ("sprt", "gst", "gst-pocock"):
        res = decide_design(far, [band], ALPHA, BETA, looks, d)
        assert (res["decision"] == "fails").mean() > 0.99
        assert np.median(res["deals"]) < planned_deals("fixed", [band], ALPHA, BETA) / 2
    even = deals(2, 0.0, 300, 6)
    cs = decide_design(even, [band], ALPHA, BETA, looks, "cs")["deals"].mean()
    for d in PLANNED:
        assert decide_design(even, [band], ALPHA, BETA, looks, d)["deals"].mean() < cs


@pytest.mark.parametrize("spending", ["obf", "pocock"])
def test_group_sequential_boundaries_spend_alpha_and_beta(spending):
    fractions = tuple(np.geomspace(0.05, 1.0, 8))
    eff, fut, drift = gst_boundaries(fractions, ALPHA, BETA / 2, spending)
    assert eff[-1] == fut[-1] and all(f <= e for e, f in zip(eff, fut, strict=True))
    t = np.asarray(fractions)
    dt = np.diff(np.concatenate([[0.0], t]))
    rng = np.random.default_rng(11)
    n = 200_000
    for mean, side, target in ((0.0, "pass", ALPHA), (drift, "fail", BETA / 2)):
        z = np.cumsum(rng.normal(mean * dt, np.sqrt(dt), (n, len(t))), axis=1) / np.sqrt(t)
        up, down = z >= np.asarray(eff), z <= np.asarray(fut)
        first = (up | down).argmax(axis=1)
        hit = up if side == "pass" else down & ~up
        rate = hit[np.arange(n), first].mean()
        assert abs(rate - target) < 4 * (target / n) ** 0.5, (side, rate)
    # more looks, more deals at most: the maximum grows over a fixed size's drift
    assert drift > 1.645 + 1.96
    with pytest.raises(ValueError, match="increase to 1"):
        gst_boundaries((0.5, 0.4, 1.0), ALPHA, BETA)


def test_cs_through_designs_is_the_confidence_sequences():
    band = Band(0.45, 0.55)
    x = deals(2, 0.02, 40, 8, n=2000)
    looks = look_schedule(2000)
    a = decide_design(x, [band], ALPHA, BETA, looks, "cs")
    b = decide_many(x, [band], ALPHA, BETA, looks)
    for k in a:
        assert np.array_equal(a[k], b[k]), k
    one = decide_streams_with("cs", [x[0, 0]], [band], ALPHA, BETA, looks)
    assert one == decide_streams([x[0, 0]], [band], ALPHA, BETA, looks)


@pytest.mark.parametrize("design", PLANNED)
def test_one_run_decides_as_many_do(design):
    band = Band(0.45, 0.55)
    x = deals(2, 0.0, 20, 9, n=3000)
    looks = look_schedule(3000)
    many = decide_design(x, [band], ALPHA, BETA, looks, design)
    for r in range(5):
        one = decide_streams_with(design, [x[0, r]], [band], ALPHA, BETA, looks)
        assert (one.decision, one.deals) == (many["decision"][r], many["deals"][r])
        # a run in progress (fewer deals than the budget) takes the looks it has reached
        cut = decide_streams_with(design, [x[0, r, : one.deals]], [band], ALPHA, BETA, looks)
        assert (cut.decision, cut.deals) == (one.decision, one.deals)
    own = design_looks(design, [band], ALPHA, BETA, looks)
    assert own[-1] <= looks[-1] and own == sorted(set(own))


def stored_table(p: float, n: int, seed: int) -> pd.DataFrame:
    """A two-seat run table of ``n`` deals, seat 0 winning with probability ``p``."""
    win = (np.random.default_rng(seed).random(n) < p).astype(int)
    return pd.DataFrame(
        {
            "deal": np.arange(n),
            "player_0": "a",
            "player_1": "a",
            "winner": 1 - win,
            "n_winners": 1,
            "win_0": win,
            "win_1": 1 - win,
            "reason": "win",
            "turns": 10,
        }
    )


@pytest.mark.parametrize("design", DESIGNS)
def test_decide_on_a_table_is_the_design_on_its_stream(design):
    t = stored_table(0.5, 4000, 12)
    row = decide([t], Fair(0.04), design=design)
    looks = look_schedule(4000)
    x = t["win_0"].to_numpy(dtype=float)[None, None, :]
    res = decide_design(x, [Band(0.46, 0.54)], ALPHA, BETA, looks, design)
    assert (row["decision"], row["deals"], row["design"]) == (
        res["decision"][0],
        res["deals"][0],
        design,
    )
    # a one-sided claim has no centre to plan for: the confidence sequences decide it
    stalls = decide([t], Stalls(0.05), design=design)
    assert stalls["design"] == "cs"
    assert stalls["decision"] == decide([t], Stalls(0.05))["decision"]


def test_a_verdict_and_its_stored_games_say_which_design_decided(tmp_path):
    from gamelib.verdict import redecide

    config = get_game("garner").config("A")
    path = tmp_path / "v.parquet"
    kw = {"seed": 3, "max_games": 3000, "progress": False, "workers": 1}
    v = verdict(config, ["random"], [Fair(0.05), Stalls()], design="gst", out=path, **kw)
    assert list(v["design"]) == ["gst", "cs"]
    assert v.attrs["verdict"]["design"] == "gst"
    fair = v.iloc[0]
    planned = design_looks("gst", [Band(0.45, 0.55)], ALPHA, BETA, look_schedule(3000))
    assert fair["deals"] in planned and fair["decision"] != "undecided"
    pd.testing.assert_frame_equal(v, redecide(path))
    cs = verdict(config, ["random"], [Fair(0.05)], **kw)
    assert cs.iloc[0]["design"] == "cs" and cs.attrs["verdict"]["design"] == "cs"


def test_a_comparison_takes_a_design():
    from gamelib.verdict.compare import Changes, Effect, compare

    dty = get_game("deck_the_yard").config(None)
    t = compare(
        dty,
        get_game("deck_the_yard").config(None, win_threshold=3),
        ["greedy:claim_characters"],
        [Effect("win", 0.03), Changes(0.05)],
        seed=4,
        max_games=4000,
        progress=False,
        workers=1,
        design="sprt",
    )
    assert list(t["design"]) == ["sprt", "cs"] and t.attrs["compare"]["design"] == "sprt"
    assert t.iloc[0]["decision"] == "fails" and t.iloc[0]["estimate"] > 0.03


def test_bad_designs_are_refused_in_one_line():
    config = get_game("garner").config("A")
    for call, message in [
        (lambda: verdict(config, ["greedy"], [Fair()], design="bayes"), "unknown design 'bayes'"),
        (
            lambda: verdict(config, ["greedy"], [Fair()], design="sprt", max_minutes=1.0),
            "design sprt and max_minutes",
        ),
    ]:
        with pytest.raises(ConfigError, match=message) as info:
            call()
        assert "\n" not in str(info.value)
    band = Band(0.45, 0.55)
    x = deals(2, 0.0, 2, 1, n=100)
    for args, message in [
        ((x, [Band(hi=0.1)], ALPHA, BETA, [100], "sprt"), "two-sided"),
        ((x, [band], ALPHA, BETA, [100], "wald"), "unknown design"),
        ((x, [band], 0.7, BETA, [100], "gst"), "alpha"),
        ((x, [band, band], ALPHA, BETA, [100], "fixed"), "2 streams"),
        ((x, [band], ALPHA, BETA, [100, 50], "sprt"), "increasing"),
    ]:
        with pytest.raises(ValueError, match=message) as info:
            decide_design(*args)
        assert "\n" not in str(info.value)


def test_the_command_line_offers_every_design(capsys):
    from gamelib.cli import main
    from gamelib.cli.verdicts import DESIGNS as FLAG_CHOICES

    assert FLAG_CHOICES == DESIGNS
    argv = ["verdict", "garner", "--setup", "A", "--players", "greedy", "--no-progress"]
    assert main([*argv, "--design", "gst", "--max-minutes", "1"]) == 2
    assert "--design gst and --max-minutes" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([*argv, "--design", "nope"])
    assert "invalid choice: 'nope'" in capsys.readouterr().err
