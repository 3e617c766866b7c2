"""The compiled cores behind simulate/play_game: same tables as the reference engine where the
players draw the same numbers, mixing with Python players, the engine switch, the streams."""

import copy
import pickle
import random

import numpy as np
import pandas as pd
import pytest

from gamelib import ConfigError, replay
from gamelib.cli import main
from gamelib.core import SplitMixRandom, game_rngs
from gamelib.records import engine_for, play_game
from gamelib.registry import get_game
from gamelib.sim import simulate

SEATS = {"garner": 2, "gargon": 4, "deck_the_yard": 1}


def _plain(table: pd.DataFrame) -> pd.DataFrame:
    table = table.copy()
    table.attrs = {}
    return table


@pytest.mark.parametrize("name", list(SEATS))
def test_random_games_are_the_same_in_both_engines(name: str):
    """The random player draws the same numbers in both engines, so whole tables agree."""
    game = get_game(name)
    players = ["random"] * SEATS[name]
    kw = {"workers": 1, "rotate_seats": True, "progress": False}
    fast = simulate(game.config(), players, 25, 11, **kw)
    slow = simulate(game.config(), players, 25, 11, engine="python", **kw)
    pd.testing.assert_frame_equal(_plain(fast), _plain(slow))
    assert fast.attrs["provenance"]["players"] == players
    assert "engine" not in fast.attrs["provenance"] and slow.attrs["provenance"]["engine"]


@pytest.mark.parametrize(
    ("name", "players"),
    [
        ("garner", ["greedy", "cautious"]),
        ("gargon", ["greedy", "random", "greedy:ignore", "greedy"]),
        ("deck_the_yard", ["greedy:claim_characters"]),
    ],
)
def test_compiled_records_replay_and_deal_as_the_reference_does(name: str, players, tmp_path):
    game = get_game(name)
    path = tmp_path / "games.jsonl"
    table = simulate(game.config(), players, 6, 3, workers=1, progress=False, records=path)
    assert engine_for(game, players) == "compiled"
    for rec, (_, row) in zip(_read(path), table.iterrows(), strict=True):
        assert rec["seed"] == row["seed"] and rec["players"] == players
        replayed = replay(rec)
        assert replayed.outcome.row()["turns"] == row["turns"]
        python = play_game(game, game.config(), players, rec["seed"], record=True, engine="python")
        assert python.record is not None
        assert python.record["start"] == rec["start"]  # the same deal in both engines


def _read(path):
    from gamelib import read_records

    return list(read_records(path))


def test_a_python_player_mixes_with_a_compiled_one():
    game = get_game("garner")
    cfg = game.config("A")

    def first(observation, legal, rng):
        return legal[0]

    mixed = simulate(cfg, ["greedy", first], 10, 4, workers=1, rotate_seats=True, progress=False)
    assert list(mixed["player_0"][:2]) == ["greedy", "first"]
    assert engine_for(game, ["greedy", first]) == "python"
    # the deals are the compiled run's: a player never changes the cards
    a = play_game(game, cfg, ["greedy", first], 99, record=True)
    b = play_game(game, cfg, ["greedy", "greedy"], 99, record=True)
    assert a.record is not None and b.record is not None
    assert a.record["start"] == b.record["start"]


def test_play_game_on_the_compiled_core_gives_the_reference_state():
    game = get_game("gargon")
    pg = play_game(game, game.config(), ["greedy"] * 4, 5, record=True)
    assert pg.state.is_over() and pg.record is not None
    assert pg.decisions == len(pg.record["moves"])
    assert replay(pg.record).outcome == pg.outcome


def test_the_engine_switch_refuses_what_it_cannot_do(capsys):
    game = get_game("garner")
    cfg = game.config("A")
    with pytest.raises(ConfigError, match="engine must be one of"):
        simulate(cfg, ["random", "random"], 1, 0, engine="fast")

    def mine(observation, legal, rng):
        return legal[0]

    with pytest.raises(ConfigError, match="no compiled garner player mine"):
        simulate(cfg, ["random", mine], 1, 0, engine="compiled")
    with pytest.raises(ConfigError, match="needs 2 players"):
        play_game(game, cfg, ["random"] * 3, 0)
    with pytest.raises(SystemExit) as stop:
        main(["simulate", "garner", "--players", "random", "-n", "1", "--seed", "0",
              "--engine", "turbo", "--no-progress"])  # fmt: skip
    assert stop.value.code == 2 and "--engine" in capsys.readouterr().err


def test_the_python_streams_are_the_kernels():
    from gamelib.garner import kernel as K

    cfg = get_game("garner").config()
    t = K.tables(cfg)
    rs = K.rng_streams(12345)
    deck = np.empty(sum(cfg.suit_sizes), np.int64)
    K.deal(t, rs, deck)
    chance, seats = game_rngs(12345, 2)
    cards = list(range(len(deck)))
    chance.shuffle(cards)
    assert cards == deck.tolist()
    assert [r.getstate()[1] for r in seats] == [int(x) for x in rs[1:]]


def test_splitmix_random_is_a_well_behaved_random():
    r = SplitMixRandom(7)
    assert isinstance(r, random.Random)
    twin = copy.deepcopy(r)
    pickled = pickle.loads(pickle.dumps(r))
    draws = [r.randrange(10) for _ in range(50)]
    assert draws == [twin.randrange(10) for _ in range(50)]
    assert draws == [pickled.randrange(10) for _ in range(50)]
    assert sorted(set(draws)) == list(range(10))
    assert 0 <= r.random() < 1 and r.getrandbits(100) < 2**100
    assert r.randrange(2**40) < 2**40
    with pytest.raises(ValueError):
        r.setstate((3, (1, 2), None))


def test_compiled_chunks_give_the_same_table_on_any_number_of_workers(tmp_path):
    cfg = get_game("gargon").config("3p")
    players = ["greedy", "random", "greedy:ignore"]
    one = simulate(cfg, players, 40, 9, workers=1, progress=False)
    two = simulate(cfg, players, 40, 9, workers=2, chunk_size=7, progress=False)
    kept = simulate(
        cfg, players, 40, 9, workers=1, chunk_size=5, progress=False, resume=tmp_path / "r"
    )
    pd.testing.assert_frame_equal(_plain(one), _plain(two))
    pd.testing.assert_frame_equal(_plain(one), _plain(kept))
    head = simulate(cfg, players, 13, 9, workers=1, progress=False)
    # (categories hold the labels a table has, so only the values can agree here)
    pd.testing.assert_frame_equal(
        _plain(head).astype(str), _plain(one.iloc[: len(head)]).astype(str)
    )


def test_a_table_streamed_to_parquet_loads_as_the_simulated_table(tmp_path):
    from gamelib.sim import load, simulate_to, slim

    cfg = get_game("garner").config("A")
    players = ["greedy", "random"]
    whole = simulate(cfg, players, 30, 6, workers=1, rotate_seats=True, progress=False)
    for engine, columns in (("auto", None), ("python", ["winner", "turns", "win_0"])):
        out = tmp_path / f"{engine}.parquet"
        summary = simulate_to(
            out, cfg, players, 30, 6, resume=tmp_path / f"{engine}.parts", columns=columns,
            workers=1, rotate_seats=True, progress=False, chunk_size=4, engine=engine,
        )  # fmt: skip
        want = whole if engine == "auto" else simulate(
            cfg, players, 30, 6, workers=1, rotate_seats=True, progress=False, engine="python"
        )  # fmt: skip
        if columns is not None:
            want = slim(want, columns)
        got = load(out)
        assert got.attrs["provenance"] == want.attrs["provenance"]
        pd.testing.assert_frame_equal(_plain(got), _plain(want))
        assert len(summary) == 60 and list(summary["turns"]) == list(want["turns"])
        assert not (tmp_path / f"{engine}.parts").exists()  # emptied once the file is whole
