"""Gargon rules pinned by worked examples built by hand."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

from gamelib import ConfigError, IllegalMoveError, RecordError, play_game, replay
from gamelib.core import Move, Outcome
from gamelib.gargon import (
    GARGON,
    DrawFrom,
    GargonConfig,
    Pass,
    Play,
    Resolve,
    card,
    load_amulets,
    new_state,
    shape_of,
)
from gamelib.gargon.rules import (
    AMULET_FILE,
    N_CARDS,
    VALUE_OF,
    GargonState,
    card_id,
    from_deal,
)


@pytest.fixture(autouse=True)
def gargon_kernel_shadow() -> Iterator[None]:
    """Every legal ``GargonState.apply`` and every ``outcome()`` of this module's tests is also
    made by the compiled kernel on the same position (``kernel.from_reference``): its legal
    options before and after the move must equal ``legal_moves()`` in order, its position after
    the move must equal the reference's, and its scores, winners and reason the reference's
    outcome. So each rule test checks both engines."""
    from gamelib.gargon import kernel as K

    apply, outcome = GargonState.apply, GargonState.outcome

    def shadow_apply(self: GargonState, move: Move) -> None:
        legal = self.legal_moves()
        if move not in legal:  # the reference refuses it with its reason
            apply(self, move)
            return
        t, kst = K.from_reference(self)
        work = K.new_work(t)
        assert K.legal_moves(t, kst, work) == legal, "kernel legal options"
        apply(self, move)
        K.apply(t, kst, K.encode(move))
        assert K.position(t, kst) == K.reference_position(self), f"kernel position after {move!r}"
        # computed afresh, not cached: some tests edit the position by hand between moves
        after = self._compute_legal() if not self.is_over() else []
        assert K.legal_moves(t, kst, work) == after, f"kernel options after {move!r}"

    def shadow_outcome(self: GargonState) -> Outcome:
        out = outcome(self)
        t, kst = K.from_reference(self)
        n = self.config.n_players
        row, seat_rows = np.zeros(K.N_RESULTS, np.int64), np.zeros((n, K.N_SEAT_RESULTS), np.int64)
        scores, amulets = np.zeros(n), np.zeros(n)
        K.result(t, kst, row, seat_rows, scores, amulets)
        assert tuple(scores) == out.scores, "kernel scores"
        assert tuple(np.flatnonzero(seat_rows[:, K.S_WINNER])) == out.winners, "kernel winners"
        assert K.REASONS[row[K.R_REASON]] == out.reason, "kernel reason"
        return out

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(GargonState, "apply", shadow_apply)
        mp.setattr(GargonState, "outcome", shadow_outcome)
        yield


R, B, G, W, Y, V = 3, 1, 5, 0, 4, 2  # red, blue, green, white, yellow, violet


def c(colour: int, value: int, copy: int = 0) -> int:
    return card_id(colour, value, copy)


def P(*cards: int) -> Play:
    return Play(tuple(sorted(cards)))


def test_deck_and_amulet_table():
    assert N_CARDS == 102
    values = sorted(VALUE_OF[i] for i in range(N_CARDS) if card(i).colour == R)
    assert values == [0, 0, *range(1, 16)]
    assert load_amulets() == (0, 5, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1, 0, 0, 0)
    assert GargonConfig().amulets == load_amulets(AMULET_FILE)


def test_the_deal():
    s = new_state(GARGON.config("4p"), random.Random(1))
    assert [len(h) for h in s.hands] == [10, 10, 10, 10]
    assert sorted(map(len, s.piles)) == [31, 31]
    five = new_state(GARGON.config("5p"), random.Random(1))
    assert sorted(map(len, five.piles)) == [26, 26]
    three = new_state(GARGON.config(None, n_players=3), random.Random(1))
    assert sorted(map(len, three.piles)) == [36, 36]
    every = sorted(x for part in (*s.hands, *s.piles) for x in part)
    assert every == list(range(N_CARDS))


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"n_players": 2}, "3–5 players"),
        ({"n_players": 6}, "3–5 players"),
        ({"hand_size": 0}, "hand_size"),
        ({"hand_size": 25, "n_players": 5}, "draw piles"),
        ({"amulets": (1, 2)}, "amulets"),
        ({"zero_multiplier": -1}, "zero_multiplier"),
        ({"tie_losers_draw": "yes"}, "tie_losers_draw"),
        ({"majority_bonus": -10}, "majority_bonus"),
    ],
)
def test_bad_configs_are_refused(fields, message):
    with pytest.raises(ConfigError, match=message):
        GARGON.config(None, **fields)


def test_no_round_limit_field():
    # not in the rules: every round removes at least the lead's card for good
    with pytest.raises(ConfigError, match="max_rounds"):
        GARGON.config(None, max_rounds=5)


def test_old_records_with_a_harmless_max_rounds_still_replay():
    rec = play_game(GARGON, GARGON.config("3p"), ["random"] * 3, 7, record=True).record
    rec["config"]["max_rounds"] = 1000
    assert replay(rec).outcome.scores
    rec["config"]["max_rounds"] = 5
    with pytest.raises(RecordError, match="max_rounds=5"):
        replay(rec)


def test_a_bad_amulet_file_is_refused(tmp_path):
    bad = tmp_path / "a.csv"
    bad.write_text("value,amulets\n1,5\n1,4\n")
    with pytest.raises(ConfigError, match="appears twice"):
        load_amulets(bad)
    bad.write_text("value,amulets\n1,five\n")
    with pytest.raises(ConfigError, match="integer columns"):
        load_amulets(bad)
    bad.write_text("value,amulets\n" + "".join(f"{v},1\n" for v in range(15)))
    with pytest.raises(ConfigError, match=r"values \[15\]"):
        load_amulets(bad)
    with pytest.raises(ConfigError, match="cannot read"):
        load_amulets(tmp_path / "none.csv")


def test_lead_shapes():
    assert shape_of([c(R, 1), c(R, 2), c(B, 3)]) == (2, 1)
    assert shape_of([c(R, 1), c(G, 2), c(B, 3)]) == (1, 1, 1)
    hand = [c(R, 1), c(R, 2), c(R, 3), c(B, 4)]
    s = from_deal(GARGON.config(None, n_players=3), [hand, [c(G, 5)], [c(Y, 6)]], [[c(W, 1)], []])
    plays = [m for m in s.legal_moves() if isinstance(m, Play)]
    assert all(shape_of(m.cards) != (3,) for m in plays)  # never three of one colour
    assert Play((c(R, 1), c(R, 2), c(R, 3))) not in s.legal_moves()
    shapes = {shape_of(m.cards) for m in plays}
    assert shapes == {(1,), (2,), (1, 1), (2, 1)}  # no 1:1:1 with two colours in hand
    assert not any(isinstance(m, Pass) for m in s.legal_moves())  # the lead must play
    no3 = from_deal(
        GARGON.config(None, n_players=3, allow_three_colours=False),
        [[c(R, 1), c(G, 2), c(B, 3)], [c(G, 5)], [c(Y, 6)]],
        [[c(W, 1)], []],
    )
    assert (1, 1, 1) not in {shape_of(m.cards) for m in no3.legal_moves()}


def test_a_2_1_lead_followed_and_passed_with_the_last_players_restriction():
    cfg = GARGON.config("4p")
    hands = [
        [c(R, 9), c(R, 2), c(B, 5)],  # lead: plays 2:1
        [c(G, 7), c(G, 3), c(Y, 8), c(W, 1)],  # follows 2:1 in other colours
        [c(V, 4), c(R, 11)],  # cannot make 2:1: passes
        [c(R, 12), c(R, 13), c(W, 6), c(B, 14)],  # last: only colours on the table
    ]
    piles = [[c(W, 10), c(W, 11), c(W, 12)], [c(Y, 1), c(Y, 2)]]
    s = from_deal(cfg, hands, piles)
    s.apply(P(c(R, 2), c(R, 9), c(B, 5)))
    assert s.shape == (2, 1) and s.to_move == 1
    follow = s.legal_moves()
    assert all(shape_of(m.cards) == (2, 1) for m in follow if isinstance(m, Play))
    assert Pass(1) in follow and Pass(3) in follow
    s.apply(Play(tuple(sorted((c(G, 7), c(G, 3), c(Y, 8))))))
    assert s.legal_moves() == [Pass(1), Pass(2), Pass(3)]  # seat 2 has no 2:1
    s.apply(Pass(2))
    assert s.decision == "draw" and s.to_move == 2
    s.apply(DrawFrom(1))  # yellow 1 from pile 1
    s.apply(DrawFrom(0))  # white 10 from pile 0
    assert sorted(s.hands[2]) == sorted([c(V, 4), c(R, 11), c(Y, 1), c(W, 10)])
    assert s.drawn_passing[2] == 2 and s.to_move == 3
    last = [m for m in s.legal_moves() if isinstance(m, Play)]
    on_table = {R, B, G, Y}
    assert last and all({card(x).colour for x in m.cards} <= on_table for m in last)
    assert Play(tuple(sorted((c(R, 12), c(R, 13), c(B, 14))))) in last
    assert not any(card(x).colour == W for m in last for x in m.cards)
    free = from_deal(GARGON.config("4p", last_player_restriction=False), hands, piles)
    free.apply(P(c(R, 2), c(R, 9), c(B, 5)))
    free.apply(Play(tuple(sorted((c(G, 7), c(G, 3), c(Y, 8))))))
    free.apply(Pass(1))
    free.apply(DrawFrom(0))
    assert any(
        card(x).colour == W for m in free.legal_moves() if isinstance(m, Play) for x in m.cards
    )


def test_a_colour_with_two_cards_from_one_player():
    cfg = GARGON.config(None, n_players=3)
    piles = [[c(W, 1), c(W, 2)], [c(W, 3), c(W, 4)]]
    # seat 1 cannot follow a pair with one red and one blue: both others pass
    s = from_deal(cfg, [[c(R, 10), c(R, 3), c(B, 2)], [c(R, 7), c(B, 9)], [c(G, 1)]], piles)
    s.apply(Play(tuple(sorted((c(R, 10), c(R, 3))))))
    s.apply(Pass(1))
    s.apply(DrawFrom(0))
    s.apply(Pass(1))
    s.apply(DrawFrom(0))
    assert s.decision == "resolve" and s.legal_moves() == [Resolve(R)]
    s.apply(Resolve(R))  # only seat 0 holds red on the table: captured unopposed
    assert sorted(s.captured[0]) == sorted([c(R, 10), c(R, 3)])
    t = from_deal(
        cfg,
        [[c(R, 10), c(R, 3), c(B, 2)], [c(R, 7), c(G, 9), c(B, 4)], [c(Y, 1)]],
        piles,
    )
    t.apply(Play(tuple(sorted((c(R, 10), c(B, 2))))))  # 1:1
    t.apply(Play(tuple(sorted((c(R, 7), c(B, 4))))))
    t.apply(Pass(1))
    t.apply(DrawFrom(1))
    assert t.to_move == 0 and t.legal_moves() == [Resolve(B), Resolve(R)]
    t.apply(Resolve(R))  # 10 beats 7: seat 0 captures, seat 1 discards and draws
    assert t.decision == "draw" and t.to_move == 1
    t.apply(DrawFrom(0))
    assert c(R, 10) in t.captured[0] and c(R, 7) in t.discard
    assert t.drawn_losing[1] == 1 and t.battles == 1
    # two reds from one player: 10 goes first, then the 3 meets nobody and is captured
    u = from_deal(cfg, [[c(R, 10), c(R, 3)], [c(R, 7), c(R, 5)], [c(Y, 1)]], piles)
    u.apply(Play(tuple(sorted((c(R, 10), c(R, 3))))))
    u.apply(Play(tuple(sorted((c(R, 7), c(R, 5))))))
    u.apply(Pass(1))
    u.apply(DrawFrom(1))
    u.apply(Resolve(R))  # 10 v 7: seat 0 wins; seat 1 draws
    u.apply(DrawFrom(0))
    # 3 v 5: seat 1 wins; seat 0 draws
    assert u.decision == "draw" and u.to_move == 0
    u.apply(DrawFrom(0))
    assert sorted(u.captured[0]) == [c(R, 10)] and sorted(u.captured[1]) == [c(R, 5)]
    assert sorted(u.discard) == sorted([c(R, 7), c(R, 3)])
    assert u.battles == 2


@pytest.mark.parametrize("tie_losers_draw", [True, False])
def test_a_zero_zero_tie_discards_both(tie_losers_draw):
    cfg = GARGON.config(None, n_players=3, tie_losers_draw=tie_losers_draw)
    hands = [[c(R, 0, 0), c(G, 2)], [c(R, 0, 1), c(G, 3)], [c(Y, 1)]]
    piles = [[c(W, 1), c(W, 2), c(W, 5)], [c(W, 3), c(W, 4)]]
    s = from_deal(cfg, hands, piles)
    s.apply(Play((c(R, 0, 0),)))
    s.apply(Play((c(R, 0, 1),)))
    s.apply(Pass(1))
    s.apply(DrawFrom(0))
    s.apply(Resolve(R))
    if tie_losers_draw:
        assert s.decision == "draw" and s.to_move == 0  # clockwise from the lead
        s.apply(DrawFrom(0))
        assert s.to_move == 1
        s.apply(DrawFrom(1))
    assert s.ties == 1 and sorted(s.discard) == sorted([c(R, 0, 0), c(R, 0, 1)])
    assert s.captured == [[], [], []]
    assert sum(s.drawn_losing) == (2 if tie_losers_draw else 0)


def _captured_state(cfg, captured):
    s = from_deal(cfg, [[] for _ in range(cfg.n_players)], [[], []])
    s.captured = [list(x) for x in captured]
    return s


def test_zero_doubling_and_bonus_ties():
    cfg = GARGON.config(None, n_players=3)
    one_zero = [c(R, 0), c(R, 1), c(R, 4)]  # 5 + 3 = 8 amulets, ×2
    two_zeros = [c(B, 0, 0), c(B, 0, 1), c(B, 2)]  # 4 amulets, ×4
    s = _captured_state(cfg, [one_zero, two_zeros, [c(G, 1), c(R, 2)]])
    assert s.colour_score(0, R) == 16
    assert s.colour_score(1, B) == 16
    assert s.colour_score(2, R) == 4 and s.colour_score(2, G) == 5
    bonus = s.bonuses()
    assert bonus[0][R] == 10 and bonus[2][R] == 0  # 3 reds against 1
    assert bonus[1][B] == 10 and bonus[2][G] == 10
    assert all(b[Y] == 0 for b in bonus)  # nobody captured yellow: no bonus
    tie = _captured_state(cfg, [[c(Y, 3), c(Y, 4)], [c(Y, 5), c(Y, 6)], [c(Y, 7)]])
    assert [b[Y] for b in tie.bonuses()] == [5, 5, 0]
    triple = GARGON.config(None, n_players=3, zero_multiplier=3)
    assert _captured_state(triple, [two_zeros, [], []]).colour_score(0, B) == 36


def test_shared_win_on_equal_totals():
    cfg = GARGON.config(None, n_players=3)
    s = _captured_state(cfg, [[c(R, 1)], [c(B, 1)], [c(G, 14)]])
    s.phase = 3  # over
    s.reason = "pile_empty"
    out = s.outcome()
    assert out.scores == (15.0, 15.0, 10.0)
    assert out.winners == (0, 1) and out.is_draw


def test_a_pile_running_out_mid_round_lets_the_round_finish():
    cfg = GARGON.config(None, n_players=3)
    hands = [[c(R, 9), c(B, 1)], [c(R, 4), c(G, 2)], [c(Y, 5), c(V, 6)]]
    piles = [[c(W, 1)], [c(W, 2), c(W, 3)]]
    s = from_deal(cfg, hands, piles)
    s.apply(Play((c(R, 9),)))
    s.apply(Play((c(R, 4),)))
    s.apply(Pass(1))
    s.apply(DrawFrom(0))  # pile 0 is now empty, mid-round
    assert not s.is_over()
    s.apply(Resolve(R))
    s.apply(DrawFrom(1))  # seat 1 lost and draws from the pile that is left
    assert s.is_over() and s.outcome().reason == "pile_empty"
    assert s.outcome().counters["rounds"] == 1


def test_lead_passes_clockwise_skipping_empty_hands():
    cfg = GARGON.config(None, n_players=3, last_player_restriction=False)
    hands = [[c(R, 9), c(B, 3)], [c(R, 4)], [c(G, 5)]]
    piles = [[c(W, 1), c(W, 2), c(W, 4), c(W, 5)], [c(W, 3), c(W, 6), c(W, 7)]]
    s = from_deal(cfg, hands, piles)
    s.apply(Play((c(R, 9),)))
    s.apply(Play((c(R, 4),)))  # seat 1 empties its hand
    s.apply(Pass(1))
    s.apply(DrawFrom(0))
    s.apply(Resolve(R))
    s.apply(DrawFrom(1))  # seat 1 lost: it draws, so it holds a card again
    assert s.lead == 1 and s.to_move == 1
    t = from_deal(cfg, [[c(R, 9), c(B, 3)], [c(R, 4)], [c(G, 5)]], piles)
    t.apply(Play((c(R, 9),)))
    t.apply(Play((c(R, 4),)))
    t.apply(Play((c(G, 5),)))  # seat 2 plays its last card too
    t.apply(Resolve(R))
    t.apply(DrawFrom(0))  # seat 1 draws after losing
    t.apply(Resolve(G))  # seat 2's green, unopposed
    assert t.lead == 1  # seat 1 has a card again: it leads
    v = from_deal(cfg, [[c(R, 9), c(B, 3)], [c(R, 4)], [c(G, 5)]], piles)
    v.apply(Play((c(R, 9),)))
    v.apply(Play((c(R, 4),)))
    v.apply(Play((c(G, 5),)))
    v.hands[1].clear()
    v.piles = [[c(W, 1), c(W, 2)], [c(W, 3), c(W, 6)]]
    v.apply(Resolve(R))
    v.hands[1].clear()  # seat 1 lost and drew; take the drawn card away again
    v.draw_queue.clear()
    v._after_draws()
    v.apply(Resolve(G))
    assert v.lead == 0  # seats 1 and 2 hold nothing: the lead comes back to seat 0


def test_the_game_ends_when_no_hand_holds_a_card():
    cfg = GARGON.config(None, n_players=3, last_player_restriction=False)
    hands = [[c(R, 9)], [c(B, 4)], [c(G, 5)]]
    piles = [[c(W, 1), c(W, 2)], [c(W, 3), c(W, 4)]]
    s = from_deal(cfg, hands, piles)
    s.apply(Play((c(R, 9),)))
    s.apply(Play((c(B, 4),)))
    s.apply(Play((c(G, 5),)))
    for col in (R, B, G):
        s.apply(Resolve(col))
    assert s.is_over() and s.outcome().reason == "hands_empty"
    assert s.scores() == [2 + 10.0, 3 + 10.0, 3 + 10.0]  # amulets of 9, 4, 5 and each bonus


def test_illegal_moves_are_refused():
    cfg = GARGON.config(None, n_players=3)
    s = from_deal(cfg, [[c(R, 9), c(B, 1)], [c(R, 4)], [c(G, 5)]], [[c(W, 1)], [c(W, 2)]])
    with pytest.raises(IllegalMoveError, match="not in seat 0's hand"):
        s.apply(Play((c(G, 5),)))
    with pytest.raises(IllegalMoveError, match="legal"):
        s.apply(Pass(1))  # the lead may not pass
    s.apply(Play((c(B, 1), c(R, 9))))
    with pytest.raises(IllegalMoveError, match="shape"):
        s.apply(Play((c(R, 4),)))


def test_a_move_of_the_wrong_kind_with_equal_fields_is_refused():
    cfg = GARGON.config(None, n_players=3)
    s = from_deal(cfg, [[c(R, 9)], [c(R, 4)], [c(G, 5)]], [[c(W, 1)], [c(W, 2)]])
    s.apply(Play((c(R, 9),)))
    assert Pass(1) in s.legal_moves()
    for wrong in (DrawFrom(1), Resolve(1)):
        with pytest.raises(IllegalMoveError):
            s.apply(wrong)
