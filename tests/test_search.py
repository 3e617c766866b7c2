"""gamelib.search: the generic mcts / ismcts / rollout players on any game through the protocol,
the same names selecting a game's compiled search, and the games' resample hooks."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gamelib import play_game
from gamelib.core import ConfigError
from gamelib.deck_the_yard import kernel as dty_kernel
from gamelib.deck_the_yard import search as dty_search
from gamelib.gargon import kernel as gargon_kernel
from gamelib.gargon import search as gargon_search
from gamelib.gargon.rules import resample_hidden
from gamelib.registry import GAMES, get_game
from gamelib.search import IsmctsPlayer, MctsPlayer, RolloutPlayer, points


def test_every_registered_game_offers_the_generic_players():
    for game in GAMES.values():
        for name in ("mcts", "ismcts", "rollout", "generic"):
            assert name in game.players, (game.name, name)


def test_the_same_names_select_a_games_compiled_search():
    from gamelib.deck_the_yard.players import RolloutPlayer as CompiledRollout
    from gamelib.gargon.search import IsmctsPlayer as CompiledIsmcts
    from gamelib.garner.search import MCTSPlayer as CompiledMcts

    garner, gargon, dty = get_game("garner"), get_game("gargon"), get_game("deck_the_yard")
    assert isinstance(garner.player("mcts:10"), CompiledMcts)
    assert isinstance(gargon.player("ismcts:10"), CompiledIsmcts)
    assert isinstance(dty.player("rollout:10"), CompiledRollout)
    # where a game has no compiled player of that name, the generic one answers
    assert isinstance(garner.player("ismcts:10"), IsmctsPlayer)
    assert isinstance(gargon.player("rollout:3"), RolloutPlayer)
    assert isinstance(dty.player("ismcts:10"), IsmctsPlayer)
    # and generic:<spec> always reaches the generic one
    assert type(garner.player("generic:mcts:10")) is MctsPlayer
    assert isinstance(gargon.player("generic:ismcts:10"), IsmctsPlayer)
    assert isinstance(dty.player("generic:rollout:3:greedy"), RolloutPlayer)


@pytest.mark.parametrize(
    ("game", "spec", "words"),
    [
        ("garner", "generic", "generic takes a search spec"),
        ("garner", "generic:alphabeta:3", "unknown generic player 'alphabeta'"),
        ("garner", "ismcts", "needs an iteration count"),
        ("garner", "ismcts:0", "whole number from 1"),
        ("garner", "ismcts:ten", "whole number from 1"),
        ("garner", "ismcts:10:-1", "exploration constant must be ≥ 0"),
        ("garner", "ismcts:10:0.5:9", "at most N and C"),
        ("garner", "rollout", "number of futures"),
        ("garner", "rollout:5:nobody", "unknown garner player 'nobody'"),
        ("gargon", "mcts:10", "gargon hides cards from its seats; use ismcts:10"),
        ("deck_the_yard", "generic:mcts:5", "use ismcts:5"),
    ],
)
def test_bad_specs_are_refused_in_one_line(game, spec, words):
    with pytest.raises(ConfigError, match=words) as err:
        get_game(game).player(spec)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    ("game", "setup", "players"),
    [
        ("garner", "A", ["generic:mcts:8", "ismcts:8:0.5"]),
        ("gargon", None, ["generic:ismcts:4", "random", "random", "random"]),
        ("deck_the_yard", None, ["generic:rollout:1"]),
    ],
)
def test_same_seed_same_game(game, setup, players):
    g = get_game(game)
    config = g.config(setup) if setup else g.config(None)
    a = play_game(g, config, players, 7, record=True, engine="python").record
    b = play_game(g, config, players, 7, record=True, engine="python").record
    assert a["moves"] == b["moves"] and a["outcome"] == b["outcome"]
    c = play_game(g, config, players, 8, record=True, engine="python").record
    assert c["moves"] != a["moves"]


def test_points_share_a_win_and_split_a_game_nobody_wins():
    from gamelib.core import Outcome

    assert points(Outcome((1,), (0, 3), "x", 1), 2) == [0.0, 1.0]
    assert points(Outcome((0, 2), (3, 1, 3), "x", 1), 3) == [0.5, 0.0, 0.5]
    assert points(Outcome((), (1, 1), "x", 1), 2) == [0.5, 0.5]
    assert points(Outcome((), (4,), "x", 1), 1) == [0.0]


def _positions(game, config, seed, every=1):
    """Every ``every``-th position of a random game, with the seat to move."""
    state = game.new_state(config, random.Random(seed))
    rng = random.Random(seed + 1)
    i = 0
    while not state.is_over():
        if i % every == 0:
            yield state.clone(), state.current_player()
        state.apply(rng.choice(state.legal_moves()))
        i += 1


def test_gargons_resample_hook_is_the_compiled_searchs_determinization():
    """resample(observation, rng) is search.template + search.determinize (the same stream),
    handed back as a reference state: it agrees with the observation, offers the same moves,
    and its kernel position is the determinization's."""
    game = get_game("gargon")
    config = game.config(None, n_players=4)
    checked = 0
    for state, seat in _positions(game, config, 3, every=3):
        obs = state.observation(seat)
        det = game.resample(obs, random.Random(checked))
        assert det.observation(seat) == obs
        assert det.legal_moves() == state.legal_moves()
        tp = gargon_search.template(obs)
        rs = np.array([random.Random(checked).getrandbits(64)], np.uint64)
        st = np.empty_like(tp.base)
        gargon_search.determinize(*tp, rs, st, np.empty(102, np.int64))
        t = gargon_kernel.tables(config)
        assert gargon_kernel.position(t, st) == gargon_kernel.position(
            t, gargon_kernel.from_reference(det)[1]
        )
        checked += 1
    assert checked > 30


def test_deck_the_yards_resample_hook_is_the_rollout_players_future():
    game = get_game("deck_the_yard")
    config = game.config(None)
    checked = 0
    for state, _ in _positions(game, config, 4):
        obs = state.observation(0)
        det = game.resample(obs, random.Random(checked))
        assert det.observation(0) == obs
        assert det.legal_moves() == state.legal_moves()
        t = dty_kernel.tables(config)
        b = dty_search.belief_from_observation(t, obs)
        st = np.empty_like(b)
        dty_search.determinize(
            t, b, st, np.array([random.Random(checked).getrandbits(64)], np.uint64)
        )
        assert dty_search.same_position(t, st, dty_kernel.from_reference(det)[1])
        checked += 1
    assert checked > 30


def test_generic_players_read_nothing_hidden():
    """Two Gargon positions a seat cannot tell apart (its hidden numbers dealt again) get the
    same decision from the generic ismcts and rollout players with the same random stream;
    and two Deck the Yard positions with the same observation but another draw order too."""
    gargon = get_game("gargon")
    players = [gargon.player("generic:ismcts:12"), gargon.player("generic:rollout:2")]
    checked = 0
    for state, seat in _positions(gargon, gargon.config(None, n_players=3), 5, every=7):
        other = resample_hidden(state, seat, random.Random(checked))
        assert other.observation(seat) == state.observation(seat)
        legal = state.legal_moves()
        if len(legal) < 2:
            continue
        for p in players:
            a = p(state.observation(seat), legal, random.Random(checked))
            b = p(other.observation(seat), other.legal_moves(), random.Random(checked))
            assert a == b
        checked += 1
    assert checked > 5
    dty = get_game("deck_the_yard")
    player = dty.player("generic:ismcts:20")
    for state, _ in _positions(dty, dty.config(None), 6, every=9):
        other = state.clone()
        random.Random(1).shuffle(other.pile)
        legal = state.legal_moves()
        assert player(state.observation(0), legal, random.Random(2)) == player(
            other.observation(0), legal, random.Random(2)
        )


def test_generic_mcts_beats_random_on_garner_with_a_decided_verdict():
    """Strength, the guide's test of a search player: generic mcts against random on Garner A,
    every deal from both seats, decided by gamelib's skill verdict."""
    from gamelib.sim import simulate
    from gamelib.verdict import HOLDS, Skill, decide

    config = get_game("garner").config("A")
    table = simulate(
        config, ["generic:mcts:20", "random"], 30, 1, rotate_seats=True, progress=False
    )
    row = decide(
        [table], Skill(), looks=[10, 15, 20, 25, 30], stronger="generic:mcts:20", weaker="random"
    )
    assert row["decision"] == HOLDS, row
