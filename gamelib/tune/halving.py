"""Successive halving up a ladder of levels, and what to print at its top.

:func:`halve` is successive halving (Jamieson and Talwalkar 2016, "Non-stochastic best arm
identification and hyperparameter optimization", AISTATS; one bracket of Li et al. 2018,
"Hyperband", JMLR 18(185)) with verdicts as the rungs' judges: at each rung every live rule set
is judged (:func:`gamelib.tune.rungs.judge`), one whose constraint verdict fails is rejected,
the rest rank by their standing (:func:`gamelib.tune.rungs.standing`) and the best ``1/eta``
go up to the next rung, a stronger level with a larger game budget.  The original rules are
judged at every rung as the reference and never eliminated.  The judge is a parameter, so the
loop is tested on synthetic verdicts as well as on games.

:func:`recommend` reads the top level's verdicts: keep the original when it already holds
every verdict there; print the best finalist that holds every verdict where the original does
not; and when neither does, keep the original but say that no rule set is shown printable
(:meth:`Recommendation.headline`), with the verdicts that say why.

The pieces the search (:func:`gamelib.tune.fidelity.search`) strings together around them:
:func:`compare_top` (each finalist against the original on the same top-level deals),
:class:`Stages` (the search's time budget, shared out stage by stage), :func:`search_runs`
(what a search plays at most, for a plan before play) and where a finished search is kept
(:func:`serves`, :func:`cache_folder`, :func:`find_search`: the stored tier, else the study
cache; :func:`store_remade`: a search the cache remade becomes the stored one).
"""

from __future__ import annotations

import json
import math
import shutil
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from gamelib.core import ConfigError, config_to_json
from gamelib.registry import get_game
from gamelib.tune.report import verdict_words
from gamelib.tune.rungs import ROW, Rung, rung_rows, spec_key, standing, tagged_runs
from gamelib.tune.space import changed, is_int
from gamelib.verdict import HOLDS, Question

__all__ = [
    "Judge",
    "Recommendation",
    "Stages",
    "cache_folder",
    "compare_top",
    "find_search",
    "halve",
    "paired_measure",
    "recommend",
    "rung_sizes",
    "search_runs",
    "serves",
    "store_remade",
]

#: a judge: (name, config, rung, rung index, seed, alpha) -> verdict rows
Judge = Callable[[str, Any, Rung, int, int, float], pd.DataFrame]


# --- successive halving --------------------------------------------------------------------


def rung_sizes(first: int, rungs: int, eta: int) -> list[int]:
    """The most rule sets each of ``rungs`` halving rungs judges (besides the original):
    ``first`` at the first, then ``ceil(n / eta)`` of the rung below."""
    sizes = [first] if rungs else []
    while len(sizes) < rungs:
        sizes.append(math.ceil(sizes[-1] / eta))
    return sizes


def halve(
    candidates: Mapping[str, Any],
    rungs: Sequence[Rung],
    goal: Question,
    judge_at: Judge,
    *,
    seed: int,
    eta: int = 3,
    finalists: int = 1,
    alpha: float = 0.05,
    original: Any = None,
) -> tuple[pd.DataFrame, list[str]]:
    """Successive halving of ``candidates`` (name → config, best first) up ``rungs``: at rung
    r every live candidate (and ``original``, the reference, named ``"original"``, judged but
    never eliminated) is judged by ``judge_at(name, config, rung, r, seed + r, alpha)``; a
    rejected one (a constraint fails) is out, the rest rank by standing and the best
    ``ceil(n / eta)`` go on; after the last rung the best ``finalists`` remain (no rungs: the
    first ``finalists`` candidates).  Returns the verdict rows (with ``rung`` r, ``rules``,
    ``rejected``, ``rank`` — 0 when rejected or the original — and ``promoted``) and the
    finalists' names, best first."""
    if not is_int(eta) or eta < 2:
        raise ConfigError(f"eta must be a whole number ≥ 2, got {eta!r}")
    if not is_int(finalists) or finalists < 1:
        raise ConfigError(f"finalists must be a whole number ≥ 1, got {finalists!r}")
    alive = list(candidates)
    if not rungs:
        return pd.DataFrame(), alive[:finalists]
    frames = []
    for r, rung in enumerate(rungs):
        judged = {name: candidates[name] for name in alive}
        if original is not None:
            judged = {"original": original, **judged}
        marks: dict[str, dict[str, Any]] = {}
        rung_frames = []
        for name, config in judged.items():
            rows = judge_at(name, config, rung, r, seed + r, alpha)
            marks[name] = standing(rows, rung, goal)
            counts = rows["level"].isin(rung_rows(rows, rung)["level"].unique())
            rung_frames.append(rows.assign(rung=r, rules=name, counts=counts))
        ranked = sorted(
            (n for n in alive if not marks[n]["rejected"]), key=lambda n: marks[n]["key"]
        )
        last = r == len(rungs) - 1
        promoted = ranked[: finalists if last else math.ceil(len(alive) / eta)]
        for f in rung_frames:
            name = str(f["rules"].iloc[0])
            f["rejected"] = marks[name]["rejected"]
            f["rank"] = ranked.index(name) + 1 if name in ranked else 0
            f["promoted"] = name in promoted
        frames += rung_frames
        alive = promoted
        if not alive:
            break
    table = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    return table, alive


# --- the top: what to print ---------------------------------------------------------------


def paired_measure(goal: Question, orig_mirror: pd.DataFrame) -> str:
    """The goal's measure for the paired comparison: a solitaire's win; with two seats seat 0's
    points; with more, the seat the original treats least fairly."""
    from gamelib.verdict.questions import credit, seats_of

    seats = seats_of(orig_mirror)
    if len(seats) == 1:
        return "win"
    if len(seats) == 2:
        return "seat:0"
    gaps = [abs(float(np.mean(credit(orig_mirror, s))) - 1 / len(seats)) for s in seats]
    return f"seat:{seats[int(np.argmax(gaps))]}"


@dataclass
class Recommendation:
    """What to print: ``answer`` (``"print"`` a finalist or ``"keep"`` the original), the
    ``rules`` named (``"original"`` or a trial), their ``config`` and ``changes`` from the
    original, the top ``level``, ``why``: sentences rendered from the verdict rows, and
    ``shown``: whether the rules named hold every verdict at the top (a kept original that does
    not is no rule set shown printable: neither it nor a finalist holds them all)."""

    answer: str
    rules: str
    config: Any
    changes: str
    level: str
    why: list[str] = field(default_factory=list)
    shown: bool = True

    def headline(self) -> str:
        """The answer in words: ``print trial 7 (must_move=one)``, ``keep the original rules``
        (only when the original holds every verdict at the top), or that no rule set is shown
        printable there."""
        if self.answer == "print":
            return f"print {self.rules} ({self.changes})"
        if self.shown:
            return "keep the original rules"
        return (
            f"no rule set is shown printable at {self.level}: neither the original nor a tuned "
            "rule set holds every verdict there"
        )


def recommend(
    top: pd.DataFrame,
    configs: Mapping[str, Any],
    top_rung: Rung,
    *,
    finalists: Sequence[str],
    rejected_at: str | None = None,
) -> Recommendation:
    """Keep the original when it holds every verdict at the top level or no finalist does
    (then with ``shown=False``: no rule set is shown printable); otherwise print the first
    finalist (best first) that holds every verdict there.
    ``top``: the top-level verdict rows with a ``rules`` column; ``rejected_at``: why no
    finalist reached the top (every candidate rejected), said first."""
    original = configs["original"]

    def mine(name: str) -> pd.DataFrame:
        rows = top[top["rules"] == name]
        return rung_rows(rows, top_rung)

    def short(name: str) -> list[str]:
        return [verdict_words(r) for _, r in mine(name).iterrows() if r["decision"] != HOLDS]

    level = top_rung.level
    orig_rows = mine("original")
    if len(orig_rows) and (orig_rows["decision"] == HOLDS).all():
        why = [
            f"the original rules hold every verdict at {level}: "
            + "; ".join(verdict_words(r) for _, r in orig_rows.iterrows())
        ]
        why += [f"{n} is not needed: " + "; ".join(short(n) or ["it holds too"]) for n in finalists]
        return Recommendation("keep", "original", original, changed(original, original), level, why)
    for name in finalists:
        rows = mine(name)
        if len(rows) and (rows["decision"] == HOLDS).all():
            why = [
                f"{name} holds every verdict at {level}: "
                + "; ".join(verdict_words(r) for _, r in rows.iterrows())
            ]
            why.append("the original does not: " + "; ".join(short("original")))
            cfg = configs[name]
            return Recommendation("print", name, cfg, changed(original, cfg), level, why)
    why = [rejected_at] if rejected_at else []
    why += [
        f"{n} does not hold every verdict at {level}: " + "; ".join(short(n)) for n in finalists
    ]
    if len(orig_rows):
        why.append(f"the original at {level}: " + "; ".join(short("original")))
    unchanged = changed(original, original)
    return Recommendation("keep", "original", original, unchanged, level, why, shown=False)


# --- the top against the original, the time budget, what a search plays ---------------


def compare_top(
    configs: Mapping[str, Any],
    final: Sequence[str],
    goal: Question,
    top_rung: Rung,
    original_mirror: pd.DataFrame,
    *,
    seed: int,
    alpha: float,
    beta: float,
    workers: int | None,
    resume: Path | None,
    label: int,
    games: int,
    minutes: Callable[[], float | None] = lambda: None,
    executor: Any = None,
) -> tuple[pd.DataFrame, list[pd.DataFrame]]:
    """Each finalist against the original at the top level by
    :func:`gamelib.verdict.compare.compare`: the same deals under both rule sets, paired effect
    verdicts on the goal's measure and on the stall rate, at the goal's margin."""
    from gamelib.verdict.compare import Effect, compare

    margin = float(goal.margin_value() or 0.05)
    measures = [paired_measure(goal, original_mirror), "stall"]
    frames, played = [], []
    for name in final:
        tables: dict[str, list[pd.DataFrame]] = {}
        folder = None if resume is None else resume / spec_key("compare", name, seed, alpha)
        rows = compare(
            configs["original"],
            configs[name],
            [top_rung.level],
            [Effect(m, margin) for m in measures],
            change=changed(configs["original"], configs[name]),
            alpha=alpha,
            beta=beta,
            max_games=games,
            seed=seed,
            workers=workers,
            executor=executor,
            resume=folder,
            progress=False,
            tables=tables,
            max_minutes=minutes(),
        )
        frames.append(rows[ROW].assign(rules=name, measure_name=measures))
        for unit, (base_t, variant_t) in tables.items():
            for rules, cfg, t in (
                ("original", configs["original"], base_t),
                (name, configs[name], variant_t),
            ):
                played += tagged_runs(
                    cfg, {unit: [t]}, seed, rules=rules, rung=label, unit=f"compare {name}"
                )
    return (pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()), played


class Stages:
    """A search's time budget: each stage still to run (the screen, each rung of the halving,
    the top, the comparison) gets an equal share of what is left, and each verdict of a stage
    an equal share of what is left of its stage's (so neither the screen nor the first rule
    set can spend it all; what a stage leaves goes to the next)."""

    def __init__(self, minutes: float | None) -> None:
        self.end = None if minutes is None else time.monotonic() + 60.0 * minutes
        self.stage_end: float | None = None
        self.calls = 1

    def start(self, stages_left: int, calls: int) -> float | None:
        """Start a stage of ``calls`` verdicts, ``stages_left`` counting it: its seconds."""
        if self.end is None:
            return None
        now = time.monotonic()
        self.stage_end = now + max(0.0, self.end - now) / max(1, stages_left)
        self.calls = max(1, calls)
        return self.stage_end - now

    def share(self) -> float | None:
        """The minutes of the stage's next verdict (never 0: a verdict takes one look)."""
        if self.stage_end is None:
            return None
        left = max(0.0, self.stage_end - time.monotonic()) / self.calls
        self.calls = max(1, self.calls - 1)
        return max(1e-6, left / 60.0)


def _unbudgeted(spec: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in spec.items() if k != "max_minutes"}


def serves(stored: Mapping[str, Any], spec: Mapping[str, Any]) -> bool:
    """A finished search of specification ``stored`` answers one of ``spec``: the same search,
    run without a time budget or with at least the minutes ``spec`` allows."""
    if _unbudgeted(stored) != _unbudgeted(spec):
        return False
    have, want = stored.get("max_minutes"), spec.get("max_minutes")
    return have is None or (want is not None and have >= want)


def search_runs(spec: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The runs a search of ``spec`` plays at most, for a plan before play
    (``gamelib.study.Job(**run)``): per stage and level, the original rules' line-up with
    every verdict of the stage on its full game budget (the screen's trials, each rung's rule
    sets and the original, the top's finalists and the original, the comparison's two rule
    sets) — an upper bound; decided verdicts stop early and a time budget stops the rest."""
    from gamelib.records import config_from_json
    from gamelib.sim import n_seats

    game = get_game(spec["game"])
    base = config_from_json(game, spec["base"])
    seats = n_seats(base)
    ladder = [Rung.parse(r) for r in spec["rungs"]]
    top = Rung.parse(spec["top"])
    finalists = int(spec["finalists"])
    alive = rung_sizes(int(spec["keep"]), len(ladder) - 1, int(spec["eta"]))
    stages: list[tuple[str, Rung, int, int]] = [("screen", ladder[0], int(spec["budget"]), 0)]
    for r, (rung, n) in enumerate(zip(ladder[1:], alive, strict=False), start=1):
        stages.append((f"rung {r}", rung, 1 + n, 0))
    stages.append(("top", top, 1 + finalists, 0))
    compare = spec.get("compare_games", top.games)
    if compare:
        stages.append(("compare", top, 2 * finalists, int(compare)))
    out: list[dict[str, Any]] = []
    for label, rung, calls, games in stages:
        mirror = games or rung.games
        units = [(rung.level, [rung.level] * seats, False, mirror)]
        if rung.weaker and not games:
            if seats == 1:
                units.append((rung.pair() or "", [rung.weaker], False, rung.games))
            else:
                lineup = [rung.level] + [rung.weaker] * (seats - 1)
                units.append((rung.pair() or "", lineup, True, rung.games // seats))
        for unit, players, rotate, deals in units:
            out.append(
                {
                    "label": f"{game.name} {label} {unit}",
                    "config": base,
                    "players": players,
                    "deals": calls * max(1, deals),
                    "rotate_seats": rotate,
                }
            )
    return out


# --- where a finished search is kept ------------------------------------------------------


def cache_folder(spec: Mapping[str, Any], cache: bool | str | Path = True) -> Path:
    """Where the study cache keeps a search of ``spec``: ``<cache>/tune/<key of the spec>``
    (one folder whatever its time budget, so a larger budget resumes its screen)."""
    from gamelib.sim.deals import cache_root

    root, _ = cache_root(cache)
    return root / "tune" / spec_key(_unbudgeted(spec))


def _stored_searches() -> list[Path]:
    """The stored tier's search folders (each holding a ``ladder.json``)."""
    from gamelib.sim.deals import stored_folders

    return sorted(p.parent for f in stored_folders() for p in f.glob("*/ladder.json"))


def find_search(spec: Mapping[str, Any], cache: bool | str | Path = True) -> Path | None:
    """The folder of a finished search that answers ``spec`` (:func:`serves`): a stored one
    (any folder holding a ``ladder.json`` in the stored tier,
    :func:`gamelib.sim.deals.stored_folders`: ``data/results/`` unless ``$GAMELIB_STORED``
    says otherwise), else the study cache's (:func:`cache_folder`; ``cache=False``: the stored
    tier only); None when neither holds one."""
    folders = _stored_searches()
    if cache is not False:
        folders.append(cache_folder(spec, cache))
    for folder in folders:
        try:
            stored = json.loads((folder / "ladder.json").read_text())["spec"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if serves(stored, spec):
            return folder
    return None


def store_remade(cache: bool | str | Path = True) -> list[tuple[Path, Path]]:
    """Make the searches the study cache remade the stored ones: each stored search (a folder
    holding a ``ladder.json`` in the stored tier, :func:`gamelib.sim.deals.stored_folders`)
    whose search the cache holds finished (:func:`cache_folder` of its specification, whatever
    the time budget) is replaced by the cache's copy, so ``make results`` remakes 05's searches
    like every other stored study.  Returns (stored folder, remade folder) per replacement."""
    done = []
    for stored in _stored_searches():
        try:
            spec = json.loads((stored / "ladder.json").read_text())["spec"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        remade = cache_folder(spec, cache)
        if (remade / "ladder.json").is_file():
            shutil.rmtree(stored)
            shutil.copytree(remade, stored)
            done.append((stored, remade))
    return done


def combine_games(games: list[pd.DataFrame]) -> pd.DataFrame | None:
    from gamelib.sim import combine

    return combine(games) if games else None


def store_search(folder: Path, result: Any) -> None:
    """Write a finished search (a :class:`gamelib.tune.fidelity.SearchResult`) to ``folder``:
    its games (the outcome columns a verdict reads) and ``ladder.json``; its ``runs/`` go."""
    from gamelib.sim import save

    if result.games is not None:
        save(_slim(result.games), folder / "games.parquet")
    doc = {
        "spec": result.spec,
        "rungs": json.loads(result.rungs.to_json(orient="records")) if len(result.rungs) else [],
        "top": json.loads(result.top.to_json(orient="records")),
        "effects": json.loads(result.effects.to_json(orient="records"))
        if len(result.effects)
        else [],
        "recommendation": {
            "answer": result.recommendation.answer,
            "rules": result.recommendation.rules,
            "changes": result.recommendation.changes,
            "level": result.recommendation.level,
            "why": result.recommendation.why,
            "shown": result.recommendation.shown,
        },
        "configs": {k: config_to_json(v) for k, v in result.configs.items()},
        "seconds": {k: round(v, 1) for k, v in result.seconds.items()},
    }
    (folder / "ladder.json").write_text(json.dumps(doc, indent=1) + "\n")
    shutil.rmtree(folder / "runs", ignore_errors=True)


#: the outcome columns a verdict reads (the rest of a run's row is dropped when stored)
OUTCOME_COLUMNS = ("winner", "n_winners", "reason", "turns")


def _slim(games: pd.DataFrame) -> pd.DataFrame:
    from gamelib.sim import slim

    cols = [*OUTCOME_COLUMNS, *(c for c in games.columns if c.startswith("win_"))]
    return slim(games, [c for c in cols if c in games.columns])
