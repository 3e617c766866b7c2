"""The compiled Gargon core against the reference engine, decision by decision.

Kernel games (random play on every seat, entirely in compiled code) are replayed through the
reference ``GargonState`` and through the kernel's own ``legal``/``apply``: at every decision the
kernel's legal options must equal ``legal_moves()`` in order, where every card is (hands, table,
captures, discard, both piles), whose move it is, the phase and the lead must agree after every
decision, and the outcome (winners, scores, reason, every counter) must equal the kernel batch's
table row. ``make crosscheck`` runs the same check on 10^5 games (``GARGON_CROSSCHECK_GAMES``).
"""

from __future__ import annotations

import math
import os
import random
from collections import Counter

import numpy as np
import pytest

from gamelib.core import ConfigError, Move, rule_variants
from gamelib.gargon import kernel as K
from gamelib.gargon.rules import (
    PHASE_NAMES,
    SHAPES,
    GargonConfig,
    GargonState,
    Pass,
    Play,
    card_id,
    from_deal,
    new_state,
    shape_of,
)

# 3, 4 and 5 players, then each rule field moved off its default (players cycling 3, 4, 5)
VARIATIONS: list[dict[str, object]] = [
    {"hand_size": 1},
    {"hand_size": 3},
    {"hand_size": 20},
    {"allow_three_colours": False},
    {"last_player_restriction": False},
    {"zero_multiplier": 3},
    {"zero_multiplier": 1.5},
    {"zero_multiplier": 0},
    {"tie_losers_draw": False},
    {"majority_bonus": 0},
    {"majority_bonus": 7, "shared_bonus": 0},
    {"shared_bonus": 10},
    {"amulets": tuple(range(16))},
    {"amulets": (9,) + (1,) * 15},
]
CONFIGS = [GargonConfig(n_players=n) for n in (3, 4, 5)] + [
    GargonConfig(n_players=3 + i % 3, **v)  # type: ignore[arg-type]
    for i, v in enumerate(VARIATIONS)
]
# and every rule field moved off its default, as the config declares (one place per field)
CONFIGS += [v for v in rule_variants(GargonConfig).values() if v not in CONFIGS]
TOTAL_GAMES = int(os.environ.get("GARGON_CROSSCHECK_GAMES", 3 * len(CONFIGS)))
GAMES_PER_CONFIG = max(1, math.ceil(TOTAL_GAMES / len(CONFIGS)))
DEFAULTS = GargonConfig()


def _label(cfg: GargonConfig) -> str:
    changed = [
        f"{k}={v}" for k, v in vars(cfg).items() if k != "n_players" and v != getattr(DEFAULTS, k)
    ]
    return f"{cfg.n_players}p" + ("-" + ",".join(changed) if changed else "")


def crosscheck(cfg: GargonConfig, n_games: int, seed: int) -> Counter[str]:
    """Replay ``n_games`` kernel games through the reference; counts what the games exercised."""
    t = K.tables(cfg)
    work = K.new_work(t)
    games = K.play_random(cfg, n_games, seed, record=True)
    seen: Counter[str] = Counter()
    for g in range(n_games):
        deck = games.deals[g]
        ref = K.reference_state(cfg, deck)
        st = K.state_from_deal(t, deck)
        decisions = games.game_decisions(g)
        for i, d in enumerate(decisions):
            where = f"{_label(cfg)} game {g} decision {i}"
            assert K.position(t, st) == K.reference_position(ref), where
            phase = int(st[K.PHASE])
            moves = K.legal_moves(t, st, work)
            assert moves == ref.legal_moves(), where
            move = K.decode(phase, int(d))
            assert move in moves, f"{where}: {move!r} is not legal"
            assert K.encode(move) == d, where
            if isinstance(move, Play):
                is_lead = ref.to_move == ref.lead
                seen[f"{'lead' if is_lead else 'follow'} {shape_of(move.cards)}"] += 1
                last = not is_lead and ref.pos == cfg.n_players - 1
                if last and cfg.last_player_restriction:
                    everything = ref._plays(ref.hands[ref.to_move], ref.shape, None)
                    plays = [m for m in moves if isinstance(m, Play)]
                    seen["last_player_plays_dropped"] += len(everything) - len(plays)
            elif isinstance(move, Pass):
                seen[f"pass {move.draws}"] += 1
            seen[PHASE_NAMES[phase]] += 1
            ref.apply(move)
            K.apply(t, st, int(d))
        assert ref.is_over() and K.is_over(st), f"{_label(cfg)} game {g} did not end"
        assert K.position(t, st) == K.reference_position(ref)
        assert K.legal(t, st, work) == 0
        outcome = ref.outcome()
        row = outcome.row()
        kernel_row = games.table[g]
        for name, value in row.items():
            assert kernel_row[name] == value, f"{_label(cfg)} game {g}: {name}"
        assert kernel_row["decisions"] == len(decisions)
        seen[outcome.reason] += 1
        seen["ties"] += int(row["ties"])
        seen["shared_wins"] += len(outcome.winners) > 1
        seen["zeros_captured"] += sum(int(row[f"zeros_{s}"]) for s in range(cfg.n_players))
        seen["games"] += 1
    return seen


@pytest.fixture(scope="module")
def exercised() -> Counter[str]:
    return Counter()


@pytest.mark.parametrize("cfg", CONFIGS, ids=_label)
def test_kernel_games_replay_through_the_reference(cfg: GargonConfig, exercised: Counter[str]):
    # a seed per config: the same seed deals the same cards to every config of a player count
    exercised.update(crosscheck(cfg, GAMES_PER_CONFIG, seed=11 + CONFIGS.index(cfg)))


def test_the_crosscheck_sample_exercised_every_rule(exercised: Counter[str]):
    # runs after the parametrized cross-check in this module; on its own it replays a few games
    if not exercised:
        for cfg in CONFIGS:
            exercised.update(crosscheck(cfg, 1, seed=11 + CONFIGS.index(cfg)))
    keys = ["play", "draw", "resolve", "pile_empty", "ties", "shared_wins", "zeros_captured"]
    keys += [f"lead {s}" for s in SHAPES] + [f"follow {s}" for s in SHAPES]
    keys += ["pass 1", "pass 2", "pass 3", "last_player_plays_dropped"]
    for key in keys:
        assert exercised[key] > 0, f"the sample never saw {key}: {dict(exercised)}"


def shadow(
    state: GargonState, moves_or_rng: list[Move] | random.Random, n_moves: int = 10_000
) -> tuple[K.KernelTables, np.ndarray]:
    """Play the reference ``state`` on (a list of moves, or random ones from an rng) and check
    before every move that the kernel, built afresh from the reference position, offers the
    same options, and that one kernel ``apply`` lands on the reference's next position."""
    for i in range(len(moves_or_rng) if isinstance(moves_or_rng, list) else n_moves):
        if state.is_over():
            break
        t, st = K.from_reference(state)
        work = K.new_work(t)
        legal = state.legal_moves()
        assert K.legal_moves(t, st, work) == legal, i
        if isinstance(moves_or_rng, list):
            move = moves_or_rng[i]
        else:
            move = legal[moves_or_rng.randrange(len(legal))]
        state.apply(move)
        K.apply(t, st, K.encode(move))
        assert K.position(t, st) == K.reference_position(state), i
    t, st = K.from_reference(state)
    return t, st


@pytest.mark.parametrize("n", [3, 4, 5])
def test_mid_game_positions_convert_and_agree(n: int):
    # reference games driven by Python's random: every position, mid-battle and mid-draw ones
    # included, converts to the kernel (from_reference) and the two engines agree on one step
    cfg = GargonConfig(n_players=n, tie_losers_draw=n != 4)
    state = new_state(cfg, random.Random(n))
    t, st = shadow(state, random.Random(100 + n))
    assert state.is_over() and K.is_over(st)
    work = K.new_work(t)
    row, seat_rows = np.zeros(K.N_RESULTS, np.int64), np.zeros((n, K.N_SEAT_RESULTS), np.int64)
    scores, amulets = np.zeros(n), np.zeros(n)
    K.result(t, st, row, seat_rows, scores, amulets)
    outcome = state.outcome()
    assert tuple(scores) == outcome.scores
    assert tuple(np.flatnonzero(seat_rows[:, K.S_WINNER])) == outcome.winners
    assert K.REASONS[row[K.R_REASON]] == outcome.reason
    assert K.legal(t, st, work) == 0


def test_hands_empty_ends_the_game_in_both_engines():
    # random play never empties every hand (passers draw); a hand-built deal does: each seat
    # holds one card of its own colour and, with no last-player restriction, all three play
    cfg = GargonConfig(n_players=3, hand_size=1, last_player_restriction=False)
    hands = [[card_id(s, 5 + s)] for s in range(3)]
    state = from_deal(cfg, hands, [[card_id(4, 1)], [card_id(5, 1)]])
    moves = [Play((h[0],)) for h in hands] + [K.decode(2, 0), K.decode(2, 1), K.decode(2, 2)]
    _, st = shadow(state, moves)
    assert state.outcome().reason == "hands_empty"
    assert K.is_over(st) and K.REASONS[st[K.REASON]] == "hands_empty"


@pytest.mark.parametrize("tie_draw", [True, False])
def test_tied_zeros_follow_tie_losers_draw_in_both_engines(tie_draw: bool):
    # seats 0 and 1 each put a zero of white forward: a tie, both discarded; their owners draw
    # only under tie_losers_draw; then the game is played out at random in both engines
    cfg = GargonConfig(n_players=3, hand_size=2, tie_losers_draw=tie_draw)
    zero_a, zero_b = card_id(0, 0, 0), card_id(0, 0, 1)
    hands = [[zero_a, card_id(1, 3)], [zero_b, card_id(2, 3)], [card_id(3, 3), card_id(3, 4)]]
    piles = [[card_id(4, v) for v in range(1, 6)], [card_id(5, v) for v in range(1, 6)]]
    state = from_deal(cfg, hands, piles)
    moves = [Play((zero_a,)), Play((zero_b,)), Pass(1), K.decode(1, 0), K.decode(2, 0)]
    _, st = shadow(state, moves)
    assert state.ties == 1 and st[K.TIES] == 1
    assert sorted(state.discard) == [zero_a, zero_b]
    assert (state.phase == K.DRAW) == tie_draw and int(st[K.PHASE]) == state.phase
    shadow(state, random.Random(7))
    assert state.is_over()


def test_pass_zero_and_a_dry_pile_in_both_engines():
    # piles of one card each: a pass draws at most 2, a loser may find nothing left to draw,
    # and a follower facing two empty piles may only Pass(0)
    cfg = GargonConfig(n_players=3, hand_size=2)
    hands = [[card_id(0, 9), card_id(0, 0)], [card_id(0, 3), card_id(1, 4)], [card_id(2, 7)]]
    state = from_deal(cfg, hands, [[card_id(3, 2)], [card_id(4, 2)]])
    # seat 0 leads its 9; seat 1 passes drawing both pile cards; seat 2 may then only Pass(0)
    moves = [Play((card_id(0, 9),)), Pass(2), K.decode(1, 0), K.decode(1, 1), Pass(0)]
    t, st = shadow(state, moves)
    assert state.piles == [[], []]
    assert K.position(t, st) == K.reference_position(state)


def test_same_seed_same_games_and_first_k_of_n():
    cfg = GargonConfig(n_players=4)
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


@pytest.mark.parametrize("n", [3, 4, 5])
def test_kernel_games_keep_every_card(n: int):
    cfg = GargonConfig(n_players=n)
    games = K.play_random(cfg, 20, seed=5, record=True)
    table = games.table
    captured = sum(table[f"captured_{s}"] for s in range(n))
    assert np.all(captured > 0)
    assert np.all(table["reason"] == "pile_empty")
    # every game ended, so its win shares add up to one; a shared win is split evenly
    assert np.allclose(sum(table[f"win_{s}"] for s in range(n)), 1.0)
    assert np.all((table["winner"] >= 0) == (table["n_winners"] == 1))
    for deck in games.deals:
        assert sorted(deck.tolist()) == list(range(102))
    assert len({d.tobytes() for d in games.deals}) == len(games.deals)


def test_bad_input_is_refused_by_name():
    with pytest.raises(ConfigError, match="n_games must be a non-negative int"):
        K.play_random(GargonConfig(), -1, seed=1)
    with pytest.raises(ConfigError, match="needs a GargonConfig, got str"):
        K.play_random("4p", 1, seed=1)  # type: ignore[arg-type]
    t = K.tables(GargonConfig())
    with pytest.raises(ValueError, match="every one of the 102 cards exactly once"):
        K.state_from_deal(t, [0] * 102)
