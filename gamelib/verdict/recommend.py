"""What to print: a rule set's verdicts across the ladder turned into one recommendation.

A designer prints a rule set when every balance claim it must meet (fair, stalls, length, the
solitaire's target band) *holds* at every level that plays well, and drops it when one of them
*fails* at such a level; anything else is **undecided**, with the deals a decision would need.
Skill verdicts say whether better play wins more (the ladder's steps): a step decided *not*
stronger is a warning about the game, an undecided one a note on how far the ladder is shown —
neither decides printing.  Random play shows what the deal alone does and is left out of the
decision unless asked for (``levels``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from gamelib.verdict.sequential import FAILS, HOLDS, UNDECIDED

__all__ = ["DO_NOT_PRINT", "PRINT", "Recommendation", "recommend", "verdict_grid"]

PRINT, DO_NOT_PRINT = "print", "do not print"
#: the questions a rule set must meet to be printed (skill is reported, not required)
CLAIMS = ("fair", "stalls", "length", "target")


def _interval(r: Any) -> str:
    return f"{r['estimate']:.3f} [{r['lo']:.3f}, {r['hi']:.3f}]".replace("-0.000", "0.000")


def _row_words(r: Any) -> str:
    """One verdict row in words: '`fair` at `greedy`: fails (seat 0 wins 0.62 [0.58, 0.66])'."""
    words = f"`{r['question']}` at `{r['level']}`: {r['decision']} ({r['measure']} {_interval(r)}"
    more = r.get("more_deals")
    if r["decision"] == UNDECIDED:
        # an estimate (nearly) on its band's edge: no number of deals in reach decides it
        if more is None or more != more or more > 100 * max(1, int(r.get("deals") or 0)):
            words += "; on the margin"
        else:
            words += f"; about {int(more):,} more deals would decide"
    return words + ")"


def _step_words(r: Any) -> str:
    """A skill step in words: '`mcts:200` over `cautious`: undecided (…)'."""
    stronger, _, weaker = str(r["level"]).partition(" v ")
    return f"`{stronger}` over `{weaker}`: " + _row_words(r).split(": ", 1)[1]


@dataclass
class Recommendation:
    """A rule set's recommendation: ``status`` (``print``, ``do not print`` or ``undecided``),
    what decided it (``reasons``: the failing or undecided claims, in words), and notes on the
    ladder's skill steps."""

    status: str
    reasons: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    levels: list[str] = field(default_factory=list)

    def words(self, name: str) -> str:
        """The recommendation as one sentence, e.g. for a notebook's answers."""
        at = ", ".join(f"`{lv}`" for lv in self.levels)
        if self.status == PRINT:
            text = f"`{name}`: **print** — every claim holds at {at}"
        elif self.status == DO_NOT_PRINT:
            text = f"`{name}`: **do not print** — " + "; ".join(self.reasons)
        else:
            text = f"`{name}`: **undecided** — " + "; ".join(self.reasons)
        if self.notes:
            text += " (" + "; ".join(self.notes) + ")"
        return text + "."


def recommend(table: pd.DataFrame, levels: Sequence[str] | None = None) -> Recommendation:
    """The recommendation of one rule set from its verdict table (``gamelib.verdict.verdict`` or
    ``redecide``): print when every claim (:data:`CLAIMS`) holds at every level in ``levels``
    (default: every level but ``random``), do not print when one fails at such a level, else
    undecided."""
    mirror = table[table["question"].isin(CLAIMS)]
    if levels is None:
        levels = [lv for lv in dict.fromkeys(mirror["level"]) if lv != "random"]
    levels = list(levels)
    missing = [lv for lv in levels if lv not in set(mirror["level"])]
    if missing:
        raise ValueError(f"the verdict table has no claims at {missing}")
    rows = mirror[mirror["level"].isin(levels)]
    if rows.empty:
        raise ValueError("the verdict table holds no claim (fair, stalls, length, target)")
    failed = rows[rows["decision"] == FAILS]
    open_ = rows[rows["decision"] == UNDECIDED]
    notes = []
    for _, r in table[table["question"] == "skill"].iterrows():
        if r["decision"] == FAILS:
            notes.append(f"warning: a skill step is decided below its margin, {_step_words(r)}")
        elif r["decision"] == UNDECIDED:
            notes.append(f"a skill step not shown, {_step_words(r)}")
    if len(failed):
        return Recommendation(
            DO_NOT_PRINT, [_row_words(r) for _, r in failed.iterrows()], notes, levels
        )
    if len(open_):
        return Recommendation(
            UNDECIDED, [_row_words(r) for _, r in open_.iterrows()], notes, levels
        )
    assert (rows["decision"] == HOLDS).all()
    return Recommendation(PRINT, [], notes, levels)


def verdict_grid(tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Rule sets' verdict tables side by side: a row per rule set and question, a column per
    level, each cell ``decision estimate [lo, hi]`` (skill rows under the stronger level)."""
    rows = []
    for name, t in tables.items():
        for _, r in t.iterrows():
            level = str(r["level"]).split(" v ")[0]
            rows.append(
                {
                    "rules": name,
                    "question": r["question"],
                    "level": level,
                    "cell": f"{r['decision']} {_interval(r)}",
                }
            )
    grid = pd.DataFrame(rows)
    order = list(dict.fromkeys(grid["level"]))
    out = grid.pivot_table(
        index=["rules", "question"], columns="level", values="cell", aggfunc="first", sort=False
    )
    return out[[lv for lv in order if lv in out.columns]].fillna("")
