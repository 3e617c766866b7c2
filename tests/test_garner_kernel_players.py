"""The compiled Garner players against the reference players, decision by decision.

Kernel games (greedy against greedy, and against random) are replayed through the reference
``GarnerState``. At every greedy decision the reference player's own numbers are computed on the
same position (``players.evaluate_lifts``, ``place_options``, ``collect_values``) and:

* lift: the kernel's estimate of every legal lift equals the reference's, the kernel's lift is
  among the reference's tied best, and the kernel's plan for it (the card it places, the target,
  the sites it keeps clear) is the reference's plan;
* place: the kernel's placement pool (with that plan) equals the reference's, and the kernel's
  placement is in it;
* collect: every option's value agrees and the kernel's collect is among the tied best;
* leave-behind: the first card, as the reference's;
* cautious, when greedy's best lifts tie: for each of them, the kernel's look-ahead (the planned
  turn played out greedily on a copy) makes only decisions the reference greedy could make, and
  the opponent's best estimate after it equals the reference's for the same decisions. (Which
  tied lifts cautious samples, and so which it keeps, rests on random numbers: not compared.)

Ties are broken with different random numbers, so the games are not the reference player's
games; every choice is one the reference player could have made. ``make crosscheck`` runs the
same on more games (``GARNER_PLAYERS_CROSSCHECK_GAMES``).
"""

from __future__ import annotations

import itertools
import math
import os
from collections import Counter
from typing import Any

import numpy as np
import pytest

from gamelib.core import ConfigError
from gamelib.garner import SETUPS, GarnerConfig
from gamelib.garner import kernel as K
from gamelib.garner import kernel_players as KP
from gamelib.garner.players import collect_values, evaluate_lifts, place_options
from gamelib.garner.rules import COLLECT, LEAVE, LIFT, PLACE, GarnerState, Lift, state_from_start

VARIATIONS = [
    {"must_move": m, "straight_line": s, "top_layer": top}
    for m, s, top in itertools.product(("none", "one", "all"), (False, True), ("level", "surface"))
]
CONFIGS = [GarnerConfig(**{**vars(SETUPS[name]), **v}) for name in SETUPS for v in VARIATIONS]
PAIRS = [
    ("greedy", "greedy"),
    ("greedy", "random"),
    ("random", "greedy"),
    ("cautious", "greedy"),
    ("random", "cautious:2"),
]
TOTAL_GAMES = int(os.environ.get("GARNER_PLAYERS_CROSSCHECK_GAMES", len(CONFIGS) * 2))
GAMES_PER_CONFIG = max(1, math.ceil(TOTAL_GAMES / len(CONFIGS)))


def _label(cfg: GarnerConfig) -> str:
    return f"{cfg.setup}-{cfg.must_move}-{'line' if cfg.straight_line else 'free'}-{cfg.top_layer}"


def crosscheck(
    cfg: GarnerConfig, players: tuple[str, str], n_games: int, seed: int
) -> Counter[str]:
    """Replay ``n_games`` kernel games of ``players`` through the reference players."""
    t = K.tables(cfg)
    pt = KP.player_tables(cfg)
    work = K.new_work(t)
    pw, fv = KP.new_player_work(t)
    games = KP.play_batch(cfg, players, n_games, seed, record=True)
    seen: Counter[str] = Counter()
    for g in range(n_games):
        ref = state_from_start(cfg, {"layout": K.deal_layout(t, games.deals[g])})
        plan = None
        for i, d in enumerate(games.game_decisions(g)):
            where = f"{_label(cfg)} {players} game {g} decision {i}"
            phase, seat = ref.phase, ref.to_move
            legal = ref.legal_moves()
            firsts = [m.sites[0] if phase in (LIFT, COLLECT) else m.site for m in legal]
            assert d in firsts, f"{where}: {d} is not a legal option"
            move = legal[firsts.index(d)]
            if players[seat] != "random":  # cautious plays greedy's turn after its lift
                _, st = K.from_reference(ref)
                n = K.legal(t, st, work)
                assert n == len(legal), where
                if phase == LIFT:
                    plans = evaluate_lifts(ref, seat, legal)
                    KP.lift_values(t, pt, st, seat, n, work, pw, fv)
                    got = fv[KP.F_PLAN, :n]
                    want = [p.value for p in plans]
                    assert np.allclose(got, want, rtol=0, atol=1e-12), (where, got, want)
                    top = max(want)
                    tied = [p.lift[0] for p in plans if p.value >= top - 1e-9]
                    assert d in tied, f"{where}: lift {d} is not among the best {tied}"
                    seen["lift_ties"] += len(tied) > 1
                    plan = plans[firsts.index(d)]
                    # the kernel's plan for this lift, as the kernel's play keeps it
                    K.legal(t, st, work)  # lift_values used work: the legal lifts again
                    nc, top_h, n_top = KP.prepare_lifts(t, pt, st, seat, n, work, pw, fv)
                    avoid = pw[KP.P_AVOID0 + seat]
                    li = firsts.index(d)
                    _, ci, tg = KP.lift_plan(
                        t, pt, st, seat, li, nc, top_h, n_top, work, pw, fv, avoid, True
                    )
                    pw[KP.P_PLAN, 2 * seat], pw[KP.P_PLAN, 2 * seat + 1] = ci, tg
                    assert (ci, tg) == (plan.card_index, plan.target), where
                    assert set(np.flatnonzero(avoid[: len(ref.stacks)])) == set(plan.avoid), where
                    seen["plans_with_target"] += tg >= 0
                    if players[seat].startswith("cautious") and len(tied) > 1:
                        for p in plans:
                            if p.value >= top - 1e-9:
                                seen["cautious_replies"] += check_reply(cfg, ref, st, p, where)
                elif phase == PLACE:
                    pool, planned = place_options(ref, legal, plan)
                    m = KP.place_pool(t, st, seat, n, work, pw)
                    kernel_pool = sorted(int(s) for s in pw[KP.P_POOL, :m])
                    assert kernel_pool == sorted(x.site for x in pool), where
                    assert d in kernel_pool, where
                    seen["planned_placements"] += planned
                    seen["placement_pools_narrowed"] += len(pool) < len(legal)
                elif phase == COLLECT:
                    values = collect_values(ref, seat, legal)
                    KP.collect_values(t, pt, st, seat, n, work, fv)
                    assert np.allclose(fv[KP.F_PLAN, :n], values, rtol=0, atol=1e-12), where
                    top = max(values)
                    tied = [f for f, v in zip(firsts, values, strict=True) if v >= top - 1e-9]
                    assert d in tied, f"{where}: collect {d} is not among the best {tied}"
                elif phase == LEAVE:
                    assert d == firsts[0], where
                    seen["leave"] += 1
                seen[f"greedy_{phase}"] += 1
            ref.apply(move)
        assert ref.is_over(), f"{_label(cfg)} game {g} did not end"
        row = ref.outcome().row()
        for name, value in row.items():
            assert games.table[g][name] == value, f"{_label(cfg)} game {g}: {name}"
        seen["games"] += 1
    return seen


def check_reply(cfg: GarnerConfig, ref: GarnerState, st: np.ndarray, plan: Any, where: str) -> int:
    """Cautious's look-ahead for one tied lift: the kernel plays the planned turn out on a copy
    (``cautious_reply``); the reference plays the same decisions, each of which must be one its
    greedy could make, and the opponent's best estimate afterwards must be the kernel's."""
    t, pt = K.tables(cfg), KP.player_tables(cfg)
    work = K.new_work(t)
    pw, fv = KP.new_player_work(t)
    seat = ref.to_move
    legal = ref.legal_moves()
    li = [m.sites for m in legal].index(plan.lift)
    K.legal(t, st, work)
    rs = np.array([1, 2, 3], np.uint64) * np.uint64(1 + li)
    trace = np.empty(64, np.int64)
    reply, k = KP.cautious_reply(t, pt, st, seat, li, work, pw, fv, rs, trace)
    trial = ref.clone()
    trial.apply(Lift(plan.lift))
    for d in trace[:k]:
        assert trial.to_move == seat, where
        options = trial.legal_moves()
        if trial.phase == PLACE:
            pool, _ = place_options(trial, options, plan)
            assert d in [m.site for m in pool], f"{where}: look-ahead placement {d}"
            move = next(m for m in options if m.site == d)
        elif trial.phase == COLLECT:
            values = collect_values(trial, seat, options)
            top = max(values)
            tied = [m for m, v in zip(options, values, strict=True) if v >= top - 1e-9]
            assert d in [m.sites[0] for m in tied], f"{where}: look-ahead collect {d}"
            move = next(m for m in tied if m.sites[0] == d)
        else:
            assert trial.phase == LEAVE and d == options[0].site, where
            move = options[0]
        trial.apply(move)
    assert trial.is_over() or (trial.phase == LIFT and trial.to_move != seat), where
    want = (
        0.0
        if trial.is_over()
        else max(p.value for p in evaluate_lifts(trial, 1 - seat, trial.legal_moves()))
    )
    assert abs(reply - want) < 1e-12, (where, reply, want)
    return 1


@pytest.fixture(scope="module")
def exercised() -> Counter[str]:
    return Counter()


@pytest.mark.parametrize("cfg", CONFIGS, ids=_label)
def test_kernel_greedy_makes_the_reference_greedy_choices(
    cfg: GarnerConfig, exercised: Counter[str]
):
    for k, players in enumerate(PAIRS):
        n = GAMES_PER_CONFIG if players == ("greedy", "greedy") else max(1, GAMES_PER_CONFIG // 2)
        exercised.update(crosscheck(cfg, players, n, seed=100 + k))


def test_the_sample_exercised_every_greedy_rule(exercised: Counter[str]):
    if not exercised:  # run on its own: a few games
        for cfg in CONFIGS[::6]:
            exercised.update(crosscheck(cfg, ("cautious", "greedy"), 1, seed=100))
    for key in (
        "lift_ties",
        "plans_with_target",
        "planned_placements",
        "placement_pools_narrowed",
        "leave",
        "cautious_replies",
    ):
        assert exercised[key] > 0, f"the sample never saw {key}: {dict(exercised)}"


def test_random_seats_play_play_randoms_games():
    cfg = SETUPS["E"]
    a = KP.play_batch(cfg, ("random", "random"), 8, 5, record=True)
    b = K.play_random(cfg, 8, 5, record=True)
    assert np.array_equal(a.table, b.table) and np.array_equal(a.decisions, b.decisions)


def test_same_seed_same_games_and_first_k_of_n():
    cfg = SETUPS["C"]
    a = KP.play_batch(cfg, ("greedy", "random"), 6, 3, record=True)
    b = KP.play_batch(cfg, ("greedy", "random"), 6, 3, record=True)
    assert np.array_equal(a.table, b.table) and np.array_equal(a.decisions, b.decisions)
    later = KP.play_batch(cfg, ("greedy", "random"), 4, 3, start=2)
    assert np.array_equal(a.table[2:], later.table)
    # the deal depends on the seed only, not on the players
    c = KP.play_batch(cfg, ("random", "greedy"), 6, 3, record=True)
    assert np.array_equal(a.deals, c.deals)


def test_greedy_beats_random_in_the_kernel():
    # a sanity check beside the per-decision one: greedy should win most games against random
    t = KP.play_batch(SETUPS["standard"], ("greedy", "random"), 60, 9).table
    assert t["win_0"].mean() > 0.7, t["win_0"].mean()


def test_bad_players_are_refused_by_name():
    with pytest.raises(ConfigError, match="no compiled Garner player 'clever'"):
        KP.play_batch(SETUPS["A"], ("clever", "random"), 1, 1)
    with pytest.raises(ConfigError, match="cautious:N takes a whole number N ≥ 1"):
        KP.play_batch(SETUPS["A"], ("cautious:0", "random"), 1, 1)
    with pytest.raises(ConfigError, match="no compiled Garner player 'greedy:2'"):
        KP.play_batch(SETUPS["A"], ("greedy:2", "random"), 1, 1)
    with pytest.raises(ConfigError, match="one player per seat"):
        KP.play_batch(SETUPS["A"], ("greedy",), 1, 1)
    with pytest.raises(ConfigError, match="n_games must be a non-negative int"):
        KP.play_batch(SETUPS["A"], ("greedy", "greedy"), -1, 1)
