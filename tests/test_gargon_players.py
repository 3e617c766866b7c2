"""Gargon players: legal, reproducible, and the greedy idea pays."""

from __future__ import annotations

import random

import matplotlib
import pytest

from gamelib import ConfigError, play_game
from gamelib.core import game_seeds
from gamelib.gargon import GARGON, DrawFrom, GreedyPlayer, Pass, Play, new_state
from gamelib.gargon.rules import card_id, from_deal

matplotlib.use("Agg")
R, B, G, W, Y, V = 3, 1, 5, 0, 4, 2


def test_player_lookup():
    assert GARGON.player("greedy").value_zeros
    assert not GARGON.player("greedy:ignore").value_zeros
    with pytest.raises(ConfigError, match="'value' or 'ignore'"):
        GARGON.player("greedy:maybe")


def test_greedy_leads_an_unopposed_amulet_rich_card():
    cfg = GARGON.config(None, n_players=3)
    hands = [
        [card_id(R, 1), card_id(B, 14), card_id(G, 2)],
        [card_id(B, 3), card_id(G, 9)],
        [card_id(G, 12), card_id(Y, 6)],
    ]
    s = from_deal(cfg, hands, [[card_id(W, 1)], [card_id(W, 2)]])
    move = GreedyPlayer()(s.observation(0), s.legal_moves(), random.Random(0))
    # nobody else holds red: the red 1 (5 amulets) is a sure capture
    assert isinstance(move, Play) and card_id(R, 1) in move.cards
    assert card_id(G, 2) not in move.cards  # a green 2 would meet a 9 and a 12


def test_greedy_follows_with_a_colour_nobody_else_holds():
    cfg = GARGON.config(None, n_players=3)
    hands = [[card_id(R, 15)], [card_id(R, 2), card_id(B, 3)], [card_id(G, 12)]]
    s = from_deal(cfg, hands, [[card_id(G, 1)], [card_id(V, 7)]])
    s.apply(Play((card_id(R, 15),)))
    move = GreedyPlayer()(s.observation(1), s.legal_moves(), random.Random(0))
    assert move == Play((card_id(B, 3),))  # blue meets nobody: a sure capture


def test_greedy_passes_rather_than_follow_into_a_loss_and_draws_a_wanted_colour():
    cfg = GARGON.config(None, n_players=3)
    hands = [[card_id(R, 15)], [card_id(R, 2), card_id(R, 3)], [card_id(G, 12)]]
    piles = [[card_id(G, 1), card_id(W, 1)], [card_id(V, 7), card_id(W, 2)]]
    s = from_deal(cfg, hands, piles)
    s.apply(Play((card_id(R, 15),)))
    move = GreedyPlayer()(s.observation(1), s.legal_moves(), random.Random(0))
    assert isinstance(move, Pass) and move.draws == 3
    s.apply(Pass(1))
    pile = GreedyPlayer()(s.observation(1), s.legal_moves(), random.Random(0))
    # violet: no opponent holds it (seat 2 holds green, which it wants less)
    assert pile == DrawFrom(1)


def test_zero_aware_greedy_values_a_zero_the_blind_one_does_not():
    cfg = GARGON.config(None, n_players=3)
    hands = [[card_id(R, 0), card_id(B, 13)], [card_id(G, 3)], [card_id(Y, 4)]]
    s = from_deal(cfg, hands, [[card_id(W, 1)], [card_id(W, 2)]])
    s.captured[0] = [card_id(R, 1), card_id(R, 2)]  # 9 red amulets a zero would double
    aware = GreedyPlayer(True)(s.observation(0), s.legal_moves(), random.Random(0))
    blind = GreedyPlayer(False)(s.observation(0), s.legal_moves(), random.Random(0))
    assert card_id(R, 0) in aware.cards
    assert card_id(R, 0) not in blind.cards or len(blind.cards) > 1


@pytest.mark.parametrize("n", [3, 4])
def test_greedy_beats_random(n):
    cfg = GARGON.config(None, n_players=n)
    wins = 0.0
    seeds = game_seeds(9, 60)
    for i, seed in enumerate(seeds):
        seat = i % n
        players = ["random"] * n
        players[seat] = "greedy"
        out = play_game(GARGON, cfg, players, seed).outcome
        if seat in out.winners:
            wins += 1 / len(out.winners)
    assert wins / len(seeds) > 1.5 / n  # well above a fair share


def test_picture_hides_face_down_numbers():
    from gamelib.gargon.picture import draw

    s = new_state(GARGON.config("4p"), random.Random(3))
    rng = random.Random(4)
    s.apply(s.legal_moves()[0])
    ax = draw(s)
    table = [p for p in ax.patches if p.get_gid() == "table"]
    assert len(table) == sum(len(t) for t in s.table) > 0
    assert {t.get_text() for t in ax.texts} >= {"?"}
    assert len([p for p in ax.patches if p.get_gid() == "pile"]) == min(40, len(s.piles[0])) + min(
        40, len(s.piles[1])
    )
    while s.decision != "resolve":
        legal = s.legal_moves()
        s.apply(legal[rng.randrange(len(legal))])
    ax = draw(s)
    assert "?" not in {t.get_text() for t in ax.texts}
