"""The fourth game, Leduc hold'em (examples/leduc, registered by its entry point): its rules
agree with OpenSpiel's C++ leduc_poker, and every gamelib tool plays it from the protocol alone —
simulate, the ladder, verdicts, the report, OpenSpiel's conformance test and IS-MCTS, and
gamelib's generic search, which beats random with a decided verdict."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

leduc_poker = pytest.importorskip(
    "leduc_poker", reason="the example game is not installed: pip install -e examples/leduc"
)

from leduc_poker import LEDUC, MOVES, Fold, LeducConfig  # noqa: E402

from gamelib import play_game  # noqa: E402
from gamelib.cli import main  # noqa: E402
from gamelib.core import ConfigError, IllegalMoveError  # noqa: E402
from gamelib.registry import GAMES, get_game, register  # noqa: E402
from gamelib.search import IsmctsPlayer, RolloutPlayer  # noqa: E402

pyspiel = pytest.importorskip("pyspiel")
import gamelib.openspiel  # noqa: E402, F401  registers gamelib_leduc with OpenSpiel


def test_registered_by_its_entry_point_with_the_generic_players():
    game = get_game("leduc")
    assert game.config_type is LeducConfig and "leduc" in GAMES
    assert register(LEDUC) is game  # registering again is harmless
    assert isinstance(game.player("ismcts:10"), IsmctsPlayer)
    assert isinstance(game.player("rollout:3"), RolloutPlayer)
    with pytest.raises(ConfigError, match="leduc hides cards from its seats; use ismcts:10"):
        game.player("mcts:10")


def test_the_entry_points_are_read_only_when_a_name_or_the_list_needs_them() -> None:
    # reading them costs a small run about 0.03 s (gamelib.registry); a run naming a built-in
    # game never does, one naming an installed game or listing them all does
    import subprocess
    import sys
    import textwrap

    script = textwrap.dedent(
        """
        import json, sys
        from gamelib.cli import main
        from gamelib.registry import GAMES
        from gamelib.sim import game_of
        assert main(["simulate", "garner", "--setup", "A", "--players", "greedy", "-n", "2",
                     "--seed", "1", "--no-progress"]) == 0
        seen = [GAMES._plugins_read, "leduc_poker" in sys.modules]
        from leduc_poker import LeducConfig  # the package alone, not yet registered
        seen.append(game_of(LeducConfig()).name)  # found by reading the entry points
        seen.append(GAMES._plugins_read)
        print(json.dumps(seen))
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout.splitlines()[-1]) == [False, False, "leduc", True]
    for argv in (
        ["-c", "from gamelib.cli import main; main(['games'])"],
        [
            "-m",
            "gamelib",
            "simulate",
            "leduc",
            "--players",
            "random",
            "-n",
            "2",
            "--seed",
            "1",
            "--no-progress",
        ],
    ):
        out = subprocess.run([sys.executable, *argv], capture_output=True, text=True, check=True)
        assert "leduc" in out.stdout


def test_a_broken_plugin_is_named_in_a_warning_and_the_rest_still_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import importlib.metadata

    import gamelib.registry as registry
    from gamelib.core import GamelibWarning

    class Broken:
        name, value = "broken", "no_such_module:GAME"

        def load(self):  # type: ignore[no-untyped-def]
            raise ModuleNotFoundError("No module named 'no_such_module'")

    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group: [Broken()])
    games = registry._Games()
    monkeypatch.setattr(registry, "GAMES", games)
    registry.register(LEDUC)
    assert games["leduc"].config_type is LeducConfig and not games._plugins_read
    with pytest.warns(GamelibWarning, match="'broken' \\(no_such_module:GAME\\) could not be"):
        assert list(games) == ["leduc"]
    with pytest.raises(ConfigError, match="unknown game 'broken'; known games: leduc"):
        registry.get_game("broken")


def test_bad_rules_and_moves_are_refused_by_name():
    with pytest.raises(ConfigError, match="seats 2 to 9 players"):
        LeducConfig(n_players=1)
    with pytest.raises(ConfigError, match="max_raises must be a whole number"):
        LeducConfig(max_raises=1.5)
    state = LEDUC.new_state(LeducConfig(), random.Random(0))
    with pytest.raises(IllegalMoveError, match="Fold"):
        state.apply(Fold())  # nothing is owed before the first bet


@pytest.mark.parametrize("n", [2, 3])
def test_the_rules_agree_with_openspiels_leduc_poker(n):
    """Random hands of OpenSpiel's C++ leduc_poker replayed here on the same cards: the same
    legal actions at every bet (an action is a move's index in MOVES) and the same chips."""
    spiel = pyspiel.load_game(f"leduc_poker(players={n})")
    config = LeducConfig(n_players=n)
    rng = random.Random(n)
    for _ in range(300):
        state = spiel.new_initial_state()
        chance, trail = [], []
        while not state.is_terminal():
            if state.is_chance_node():
                c = rng.choice(state.chance_outcomes())[0]
                chance.append(c)
            else:
                c = rng.choice(state.legal_actions())
                trail.append((state.legal_actions(), c))
            state.apply_action(c)
        rest = [c for c in range(config.n_cards) if c not in chance]
        ours = leduc_poker.rules.LeducState(config, chance + rest, leduc_poker.rules.Chance(None))
        for legal, action in trail:
            assert [MOVES.index(m) for m in ours.legal_moves()] == legal
            ours.apply(MOVES[action])
        assert ours.is_over()
        assert list(ours.outcome().scores) == state.returns()


def test_the_resample_hook_agrees_with_the_observation_and_reads_nothing_hidden():
    game = get_game("leduc")
    config = game.config("3p")
    checked = 0
    for seed in range(40):
        state = game.new_state(config, random.Random(seed))
        rng = random.Random(seed)
        while not state.is_over():
            seat = state.current_player()
            obs = state.observation(seat)
            det = game.resample(obs, random.Random(checked))
            assert det.observation(seat) == obs and det.legal_moves() == state.legal_moves()
            other = game.resample(obs, random.Random(checked + 1))  # another hidden deal
            player = game.player("generic:ismcts:30")
            legal = state.legal_moves()
            assert player(obs, legal, random.Random(3)) == player(
                other.observation(seat), legal, random.Random(3)
            )
            checked += 1
            state.apply(rng.choice(state.legal_moves()))
    assert checked > 100


def test_same_seed_same_game():
    game = get_game("leduc")
    players = ["ismcts:20", "rollout:2"]
    a = play_game(game, game.config("2p"), players, 5, record=True).record
    assert a == play_game(game, game.config("2p"), players, 5, record=True).record
    from gamelib import replay

    replay(a)


def test_simulate_and_the_ladder_from_the_command_line(tmp_path, capsys):
    out = tmp_path / "leduc.parquet"
    args = ["simulate", "leduc", "--setup", "3p", "--players", "random", "-n", "40"]
    assert main([*args, "--seed", "1", "--out", str(out), "--no-progress"]) == 0
    from gamelib.sim import load

    table = load(out)
    assert len(table) == 40 and set(table["reason"]) <= {"fold", "showdown"}
    assert (table[["score_0", "score_1", "score_2"]].sum(axis=1) == 0).all()  # chips move
    assert main(["ladder", "leduc", "--setup", "2p", "--players", "random,ismcts:10", "-n", "6",
                 "--seed", "2", "--workers", "1", "--no-progress"]) == 0  # fmt: skip
    printed = capsys.readouterr().out
    assert "ismcts:10" in printed and "random" in printed


def test_generic_search_beats_random_with_a_decided_verdict(tmp_path):
    """The guide's test of a search player: gamelib's skill verdict, from both seats of every
    deal, decides that the generic ismcts is stronger than random at Leduc."""
    flags = ["--setup", "2p", "--players", "random,ismcts:40", "--question", "skill"]
    flags += ["--margin", "0.05", "--max-games", "400", "--seed", "3", "--workers", "1"]
    assert (
        main(["verdict", "leduc", *flags, "--no-progress", "--json", str(tmp_path / "v.json")]) == 0
    )
    (row,) = json.loads((tmp_path / "v.json").read_text())
    assert row["question"] == "skill" and row["decision"] == "holds", row
    assert row["estimate"] > 0.55


def test_the_report_renders(tmp_path):
    out = tmp_path / "leduc.html"
    assert main(["report", "leduc", "--setup", "2p", "--players", "random,rollout:4",
                 "--max-games", "200", "--seed", "4", "--workers", "1", "--no-progress",
                 "--out", str(out)]) == 0  # fmt: skip
    page = out.read_text(encoding="utf-8")
    assert "Leduc: balance report" in page and "rollout:4" in page


@pytest.mark.parametrize("name", ["gamelib_leduc", "gamelib_leduc(setup=3p,raise_2=6)"])
def test_openspiel_conformance_and_pickles(name):
    import pickle

    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)
    assert pickle.loads(pickle.dumps(game)).config == game.config
    assert game.num_distinct_actions() == 3
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


def test_openspiel_ismcts_plays_leduc_with_the_generic_resampling():
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("gamelib_leduc")
    wins = []
    for g in range(6):
        rs = np.random.RandomState(g)
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 1.0, 30, random_state=rs)
        state = game.new_initial_state()
        seat = g % 2
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rs.choice(actions, p=probs)))
            elif state.current_player() == seat:
                before = state.information_state_string(seat)
                sample = state.resample_from_infostate(
                    seat, pyspiel.UniformProbabilitySampler(g, 0, 1)
                )
                assert sample.information_state_string(seat) == before
                state.apply_action(bot.step(state))
            else:
                state.apply_action(int(rs.choice(state.legal_actions())))
        wins.append(state.returns()[seat])
    assert all(0.0 <= w <= 1.0 for w in wins)
