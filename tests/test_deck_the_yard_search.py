"""Deck the Yard's search players: ``rollout:N`` and the cheating ``oracle``.

The rollout player must see only the observation: its compiled belief (what it searches from)
must equal the belief built from ``state.observation(0)`` on every position of many games, and
resampling what the observation hides (the draw pile's order, which patterns were claimed and
which wait in the deck) must not move its decision for a fixed seed. The oracle's plan must be
exact (the kernel foresees the Python engine's reshuffles, so one plan per game and the planned
result is the result) and never below any greedy player's on the same shuffle. Strength checks
play every player on common seeds and compare paired.
"""

from __future__ import annotations

import random

import numpy as np
import pandas as pd
import pytest

from gamelib import play_game
from gamelib.core import ConfigError, SplitMixRandom, game_rngs, game_seeds
from gamelib.deck_the_yard import DECK_THE_YARD, DeckTheYardConfig, generate_patterns
from gamelib.deck_the_yard import kernel as K
from gamelib.deck_the_yard import search as S
from gamelib.deck_the_yard.players import POLICIES, OraclePlayer, RolloutPlayer
from gamelib.deck_the_yard.rules import DeckTheYardState
from gamelib.records import replay
from gamelib.sim import simulate
from gamelib.stats import paired_difference

STANDARD = DeckTheYardConfig()
CONFIGS = {
    "standard": STANDARD,
    "bulbs": DeckTheYardConfig(hand_counts="bulbs", plugs=12),
    # the pattern deck runs out and the row shrinks
    "few-patterns": DeckTheYardConfig(
        strand_length=2, patterns=tuple(generate_patterns(4, 2, seed=1)), win_threshold=4
    ),
    # redraws run dry and set-aside cards stay out of play
    "crowded": DeckTheYardConfig(bulbs_per_colour=1, events=8, broken=10, characters=12),
}


def positions(cfg: DeckTheYardConfig, seed: int, player: str = "random") -> list[DeckTheYardState]:
    """Every position of one game (a clone before each decision), played by ``player``."""
    chance, seats = game_rngs(seed, 1)
    state = DECK_THE_YARD.new_state(cfg, chance)
    agent = DECK_THE_YARD.player(player)
    out = []
    while not state.is_over():
        out.append(state.clone())
        obs = state.observation(0) if getattr(agent, "observes", True) else None
        state.apply(agent(obs, state.legal_moves(), seats[0]))
    return out


# --- specs -----------------------------------------------------------------------------------


def test_specs_make_the_players() -> None:
    r = DECK_THE_YARD.player("rollout:50")
    assert isinstance(r, RolloutPlayer) and r.n_futures == 50 and r.__name__ == "rollout:50"
    assert r.policy == "claim_characters"
    r = DECK_THE_YARD.player("rollout:7:never")
    assert isinstance(r, RolloutPlayer) and (r.n_futures, r.policy) == (7, "never")
    o = DECK_THE_YARD.player("oracle")
    assert isinstance(o, OraclePlayer) and o.width == 64 and o.__name__ == "oracle"
    assert DECK_THE_YARD.player("oracle:8").width == 8  # type: ignore[attr-defined]
    # the oracle is marked as cheating wherever it is named
    assert o.cheats is True and o.observes == "state" and "cheats" in o.label
    assert not getattr(r, "cheats", False)


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("rollout", "number of futures"),
        ("rollout:0", "from 1 to"),
        ("rollout:-5", "from 1 to"),
        ("rollout:abc", "whole number"),
        ("rollout:1.5", "whole number"),
        ("rollout:", "number of futures"),
        ("rollout:50:bogus", "unknown plug policy 'bogus'"),
        ("oracle:0", "beam width"),
        ("oracle:wide", "beam width"),
        ("oracle:99999", "beam width"),
    ],
)
def test_bad_specs_are_refused(spec: str, words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        DECK_THE_YARD.player(spec)


def test_bad_budgets_are_refused_by_the_classes() -> None:
    with pytest.raises(ConfigError, match="futures"):
        RolloutPlayer(0)
    with pytest.raises(ConfigError, match="plug policy"):
        RolloutPlayer(5, "sometimes")
    with pytest.raises(ConfigError, match="beam width"):
        OraclePlayer(0)


def test_wrong_inputs_are_refused_by_name() -> None:
    state = positions(STANDARD, 1)[3]
    legal = state.legal_moves()
    with pytest.raises(ConfigError, match="needs the whole DeckTheYardState"):
        OraclePlayer(8)(state.observation(0), legal, SplitMixRandom(1))
    with pytest.raises(ConfigError, match="DeckTheYardObservation"):
        RolloutPlayer(3)(state, legal, SplitMixRandom(1))


# --- what the rollout player knows ---------------------------------------------------------


@pytest.mark.parametrize("name", CONFIGS)
def test_belief_reads_only_the_observation(name: str) -> None:
    """The compiled belief of the true kernel state equals the one built from the observation,
    and a determinized future keeps everything visible and the unseen cards' kinds."""
    cfg = CONFIGS[name]
    rs = np.zeros(2, np.uint64)
    checked = 0
    for seed in range(6):
        for player in ("random", "greedy:claim_characters"):
            for state in positions(cfg, seed, player):
                t, st = K.from_reference(state)
                b = S.belief(t, st)
                assert np.array_equal(b, S.belief_from_observation(t, state.observation(0)))
                rs[0] = np.uint64(seed * 1000 + checked)
                fut = np.empty_like(b)
                S.determinize(t, b, fut, rs)
                real, guess = K.describe(t, st), K.describe(t, fut)
                assert sorted(K.KIND_NAMES[t.kind_of[c]] for c in guess["pile"]) == sorted(
                    K.KIND_NAMES[t.kind_of[c]] for c in real["pile"]
                )
                for key in ("phase", "turns", "hand", "strand", "row", "pending", "characters"):
                    assert guess[key] == real[key], key
                assert len(guess["deck"]) == len(real["deck"])
                assert not set(guess["deck"]) & set(real["row"])
                assert K.legal_moves(t, fut, K.new_work(t)) == state.legal_moves()
                checked += 1
    assert checked > 150


def resampled(state: DeckTheYardState, rng: random.Random) -> DeckTheYardState:
    """The position with what the observation hides drawn again: the draw pile's order, the
    pattern deck's order, and which patterns were claimed and which wait in the deck."""
    alt = state.clone()
    rng.shuffle(alt.pile)
    if alt.claimed and alt.deck:
        i, j = rng.randrange(len(alt.claimed)), rng.randrange(len(alt.deck))
        alt.claimed[i], alt.deck[j] = alt.deck[j], alt.claimed[i]
        alt.claims[i][1] = alt.claimed[i]
    rng.shuffle(alt.deck)
    return alt


def test_rollout_never_reads_hidden_information() -> None:
    rng = random.Random(5)
    player = RolloutPlayer(8)
    checked = moved = 0
    for seed in range(3):
        states = positions(STANDARD, seed, "greedy:claim_characters")
        for state in states[:: max(1, len(states) // 12)]:
            legal = state.legal_moves()
            if len(legal) < 2 or not state.pile:
                continue
            alt = resampled(state, rng)
            assert alt.observation(0) == state.observation(0)
            if alt.pile != state.pile or alt.deck != state.deck:
                moved += 1
            ta, sa = K.from_reference(alt)
            t, st = K.from_reference(state)
            assert np.array_equal(S.belief(t, st), S.belief(ta, sa))
            a = player(state.observation(0), legal, SplitMixRandom(seed))
            b = player(alt.observation(0), legal, SplitMixRandom(seed))
            assert a == b
            checked += 1
    assert checked >= 20 and moved >= 20


def test_rollout_values_use_common_futures() -> None:
    """Every decision meets the same futures: two decisions that lead to the same position get
    the same value, and the same seed gives the same values."""
    state = positions(STANDARD, 4)[5]
    t, st = K.from_reference(state)
    b = S.belief(t, st)
    v1 = S.rollout_values(t, b, 123, 20, POLICIES.index("claim_characters"))
    v2 = S.rollout_values(t, b, 123, 20, POLICIES.index("claim_characters"))
    assert np.array_equal(v1, v2)
    assert [K.reference_move(int(d)) for d in v1[:, 0]] == state.legal_moves()
    assert (v1[:, 1] <= 20).all() and (v1[:, 2] >= 0).all()
    v3 = S.rollout_values(t, b, 124, 20, POLICIES.index("claim_characters"))
    assert not np.array_equal(v1, v3)


# --- play: legality, determinism, the oracle's plan ------------------------------------------


@pytest.mark.parametrize("name", CONFIGS)
def test_search_players_play_legal_reproducible_games(name: str) -> None:
    cfg = CONFIGS[name]
    for spec in ("rollout:3", "oracle:4"):
        for seed in (11, 12):
            a = play_game(DECK_THE_YARD, cfg, [spec], seed, record=True)
            b = play_game(DECK_THE_YARD, cfg, [spec], seed, record=True)
            assert a.state.is_over() and a.record is not None and b.record is not None
            assert a.record["moves"] == b.record["moves"]
            assert a.outcome == b.outcome
            replay(a.record)  # every move legal in the reference, the outcome reproduced


def test_rollout_draws_its_seed_from_its_rng() -> None:
    """The same position and seed give the same decision; the seat rng is consumed once per
    decision with options, never for a forced one."""
    state = positions(STANDARD, 2)[8]
    legal = state.legal_moves()
    player = RolloutPlayer(5)
    r1, r2 = SplitMixRandom(77), SplitMixRandom(77)
    assert player(state.observation(0), legal, r1) == player(state.observation(0), legal, r2)
    assert r1.getstate() == r2.getstate() != SplitMixRandom(77).getstate()
    r3 = SplitMixRandom(77)
    forced = [legal[0]]
    assert player(state.observation(0), forced, r3) == legal[0]
    assert r3.getstate() == SplitMixRandom(77).getstate()


@pytest.mark.parametrize("name", CONFIGS)
def test_oracle_plans_once_and_its_plan_is_exact(name: str) -> None:
    """The kernel foresees the protocol game's draws and reshuffles: one plan per game, and the
    game ends with exactly the planned result."""
    cfg = CONFIGS[name]
    for seed in game_seeds(3, 4):
        oracle = OraclePlayer(8)
        game = play_game(DECK_THE_YARD, cfg, [oracle], seed)
        assert oracle.plans == 1
        c = game.outcome.counters
        assert oracle.planned == (c["won"], c["claimed"])


def test_oracle_replans_when_the_game_leaves_its_plan() -> None:
    """A game whose chance is not the kernels' stream (here Python's Mersenne Twister) cannot be
    foreseen: the oracle guesses later reshuffles, plans again when the real ones differ, and
    still plays a legal game to the end."""
    cfg = DeckTheYardConfig(events=8, plugs=0)  # every event blacks out: many reshuffles
    state = DECK_THE_YARD.new_state(cfg, random.Random(5))
    oracle = OraclePlayer(4)
    while not state.is_over():
        state.apply(oracle(state.clone(), state.legal_moves(), SplitMixRandom(0)))
    assert len(state.chance.log) > 2
    assert oracle.plans > 1


# --- strength ----------------------------------------------------------------------------------

N_STRENGTH = 200  # shuffles; rollout:50 and oracle took 0.2-0.4 s a game each here
STRENGTH_SEED = 2026


@pytest.fixture(scope="module")
def tables() -> dict[str, pd.DataFrame]:
    """random, every greedy policy and rollout:50 on the same shuffles (simulate, one process)."""
    out: dict[str, pd.DataFrame] = {}
    for spec in ("random", *(f"greedy:{p}" for p in POLICIES), "rollout:50"):
        out[spec] = simulate(STANDARD, [spec], N_STRENGTH, STRENGTH_SEED, workers=1)
    return out


def test_rollout_beats_greedy(tables: dict[str, pd.DataFrame]) -> None:
    """rollout:50 wins more often than every greedy player, the best (claim_characters)
    included: the paired difference's 95% interval lies above 0."""
    for policy in POLICIES:
        diff = paired_difference(tables["rollout:50"], tables[f"greedy:{policy}"], "won")
        assert diff["lo"] > 0, (policy, diff.to_dict())


def test_oracle_is_never_below_greedy_and_beats_every_player(
    tables: dict[str, pd.DataFrame],
) -> None:
    """Per shuffle, the oracle's (won, claimed) is at least every greedy player's (its search
    holds each greedy line); against random and rollout:50 its paired win-rate difference lies
    above 0."""
    oracle = simulate(STANDARD, ["oracle"], N_STRENGTH, STRENGTH_SEED, workers=1)
    mine = list(zip(oracle["won"], oracle["claimed"], strict=True))
    for policy in POLICIES:
        other = tables[f"greedy:{policy}"]
        theirs = list(zip(other["won"], other["claimed"], strict=True))
        assert all(m >= g for m, g in zip(mine, theirs, strict=True)), policy
    for spec in ("random", "rollout:50"):
        diff = paired_difference(oracle, tables[spec], "won")
        assert diff["lo"] > 0, (spec, diff.to_dict())
        claims = paired_difference(oracle, tables[spec], "claimed")
        assert claims["lo"] > 0, (spec, claims.to_dict())
