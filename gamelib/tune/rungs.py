"""One rung of a multi-fidelity search: a rule set judged by verdicts at one player level.

A **rung** is a player level and a game budget (:class:`Rung`: ``greedy=400``, ``mcts:200=4000``,
optionally ``/WEAKER``, the level skill is decided against).  A rule set is judged at a rung by
:func:`gamelib.verdict.verdict`: the **goal** (:class:`~gamelib.verdict.Fair` for a game with
opponents, :class:`~gamelib.verdict.Target` for the solitaire) and the **constraints**
(:class:`~gamelib.verdict.Stalls` below a ceiling, :class:`~gamelib.verdict.Length` inside a
range, :class:`~gamelib.verdict.Skill` shows against the weaker level), each decided holds /
fails / undecided with error rates α and β, playing deals in batches until decided or until the
rung's budget runs out (:func:`judge`).

Its **standing** there (:func:`standing`): a rule set is *rejected* when a constraint fails (a
rule set that stalls above the ceiling is out, however fair its decided games are); the others
rank first by how many constraints are left undecided (a rule set shown not to stall goes
before one whose stall rate sits near the ceiling), then by the goal's decision (holds before
undecided before fails) and then by the goal's distance from the centre of its band (seat
shares from the fair share; a win rate from the target).  The search's scalar for Optuna is
that distance plus one for each failed constraint.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from gamelib.core import ConfigError
from gamelib.verdict import (
    COLUMNS,
    FAILS,
    HOLDS,
    UNDECIDED,
    Fair,
    Length,
    Question,
    Skill,
    Stalls,
    Target,
)

__all__ = [
    "QUESTION_HELP",
    "Rung",
    "goal_center",
    "judge",
    "parse_question",
    "question_text",
    "rung_rows",
    "standing",
]

#: the command line's forms of a verdict question
QUESTION_HELP = (
    "fair:MARGIN (every seat within ±MARGIN of its fair share), target:RATE:MARGIN (a "
    "solitaire's win rate), stalls:CEILING, length:LO..HI (median turns), skill:MARGIN (the "
    "rung's level beats its weaker level by MARGIN)"
)

#: the verdict row columns a search keeps: gamelib.verdict.COLUMNS but the design
ROW = [c for c in COLUMNS if c != "design"]


#: the order a goal's decision ranks in
_RANK = {HOLDS: 0, UNDECIDED: 1, FAILS: 2}


def question_text(q: Question) -> str:
    """A verdict question as the command line writes it (``fair:0.05``, ``length:8..40``)."""
    if isinstance(q, Fair):
        return f"fair:{q.margin:g}"
    if isinstance(q, Target):
        return f"target:{q.rate:g}:{q.margin:g}"
    if isinstance(q, Stalls):
        return f"stalls:{q.ceiling:g}"
    if isinstance(q, Length):
        return f"length:{q.lo}..{q.hi}"
    if isinstance(q, Skill):
        return f"skill:{q.margin:g}"
    raise ConfigError(f"{q!r}: a search asks fair, target, stalls, length or skill")


def parse_question(text: str) -> Question:
    """A verdict question from its text (see :data:`QUESTION_HELP`)."""
    kind, _, rest = text.strip().partition(":")
    args = rest.split(":") if rest else []
    try:
        if kind == "fair" and len(args) == 1:
            return Fair(float(args[0]))
        if kind == "target" and len(args) == 2:
            return Target(float(args[0]), float(args[1]))
        if kind == "stalls" and len(args) == 1:
            return Stalls(float(args[0]))
        if kind == "skill" and len(args) == 1:
            return Skill(float(args[0]))
        m = re.fullmatch(r"(\d+)\.\.(\d+)", rest)
        if kind == "length" and m:
            return Length(int(m.group(1)), int(m.group(2)))
    except ValueError as exc:
        raise ConfigError(f"question {text!r}: {exc}") from None
    raise ConfigError(f"question {text!r}: write {QUESTION_HELP}")


@dataclass(frozen=True)
class Rung:
    """A level of the ladder: ``level`` in every seat, at most ``games`` games per verdict unit,
    and ``weaker``, the level a :class:`~gamelib.verdict.Skill` constraint is decided against
    (none: skill is not asked at this rung)."""

    level: str
    games: int
    weaker: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.games, int) or isinstance(self.games, bool) or self.games < 1:
            raise ConfigError(f"rung {self.level}: games must be a whole number ≥ 1")
        if self.weaker == self.level:
            raise ConfigError(f"rung {self.level}: the weaker level must be another player")

    def levels(self) -> list[str]:
        """The verdict's levels, weakest first."""
        return [self.weaker, self.level] if self.weaker else [self.level]

    def pair(self) -> str | None:
        """The label of the skill unit's rows (``"mcts:200 v greedy"``)."""
        return f"{self.level} v {self.weaker}" if self.weaker else None

    def text(self) -> str:
        """``LEVEL=GAMES[/WEAKER]``, the command line's form."""
        return f"{self.level}={self.games}" + (f"/{self.weaker}" if self.weaker else "")

    @classmethod
    def parse(cls, text: str) -> Rung:
        """A rung from ``LEVEL=GAMES[/WEAKER]`` (``mcts:200=4000/greedy``)."""
        level, eq, rest = text.partition("=")
        games, _, weaker = rest.partition("/")
        if not eq or not level.strip() or not games.strip().isdigit():
            raise ConfigError(f"rung {text!r}: write LEVEL=GAMES[/WEAKER], e.g. mcts:200=4000")
        return cls(level.strip(), int(games), weaker.strip() or None)


def _asked(rung: Rung, goal: Question, constraints: Sequence[Question]) -> list[Question]:
    """The questions a rung decides: the goal, then the constraints (skill only with a
    weaker level)."""
    return [goal, *(c for c in constraints if not (isinstance(c, Skill) and not rung.weaker))]


def judge(
    config: Any,
    rung: Rung,
    goal: Question,
    constraints: Sequence[Question],
    *,
    seed: int,
    alpha: float = 0.05,
    beta: float = 0.05,
    workers: int | None = 1,
    resume: str | Path | None = None,
    tables: dict[str, list[pd.DataFrame]] | None = None,
    quick: float = 0.25,
    max_minutes: float | None = None,
    executor: Any = None,
) -> pd.DataFrame:
    """The verdicts on ``config`` at ``rung``: :func:`gamelib.verdict.verdict` of the goal and
    the constraints at the rung's levels, at most ``rung.games`` games per unit, on ``seed``;
    ``tables`` receives each unit's games (as in the verdict).  ``max_minutes``: the time
    budget of both passes together (each verdict stops at its next look once its share is
    spent, reported as its bounds stand: valid at any stopping time); ``executor``: a Dask
    client or address, as in the verdict.

    A quick look first: the constraints alone, on the first ``quick`` of the budget.  When one
    of them fails there the rule set is rejected without the rest (a rule set that stalls in
    one game of eight costs a search player a thousand turns a stalled game); its goal is then
    decided on the deals that look played.  Both passes play the same deals (the same seed)
    and their confidence sequences hold at every deal count at once, so the look adds no
    error: the full verdict's bounds on those deals are the same, and would fail the
    constraint at the same look."""
    from gamelib.verdict import decide, verdict

    end = None if max_minutes is None else time.monotonic() + 60.0 * max_minutes

    def run(
        questions: list[Question], cap: int, into: dict[str, Any], at: Any, share: float = 1.0
    ) -> pd.DataFrame:
        # the pass's minutes: its share of what is left (never 0: a verdict takes one look)
        left = None if end is None else max(1e-6, share * (end - time.monotonic()) / 60.0)
        return verdict(
            config,
            rung.levels(),
            questions,
            alpha=alpha,
            beta=beta,
            max_games=cap,
            seed=seed,
            workers=workers,
            executor=executor,
            resume=at,
            progress=False,
            tables=into,
            max_minutes=left,
        )

    asked = _asked(rung, goal, constraints)
    cap = int(rung.games * quick)
    if quick > 0 and len(asked) > 1 and cap >= 50:
        look: dict[str, list[pd.DataFrame]] = {}
        at = None if resume is None else Path(resume) / "quick"
        first = run(asked[1:], cap, look, at, share=quick)
        if (rung_rows(first, rung)["decision"] == FAILS).any():
            row = decide(look[rung.level], goal, alpha=alpha, beta=beta, level=rung.level)
            if tables is not None:
                tables.update(look)
            return pd.concat([pd.DataFrame([row]), first], ignore_index=True)
    return run(asked, rung.games, {} if tables is None else tables, resume)


def goal_center(row: Any) -> float:
    """The centre of a goal row's band: the fair share, or the target rate."""
    return (float(row["band_lo"]) + float(row["band_hi"])) / 2


def rung_rows(rows: pd.DataFrame, rung: Rung) -> pd.DataFrame:
    """The verdict rows that judge a rule set at ``rung``: its level's and its skill pair's
    (the weaker level's own rows are context, not part of the standing)."""
    mine = {rung.level, rung.pair()}
    return rows[rows["level"].isin(mine)]


def standing(rows: pd.DataFrame, rung: Rung, goal: Question) -> dict[str, Any]:
    """A rule set's standing at ``rung`` from its verdict rows: ``rejected`` (a constraint
    fails), ``failed`` and ``undecided`` (the questions, by name), ``goal`` (its decision),
    ``distance`` (the goal's estimate from the centre of its band), ``value`` (the search's
    scalar: distance + 1 a failed constraint) and ``key`` (sort order, best first: not
    rejected, then fewer constraints left undecided, then the goal's decision, then its
    distance)."""
    at = rung_rows(rows, rung)
    goal_rows = at[(at["question"] == goal.name) & (at["level"] == rung.level)]
    if len(goal_rows) != 1:
        raise ConfigError(f"rung {rung.text()}: the rows hold no {goal.name} verdict")
    g = goal_rows.iloc[0]
    others = at.drop(index=goal_rows.index)
    failed = others.loc[others["decision"] == FAILS, "question"].tolist()
    undecided = others.loc[others["decision"] == UNDECIDED, "question"].tolist()
    distance = abs(float(g["estimate"]) - goal_center(g))
    rejected = bool(failed)
    return {
        "rejected": rejected,
        "failed": failed,
        "undecided": undecided,
        "goal": str(g["decision"]),
        "distance": distance,
        "value": distance + len(failed),
        "key": (rejected, len(undecided), _RANK[str(g["decision"])], distance),
    }


def parse_goal(goal: Question | str, constraints: Sequence[Question | str]) -> tuple[Any, Any]:
    g = parse_question(goal) if isinstance(goal, str) else goal
    cs = [parse_question(c) if isinstance(c, str) else c for c in constraints]
    if not isinstance(g, Fair | Target):
        raise ConfigError(f"goal: {question_text(g)} is not a goal; give fair:MARGIN or target")
    for c in cs:
        if isinstance(c, Fair | Target):
            raise ConfigError(f"constraint {question_text(c)}: the goal is asked already")
    names = [c.name for c in cs]
    if len(set(names)) != len(names):
        raise ConfigError(f"constraints: each question once, got {', '.join(names)}")
    return g, cs


def parse_rungs(rungs: Sequence[Rung | str], top: Rung | str) -> tuple[list[Rung], Rung]:
    out = [Rung.parse(r) if isinstance(r, str) else r for r in rungs]
    top_rung = Rung.parse(top) if isinstance(top, str) else top
    if not out:
        raise ConfigError("rungs: give at least the screen's rung, e.g. greedy=400")
    return out, top_rung


def spec_key(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:16]


def tagged_runs(
    config: Any, tables: Mapping[str, list[pd.DataFrame]], seed: int, **tags: Any
) -> list[pd.DataFrame]:
    """Each unit's games as a run table with the provenance simulate gives the same games
    (deal i of a verdict's run is deal i of ``simulate(config, seats, n, seed, rotate)``)."""
    from gamelib.sim import n_seats, run_spec

    out = []
    for unit, ts in tables.items():
        for t in ts:
            seats = [str(t[c].iloc[0]) for c in t.columns if c.startswith("player_")]
            rotate = n_seats(config) > 1 and " v " in unit
            deals = int(t["deal"].max()) + 1
            run = t.copy()
            for k, (col, v) in enumerate(
                {"rules": tags["rules"], "rung": tags["rung"], "unit": unit}.items()
            ):
                run.insert(k, col, v)
            run.attrs = {"provenance": run_spec(config, seats, deals, seed, rotate)}
            out.append(run)
    return out


def verdict_records(rows: pd.DataFrame) -> list[dict[str, Any]]:
    """Verdict rows as JSON-able records."""
    out = json.loads(rows[ROW].to_json(orient="records"))
    return list(out)
