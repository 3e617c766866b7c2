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
every verdict there, or when no finalist does ("keep the original", with the verdicts that
say why); otherwise print the best finalist that holds every verdict.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from gamelib.core import ConfigError
from gamelib.tune.report import verdict_words
from gamelib.tune.rungs import Rung, rung_rows, standing
from gamelib.tune.space import _is_int, changed
from gamelib.verdict import HOLDS, Question

__all__ = ["Judge", "Recommendation", "halve", "paired_measure", "recommend"]

#: a judge: (name, config, rung, rung index, seed, alpha) -> verdict rows
Judge = Callable[[str, Any, Rung, int, int, float], pd.DataFrame]


# --- successive halving --------------------------------------------------------------------


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
    if not _is_int(eta) or eta < 2:
        raise ConfigError(f"eta must be a whole number ≥ 2, got {eta!r}")
    if not _is_int(finalists) or finalists < 1:
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
    original, the top ``level``, and ``why``: sentences rendered from the verdict rows."""

    answer: str
    rules: str
    config: Any
    changes: str
    level: str
    why: list[str] = field(default_factory=list)


def recommend(
    top: pd.DataFrame,
    configs: Mapping[str, Any],
    top_rung: Rung,
    *,
    finalists: Sequence[str],
    rejected_at: str | None = None,
) -> Recommendation:
    """Keep the original when it holds every verdict at the top level or no finalist does;
    otherwise print the first finalist (best first) that holds every verdict there.
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
    return Recommendation("keep", "original", original, changed(original, original), level, why)
