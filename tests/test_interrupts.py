"""Interrupted runs come back whole, and resume folders cannot lie.

Fault tests: a 2-worker command-line run is hit by Ctrl-C (SIGINT) or SIGKILL of its main
process, or SIGKILL of one worker, once its first chunk is kept; the same command then finishes
the run, and its table and records must equal those of an uninterrupted run, with no process
of either run left behind.  Resume tests: chunk files that are corrupt, empty, short, foreign or
written without the records now wanted are refused by name or played again, never merged.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from gamelib import read_records
from gamelib.core import ResumeError, game_seeds
from gamelib.garner import GARNER
from gamelib.sim import SimulationInterrupted, load, simulate

# Garner A, greedy x2 on the reference engine: about four seconds of play on 2 workers, in 16
# chunks (a compiled run this small is one chunk in one process).  The fault comes when the
# first chunk is kept; at 600 deals (a second of play) a loaded machine once let the whole run
# finish before the killed worker was noticed, so the run leaves ~14/16 of its time for it.
N = 2400


def _cli(folder: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "gamelib",
        "simulate",
        "garner",
        "--setup",
        "A",
        "--players",
        "greedy",
        "-n",
        str(N),
        "--seed",
        "3",
        "--workers",
        "2",
        "--no-progress",
        "--engine",
        "python",
        "--out",
        str(folder / "t.parquet"),
        "--records",
        str(folder / "r.jsonl"),
    ]


def _session(sid: int) -> list[int]:
    """Every live process of session ``sid`` (a run started in its own session)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[3]) == sid and fields[0] != "Z":
            pids.append(int(entry.name))
    return pids


def _wait_no_process(sid: int, timeout: float = 15) -> list[int]:
    end = time.monotonic() + timeout
    while (left := _session(sid)) and time.monotonic() < end:
        time.sleep(0.1)
    return left


def _run(folder: Path) -> subprocess.CompletedProcess[str]:
    folder.mkdir(exist_ok=True)
    proc = subprocess.run(
        _cli(folder), capture_output=True, text=True, check=False, start_new_session=True
    )
    return proc


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("whole")
    proc = _run(folder)
    assert proc.returncode == 0, proc.stderr
    return folder


def _workers(main: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmd = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == main and b"spawn_main" in cmd:
            out.append(int(entry.name))
    return out


def _sigint_default() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("fault", ["sigint-main", "sigkill-main", "sigkill-worker"])
def test_an_interrupted_cli_run_resumes_to_the_uninterrupted_result(
    tmp_path: Path, whole: Path, fault: str
):
    parts = tmp_path / "t.parquet.parts"
    proc = subprocess.Popen(
        _cli(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # Ctrl-C's default in the run: a shell that starts a job in the background (make test
        # under nohup, a CI step) passes SIGINT on ignored, and the run would ignore it too
        preexec_fn=_sigint_default,
    )
    deadline = time.monotonic() + 120
    while not list(parts.glob("part-*.parquet")) and proc.poll() is None:
        assert time.monotonic() < deadline, "no chunk was kept"
        time.sleep(0.02)
    workers = _workers(proc.pid)
    assert proc.poll() is None and len(workers) == 2, "the run ended before the fault"
    if fault == "sigint-main":
        os.kill(proc.pid, signal.SIGINT)
    elif fault == "sigkill-main":
        os.kill(proc.pid, signal.SIGKILL)
    else:
        os.kill(workers[0], signal.SIGKILL)
    _, err = proc.communicate(timeout=60)
    if fault == "sigkill-main":
        assert proc.returncode == -signal.SIGKILL
    else:
        assert proc.returncode == 2, err or "the run finished before the fault took effect"
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("gamelib: error: simulation"), err
        assert f"of {N} deals are kept in {parts}" in err
        why = "interrupted" if fault == "sigint-main" else "a worker process died"
        assert why in err
    assert _wait_no_process(proc.pid) == [], "processes of the killed run are still alive"
    assert not (tmp_path / "t.parquet").exists(), "the run finished before the fault"
    kept = list(parts.glob("part-*.parquet"))
    assert 0 < len(kept) < 16

    again = _run(tmp_path)
    assert again.returncode == 0, again.stderr
    pd.testing.assert_frame_equal(load(tmp_path / "t.parquet"), load(whole / "t.parquet"))
    assert (tmp_path / "r.jsonl").read_bytes() == (whole / "r.jsonl").read_bytes()
    assert not parts.exists()  # cleaned up once whole
    assert not list(tmp_path.glob(".*")), "scratch files left next to the outputs"


@pytest.mark.parametrize(
    ("game", "setup", "players"),
    [
        ("garner", "standard", "greedy"),
        ("gargon", "4p", "greedy"),
        ("deck_the_yard", None, "greedy"),
    ],
)
def test_ctrl_c_in_a_one_process_compiled_run_is_the_one_line(
    tmp_path: Path, game: str, setup: str | None, players: str
):
    """Ctrl-C while a compiled kernel plays a chunk in this process: CPython raises the
    handler's KeyboardInterrupt only when the kernel returns, as a SystemError ("returned a
    result with an exception set"); the run must still end with its one line, keeping its
    finished chunks."""
    folder = tmp_path / "run"
    cli = [sys.executable, "-m", "gamelib", "simulate", game, "--players", players,
           "-n", "5000000", "--seed", "1", "--workers", "1", "--no-progress",
           "--resume", str(folder)]  # fmt: skip
    if setup:
        cli[5:5] = ["--setup", setup]
    proc = subprocess.Popen(
        cli, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True, preexec_fn=_sigint_default,
    )  # fmt: skip
    deadline = time.monotonic() + 300
    while not list(folder.glob("part-*.parquet")) and proc.poll() is None:
        assert time.monotonic() < deadline, "no chunk was kept"
        time.sleep(0.02)
    assert proc.poll() is None, proc.communicate()[1]
    time.sleep(0.3)  # inside the next chunk's kernel
    os.kill(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    lines = err.strip().splitlines()
    assert proc.returncode == 2, err
    assert len(lines) == 1 and lines[0].startswith("gamelib: error: simulation interrupted"), err
    assert "of 5000000 deals are kept" in err
    assert list(folder.glob("part-*.parquet"))


# --- resume folders that cannot lie --------------------------------------------------------

CFG = GARNER.config("A")
PLAYERS = ["random", "random"]


def _keep(folder: Path, n: int = 12, records: Path | None = None) -> pd.DataFrame:
    """A whole run whose chunks (of 3 deals) stay in ``folder``."""
    return simulate(
        CFG,
        PLAYERS,
        n,
        4,
        workers=1,
        chunk_size=3,
        progress=False,
        resume=folder,
        keep_resume=True,
        records=records,
    )


def _again(folder: Path, records: Path | None = None) -> pd.DataFrame:
    return simulate(
        CFG, PLAYERS, 12, 4, workers=1, chunk_size=3, progress=False, resume=folder, records=records
    )


def test_kept_chunks_make_the_same_table(tmp_path: Path):
    folder = tmp_path / "run"
    first = _keep(folder)
    assert len(list(folder.glob("part-*.parquet"))) == 4
    assert not list(folder.glob("*.jsonl"))  # no records asked for, none kept
    pd.testing.assert_frame_equal(_again(folder), first)
    assert not folder.exists()


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda p: p.write_bytes(b"garbage"), "is not readable"),
        (lambda p: p.write_bytes(b""), "is empty"),
        (lambda p: _strip(p), "carries no gamelib chunk metadata"),
        (lambda p: _short(p), r"holds 2 rows, not 3 \(short\)"),
        (lambda p: _relabel(p, fingerprint="0" * 20), "belongs to another run"),
        (lambda p: _relabel(p, rows=99), "says it holds"),
        (lambda p: p.rename(p.with_name("part-3-4.parquet")), "says it holds"),
        (lambda p: p.rename(p.with_name("part-x.parquet")), "is not a chunk gamelib wrote"),
        (lambda p: p.rename(p.with_name("part-3-99.parquet")), "names deals 3–98"),
    ],
)
def test_a_damaged_chunk_is_named_and_refused(tmp_path: Path, damage, message: str):
    folder = tmp_path / "run"
    _keep(folder)
    chunk = folder / "part-3-6.parquet"
    damage(chunk)
    with pytest.raises(ResumeError, match=message) as info:
        _again(folder)
    assert "part-3-" in str(info.value) or "part-x" in str(info.value)
    assert "delete that file" in str(info.value)


def _short(path: Path) -> None:
    df = pd.read_parquet(path)
    df.iloc[:2].to_parquet(path)  # the chunk's metadata still claim 3 rows


def _strip(path: Path) -> None:
    df = pd.read_parquet(path)
    df.attrs = {}
    df.to_parquet(path)


def _relabel(path: Path, **changes: object) -> None:
    df = pd.read_parquet(path)
    df.attrs["gamelib_chunk"].update(changes)
    df.to_parquet(path)


def test_a_chunk_of_another_run_is_refused(tmp_path: Path):
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    _keep(ours)
    simulate(
        CFG, PLAYERS, 12, 5, workers=1, chunk_size=3, progress=False, resume=theirs,
        keep_resume=True,
    )  # fmt: skip
    (theirs / "part-3-6.parquet").replace(ours / "part-3-6.parquet")
    with pytest.raises(ResumeError, match=r"part-3-6\.parquet belongs to another run"):
        _again(ours)


def test_a_chunk_with_the_wrong_deals_is_refused(tmp_path: Path):
    folder = tmp_path / "run"
    _keep(folder)
    a, b = folder / "part-3-6.parquet", folder / "part-6-9.parquet"
    df = pd.read_parquet(b)
    df.attrs = pd.read_parquet(a).attrs
    df.to_parquet(a)
    with pytest.raises(ResumeError, match=r"part-3-6\.parquet does not hold deals 3–5 of this run"):
        _again(folder)


def test_a_resume_with_records_replays_chunks_kept_without_them(tmp_path: Path):
    folder, recs = tmp_path / "run", tmp_path / "r.jsonl"
    whole = _keep(tmp_path / "whole", records=tmp_path / "whole.jsonl")
    _keep(folder)  # no records kept
    (folder / "part-0-3.parquet").unlink()  # and one chunk missing as well
    again = _again(folder, records=recs)
    pd.testing.assert_frame_equal(again, whole)
    got = list(read_records(recs))
    assert len(got) == 12
    assert [r["seed"] for r in got] == again["seed"].tolist()
    assert recs.read_bytes() == (tmp_path / "whole.jsonl").read_bytes()


def test_a_short_records_file_in_a_resume_folder_is_refused(tmp_path: Path):
    folder = tmp_path / "run"
    _keep(folder, records=tmp_path / "first.jsonl")
    chunk = folder / "part-3-6.jsonl"
    chunk.write_text("".join(chunk.read_text().splitlines(keepends=True)[:2]))
    with pytest.raises(ResumeError, match=r"part-3-6.jsonl holds 2 records, not the 3"):
        _again(folder, records=tmp_path / "r.jsonl")
    chunk.write_bytes(b"\xff\xfe")
    with pytest.raises(ResumeError, match=r"part-3-6\.jsonl is not a readable records file"):
        _again(folder, records=tmp_path / "r.jsonl")


def test_a_corrupt_manifest_is_refused(tmp_path: Path):
    folder = tmp_path / "run"
    _keep(folder)
    (folder / "run.json").write_text("[1, 2")
    with pytest.raises(ResumeError, match=r"run\.json is not a gamelib run manifest"):
        _again(folder)


def test_a_killed_runs_half_written_files_are_removed(tmp_path: Path):
    folder = tmp_path / "run"
    first = _keep(folder)
    (folder / "part-9-12.parquet").rename(folder / "part-9-12.parquet.partial")
    pd.testing.assert_frame_equal(_again(folder), first)
    assert not folder.exists()


def test_another_live_writers_half_written_file_is_neither_read_nor_removed(tmp_path: Path):
    # two writers of one study at once each write under their own name (.PID@HOST.partial): a
    # run that starts while the other writes leaves the other's file alone and removes only what
    # a gone writer of this host left (a fixed name made one writer's rename fail, seen in CI)
    import socket

    folder = tmp_path / "run"
    first = _keep(folder)
    host = socket.gethostname()
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    live = folder / f"part-3-6.parquet.{os.getppid()}@{host}.partial"  # pytest's parent: alive
    dead = folder / f"part-6-9.parquet.{int(gone.stdout)}@{host}.partial"
    elsewhere = folder / f"run.json.{int(gone.stdout)}@another-host.partial"
    for f in (live, dead, elsewhere):
        f.write_bytes(b"half")
    again = _keep(folder)  # the same run again, its chunks kept
    pd.testing.assert_frame_equal(again, first)
    assert live.exists() and elsewhere.exists() and not dead.exists()
    assert sorted(p.name for p in folder.glob("part-*.parquet")) == [
        f"part-{a}-{a + 3}.parquet" for a in (0, 3, 6, 9)
    ]


def test_a_huge_run_starts_at_once():
    """Seeds are derived per chunk: a 10**12-game run reaches its first game at once (building
    every seed first would take hours and all memory)."""

    def stop(observation, legal, rng):
        raise KeyboardInterrupt

    stop.__name__ = "random"
    with pytest.raises(SimulationInterrupted, match="0 of 1000000000000 deals had finished"):
        simulate(CFG, [stop, "random"], 10**12, 1, workers=1, progress=False)


@pytest.mark.parametrize("seed", [0, 7, 2**64 + 3, 2**128 - 1])
def test_per_game_seeds_are_the_children_of_the_seed_sequence(seed: int):
    children = np.random.SeedSequence(seed).spawn(40)
    expected = [int(c.generate_state(1, np.uint64)[0]) >> 1 for c in children]
    assert game_seeds(seed, 40) == expected
    assert game_seeds(seed, 15, 25) == expected[25:]
