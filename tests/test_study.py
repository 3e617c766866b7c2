"""The study layer (issue 32): the study cache plays only the deals a run lacks — a prefix of a
longer run, an extension of a shorter one, a sweep's missing cells, a verdict's next batch —
reads the stored studies of data/results as a read-only tier, keys runs by everything that fixes
their games (the version of play included), stops verdicts at a time budget with valid bounds,
and notebook parameters are checked with one line naming the bad one."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamelib.core import ConfigError
from gamelib.garner import GARNER
from gamelib.sim import save, simulate, sweep
from gamelib.sim.chunks import ChunkJob
from gamelib.study import Budget, Job, ParameterError, check, held, plan
from gamelib.verdict import Fair, Skill, Stalls, verdict

ROOT = Path(__file__).resolve().parents[1]
CFG = GARNER.config("A")
PLAYERS = ["greedy", "random"]


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """Every deal range the runner is asked to play, as (start, stop)."""
    import gamelib.sim.run as run_mod
    import gamelib.verdict.run as verdict_run

    ranges: list[tuple[int, int]] = []
    for mod in (run_mod, verdict_run):
        real = mod.run_chunks

        def counting(jobs, *args, _real=real, **kwargs):  # type: ignore[no-untyped-def]
            def seen():  # type: ignore[no-untyped-def]
                for job in jobs:
                    ranges.append((job.start, job.stop))
                    yield job

            return _real(seen(), *args, **kwargs)

        monkeypatch.setattr(mod, "run_chunks", counting)
    return ranges


@pytest.fixture
def no_stored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GAMELIB_STORED", "none")


def _deals(ranges: list[tuple[int, int]]) -> int:
    return sum(b - a for a, b in ranges)


def test_a_shorter_run_is_the_prefix_of_a_longer_one_and_plays_nothing(
    tmp_path: Path, played: list[tuple[int, int]], no_stored: None
) -> None:
    kw = {"rotate_seats": True, "workers": 1, "progress": False, "cache": tmp_path}
    simulate(CFG, PLAYERS, 300, 7, **kw)
    assert _deals(played) == 300
    played.clear()
    short = simulate(CFG, PLAYERS, 120, 7, **kw)
    assert played == []
    fresh = simulate(CFG, PLAYERS, 120, 7, rotate_seats=True, workers=1, progress=False)
    pd.testing.assert_frame_equal(short, fresh)
    assert short.attrs["provenance"]["n_games"] == 120


def test_a_longer_run_plays_only_the_missing_deals(
    tmp_path: Path, played: list[tuple[int, int]], no_stored: None
) -> None:
    kw = {"workers": 1, "progress": False, "cache": tmp_path}
    simulate(CFG, PLAYERS, 200, 9, **kw)
    played.clear()
    longer = simulate(CFG, PLAYERS, 500, 9, **kw)
    assert min(a for a, _ in played) == 200 and _deals(played) == 300
    fresh = simulate(CFG, PLAYERS, 500, 9, workers=1, progress=False)
    pd.testing.assert_frame_equal(longer, fresh)


def test_a_sweep_plays_only_its_new_cells(
    tmp_path: Path, played: list[tuple[int, int]], no_stored: None
) -> None:
    kw = {"workers": 1, "progress": False, "cache": tmp_path}
    sweep("garner", {"setup": ["A", "B"]}, PLAYERS, 50, 3, **kw)
    played.clear()
    again = sweep("garner", {"setup": ["A", "B", "D"]}, PLAYERS, 50, 3, **kw)
    assert _deals(played) == 50  # setup D alone
    fresh = sweep("garner", {"setup": ["A", "B", "D"]}, PLAYERS, 50, 3, workers=1, progress=False)
    pd.testing.assert_frame_equal(again, fresh)


def test_a_stored_study_serves_what_it_holds_and_only_with_its_columns(
    tmp_path: Path, played: list[tuple[int, int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    stored = tmp_path / "stored"
    cols = ["winner", "n_winners", "reason", "turns", "win_0", "win_1"]
    t = simulate(CFG, PLAYERS, 400, 11, workers=1, progress=False, columns=cols)
    save(t, stored / "a-study.parquet")
    monkeypatch.setenv("GAMELIB_STORED", str(stored))
    played.clear()
    kw = {"workers": 1, "progress": False, "cache": tmp_path / "cache"}
    served = simulate(CFG, PLAYERS, 250, 11, columns=cols, **kw)
    assert played == []  # read from the stored table
    pd.testing.assert_frame_equal(served, t[t.deal < 250].reset_index(drop=True))
    assert held(Job("a", CFG, PLAYERS, 400, columns=cols), 11, tmp_path / "cache") == 400
    assert held(Job("a", CFG, PLAYERS, 400), 11, tmp_path / "cache") == 0  # needs every column
    # every column: the slimmed table cannot serve it, so the run is played
    simulate(CFG, PLAYERS, 50, 11, **kw)
    assert _deals(played) == 50
    played.clear()
    # more deals than it holds: the stored 400 and 100 played
    more = simulate(CFG, PLAYERS, 500, 11, columns=cols, **kw)
    assert _deals(played) == 100 and min(a for a, _ in played) == 400
    fresh = simulate(CFG, PLAYERS, 500, 11, workers=1, progress=False, columns=cols)
    pd.testing.assert_frame_equal(more, fresh)


def test_another_version_of_play_is_another_run(
    tmp_path: Path, played: list[tuple[int, int]], no_stored: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gamelib.sim.chunks as chunks

    kw = {"workers": 1, "progress": False, "cache": tmp_path}
    simulate(CFG, PLAYERS, 40, 5, **kw)
    played.clear()
    monkeypatch.setattr(chunks, "__version__", "99.0.0")
    t = simulate(CFG, PLAYERS, 40, 5, **kw)
    assert _deals(played) == 40  # the older entry is not read as current
    assert t.attrs["provenance"]["gamelib_version"] == "99.0.0"


def test_equal_rules_spelled_differently_share_a_run() -> None:
    from gamelib.gargon import GARGON
    from gamelib.sim import run_fingerprint, run_spec

    one = run_spec(GARGON.config("4p", zero_multiplier=1), ["greedy"] * 4, 10, 1, False)
    one_point_oh = run_spec(GARGON.config("4p", zero_multiplier=1.0), ["greedy"] * 4, 99, 1, False)
    assert run_fingerprint(one) == run_fingerprint(one_point_oh)
    two = run_spec(GARGON.config("4p", zero_multiplier=2), ["greedy"] * 4, 10, 1, False)
    assert run_fingerprint(one) != run_fingerprint(two)


def test_a_verdict_again_plays_nothing_and_decides_the_same(
    tmp_path: Path, played: list[tuple[int, int]], no_stored: None
) -> None:
    qs = [Fair(0.05), Stalls(0.05)]
    kw = {"max_games": 400, "seed": 3, "progress": False, "workers": 1}
    first = verdict(CFG, ["greedy", "cautious"], qs, cache=tmp_path, **kw)
    assert played
    played.clear()
    again = verdict(CFG, ["greedy", "cautious"], qs, cache=tmp_path, **kw)
    assert played == []
    pd.testing.assert_frame_equal(first, again)
    pd.testing.assert_frame_equal(first, verdict(CFG, ["greedy", "cautious"], qs, **kw))
    # another margin: the stored deals are read, only the deals beyond them are played
    played.clear()
    wider = verdict(CFG, ["greedy", "cautious"], [Fair(0.2)], cache=tmp_path, **kw)
    assert all(a >= first.deals.min() for a, _ in played)
    pd.testing.assert_frame_equal(wider, verdict(CFG, ["greedy", "cautious"], [Fair(0.2)], **kw))


def test_a_verdict_stops_at_its_budget_with_the_deals_still_needed(
    tmp_path: Path, no_stored: None
) -> None:
    # a budget spent before the first look: the unit plays one deal (one core) to time a deal,
    # finds none more fits, and stops there (not at its scheduled first look of 50 deals)
    t = verdict(
        GARNER.config("C", must_move="one", straight_line=True),
        ["random"],
        [Fair(0.15)],
        max_games=20_000,
        seed=4,
        progress=False,
        workers=1,
        cache=tmp_path,
        max_minutes=1e-9,
    )
    row = t.iloc[0]
    assert row.deals == 1
    assert row.decision == "undecided" and row.more_deals > 0
    with pytest.raises(ConfigError, match="max_minutes must be a positive number"):
        verdict(CFG, ["random"], [Fair()], max_minutes=0, progress=False)
    with pytest.raises(ConfigError, match="give one"):
        verdict(CFG, ["random"], [Fair()], resume=tmp_path / "r", cache=True, progress=False)


class _TimedRun:
    """A unit's run as :func:`_fit_to_clock` sees it: deals held and seconds a deal."""

    def __init__(self, covered: int, seconds: float) -> None:
        from gamelib.sim.executors import Timing

        self.n, self.timing = covered, Timing()
        self.timing.seconds_per_deal = seconds

    def covered(self) -> int:
        return self.n


def test_a_look_that_would_overrun_the_budget_moves_down_to_the_deals_that_fit() -> None:
    import time

    from gamelib.verdict.run import Place, _fit_to_clock
    from gamelib.verdict.schedule import Schedule
    from gamelib.verdict.sequential import look_schedule

    looks = look_schedule(10_000)
    runs = [_TimedRun(looks[1], 0.1), _TimedRun(looks[1], 0.1)]  # 0.2 s a deal for the unit
    args = (Place(1, None, None, "executor"),)

    free = Schedule(list(looks), "cs")  # no deadline: the scheduled look
    assert _fit_to_clock(runs, free, 2, None, *args) == looks[2]
    assert free.deals == looks

    cut = Schedule(list(looks), "cs")
    upto = _fit_to_clock(runs, cut, 2, time.monotonic() + 2.0, *args)  # about 10 deals fit
    assert looks[1] < upto < looks[2] and upto <= looks[1] + 10
    assert cut.deals == [*looks[:2], upto] and cut.looks_at(2) == cut.deals
    assert [i for i, _ in cut.steps()] == [0, 1, 2]  # the cut look is the unit's last
    assert cut.looks_at(2) == look_schedule(upto)  # what redecide replays from the deals

    spent = Schedule(list(looks), "cs")  # no time left: one deal past the previous look
    assert _fit_to_clock(runs, spent, 2, time.monotonic() - 1.0, *args) == looks[1] + 1

    planned = Schedule(list(looks), "sprt")  # planned designs never run with a budget
    assert _fit_to_clock(runs, planned, 2, time.monotonic(), *args) == looks[2]


def test_a_corrupt_cache_chunk_is_named(tmp_path: Path, no_stored: None) -> None:
    from gamelib.core import ResumeError

    simulate(CFG, PLAYERS, 30, 2, workers=1, progress=False, cache=tmp_path)
    (chunk,) = tmp_path.glob("deals/garner/*/part-*.parquet")
    chunk.write_bytes(b"not parquet")
    with pytest.raises(ResumeError, match=r"part-0-30\.parquet is not readable"):
        simulate(CFG, PLAYERS, 30, 2, workers=1, progress=False, cache=tmp_path)


def test_the_plan_counts_what_is_stored_and_what_is_to_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GAMELIB_CACHE", str(tmp_path))
    monkeypatch.setenv("GAMELIB_STORED", "none")
    simulate(CFG, PLAYERS, 100, 6, workers=1, progress=False, cache=True)
    jobs = [Job("A", CFG, PLAYERS, 300), Job("B", GARNER.config("B"), PLAYERS, 50)]
    t = plan(jobs, 6, minutes=1.0, workers=1)
    assert t["stored"].tolist() == [100, 0] and t["to play"].tolist() == [200, 50]
    assert (t["minutes"] > 0).all()
    line = capsys.readouterr().out.strip()
    assert line.startswith("2 run(s): 100 deals stored, 250 to play") and "budget 1.0 min" in line
    assert (tmp_path / "costs.json").exists()  # measured once, then read


def garner_rules():  # type: ignore[no-untyped-def]
    from gamelib.registry import GAMES

    return GAMES["garner"].config("standard")


def dty_rules():  # type: ignore[no-untyped-def]
    from gamelib.registry import GAMES

    return GAMES["deck_the_yard"].config(None)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: check.one_of("GARGON_PLAYERS", 6, [3, 4, 5]),
            "GARGON_PLAYERS must be 3, 4 or 5, got 6",
        ),
        (
            lambda: check.subset("PLUG_COUNTS", [4, 4], range(1, 20)),
            "PLUG_COUNTS lists a value twice",
        ),
        (
            lambda: check.subset("PLAYER_COUNTS", [], [3, 4, 5]),
            "PLAYER_COUNTS must list at least one",
        ),
        (lambda: check.whole("N_GAMES", 0, lo=1), "N_GAMES must be a whole number ≥ 1, got 0"),
        (lambda: check.number("ALPHA", 0.7, 0, 0.5), "ALPHA must be a number with 0 < ALPHA < 0.5"),
        (lambda: check.flag("SAVE", "yes"), "SAVE must be True or False, got 'yes'"),
        (lambda: check.seed("SEED", -1), "SEED"),
        (lambda: check.player("SEARCH", "mcts:lots", "garner"), "SEARCH:"),
        (lambda: check.player("SEARCH", "", "garner"), "SEARCH must be a player name of garner"),
        (lambda: check.players("LEVELS", ["greedy", "greedy"], "garner"), "names a player twice"),
        (lambda: check.rules("RULES", "garner", "Z"), "RULES:"),
        (lambda: check.minutes("MINUTES", 0), "MINUTES must be a number > 0, got 0"),
        (lambda: check.scheduler("SCHEDULER", "nowhere"), "SCHEDULER"),
        (
            lambda: check.players("LEVELS", ["greedy"], "garner", least=2),
            "LEVELS must name at least 2 players, got ['greedy']",
        ),
        (
            lambda: check.named("RULES", {"A": ({"setup": "A"},)}, {"fields": dict, "top": list}),
            "RULES must map a name to (fields, top), got {'A': ({'setup': 'A'},)}",
        ),
        (lambda: check.named("RULES", {"A": ["A", []]}, {"fields": dict, "top": list}), "RULES"),
        (lambda: check.named("RULES", {}, {"fields": dict}), "RULES must map a name to (fields)"),
        (lambda: check.named("RULES", [("A", {})], {"fields": dict}), "RULES must map a name"),
        (
            lambda: check.each_whole("N_GAMES", {"random": 10}, ["random", "greedy"], lo=1),
            "N_GAMES gives no value for 'greedy'",
        ),
        (
            lambda: check.each_whole("N_GAMES", {"random": 0}, ["random"], lo=1),
            "N_GAMES['random'] must be a whole number ≥ 1, got 0",
        ),
        (lambda: check.each_whole("N", 2.5, [3, 4]), "N must be a whole number, got 2.5"),
        (lambda: check.keyed("Q", ["garner"], ["garner"]), "Q must be a dict keyed by 'garner'"),
        (lambda: check.keyed("Q", {"chess": 1}, ["garner"]), "Q must be keyed by 'garner', got"),
        (
            lambda: check.keyed("Q", {"garner": 1}, ["garner", "gargon"], need=["gargon"]),
            "Q must have an entry for 'gargon'",
        ),
        (
            lambda: check.questions("Q", ["fair:0.05", "fair"], garner_rules(), ["greedy"]),
            "Q: question 'fair': write fair:MARGIN",
        ),
        (lambda: check.questions("Q", "fair:0.05", garner_rules(), ["a"]), "Q must be a non-empty"),
        (lambda: check.questions("Q", [0.05], garner_rules(), ["a"]), "Q: a question is text"),
        (
            lambda: check.questions("Q", ["target:0.3:0.05"], garner_rules(), ["greedy"]),
            "Q: target:0.3:0.05 asks a solitaire's win rate of a game with opponents",
        ),
        (
            lambda: check.questions("Q", ["fair:0.05"], dty_rules(), ["greedy"]),
            "Q: fair:0.05 asks seats of a solitaire",
        ),
        (
            lambda: check.questions("Q", ["skill:0.05"], garner_rules(), ["greedy"]),
            "Q: skill:0.05 compares two levels; ['greedy'] has one",
        ),
        (
            lambda: check.field_values("MUST_MOVE", ["none", "two"], "garner", "must_move"),
            "MUST_MOVE: must_move must be 'none', 'one' or 'all'",
        ),
        (
            lambda: check.field_values("TOP", ["level", "level"], "garner", "top_layer"),
            "TOP lists a value twice",
        ),
        (
            lambda: check.field_values("X", [1], "gargon", "zero_multiplier", least=2),
            "X must list at least 2 zero_multiplier values",
        ),
        (lambda: check.field_values("X", "none", "garner", "must_move"), "must be a list"),
        (
            lambda: check.rule_sets("SETS", [{"setup": "C"}, {"setup": "Z"}], "garner"),
            "SETS[1]: unknown garner setup 'Z'",
        ),
        (lambda: check.rule_sets("SETS", [("C", "one")], "garner"), "each a dict of garner rule"),
        (lambda: check.rule_sets("SETS", {"setup": "C"}, "garner"), "SETS must be a list of rule"),
        (lambda: check.rule_sets("SETS", [], "garner"), "SETS must list at least one rule set"),
        (
            lambda: check.rule_sets("SETS", [{"setup": "C"}, {"setup": "C", "rows": 4}], "garner"),
            "SETS lists a rule set twice",
        ),
    ],
)
def test_a_bad_parameter_gets_one_line_naming_it(call, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ParameterError) as err:
        call()
    assert message in str(err.value)
    assert err.value._render_traceback_() == [f"ParameterError: {err.value}"]
    assert "\n" not in str(err.value)


def test_good_parameters_pass_through() -> None:
    assert check.one_of("X", 4, [3, 4, 5]) == 4
    assert check.subset("X", [4, 8], [4, 6, 8, 12]) == [4, 8]
    assert check.player("X", "mcts:200", "garner") == "mcts:200"
    assert check.number("X", None, 0, 1, none=True) is None
    assert check.rules("X", "garner", "C", must_move="one").must_move == "one"
    # named entries: a JSON list stands for a tuple, a list item may be a tuple
    named = {"A": [{"setup": "A"}, ("solver:400",)], "B": ({}, [])}
    assert check.named("X", named, {"fields": dict, "top": list}) == {
        "A": ({"setup": "A"}, ("solver:400",)),
        "B": ({}, []),
    }
    assert check.named("X", {"a": (None,)}, {"top": (list, type(None))}) == {"a": (None,)}
    assert check.players("X", [], "garner", empty=True, least=2) == []
    # one number for all keys, or one for each (JSON's text keys read as the keys they spell)
    assert check.each_whole("X", 5, ["a", "b"], lo=1) == {"a": 5, "b": 5}
    assert check.keyed("X", {"garner": 1}, ["garner", "gargon"], need=["garner"]) == {"garner": 1}
    qs = check.questions("X", ["target:0.3:0.05", "skill:0.05"], dty_rules(), ["a", "b"])
    assert [q.name for q in qs] == ["target", "skill"]
    assert check.each_whole("X", {"4": 2, 3: 1, "extra": 9}, [3, 4]) == {3: 1, 4: 2}
    assert check.field_values("X", [False, True], "garner", "straight_line") == [False, True]
    assert check.field_values("X", [], "gargon", "zero_multiplier", least=0) == []
    sets = check.rule_sets(
        "X", [{"setup": "C", "must_move": "one"}, {"straight_line": True}], "garner"
    )
    assert [c.must_move for c in sets] == ["one", "none"] and sets[1].straight_line
    assert check.rule_sets("X", [], "garner", empty=True) == []


def test_the_cache_command_says_where_it_is_and_clears_it(tmp_path: Path) -> None:
    env = {"GAMELIB_CACHE": str(tmp_path), "PATH": "", "GAMELIB_STORED": "none"}
    simulate(CFG, PLAYERS, 20, 1, workers=1, progress=False, cache=tmp_path)
    gamelib = [sys.executable, "-m", "gamelib"]
    out = subprocess.run([*gamelib, "cache"], capture_output=True, text=True, env=env)
    assert out.returncode == 0 and "1 run(s)" in out.stdout and str(tmp_path) in out.stdout
    out = subprocess.run([*gamelib, "cache", "--clear"], capture_output=True, text=True, env=env)
    assert out.returncode == 0 and "removed 1 run(s)" in out.stdout
    assert not list(tmp_path.glob("deals/*/*"))
    flags = ["--players", "greedy", "-n", "3", "--seed", "1", "--cache", "--resume", "r"]
    bad = subprocess.run(
        [*gamelib, "simulate", "garner", *flags],
        capture_output=True,
        text=True,
        env=env,
    )
    assert bad.returncode == 2 and "drop --resume" in bad.stderr


@pytest.mark.parametrize(("seconds", "rest_on"), [(0.5, "pool"), (1e-6, None)])
def test_an_untimed_run_times_a_few_deals_before_a_long_batch(
    monkeypatch: pytest.MonkeyPatch, seconds: float, rest_on: str | None
) -> None:
    import gamelib.sim.executors as executors
    from gamelib.sim.executors import LazyPool, Timing, run_chunks

    calls: list[tuple[tuple[int, int], str | None]] = []

    def here(jobs, timing):  # type: ignore[no-untyped-def]
        for job in jobs:
            calls.append(((job.start, job.stop), None))
            timing.seconds_per_deal = seconds
            yield job.start, (None, [])

    def on(pool, jobs, window):  # type: ignore[no-untyped-def]
        for job in jobs:
            calls.append(((job.start, job.stop), pool))
            yield job.start, (None, [])

    class Pool(LazyPool):
        def get(self) -> str:  # type: ignore[override]
            return "pool"

    monkeypatch.setattr(executors, "_here", here)
    monkeypatch.setattr(executors, "_run_on", on)
    monkeypatch.setattr(executors, "_note_if_cold", lambda jobs: jobs)
    timing = Timing()
    spans = [(4000, 4002), (4002, 4004), *((x, x + 500) for x in range(4004, 6004, 500))]
    jobs = [ChunkJob(CFG, PLAYERS, 1, a, b, False) for a, b in spans]
    list(run_chunks(iter(jobs), 2, None, "executor", True, Pool(2), timing))
    # two probes of a few deals here (the first may pay a compile), then the rest where the
    # measured seconds a deal send it: slow deals to the workers, fast ones stay here
    assert calls[:2] == [((4000, 4002), None), ((4002, 4004), None)]
    assert {where for _, where in calls[2:]} == {rest_on}
    assert [span for span, _ in calls] == spans


def test_a_verdict_batch_is_cut_into_probes_then_chunks_for_the_runner(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import gamelib.verdict.run as vrun

    asked: list[tuple[list[tuple[int, int]], int, bool]] = []

    def runner(jobs, n_workers, executor, what, here_first, pool, timing):  # type: ignore[no-untyped-def]
        jobs = list(jobs)
        asked.append(([(j.start, j.stop) for j in jobs], n_workers, here_first))
        return iter(())

    monkeypatch.setattr(vrun, "run_chunks", runner)
    where = vrun.Place(2, None, None, "executor")
    run = vrun.Run(CFG, PLAYERS, False, 1, 10_000)
    run.parts[0] = (4000, pd.DataFrame())
    vrun._play(run, 6000, where)  # not timed here: two probes of `cores` deals, then chunks
    spans, n, first = asked.pop()
    assert spans[:3] == [(4000, 4002), (4002, 4004), (4004, 4504)] and spans[-1][1] == 6000
    assert (n, first) == (2, True)
    fresh = vrun.Run(CFG, PLAYERS, False, 1, 10_000)
    vrun._play(fresh, 3, where)  # a batch of a few deals is its own probe
    assert asked.pop() == ([(0, 3)], 1, False)
    fresh.timing.seconds_per_deal = 1e-6  # timed and fast: one chunk a range, here
    vrun._play(fresh, 5000, where)
    assert asked.pop() == ([(0, 5000)], 1, False)


def test_a_measured_cost_is_written_whole_under_the_writers_own_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gamelib.core as core
    import gamelib.study as study

    monkeypatch.setenv("GAMELIB_CACHE", str(tmp_path))
    names: list[str] = []
    real = core.temporary_name

    def spy(path: Path) -> Path:
        names.append(real(path).name)
        return real(path)

    monkeypatch.setattr(core, "temporary_name", spy)
    study._write_cost("garner A", 0.25)
    study._write_cost("gargon 4p", 1.5)
    assert study._read_costs() == {"garner A": 0.25, "gargon 4p": 1.5}
    assert study._costs_file().parent.resolve() == tmp_path.resolve()
    assert names and all(n.startswith("costs.json.") and "@" in n for n in names)
    assert not list(tmp_path.rglob("*.partial"))  # renamed over costs.json, nothing left
    # an unwritable cache is not an error: the cost is measured again next time
    monkeypatch.setattr(study, "_costs_file", lambda: tmp_path / "no-such-dir" / "costs.json")
    study._write_cost("deck_the_yard", 0.1)


def test_a_games_play_revision_is_part_of_its_runs_key():
    """A change of a player's choices raises the game's ``play_revision``: a run played before
    it has another key, so a cache or stored table of the old play is never read as current;
    games without a revision keep the keys they always had."""
    from gamelib.gargon import GARGON
    from gamelib.sim import run_fingerprint, run_spec

    spec = run_spec(GARNER.config("A"), ["greedy", "greedy"], 10, 1, False)
    assert spec["play_revision"] == GARNER.play_revision >= 1
    before = {k: v for k, v in spec.items() if k != "play_revision"}
    assert run_fingerprint(before) != run_fingerprint(spec)
    assert "play_revision" not in run_spec(GARGON.config("4p"), ["greedy"] * 4, 10, 1, False)


def test_every_stored_garner_run_was_played_by_the_current_revision():
    """The stored studies are re-made when Garner's play changes (data/results/regenerate.sh,
    print.sh, ladders.sh): a table of the old play would never be served, only replayed."""
    import json

    import pyarrow.parquet as pq

    tables = sorted((ROOT / "data" / "results").rglob("*.parquet"))
    seen = 0
    for path in tables:
        attrs = json.loads(pq.read_schema(path).metadata.get(b"PANDAS_ATTRS", b"{}"))
        prov = attrs.get("provenance") or {}
        for run in prov.get("runs", [prov]):
            if run.get("game") == "garner":
                seen += 1
                assert run.get("play_revision", 0) == GARNER.play_revision, path.name
    assert seen >= 100, seen


# ---- a shared budget's stops (issue 46) -------------------------------------------------


def _call(cache: Path, decided: bool, log: list[int], deals: int = 100_000) -> tuple:  # type: ignore[type-arg]
    """One call under a budget: a verdict's table stand-in over a real run of Garner A."""

    def go(n: int, minutes: float | None, show: bool) -> pd.DataFrame:
        log.append(n)
        t = simulate(CFG, PLAYERS, n, 13, cache=cache, workers=1, progress=False)
        word = "holds" if decided else "undecided"
        return pd.DataFrame({"decision": [word], "deals": [t["deal"].nunique()]})

    return ("garner A greedy v random", [Job("garner A", CFG, PLAYERS, deals)], deals, go)


def test_a_budget_stop_is_replayed_only_by_a_study_that_meets_the_same_tiers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache, stored, log = tmp_path / "cache", tmp_path / "stored", []
    save(simulate(CFG, PLAYERS, 5000, 13, workers=1, progress=False), stored / "held.parquet")
    monkeypatch.setenv("GAMELIB_STORED", "none")
    off = Budget(0.0005, [_call(cache, False, log)], 13, workers=1, cache=cache)
    off.play()
    (cut,) = log
    assert 0 < cut < 5000 and off.cut == {"garner A greedy v random": cut}
    # the same study, the stored tier on: its 5,000 deals are free, the tier-off stop is not
    # replayed
    monkeypatch.setenv("GAMELIB_STORED", str(stored))
    on = Budget(0.0005, [_call(cache, False, log)], 13, workers=1, cache=cache)
    on.play()
    assert log[1] >= 5000 and on.cut == {"garner A greedy v random": log[1]}
    # the same study again, the tiers as it left them: replayed to where it stopped
    again = Budget(0.0005, [_call(cache, False, log)], 13, workers=1, cache=cache)
    again.play()
    assert log[2] == log[1] and again.cut == on.cut
    # and the tier-off study again: the cache's deals 0 … k−1 are as it left them (the tier-on
    # study played only deals past the stored ones), so it replays its own stop, not the other's
    monkeypatch.setenv("GAMELIB_STORED", "none")
    Budget(0.0005, [_call(cache, False, log)], 13, workers=1, cache=cache).play()
    assert log[3] == cut, log
    # a cache that holds more of the run than when it stopped: not replayed, the held deals free
    simulate(CFG, PLAYERS, 2 * cut, 13, cache=cache, workers=1, progress=False)
    Budget(0.0005, [_call(cache, False, log)], 13, workers=1, cache=cache).play()
    assert log[4] >= 2 * cut, log


def test_a_call_that_decided_inside_its_budget_is_not_a_stop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GAMELIB_STORED", "none")
    cache, log = tmp_path / "cache", []
    budget = Budget(0.0005, [_call(cache, True, log)], 13, workers=1, cache=cache)
    budget.play()
    assert budget.cut == {} and not (cache / "budget-stops.json").exists()
    # nor is a call that played all it asked for
    full = Budget(5, [_call(cache, False, log, deals=20)], 13, workers=1, cache=cache)
    full.play()
    assert log[-1] == 20 and full.cut == {} and not (cache / "budget-stops.json").exists()


def test_a_declared_study_plans_once_plays_and_answers_by_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from gamelib.study import Study
    from gamelib.verdict.compare import Changes, compare

    monkeypatch.setenv("GAMELIB_STORED", "none")
    cache = tmp_path / "cache"
    study = Study(13, 5, workers=1, cache=cache)
    study.simulate("games", CFG, PLAYERS, 40, rotate_seats=True, columns=["winner"], setup="A")
    study.verdict(("fair", "A"), CFG, ["greedy"], [Fair(0.2)], 300, at="mirror")
    wider = GARNER.config("A", must_move="one")
    study.compare("one", CFG, wider, ["random"], [Changes(0.99)], 200, change="must_move=one")
    with pytest.raises(ConfigError, match="asks 'games' twice"):
        study.simulate("games", CFG, PLAYERS, 10)
    with pytest.raises(ConfigError, match="mixes mirror questions with skill: ask them apart"):
        study.verdict("both", CFG, ["random", "greedy"], [Fair(0.1), Skill(0.1)], 10)
    study.plan()
    planned = capsys.readouterr().out
    # one line: the runs the asks read (the verdict's mirror run and each rule's random run
    # once), what is held and what is to play, against the budget
    assert planned.startswith("4 run(s): 0 deals stored, ") and "(budget 5.0 min)" in planned
    answers = study.run()
    assert list(answers) == ["games", ("fair", "A"), "one"] and answers.cut == {}
    games = answers["games"]
    assert len(games) == 80 and set(games["setup"]) == {"A"} and "winner" in games
    fair = answers["fair", "A"]
    alone = verdict(CFG, ["greedy"], [Fair(0.2)], seed=13, max_games=300, progress=False)
    pd.testing.assert_frame_equal(fair.drop(columns=["at", "asked"]), alone)
    assert list(fair["asked"]) == [300] and list(answers.games["fair", "A"]) == ["greedy"]
    one = compare(CFG, wider, ["random"], [Changes(0.99)], seed=13, max_games=200,
                  change="must_move=one", progress=False)  # fmt: skip
    pd.testing.assert_frame_equal(answers["one"].drop(columns=["asked"]), one)
    assert len(answers.cat(["games", "games"])) == 160
    # two asks of the same run under other keys each keep their own table and tags
    twice = Study(13, 5, workers=1, cache=cache)
    twice.simulate("a", CFG, PLAYERS, 10, side="a")
    twice.simulate("b", CFG, PLAYERS, 10, side="b")
    both = twice.run()
    capsys.readouterr()
    assert (set(both["a"]["side"]), set(both["b"]["side"])) == ({"a"}, {"b"})
    # a sweep and a ladder's matchups are the functions' tables, each run planned once
    more = Study(13, 5, workers=1, cache=cache)
    grid = {"setup": ["A", "B"], "must_move": ["none", "one"]}
    more.sweep("grid", "garner", grid, ["greedy"], 30, columns=["winner"])
    more.matchups("ladder", CFG, ["random", "greedy"], 20, columns=["winner"])
    more.plan()
    # four rule sets and three pairings, the greedy mirror on A read by both: planned once
    assert capsys.readouterr().out.startswith("6 run(s): ")
    got = more.run()
    alone = sweep("garner", grid, ["greedy"], 30, 13, columns=["winner"], progress=False)
    pd.testing.assert_frame_equal(got["grid"], alone, check_like=True)
    assert set(got["ladder"]["pairing"]) == {
        "random v random",
        "greedy v greedy",
        "random v greedy",
    }
    assert got["ladder"]["deal"].nunique() == 20
    # a run the budget pays for only in part says so in one line, and its key is cut
    short = Study(14, 0.0002, workers=1, cache=tmp_path / "short")
    short.simulate(("long", 1), CFG, PLAYERS, 50_000)
    capsys.readouterr()
    cut = short.run()
    assert 0 < cut.cut["long", 1] < 50_000
    assert capsys.readouterr().out.endswith(
        f"long 1: {cut['long', 1]['deal'].nunique():,} of the 50,000 deals asked for "
        "(the time budget)\n"
    )


class _Squares:
    """A computed table for the tests: part ``k``, item ``i`` → ``x = k·i²`` (item 3 has no
    row, as a sampled game without a critical position; a ``decision`` column, as a judged
    position has, is not a verdict's); each call of ``make`` logged."""

    name, item = "squares", "item"

    def __init__(self, stored: tuple[str, int] | None = None, pause: float = 0.0) -> None:
        self.stored, self.pause, self.calls = stored, pause, []

    def make(self, parts: list[dict], first: int, n: int) -> pd.DataFrame:
        import time

        self.calls.append(([p["k"] for p in parts], first, n))
        time.sleep(self.pause * (n - first))
        rows = [
            {"k": p["k"], "item": i, "x": p["k"] * i * i} for p in parts for i in range(first, n)
        ]
        table = pd.DataFrame([r for r in rows if r["item"] != 3], columns=["k", "item", "x"])
        return table.assign(decision="place")


def _squares(ks: list[int], n: int) -> pd.DataFrame:
    return pd.DataFrame(
        [{"k": k, "item": i, "x": k * i * i} for k in ks for i in range(n) if i != 3]
    ).assign(decision="place")


def test_a_computed_table_is_computed_once_kept_extended_and_read_from_the_stored_tier(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from gamelib.study import Study

    monkeypatch.setenv("GAMELIB_STORED", "none")
    cache, parts = tmp_path / "cache", [{"k": 1}, {"k": 2}]

    def ask(what: _Squares, n: int, minutes: float = 5, key: str = "t") -> pd.DataFrame:
        study = Study(13, minutes, workers=1, cache=cache)
        study.table(key, what, n, parts=parts, side="x")
        study.plan()
        return study.run()

    squares = _Squares()
    got = ask(squares, 6)
    # one item measured at the plan, the rest in one call: both parts together
    assert squares.calls == [([1, 2], 0, 1), ([1, 2], 1, 6)] and got.cut == {}
    pd.testing.assert_frame_equal(got["t"], _squares([1, 2], 6).assign(side="x"))
    # asked again, fewer or as many: read from the cache; more: only the items past it
    again = _Squares()
    pd.testing.assert_frame_equal(ask(again, 4)["t"], _squares([1, 2], 4).assign(side="x"))
    assert again.calls == []
    pd.testing.assert_frame_equal(ask(again, 9)["t"], _squares([1, 2], 9).assign(side="x"))
    assert again.calls == [([1, 2], 6, 9)]  # its cost a measure remembered
    # a stored file serves the parts it has rows of, up to the items it holds
    stored = tmp_path / "stored"
    stored.mkdir()
    _squares([2, 5], 20).to_csv(stored / "squares.csv", index=False)
    monkeypatch.setenv("GAMELIB_STORED", str(stored))
    served = _Squares(stored=("squares.csv", 20))
    parts = [{"k": 5}, {"k": 1}]
    pd.testing.assert_frame_equal(
        ask(served, 12, key="s")["s"], _squares([5, 1], 12).assign(side="x")
    )
    assert served.calls == [([1], 9, 10), ([1], 10, 12)]  # part 5 stored; part 1 cached to 9
    # a budget that pays for part of it: cut, said in one line, and replayed as it stopped
    capsys.readouterr()
    slow = _Squares(pause=0.05)
    parts = [{"k": 7}]
    cut = ask(slow, 400, minutes=0.01, key="slow")
    stop = cut.cut["slow"]
    assert 1 < stop < 400 and cut["slow"]["item"].max() < stop
    assert capsys.readouterr().out.endswith(
        f"slow: {stop:,} of the 400 items asked for (the time budget)\n"
    )
    replay = _Squares(pause=0.05)
    assert ask(replay, 400, minutes=0.01, key="slow").cut == {"slow": stop} and replay.calls == []
    with pytest.raises(ConfigError, match="asks for 0 items"):
        Study(13, 1, cache=cache).table("none", _Squares(), 0)
    # a clock stops the computing between batches: the rows of the items it got to, and how many
    import time

    from gamelib.study import Computed

    clocked = Computed("c", _Squares(pause=0.02), "squares", ('{"k": 9}',), 400, cache)
    rows = clocked.rows(400, time.monotonic() + 0.5)
    k = rows.attrs["items"]
    assert 1 <= k < 400 and rows["item"].max() < k and clocked.held() == k


def test_a_name_the_notebook_does_not_have_is_named_in_one_line():
    checks = type(check)()  # a fresh one, beside the notebooks' ``check``
    params = "SEED = 1\nLEVELS = ['greedy']  # a ladder\n"
    injected = "# Parameters\nGARNER_LEVELS = ['greedy']\n"
    check_cell = "check.only(globals())"
    checks.seed("SEED", 1)
    checks.players("LEVELS", ["greedy"], "garner")
    with pytest.raises(ParameterError, match=r"^GARNER_LEVELS is not a parameter of this notebook"):
        checks.only({"In": ["", params, injected, check_cell]})
    # what each check named is forgotten after the call: the next run of the cells starts afresh
    checks.seed("SEED", 1)
    with pytest.raises(
        ParameterError, match=r"^LEVELS is not a parameter .*\(its parameters: SEED\)"
    ):
        checks.only({"In": ["", params, check_cell]})
    # a name checked by the notebook's own code is declared with ``also``; a cell that is not
    # all UPPER_CASE assignments ends the parameters, and outside IPython nothing is compared
    checks.seed("SEED", 1)
    checks.only({"In": ["", params, check_cell]}, "LEVELS")
    checks.only({"In": ["", "x = 1", check_cell]})
    checks.only({})


@given(
    st.lists(st.tuples(st.integers(0, 40), st.integers(1, 12)), max_size=6),
    st.integers(0, 60),
)
def test_deal_ranges_say_the_prefix_held_and_the_gaps_to_play(chunks, n):
    from gamelib.sim.store import DealRanges

    pairs = [(a, a + size) for a, size in chunks]
    held = {d for a, b in pairs for d in range(a, b)}
    ranges = DealRanges.of(pairs)
    assert DealRanges.of({a: (b, "rows") for a, b in pairs}) == DealRanges.of(dict(pairs).items())
    k = ranges.prefix()
    assert set(range(k)) <= held and k not in held
    gaps = ranges.missing(n)
    assert {d for a, b in gaps for d in range(a, b)} == set(range(n)) - held
    assert all(a < b for a, b in gaps) and gaps == sorted(gaps)
    assert all(b1 < a2 for (_, b1), (a2, _) in itertools.pairwise(gaps))  # maximal gaps


def test_a_verdict_the_held_deals_decide_is_settled_without_a_clock_or_a_cost_probe(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    played: list[tuple[int, int]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    import gamelib.study as study_mod
    from gamelib.study import Study
    from gamelib.verdict.run import NeedsPlay

    monkeypatch.setenv("GAMELIB_STORED", "none")
    cache, qs = tmp_path / "cache", [Fair(0.3)]
    kw = {"seed": 13, "max_games": 300, "progress": False, "workers": 1}
    alone = verdict(CFG, ["greedy"], qs, cache=cache, **kw)  # the deals, now held
    assert alone.decision.iloc[0] != "undecided" and played
    # held deals alone: the same table; one look short of them: NeedsPlay, not a guess
    pd.testing.assert_frame_equal(
        verdict(CFG, ["greedy"], qs, cache=cache, held_only=True, **kw), alone
    )
    with pytest.raises(NeedsPlay):
        verdict(CFG, ["greedy"], [Fair(0.15)], cache=cache, held_only=True, **kw)
    played.clear()
    probed: list[object] = []
    monkeypatch.setattr(study_mod, "_write_cost", lambda *a: probed.append(a))
    study = Study(13, 1e-6, workers=1, cache=cache)  # a budget no play would fit
    study.verdict("fair", CFG, ["greedy"], qs, 300)
    study.verdict("tight", CFG, ["greedy"], [Fair(0.15)], 300)  # needs deals not held
    study.plan()
    out = capsys.readouterr().out
    assert out.startswith("1 decision(s) settled by the deals held: nothing to play\n1 run(s)")
    # the settled verdict is not in the plan: the one run planned is the tight one's
    answers = study.run()
    pd.testing.assert_frame_equal(answers["fair"].drop(columns=["asked"]), alone)
    assert "fair" not in answers.cut and played  # the tight one played past the held deals
    only = Study(13, 1e-6, workers=1, cache=cache)
    only.verdict("fair", CFG, ["greedy"], qs, 300)
    probed.clear()
    got = only.run()
    # a study every decision of which is settled plays nothing and times nothing
    assert probed == [] and "fair" not in got.cut
    pd.testing.assert_frame_equal(got["fair"].drop(columns=["asked"]), alone)
