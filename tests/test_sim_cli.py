"""simulate() and the command line: same table whatever runs it, clear errors on bad input."""

from __future__ import annotations

import subprocess
import sys

import pandas as pd
import pytest

from gamelib import ConfigError, read_records, replay
from gamelib.cli import main
from gamelib.core import random_player
from gamelib.garner import GARNER
from gamelib.sim import simulate

CFG = GARNER.config("A")


@pytest.fixture(scope="module")
def serial() -> pd.DataFrame:
    return simulate(CFG, ["greedy", "random"], 60, seed=5, workers=1, progress=False)


def test_table_is_tidy_with_provenance(serial: pd.DataFrame):
    assert len(serial) == 60
    for col in ("game", "gamelib_version", "setup", "top_layer", "seed", "player_0", "player_1"):
        assert col in serial
    for col in ("winner", "reason", "turns", "score_0", "score_1", "decisions", "options"):
        assert col in serial
    assert serial["game_index"].tolist() == list(range(60))
    assert set(serial["reason"]) <= {"layout_empty", "turn_limit"}
    assert (serial["multi_option_decisions"] <= serial["decisions"]).all()


def test_same_table_on_one_or_two_processes(serial: pd.DataFrame):
    parallel = simulate(
        CFG, ["greedy", "random"], 60, seed=5, workers=2, chunk_size=7, progress=False
    )
    pd.testing.assert_frame_equal(serial, parallel)


def test_same_table_on_a_dask_cluster(serial: pd.DataFrame):
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = simulate(
            CFG, ["greedy", "random"], 60, seed=5, executor=client, chunk_size=9, progress=False
        )
        by_address = simulate(
            CFG,
            ["greedy", "random"],
            60,
            seed=5,
            executor=cluster.scheduler_address,
            chunk_size=9,
            progress=False,
        )
    pd.testing.assert_frame_equal(serial, on_dask)
    pd.testing.assert_frame_equal(serial, by_address)


def test_first_games_of_a_long_run_are_a_short_run(serial: pd.DataFrame):
    short = simulate(CFG, ["greedy", "random"], 20, seed=5, workers=1, progress=False)
    pd.testing.assert_frame_equal(short, serial.iloc[:20].reset_index(drop=True))


def test_rotate_seats_plays_each_deal_in_every_seat():
    t = simulate(
        CFG, ["greedy", "random"], 10, seed=1, rotate_seats=True, workers=1, progress=False
    )
    assert len(t) == 20
    for _, pair in t.groupby("deal"):
        assert pair["seed"].nunique() == 1
        assert sorted(pair["player_0"].astype(str)) == ["greedy", "random"]
        assert sorted(pair["rotation"]) == [0, 1]


def test_records_written_in_game_order_replay(tmp_path):
    path = tmp_path / "r.jsonl"
    table = simulate(
        CFG, ["random", "random"], 12, seed=2, workers=2, chunk_size=5, progress=False, records=path
    )
    recs = list(read_records(path))
    assert [r["seed"] for r in recs] == table["seed"].tolist()
    for r in recs:
        assert replay(r).outcome.to_json() == r["outcome"]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": ["random"]}, "needs 2 players"),
        ({"players": ["random", "wizard"]}, "unknown garner player"),
        ({"n_games": -1}, "n_games"),
        ({"workers": 0}, "workers"),
        ({"executor": 42}, "executor"),
    ],
)
def test_bad_simulate_input_is_refused(kwargs, message):
    args = {"players": ["random", "random"], "n_games": 2, **kwargs}
    with pytest.raises(ConfigError, match=message):
        simulate(CFG, args.pop("players"), args.pop("n_games"), 1, progress=False, **args)


def test_cli_simulate_prints_a_summary_and_writes_files(tmp_path, capsys):
    out, recs = tmp_path / "e.parquet", tmp_path / "e.jsonl"
    code = main(
        [
            "simulate",
            "garner",
            "--setup",
            "E",
            "--must-move",
            "one",
            "--players",
            "greedy,random",
            "-n",
            "8",
            "--seed",
            "7",
            "--workers",
            "1",
            "--out",
            str(out),
            "--records",
            str(recs),
            "--no-progress",
        ]
    )
    assert code == 0
    text = capsys.readouterr().out
    assert "greedy" in text and "95% CI" in text
    table = pd.read_parquet(out)
    assert len(table) == 8 and set(table["must_move"]) == {"one"}
    assert main(["replay", str(recs)]) == 0
    assert "8 records replayed" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--setup", "Z"], "unknown garner setup 'Z'"),
        (["--rows", "x"], "--rows: 'x' is not a whole number"),
        (["--straight-line", "maybe"], "--straight-line: 'maybe' is not true or false"),
        (["--top-layer", "middle"], "top_layer must be"),
        (["--rows", "4"], "cannot deal exactly"),
        (["--players", "random,random,random"], "needs 2 players"),
        (["--out", "x.csv"], "expected a .parquet file"),
    ],
)
def test_cli_bad_values_get_one_line_and_status_2(argv, message, capsys):
    base = {"--players": "random,random", "-n": "2", "--seed": "1", "--no-progress": None}
    for flag, value in zip(argv[::2], argv[1::2], strict=True):
        base[flag] = value
    args = ["simulate", "garner"]
    for flag, value in base.items():
        args += [flag] if value is None else [flag, value]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_cli_unknown_flag_is_one_line_without_traceback():
    proc = subprocess.run(
        [sys.executable, "-m", "gamelib", "simulate", "garner", "--colour", "red"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "Traceback" not in proc.stderr


def test_cli_replay_refuses_a_corrupt_file(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "gamelib-record/1", "game": "garner"}\n')
    assert main(["replay", str(bad)]) == 2
    assert "record 0" in capsys.readouterr().err


class _Flaky:
    """Plays exactly like 'random' (same name, same choices) but can be armed to raise Ctrl-C."""

    __name__ = "random"

    def __init__(self, after: int | None) -> None:
        self.after = after
        self.calls = 0
        self.games = 0

    def __call__(self, observation, legal, rng):
        self.calls += 1
        self.games += observation.turns == 0 and observation.decision == "lift"
        if self.after is not None and self.calls > self.after:
            raise KeyboardInterrupt
        return random_player(observation, legal, rng)


def test_an_interrupted_run_keeps_its_chunks_and_resumes(tmp_path):
    from gamelib.sim import SimulationInterrupted

    folder = tmp_path / "run"
    # a Python player seats the whole line-up in the reference engine: compare with that
    whole = simulate(
        CFG, ["random", "greedy"], 30, seed=8, workers=1, progress=False, engine="python"
    )
    flaky = _Flaky(after=400)  # dies part-way through the run
    with pytest.raises(SimulationInterrupted, match=r"of 30 deals are kept in .*run"):
        simulate(
            CFG,
            [flaky, "greedy"],
            30,
            seed=8,
            workers=1,
            chunk_size=4,
            progress=False,
            resume=folder,
        )
    kept = sorted(folder.glob("part-*.parquet"))
    assert 0 < len(kept) < 8
    kept_deals = sum(len(pd.read_parquet(p)) for p in kept)
    assert not list(folder.glob("*.partial"))
    counter = _Flaky(after=None)
    resumed = simulate(
        CFG, [counter, "greedy"], 30, seed=8, workers=1, chunk_size=4, progress=False, resume=folder
    )
    pd.testing.assert_frame_equal(resumed, whole)
    assert counter.games == 30 - kept_deals  # only the missing games were played
    assert not folder.exists()  # cleaned up once whole


def test_a_resume_folder_of_another_run_is_refused(tmp_path):
    from gamelib.sim import ResultsError

    folder = tmp_path / "run"
    flaky = _Flaky(after=50)
    with pytest.raises(Exception, match="interrupted"):
        simulate(
            CFG,
            [flaky, "random"],
            10,
            seed=1,
            workers=1,
            chunk_size=2,
            progress=False,
            resume=folder,
        )
    with pytest.raises(ResultsError, match="different run"):
        simulate(CFG, ["random", "random"], 10, seed=2, workers=1, progress=False, resume=folder)


def test_save_load_and_cache_keep_provenance(tmp_path, serial: pd.DataFrame):
    from gamelib.sim import ResultsError, load, save

    path = save(serial, tmp_path / "t.parquet")
    back = load(path)
    pd.testing.assert_frame_equal(back, serial)
    assert back.attrs["provenance"]["seed"] == 5
    assert back.attrs["provenance"]["players"] == ["greedy", "random"]
    with pytest.raises(ResultsError, match="no such result table"):
        load(tmp_path / "missing.parquet")
    (tmp_path / "junk.parquet").write_bytes(b"not parquet")
    with pytest.raises(ResultsError, match="not a readable result table"):
        load(tmp_path / "junk.parquet")
    with pytest.raises(ResultsError, match=r"\.parquet"):
        save(serial, tmp_path / "t.csv")
    cache = tmp_path / "cache"
    first = simulate(CFG, ["greedy", "random"], 60, seed=5, workers=1, progress=False, cache=cache)
    assert len(list(cache.glob("deals/garner/*/part-*.parquet"))) == 1
    counter = _Flaky(after=0)  # would raise if any game were played
    counter.__name__ = "greedy"
    again = simulate(CFG, [counter, "random"], 60, seed=5, workers=1, progress=False, cache=cache)
    pd.testing.assert_frame_equal(again, first)
    pd.testing.assert_frame_equal(first, serial)


def test_sweep_plays_every_combination_on_common_seeds():
    from gamelib.sim import sweep

    grid = {"setup": ["A", "D"], "must_move": ["none", "all"]}
    t = sweep("garner", grid, ["random", "random"], 5, seed=4, workers=1, progress=False)
    assert len(t) == 20
    combos = t.groupby(["setup", "must_move"], observed=True).size()
    assert combos.to_dict() == {(s, m): 5 for s in "AD" for m in ("all", "none")}
    for _, runs in t.groupby("deal"):
        assert runs["seed"].nunique() == 1  # the same deals under every variant
    alone = simulate(
        GARNER.config("D", must_move="all"), ["random", "random"], 5, 4, workers=1, progress=False
    )
    part = t[(t["setup"] == "D") & (t["must_move"] == "all")].reset_index(drop=True)
    assert part["winner"].tolist() == alone["winner"].tolist()
    assert part["turns"].tolist() == alone["turns"].tolist()


def test_cli_sweep_prints_one_line_per_variant(tmp_path, capsys):
    out = tmp_path / "s.parquet"
    code = main(
        [
            "sweep",
            "garner",
            "--setup",
            "A",
            "--straight-line",
            "false,true",
            "--players",
            "random,random;greedy,random",
            "-n",
            "4",
            "--seed",
            "2",
            "--workers",
            "1",
            "--no-progress",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert "win_rate_0" in lines[0]
    assert len([ln for ln in lines if ln.strip().startswith("A ")]) == 4
    from gamelib.sim import load

    table = load(out)
    assert len(table) == 16
    assert table.attrs["provenance"]["sweep"]["straight_line"] == ["False", "True"]
    assert main(["sweep", "garner", "--players", "random,random", "-n", "2", "--seed", "1"]) == 2
    assert "at least one rule flag" in capsys.readouterr().err


def test_cli_one_player_name_fills_every_seat(capsys):
    assert (
        main(
            [
                "simulate",
                "gargon",
                "--setup",
                "5p",
                "--players",
                "random",
                "-n",
                "3",
                "--seed",
                "1",
                "--workers",
                "1",
                "--no-progress",
            ]
        )
        == 0
    )
    assert "gargon (5p), 3 games" in capsys.readouterr().out


def test_cli_player_count_follows_the_players_given(tmp_path, capsys):
    out = tmp_path / "g.parquet"
    argv = ["simulate", "gargon", "--players", "random,random,random", "-n", "100", "--seed", "1"]
    assert main([*argv, "--workers", "1", "--no-progress", "--out", str(out)]) == 0
    assert "gargon (3 players), 100 games" in capsys.readouterr().out
    table = pd.read_parquet(out)
    assert len(table) == 100 and set(table["n_players"]) == {3}
    assert "player_2" in table and "player_3" not in table


def test_more_workers_than_work_is_capped_and_said(recwarn):
    from gamelib.core import GamelibWarning

    with pytest.warns(GamelibWarning, match=r"workers 8: using 1 \(.*1 chunk"):
        t = simulate(CFG, ["random", "random"], 1, seed=1, workers=8, progress=False)
    assert len(t) == 1


def test_cli_says_when_it_caps_the_workers(capsys):
    argv = ["simulate", "garner", "--setup", "A", "--players", "random", "-n", "1", "--seed", "1"]
    assert main([*argv, "--workers", "1000", "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert "gamelib: note: --workers 1000: using 1" in err


def test_patterns_and_amulets_files_on_the_cli(tmp_path, capsys):
    from gamelib.deck_the_yard import DECK_THE_YARD
    from gamelib.deck_the_yard.rules import DEFAULT_PATTERNS
    from gamelib.sim import config_columns

    pats = tmp_path / "p.csv"  # no header, the first pattern capitalised
    rows = [",".join(p) for p in DEFAULT_PATTERNS[:6]]
    pats.write_text("\n".join([rows[0].title(), *rows[1:]]) + "\n")
    out = tmp_path / "y.parquet"
    argv = ["simulate", "deck_the_yard", "--players", "random", "-n", "2", "--seed", "1"]
    assert main([*argv, "--patterns", str(pats), "--workers", "1", "--no-progress"]) == 0
    assert main([*argv, "--patterns", str(pats), "--out", str(out), "--no-progress"]) == 0
    table = pd.read_parquet(out)
    six = DECK_THE_YARD.config(None, patterns=DEFAULT_PATTERNS[:6])
    assert set(table["patterns"]) == {config_columns(six)["patterns"]}
    amulets = tmp_path / "a.csv"
    amulets.write_text("value,amulets\n" + "".join(f"{v},{v % 3}\n" for v in range(16)))
    out = tmp_path / "g.parquet"
    argv = ["simulate", "gargon", "--players", "random", "-n", "2", "--seed", "1", "--workers", "1"]
    assert main([*argv, "--amulets", str(amulets), "--out", str(out), "--no-progress"]) == 0
    assert pd.read_parquet(out)["amulets"].tolist() == [",".join(str(v % 3) for v in range(16))] * 2
    capsys.readouterr()


def test_pattern_file_is_checked_against_the_strand_length_flag(tmp_path, capsys):
    """A file of 4-colour patterns is read with --strand-length 4 (simulate and sweep); without
    that flag it is refused against the default strand of 5."""
    pats = tmp_path / "p4.csv"
    pats.write_text("red,green,blue,pink\nred,blue,green,pink\nyellow,pink,red,blue\n")
    base = ["deck_the_yard", "--players", "random", "-n", "2", "--seed", "1", "--workers", "1"]
    out = tmp_path / "four.parquet"
    argv = ["simulate", *base, "--no-progress", "--out", str(out)]
    assert main([*argv, "--strand-length", "4", "--patterns", str(pats)]) == 0
    table = pd.read_parquet(out)
    assert set(table["strand_length"]) == {4}
    assert table["patterns"].iloc[0].count("pink") == 3  # the three 4-colour patterns
    capsys.readouterr()
    assert main(["simulate", *base, "--no-progress", "--patterns", str(pats)]) == 2
    assert "has 4 bulbs, the strand holds 5" in capsys.readouterr().err
    sweep = ["sweep", *base, "--no-progress", "--patterns", str(pats)]
    assert main([*sweep, "--strand-length", "4"]) == 0
    capsys.readouterr()
    assert main([*sweep, "--strand-length", "4,5"]) == 2
    assert "a single value" in capsys.readouterr().err
