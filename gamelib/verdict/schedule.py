"""When a verdict's unit plays and looks: the looks each question takes under a design, the
deal counts the unit plays to, and the refusal of a time budget for the designs planned in
advance (:mod:`gamelib.verdict.designs`).  Under ``"cs"`` every question looks at every batch
of the verdict's schedule (:func:`gamelib.verdict.sequential.look_schedule`), as before designs.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pandas as pd

from gamelib.core import ConfigError
from gamelib.verdict.designs import design_looks, two_sided
from gamelib.verdict.questions import Question

__all__ = ["question_looks", "refuse_budget"]


def question_context(
    tables: Sequence[pd.DataFrame], stronger: str | None, weaker: str | None
) -> dict[str, Any]:
    seats = len([c for c in tables[0].columns if c.startswith("player_")])
    return {"n_seats": seats, "stronger": stronger, "weaker": weaker}


def question_looks(
    tables: Sequence[pd.DataFrame],
    question: Question,
    design: str,
    alpha: float,
    beta: float,
    looks: Sequence[int],
    stronger: str | None = None,
    weaker: str | None = None,
) -> list[int]:
    """The deal counts at which ``design`` looks at ``question`` when a run may look at
    ``looks`` (:func:`gamelib.verdict.designs.design_looks`; a one-sided claim: ``looks``).
    ``tables``: any of the unit's games (a question's bands do not depend on them)."""
    _, bands = question.streams(list(tables), **question_context(tables, stronger, weaker))
    if not two_sided(bands):
        return list(looks)
    return design_looks(design, bands, alpha, beta, looks)


class Schedule:
    """A unit's deal counts to play to and which question looks at each.  Under ``"cs"``
    the batch schedule, every question at every look (as before designs); under another design
    each question's own looks (:func:`question_looks`, planned once the first batch is in),
    the unit playing to the union of them."""

    def __init__(self, looks: list[int], design: str) -> None:
        self.looks, self.design = looks, design
        self.deals = list(looks)
        self.plans: dict[int, list[int]] | None = None

    def steps(self) -> Iterator[tuple[int, int]]:
        i = 0
        while i < len(self.deals):  # self.plan may rewrite the deals after the first step
            yield i, self.deals[i]
            i += 1

    def planned(self) -> bool:
        return self.design == "cs" or self.plans is not None

    def plan(self, plans: dict[int, list[int]], upto: int) -> None:
        self.plans = plans
        later = {n for p in plans.values() for n in p if n > upto}
        self.deals = [upto, *sorted(later)]

    def last(self, i: int) -> bool:
        return i == len(self.deals) - 1

    def due(self, k: int, i: int) -> bool:
        """Whether question ``k`` looks at step ``i`` (the last step: every question)."""
        if self.design == "cs" or i == 0 or self.last(i):
            return True
        assert self.plans is not None
        return self.deals[i] in self.plans[k]

    def cut(self, i: int, upto: int) -> None:
        """Make step ``i`` the unit's last, at ``upto`` deals (fewer than planned: the time
        budget's; only under ``"cs"``, whose bounds hold at any look)."""
        assert self.design == "cs" and (i == 0 or self.deals[i - 1] < upto <= self.deals[i])
        self.deals = [*self.deals[:i], upto]
        self.looks = [*self.looks[:i], upto]

    def looks_at(self, i: int) -> list[int]:
        """The ``looks`` :func:`~gamelib.verdict.run.decide` takes at step ``i``."""
        return self.looks[: i + 1] if self.design == "cs" else self.looks


def refuse_budget(
    design: str, max_minutes: float | None, design_flag: str, minutes_flag: str
) -> None:
    """A time budget may stop a run at a look no design but ``"cs"`` planned for: refused."""
    if design != "cs" and max_minutes is not None:
        raise ConfigError(
            f"{design_flag} {design} and {minutes_flag}: a time budget may stop the run before "
            f"the design's planned looks; use {design_flag} cs (anytime-valid) with a time budget"
        )
