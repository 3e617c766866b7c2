"""The one-way layering is written once, as import-linter contracts in pyproject.toml
(``[tool.importlinter]``), and checked here: an import loop, an upward import or gamelib
importing bench fails the test suite instead of growing quietly."""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_contracts_are_kept() -> None:
    # in a process of its own: import-linter prints through rich, whose console must not be the
    # stream another test captured
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from importlinter.cli import lint_imports; "
            "sys.exit(lint_imports(no_cache=True, no_logo=True))",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    report = run.stdout + run.stderr
    assert run.returncode == 0, report
    assert "BROKEN" not in report and " KEPT" in report


def test_every_module_of_gamelib_sits_on_a_floor() -> None:
    """A new top-level module must be given its floor in the contract (else nothing checks
    which way it imports)."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    floors = next(c for c in config["contracts"] if c["name"].startswith("gamelib's floors"))
    named = {m.strip() for layer in floors["layers"] for m in layer.split("|")}
    present = {
        f"gamelib.{p.stem if p.is_file() else p.name}"
        for p in (ROOT / "gamelib").iterdir()
        if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").exists()
    }
    assert present <= named, f"modules without a floor: {sorted(present - named)}"


LONG = 600


def _length(path: Path) -> int:
    return path.read_text(encoding="utf-8").count("\n")


def test_a_long_module_says_at_its_top_why_it_is_one_file() -> None:
    """GUIDE's rooms of one purpose: a module over about 600 lines either is split or says in its
    docstring's opening why it is one file ("*Why one file …*")."""
    unexplained = []
    for path in sorted([*(ROOT / "gamelib").rglob("*.py"), *(ROOT / "bench").rglob("*.py")]):
        rel = path.relative_to(ROOT).as_posix()
        if _length(path) <= LONG:
            continue
        head = path.read_text(encoding="utf-8")[:1500]
        if "*Why one file" not in head:
            unexplained.append(f"{rel} ({_length(path)} lines)")
    assert not unexplained, f"long modules without a reason at their top: {unexplained}"


def test_every_module_says_what_it_owns() -> None:
    """Every file of gamelib and bench opens with a docstring (GUIDE: each room says what it
    owns)."""
    silent = [
        path.relative_to(ROOT).as_posix()
        for path in sorted([*(ROOT / "gamelib").rglob("*.py"), *(ROOT / "bench").rglob("*.py")])
        if not ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert not silent, f"modules without a docstring: {silent}"


#: what users imported from the modules that became packages (issue 24), importable as before
PUBLIC_BEFORE_THE_SPLIT = {
    "gamelib.sim": [
        "PROVENANCE",
        "WORKER_START_SECONDS",
        "ResultsError",
        "ResumeError",
        "SimulationInterrupted",
        "check_columns",
        "check_output_path",
        "check_scheduler_address",
        "clear_resume",
        "combine",
        "config_columns",
        "default_cache_dir",
        "default_workers",
        "game_of",
        "load",
        "n_seats",
        "player_name",
        "result_columns",
        "results_dir",
        "run_chunk",
        "run_fingerprint",
        "run_key",
        "run_spec",
        "save",
        "seating",
        "simulate",
        "simulate_to",
        "slim",
        "sweep",
    ],
    "gamelib.cli": ["FLAGS", "GUIDE_PAGES", "CliError", "build_parser", "main"],
}


@pytest.mark.parametrize("module", sorted(PUBLIC_BEFORE_THE_SPLIT))
def test_a_split_module_keeps_its_public_names(module: str) -> None:
    mod = importlib.import_module(module)
    missing = [n for n in PUBLIC_BEFORE_THE_SPLIT[module] if not hasattr(mod, n)]
    assert not missing, f"{module} lost {missing}"
    assert set(mod.__all__) <= set(dir(mod))


def test_worker_pools_and_dask_clients_are_made_in_the_runner_alone() -> None:
    """One runner decides where chunks play: gamelib.sim.executors is the one module that
    starts local worker processes or connects to a Dask cluster."""
    makers = {"ProcessPoolExecutor", "ThreadPoolExecutor", "Client", "LocalCluster", "Pool"}
    elsewhere = []
    for path in sorted((ROOT / "gamelib").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                f = node.func
                called = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
                if called in makers and rel != "gamelib/sim/executors.py":
                    elsewhere.append(f"{rel}:{node.lineno} {called}(…)")
    assert not elsewhere, f"pools or clients made outside gamelib/sim/executors.py: {elsewhere}"


#: the limits of a thin notebook (issue 45): lines of code (ruff-formatted, neither blank nor
#: a comment), the longest code cell; no class, and a function or lambda only in a cell that
#: draws (a chart may need one)
NOTEBOOK_LINES, CELL_LINES = 250, 40
DRAWS = ("plt.", "ax.", "axes", "sns.", "plot_")


def _notebook_code(path: Path) -> list[tuple[list[str], str]]:
    """Each code cell of a notebook: its lines of code after ruff format, and its source."""
    cells = []
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] != "code":
            continue
        src = "".join(cell["source"])
        out = subprocess.run(
            [sys.executable, "-m", "ruff", "format", "--config", str(ROOT / "pyproject.toml"),
             "--stdin-filename", "cell.py", "-"],
            input=src, capture_output=True, text=True, check=True,
        )  # fmt: skip
        code = [ln for ln in out.stdout.splitlines() if ln.strip() and ln.strip()[0] != "#"]
        cells.append((code, src))
    return cells


@pytest.mark.parametrize(
    "path", sorted((ROOT / "notebooks").glob("[0-9][0-9]*-*.ipynb")), ids=lambda p: p.stem
)
def test_a_notebook_is_thin(path: Path) -> None:
    cells = _notebook_code(path)
    lines = sum(len(code) for code, _ in cells)
    longest = max(len(code) for code, _ in cells)
    trees = [(ast.parse(src), src) for _, src in cells]
    classes = [n.name for t, _ in trees for n in ast.walk(t) if isinstance(n, ast.ClassDef)]
    assert not classes, f"{path.name} defines classes: {classes}"
    functions = [
        getattr(n, "name", "lambda")
        for t, src in trees
        if not any(d in src for d in DRAWS)
        for n in ast.walk(t)
        if isinstance(n, ast.FunctionDef | ast.Lambda)
    ]
    assert not functions, f"{path.name} defines functions outside a chart's cell: {functions}"
    assert lines <= NOTEBOOK_LINES and longest <= CELL_LINES, (path.name, lines, longest)
