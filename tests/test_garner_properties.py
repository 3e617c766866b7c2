"""Property tests: random Garner games over every setup × reading × variation."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamelib import play_game, replay
from gamelib.garner import GARNER, SETUPS, GarnerConfig, new_state

configs = st.builds(
    lambda setup, top, must, line: GARNER.config(
        setup, top_layer=top, must_move=must, straight_line=line, max_turns=300
    ),
    st.sampled_from(sorted(SETUPS)),
    st.sampled_from(["level", "surface"]),
    st.sampled_from(["none", "one", "all"]),
    st.booleans(),
)
seeds = st.integers(min_value=0, max_value=2**63 - 1)


def _all_cards(state) -> list[int]:
    held = [c for s in state.stacks for c in s]
    held += [c for _, c in state.lifted]
    held += state.collected[0] + state.collected[1]
    return sorted(held)


@pytest.mark.usefixtures("garner_kernel_shadow")  # the kernel makes every move too
@settings(max_examples=60, deadline=None)
@given(configs, seeds)
def test_random_play_never_loses_or_duplicates_a_card_and_ends(cfg: GarnerConfig, seed: int):
    state = new_state(cfg, random.Random(seed))
    deck = list(range(sum(cfg.suit_sizes)))
    rng = random.Random(seed + 1)
    steps = 0
    while not state.is_over():
        legal = state.legal_moves()
        assert legal, f"no legal move in phase {state.decision}"
        assert len(set(legal)) == len(legal)
        state.apply(legal[rng.randrange(len(legal))])
        assert _all_cards(state) == deck
        steps += 1
        assert steps < 50 * cfg.max_turns
    out = state.outcome()
    assert out.reason in ("layout_empty", "turn_limit")
    assert out.turns <= cfg.max_turns
    assert sum(state.piles[0]) + sum(state.piles[1]) + out.counters["cards_left"] == len(deck)
    if out.reason == "layout_empty":
        assert out.counters["cards_left"] == 0
        assert sum(out.details["collected_per_turn"]) == len(deck)


@settings(max_examples=25, deadline=None)
@given(configs, seeds, st.sampled_from(["random", "greedy", "cautious"]))
def test_same_seed_same_game_and_the_record_replays(cfg: GarnerConfig, seed: int, other: str):
    players = ["random", other]
    a = play_game(GARNER, cfg, players, seed, record=True)
    b = play_game(GARNER, cfg, players, seed, record=True)
    assert a.record == b.record
    again = replay(a.record)
    assert again.outcome == a.outcome
    assert again.state.stacks == a.state.stacks
    assert again.state.collected == a.state.collected
    assert again.decisions == a.decisions
