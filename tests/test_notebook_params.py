"""Every notebook reruns with other parameters (issue 32): each notebook's parameter sets in
``tests/notebook_params/<notebook>.json`` — a subset of a list, a value outside the stored grid,
a new seed, another level or rule field, on small budgets — run through papermill against an
empty study cache and must finish; the first set, run again on the same cache, plays nothing and
prints the same outputs; each bad parameter stops the notebook with its one-line message before
any game is played (00's first bad set through papermill — every notebook stops through the same
``gamelib.study.check`` — the others through the notebook's cells up to its parameter check, run
in the test's process: the same code, without a kernel's start).

The matrix is the notebooks' own (their authors keep it); the check the issue meets uses others.
The runs go three at a time (each kernel is its own process), then each test reads its result.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
MATRIX = Path(__file__).resolve().parent / "notebook_params"

#: runs papermill in a process of its own, with the study cache it is given, its kernel over
#: IPC (gamelib.report.ipc_kernel_manager: no TCP warning), and reports the error, if any
RUNNER = """
import json, sys
import papermill
from papermill.exceptions import PapermillExecutionError
from gamelib.report import ipc_kernel_manager
src, out, params, cwd = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), sys.argv[4]
try:
    papermill.execute_notebook(src, out, parameters=params, kernel_name="python3", cwd=cwd,
                               progress_bar=False, kernel_manager_class=ipc_kernel_manager())
except PapermillExecutionError as exc:
    print(json.dumps({"ename": exc.ename, "evalue": exc.evalue}))
else:
    print(json.dumps(None))
"""


def _matrix() -> dict[str, dict[str, Any]]:
    return {
        p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(MATRIX.glob("*.json"))
    }


#: notebooks run with the stored tier off on a short budget (``OFF``: the clock stops the play
#: part way), then at their committed parameters in the same cache with both cores busy: the
#: second run must show the committed outputs (a budget stop of the first, made with other
#: tiers, is never replayed by the second; no clock cuts a committed answer).  One notebook:
#: the cache and the tiers are the library's, and 06 reads every game's studies
TIERS = ["06-what-to-print"]
OFF = {"MINUTES": 0.2}
#: (every notebook at its committed parameters on a busy machine is nbval's run: the root
#: conftest.py keeps a core busy beside it, and its outputs must be the committed ones.)
#: Papermill runs at once: a run waits on its kernel's start and its messages part of the time,
#: so three keep two cores busy
AT_ONCE = 3


#: the per-deal costs (``costs.json`` beside a study cache) the matrix runs have measured so
#: far: a run starts with them, as a user's second notebook starts with the first one's, and
#: adds its own; the tier runs measure theirs into their empty cache, as a new user
COSTS: dict[str, float] = {}
COSTS_LOCK = threading.Lock()


def _run(
    stem: str,
    parameters: dict[str, Any],
    cache: Path,
    out: Path,
    env: dict[str, str] | None = None,
    share_costs: bool = False,
) -> dict[str, Any]:
    """One papermill run; returns its error (or None), the output notebook and the cache."""
    out.parent.mkdir(parents=True, exist_ok=True)
    if share_costs:
        cache.mkdir(parents=True, exist_ok=True)
        with COSTS_LOCK:
            (cache / "costs.json").write_text(json.dumps(COSTS), encoding="utf-8")
    result = _papermill(stem, parameters, cache, out, env)
    if share_costs:
        with COSTS_LOCK, contextlib.suppress(OSError, ValueError):
            COSTS.update(json.loads((cache / "costs.json").read_text(encoding="utf-8")))
    return result


def _papermill(
    stem: str,
    parameters: dict[str, Any],
    cache: Path,
    out: Path,
    env: dict[str, str] | None = None,
) -> dict[str, Any]:
    env = {**os.environ, **(env or {}), "GAMELIB_CACHE": str(cache)}
    args = [str(NOTEBOOKS / f"{stem}.ipynb"), str(out), json.dumps(parameters), str(NOTEBOOKS)]
    proc = subprocess.run(
        [sys.executable, "-c", RUNNER, *args], env=env, capture_output=True, text=True
    )
    lines = proc.stdout.strip().splitlines()
    error = json.loads(lines[-1]) if proc.returncode == 0 and lines else {"crash": proc.stderr}
    nb = nbformat.read(out, as_version=4) if out.exists() else None  # type: ignore[no-untyped-call]
    return {"error": error, "nb": nb, "cache": cache}


@contextlib.contextmanager
def _busy() -> Iterator[None]:
    """A spinning process beside the run while the block runs, so both cores are busy."""
    burn = [subprocess.Popen([sys.executable, "-c", "while True: pass"])]
    try:
        yield
    finally:
        for b in burn:
            b.kill()
            b.wait()


def _chunks(cache: Path) -> dict[Path, int]:
    return {p: p.stat().st_mtime_ns for p in cache.glob("deals/*/*/part-*.parquet")}


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Every run of the matrix, ``AT_ONCE`` at a time."""
    tasks: dict[str, Any] = {}
    base = tmp_path_factory.mktemp("notebook-params")

    def twice(stem: str, params: dict[str, Any], where: Path) -> dict[str, Any]:
        first = _run(stem, params, where / "cache", where / "first.ipynb", share_costs=True)
        before = _chunks(where / "cache")
        again = _run(stem, params, where / "cache", where / "again.ipynb")
        return {"first": first, "again": again, "before": before, "after": _chunks(where / "cache")}

    def tiers(stem: str, where: Path) -> dict[str, Any]:
        off = _run(stem, OFF, where / "cache", where / "off.ipynb", {"GAMELIB_STORED": "none"})
        with _busy():
            return {"off": off, "on": _run(stem, {}, where / "cache", where / "on.ipynb")}

    matrix = _matrix()
    kernel_bad = min(matrix)  # the one notebook whose first bad set goes through a kernel
    with ThreadPoolExecutor(max_workers=AT_ONCE) as pool:
        for stem in TIERS:
            tasks[f"{stem}-tiers"] = pool.submit(tiers, stem, base / f"{stem}-tiers")
        # the later notebooks first: they ask the most (07 alone takes about a minute a run),
        # so the short runs fill in at the end
        for stem, spec in sorted(matrix.items(), reverse=True):
            for i, case in enumerate(spec.get("runs", [])):
                where = base / f"{stem}-run-{i}"
                if i == 0:
                    tasks[f"{stem}-twice"] = pool.submit(twice, stem, case["parameters"], where)
                else:
                    tasks[f"{stem}-run-{i}"] = pool.submit(
                        _run, stem, case["parameters"], where / "cache", where / "out.ipynb",
                        share_costs=True,
                    )  # fmt: skip
        where = base / f"{kernel_bad}-bad-0"
        tasks[f"{kernel_bad}-bad-0"] = pool.submit(
            _run, kernel_bad, matrix[kernel_bad]["bad"][0]["parameters"], where / "cache",
            where / "out.ipynb",
        )  # fmt: skip
        done = {k: f.result() for k, f in tasks.items()}
    # the others through the notebook's own cells, here: no kernel to start (each costs about
    # six seconds), no other run in flight to share the environment with
    for stem, spec in matrix.items():
        first = 1 if stem == kernel_bad else 0
        for i, case in enumerate(spec.get("bad", [])[first:], start=first):
            done[f"{stem}-bad-{i}"] = _check_cells(
                stem, case["parameters"], base / f"{stem}-bad-{i}"
            )
    return done


def _check_cells(stem: str, parameters: dict[str, Any], where: Path) -> dict[str, Any]:
    """A bad parameter set without a kernel: the notebook parameterized as papermill does it
    (its injected ``# Parameters`` cell), then its code cells run in order — with IPython's
    ``In`` history, which ``check.only`` reads — up to the one that calls ``check.only``;
    returns the error they stop with as papermill reports it, and the cache they were given."""
    from papermill.iorw import load_notebook_node
    from papermill.parameterize import parameterize_notebook

    from gamelib.study import ParameterError, check

    check.seen.clear()  # a kernel starts with none: the names an earlier set's checks noted

    nb = parameterize_notebook(load_notebook_node(str(NOTEBOOKS / f"{stem}.ipynb")), parameters)
    cache = where / "cache"
    cache.mkdir(parents=True)
    names: dict[str, Any] = {"__name__": "__main__", "In": [""]}
    error: dict[str, Any] | None = None
    old, os.environ["GAMELIB_CACHE"] = os.environ.get("GAMELIB_CACHE"), str(cache)
    try:
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            names["In"].append(cell.source)
            try:
                exec(compile(cell.source, f"<{stem}>", "exec"), names)
            except ParameterError as exc:
                error = {"ename": "ParameterError", "evalue": str(exc)}
                break
            if "check.only(" in cell.source:
                break
    finally:
        if old is None:
            os.environ.pop("GAMELIB_CACHE")
        else:
            os.environ["GAMELIB_CACHE"] = old
    return {"error": error, "nb": nb, "cache": cache}


def _compared_outputs(nb: Any) -> list[Any]:
    """What nbval compares: the outputs of the cells it does not ignore, as text."""
    out = []
    for cell in nb.cells:
        if cell.cell_type != "code" or "nbval-ignore-output" in cell.metadata.get("tags", []):
            continue
        for o in cell.get("outputs", []):
            o = {k: v for k, v in o.items() if k not in ("execution_count", "metadata")}
            data = o.get("data")
            if isinstance(data, dict):  # a picture's bytes differ run to run; its text must not
                o["data"] = {k: v for k, v in data.items() if k.startswith("text/")}
            out.append(o)
    return out


def _cases(kind: str) -> list[Any]:
    return [
        pytest.param(stem, i, case, id=f"{stem}-{kind}-{i}")
        for stem, spec in _matrix().items()
        for i, case in enumerate(spec.get(kind, []))
    ]


def test_every_notebook_has_a_parameter_matrix() -> None:
    stems = {p.stem for p in NOTEBOOKS.glob("[0-9][0-9]*-*.ipynb")}
    matrix = _matrix()
    assert stems <= set(matrix), f"notebooks without tests/notebook_params: {stems - set(matrix)}"
    for stem, spec in matrix.items():
        assert len(spec.get("runs", [])) >= 3, f"{stem}: at least three parameter sets"
        assert spec.get("bad"), f"{stem}: at least one bad parameter and its message"


@pytest.mark.parametrize(("stem", "i", "case"), _cases("runs"))
def test_the_notebook_reruns_with_other_parameters(
    results: dict[str, Any], stem: str, i: int, case: dict[str, Any]
) -> None:
    r = results[f"{stem}-twice"]["first"] if i == 0 else results[f"{stem}-run-{i}"]
    assert r["error"] is None, f"{stem} {case['parameters']}: {r['error']}"


@pytest.mark.parametrize("stem", sorted(_matrix()))
def test_a_second_run_with_the_same_parameters_plays_nothing(
    results: dict[str, Any], stem: str
) -> None:
    r = results[f"{stem}-twice"]
    assert r["first"]["error"] is None and r["again"]["error"] is None, r["again"]["error"]
    assert r["after"] == r["before"], f"{stem}: the second run played or rewrote chunks"
    first, again = (_compared_outputs(r[k]["nb"]) for k in ("first", "again"))
    assert again == first, f"{stem}: the second run printed other outputs"


@pytest.mark.parametrize(("stem", "i", "case"), _cases("bad"))
def test_a_bad_parameter_stops_with_its_one_line(
    results: dict[str, Any], stem: str, i: int, case: dict[str, Any]
) -> None:
    r = results[f"{stem}-bad-{i}"]
    assert r["error"] is not None and r["error"].get("ename") == "ParameterError", r["error"]
    assert case["message"] in r["error"]["evalue"], r["error"]["evalue"]
    assert "\n" not in r["error"]["evalue"]
    assert not _chunks(r["cache"]), f"{stem}: played before checking its parameters"


def _committed(stem: str) -> list[Any]:
    return _compared_outputs(nbformat.read(NOTEBOOKS / f"{stem}.ipynb", as_version=4))  # type: ignore[no-untyped-call]


@pytest.mark.parametrize("stem", TIERS)
def test_a_run_with_the_stored_tier_off_never_changes_the_committed_answers(
    results: dict[str, Any], stem: str
) -> None:
    r = results[f"{stem}-tiers"]
    assert r["off"]["error"] is None, r["off"]["error"]
    assert r["on"]["error"] is None, r["on"]["error"]
    assert _compared_outputs(r["on"]["nb"]) == _committed(stem), (
        f"{stem}: after a run with the stored tier off, the committed parameters show other outputs"
    )
