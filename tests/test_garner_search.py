"""Garner's search player ``mcts:N`` (``gamelib.garner.search``): its spec, seeding, legality,
an endgame it must not lose, and its strength against greedy with an interval."""

from __future__ import annotations

import math
import random

import pandas as pd
import pytest

from gamelib.core import Chance, ConfigError
from gamelib.garner import GARNER, SETUPS, GarnerConfig, GarnerState
from gamelib.garner import search as S
from gamelib.garner.rules import COLLECT, LIFT, Collect, rule_tables
from gamelib.records import play_game
from gamelib.sim import simulate
from gamelib.stats import clustered_rate

A = GARNER.config("A")


# --- the spec ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "want"),
    [
        ("1000", S.MCTSSettings(1000, "greedy", 2, 0.1)),
        ("200:random", S.MCTSSettings(200, "random", 0, 0.5)),
        ("50:greedy:7", S.MCTSSettings(50, "greedy", 7, 0.1)),
        ("50:greedy:0", S.MCTSSettings(50, "greedy", 0, 0.1)),
        ("50:random:0:1.4", S.MCTSSettings(50, "random", 0, 1.4)),
    ],
)
def test_spec_parses(spec: str, want: S.MCTSSettings) -> None:
    assert S.parse_spec(spec) == want
    player = GARNER.player(f"mcts:{spec}")
    assert isinstance(player, S.MCTSPlayer)
    assert player.settings == want
    assert player.__name__ == f"mcts:{spec}"


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        ("mcts", "iteration budget"),
        ("mcts:0", "whole number N ≥ 1"),
        ("mcts:lots", "whole number N ≥ 1"),
        ("mcts:-5", "whole number N ≥ 1"),
        ("mcts:1.5", "whole number N ≥ 1"),
        ("mcts:100:smart", "playout policy"),
        ("mcts:100:random:x", "CUTOFF"),
        ("mcts:100:random:-1", "CUTOFF"),
        ("mcts:100:random:5:-1", "exploration constant"),
        ("mcts:100:random:5:nan", "exploration constant"),
        ("mcts:100:random:5:big", "exploration constant"),
        ("mcts:100:random:5:1:9", "at most four"),
    ],
)
def test_bad_spec_is_refused_by_name(spec: str, problem: str) -> None:
    with pytest.raises(ConfigError, match=problem):
        GARNER.player(spec)


def test_simulate_refuses_a_bad_spec_before_playing() -> None:
    with pytest.raises(ConfigError, match="playout policy"):
        simulate(A, ["mcts:10:clever", "greedy"], 1, 0, workers=1, progress=False)


# --- seeding and legality -----------------------------------------------------------------------


def _mid_game(cfg: GarnerConfig, seed: int, decisions: int) -> GarnerState:
    rng = random.Random(seed)
    state = GARNER.new_state(cfg, rng)
    for _ in range(decisions):
        state.apply(rng.choice(state.legal_moves()))
    assert not state.is_over()
    return state  # type: ignore[return-value]


def test_same_seed_same_search() -> None:
    state = _mid_game(GARNER.config("standard"), 3, 40)
    settings = S.parse_spec("300:random")
    first = S.root_children(state, settings, 99)
    assert S.root_children(state, settings, 99) == first
    assert sum(v for _, v, _ in first) == 300
    assert [d for d, _, _ in first] == [
        m.sites[0] if hasattr(m, "sites") else m.site for m in state.legal_moves()
    ]
    # the player draws its seed from the seat's rng: equal streams, equal decisions
    player = S.mcts("300:random")
    legal = state.legal_moves()
    picks = {player(state, legal, random.Random(5)) for _ in range(3)}
    assert len(picks) == 1
    assert picks <= set(legal)


def test_greedy_playout_search_is_reproducible() -> None:
    """The default search (greedy playouts, greedy's decision first, widening below the root)
    spends its whole budget on the root's options and repeats itself for a seed."""
    state = _mid_game(A, 8, 6)
    settings = S.parse_spec("150")
    first = S.root_children(state, settings, 4)
    assert S.root_children(state, settings, 4) == first
    assert sum(v for _, v, _ in first) == 150
    assert all(v > 0 for _, v, _ in first)  # the root tries every option


def test_different_seeds_search_differently() -> None:
    state = _mid_game(GARNER.config("standard"), 3, 40)
    settings = S.parse_spec("300:random")
    assert S.root_children(state, settings, 1) != S.root_children(state, settings, 2)


def test_play_game_is_reproducible() -> None:
    players = ["mcts:40", "greedy"]
    a = play_game(GARNER, A, players, 11, record=True)
    b = play_game(GARNER, A, players, 11, record=True)
    assert a.record is not None and b.record is not None
    assert a.record["moves"] == b.record["moves"]
    assert a.outcome == b.outcome
    c = play_game(GARNER, A, players, 12, record=True)
    assert c.record is not None and c.record["moves"] != a.record["moves"]


VARIANTS = [
    GarnerConfig(**{**vars(SETUPS[name]), **extra})
    for name, extra in [
        ("A", {}),
        ("B", {}),  # never exactly 6: leave-behind decisions
        ("C", {"top_layer": "surface"}),
        ("D", {"must_move": "one", "straight_line": True}),
        ("A", {"must_move": "all"}),
        ("E", {"max_turns": 30}),  # a stalled game ends as a turn_limit draw
    ]
]


@pytest.mark.parametrize("cfg", VARIANTS, ids=lambda c: f"{c.setup}-{c.must_move}-{c.top_layer}")
@pytest.mark.parametrize("spec", ["mcts:12:random", "mcts:8:greedy:2:1"])
def test_search_only_makes_legal_decisions(cfg: GarnerConfig, spec: str) -> None:
    """The engine refuses an illegal move (IllegalMoveError), and the player checks that the
    kernel counts as many legal options as the engine at every decision."""
    seen: list[int] = []
    base = S.mcts(spec.partition(":")[2])

    def watched(observation: GarnerState, legal: list[object], rng: random.Random) -> object:
        move = base(observation, legal, rng)  # type: ignore[arg-type]
        assert move in legal
        seen.append(observation.phase)
        return move

    pg = play_game(GARNER, cfg, [watched, "random"], 4)
    assert pg.state.is_over()
    assert LIFT in seen and COLLECT in seen


# --- an endgame -----------------------------------------------------------------------------


def _endgame(phase: int) -> GarnerState:
    """Garner A, two cards left at level 1 on opposite corners: suit 0's on site 0, suit 1's on
    site 8. Seat 0 has won suit 0 (5 of 9) and holds 4 of suit 1; seat 1 has won suit 2 and holds
    4 of suit 1. Whoever collects the suit-1 card wins the game, and seat 0 moves: it must
    collect site 8 (and, from the lift, must not bury site 8 under the other card)."""
    t = rule_tables(A)
    cards = {u: [c for c in range(len(t.suit_of)) if t.suit_of[c] == u] for u in range(3)}
    a, b = cards[0][0], cards[1][0]
    stacks: list[list[int]] = [[] for _ in range(9)]
    stacks[0], stacks[8] = [a], [b]
    state = GarnerState(A, stacks, Chance(None))
    state.piles = [[5, 4, 4], [3, 4, 5]]
    mine = {0: cards[0][1:6], 1: cards[1][1:5], 2: cards[2][:4]}
    theirs = {0: cards[0][6:9], 1: cards[1][5:9], 2: cards[2][4:9]}
    state.collected = [
        [c for u in range(3) for c in mine[u]],
        [c for u in range(3) for c in theirs[u]],
    ]
    assert sorted(c for p in state.collected for c in p) == sorted(
        c for c in range(27) if c not in (a, b)
    )
    state.turns = 12
    state.phase = phase
    state._legal = None
    return state


def _material(piles: list[list[int]]) -> float:
    state = _endgame(LIFT)
    state.piles = piles
    t, st = S.from_reference(state)
    return float(S.material(t, S.player_tables(A).suit_total, st))


def test_material_estimate_counts_leads_and_won_suits() -> None:
    """A lead in an open suit counts its cards, a won suit (5 of 9) a full majority of 5; the
    estimate is seat 0's and symmetric between the seats."""
    assert _material([[0, 0, 0], [0, 0, 0]]) == 0.5
    assert _material([[2, 0, 0], [0, 0, 0]]) == pytest.approx(0.5 + 0.5 * math.tanh(2 / 4))
    assert _material([[0, 0, 0], [0, 2, 0]]) == pytest.approx(0.5 - 0.5 * math.tanh(2 / 4))
    assert _material([[5, 0, 0], [4, 0, 0]]) == pytest.approx(0.5 + 0.5 * math.tanh(5 / 4))
    assert _material([[6, 1, 0], [3, 3, 0]]) == pytest.approx(0.5 + 0.5 * math.tanh(3 / 4))
    # more of a suit already won is worth nothing more
    assert _material([[9, 0, 0], [0, 0, 0]]) == _material([[5, 0, 0], [0, 0, 0]])


@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize("seed", range(4))
def test_takes_the_winning_collect(policy: str, seed: int) -> None:
    state = _endgame(COLLECT)
    legal = state.legal_moves()
    assert legal == [Collect((0,)), Collect((8,))]
    player = S.mcts(f"30:{policy}")
    assert player(state, legal, random.Random(seed)) == Collect((8,))
    # and the search knows why: the winning collect is a win (the result's share of the reward
    # and more) to the seat that makes it, the other a loss
    root = S.root_children(state, S.parse_spec(f"30:{policy}"), seed)
    assert root[1][2] >= S.RESULT_WEIGHT and root[0][2] <= 1 - S.RESULT_WEIGHT


@pytest.mark.parametrize("seed", range(4))
def test_wins_the_endgame_from_the_lift(seed: int) -> None:
    """From the lift, seat 0 needs three right sub-decisions in a row (same seat, no
    perspective flip between them) against an opponent who gets no chance to spoil them."""
    state = _endgame(LIFT)
    player = S.mcts("60:random")
    rng = random.Random(seed)
    while not state.is_over():
        legal = state.legal_moves()
        move = player(state, legal, rng) if state.to_move == 0 else legal[0]
        state.apply(move)
    assert state.outcome().winners == (0,)


# --- strength -----------------------------------------------------------------------------------


def _share(table: pd.DataFrame, name: str) -> pd.DataFrame:
    """``name``'s share of each game (win 1, draw ½), with an interval clustered by deal."""
    won = table["winner_player"].astype(str)
    share = (won == name).astype(float) + 0.5 * (won == "").astype(float)
    return clustered_rate(table.assign(share=share), "share")


def test_mcts_200_beats_greedy_in_setup_a() -> None:
    """The issue's strength check: ``mcts:200`` against greedy in Garner A, every deal played
    from both seats; its share of the games (draws half) has a 95% interval above ½."""
    table = simulate(
        A, ["mcts:200", "greedy"], 150, 2026, rotate_seats=True, workers=1, progress=False
    )
    r = _share(table, "mcts:200").iloc[0]
    assert r["games"] == 300
    assert r["lo"] > 0.5, r.to_dict()


def test_mcts_beats_greedy_in_the_standard_setup() -> None:
    """Standard's long games: the first version of ``mcts`` (full playouts, win/loss rewards)
    won 0.05 of them against greedy; with the default cut-off it must win, interval above ½."""
    table = simulate(
        GARNER.config("standard"),
        ["mcts:100", "greedy"],
        20,
        2026,
        rotate_seats=True,
        workers=1,
        progress=False,
    )
    r = _share(table, "mcts:100").iloc[0]
    assert r["games"] == 40
    assert r["lo"] > 0.5, r.to_dict()


def test_more_iterations_are_not_weaker() -> None:
    """``mcts:400`` against ``mcts:100``: the interval of the bigger budget's share is not
    entirely below ½."""
    table = simulate(
        A, ["mcts:400", "mcts:100"], 40, 7, rotate_seats=True, workers=1, progress=False
    )
    r = _share(table, "mcts:400").iloc[0]
    assert r["games"] == 80
    assert r["hi"] >= 0.5, r.to_dict()


def test_the_tree_sees_past_the_cut_off_with_a_larger_budget() -> None:
    """The cut-off counts from the leaf, not the root: with enough iterations some path of the
    tree ends more than CUTOFF turns past the searched position (before issue 21 the tree was
    stopped there, so no budget could see further)."""
    import numpy as np

    state = _mid_game(GARNER.config("A"), 4, 6)
    t, root = S.from_reference(state)
    pt = S.player_tables(state.config)
    cutoff = S.DEFAULT_CUTOFF["greedy"]

    def deepest_turn(iterations: int) -> int:
        nodes, _, n = S.search_tree(
            t, pt, root, root.copy(), -1, iterations, S.GREEDY, cutoff, 0.1, 12345
        )
        work = S.new_work(t)
        best = 0
        for leaf in range(1, n):
            path = []
            node = leaf
            while node > 0:
                path.append(int(nodes[node, S.F_MOVE]))
                node = int(nodes[node, S.F_PARENT])
            st = root.copy()
            for move in reversed(path):
                S.apply(t, st, move, work)
            best = max(best, int(st[S.TURNS]))
        return best

    small, large = deepest_turn(50), deepest_turn(3000)
    assert large > int(root[S.TURNS]) + cutoff, (small, large, int(root[S.TURNS]))
    assert large >= small
    assert np.iinfo(np.int64).max > large  # a real turn count


@pytest.mark.parametrize("setup", ["A", "standard"])
def test_stopping_early_never_changes_the_decision(setup: str) -> None:
    """The player's search stops once its most visited root child cannot be overtaken: on
    positions across whole games its decision equals the full budget's most visited child, and
    on some of them it did stop early (fewer root visits than the budget)."""
    cfg = GARNER.config(setup)
    pt = S.player_tables(cfg)
    stopped = decided = 0
    for g in range(2):
        rng = random.Random(100 + g)
        state = GARNER.new_state(cfg, rng)
        assert isinstance(state, GarnerState)
        while not state.is_over() and decided < 40:
            legal = state.legal_moves()
            if len(legal) > 1:
                t, st = S.from_reference(state)
                seed = rng.getrandbits(63)
                full, value, _ = S.search_tree(t, pt, st, st, -1, 300, S.GREEDY, 2, 0.1, seed)
                short, _, _ = S.search_tree(t, pt, st, st, -1, 300, S.GREEDY, 2, 0.1, seed, True)
                k, n = S.search(t, pt, st, st, -1, 300, S.GREEDY, 2, 0.1, seed)
                assert n == len(legal)
                assert k == S.best_root_child(full, value)
                stopped += int(short[0, S.F_VISITS] < full[0, S.F_VISITS])
                decided += 1
                state.apply(legal[k])
            else:
                state.apply(legal[0])
    assert decided >= 20 and stopped > 0, (decided, stopped)
