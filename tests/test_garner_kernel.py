"""The compiled Garner core against the reference engine, decision by decision.

Kernel games (random vs random, played entirely in compiled code) are replayed through the
reference ``GarnerState`` and through the kernel's own ``legal``/``apply``: at every decision the
kernel's legal options (with each group's sites) must equal ``legal_moves()`` in order, the
layouts and piles must agree after every decision, and the outcome must match the kernel batch's
table row. ``make crosscheck`` runs the same check on 10^5 games (``GARNER_CROSSCHECK_GAMES``).
"""

from __future__ import annotations

import itertools
import math
import os
import random
from collections import Counter

import numpy as np
import pytest

from gamelib.core import ConfigError, game_seeds, rule_variants
from gamelib.garner import (
    SETUPS,
    GarnerConfig,
    custom,
    new_state,
)
from gamelib.garner import kernel as K
from gamelib.garner.rules import PHASE_NAMES, state_from_start
from gamelib.kernel_rng import seeds_for

VARIATIONS = [
    {"must_move": m, "straight_line": s, "top_layer": top}
    for m, s, top in itertools.product(("none", "one", "all"), (False, True), ("level", "surface"))
]
CONFIGS = [GarnerConfig(**{**vars(SETUPS[name]), **v}) for name in SETUPS for v in VARIATIONS] + [
    # a short max_turns ends games by turn_limit; with never-exactly-6 both rules meet
    GarnerConfig(**{**vars(SETUPS["B"]), "max_turns": 12}),
    GarnerConfig(**{**vars(SETUPS["standard"]), "max_turns": 20, "must_move": "one"}),
]
# and every rule field moved off its default, as the config declares (one place per field)
CONFIGS += [v for v in rule_variants(GarnerConfig).values() if v not in CONFIGS]
TOTAL_GAMES = int(os.environ.get("GARNER_CROSSCHECK_GAMES", 2 * len(CONFIGS)))
GAMES_PER_CONFIG = max(1, math.ceil(TOTAL_GAMES / len(CONFIGS)))


def _label(cfg: GarnerConfig) -> str:
    return (
        f"{cfg.setup}-{cfg.must_move}-{'line' if cfg.straight_line else 'free'}-{cfg.top_layer}"
        f"-t{cfg.max_turns}"
    )


def crosscheck(cfg: GarnerConfig, n_games: int, seed: int) -> Counter[str]:
    """Replay ``n_games`` kernel games through the reference; counts what the games exercised."""
    t = K.tables(cfg)
    work = K.new_work(t)
    games = K.play_random(cfg, n_games, seed, record=True)
    seen: Counter[str] = Counter()
    for g in range(n_games):
        deck = games.deals[g]
        ref = state_from_start(cfg, {"layout": K.deal_layout(t, deck)})
        st = K.state_from_deal(t, deck)
        assert K.layout(t, st) == ref.stacks
        decisions = games.game_decisions(g)
        for i, d in enumerate(decisions):
            phase = int(st[K.PHASE])
            where = f"{_label(cfg)} game {g} decision {i}"
            assert phase == ref.phase, where
            assert int(st[K.TO_MOVE]) == ref.current_player(), where
            options = K.legal_groups(t, st, work)
            moves = [K.reference_move(phase, o) for o in options]
            assert moves == ref.legal_moves(), where
            chosen = [m for o, m in zip(options, moves, strict=True) if o[0] == d]
            assert len(chosen) == 1, f"{where}: decision {d} is not one legal option"
            if phase == K.PLACE:  # targets the dead-end avoidance took away
                free = [s for s in ref.t.targets[ref.lifted[0][0]] if s not in ref.placed]
                seen["place_dead_ends_dropped"] += len(free) - len(moves)
            elif phase == K.LIFT:
                seen["lift_dead_ends_dropped"] += len(ref.number_groups()) - len(moves)
            ref.apply(chosen[0])
            K.apply(t, st, int(d), work)
            assert K.layout(t, st) == ref.stacks, where
            assert K.piles(t, st) == ref.piles, where
            seen[PHASE_NAMES[phase]] += 1
        assert ref.is_over() and K.is_over(st), f"{_label(cfg)} game {g} did not end"
        assert K.legal(t, st, work) == 0
        outcome = ref.outcome()
        seen[outcome.reason] += 1
        row = outcome.row()
        kernel_row = games.table[g]
        for name, value in row.items():
            assert kernel_row[name] == value, f"{_label(cfg)} game {g}: {name}"
        assert kernel_row["decisions"] == len(decisions)
        assert kernel_row["turns"] == outcome.turns
        seen["games"] += 1
        seen["games_over_1024_decisions"] += len(decisions) > 1024  # the buffer grew
    return seen


@pytest.fixture(scope="module")
def exercised() -> Counter[str]:
    return Counter()


@pytest.mark.parametrize("cfg", CONFIGS, ids=_label)
def test_kernel_games_replay_through_the_reference(cfg: GarnerConfig, exercised: Counter[str]):
    exercised.update(crosscheck(cfg, GAMES_PER_CONFIG, seed=11))


def test_the_crosscheck_sample_exercised_every_rule(exercised: Counter[str]):
    # runs after the parametrized cross-check in this module; on its own it replays a few games
    if not exercised:
        for cfg in CONFIGS:
            exercised.update(crosscheck(cfg, 1, seed=11))
    for key in (
        "lift",
        "place",
        "collect",
        "leave",
        "layout_empty",
        "turn_limit",
        "games_over_1024_decisions",
    ):
        assert exercised[key] > 0, f"the sample never saw {key}: {dict(exercised)}"
    assert exercised["place_dead_ends_dropped"] > 0, dict(exercised)


@pytest.mark.parametrize(
    "cfg",
    [
        GarnerConfig(**{**vars(SETUPS["standard"]), "must_move": m, "straight_line": line})
        for m in ("one", "all")
        for line in (False, True)
    ]
    + [custom(2, 3, 1, 3, 2, must_move=m, straight_line=True) for m in ("one", "all")],
    ids=_label,
)
def test_dead_end_search_agrees_with_the_reference(cfg: GarnerConfig):
    # random play almost never meets a lift that cannot be placed, so the search that drops
    # such lifts (and dead-end placements) is compared directly, on crowded random cases too
    t = K.tables(cfg)
    work = K.new_work(t)
    ref = new_state(cfg, random.Random(0))
    rng = random.Random(1)
    n_sites = cfg.rows * cfg.cols
    answers = Counter()
    for _ in range(400):
        origins = rng.sample(range(n_sites), rng.randint(0, min(5, n_sites)))
        room = n_sites - len(origins)  # at most this many sites can be used: crowd half the cases
        n_used = rng.randint(0, room) if rng.random() < 0.5 else max(0, room - rng.randint(0, 1))
        used = rng.sample(range(n_sites), n_used)
        moved = rng.random() < 0.3
        mask = np.zeros(n_sites + 1, np.int64)
        mask[used] = 1
        before = mask.copy()
        got = K.can_finish(t, np.array([*origins, 0], np.int64), len(origins), mask, moved, work)
        assert got == ref._can_finish(origins, used, moved), (origins, used, moved)
        assert np.array_equal(mask, before), "the search must restore the used sites"
        answers[got] += 1
    assert answers[True] and answers[False], answers


def test_same_seed_same_games_and_first_k_of_n():
    cfg = SETUPS["E"]
    a = K.play_random(cfg, 6, seed=3, record=True)
    b = K.play_random(cfg, 6, seed=3, record=True)
    first = K.play_random(cfg, 2, seed=3, record=True)
    assert np.array_equal(a.table, b.table) and np.array_equal(a.decisions, b.decisions)
    assert np.array_equal(a.table[:2], first.table)
    assert np.array_equal(a.deals[:2], first.deals)
    later = K.play_random(cfg, 4, seed=3, start=2)
    assert np.array_equal(a.table[2:], later.table)
    other = K.play_random(cfg, 6, seed=4)
    assert not np.array_equal(a.table["seed"], other.table["seed"])


@pytest.mark.parametrize("setup", list(SETUPS))
def test_kernel_games_keep_every_card(setup: str):
    cfg = SETUPS[setup]
    games = K.play_random(cfg, 20, seed=5, record=True)
    table = games.table
    n_cards = sum(cfg.suit_sizes)
    assert np.all(table["cards_0"] + table["cards_1"] + table["cards_left"] == n_cards)
    suits = sum(table[f"suit{u}_cards_0"] + table[f"suit{u}_cards_1"] for u in range(cfg.n_suits))
    assert np.array_equal(suits, table["cards_0"] + table["cards_1"])
    for deck in games.deals:
        assert sorted(deck.tolist()) == list(range(n_cards))
    # a deal depends on the seed only, and every game of a batch gets its own deal
    assert len({d.tobytes() for d in games.deals}) == len(games.deals)


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**32 - 1, 2**32, 2**40 + 17, 2**64 - 1, 2**70])
def test_compiled_game_seeds_equal_the_core_ones(seed: int):
    # 2**70 takes the Python path; the rest the compiled copy of SeedSequence
    assert seeds_for(seed, 40, start=5).tolist() == game_seeds(seed, 40, start=5)


def test_bad_input_is_refused_by_name():
    with pytest.raises(ConfigError, match="n_games must be a non-negative int"):
        K.play_random(SETUPS["A"], -1, seed=1)
    with pytest.raises(ConfigError, match="needs a GarnerConfig, got str"):
        K.play_random("standard", 1, seed=1)  # type: ignore[arg-type]
    t = K.tables(SETUPS["A"])
    with pytest.raises(ValueError, match="every card of the deck exactly once"):
        K.state_from_deal(t, [0] * 27)
