"""Garner players: legal, reproducible, and as strong as their idea says."""

from __future__ import annotations

import random

import matplotlib
import pytest

from gamelib import play_game
from gamelib.core import ConfigError, game_seeds
from gamelib.garner import GARNER, Collect, GreedyPlayer, Lift, Place, new_state
from gamelib.garner.players import evaluate_lifts, random_player, suit_values
from gamelib.garner.rules import from_layout

matplotlib.use("Agg")


def test_random_player_is_uniform_over_legal_options():
    rng = random.Random(0)
    legal = [Place(i) for i in range(5)]
    picks = [random_player(None, legal, rng) for _ in range(5000)]
    counts = [picks.count(m) for m in legal]
    assert all(900 < c < 1100 for c in counts)


def test_player_lookup():
    assert GARNER.player("random") is random_player
    assert isinstance(GARNER.player("greedy"), GreedyPlayer)
    assert GARNER.player("cautious:2").width == 2
    with pytest.raises(ConfigError, match="unknown garner player 'smart'"):
        GARNER.player("smart")


def test_greedy_collects_the_biggest_suit_group():
    cfg = GARNER.config(None, suit_sizes=(6, 6, 6), rows=2, cols=3, height=3)
    # a suit-0 pair on sites 0 and 1, every other suit group a single card
    layout = [[(0, 1)], [(0, 2)], [(1, 3)], [(1, 6)], [(2, 5)], [(0, 3)]]
    s = from_layout(cfg, layout)
    s.apply(Lift((3,)))
    s.apply(Place(3))
    move = GreedyPlayer()(s, s.legal_moves(), random.Random(0))
    assert move == Collect((0, 1))


def test_greedy_places_a_lifted_card_to_join_its_suit():
    cfg = GARNER.config(None, suit_sizes=(6, 6), rows=2, cols=3, height=2)
    # site 2 is empty; a suit-0 card placed there touches (0,2) on site 1 and (0,4) on site 5,
    # so lifting (0,1) from 0 or (0,4) from 5 and placing it on 2 makes a 3-card suit group
    layout = [[(0, 1)], [(0, 2)], [], [(1, 3)], [(1, 5)], [(0, 4)]]
    s = from_layout(cfg, layout)
    plans = evaluate_lifts(s, 0, s.legal_moves())
    best = max(plans, key=lambda p: p.value)
    assert best.lift in ((0,), (5,)) and best.target == 2 and best.value == 3
    assert all(p.value <= 2 for p in plans if p.lift not in ((0,), (5,)))
    player = GreedyPlayer()
    rng = random.Random(0)
    while s.to_move == 0 and not s.is_over():
        s.apply(player(s, s.legal_moves(), rng))
    assert s.piles[0] == [3, 0]


def test_suit_values_drop_once_a_suit_is_decided():
    s = new_state(GARNER.config("A"), random.Random(0))
    s.piles = [[5, 0, 0], [0, 5, 2]]  # 5 of 9 decides suits 0 and 1
    assert suit_values(s, 0) == pytest.approx([0.1, 0.1, 1.0])


@pytest.mark.parametrize("setup", ["standard", "A", "E"])
def test_greedy_beats_random_and_cautious_holds_its_own(setup: str):
    cfg = GARNER.config(setup)
    wins = {"greedy": 0, "cautious": 0}
    n = 30
    for i, seed in enumerate(game_seeds(3, n)):
        seat = i % 2
        players = ["random", "random"]
        players[seat] = "greedy"
        out = play_game(GARNER, cfg, players, seed).outcome
        wins["greedy"] += out.winners == (seat,)
        players = ["greedy", "greedy"]
        players[seat] = "cautious"
        out = play_game(GARNER, cfg, players, seed).outcome
        wins["cautious"] += out.winners == (seat,)
    assert wins["greedy"] >= 0.8 * n
    assert wins["cautious"] >= 0.25 * n


def test_players_are_reproducible_from_their_rng():
    cfg = GARNER.config("D")
    a = play_game(GARNER, cfg, ["cautious", "greedy"], 99, record=True).record
    b = play_game(GARNER, cfg, ["cautious", "greedy"], 99, record=True).record
    assert a == b


def test_picture_shows_every_card_and_outlines_the_top_layer():
    from gamelib.garner.picture import draw

    s = new_state(GARNER.config("A"), random.Random(1))
    rng = random.Random(2)
    for _ in range(7):
        s.apply(s.legal_moves()[rng.randrange(len(s.legal_moves()))])
    ax = draw(s)
    gids = [p.get_gid() for p in ax.patches]
    on_board = sum(len(st) for st in s.stacks)
    assert gids.count("card") + gids.count("top-card") == on_board
    assert gids.count("top-card") == len(s.top_sites())
    texts = {t.get_text() for t in ax.texts}
    assert {f"A: {s.piles[0][0]}", f"B: {s.piles[1][1]}"} <= texts
    assert "seat" in ax.get_title()
