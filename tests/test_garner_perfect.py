"""The ``solver:N[:CARDS[:MAX_NODES]]`` player (``gamelib.garner.perfect``): ``mcts:N`` above its
card threshold, exact play below it, the search again when a solve passes its node budget."""

from __future__ import annotations

import pandas as pd
import pytest

from gamelib.core import ConfigError, game_rngs, game_seeds
from gamelib.garner import GARNER, GarnerState
from gamelib.garner import keeps as K
from gamelib.garner import solver as S
from gamelib.garner.perfect import DEFAULT_CARDS, DEFAULT_MAX_NODES, SolverPlayer
from gamelib.sim import simulate


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("solver", "iteration budget"),
        ("solver:x", "solver:N"),
        ("solver:0", "solver:N"),
        ("solver:50:0", "CARDS"),
        ("solver:50:12:-3", "MAX_NODES"),
        ("solver:50:12:9:1", "at most three"),
    ],
)
def test_bad_specs_are_refused_by_name(spec: str, words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        GARNER.player(spec)


def test_defaults() -> None:
    p = GARNER.player("solver:50")
    assert isinstance(p, SolverPlayer)
    assert (p.cards, p.max_nodes, p.mcts.settings.iterations) == (
        DEFAULT_CARDS,
        DEFAULT_MAX_NODES,
        50,
    )


def _games(players: list[str], n: int = 6, setup: str = "A") -> list[tuple[str, ...]]:
    table = simulate(GARNER.config(setup), players, n, 5, workers=1, progress=False, records=None)
    return [tuple(map(str, r)) for r in table[["winner", "turns", "score_0", "score_1"]].values]


def test_above_its_threshold_it_is_mcts() -> None:
    """With exact play never reached (1 card) or every solve over budget (1 node), the games
    are mcts:N's own, move for move (the same seeded streams, the same choices)."""
    mcts = _games(["mcts:30", "greedy"])
    assert _games(["solver:30:1", "greedy"]) == mcts
    assert _games(["solver:30:27:1", "greedy"]) == mcts


def test_over_budget_solves_fall_back_and_are_counted() -> None:
    cfg = GARNER.config("A")
    chance, rngs = game_rngs(game_seeds(3, 1)[0], 2)
    state = GARNER.new_state(cfg, chance)
    assert isinstance(state, GarnerState)
    player = GARNER.player("solver:20:27:1")
    assert isinstance(player, SolverPlayer)
    player(state.clone(), state.legal_moves(), rngs[0])
    assert (player.solved, player.fallbacks) == (0, 1)


@pytest.mark.parametrize("game", [0, 1, 2])
def test_it_keeps_the_value_at_every_decision(game: int) -> None:
    """Whole setup-A deals from the first move: after each of the solver player's decisions the
    position's value for its seat is what it was before (it never throws a result away), and
    when it holds a won position it wins."""
    cfg = GARNER.config("A")
    chance, rngs = game_rngs(game_seeds(17, 3)[game], 2)
    state = GARNER.new_state(cfg, chance)
    assert isinstance(state, GarnerState)
    seat = game % 2
    players = {seat: GARNER.player("solver:20:27:50000000"), 1 - seat: GARNER.player("mcts:20")}
    start = S.solve(state)
    mine = start if seat == 0 else 1 - start
    while not state.is_over():
        mover = state.to_move
        move = players[mover](state.clone(), state.legal_moves(), rngs[mover])
        state.apply(move)
        if mover == seat:
            v = S.solve(state)
            assert (v if seat == 0 else 1 - v) >= mine
            mine = v if seat == 0 else 1 - v
    if mine == 1.0:
        assert state.outcome().winners == (seat,)
    p = players[seat]
    assert isinstance(p, SolverPlayer) and p.solved > 0 and p.fallbacks == 0


def test_it_keeps_the_value_at_sampled_critical_positions() -> None:
    table = K.keeps_value(GARNER.config("A"), ["solver:20:27", "greedy"], 18, 60, 8)
    rows = table.set_index("player")
    assert rows.loc["solver:20:27", "critical"] >= 5
    assert rows.loc["solver:20:27", "share"] == 1.0


def test_perfect_deals_are_the_deals_simulate_plays() -> None:
    """``keeps.perfect_deals`` solves deal i of a seed as ``simulate`` deals it: two players
    exact from the first move reach each deal's value under perfect play."""
    from gamelib.garner.keeps import perfect_deals

    deals = perfect_deals("A", 3, 5)
    assert list(deals.deal) == [0, 1, 2] and deals.value.isin([0.0, 1.0]).all()
    exact = "solver:10:27:50000000"
    table = simulate(GARNER.config("A"), [exact, exact], 3, 5, workers=1, progress=False)
    assert list(table.win_0.astype(float)) == list(deals.value)


def test_a_count_is_a_prefix_so_a_study_computes_only_the_items_past_what_it_holds() -> None:
    """Deals ``first`` … n − 1, and the positions of games ``first`` … n − 1, are the tail of
    the full count's; :class:`keeps.Solved` asks for them so (``gamelib.study.Study.table``),
    and the stored studies serve setup A and seed 2026 alone."""
    full = K.perfect_deals("A", 5, 5).drop(columns="seconds")
    tail = K.perfect_deals("A", 5, 5, first=3).drop(columns="seconds")
    pd.testing.assert_frame_equal(tail, full[3:].reset_index(drop=True))
    cfg = GARNER.config("A")
    whole, _ = K.sample_positions(cfg, 9, 14, 3)
    part, _ = K.sample_positions(cfg, 9, 14, 3, first=8)
    assert [(p.game, p.value, p.keeping) for p in part] == [
        (p.game, p.value, p.keeping) for p in whole if p.game >= 8
    ]
    with pytest.raises(ConfigError, match="first must be"):
        K.sample_positions(cfg, 9, 4, 3, first=5)
    parts = [{"cards_left": 9, "player": "greedy"}, {"cards_left": 9, "player": "random"}]
    judged = K.Solved("positions", "A", 3).make(parts, 8, 14)
    expected = K.study("A", ["greedy", "random"], [9], 14, 3, first=8)
    pd.testing.assert_frame_equal(judged, expected)
    assert judged.game.between(8, 13).all() and set(judged.player) <= {"greedy", "random"}
    assert (
        K.Solved("deals").stored == K.STORED["deals"] and K.Solved("deals", seed=3).stored is None
    )
    assert K.Solved("positions").item == "game" and K.Solved("deals").item == "deal"
    with pytest.raises(ConfigError, match="kind must be"):
        K.Solved("moves")
