"""Gargon over 3, 4 and 5 players: cards conserved, games end, hidden numbers stay hidden."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamelib import RecordError, play_game, replay
from gamelib.core import game_seeds
from gamelib.gargon import GARGON, GargonState, new_state
from gamelib.gargon.players import GreedyPlayer
from gamelib.gargon.rules import N_CARDS, resample_hidden

# the resampler lives in gamelib.gargon.rules (the ismcts player's tests use it too); the old
# name stays for tests/test_gargon_kernel_players.py
_resample_hidden = resample_hidden

seeds = st.integers(min_value=0, max_value=2**63 - 1)
configs = st.builds(
    lambda n, three, last, tie: GARGON.config(
        None,
        n_players=n,
        allow_three_colours=three,
        last_player_restriction=last,
        tie_losers_draw=tie,
    ),
    st.sampled_from([3, 4, 5]),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)


def _every_card(s: GargonState) -> list[int]:
    parts = [*s.hands, *s.piles, *s.table, *s.captured, s.discard]
    return sorted(c for part in parts for c in part)


@settings(max_examples=60, deadline=None)
@given(configs, seeds)
def test_random_play_accounts_for_all_102_cards_and_ends(cfg, seed):
    s = new_state(cfg, random.Random(seed))
    rng = random.Random(seed ^ 1)
    steps = 0
    while not s.is_over():
        legal = s.legal_moves()
        assert legal
        s.apply(legal[rng.randrange(len(legal))])
        assert _every_card(s) == list(range(N_CARDS))
        steps += 1
        assert steps < 20_000
    out = s.outcome()
    assert out.reason in ("pile_empty", "hands_empty")
    assert 1 <= s.rounds <= N_CARDS
    assert out.winners and max(out.scores) == out.scores[out.winners[0]]
    assert sum(out.counters[f"captured_{p}"] for p in range(cfg.n_players)) == sum(
        len(x) for x in s.captured
    )


@settings(max_examples=15, deadline=None)
@given(st.sampled_from([3, 4, 5]), seeds)
def test_same_seed_same_game_and_records_replay(n, seed):
    cfg = GARGON.config(None, n_players=n)
    players = ["greedy", "random", "greedy:ignore", "random", "greedy"][:n]
    a = play_game(GARGON, cfg, players, seed, record=True)
    b = play_game(GARGON, cfg, players, seed, record=True)
    assert a.record == b.record
    again = replay(a.record)
    assert again.outcome == a.outcome
    assert again.state.captured == a.state.captured


@pytest.mark.parametrize("n", [3, 4, 5])
def test_decisions_do_not_depend_on_hidden_numbers(n):
    cfg = GARGON.config(None, n_players=n)
    checked = 0
    for seed in game_seeds(21, 6):
        s = new_state(cfg, random.Random(seed))
        rng = random.Random(seed)
        while not s.is_over():
            seat = s.current_player()
            obs = s.observation(seat)
            for k in range(3):
                other = resample_hidden(s, seat, random.Random(k))
                assert other.observation(seat) == obs
                assert other.legal_moves() == s.legal_moves()
                for zeros in (True, False):
                    a = GreedyPlayer(zeros)(obs, s.legal_moves(), random.Random(5))
                    b = GreedyPlayer(zeros)(
                        other.observation(seat), other.legal_moves(), random.Random(5)
                    )
                    assert a == b
                checked += 1
            legal = s.legal_moves()
            s.apply(legal[rng.randrange(len(legal))])
    assert checked > 100


def test_resampling_does_change_hidden_numbers():
    """The resampler really moves hidden cards (so the test above can fail)."""
    s = new_state(GARGON.config("4p"), random.Random(3))
    other = resample_hidden(s, 0, random.Random(1))
    assert other.hands[0] == s.hands[0]
    assert other.hands[1:] != s.hands[1:] or other.piles != s.piles
    bad = copy.deepcopy(s)
    bad.hands[1][0], bad.hands[0][0] = bad.hands[0][0], bad.hands[1][0]
    assert bad.observation(0) != s.observation(0)


def test_corrupt_gargon_records_are_refused():
    rec = play_game(GARGON, GARGON.config("3p"), ["random"] * 3, 4, record=True).record
    bad = copy.deepcopy(rec)
    bad["start"]["hands"][0][0] = bad["start"]["hands"][1][0]
    with pytest.raises(RecordError, match="exactly once"):
        replay(bad)
    bad = copy.deepcopy(rec)
    bad["start"]["hands"][0][0][1] = 99
    with pytest.raises(RecordError, match="not a Gargon card"):
        replay(bad)
    bad = copy.deepcopy(rec)
    first = bad["moves"][0]["move"]["play"][0]
    first[1] = (first[1] + 1) % 16
    with pytest.raises(RecordError, match="move 0"):
        replay(bad)
