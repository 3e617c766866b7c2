"""Garner's exact solver (``gamelib.garner.solver``) against plain minimax over the reference
engine, on small positions of several setups and rule variations; a hand-built position with
one winning collect; the node budget; and the keeps-the-value measure."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from gamelib.core import ConfigError, Move, game_rngs, game_seeds
from gamelib.garner import GARNER, SETUPS, GarnerConfig, GarnerState, custom
from gamelib.garner import keeps as K
from gamelib.garner import solver as S
from gamelib.garner.rules import COLLECT, LEAVE, LIFT, Collect, from_layout


def _variant(name: str, **rules: Any) -> GarnerConfig:
    return GarnerConfig(**{**vars(SETUPS[name]), **rules})


NEVER_4 = custom(3, 6, 2, 3, 3, forbidden_pile_size=4, max_turns=14)

# (config, cards left at most, positions): small enough for plain minimax in Python
CASES = [
    ("A", _variant("A"), 4, 5),
    ("standard", _variant("standard"), 3, 3),
    ("A must_move=one", _variant("A", must_move="one"), 4, 3),
    ("A straight_line", _variant("A", straight_line=True), 4, 3),
    ("A surface", _variant("A", top_layer="surface"), 4, 3),
    ("D must_move=all straight", _variant("D", must_move="all", straight_line=True), 4, 3),
    # 6-card suits: a suit can be split 3–3, so games can be drawn
    ("3×6 on 2×3", custom(3, 6, 2, 3, 3), 5, 3),
    # never exactly 4 (leave-behind decisions, empty collects) with a turn_limit in reach
    ("3×6 never 4", NEVER_4, 5, 3),
]


def _positions(cfg: GarnerConfig, cards_left: int, n: int, seed: int) -> list[GarnerState]:
    """Random play from seeded deals to at most ``cards_left`` cards, then a few decisions
    into the turn (so placements, collects and leave-behinds are met, not only lifts)."""
    out = []
    i = 0
    while len(out) < n:
        rng = random.Random(seed * 1000 + i)
        i += 1
        state = GARNER.new_state(cfg, rng)
        assert isinstance(state, GarnerState)
        while state.cards_in_layout() > cards_left and not state.is_over():
            state.apply(rng.choice(state.legal_moves()))
        for _ in range(len(out) % 3):  # 0, 1 or 2 decisions into the turn
            if state.is_over():
                break
            state.apply(rng.choice(state.legal_moves()))
            if state.phase == LIFT:
                break
        if not state.is_over():
            out.append(state)
    return out


def _key(state: GarnerState) -> tuple[Any, ...]:
    return (
        tuple(map(tuple, state.stacks)),
        tuple(map(tuple, state.piles)),
        state.to_move,
        state.phase,
        tuple(state.lifted),
        tuple(state.placed),
        state.pending,
        state.turns,
    )


def minimax(state: GarnerState, memo: dict[tuple[Any, ...], float]) -> float:
    """Seat 0's result under perfect play, by plain minimax over ``legal_moves()`` and
    ``apply`` on clones (memoised on the whole position, no pruning)."""
    if state.is_over():
        winners = state.outcome().winners
        return 0.5 if not winners else 1.0 if winners == (0,) else 0.0
    key = _key(state)
    if key not in memo:
        values = [minimax(_after(state, m), memo) for m in state.legal_moves()]
        memo[key] = max(values) if state.to_move == 0 else min(values)
    return memo[key]


def _after(state: GarnerState, move: Move) -> GarnerState:
    child = state.clone()
    child.apply(move)
    return child


@pytest.mark.parametrize(("name", "cfg", "cards_left", "n"), CASES, ids=[c[0] for c in CASES])
def test_solver_agrees_with_plain_minimax(
    name: str, cfg: GarnerConfig, cards_left: int, n: int
) -> None:
    solver = S.Solver(cfg)
    for state in _positions(cfg, cards_left, n, seed=len(name)):
        memo: dict[tuple[Any, ...], float] = {}
        legal = state.legal_moves()
        want = [minimax(_after(state, m), memo) for m in legal]
        best = max(want) if state.to_move == 0 else min(want)
        assert solver.solve(state) == best == minimax(state, memo)
        assert solver.option_values(state) == want
        assert solver.keeping_moves(state) == [k for k, v in enumerate(want) if v == best]


def test_every_result_and_decision_is_covered() -> None:
    """The cases above meet wins, losses and draws, and every kind of decision."""
    values = set()
    decisions = set()
    for _, cfg, cards_left, n in CASES:
        for state in _positions(cfg, cards_left, n, seed=7):
            values.add(S.solve(state))
            decisions.add(state.decision)
    assert values == {0.0, 0.5, 1.0}
    assert decisions == {"lift", "place", "collect"}


def test_leave_behind_decisions_agree_with_plain_minimax() -> None:
    """Never-exactly-4: random play to leave-behind decisions with a choice of card."""
    found = 0
    for i in range(200):
        rng = random.Random(i)
        state = GARNER.new_state(NEVER_4, rng)
        assert isinstance(state, GarnerState)
        while not state.is_over() and not (state.phase == LEAVE and len(state.legal_moves()) > 1):
            state.apply(rng.choice(state.legal_moves()))
        if state.is_over() or state.cards_in_layout() > 6:
            continue
        memo: dict[tuple[Any, ...], float] = {}
        want = [minimax(_after(state, m), memo) for m in state.legal_moves()]
        assert S.option_values(state) == want
        assert S.solve(state) == (max(want) if state.to_move == 0 else min(want))
        found += 1
        if found == 3:
            break
    assert found == 3


@pytest.mark.parametrize(("setup", "cards"), [("A", 10), ("standard", 6), ("C", 7)])
def test_search_order_and_table_size_do_not_change_values(setup: str, cards: int) -> None:
    """Larger positions than minimax can check: legal order, and greedy's order with a
    16-entry table (constant overwrites), find what greedy's order with a large table finds."""
    cfg = GARNER.config(setup)
    fast = S.Solver(cfg)
    legal_order = S.Solver(cfg, ordering=False)
    tiny_table = S.Solver(cfg, tt_bits=4)
    values = []
    for state in _positions(cfg, cards, 6, seed=3):
        v = fast.solve(state)
        keep = fast.keeping_moves(state)
        for other in (legal_order, tiny_table):
            other.clear()
            assert other.solve(state, max_nodes=3 * 10**6) == v
            assert other.keeping_moves(state, max_nodes=3 * 10**6) == keep
        values.append(v)
    assert len(set(values)) > 1


def _last_suit_decides() -> GarnerState:
    """Setup A, three single cards left on one level; suit 1 is seat 0's, suit 2 seat 1's,
    suit 0 stands 4–4 with its last card on site 0: whoever collects it wins the game."""
    layout: list[list[tuple[int, int]]] = [[] for _ in range(9)]
    layout[0] = [(0, 1)]
    layout[4] = [(1, 2)]
    layout[8] = [(2, 3)]
    return from_layout(GARNER.config("A"), layout, piles=[[4, 5, 3], [4, 3, 5]], to_move=0)


def test_the_one_winning_collect_is_found() -> None:
    state = _last_suit_decides()
    lift = next(m for m in state.legal_moves() if m.sites == (4,))  # type: ignore[attr-defined]
    state.apply(lift)
    state.apply(next(m for m in state.legal_moves() if m.site == 4))  # type: ignore[attr-defined]
    assert state.phase == COLLECT
    legal = state.legal_moves()
    assert len(legal) == 3
    win = legal.index(Collect((0,)))
    assert S.solve(state) == 1.0
    assert S.option_values(state) == [1.0 if k == win else 0.0 for k in range(3)]
    assert S.keeping_moves(state) == [win]
    # with seat 1 to move in the same spot, seat 1 takes it
    state.to_move = 1
    assert S.solve(state) == 0.0
    assert S.keeping_moves(state) == [win]


def test_placing_the_card_on_top_throws_the_game_away() -> None:
    """Lifting suit 1's card onto suit 0's site makes it the whole top layer: seat 0 must then
    collect it and seat 1 collects suit 0's card next turn."""
    state = _last_suit_decides()
    state.apply(next(m for m in state.legal_moves() if m.sites == (4,)))  # type: ignore[attr-defined]
    legal = state.legal_moves()
    values = S.option_values(state)
    assert values[legal.index(next(m for m in legal if m.site == 0))] == 0.0  # type: ignore[attr-defined]
    assert values[legal.index(next(m for m in legal if m.site == 4))] == 1.0  # type: ignore[attr-defined]


def _greedy_position(setup: str, cards: int, seed: int) -> GarnerState:
    positions, _ = K.sample_positions(GARNER.config(setup), cards, 1, seed, max_nodes=10**7)
    return positions[0].state


def test_the_node_budget_is_honoured() -> None:
    state = _greedy_position("A", 18, 2)
    solver = S.Solver(state.config)
    with pytest.raises(S.SolverBudgetError, match="max_nodes=50"):
        solver.solve(state, max_nodes=50)
    assert solver.nodes <= 50
    with pytest.raises(S.SolverBudgetError):
        solver.option_values(state, max_nodes=50)
    assert solver.nodes <= 50
    assert solver.solve(state) in (0.0, 0.5, 1.0)
    assert solver.nodes > 50  # the budget, not an easy position, stopped the first attempt
    with pytest.raises(ConfigError, match="max_nodes"):
        solver.solve(state, max_nodes=0)
    with pytest.raises(ConfigError, match="for 'standard'"):
        S.Solver(GARNER.config("standard")).solve(state)


def test_a_whole_deal_of_setup_a_is_solved_through_the_same_api() -> None:
    state = GARNER.new_state(GARNER.config("A"), random.Random(5))
    assert isinstance(state, GarnerState)
    solver = S.Solver(state.config)
    v = solver.solve(state, max_nodes=5 * 10**7)
    assert v in (0.0, 0.5, 1.0)
    keep = solver.keeping_moves(state, max_nodes=5 * 10**7)
    assert keep and all(0 <= k < len(state.legal_moves()) for k in keep)


@pytest.mark.parametrize(("game", "opponent"), [(0, "random"), (1, "greedy")])
def test_the_solvers_strategy_wins_what_it_calls_won(game: int, opponent: str) -> None:
    """Whole setup-A deals: the side the solver calls the winner, always taking a keeping move,
    wins against another player (a wrong value or keeping move would lose somewhere)."""
    cfg = GARNER.config("A")
    solver = S.Solver(cfg)
    chance, seat_rngs = game_rngs(game_seeds(99, 2)[game], 2)
    state = GARNER.new_state(cfg, chance)
    assert isinstance(state, GarnerState)
    v = solver.solve(state)
    assert v in (0.0, 1.0)  # 9-card suits: no draws
    winner = 0 if v == 1.0 else 1
    other = GARNER.player(opponent)
    while not state.is_over():
        seat = state.to_move
        legal = state.legal_moves()
        if seat == winner:
            keep = solver.keeping_moves(state)
            move = legal[keep[seat_rngs[seat].randrange(len(keep))]]
        else:
            move = other(state.clone(), legal, seat_rngs[seat])
        state.apply(move)
        assert solver.solve(state) == v
    assert state.outcome().winners == (winner,)


# --- keeping the value ----------------------------------------------------------------------------


def _oracle(observation: GarnerState, legal: Sequence[Move], rng: random.Random) -> Move:
    """Always a keeping move (the solver's first)."""
    return legal[S.keeping_moves(observation)[0]]


def _spoiler(observation: GarnerState, legal: Sequence[Move], rng: random.Random) -> Move:
    """A losing move wherever there is one."""
    keep = S.keeping_moves(observation)
    return legal[next((k for k in range(len(legal)) if k not in keep), 0)]


def test_keeps_value_shares() -> None:
    cfg = GARNER.config("A")
    table = K.keeps_value(cfg, ["random", "greedy", _oracle, _spoiler], 9, 120, 3)
    rows = table.set_index("player")
    assert set(rows["sampled"]) == {120}
    critical = int(rows.loc["random", "critical"])
    assert 20 <= critical < 120
    assert (rows["critical"] == critical).all()  # every player is judged on the same positions
    assert rows.loc["_oracle", "share"] == 1.0
    assert rows.loc["_spoiler", "share"] == 0.0
    assert rows.loc["random", "share"] < rows.loc["greedy", "share"]
    for _, r in rows.iterrows():
        assert r["share_lo"] <= r["share"] <= r["share_hi"]


def test_sampled_positions_are_where_asked() -> None:
    cfg = GARNER.config("A")
    positions, unsolved = K.sample_positions(cfg, 8, 30, 11, reach=["random", "greedy"])
    assert unsolved == 0 and 25 <= len(positions) <= 30
    for pos in positions:
        assert pos.state.cards_in_layout() <= 8
        assert pos.n_options == len(pos.state.legal_moves()) >= 2
        assert pos.value == S.solve(pos.state)
        assert all(s.to_move == pos.state.to_move for s, _ in pos.turn)
    again, _ = K.sample_positions(cfg, 8, 30, 11, reach=["random", "greedy"])
    assert [p.keeping for p in again] == [p.keeping for p in positions]
    judged = K.judge(positions, "greedy")
    assert len(judged) == sum(p.critical for p in positions)
    lost = judged[~judged["kept"]]
    assert (lost["choice_value"] < lost["value"]).all()
    assert (judged.loc[judged["kept"], "choice_value"] == judged.loc[judged["kept"], "value"]).all()
