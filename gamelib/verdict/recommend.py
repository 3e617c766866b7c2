"""What to print: a rule set's verdicts across the ladder turned into one recommendation.

A designer prints a rule set when every balance claim it must meet (fair, stalls, length, the
solitaire's target band) *holds* at every level that plays well, and drops it when one of them
*fails* at such a level.  When nothing fails and every open claim has played its whole budget
(or sits so near its band's edge that no number of deals in reach decides it) the rule set is
**on the margin**: its interval straddles the edge, and the recommendation names the edges at
which the same deals decide it (the nearest decided alternative: "holds at a stall ceiling of
0.062").  Anything else is **undecided**, with the deals a decision would need.
Skill verdicts say whether better play wins more (the ladder's steps): a step decided *not*
stronger is a warning about the game, an undecided one a note on how far the ladder is shown —
neither decides printing.  Random play shows what the deal alone does and is left out of the
decision unless asked for (``levels``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from gamelib.verdict.sequential import FAILS, HOLDS, UNDECIDED

__all__ = [
    "DO_NOT_PRINT",
    "ON_MARGIN",
    "PRINT",
    "Recommendation",
    "choice_text",
    "decided_at",
    "recommend",
    "verdict_grid",
]

PRINT, DO_NOT_PRINT, ON_MARGIN = "print", "do not print", "on the margin"
#: the questions a rule set must meet to be printed (skill is reported, not required)
CLAIMS = ("fair", "stalls", "length", "target")


def _interval(r: Any) -> str:
    return f"{r['estimate']:.3f} [{r['lo']:.3f}, {r['hi']:.3f}]".replace("-0.000", "0.000")


def _more(r: Any) -> float | None:
    more = r.get("more_deals")
    return None if more is None or more != more else float(more)


def _out_of_reach(r: Any) -> bool:
    """An undecided estimate (nearly) on its band's edge: no number of deals in reach decides
    it (more than a hundred times the deals played)."""
    more = _more(r)
    return more is None or more > 100 * max(1, int(r.get("deals") or 0))


def _on_margin(r: Any, max_deals: int | None) -> bool:
    """An undecided claim whose interval straddles its band's edge at its whole budget, or
    out of reach of any budget."""
    spent = max_deals is not None and int(r.get("deals") or 0) >= max_deals
    return r["decision"] == UNDECIDED and (spent or _out_of_reach(r))


def _edge(x: Any) -> float | None:
    return None if x is None or x != x or abs(float(x)) == float("inf") else float(x)


def _edges(r: Any) -> tuple[str, str | None]:
    """The band edges at which an undecided claim's interval decides it: (holds, fails)."""
    lo, hi = float(r["lo"]), float(r["hi"])
    band_lo, band_hi = _edge(r.get("band_lo")), _edge(r.get("band_hi"))
    if band_lo is None and band_hi is not None:  # a ceiling (a rate cannot fall below 0)
        return f"a ceiling of {hi:.3f}", (f"{lo:.3f}" if lo > 0 else None)
    if band_hi is None and band_lo is not None:  # a floor
        return f"a floor of {lo:.3f}", f"{hi:.3f}"
    if band_lo is None or band_hi is None:
        return "no band", None
    centre = (band_lo + band_hi) / 2
    fail = max(centre - hi, lo - centre)  # none when the interval holds the centre
    return f"a margin of ±{max(centre - lo, hi - centre):.3f}", (
        f"±{fail:.3f}" if fail > 0 else None
    )


def decided_at(r: Any) -> str:
    """Where the same deals decide an undecided claim: the band edges its interval sits
    inside of (holds) and outside of (fails).  The interval is a confidence sequence's, valid
    at the deals it stopped at, so "holds at a ceiling of ``hi``" carries the verdict's α."""
    holds, fails = _edges(r)
    return f"holds at {holds}" + (f", fails at {fails}" if fails else "")


def _row_words(r: Any, max_deals: int | None = None) -> str:
    """One verdict row in words: '`fair` at `greedy`: fails (seat 0 wins 0.62 [0.58, 0.66])'."""
    words = f"`{r['question']}` at `{r['level']}`: {r['decision']} ({r['measure']} {_interval(r)}"
    more = _more(r)
    if _on_margin(r, max_deals):
        words += f"; on the margin after {int(r.get('deals') or 0):,} deals"
        if not _out_of_reach(r) and more is not None:
            words += f", about {int(more):,} more would decide"
        words += f"; {decided_at(r)}"
    elif r["decision"] == UNDECIDED and more is not None:
        words += f"; about {int(more):,} more deals would decide"
    return words + ")"


def _step_words(r: Any) -> str:
    """A skill step in words: '`mcts:200` over `cautious`: undecided (…)'."""
    stronger, _, weaker = str(r["level"]).partition(" v ")
    return f"`{stronger}` over `{weaker}`: " + _row_words(r).split(": ", 1)[1]


@dataclass
class Recommendation:
    """A rule set's recommendation: ``status`` (``print``, ``do not print``, ``on the margin``
    or ``undecided``), what decided it (``reasons``: the failing, marginal or undecided claims,
    in words), and notes on the ladder's skill steps."""

    status: str
    reasons: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    levels: list[str] = field(default_factory=list)
    #: on the margin: each open claim with the band edge at which the same deals show it holds
    #: (the nearest decided alternative), e.g. "`stalls` at `greedy` with a ceiling of 0.062"
    alternatives: list[str] = field(default_factory=list)

    def words(self, name: str) -> str:
        """The recommendation as one sentence, e.g. for a notebook's answers."""
        at = ", ".join(f"`{lv}`" for lv in self.levels)
        if self.status == PRINT:
            text = f"`{name}`: **print** — every claim holds at {at}"
        elif self.status == DO_NOT_PRINT:
            text = f"`{name}`: **do not print** — " + "; ".join(self.reasons)
        elif self.status == ON_MARGIN:
            text = f"`{name}`: **on the margin** — " + "; ".join(self.reasons)
        else:
            text = f"`{name}`: **undecided** — " + "; ".join(self.reasons)
        if self.notes:
            text += " (" + "; ".join(self.notes) + ")"
        return text + "."


def recommend(
    table: pd.DataFrame, levels: Sequence[str] | None = None, max_deals: int | None = None
) -> Recommendation:
    """The recommendation of one rule set from its verdict table (``gamelib.verdict.verdict`` or
    ``redecide``): print when every claim (:data:`CLAIMS`) holds at every level in ``levels``
    (default: every level but ``random``), do not print when one fails at such a level, on the
    margin when every open claim has played ``max_deals`` (the verdict's budget for a claim's
    unit; None: only claims out of reach of any budget count) or is out of reach, else
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
        margin = all(_on_margin(r, max_deals) for _, r in open_.iterrows())
        return Recommendation(
            ON_MARGIN if margin else UNDECIDED,
            [_row_words(r, max_deals) for _, r in open_.iterrows()],
            notes,
            levels,
            [
                f"`{r['question']}` at `{r['level']}` with {_edges(r)[0]}"
                for _, r in open_.iterrows()
            ]
            if margin
            else [],
        )
    assert (rows["decision"] == HOLDS).all()
    return Recommendation(PRINT, [], notes, levels)


def choice_text(
    recs: Mapping[str, Recommendation],
    who: str,
    alpha: float,
    beta: float,
    max_deals: int | None = None,
) -> str:
    """One answer among alternative rule sets (of one game at one player count: rule sets for
    other counts are not alternatives to them) from their recommendations (:func:`recommend`,
    by name), in words: **print** the ones every claim holds for; else, for those on the
    margin, the band edges the designer would have to accept to print them (the nearest decided
    alternative on the same deals); **do not print** when every one fails; else **undecided**
    — ``who`` names the game (and count), ``alpha``/``beta`` and ``max_deals`` the verdicts'."""
    if not recs:
        raise ValueError("no rule set to choose from")
    by = {
        s: [n for n, r in recs.items() if r.status == s] for s in (PRINT, ON_MARGIN, DO_NOT_PRINT)
    }
    rates = f"α = β = {alpha}" if alpha == beta else f"α = {alpha}, β = {beta}"
    if by[PRINT]:
        names = " or ".join(f"`{n}`" for n in by[PRINT])
        return (
            f"**{who}: print** {names} — every claim holds at every level that plays well "
            f"({rates})."
        )
    if by[ON_MARGIN]:
        accepts = "; ".join(
            f"`{n}` would print if the designer accepts " + " and ".join(recs[n].alternatives)
            for n in by[ON_MARGIN]
        )
        after = f" after {max_deals:,} deals" if max_deals is not None else ""
        return (
            f"**{who}: on the margin** — {accepts}: the nearest decided alternative on the same "
            f"deals (each interval at α = {alpha}; the claims as asked straddle their "
            f"bands{after})."
        )
    if len(by[DO_NOT_PRINT]) == len(recs):
        names = " or ".join(f"`{n}`" for n in recs)
        return f"**{who}: do not print** {names} — a claim fails at a level that plays well."
    return (
        f"**{who}: undecided** — a verdict is still open inside the budget: more deals would "
        "decide it."
    )


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
