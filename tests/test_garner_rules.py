"""Garner rules pinned by hand-built positions: every rule on the rules page can fail here."""

from __future__ import annotations

import random

import pytest

from gamelib import ConfigError, IllegalMoveError
from gamelib.garner import (
    GARNER,
    SETUPS,
    Collect,
    GarnerConfig,
    LeaveBehind,
    Lift,
    Place,
    custom,
    new_state,
)
from gamelib.garner.rules import from_layout

# every move and result below is also made by the compiled kernel and compared (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("garner_kernel_shadow")

# --- setups and configs --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("setup", "deck", "grid", "height"),
    [
        ("standard", 75, (5, 5), 3),
        ("A", 27, (3, 3), 3),
        ("B", 36, (3, 3), 4),
        ("C", 48, (4, 4), 3),
        ("D", 45, (3, 5), 3),
        ("E", 60, (4, 5), 3),
    ],
)
def test_setups_deal_the_whole_deck(setup: str, deck: int, grid: tuple[int, int], height: int):
    cfg = GARNER.config(setup)
    assert sum(cfg.suit_sizes) == deck
    assert (cfg.rows, cfg.cols, cfg.height) == (*grid, height)
    state = new_state(cfg, random.Random(0))
    cards = [c for st in state.stacks for c in st]
    assert sorted(cards) == list(range(deck))
    assert all(len(st) == height for st in state.stacks)


def test_setup_extra_rules():
    assert SETUPS["B"].forbidden_pile_size == 6
    assert SETUPS["E"].forbidden_pile_size == 6
    for name in ("standard", "A", "C", "D"):
        assert SETUPS[name].forbidden_pile_size is None
    assert SETUPS["C"].suit_sizes == (13, 13, 13, 9)
    assert SETUPS["C"].weights == (1.0, 1.0, 1.0, 0.5)
    assert SETUPS["A"].weights == (1.0, 1.0, 1.0)


def test_custom_setup_must_deal_the_whole_deck():
    assert custom(2, 6, 2, 3, 2).suit_sizes == (6, 6)
    with pytest.raises(ConfigError, match=r"27 cards .* 3×3 grid 4 high \(36 places\)"):
        custom(3, 9, 3, 3, 4)
    with pytest.raises(ConfigError, match="unknown garner setup 'F'"):
        GARNER.config("F")
    with pytest.raises(ConfigError, match="unknown config field"):
        GARNER.config("A", colour="red")


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("top_layer", "highest", "top_layer"),
        ("must_move", "some", "must_move"),
        ("straight_line", "yes", "straight_line"),
        ("forbidden_pile_size", 0, "forbidden_pile_size"),
        ("suit_weights", (1.0,), "suit_weights"),
        ("max_turns", 0, "max_turns"),
        ("rows", -1, "rows"),
    ],
)
def test_bad_config_values_are_refused_by_name(field: str, value: object, message: str):
    with pytest.raises(ConfigError, match=message):
        GARNER.config("A", **{field: value})


# --- a hand-built position on a 2×3 grid ---------------------------------------------------
#  sites:  0 1 2
#          3 4 5
SMALL = custom(2, 6, 2, 3, 2)
LAYOUT = [
    [(0, 1), (0, 5)],  # 0: top (0,5), level 2
    [(1, 5)],  # 1: top (1,5), level 1
    [(1, 1), (1, 2)],  # 2: top (1,2), level 2
    [(0, 2), (1, 3)],  # 3: top (1,3), level 2
    [(0, 3), (0, 4)],  # 4: top (0,4), level 2
    [(1, 4)],  # 5: top (1,4), level 1
]


def small(**rules: object):
    return from_layout(GARNER.config(None, **{**_small_fields(), **rules}), LAYOUT)


def _small_fields() -> dict[str, object]:
    return {"suit_sizes": SMALL.suit_sizes, "rows": 2, "cols": 3, "height": 2}


def test_groups_under_level_reading():
    s = small(top_layer="level")
    assert s.top_sites() == [0, 2, 3, 4]
    assert sorted(s.number_groups()) == [(0,), (2,), (3,), (4,)]
    assert sorted(s.suit_groups()) == [(0,), (2,), (3,), (4,)]
    assert s.legal_moves() == [Lift((0,)), Lift((2,)), Lift((3,)), Lift((4,))]


def test_groups_under_surface_reading():
    s = small(top_layer="surface")
    assert s.top_sites() == [0, 1, 2, 3, 4, 5]
    assert sorted(s.number_groups()) == [(0, 1), (2,), (3,), (4, 5)]
    assert sorted(s.suit_groups()) == [(0,), (1, 2, 5), (3,), (4,)]


def test_a_turn_lifts_places_on_top_and_collects():
    s = small()
    assert s.current_player() == 0 and s.decision == "lift"
    s.apply(Lift((4,)))  # the (0,4)
    assert s.decision == "place"
    assert s.stacks[4] == [s.stacks[4][0]] and len(s.stacks[4]) == 1
    # any site is open, its own former site and the low stacks included
    assert s.legal_moves() == [Place(i) for i in range(6)]
    s.apply(Place(5))  # lands at level 2 on top of (1,4)
    assert s.card(s.stacks[5][-1]) == (0, 4) and len(s.stacks[5]) == 2
    assert s.decision == "collect"
    # level 2 now: sites 0, 2, 3, 5 — (0,5) at 0 alone; (1,2) at 2; (1,3) at 3; (0,4) at 5
    assert sorted(m.sites for m in s.legal_moves()) == [(0,), (2,), (3,), (5,)]
    s.apply(Collect((5,)))
    assert s.piles[0] == [1, 0] and s.collected_per_turn == [1]
    assert s.current_player() == 1 and s.decision == "lift" and s.turns == 1


def test_cards_placed_above_the_top_layer_start_a_new_one_alone():
    s = small(top_layer="level")
    s.apply(Lift((2,)))
    s.apply(Place(0))  # (1,2) on a 2-high stack: level 3, the only card there
    assert s.top_sites() == [0]
    assert s.legal_moves() == [Collect((0,))]
    t = small(top_layer="surface")
    t.apply(Lift((2,)))
    t.apply(Place(0))
    assert len(t.legal_moves()) > 1


def test_two_lifted_cards_never_share_a_site():
    s = small(top_layer="surface")
    s.apply(Lift((0, 1)))  # the two 5s
    s.apply(Place(3))
    assert Place(3) not in s.legal_moves()
    with pytest.raises(IllegalMoveError, match="Place\\(site=3\\)"):
        s.apply(Place(3))


def test_illegal_moves_are_refused_with_a_reason():
    s = small()
    with pytest.raises(IllegalMoveError, match="next decision is lift"):
        s.apply(Place(0))
    with pytest.raises(IllegalMoveError, match="legal:"):
        s.apply(Lift((1,)))  # (1,5) is below the top level
    assert isinstance(IllegalMoveError("x"), ValueError)


def test_must_move_all_forbids_the_own_site():
    s = small(must_move="all")
    s.apply(Lift((4,)))
    assert Place(4) not in s.legal_moves()
    assert len(s.legal_moves()) == 5


def test_must_move_one_needs_at_least_one_card_elsewhere():
    s = small(top_layer="surface", must_move="one")
    s.apply(Lift((0, 1)))
    assert Place(0) in s.legal_moves()  # first card may go home...
    s.apply(Place(0))
    assert Place(1) not in s.legal_moves()  # ...then the second may not
    single = small(must_move="one")
    single.apply(Lift((4,)))
    assert Place(4) not in single.legal_moves()  # a lone card must move


def test_straight_line_keeps_cards_on_their_row_column_or_diagonal():
    cfg = GARNER.config("standard", straight_line=True)
    layout = [[(i // 5, i % 5 + 1 + 5 * (i // 5 % 3))] for i in range(25)]
    s = from_layout(cfg, layout)
    s.apply(Lift((0,)))  # corner (0,0)
    sites = {m.site for m in s.legal_moves()}
    assert sites == {0, 1, 2, 3, 4, 5, 10, 15, 20, 6, 12, 18, 24}
    assert 7 not in sites  # a knight's move away


def test_no_dead_end_is_ever_offered():
    # 1×3 row, every card must move, all on one line: 0→1 then 1→0 would strand the third card
    cfg = GARNER.config(
        None, suit_sizes=(1, 1, 1), rows=1, cols=3, height=1, must_move="all", straight_line=True
    )
    s = from_layout(cfg, [[(0, 1)], [(1, 1)], [(2, 1)]])
    s.apply(Lift((0, 1, 2)))
    assert s.legal_moves() == [Place(1), Place(2)]
    s.apply(Place(1))
    assert s.legal_moves() == [Place(2)]  # 0 would leave the last card nowhere to go


def test_never_exactly_six_leaves_one_card_behind():
    # sites 0 and 1 hold (1,1) and (1,2): a suit-1 pair in the top layer
    layout = [[(1, 1)], [(1, 2)], [(0, 3)], [(0, 6)], [(0, 2)], [(1, 3)]]
    u = from_layout(GARNER.config(None, **_small_fields(), forbidden_pile_size=6), layout)
    u.piles = [[0, 4], [0, 0]]
    u.apply(Lift((3,)))  # (0,6) lifted
    u.apply(Place(3))
    assert Collect((0, 1)) in u.legal_moves()  # (1,1) and (1,2): 4 + 2 would make exactly 6
    u.apply(Collect((0, 1)))
    assert u.decision == "leave"
    assert u.legal_moves() == [LeaveBehind(0), LeaveBehind(1)]
    u.apply(LeaveBehind(1))
    assert u.piles[0][1] == 5
    assert u.card(u.stacks[1][-1]) == (1, 2)  # left in the layout
    assert u.collected_per_turn == [1]


def test_never_exactly_six_can_mean_collecting_nothing():
    layout = [[(1, 1)], [(0, 2)], [(0, 3)], [(0, 6)], [(0, 4)], [(1, 3)]]
    s = from_layout(GARNER.config(None, **_small_fields(), forbidden_pile_size=6), layout)
    s.piles = [[0, 5], [0, 0]]
    s.apply(Lift((3,)))
    s.apply(Place(3))
    s.apply(Collect((0,)))  # the lone (1,1): 5 + 1 = 6
    assert s.legal_moves() == [LeaveBehind(0)]
    s.apply(LeaveBehind(0))
    assert s.collected_per_turn == [0] and s.piles[0] == [0, 5]
    assert s.card(s.stacks[0][-1]) == (1, 1)
    # without the rule the same collection goes through
    t = from_layout(GARNER.config(None, **_small_fields()), layout)
    t.piles = [[0, 5], [0, 0]]
    t.apply(Lift((3,)))
    t.apply(Place(3))
    t.apply(Collect((0,)))
    assert t.piles[0] == [0, 6] and t.decision == "lift"


def _finished(cfg: GarnerConfig, piles: list[list[int]]):
    s = from_layout(cfg, [[] for _ in range(cfg.rows * cfg.cols)], piles=piles)
    s.phase = 4  # OVER: an empty layout with these scoring piles
    return s.outcome()


def test_half_suit_counts_half():
    c = SETUPS["C"]
    # seat 0 wins suits 0 and the half suit 3; seat 1 wins suits 1 and 2: 1.5 against 2
    out = _finished(c, [[7, 6, 6, 5], [6, 7, 7, 4]])
    assert out.scores == (1.5, 2.0) and out.winners == (1,)
    assert out.counters["suits_won_0"] == 2 and out.counters["suits_won_1"] == 2
    # the same split under setup A-like full weights would be a draw
    full = GARNER.config("C", suit_weights=None)
    assert _finished(full, [[7, 6, 6, 5], [6, 7, 7, 4]]).winners == ()


def test_equal_counts_win_nobody_and_equal_totals_draw():
    a = SETUPS["A"]
    out = _finished(a, [[5, 4, 9], [4, 5, 0]])
    assert out.scores == (2.0, 1.0) and out.winners == (0,)
    tie = _finished(a, [[5, 4, 4], [4, 5, 4]])
    assert tie.winners == () and tie.is_draw
    level = _finished(custom(2, 4, 2, 2, 2), [[2, 2], [2, 2]])
    assert level.scores == (0.0, 0.0) and level.winners == ()
    assert level.reason == "layout_empty"


def test_turn_limit_stops_a_stalled_game_as_a_draw():
    cfg = GARNER.config("B", max_turns=3)
    s = new_state(cfg, random.Random(1))
    rng = random.Random(2)
    while not s.is_over():
        legal = s.legal_moves()
        s.apply(legal[rng.randrange(len(legal))])
    out = s.outcome()
    assert out.turns == 3 and out.reason == "turn_limit" and out.winners == ()
    assert out.counters["cards_left"] > 0


def test_every_reading_changes_play():
    """Each rule parameter changes the options of at least one decision on the same deal."""
    base = GARNER.config("A")
    variants = {
        "top_layer": {"top_layer": "surface"},
        "must_move": {"must_move": "all"},
        "straight_line": {"straight_line": True},
    }

    def first_options(cfg: GarnerConfig) -> list[list[object]]:
        s = new_state(cfg, random.Random(7))
        rng = random.Random(8)
        seen = []
        for _ in range(12):
            legal = s.legal_moves()
            seen.append(legal)
            s.apply(legal[rng.randrange(len(legal))])
        return seen

    ref = first_options(base)
    for name, change in variants.items():
        assert first_options(GARNER.config("A", **change)) != ref, name


def test_a_move_of_the_wrong_kind_with_equal_fields_is_refused():
    s = small()
    assert Lift((4,)) in s.legal_moves()
    assert Collect((4,)) != Lift((4,)) and Collect((4,)) not in s.legal_moves()
    with pytest.raises(IllegalMoveError, match="next decision is lift"):
        s.apply(Collect((4,)))
