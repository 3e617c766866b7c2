"""gamelib.tune's multi-fidelity search: rungs and their verdicts, a rule set's standing,
successive halving on synthetic verdicts and on games, what to print at the top ("keep the
original" or a finalist), the search end to end with its storage, the command line, the
stored searches of notebook 05, and the package's one-way imports."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest

import gamelib.tune.fidelity as fidelity_mod
from gamelib.cli import main
from gamelib.core import ConfigError, ResumeError
from gamelib.gargon import GARGON
from gamelib.garner import GARNER
from gamelib.tune import (
    Choice,
    Rung,
    cache_folder,
    find_search,
    halve,
    judge,
    load_search,
    parse_question,
    question_text,
    recheck_search,
    recommend,
    search,
    space_table,
    space_text,
    standing,
    store_remade,
)
from gamelib.tune.spaces import SPACES
from gamelib.verdict import Fair, Length, Skill, Stalls, Target

ROOT = Path(__file__).resolve().parents[1]

# --- rungs and questions -------------------------------------------------------------------


def test_rungs_and_questions_read_back_from_their_text():
    for text in ("greedy=400", "mcts:200=4000/greedy", "rollout:50=2400/greedy:claim_characters"):
        assert Rung.parse(text).text() == text
    r = Rung.parse("mcts:200=4000/greedy")
    assert (r.level, r.games, r.weaker) == ("mcts:200", 4000, "greedy")
    assert r.levels() == ["greedy", "mcts:200"] and r.pair() == "mcts:200 v greedy"
    for q in (Fair(0.05), Target(0.3, 0.05), Stalls(0.05), Length(8, 40), Skill(0.03)):
        assert parse_question(question_text(q)) == q
    with pytest.raises(ConfigError, match="LEVEL=GAMES"):
        Rung.parse("mcts:200")
    with pytest.raises(ConfigError, match="another player"):
        Rung("greedy", 10, "greedy")
    with pytest.raises(ConfigError, match="write fair:MARGIN"):
        parse_question("fairness")
    with pytest.raises(ConfigError, match="margin"):
        parse_question("fair:0.7")


def _rows(spec: dict[str, tuple[str, float]], level: str = "greedy") -> pd.DataFrame:
    """Verdict rows by hand: question -> (decision, estimate); fair's band is 0.5 ± 0.05."""
    rows = []
    for q, (decision, est) in spec.items():
        band = (0.45, 0.55) if q == "fair" else (None, 0.05)
        rows.append(
            {
                "level": f"{level} v random" if q == "skill" else level,
                "question": q,
                "decision": decision,
                "estimate": est,
                "lo": est - 0.01,
                "hi": est + 0.01,
                "measure": q,
                "claim": f"{q} claim",
                "band_lo": band[0],
                "band_hi": band[1],
                "deals": 100,
                "games": 100,
                "margin": 0.05,
                "alpha": 0.05,
                "beta": 0.05,
                "more_deals": 0,
            }
        )
    return pd.DataFrame(rows)


def test_a_rule_set_that_stalls_above_the_ceiling_is_rejected_however_fair():
    rung = Rung("greedy", 100)
    fair_but_stalls = standing(
        _rows({"fair": ("holds", 0.5), "stalls": ("fails", 0.15)}), rung, Fair(0.05)
    )
    assert fair_but_stalls["rejected"] and fair_but_stalls["failed"] == ["stalls"]
    assert fair_but_stalls["value"] == pytest.approx(1.0)
    clean = standing(
        _rows({"fair": ("undecided", 0.53), "stalls": ("holds", 0.0)}), rung, Fair(0.05)
    )
    assert not clean["rejected"] and clean["distance"] == pytest.approx(0.03)
    assert clean["key"] < fair_but_stalls["key"]
    # the goal's decision ranks before its distance; the weaker level's rows do not count
    shown = standing(_rows({"fair": ("holds", 0.54), "stalls": ("holds", 0.0)}), rung, Fair(0.05))
    assert shown["key"] < clean["key"]
    # a constraint left undecided (a stall rate near the ceiling) ranks after one shown to hold
    near = standing(
        _rows({"fair": ("holds", 0.5), "stalls": ("undecided", 0.06)}), rung, Fair(0.05)
    )
    assert not near["rejected"] and near["undecided"] == ["stalls"]
    assert clean["key"] < near["key"] and shown["key"] < near["key"]
    other = _rows({"stalls": ("fails", 0.5)}, level="random")
    both = pd.concat([_rows({"fair": ("holds", 0.5), "stalls": ("holds", 0.0)}), other])
    assert not standing(both, rung, Fair(0.05))["rejected"]


def test_judge_rejects_real_games_that_stall_above_the_ceiling_after_a_quick_look():
    # four greedy Gargon players tie (no sole winner) in about 4% of games: above a 1% ceiling
    rung = Rung("greedy", 2000)
    tables: dict = {}
    rows = judge(GARGON.config("4p"), rung, Fair(0.05), [Stalls(0.01)], seed=3, tables=tables)
    mark = standing(rows, rung, Fair(0.05))
    assert mark["rejected"] and mark["failed"] == ["stalls"]
    stalls = rows[rows.question == "stalls"].iloc[0]
    assert stalls.lo > 0.01
    # the quick look (a quarter of the budget) rejected it: the goal is decided on its deals
    fair = rows[rows.question == "fair"].iloc[0]
    assert stalls.deals <= 500 and fair.deals <= 500 and len(tables["greedy"][0]) <= 500
    # without a failing constraint the full verdict runs, past the quick look
    rows = judge(GARGON.config("4p"), rung, Fair(0.05), [Stalls(0.2)], seed=3)
    assert not standing(rows, rung, Fair(0.05))["rejected"]
    assert rows[rows.question == "fair"].iloc[0].deals > 500
    # the same decision the full verdict reaches (the look adds no error)
    full = judge(GARGON.config("4p"), rung, Fair(0.05), [Stalls(0.01)], seed=3, quick=0)
    assert full[full.question == "stalls"].iloc[0].decision == "fails"


# --- successive halving on synthetic verdicts ----------------------------------------------


class Synthetic:
    """A judge whose verdicts are read off each rule set's true seat share and stall rate (a
    config here is a dict), recording every call; its games are the rung's budget."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int, int]] = []

    def __call__(self, name, config, rung, r, seed, alpha):
        self.calls.append((name, r, rung.games))
        share, stall = config["share"], config["stall"]
        fair = "holds" if abs(share - 0.5) < 0.05 else "fails"
        rows = _rows(
            {"fair": (fair, share), "stalls": ("fails" if stall > 0.05 else "holds", stall)},
            level=rung.level,
        )
        rows["games"] = rung.games
        return rows


def _candidates(shares, stalls=None):
    stalls = stalls or [0.0] * len(shares)
    return {
        f"trial {i}": {"share": s, "stall": t}
        for i, (s, t) in enumerate(zip(shares, stalls, strict=True))
    }


def test_successive_halving_promotes_only_survivors_and_spends_its_games_high_up():
    cands = _candidates(
        [0.70, 0.52, 0.66, 0.50, 0.58, 0.61, 0.49, 0.75, 0.56],
        [0.0, 0.0, 0.0, 0.20, 0.0, 0.0, 0.0, 0.0, 0.0],  # trial 3 is the fairest but stalls
    )
    rungs = [Rung("cautious", 100), Rung("mcts:50", 300), Rung("mcts:200", 900)]
    judge_at = Synthetic()
    table, final = halve(
        cands, rungs, Fair(0.05), judge_at, seed=1, eta=3, original={"share": 0.7, "stall": 0.0}
    )
    judged = {
        r: [n for n, rr, _ in judge_at.calls if rr == r and n != "original"] for r in range(3)
    }
    assert len(judged[0]) == 9 and len(judged[1]) == 3 and len(judged[2]) == 1
    for r in (0, 1):  # only the promoted go up
        promoted = set(table[(table.rung == r) & table.promoted].rules)
        assert set(judged[r + 1]) == promoted
    assert "trial 3" not in judged[1]  # rejected for its stalls at the first rung
    assert final == ["trial 6"] and judged[2] == ["trial 6"]
    # the original is judged at every rung as the reference, and never promoted
    assert [r for n, r, _ in judge_at.calls if n == "original"] == [0, 1, 2]
    assert not table[table.rules == "original"].promoted.any()
    # games: each rule set gets more at a higher rung, and the ladder plays far fewer games than
    # judging every candidate at the top would
    per_rung = table.drop_duplicates(["rung", "rules"]).groupby("rung").games.first()
    assert per_rung.is_monotonic_increasing and per_rung.iloc[0] < per_rung.iloc[-1]
    spent = sum(g for _, _, g in judge_at.calls)
    assert spent < (len(cands) + 1) * rungs[-1].games / 2


def test_halving_with_every_candidate_rejected_leaves_no_finalist():
    cands = _candidates([0.5, 0.5], [0.3, 0.3])
    table, final = halve(cands, [Rung("greedy", 10)], Fair(0.05), Synthetic(), seed=1)
    assert final == [] and set(table.rules) == {"trial 0", "trial 1"} and table.rejected.all()
    _, none = halve(cands, [], Fair(0.05), Synthetic(), seed=1, finalists=1)
    assert none == ["trial 0"]
    with pytest.raises(ConfigError, match="eta"):
        halve(cands, [Rung("greedy", 10)], Fair(0.05), Synthetic(), seed=1, eta=1)


# --- what to print -------------------------------------------------------------------------

TOP = Rung("mcts:200", 1000)


def _top(**by_rules: dict[str, tuple[str, float]]) -> pd.DataFrame:
    return pd.concat(
        [_rows(spec, level=TOP.level).assign(rules=name) for name, spec in by_rules.items()],
        ignore_index=True,
    )


CONFIGS = {"original": GARNER.config("A"), "trial 7": replace(GARNER.config("A"), must_move="one")}


def test_keep_the_original_when_it_already_holds_every_verdict():
    top = _top(
        original={"fair": ("holds", 0.51), "stalls": ("holds", 0.0)},
        **{"trial 7": {"fair": ("holds", 0.5), "stalls": ("holds", 0.0)}},
    )
    rec = recommend(top, CONFIGS, TOP, finalists=["trial 7"])
    assert rec.answer == "keep" and rec.rules == "original" and rec.config == CONFIGS["original"]
    assert "the original rules hold every verdict at mcts:200" in rec.why[0]


def test_print_a_finalist_only_where_it_holds_every_verdict_and_the_original_does_not():
    top = _top(
        original={"fair": ("fails", 0.7), "stalls": ("holds", 0.0)},
        **{"trial 7": {"fair": ("holds", 0.5), "stalls": ("holds", 0.0)}},
    )
    rec = recommend(top, CONFIGS, TOP, finalists=["trial 7"])
    assert rec.answer == "print" and rec.rules == "trial 7" and rec.changes == "must_move=one"
    assert "fair fails" in rec.why[1] and "0.700" in rec.why[1]
    # the same finalist with a stall verdict still open: not shown, so keep the original
    open_top = _top(
        original={"fair": ("fails", 0.7), "stalls": ("holds", 0.0)},
        **{"trial 7": {"fair": ("holds", 0.5), "stalls": ("undecided", 0.04)}},
    )
    kept = recommend(open_top, CONFIGS, TOP, finalists=["trial 7"])
    assert kept.answer == "keep" and "stalls undecided" in kept.why[0]


def test_keep_the_original_when_no_candidate_is_better_than_it():
    # a synthetic objective under which every candidate is less fair than the original, so
    # none holds the goal at the top: the answer is "keep the original", and says why
    cands = _candidates([0.62, 0.65, 0.70, 0.68])
    original = {"share": 0.56, "stall": 0.0}
    judge_at = Synthetic()
    rungs = [Rung("cautious", 100), Rung("mcts:50", 300)]
    _, final = halve(cands, rungs, Fair(0.05), judge_at, seed=1, original=original)
    configs = {"original": CONFIGS["original"], **{n: CONFIGS["trial 7"] for n in cands}}
    rows = [
        judge_at(n, c, TOP, 2, 9, 0.05).assign(rules=n)
        for n, c in {"original": original, **{f: cands[f] for f in final}}.items()
    ]
    rec = recommend(pd.concat(rows, ignore_index=True), configs, TOP, finalists=final)
    assert final and rec.answer == "keep" and rec.rules == "original"
    assert any("does not hold every verdict" in w and "fair fails" in w for w in rec.why)
    none = recommend(rows[0], configs, TOP, finalists=[], rejected_at="every candidate failed")
    assert none.answer == "keep" and none.why[0] == "every candidate failed"


# --- the search end to end -----------------------------------------------------------------

SPACE = {"must_move": Choice(["none", "one", "all"]), "straight_line": Choice([False, True])}
ARGS = dict(
    goal="fair:0.05",
    constraints=["stalls:0.05", "length:8..40", "skill:0.03"],
    rungs=["random=100", "greedy=300"],
    top="cautious=600/greedy",
    budget=6,
    seed=4,
    setup="A",
    keep=3,
    progress=False,
)


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ladder") / "s"
    return folder, search("garner", SPACE, storage=folder, **ARGS)


def test_a_search_screens_halves_and_confirms_at_the_top_on_fresh_deals(small):
    _, result = small
    screened = result.trials[result.trials.state == "COMPLETE"]
    assert len(result.trials) == 6
    at_rung1 = set(result.rungs[result.rungs.rung == 1].rules) - {"original"}
    assert 0 < len(at_rung1) <= 3 and at_rung1 <= {f"trial {n}" for n in screened.number}
    final = result.top.rules.unique().tolist()
    assert final[0] == "original" and len(final) == 2
    assert final[1] in set(result.rungs[(result.rungs.rung == 1) & result.rungs.promoted].rules)
    # the top plays fresh deals: its seed is none of the screen's or the rungs'
    assert result.spec["confirm_seed"] not in (4, 5) and result.spec["confirm_seed"] == 6
    top_runs = [r for r in result.games.attrs["provenance"]["runs"] if r["seed"] == 6]
    assert top_runs and all(r["seed"] == 6 for r in top_runs)
    # a finalist at the top plays more games than any screened rule set did at the screen
    screen_games = max(v["games"] for vs in screened.verdicts for v in vs)
    top_games = result.top[(result.top.rules == final[1]) & (result.top.level == "cautious")]
    assert top_games.games.max() > screen_games
    # the comparison with the original: the goal's measure and the stall rate, paired
    assert result.effects.measure_name.tolist() == ["seat:0", "stall"]
    assert (result.effects.rules == final[1]).all()
    rec = result.recommendation
    assert rec.answer in ("keep", "print") and rec.level == "cautious" and rec.why
    text = result.summary()
    assert "recommendation at cautious:" in text and "screen random=100 (6 trials" in text


def test_a_finished_search_is_read_back_without_a_game_and_its_prefix_replays(small, monkeypatch):
    folder, result = small

    def no_games(*args, **kwargs):
        raise AssertionError("a finished search must not play")

    monkeypatch.setattr(fidelity_mod, "judge", no_games)
    again = search("garner", SPACE, storage=folder, **ARGS)
    loaded = load_search(folder)
    for other in (again, loaded):
        assert other.recommendation.answer == result.recommendation.answer
        assert other.recommendation.why == result.recommendation.why
        pd.testing.assert_frame_equal(
            other.top[["rules", "level", "question", "decision", "deals"]],
            result.top[["rules", "level", "question", "decision", "deals"]],
        )
    assert not (folder / "runs").exists()
    monkeypatch.undo()
    checks = recheck_search(folder, trials=2, deals=1)
    assert len(checks) == 2 + len(result.games.attrs["provenance"]["runs"])
    assert all(c["same"] for c in checks), [c["what"] for c in checks if not c["same"]]


def test_a_stored_search_that_drifts_from_the_code_fails_its_recheck(small, tmp_path):
    import shutil

    from gamelib.sim import load, save

    folder, _ = small
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    games = load(copy / "games.parquet")
    games.loc[0, "winner"] = 1 - int(games.loc[0, "winner"])  # one stored game altered
    save(games, copy / "games.parquet")
    checks = recheck_search(copy, trials=0, deals=1)
    assert not checks[0]["same"] and all(c["same"] for c in checks[1:])


def test_the_stored_searches_follow_the_stored_tier_and_a_remade_one_replaces_its_own(
    small, tmp_path, monkeypatch
):
    import json
    import shutil

    folder, result = small
    stored = tmp_path / "stored" / "tune-garner"
    shutil.copytree(folder, stored)
    monkeypatch.setenv("GAMELIB_STORED", str(stored.parent))
    assert find_search(result.spec, cache=False) == stored
    monkeypatch.setenv("GAMELIB_STORED", "none")  # make results: every search is made again
    assert find_search(result.spec, cache=False) is None
    assert store_remade(tmp_path / "cache") == []
    # the search the cache remade (another time budget, another clock) becomes the stored one
    remade = cache_folder(result.spec, tmp_path / "cache")
    shutil.copytree(folder, remade)
    doc = json.loads((remade / "ladder.json").read_text())
    doc["spec"]["max_minutes"], doc["seconds"] = 600, 123.0
    (remade / "ladder.json").write_text(json.dumps(doc))
    monkeypatch.setenv("GAMELIB_STORED", str(stored.parent))
    assert store_remade(tmp_path / "cache") == [(stored, remade)]
    assert json.loads((stored / "ladder.json").read_text()) == doc
    assert sorted(p.name for p in stored.iterdir()) == sorted(p.name for p in remade.iterdir())


def test_a_search_refuses_a_screen_of_another_specification(small):
    folder, _ = small
    with pytest.raises(ResumeError, match="another"):
        search("garner", SPACE, storage=folder, **{**ARGS, "goal": "fair:0.03"})


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"goal": "stalls:0.05"}, "not a goal"),
        ({"constraints": ["fair:0.05"]}, "the goal is asked already"),
        ({"constraints": ["stalls:0.05", "stalls:0.1"]}, "each question once"),
        ({"rungs": []}, "at least the screen"),
        ({"top": "nobody=10"}, "nobody"),
        ({"confirm_seed": 5}, "fresh deals"),
        ({"budget": 0}, "budget"),
    ],
)
def test_bad_search_arguments_are_named_before_any_game(change, match):
    with pytest.raises(Exception, match=match):
        search("garner", SPACE, **{**ARGS, **change})


def test_cli_runs_the_multi_fidelity_search(tmp_path, capsys):
    args = [
        "tune",
        "garner",
        "--setup",
        "A",
        "--space",
        "must_move=none,one,all",
        "--goal",
        "fair:0.05",
        "--constraint",
        "stalls:0.05",
        "--rung",
        "random=100",
        "--rung",
        "greedy=200",
        "--confirm-at",
        "cautious=300/greedy",
        "--compare-games",
        "0",
        "--budget",
        "3",
        "--keep",
        "2",
        "--seed",
        "8",
        "--no-progress",
        "--storage",
        str(tmp_path / "s"),
    ]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "recommendation at cautious:" in out and "rung 1 greedy=200" in out
    assert " v original at " not in out  # --compare-games 0: the top verdicts side by side only
    assert (tmp_path / "s" / "ladder.json").is_file()
    for bad, match in (
        (["--objective", "seat0"], "two searches"),
        (["--rung", "greedy"], "LEVEL=GAMES"),
        (["--constraint", "sometimes"], "write fair:MARGIN"),
        (["--eta", "1"], "--eta must be at least 2"),
    ):
        assert main([*args, *bad]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and match in err[0], err
    no_top = [a for a in args if a not in ("--confirm-at", "cautious=300/greedy")]
    assert main(no_top) == 2 and "--confirm-at" in capsys.readouterr().err


# --- the stored searches of notebook 05 ----------------------------------------------------

#: every stored search by its folder's name (Gargon's one per player count: tune-gargon is 4p)
STORED = {p.parent.name: p.parent for p in sorted(ROOT.glob("data/results/tune-*/ladder.json"))}


def test_the_notebook_searches_are_stored_small_with_the_printable_spaces():
    assert {f"tune-{g.replace('_', '-')}" for g in SPACES} <= set(STORED)  # one a game at least
    assert "tune-gargon-5p" in STORED  # where Gargon's original is not printable (notebook 06)
    for folder in STORED.values():
        result = load_search(folder)
        game = result.spec["game"]
        assert result.spec["space"] == space_text(SPACES[game]()), game
        assert (folder / "journal.log").stat().st_size < 2_000_000
        assert (folder / "games.parquet").stat().st_size < 5_000_000
        assert not (folder / "runs").exists()
        assert space_table(SPACES[game]()).attrs["size"] > 100


@pytest.mark.parametrize("name", list(STORED), ids=str)
def test_a_stored_search_replays_its_first_trials_and_the_first_deal_of_every_run(name):
    checks = recheck_search(STORED[name], trials=2, deals=1)
    bad = [c["what"] for c in checks if not c["same"]]
    assert not bad, (name, bad)


# --- the package's layering ----------------------------------------------------------------

#: gamelib.tune's modules, lowest first: each imports only modules before it
ORDER = ["space", "spaces", "objectives", "rungs", "report", "study", "halving", "fidelity"]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_tune_imports_go_one_way():
    pkg = ROOT / "gamelib" / "tune"
    assert sorted(p.stem for p in pkg.glob("*.py") if p.stem != "__init__") == sorted(ORDER)
    for i, name in enumerate(ORDER):
        used = {
            m.split(".")[2] for m in _imports(pkg / f"{name}.py") if m.startswith("gamelib.tune.")
        }
        assert used <= set(ORDER[:i]), (name, used - set(ORDER[:i]))
    # nothing below the tuner imports it (the command line and the declared study sit above it)
    for path in (ROOT / "gamelib").rglob("*.py"):
        if path.relative_to(ROOT / "gamelib").parts[0] in ("tune", "cli", "study.py"):
            continue
        assert not any(m.startswith("gamelib.tune") for m in _imports(path)), path


def test_every_tune_module_says_what_it_owns_and_stays_small():
    for path in (ROOT / "gamelib" / "tune").glob("*.py"):
        tree = ast.parse(path.read_text())
        assert ast.get_docstring(tree), path.name
        assert len(path.read_text().splitlines()) <= 620, path.name
