"""Every bad input a clear error: through the command line (real subprocesses), each gets exit
status 2 and exactly one line ``gamelib: error: …`` naming the offending value; through the
Python API, the specific :class:`~gamelib.GamelibError` subclass with that message.

The command-line cases run concurrently in one module fixture (each is its own process), so
the whole list costs a few seconds of wall time.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pandas as pd
import pytest

from gamelib import (
    ConfigError,
    GamelibError,
    RecordError,
    get_game,
    play_game,
    read_records,
    replay,
)
from gamelib.core import ClusterError, OutputError, ResultsError, ResumeError
from gamelib.deck_the_yard import DECK_THE_YARD, load_patterns
from gamelib.gargon import GARGON, load_amulets
from gamelib.garner import GARNER
from gamelib.sim import load, save, simulate, slim, sweep

RUN = ["--no-progress", "--workers", "1"]
GARNER_RUN = ["simulate", "garner", "--players", "random", "-n", "2", "--seed", "1", *RUN]
GARGON_RUN = ["simulate", "gargon", "--players", "random", "-n", "2", "--seed", "1", *RUN]
YARD_RUN = ["simulate", "deck_the_yard", "--players", "random", "-n", "2", "--seed", "1", *RUN]
SWEEP = ["sweep", "garner", "--players", "random", "-n", "2", "--seed", "1", *RUN]

# (argv, a piece of the one error line, extra environment); {tmp} is a prepared folder
CLI_CASES: list[tuple[list[str], str, dict[str, str]]] = [
    ([*GARNER_RUN, "--seed", "-1"], "--seed must be at least 0 and below 2**128, got -1", {}),
    ([*GARNER_RUN, "--seed", str(2**128)], str(2**128), {}),
    ([*GARNER_RUN, "--seed", "abc"], "invalid int value: 'abc'", {}),
    ([*GARNER_RUN, "-n", "0"], "-n must be at least 1, got 0", {}),
    ([*GARNER_RUN, "-n", "1e3"], "invalid int value: '1e3'", {}),
    ([*GARNER_RUN, "--workers", "0"], "--workers must be at least 1, got 0", {}),
    ([*GARNER_RUN, "--players", "random,wizard"], "unknown garner player 'wizard'", {}),
    ([*GARNER_RUN, "--players", ","], "--players ',' names no player", {}),
    ([*GARNER_RUN, "--players", "random,random,random"], "needs 2 players, got 3", {}),
    ([*GARNER_RUN, "--players", "greedy:bogus"], "'greedy:bogus'", {}),
    ([*GARNER_RUN, "--players", "cautious:abc"], "got 'abc'", {}),
    ([*GARNER_RUN, "--players", "cautious:0"], "got '0'", {}),
    ([*GARNER_RUN, "--setup", "Z"], "unknown garner setup 'Z'", {}),
    ([*GARNER_RUN, "--rows", "x"], "--rows: 'x' is not a whole number", {}),
    ([*GARNER_RUN, "--rows", "4"], "cannot deal exactly", {}),
    ([*GARNER_RUN, "--straight-line", "maybe"], "'maybe' is not true or false", {}),
    ([*GARNER_RUN, "--top-layer", "middle"], "got 'middle'", {}),
    ([*GARNER_RUN, "--suit-weights", "nan,1,1,1,1"], "(nan, 1.0, 1.0, 1.0, 1.0)", {}),
    ([*GARNER_RUN, "--max-turns", "0"], "max_turns must be a positive int, got 0", {}),
    ([*GARNER_RUN, "--forbidden-pile-size", "-2"], "got -2", {}),
    ([*GARNER_RUN, "--colour", "red"], "unrecognized arguments: --colour red", {}),
    ([*GARNER_RUN, "--out", "x.csv"], "--out x.csv: expected a .parquet file", {}),
    ([*GARNER_RUN, "--out", "{tmp}/d.parquet"], "--out {tmp}/d.parquet is a folder", {}),
    ([*GARNER_RUN, "--out", "{tmp}/afile/x.parquet"], "{tmp}/afile is a file, not a folder", {}),
    ([*GARNER_RUN, "--out", "{tmp}/no/x.parquet"], "the folder {tmp}/no does not exist", {}),
    ([*GARNER_RUN, "--out", "/proc/x.parquet"], "cannot write in the folder /proc", {}),
    ([*GARNER_RUN, "--records", "{tmp}/old.jsonl"], "--records {tmp}/old.jsonl exists", {}),
    ([*GARNER_RUN, "--records", "r.txt"], "--records r.txt: expected a .jsonl file", {}),
    ([*GARNER_RUN, "--records", "/proc/r.jsonl"], "/proc/r.jsonl", {}),
    ([*GARNER_RUN, "--resume", "{tmp}/afile"], "--resume {tmp}/afile is a file", {}),
    ([*GARNER_RUN, "--resume", "t.parquet", "--out", "t.parquet"], "--resume t.parquet is", {}),
    ([*GARNER_RUN, "--resume", "{tmp}/foreign"], "holds the chunks of a different run", {}),
    ([*GARNER_RUN, "--resume", "{tmp}/broken"], "{tmp}/broken/run.json is not a gamelib", {}),
    ([*GARNER_RUN, "--resume", "{tmp}/badchunk"], "{tmp}/badchunk/part-0-1.parquet is", {}),
    ([*GARNER_RUN, "--scheduler", "not-an-address"], "--scheduler 'not-an-address'", {}),
    (
        [*GARNER_RUN[:-2], "--scheduler", "tcp://127.0.0.1:1"],
        "cannot reach the Dask scheduler at tcp://127.0.0.1:1 given by --scheduler",
        {},
    ),
    ([*GARNER_RUN, "--out", "{tmp}/c.parquet", "--columns", "winner,bogus"], "bogus", {}),
    ([*GARNER_RUN, "--columns", "winner"], "--columns chooses what --out keeps", {}),
    ([*GARNER_RUN, "--cache"], "GAMELIB_CACHE /proc/nope", {"GAMELIB_CACHE": "/proc/nope"}),
    (
        [*GARNER_RUN, "--cache"],
        "GAMELIB_CACHE {tmp}/afile is a file",
        {"GAMELIB_CACHE": "{tmp}/afile"},
    ),
    ([*GARGON_RUN, "--n-players", "7"], "got n_players=7", {}),
    ([*GARGON_RUN, "--players", "random,random"], "got n_players=2", {}),
    ([*GARGON_RUN, "--setup", "4p", "--players", "random,random,random"], "got 3", {}),
    ([*GARGON_RUN, "--hand-size", "0"], "hand_size must be a positive int, got 0", {}),
    ([*GARGON_RUN, "--zero-multiplier", "inf"], "got inf", {}),
    ([*GARGON_RUN, "--majority-bonus", "-1"], "got -1", {}),
    ([*GARGON_RUN, "--amulets", "1,2"], "got (1, 2)", {}),
    ([*GARGON_RUN, "--amulets", "{tmp}/amulets.csv"], "{tmp}/amulets.csv", {}),
    ([*GARGON_RUN, "--players", "greedy:bogus"], "got 'bogus'", {}),
    ([*YARD_RUN, "--patterns", "{tmp}/none.csv"], "{tmp}/none.csv", {}),
    ([*YARD_RUN, "--patterns", "red,blue"], "'red,blue' is not a file", {}),
    ([*YARD_RUN, "--patterns", "{tmp}/twice.csv"], "appears twice", {}),
    ([*YARD_RUN, "--patterns", "{tmp}/adir"], "{tmp}/adir", {}),
    ([*YARD_RUN, "--hand-size", "0"], "hand_size must be a positive int, got 0", {}),
    ([*YARD_RUN, "--bulbs-per-colour", "-1"], "got -1", {}),
    ([*YARD_RUN, "--players", "greedy:bogus"], "'bogus'", {}),
    ([*YARD_RUN, "--players", "random:3"], "'random:3'", {}),
    ([*SWEEP, "--setup", "A,Z"], "unknown garner setup 'Z'", {}),
    ([*SWEEP, "--setup", "A", "--players", ";"], "--players ';' has an empty line-up", {}),
    (SWEEP, "give at least one rule flag", {}),
    ([*SWEEP, "--rows", "5,x"], "--rows: 'x' is not a whole number", {}),
    ([*SWEEP, "--setup", "A", "--seed", "-5"], "got -5", {}),
    ([*SWEEP, "--setup", "A", "--out", "{tmp}/d.parquet"], "{tmp}/d.parquet is a folder", {}),
    (["simulate", "chess"], "invalid choice: 'chess'", {}),
    (["replay", "{tmp}/none.jsonl"], "{tmp}/none.jsonl: no such file", {}),
    (["replay", "{tmp}/adir"], "{tmp}/adir is a folder", {}),
    (["replay", "{tmp}/empty.jsonl"], "{tmp}/empty.jsonl holds no records", {}),
    (["replay", "{tmp}/binary.jsonl"], "{tmp}/binary.jsonl is not a text file", {}),
    (["replay", "{tmp}/deep.jsonl"], "{tmp}/deep.jsonl:1: JSON nested too deeply", {}),
    (["replay", "{tmp}/notjson.jsonl"], "{tmp}/notjson.jsonl:2: not a JSON record", {}),
    (["replay", "{tmp}/array.jsonl"], "a record is a JSON object, got list", {}),
    (["replay", "{tmp}/bad.jsonl"], "record 0: the record lacks", {}),
    (["replay", "{tmp}/tampered.jsonl"], "record 0: replaying the moves ends with", {}),
]


@pytest.fixture(scope="module")
def tmp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Files and folders the bad inputs point at."""
    d = tmp_path_factory.mktemp("bad")
    (d / "afile").write_text("x")
    (d / "adir").mkdir()
    (d / "d.parquet").mkdir()
    (d / "old.jsonl").write_text("{}\n")
    (d / "foreign").mkdir()
    (d / "foreign" / "run.json").write_text(json.dumps({"game": "gargon", "seed": 9}))
    (d / "broken").mkdir()
    (d / "broken" / "run.json").write_text("{not json")
    simulate(
        GARNER.config(None), ["random", "random"], 2, 1, workers=1, chunk_size=1,
        progress=False, resume=d / "badchunk", keep_resume=True,
    )  # fmt: skip
    (d / "badchunk" / "part-0-1.parquet").write_bytes(b"")
    (d / "amulets.csv").write_text("value,amulets\n1,5\n1,4\n")
    (d / "twice.csv").write_text("red,green,blue,pink,yellow\nred,green,blue,pink,yellow\n")
    (d / "empty.jsonl").write_text("")
    (d / "binary.jsonl").write_bytes(b"\xff\xfe\x00garbage")
    (d / "deep.jsonl").write_text("[" * 100_000 + "\n")
    (d / "notjson.jsonl").write_text("\n{oops\n")
    (d / "array.jsonl").write_text("[1, 2, 3]\n")
    (d / "bad.jsonl").write_text('{"format": "gamelib-record/2", "game": "garner"}\n')
    rec = play_game(GARGON, GARGON.config("3p"), ["random"] * 3, 5, record=True).record
    assert rec is not None
    rec["end"]["discard"] = rec["end"]["discard"][1:]
    (d / "tampered.jsonl").write_text(json.dumps(rec) + "\n")
    return d


def _fill(text: str, tmp: Path) -> str:
    return text.replace("{tmp}", str(tmp))


@pytest.fixture(scope="module")
def cli_results(tmp: Path) -> list[subprocess.CompletedProcess[str]]:
    """Every command-line case, each a real ``python -m gamelib`` process, run a few at once."""

    def run(case: tuple[list[str], str, dict[str, str]]) -> subprocess.CompletedProcess[str]:
        argv, _, env = case
        return subprocess.run(
            [sys.executable, "-m", "gamelib", *(_fill(a, tmp) for a in argv)],
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
            cwd=tmp,
            env={**os.environ, **{k: _fill(v, tmp) for k, v in env.items()}},
        )

    with ThreadPoolExecutor(4) as pool:
        return list(pool.map(run, CLI_CASES))


@pytest.mark.parametrize("i", range(len(CLI_CASES)), ids=lambda i: " ".join(CLI_CASES[i][0]))
def test_cli_bad_input_is_one_line_and_status_2(i: int, tmp: Path, cli_results):
    proc = cli_results[i]
    message = _fill(CLI_CASES[i][1], tmp)
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2, proc.stderr
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("gamelib: error: ")
    assert message in lines[0]
    assert proc.stdout == ""


def test_there_are_at_least_60_cli_cases():
    assert len(CLI_CASES) >= 60


# --- the Python API ------------------------------------------------------------------------

CFG = GARNER.config("A")
P2 = ["random", "random"]


def _sim(**kw):
    args = {"config": CFG, "players": P2, "n_games": 2, "seed": 1, "workers": 1, **kw}
    return lambda tmp: simulate(
        args.pop("config"), args.pop("players"), args.pop("n_games"), args.pop("seed"),
        progress=False, **{k: _fill(v, tmp) if isinstance(v, str) else v for k, v in args.items()},
    )  # fmt: skip


def _yard_record(**changes: object) -> dict:
    for seed in range(20):
        rec = play_game(DECK_THE_YARD, DECK_THE_YARD.config(None), ["random"], seed, record=True)
        assert rec.record is not None
        if rec.record["chance"]:
            return {**rec.record, **changes}
    raise AssertionError("no game with a reshuffle")


def _table(tmp: Path) -> pd.DataFrame:
    return simulate(CFG, P2, 2, 1, workers=1, progress=False)


# (call on the prepared folder, error class, a piece of the message)
API_CASES = [
    (_sim(seed=-1), ConfigError, "got -1"),
    (_sim(seed=2**128), ConfigError, str(2**128)),
    (_sim(seed=1.5), ConfigError, "got 1.5"),
    (_sim(seed=True), ConfigError, "got True"),
    (_sim(seed="7"), ConfigError, "got '7'"),
    (_sim(n_games=-1), ConfigError, "got -1"),
    (_sim(n_games=2.0), ConfigError, "got 2.0"),
    (_sim(players="random,random"), ConfigError, "got 'random,random'"),
    (_sim(players=["random"]), ConfigError, "needs 2 players, got 1"),
    (_sim(players=["random", "wizard"]), ConfigError, "'wizard'"),
    (_sim(players=["random", 3]), ConfigError, "got 3"),
    (_sim(workers=0), ConfigError, "got 0"),
    (_sim(workers="2"), ConfigError, "got '2'"),
    (_sim(chunk_size=0), ConfigError, "chunk_size must be a positive whole number, got 0"),
    (_sim(rotate_seats="yes"), ConfigError, "got 'yes'"),
    (_sim(executor=42), ConfigError, "got 42"),
    (_sim(executor="not an address"), ClusterError, "'not an address'"),
    (_sim(records="r.txt"), OutputError, "r.txt"),
    (_sim(records="{tmp}/adir"), OutputError, "adir"),
    (_sim(records="{tmp}/afile/r.jsonl"), OutputError, "afile is a file"),
    (_sim(records=42), OutputError, "got 42"),
    (_sim(resume="{tmp}/afile"), OutputError, "afile is a file"),
    (_sim(resume="{tmp}/foreign"), ResumeError, "different run"),
    (
        _sim(config=GARNER.config(None), resume="{tmp}/badchunk"),
        ResumeError,
        "part-0-1.parquet is empty",
    ),
    (_sim(cache="{tmp}/afile"), OutputError, "afile is a file"),
    (_sim(cache=42), ConfigError, "got 42"),
    (_sim(config="garner"), ConfigError, "'garner'"),
    (lambda tmp: GARNER.config("Z"), ConfigError, "'Z'"),
    (lambda tmp: GARNER.config(None, rows=True), ConfigError, "got True"),
    (lambda tmp: GARNER.config(None, suit_weights=(True,) * 5), ConfigError, "True"),
    (lambda tmp: GARNER.config(None, setup=5), ConfigError, "got 5"),
    (lambda tmp: GARGON.config(None, hand_size=True), ConfigError, "got True"),
    (lambda tmp: GARGON.config(None, n_players=True), ConfigError, "n_players=True"),
    (lambda tmp: GARGON.config(None, zero_multiplier=True), ConfigError, "got True"),
    (lambda tmp: GARGON.config(None, amulets=[1] * 16), ConfigError, "[1, 1"),
    (lambda tmp: GARGON.config(None, max_rounds=200), ConfigError, "max_rounds"),
    (lambda tmp: DECK_THE_YARD.config(None, hand_size=True), ConfigError, "got True"),
    (lambda tmp: DECK_THE_YARD.config(None, patterns=5), ConfigError, "got 5"),
    (lambda tmp: DECK_THE_YARD.config(None, patterns="p.csv"), ConfigError, "'p.csv'"),
    (lambda tmp: get_game("chess"), ConfigError, "'chess'"),
    (lambda tmp: DECK_THE_YARD.config(None, events=10**30), ConfigError, f"events={10**30}"),
    (lambda tmp: GARNER.config(None, suit_sizes=(10**7,)), ConfigError, str(10**7)),
    (lambda tmp: replay(_yard_record(chance=[True])), RecordError, "got True"),
    (lambda tmp: play_game(GARNER, GARNER.config("A"), P2, -1), ConfigError, "got -1"),
    (lambda tmp: play_game(GARNER, GARGON.config(None), P2, 1), ConfigError, "GargonConfig"),
    (lambda tmp: play_game(GARNER, GARNER.config("A"), "random", 1), ConfigError, "'random'"),
    (lambda tmp: GARNER.player("greedy:bogus"), ConfigError, "'greedy:bogus'"),
    (lambda tmp: load_patterns(tmp / "binary.jsonl"), ConfigError, "binary.jsonl"),
    (lambda tmp: load_patterns(tmp / "twice.csv"), ConfigError, "twice.csv"),
    (lambda tmp: load_amulets(tmp / "adir"), ConfigError, "adir"),
    (lambda tmp: replay({}), RecordError, "lacks format"),
    (lambda tmp: replay([1]), RecordError, "got list"),
    (lambda tmp: list(read_records(tmp / "adir")), RecordError, "adir is a folder"),
    (lambda tmp: list(read_records(tmp / "empty.jsonl")), RecordError, "empty.jsonl holds no"),
    (lambda tmp: list(read_records(tmp / "deep.jsonl")), RecordError, "deep.jsonl:1"),
    (lambda tmp: save(_table(tmp), tmp / "t.csv"), ResultsError, "t.csv"),
    (lambda tmp: save(_table(tmp), tmp / "d.parquet"), OutputError, "d.parquet is a folder"),
    (lambda tmp: load(tmp / "none.parquet"), ResultsError, "none.parquet"),
    (lambda tmp: load(tmp / "adir"), ResultsError, "adir is a folder"),
    (lambda tmp: slim(_table(tmp), ["bogus"]), ConfigError, "bogus"),
    (lambda tmp: sweep("chess", {"setup": ["A"]}, P2, 2, 1), ConfigError, "'chess'"),
    (lambda tmp: sweep("garner", {"setup": "A"}, P2, 2, 1), ConfigError, "got 'A'"),
    (lambda tmp: sweep("garner", {"setup": ["A"]}, P2, 2, -3), ConfigError, "got -3"),
    (lambda tmp: sweep("garner", {"setup": ["A"]}, [P2, ["x", "y"]], 2, 1), ConfigError, "'x'"),
]


@pytest.mark.parametrize("i", range(len(API_CASES)))
def test_api_bad_input_raises_the_specific_error(i: int, tmp: Path):
    call, error, message = API_CASES[i]
    with pytest.raises(error) as info:
        call(tmp)
    assert message in str(info.value)
    assert isinstance(info.value, GamelibError) and isinstance(info.value, ValueError)


def test_there_are_at_least_60_api_cases():
    assert len(API_CASES) >= 55
