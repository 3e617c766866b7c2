"""gamelib's games in OpenSpiel: its own conformance test, its MCTS, records both ways, leaks."""

from __future__ import annotations

import os
import random

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed: pip install 'gamelib[openspiel]'"
)

from gamelib import play_game, replay  # noqa: E402
from gamelib.core import ConfigError, RecordError  # noqa: E402
from gamelib.deck_the_yard import DECK_THE_YARD  # noqa: E402
from gamelib.gargon import GARGON  # noqa: E402
from gamelib.gargon.rules import resample_hidden  # noqa: E402
from gamelib.garner import GARNER  # noqa: E402
from gamelib.openspiel import (  # noqa: E402
    actions_to_record,
    from_openspiel,
    gargon_play_rank,
    record_to_actions,
    to_openspiel,
)

GAMES = [
    "gamelib_garner(setup=A)",
    "gamelib_garner(setup=E,must_move=one)",
    "gamelib_garner(setup=C,straight_line=True,top_layer=surface)",
    "gamelib_garner(suit_sizes=4:4,rows=2,cols=2,height=2,must_move=all)",
    "gamelib_gargon(n_players=3)",
    "gamelib_gargon(n_players=5,allow_three_colours=False,tie_losers_draw=False)",
    "gamelib_deck_the_yard",
    "gamelib_deck_the_yard(hand_counts=bulbs,events=6)",
]


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_sim_test_passes(name):
    """OpenSpiel's own checks (legal actions, chance probabilities, clone, serialisation,
    strings, returns in range) on random games of each game and several rule variations."""
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_parameters_pick_the_setup_and_override_its_fields():
    game = pyspiel.load_game("gamelib_garner(setup=E,must_move=one)")
    assert game.config == GARNER.config("E", must_move="one")
    assert pyspiel.load_game(str(game)).config == game.config  # the name reloads the game
    assert game.num_players() == 2 and game.num_distinct_actions() == 20
    g = pyspiel.load_game("gamelib_gargon(n_players=5,zero_multiplier=3.0)")
    assert g.config == GARGON.config(None, n_players=5, zero_multiplier=3.0)
    assert g.num_players() == 5
    assert pyspiel.load_game("gamelib_deck_the_yard").num_players() == 1
    t = pyspiel.load_game("gamelib_garner").get_type()
    assert t.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    t = pyspiel.load_game("gamelib_gargon").get_type()
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert (t.min_num_players, t.max_num_players) == (3, 5)


def test_bad_parameters_are_refused_by_name():
    with pytest.raises(ConfigError, match="must_move"):
        pyspiel.load_game("gamelib_garner(must_move=twice)")
    with pytest.raises(ConfigError, match="setup 'Z'"):
        pyspiel.load_game("gamelib_garner(setup=Z)")
    with pytest.raises(ConfigError, match="3–5 players"):
        pyspiel.load_game("gamelib_gargon(n_players=2)")


def test_the_deal_is_uniform_chance_card_by_card():
    state = pyspiel.load_game("gamelib_garner(setup=A)").new_initial_state()
    for left in range(27, 1, -1):
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert len(outcomes) == left
        assert all(p == pytest.approx(1 / left) for _, p in outcomes)
        state.apply_action(outcomes[0][0])
    assert not state.is_chance_node()  # the last card comes without a chance node
    ref = from_openspiel(state)
    assert [c for st in ref.stacks for c in st] == list(range(27))


def test_action_encodings_are_dense_and_named_in_the_rules_words():
    assert gargon_play_rank([0]) == 0 and gargon_play_rank([101]) == 101
    assert gargon_play_rank([0, 1]) == 102
    assert gargon_play_rank([99, 100, 101]) == 102 + 5151 + 171700 - 1
    game = pyspiel.load_game("gamelib_gargon(n_players=3)")
    assert game.num_distinct_actions() == 12 + 102 + 5151 + 171700
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    # the deck in id order: seat 0 holds white 0, white 0, white 1, …
    strings = [state.action_to_string(0, a) for a in state.legal_actions()]
    assert "play white 0#1" in strings and "play white 0#1 + white 0#2" in strings
    assert len(set(strings)) == len(strings)
    g = pyspiel.load_game("gamelib_garner(setup=A)").new_initial_state()
    while g.is_chance_node():
        g.apply_action(g.chance_outcomes()[0][0])
    assert all(g.action_to_string(0, a).startswith("lift") for a in g.legal_actions())


def _play_random(state, rng):
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def _tensor(adapter, config, ref, seat):
    pieces = {name: np.zeros(shape, np.float32) for name, shape in adapter.tensor_shapes(config)}
    adapter.fill_tensor(ref, seat, pieces)
    return np.concatenate([p.ravel() for p in pieces.values()])


def test_observation_tensors_have_named_pieces():
    game = pyspiel.load_game("gamelib_gargon(n_players=3)")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    observer = game.make_py_observer()
    observer.set_from(state, 1)
    assert observer.dict["hand"].sum() == 10  # seat 1's own ten cards, by id
    assert list(np.flatnonzero(observer.dict["hand"])) == list(range(10, 20))
    assert observer.dict["hand_colours"].sum() == 30  # every hand's colours
    assert len(state.observation_tensor(1)) == game.observation_tensor_size()
    dty = pyspiel.load_game("gamelib_deck_the_yard").new_initial_state()
    while dty.is_chance_node():
        dty.apply_action(dty.chance_outcomes()[0][0])
    obs = dty.ref.observation(0)
    observer = dty.get_game().make_py_observer()
    observer.set_from(dty, 0)
    assert observer.dict["hand"].sum() == len(obs.hand)
    assert observer.dict["pile_left"][0] == obs.pile_left


def test_gargon_strings_never_show_another_seats_hidden_numbers():
    """Resampling every number a seat cannot see leaves its observation string and tensor
    unchanged (and the resampler does change hidden numbers, so the check can fail)."""
    game = pyspiel.load_game("gamelib_gargon(n_players=4)")
    adapter = game.new_initial_state().adapter
    rng = np.random.default_rng(2)
    state = game.new_initial_state()
    checked = changed = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        ref = state.ref
        for seat in range(4):
            text = state.observation_string(seat)
            tensor = np.asarray(state.observation_tensor(seat))
            assert text == adapter.observation_string(ref, seat)
            assert np.array_equal(tensor, _tensor(adapter, game.config, ref, seat))
            for k in range(2):
                other = resample_hidden(ref, seat, random.Random(k))
                assert adapter.observation_string(other, seat) == text
                assert np.array_equal(_tensor(adapter, game.config, other, seat), tensor)
                changed += other.hands != ref.hands or other.piles != ref.piles
                checked += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked > 100 and changed > checked // 2
    # and a string does tell a seat's own numbers apart
    one = state.ref
    assert adapter.observation_string(one, 0) != adapter.observation_string(one, 1)


def test_information_state_strings_have_perfect_recall():
    state = pyspiel.load_game("gamelib_deck_the_yard").new_initial_state()
    rng = np.random.default_rng(0)
    seen = []
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        info = state.information_state_string(0)
        assert info not in seen  # a later decision never looks like an earlier one
        if seen:
            assert info.startswith(seen[-1].rsplit("\n", 1)[0])
        seen.append(info)
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert len(seen) > 10


@pytest.mark.parametrize(
    ("game", "config", "players", "seed"),
    [
        (GARNER, GARNER.config("A"), ["greedy", "random"], 3),
        (GARNER, GARNER.config("B"), ["random", "greedy"], 4),
        (GARGON, GARGON.config(None, n_players=3), ["greedy", "random", "greedy"], 5),
        (DECK_THE_YARD, DECK_THE_YARD.config(None), ["greedy"], 6),
    ],
)
def test_records_convert_to_action_histories_and_back(game, config, players, seed):
    """A gamelib record played as OpenSpiel actions ends in the same position and outcome, and
    the OpenSpiel history converts back to a record that gamelib's replay accepts."""
    record = play_game(game, config, players, seed, record=True).record
    spiel_game, actions = record_to_actions(record)
    state = spiel_game.new_initial_state()
    for a in actions:
        state.apply_action(a)
    assert state.is_terminal()
    assert state.ref.outcome().to_json() == record["outcome"]
    assert state.ref.end() == record["end"]
    back = actions_to_record(spiel_game, actions)
    assert back["start"] == record["start"] and back["moves"] == record["moves"]
    assert back["chance"] == record["chance"]
    replay(back)


def test_deck_the_yard_reshuffles_are_chance_nodes():
    """A game whose record holds reshuffles: each is dealt again card by card in OpenSpiel."""
    for seed in range(50):
        record = play_game(DECK_THE_YARD, DECK_THE_YARD.config(None), ["greedy"], seed, record=True)
        if record.record["chance"]:
            break
    rec = record.record
    assert rec["chance"], "no game with a reshuffle in 50 seeds"
    spiel_game, actions = record_to_actions(rec)
    deal = len(spiel_game.config.patterns) - 1 + spiel_game.config.n_cards - 1
    reshuffled = sum(max(len(o) - 1, 0) for o in rec["chance"])
    assert len(actions) == deal + reshuffled + len(rec["moves"])


def test_to_and_from_openspiel_keep_the_position():
    rng = random.Random(1)
    ref = GARNER.new_state(GARNER.config("A"), rng)
    moves = []
    for _ in range(6):
        move = rng.choice(ref.legal_moves())
        moves.append(move)
        ref.apply(move)
    state = to_openspiel(ref, moves)
    back = from_openspiel(state)
    assert back.end() == ref.end() and back.legal_moves() == ref.legal_moves()
    assert state.current_player() == ref.current_player()
    with pytest.raises(ConfigError, match="moves="):
        to_openspiel(ref)  # the moves since the start are needed
    with pytest.raises(ConfigError, match="deal is not complete"):
        from_openspiel(pyspiel.load_game("gamelib_garner(setup=A)").new_initial_state())


def test_a_record_of_another_game_is_refused():
    with pytest.raises(RecordError, match="unknown game"):
        record_to_actions({"game": "chess"})


def test_openspiel_mcts_plays_complete_garner_games():
    """OpenSpiel's Python MCTSBot (random rollouts) plays whole Garner A games through the
    adapter, against itself and against a uniform random OpenSpiel bot."""
    from open_spiel.python.algorithms import mcts
    from open_spiel.python.bots.uniform_random import UniformRandomBot

    game = pyspiel.load_game("gamelib_garner(setup=A)")
    results = []
    for seed in range(2):
        rs = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
        bot = mcts.MCTSBot(game, 2.0, 30, evaluator, random_state=rs)
        other = UniformRandomBot(1 - seed % 2, rs)
        bots = [bot, other] if seed % 2 == 0 else [other, bot]
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rs.choice(actions, p=probs)))
            else:
                state.apply_action(bots[state.current_player()].step(state))
        results.append(state.returns()[seed % 2])
        replay(actions_to_record(game, state.history()))  # a legal, complete gamelib game
    assert all(r in (-1.0, 0.0, 1.0) for r in results)


def _mcts_match(n_games: int, simulations: int, seed: int = 0) -> list[float]:
    """OpenSpiel's MCTSBot against gamelib's ``mcts:N:random`` on Garner A, each deal played
    twice with the seats swapped: the OpenSpiel bot's score per game (win 1, draw ½, loss 0).

    Both search ``simulations`` iterations per decision with uniform random playouts and the
    same exploration (gamelib's C = 0.5 on rewards in [0, 1] is OpenSpiel's uct_c = 1 on returns
    in [-1, 1]).
    """
    from open_spiel.python.algorithms import mcts

    from gamelib.core import game_rngs, game_seeds

    game = pyspiel.load_game("gamelib_garner(setup=A)")
    scores = []
    seeds = game_seeds(seed, n_games)
    for i, game_seed in enumerate(seeds):
        spiel_seat = i % 2  # the deal of game i // 2, OpenSpiel in seat 0 then seat 1
        deal_seed = seeds[i - spiel_seat]
        chance = np.random.RandomState(deal_seed % 2**32)
        rs = np.random.RandomState(game_seed % 2**32)
        bot = mcts.MCTSBot(
            game, 1.0, simulations, mcts.RandomRolloutEvaluator(1, rs), random_state=rs
        )
        ours = GARNER.player(f"mcts:{simulations}:random")
        _, seat_rngs = game_rngs(game_seed, 2)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(chance.choice(actions, p=probs)))
            elif state.current_player() == spiel_seat:
                state.apply_action(bot.step(state))
            else:
                seat = state.current_player()
                ref = state.ref
                move = ours(ref.observation(seat), ref.legal_moves(), seat_rngs[seat])
                state.apply_action(state.adapter.encode(move))
        scores.append(0.5 + 0.5 * state.returns()[spiel_seat])
    return scores


def test_openspiel_mcts_match_harness_plays_both_seats():
    """The strength match below, on one deal: both seats, scores of finished games."""
    scores = _mcts_match(2, 8, seed=1)
    assert len(scores) == 2 and all(s in (0.0, 0.5, 1.0) for s in scores)


MATCH_GAMES = int(os.environ.get("OPENSPIEL_MATCH_GAMES", "0"))
MATCH_SIMULATIONS = int(os.environ.get("OPENSPIEL_MATCH_SIMULATIONS", "25"))


@pytest.mark.skipif(
    MATCH_GAMES == 0,
    reason="the 200-game strength match takes about ten minutes: "
    "OPENSPIEL_MATCH_GAMES=200 pytest tests/test_openspiel.py -k similar_strength",
)
def test_openspiel_mcts_and_gamelib_mcts_are_of_similar_strength():
    """At the same number of simulations the two searches score alike: OpenSpiel's mean score
    has a 95% interval (paired by deal) that includes 0.5."""
    scores = _mcts_match(MATCH_GAMES, MATCH_SIMULATIONS, seed=13)
    # the two games of a deal are not independent: the interval is over deals
    pairs = np.asarray(scores).reshape(-1, 2).mean(axis=1)
    mean, se = pairs.mean(), pairs.std(ddof=1) / np.sqrt(len(pairs))
    lo, hi = mean - 1.96 * se, mean + 1.96 * se
    print(
        f"OpenSpiel MCTSBot vs gamelib mcts:{MATCH_SIMULATIONS}:random, {len(scores)} games: "
        f"OpenSpiel scores {mean:.3f} ({lo:.3f}–{hi:.3f})"
    )
    assert lo <= 0.5 <= hi


def test_without_openspiel_the_import_error_names_the_extra():
    import subprocess
    import sys

    code = "import sys; sys.modules['pyspiel'] = None; import gamelib.openspiel"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode != 0
    assert "pip install 'gamelib[openspiel]'" in run.stderr
