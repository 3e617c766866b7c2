"""A rule search declared on a study (``Study.tune``): a finished search answers it with nothing
to play, a search that fits its share of the budget runs to its end, one that does not runs with
its share as its clock and the same study again reads it back; its parameters are checked in
one line.  And a finished search read by gamelib (``search_findings``, ``search_table``,
``rejection_table``): each sentence and number is supported by the search's own tables."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest

import gamelib.tune as tune_pkg
import gamelib.tune.fidelity as fidelity_mod
from gamelib.core import ConfigError, config_to_json
from gamelib.garner import GARNER
from gamelib.stats import interval_text
from gamelib.study import ParameterError, Study, check
from gamelib.tune import (
    Choice,
    Rung,
    SearchResult,
    cache_folder,
    load_search,
    recommend,
    rejection_table,
    search_findings,
    search_spec,
    search_table,
)
from gamelib.tune.rungs import rung_rows
from gamelib.tune.spaces import SPACES

ROOT = Path(__file__).resolve().parents[1]
SPACE = {"must_move": Choice(["none", "one", "all"]), "straight_line": Choice([False, True])}
#: a tiny search: three trials, two rung-1 rule sets, the top at greedy (seconds of play)
ARGS = dict(
    setup="A",
    goal="fair:0.05",
    constraints=["stalls:0.05", "skill:0.03"],
    rungs=["random=60", "greedy=100"],
    top="greedy=150/random",
    budget=3,
    keep=2,
    compare_games=100,
)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A study cache of the test's own (its costs and budget stops too), the stored tier off."""
    monkeypatch.setenv("GAMELIB_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("GAMELIB_STORED", "none")
    return tmp_path / "cache"


def _no_play(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_games(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("a search the study holds must not play")

    monkeypatch.setattr(fidelity_mod, "judge", no_games)


def _study(seed: int, minutes: float) -> Study:
    study = Study(seed, minutes, workers=1)
    study.tune("search", "garner", SPACE, **ARGS)
    return study


def test_a_search_runs_with_its_share_as_its_clock_and_the_same_study_reads_it_back(
    cache: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    study = _study(4, 5)
    study.plan()
    # the runs the search plays at most, each line-up of the original rules once: none held
    assert capsys.readouterr().out.startswith("3 run(s): 0 deals stored, ")
    answers = study.run()
    result = answers["search"]
    assert isinstance(result, SearchResult)
    # its share of the budget (all of it: the only ask), with the budget's slack, is its clock,
    # fitting or not (no cap of deals bounds a search); the rest of its spec is the arguments'
    # with the study's seed and error rates
    assert result.spec["max_minutes"] == pytest.approx(1.5 * 5 + 0.1)
    rest = {k: v for k, v in result.spec.items() if k != "max_minutes"}
    assert rest == search_spec("garner", SPACE, seed=4, **ARGS)
    assert result.folder == cache_folder(result.spec) and result.recommendation.why
    # a search's stop is no count of deals: the answers' cut leaves it out
    assert answers.cut == {} and len(study.budget.cut) == 1  # type: ignore[union-attr]
    # the same study again reads it back, however much of its budget is left: nothing plays
    with monkeypatch.context() as m:
        _no_play(m)
        got = _study(4, 5).run()["search"]
    assert got.spec == result.spec and got.recommendation == result.recommendation
    pd.testing.assert_frame_equal(got.top, result.top)
    # a finished search without a time budget answers the ask with nothing to play, said in
    # the plan with where it is kept
    stored = cache.parent / "stored" / "tune-garner"
    shutil.copytree(result.folder, stored)
    doc = json.loads((stored / "ladder.json").read_text())
    del doc["spec"]["max_minutes"]
    (stored / "ladder.json").write_text(json.dumps(doc))
    monkeypatch.setenv("GAMELIB_STORED", str(stored.parent))
    with monkeypatch.context() as m:
        _no_play(m)
        held = _study(4, 5)
        capsys.readouterr()
        held.plan()
        out = capsys.readouterr().out
        assert out.startswith(f"search: the search in {stored} answers it: nothing to play\n")
        assert "0 run(s): 0 deals stored, 0 to play" in out
        kept = held.run()["search"]
    assert kept.folder == stored and "max_minutes" not in kept.spec
    pd.testing.assert_frame_equal(kept.top, result.top)
    # another budget is another share, never this study's stop: a search with its own clock
    monkeypatch.setenv("GAMELIB_STORED", "none")
    asked: list[float | None] = []

    def recorded(*args, **kwargs):  # type: ignore[no-untyped-def]
        asked.append(kwargs["max_minutes"])
        return "searched"

    monkeypatch.setattr(tune_pkg, "search", recorded)
    assert _study(4, 0.5).run()["search"] == "searched"
    assert asked == [pytest.approx(1.5 * 0.5 + 0.1)]
    capsys.readouterr()


def test_a_stored_search_is_named_by_its_folder_in_the_plan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GAMELIB_CACHE", str(tmp_path / "cache"))
    spec = load_search(ROOT / "data" / "results" / "tune-garner").spec
    args = {k: spec[k] for k in ("goal", "constraints", "rungs", "top", "budget", "keep", "eta")}
    study = Study(spec["seed"], 1, workers=1)
    study.tune("garner", "garner", SPACES["garner"](), setup="A", **args)
    study.plan()
    assert capsys.readouterr().out.startswith(
        "garner: the search in data/results/tune-garner answers it: nothing to play\n"
        "0 run(s): 0 deals stored, 0 to play"
    )


def test_a_search_ask_refuses_what_the_study_sets_and_bad_arguments_before_any_game(
    cache: Path,
) -> None:
    study = Study(1, 1)
    with pytest.raises(ConfigError, match="sets alpha, seed itself"):
        study.tune("s", "garner", SPACE, seed=2, alpha=0.1, **ARGS)
    with pytest.raises(ConfigError, match="LEVEL=GAMES"):
        study.tune("s", "garner", SPACE, **{**ARGS, "top": "mcts:200"})
    study.tune("s", "garner", SPACE, **ARGS)
    with pytest.raises(ConfigError, match="asks 's' twice"):
        study.tune("s", "garner", SPACE, **ARGS)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({**ARGS, "rungs": ["cautious=400"], "top": "mcts:200"}, "X: rung 'mcts:200': write"),
        ({**ARGS, "goal": "target:0.3:0.05"}, "X: goal target:0.3:0.05: garner asks fair"),
        ({k: v for k, v in ARGS.items() if k != "budget"}, "X must be a dict of budget, "),
        ({**ARGS, "storage": "here"}, "(and optionally compare_games, confirm_seed, eta"),
        ("fair", "X must be a dict of budget, constraints, goal, rungs, top"),
        ({**ARGS, "budget": 0}, "X: budget must be a whole number ≥ 1"),
    ],
)
def test_a_bad_search_parameter_gets_one_line_naming_it(value, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ParameterError) as info:
        check.search("X", value, "garner", SPACE, seed=1)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_good_search_parameters_pass_through() -> None:
    assert check.search("X", ARGS, "garner", SPACE, seed=1, alpha=0.1) == ARGS


# ---- a finished search in words and tables -------------------------------------------------

TOP = Rung("mcts:200", 1000, "greedy")
ORIGINAL = GARNER.config("A")
CONFIGS = {
    "original": ORIGINAL,
    "trial 7": replace(ORIGINAL, must_move="one"),
    "trial 9": replace(ORIGINAL, straight_line=True),
}


def _rows(rules: str, fair: str, stalls: str, skill: str = "holds") -> pd.DataFrame:
    """Top-level verdict rows by hand: the level's fair and stalls, the pair's skill."""
    rows = []
    for level, q, decision, est in (
        (TOP.level, "fair", fair, 0.52),
        (TOP.level, "stalls", stalls, 0.01),
        (TOP.pair(), "skill", skill, 0.7),
    ):
        rows.append(
            {"level": level, "question": q, "decision": decision, "estimate": est,
             "lo": est - 0.02, "hi": est + 0.02, "measure": q, "claim": f"{q} claim",
             "deals": 400, "more_deals": 0 if decision != "undecided" else 900, "rules": rules}
        )  # fmt: skip
    return pd.DataFrame(rows)


def _effects(rules: str, decisions: tuple[str, str]) -> pd.DataFrame:
    return pd.DataFrame(
        {"rules": rules, "level": TOP.level, "decision": list(decisions),
         "measure": ["change in seat 0's share of the points", "change in the stall rate"],
         "estimate": [-0.21, 0.004], "lo": [-0.3, -0.04], "hi": [-0.12, 0.048],
         "margin": 0.05, "deals": [304, 1243]}
    )  # fmt: skip


def _result(top: pd.DataFrame, effects: pd.DataFrame) -> SearchResult:
    final = [n for n in top["rules"].unique() if n != "original"]
    spec = {"game": "garner", "base": config_to_json(ORIGINAL), "top": TOP.text(),
            "confirm_seed": 2029, "alpha": 0.05, "beta": 0.05}  # fmt: skip
    rec = recommend(top, CONFIGS, TOP, finalists=final)
    empty = pd.DataFrame()
    return SearchResult(spec, empty, empty, top, effects, rec, CONFIGS, None, {})


def _supported(result: SearchResult, items: list[str]) -> None:
    """Each sentence of ``search_findings`` is what the search's own tables say."""
    top, rec, spec = result.top, result.recommendation, result.spec
    rung, head = Rung.parse(spec["top"]), items[0]

    def holds_all(rules: str) -> bool:
        rows = rung_rows(top[top["rules"] == rules], rung)
        return bool(len(rows)) and bool((rows["decision"] == "holds").all())

    finals = [n for n in top["rules"].unique() if n != "original"]
    assert head.startswith("**") and f": {rec.headline()}.**" in head
    if rec.answer == "print":  # a finalist that holds every verdict where the original does not
        assert f"print {rec.rules} (" in head and holds_all(rec.rules)
        assert not holds_all("original")
    elif "keep the original rules" in head:
        assert rec.shown and holds_all("original")
    else:
        assert f"no rule set is shown printable at {rung.level}" in head
        assert not holds_all("original") and not any(holds_all(n) for n in finals)
    n, alpha = max(1, len(finals)), spec["alpha"]
    assert f"each verdict at α = {alpha / n:g} (α = {alpha} over {n} finalist" in head
    assert f"fresh deals (seed {spec['confirm_seed']})" in head and " · ".join(rec.why) in head
    assert len(items) == 1 + len(result.effects)
    for text, e in zip(items[1:], result.effects.itertuples(), strict=True):
        word = {"holds": "no effect within", "fails": "a decided effect beyond",
                "undecided": "undecided against"}[e.decision]  # fmt: skip
        assert f"{interval_text(e.estimate, e.lo, e.hi)}: {word} ±{e.margin:g}" in text
        assert f"({int(e.deals):,} deals)." in text and f", {e.rules} (" in text


@pytest.mark.parametrize(
    ("rows", "effects", "answer"),
    [
        (  # the finalist holds everything, the original's fairness fails: print it
            [_rows("original", "fails", "holds"), _rows("trial 7", "holds", "holds")],
            _effects("trial 7", ("fails", "holds")),
            "print trial 7 (must_move=one)",
        ),
        (  # the original holds everything: keep it
            [_rows("original", "holds", "holds"), _rows("trial 7", "holds", "undecided")],
            _effects("trial 7", ("undecided", "holds")),
            "keep the original rules",
        ),
        (  # neither holds everything, two finalists: no rule set shown printable, α / 2
            [
                _rows("original", "fails", "holds"),
                _rows("trial 7", "undecided", "holds"),
                _rows("trial 9", "holds", "holds", skill="undecided"),
            ],
            pd.concat(
                [
                    _effects("trial 7", ("fails", "holds")),
                    _effects("trial 9", ("fails", "undecided")),
                ],
                ignore_index=True,
            ),
            "no rule set is shown printable",
        ),
    ],
    ids=["print", "keep", "none shown"],
)
def test_a_search_s_findings_say_what_its_top_verdicts_and_effects_say(rows, effects, answer):  # type: ignore[no-untyped-def]
    result = _result(pd.concat(rows, ignore_index=True), effects)
    items = search_findings(result)
    assert answer in items[0]
    _supported(result, items)


@pytest.mark.parametrize("folder", sorted(ROOT.glob("data/results/tune-*")), ids=lambda p: p.name)
def test_a_stored_search_s_findings_and_tables_are_its_own(folder: Path) -> None:
    result = load_search(folder)
    _supported(result, search_findings(result))
    row = search_table({"s": result}).loc["s"]
    trials, spec = result.trials, result.spec
    assert row["search"] == f"data/results/{folder.name}" and row["time budget"] == "none"
    assert row["screen trials"] == f"{len(trials)} of {spec['budget']}"
    assert row["complete"] + row["refused by the game"] == len(trials)
    assert row["answer"] == (
        result.recommendation.answer if result.recommendation.shown else "none shown printable"
    )
    # what the rungs rejected: constraints only, each a rule set's failed verdict there
    rejected = rejection_table(result)
    assert spec["goal"].split(":")[0] not in set(rejected["question"])
    at_screen = rejected[rejected["rung"].str.endswith("(screen)")]
    out = int(trials["rejected"].fillna(False).astype(bool).sum())
    assert (at_screen["rule sets"] <= out).all() and at_screen["rule sets"].sum() >= out
    g = result.rungs
    for _, x in rejected.drop(at_screen.index).iterrows():
        k = int(x["rung"].split(":")[0])
        there = g[(g["rung"] == k) & (g["question"] == x["question"]) & (g["decision"] == "fails")]
        assert there["rejected"].astype(bool).sum() >= x["rule sets"], (folder.name, k)
