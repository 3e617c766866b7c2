"""The newer commands as trustworthy as the old ones (issue 34): each class of bad input gets a
one-line error naming it (exit 2) or the right result, a fault loses nothing already played, and
a newcomer's first run needs no seed and prints no kernel noise."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamelib.cli import main
from gamelib.garner import GARNER
from gamelib.sim import SimulationInterrupted, simulate
from gamelib.verdict import Fair, Stalls, decide, verdict

GAMELIB = [sys.executable, "-m", "gamelib"]


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*GAMELIB, *args], capture_output=True, text=True, cwd=cwd)


def _one_line_error(out: subprocess.CompletedProcess[str], words: str) -> None:
    assert out.returncode == 2, out
    assert "Traceback" not in out.stderr, out.stderr
    lines = [line for line in out.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("gamelib: error: "), out.stderr
    assert words in lines[0], lines[0]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (
            ["simulate", "garner", "--setup", "", "--players", "greedy", "-n", "2", "--seed", "1"],
            "--setup '' names no setup",
        ),
        (
            ["sweep", "garner", "--setup", " , ", "--players", "greedy", "-n", "2", "--seed", "1"],
            "names no setup",
        ),
        (
            ["verdict", "garner", "--setup", "", "--players", "greedy", "--seed", "1"],
            "names no setup",
        ),
        (
            ["simulate", "garner", "--players", "greedy", "-n", "2", "--seed", "1", "--resume", ""],
            "an empty name is not a path",
        ),
        (
            ["verdict", "garner", "--players", "greedy", "--seed", "1", "--resume", ""],
            "an empty name is not a path",
        ),
        (
            [
                "compare",
                "gargon",
                "--setup",
                "4p",
                "--variant",
                "zero-multiplier=1",
                "--players",
                "greedy*0+greedy*4",
                "--seed",
                "1",
            ],
            "'greedy*0': write a repeated seat as NAME*K",
        ),
        (
            ["verdict", "garner", "--players", "greedy", "--seed", "1", "--max-minutes", "0"],
            "--max-minutes must be a positive number",
        ),
    ],
)
def test_an_empty_name_or_a_zero_count_is_refused(args: list[str], words: str) -> None:
    _one_line_error(_cli(*args), words)


def test_an_empty_openspiel_setup_is_refused() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import gamelib.openspiel  # noqa: F401  (registers the games)
    from gamelib.core import ConfigError

    with pytest.raises(ConfigError, match="unknown garner setup ''"):
        pyspiel.load_game("gamelib_garner(setup=)")
    assert pyspiel.load_game("gamelib_garner()").get_parameters()["setup"] == "custom"


def test_folders_that_are_not_what_they_claim_are_named(tmp_path: Path) -> None:
    v = tmp_path / "v"
    run = ["verdict", "garner", "--setup", "A", "--players", "greedy", "--question", "fair"]
    run += ["--seed", "1", "--max-games", "60", "--no-progress", "--resume", str(v)]
    assert _cli(*run).returncode == 0
    # a verdict's folder is not a simulate run's, and the reverse
    sim = ["simulate", "garner", "--setup", "A", "--players", "greedy", "-n", "5", "--seed", "1"]
    _one_line_error(_cli(*sim, "--resume", str(v)), "holds a gamelib verdict run's deals")
    s = tmp_path / "s"
    assert _cli(*sim, "--no-progress", "--resume", str(s), "--out", str(tmp_path / "t.parquet"))
    (s / "run.json").parent.mkdir(exist_ok=True)
    (s / "run.json").write_text("{}")
    run_s = [a if a != str(v) else str(s) for a in run]
    _one_line_error(_cli(*run_s), "holds the chunks of a simulate run")
    # the packer: a finished folder packs; a missing or damaged run.json is named
    pack = [sys.executable, "-m", "gamelib.verdict.stored", str(v), str(tmp_path / "p.parquet")]
    assert subprocess.run(pack, capture_output=True, text=True).returncode == 0
    manifest = v / "run-0" / "run.json"
    good = manifest.read_text()
    manifest.unlink()
    _one_line_error(subprocess.run(pack, capture_output=True, text=True), "is missing")
    manifest.write_text("nope")
    _one_line_error(subprocess.run(pack, capture_output=True, text=True), "not readable JSON")
    manifest.write_text(good)
    # a damaged verdict.json
    (v / "verdict.json").write_text("{broken")
    _one_line_error(_cli(*run), "verdict.json is not a gamelib verdict manifest")


def test_a_worker_that_dies_during_a_verdict_loses_no_finished_deal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import gamelib.verdict.run as verdict_run

    monkeypatch.setenv("GAMELIB_STORED", "none")
    monkeypatch.setenv("GAMELIB_CACHE", str(tmp_path))
    real = verdict_run.run_chunks
    calls = {"n": 0}

    def dies_on_the_third_batch(jobs, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 3:
            raise BrokenProcessPool("a worker was killed")
        return real(jobs, *args, **kwargs)

    monkeypatch.setattr(verdict_run, "run_chunks", dies_on_the_third_batch)
    cfg = GARNER.config("C", must_move="one", straight_line=True)
    kw = {"max_games": 600, "seed": 5, "progress": False, "workers": 1, "cache": True}
    with pytest.raises(SimulationInterrupted, match="a worker process died") as err:
        verdict(cfg, ["random"], [Fair(0.02)], **kw)
    assert "kept in the study cache" in str(err.value)
    kept = int(str(err.value).rsplit(": ", 1)[1].split()[0])
    assert kept > 0 and len(list(tmp_path.glob("deals/garner/*/part-*.parquet"))) >= 2
    # the same call resumes from the kept deals to the decision an uninterrupted run reaches
    monkeypatch.setattr(verdict_run, "run_chunks", real)
    again = verdict(cfg, ["random"], [Fair(0.02)], **kw)
    whole = verdict(cfg, ["random"], [Fair(0.02)], **{**kw, "cache": False})
    pd.testing.assert_frame_equal(again, whole)
    # through the command line: one line, exit 2
    calls["n"] = 2  # the command's first batch is the third call: it dies
    monkeypatch.setattr(verdict_run, "run_chunks", dies_on_the_third_batch)
    argv = ["verdict", "garner", "--setup", "B", "--players", "random", "--seed", "9"]
    assert main([*argv, "--no-progress", "--cache"]) == 2
    assert capsys.readouterr().err.startswith(
        "gamelib: error: verdict stopped: a worker process died"
    )


@settings(max_examples=60, deadline=None)
@given(
    wins=st.lists(st.integers(0, 1), min_size=60, max_size=400),
    margin=st.sampled_from([0.01, 0.03, 0.05, 0.2]),
)
def test_a_verdict_never_shows_lo_above_hi(wins: list[int], margin: float) -> None:
    n = len(wins)
    t = pd.DataFrame(
        {
            "deal": np.arange(n),
            "player_0": "a",
            "player_1": "a",
            "winner": [0 if w else 1 for w in wins],
            "n_winners": 1,
            "reason": "finished",
            "turns": 20,
            "win_0": wins,
            "win_1": [1 - w for w in wins],
        }
    )
    for q in (Fair(margin), Stalls(margin)):
        row = decide([t], q, level="a")
        assert row["lo"] <= row["estimate"] <= row["hi"], row


def test_no_seed_draws_one_says_it_first_and_stores_it(tmp_path: Path) -> None:
    from gamelib.sim import load

    run = ["simulate", "garner", "--setup", "A", "--players", "greedy", "-n", "4", "--no-progress"]
    out = _cli(*run)
    assert out.returncode == 0, out.stderr
    first, *rest = out.stdout.splitlines()
    assert first.startswith("seed ") and "drawn" in first
    seed = int(first.split()[1])
    assert _cli(*run, "--seed", str(seed)).stdout.splitlines() == rest  # the same games
    stored = _cli(*run, "--out", str(tmp_path / "t.parquet"))
    drawn = int(stored.stdout.split()[1])
    assert load(tmp_path / "t.parquet").attrs["provenance"]["seed"] == drawn
    v = _cli(
        "verdict",
        "garner",
        "--setup",
        "A",
        "--players",
        "greedy",
        "--question",
        "fair",
        "--max-games",
        "60",
        "--no-progress",
        "--json",
        str(tmp_path / "v.json"),
    )
    assert v.returncode == 0, v.stderr
    vseed = int(v.stdout.splitlines()[0].split()[1])
    rows = json.loads((tmp_path / "v.json").read_text())
    assert rows and all(r["seed"] == vseed for r in rows)


def test_a_report_prints_no_kernel_noise(tmp_path: Path) -> None:
    out = _cli(
        "report",
        "garner",
        "--setup",
        "A",
        "--players",
        "random,greedy",
        "--question",
        "fair",
        "--max-games",
        "100",
        "--seed",
        "3",
        "--no-progress",
        "--out",
        str(tmp_path / "r.html"),
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    assert "without encryption" not in out.stderr + out.stdout
    assert (tmp_path / "r.html").stat().st_size > 0


def test_papermill_with_gamelibs_engine_prints_no_kernel_noise(tmp_path: Path) -> None:
    """``papermill --engine gamelib`` (the docs' and make results' way) runs the kernel over
    IPC: no TCP warning, and no socket files left in the working folder."""
    import nbformat

    nb = nbformat.v4.new_notebook()  # type: ignore[no-untyped-call]
    nb.cells = [nbformat.v4.new_code_cell("print(6 * 7)")]  # type: ignore[no-untyped-call]
    nbformat.write(nb, tmp_path / "in.ipynb")  # type: ignore[no-untyped-call]
    papermill = Path(sys.executable).with_name("papermill")
    args = [str(papermill), "-k", "python3", "--no-progress-bar", "in.ipynb", "out.ipynb"]
    out = subprocess.run(
        [*args, "--engine", "gamelib"], cwd=tmp_path, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert "without encryption" not in out.stderr + out.stdout
    done = nbformat.read(tmp_path / "out.ipynb", as_version=4)  # type: ignore[no-untyped-call]
    assert done.cells[0].outputs[0]["text"] == "42\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.ipynb", "out.ipynb"]
    # the check can fail: papermill's default engine talks TCP and its kernel warns
    plain = subprocess.run(
        [*args[:-1], "plain.ipynb"], cwd=tmp_path, capture_output=True, text=True
    )
    assert plain.returncode == 0 and "without encryption" in plain.stderr


def test_an_interrupted_cached_run_resumes_to_the_same_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gamelib.sim.run as run_mod

    monkeypatch.setenv("GAMELIB_STORED", "none")
    real = run_mod.run_chunks

    def interrupted(jobs, *args, **kwargs):  # type: ignore[no-untyped-def]
        for i, item in enumerate(real(jobs, *args, **kwargs)):
            if i == 2:
                raise KeyboardInterrupt
            yield item

    monkeypatch.setattr(run_mod, "run_chunks", interrupted)
    kw = {"workers": 1, "progress": False, "cache": tmp_path, "chunk_size": 10}
    with pytest.raises(SimulationInterrupted):
        simulate(GARNER.config("A"), ["greedy", "random"], 60, 4, **kw)
    assert len(list(tmp_path.glob("deals/garner/*/part-*.parquet"))) == 2
    monkeypatch.setattr(run_mod, "run_chunks", real)
    resumed = simulate(GARNER.config("A"), ["greedy", "random"], 60, 4, **kw)
    whole = simulate(GARNER.config("A"), ["greedy", "random"], 60, 4, workers=1, progress=False)
    pd.testing.assert_frame_equal(resumed, whole)


def test_two_writers_of_one_study_at_once_agree(tmp_path: Path) -> None:
    code = (
        "import sys; from gamelib.garner import GARNER; from gamelib.sim import simulate\n"
        "t = simulate(GARNER.config('B'), ['greedy', 'cautious'], 300, 8, workers=1, "
        "progress=False, cache=sys.argv[1], chunk_size=20)\n"
        "print(int(t.winner.sum()), len(t))\n"
    )
    env_cache = str(tmp_path / "cache")
    procs = [
        subprocess.Popen([sys.executable, "-c", code, env_cache], stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=300)[0] for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert outs[0] == outs[1]
    assert not list((tmp_path / "cache").glob("deals/*/*/*.partial"))
    again = simulate(
        GARNER.config("B"),
        ["greedy", "cautious"],
        300,
        8,
        workers=1,
        progress=False,
        cache=env_cache,
    )
    assert f"{int(again.winner.sum())} {len(again)}" == outs[0].strip()


def test_a_killed_run_leaves_no_leaked_semaphore_note(tmp_path: Path) -> None:
    import os
    import signal
    import time

    run = [*GAMELIB, "simulate", "garner", "--setup", "A", "--players", "greedy", "-n", "2400"]
    run += ["--seed", "3", "--workers", "2", "--no-progress", "--engine", "python"]
    run += ["--out", str(tmp_path / "t.parquet")]
    err = tmp_path / "stderr"
    with err.open("w") as fh:
        proc = subprocess.Popen(run, stdout=subprocess.DEVNULL, stderr=fh, start_new_session=True)
        end = time.monotonic() + 120
        parts = tmp_path / "t.parquet.parts"
        while not list(parts.glob("part-*.parquet")) and time.monotonic() < end:
            time.sleep(0.2)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        time.sleep(3)  # the resource tracker notices its parent's death and cleans up
    assert "leaked semaphore" not in err.read_text()
    again = subprocess.run(run, capture_output=True, text=True)
    assert again.returncode == 0 and "leaked" not in again.stderr


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--goal", "target:0.3:0.05"], "garner asks fair:MARGIN"),
        (["--goal", "fair:0.05", "--alpha", "2"], "--alpha must lie between 0 and 0.5, got 2"),
        (["--objective", "seat0", "-n", "50", "--beta", "0.7"], "--beta must lie between"),
    ],
)
def test_a_rule_error_in_tune_is_one_line(extra: list[str], words: str) -> None:
    ladder = (
        ["--rung", "greedy=100", "--confirm-at", "greedy=200/random"] if "--goal" in extra else []
    )
    out = _cli(
        "tune",
        "garner",
        "--setup",
        "A",
        "--space",
        "rows=3..4",
        "--budget",
        "4",
        "--seed",
        "1",
        "--no-progress",
        *ladder,
        *extra,
    )
    _one_line_error(out, words)


def test_a_search_refuses_a_bad_alpha_before_its_first_trial() -> None:
    from gamelib.core import ConfigError
    from gamelib.tune import search
    from gamelib.tune.spaces import SPACES

    with pytest.raises(ConfigError, match=r"alpha must lie between 0 and 0\.5"):
        search(
            "garner",
            SPACES["garner"](),
            "fair:0.05",
            [],
            ["greedy=100"],
            "greedy=200/random",
            4,
            1,
            setup="A",
            alpha=2,
            progress=False,
        )
