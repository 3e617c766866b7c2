"""A fast first run (issue 21): the cold-cache note, the warm-up, lazy imports, small runs here.

No test compiles a game's engine from scratch: the cold cache is faked where the note is
checked, and the detection itself is checked on a one-line numba function in a temporary
module.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import gamelib.sim as sim
import gamelib.warm as warm
from gamelib.cli import main
from gamelib.records import compiled_core
from gamelib.registry import GAMES

GARNER_RUN = ["simulate", "garner", "--setup", "A", "--players", "greedy", "-n", "3"]
NOTE = (
    "gamelib: note: compiling the Garner engine for this machine (first run only, one to two "
    "minutes; cached afterwards)"
)


@pytest.fixture
def fresh_notes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process that has not said anything yet (the note is said once per game)."""
    monkeypatch.setattr(warm, "_noted", set())


def test_a_cold_cache_is_announced_once_before_the_first_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], fresh_notes: None
) -> None:
    events: list[str] = []
    asked: list[tuple[str, list[Any], str]] = []

    def cold(game: str, players: Any, engine: str) -> bool:
        asked.append((game, list(players), engine))
        events.append("checked")
        return True

    real_chunk = sim.chunks.run_chunk

    def chunk(*args: Any, **kwargs: Any) -> Any:
        events.append("played")
        return real_chunk(*args, **kwargs)

    monkeypatch.setattr(warm, "is_cold", cold)
    monkeypatch.setattr(sim.chunks, "run_chunk", chunk)
    for seed in ("1", "2"):  # a second run in the same process says nothing more
        assert main([*GARNER_RUN, "--seed", seed, "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert err.splitlines().count(NOTE) == 1, err
    assert asked[0] == ("garner", ["greedy", "greedy"], "compiled")
    assert events[0] == "checked" and "played" in events


def test_a_warm_cache_says_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], fresh_notes: None
) -> None:
    monkeypatch.setattr(warm, "is_cold", lambda game, players, engine: False)
    assert main([*GARNER_RUN, "--seed", "1", "--no-progress"]) == 0
    assert "compiling" not in capsys.readouterr().err


def test_a_library_run_warns_with_a_gamelib_warning(
    monkeypatch: pytest.MonkeyPatch, fresh_notes: None
) -> None:
    from gamelib.core import GamelibWarning

    monkeypatch.setattr(warm, "is_cold", lambda game, players, engine: True)
    cfg = GAMES["deck_the_yard"].config(None)
    with pytest.warns(GamelibWarning, match="compiling the Deck the Yard engine"):
        sim.simulate(cfg, ["greedy"], 2, seed=1, workers=1, progress=False)


def test_the_detection_reads_gamelibs_record_of_a_warm_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a one-line kernel in its own module: cold until a compile is recorded, warm after it, and
    # cold again for another CPU, in a process whose NUMBA_CACHE_DIR is empty, and once edited
    kernel = tmp_path / "tiny_kernel.py"
    kernel.write_text(
        textwrap.dedent(
            """
            from numba import njit

            @njit(cache=True)
            def twice(x):
                return 2 * x
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("tiny_kernel")
    assert not warm.is_cached("tiny_kernel:twice")
    assert module.twice(21) == 42
    warm.mark_warm(["tiny_kernel:twice"])
    assert warm.is_cached("tiny_kernel:twice")
    here = warm.machine()
    with monkeypatch.context() as m:
        m.setattr(warm, "machine", lambda: {**here, "cpu": "other"})
        assert not warm.is_cached("tiny_kernel:twice")

    def in_a_new_process(**env: str) -> str:
        script = "import gamelib.warm as w; print(w.is_cached('tiny_kernel:twice'))"
        path = os.pathsep.join([str(tmp_path), *filter(None, [os.environ.get("PYTHONPATH")])])
        out = subprocess.run(
            [sys.executable, "-c", script],
            env={**os.environ, "PYTHONPATH": path, **env},
            capture_output=True,
            text=True,
            check=True,
        )
        return out.stdout.strip()

    assert in_a_new_process() == "True"
    assert in_a_new_process(NUMBA_CACHE_DIR=str(tmp_path / "empty")) == "False"
    kernel.write_text(kernel.read_text() + "# edited\n")
    assert in_a_new_process() == "False"


def test_every_entry_is_a_cached_numba_function_and_every_player_is_covered() -> None:
    from numba.core.dispatcher import Dispatcher

    # the games with a compiled core (a game gamelib knows through the protocol alone, as the
    # example Leduc hold'em, has nothing to warm)
    compiled = {name: game for name, game in GAMES.items() if game.kernel is not None}
    assert set(warm.COMPILED_ENTRIES) == set(compiled) == set(warm.ENGINE_NAMES)
    for name, game in compiled.items():
        entries = [*warm.COMPILED_ENTRIES[name]]
        entries += [e for es in warm.SEARCH_ENTRIES[name].values() for e in es]
        for entry in entries:
            function = warm._function(entry)
            assert isinstance(function, Dispatcher), entry
            assert hasattr(function._cache, "_cache_file"), f"{entry} is not cache=True"
        core = compiled_core(game)
        for player, factory in game.players.items():
            if factory.__module__ == "gamelib.search.players":
                continue  # gamelib.search's generic players are plain Python
            assert core.supports(player) or player in warm.SEARCH_ENTRIES[name], (
                f"{name} player {player!r} has no compiled path the warm-up takes"
            )
        for spec in warm.SEARCH_SPECS[name]:
            assert spec.partition(":")[0] in warm.SEARCH_ENTRIES[name]


def test_entries_follow_the_line_up() -> None:
    garner = warm.COMPILED_ENTRIES["garner"]
    assert warm.entries_for("garner", ["greedy", "random"], "compiled") == garner
    assert warm.entries_for("garner", ["greedy", "random"], "python") == ()
    assert warm.entries_for("garner", ["mcts:50", "greedy"], "python") == (
        "gamelib.garner.search:search",
    )
    assert warm.entries_for("deck_the_yard", ["oracle:8"], "python") == (
        "gamelib.deck_the_yard.search:oracle_plan",
    )


def test_warm_refuses_an_unknown_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert warm.main(["chess"]) == 2
    assert "unknown game(s) chess" in capsys.readouterr().out


def test_warm_says_one_line_per_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # on a warm cache (make install warmed it) this only loads: a few seconds
    folders: list[Path | None] = []
    monkeypatch.setattr(warm, "write_bytecode", lambda package=None: folders.append(package) or 1)
    assert warm.main(["deck_the_yard"]) == 0
    assert folders == [None]  # gamelib's own bytecode, written first
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("deck_the_yard: ") and " s (compiled random, greedy" in lines[0]
    assert "rollout:2, oracle:2" in lines[0]
    assert lines[-1].startswith("gamelib.warm: every game's engines are cached")


def test_warm_compiles_games_side_by_side_and_says_them_in_order(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # each game in a process of its own (python -m gamelib.warm --one GAME), two at a time
    # here; the lines come back in the order the games were named
    monkeypatch.setattr(warm.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(warm, "write_bytecode", lambda package=None: 1)
    assert warm.main(["gargon", "deck_the_yard"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [ln.split(":")[0] for ln in lines[:2]] == ["gargon", "deck_the_yard"]
    assert "ismcts:8" in lines[0] and "rollout:2, oracle:2" in lines[1]
    assert lines[-1].startswith("gamelib.warm: every game's engines are cached")


def test_a_few_games_on_the_reference_engine_start_no_workers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_pool(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a small run started worker processes")

    monkeypatch.setattr(sim.executors, "default_workers", lambda: 2)
    monkeypatch.setattr(sim.executors, "ProcessPoolExecutor", no_pool)
    cfg = GAMES["garner"].config("A")
    t = sim.simulate(cfg, ["greedy", "random"], 3, seed=1, engine="python", progress=False)
    assert len(t) == 3


def test_a_long_run_moves_to_workers_with_the_same_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # "starting workers" is free here, so the run hands its rest to the (thread) pool at once
    pools: list[int] = []

    def pool(max_workers: int, **kwargs: Any) -> ThreadPoolExecutor:
        pools.append(max_workers)
        return ThreadPoolExecutor(max_workers)

    cfg = GAMES["garner"].config("A")
    args = (cfg, ["greedy", "random"], 24)
    here = sim.simulate(*args, seed=4, workers=1, engine="python", progress=False)
    monkeypatch.setattr(sim.executors, "default_workers", lambda: 2)
    monkeypatch.setattr(sim.executors, "WORKER_START_SECONDS", 0.0)
    monkeypatch.setattr(sim.executors, "ProcessPoolExecutor", pool)
    moved = sim.simulate(*args, seed=4, engine="python", progress=False)
    assert pools == [2]
    pd_testing = pytest.importorskip("pandas.testing")
    pd_testing.assert_frame_equal(here, moved)


#: what a small command-line run must not import (issue 33): pandas (and pyarrow under it),
#: scipy's statistics, statsmodels and the other heavy libraries.  numba itself imports
#: scipy.linalg (its BLAS check), so scipy.linalg is not in the list.
HEAVY = (
    "pandas",
    "pyarrow",
    "scipy.stats",
    "statsmodels",
    "optuna",
    "matplotlib",
    "seaborn",
    "dask",
    "tqdm",
    "pyspiel",
)


def _imported_by(script: str) -> Any:
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.splitlines()[-1])


def test_import_gamelib_and_a_small_run_load_only_what_they_need() -> None:
    script = textwrap.dedent(
        f"""
        import json, sys
        heavy = ("numpy", "numba", "gamelib.garner.search", *{HEAVY!r})
        import gamelib
        after_import = [m for m in heavy if m in sys.modules]
        from gamelib import play_game, GAMES  # the public names still import
        from gamelib.cli import main
        main(["simulate", "garner", "--setup", "A", "--players", "greedy", "-n", "3",
              "--seed", "1", "--no-progress"])
        after_run = [m for m in heavy if m in sys.modules]
        kernels = sorted(m for m in sys.modules if m.endswith((".kernel", ".kernel_players")))
        print(json.dumps([after_import, after_run, kernels]))
        """
    )
    after_import, after_run, kernels = _imported_by(script)
    assert after_import == []
    assert sorted(after_run) == ["numba", "numpy"]
    assert kernels == ["gamelib.garner.kernel", "gamelib.garner.kernel_players"]


@pytest.mark.parametrize(
    "run",
    [
        ["gargon", "--setup", "4p", "--players", "greedy", "--rotate-seats"],
        ["deck_the_yard", "--players", "greedy", "--records", "{tmp}/games.jsonl"],
        ["garner", "--setup", "A", "--players", "mcts:4,greedy", "--engine", "python"],
    ],
    ids=["gargon", "deck_the_yard-records", "garner-reference-engine"],
)
def test_a_small_run_that_keeps_no_table_imports_no_heavy_library(
    run: list[str], tmp_path: Path
) -> None:
    argv = ["simulate", *(a.replace("{tmp}", str(tmp_path)) for a in run)]
    argv += ["-n", "3", "--seed", "1", "--no-progress"]
    script = textwrap.dedent(
        f"""
        import json, sys
        from gamelib.cli import main
        assert main({argv!r}) == 0
        print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))
        """
    )
    assert _imported_by(script) == []


def test_a_run_that_writes_its_table_still_makes_it_with_pandas(tmp_path: Path) -> None:
    # the table path is the one the summary-only path must agree with: both print the same
    out = tmp_path / "t.parquet"
    base = ["simulate", "garner", "--setup", "A", "--players", "greedy,random", "-n", "6"]
    base += ["--seed", "4", "--rotate-seats", "--no-progress"]
    script = textwrap.dedent(
        f"""
        import contextlib, io, json, sys
        from gamelib.cli import main
        printed = []
        for extra in ([], ["--out", {str(out)!r}]):
            with contextlib.redirect_stdout(io.StringIO()) as text:
                assert main({base!r} + extra) == 0
            printed.append(text.getvalue())
        print(json.dumps([printed, "pandas" in sys.modules]))
        """
    )
    (summary, with_table), pandas_loaded = _imported_by(script)
    assert pandas_loaded
    assert with_table == summary + f"table: {out}\n"
    assert "greedy" in summary and "seat 1" in summary


def test_make_install_warms_the_engines() -> None:
    makefile = (Path(__file__).parents[1] / "Makefile").read_text()
    rule = makefile.split("$(STAMP):", 1)[1].split("\n\n", 1)[0]
    lines = [line.strip() for line in rule.splitlines()]
    warm_at = lines.index("$(BIN)/python -m gamelib.warm")
    package_at = next(i for i, line in enumerate(lines) if line.endswith("--no-deps -e ."))
    assert package_at < warm_at  # the package is installed before its engines are compiled
    assert lines[-1] == "touch $(STAMP)"  # a failed warm-up leaves the install unfinished


def test_wilson_equals_statsmodels() -> None:
    from statsmodels.stats.proportion import proportion_confint

    from gamelib.stats import wilson

    for n in (1, 2, 7, 30, 301, 5000):
        for k in sorted({0, 1, n // 3, n // 2, n - 1, n}):
            for level in (0.9, 0.95, 0.99):
                lo, hi = proportion_confint(k, n, alpha=1 - level, method="wilson")
                mine = wilson(k, n, level)
                assert abs(mine[0] - lo) < 1e-12 and abs(mine[1] - hi) < 1e-12, (k, n, level)


@pytest.mark.parametrize(
    ("game", "setup", "players", "engine"),
    [
        ("garner", "A", ["greedy", "random"], "auto"),
        ("garner", "A", ["greedy", "random"], "python"),
        ("gargon", "3p", ["greedy", "random", "greedy"], "auto"),
        ("deck_the_yard", None, ["random"], "auto"),
    ],
)
def test_a_summary_run_holds_the_tables_summary_columns(
    game: str, setup: str | None, players: list[str], engine: str
) -> None:
    cfg = GAMES[game].config(setup)
    kw: dict[str, Any] = {"rotate_seats": len(players) > 1, "engine": engine, "progress": False}
    table = sim.simulate(cfg, players, 7, 5, chunk_size=3, **kw)
    summary = sim.simulate_summary(cfg, players, 7, 5, chunk_size=3, **kw)
    wanted = [c for c in table.columns if sim.chunks.SUMMARY.fullmatch(c)]
    assert sorted(summary.columns) == sorted(wanted)
    assert summary.columns == {c: table[c].astype(object).tolist() for c in wanted}
    assert len(summary) == len(table)
    from gamelib.stats import win_rates
    from gamelib.stats.rates import win_rate_rows

    for by in ("player", "seat"):
        rows, draw = win_rate_rows(summary.columns, by)
        assert win_rates(table, by).to_dict("records") == rows
        assert win_rates(table, by).attrs["draw_rate"] == draw


def test_warm_writes_bytecode_even_when_python_is_told_not_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    for source in (package / "a.py", package / "sub" / "b.py"):
        source.write_text("X = 1\n")
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # PYTHONDONTWRITEBYTECODE=1
    assert warm.write_bytecode(package)
    for source in (package / "a.py", package / "sub" / "b.py"):
        assert Path(importlib.util.cache_from_source(str(source))).is_file()
    (package / "bad.py").write_text("def (:\n")
    assert not warm.write_bytecode(package)  # a module that does not compile is reported


def test_warm_compiles_the_search_the_solver_player_chooses_with() -> None:
    # solver:N picks among the moves that keep the value by mcts:N's root visits
    # (search.root_children), a call of search_tree no tiny warm-up game reached; a fresh
    # process, so no other test's call counts
    script = textwrap.dedent(
        """
        import json, random
        import gamelib.warm as warm
        from gamelib.garner import kernel
        from gamelib.garner.search import search_tree
        from gamelib.registry import GAMES

        garner = GAMES["garner"]
        before = len(search_tree.signatures)
        state = garner.new_state(garner.config(None), random.Random(0))
        warm._library_calls("garner", kernel, state)
        print(json.dumps([before, [str(s) for s in search_tree.signatures]]))
        """
    )
    before, signatures = _imported_by(script)
    assert before == 0
    assert any(sig.endswith("omitted(default=False))") for sig in signatures)
