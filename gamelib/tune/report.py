"""Reading a search: its confirmation in sentences, tables and charts for notebooks.

Everything here is a pure function of tables a search produced (:mod:`gamelib.tune.study`'s
trials and confirmation report, :mod:`gamelib.tune.halving`'s rung and top-level verdicts): it
plays no game, and every number it writes is read from those tables.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from gamelib.tune.objectives import Objective
from gamelib.tune.space import changed

__all__ = [
    "confirmation_long",
    "goal_long",
    "ladder_table",
    "plot_ladder",
    "plot_trials",
    "rejection_words",
    "report_text",
    "search_summary",
    "seconds_text",
    "verdict_words",
]


def report_text(
    report: pd.DataFrame,
    objective: Objective,
    n_games: int,
    seed: int,
    spec: Mapping[str, Any],
    budget: int,
) -> str:
    """The confirmation as sentences (every number read from the report)."""
    from gamelib.stats import interval_text, wilson_half_width

    labels = objective.labels()
    orig = report[report.rules == "original"].iloc[0]["config"]
    lines = [
        f"Search: {budget} trials of {spec['n_games']} deals each (seed {spec['seed']}), "
        f"players {','.join(spec['players'])}, objective {' + '.join(objective.text())}. "
        f"Confirmation: {n_games} fresh deals per rule set (seed {seed}; a 95% Wilson interval "
        f"of at most ±{wilson_half_width(n_games):.3f} for a rate)."
    ]
    for r in report.to_dict("records"):
        what = (
            "original rules"
            if r["rules"] == "original"
            else (
                f"{r['rules']} ({changed(orig, r['config'])}; search value {r['search_value']:.4f})"
            )
        )
        terms = "; ".join(
            f"{lb} {interval_text(r[lb], r[lb + '_lo'], r[lb + '_hi'])} (target "
            f"{r[lb + '_target']})"
            for lb in labels
        )
        verdict = (
            "every interval inside its target"
            if r["shown"]
            else "consistent with every target"
            if r["consistent"]
            else "misses a target"
        )
        lines.append(f"- {what}: {terms}; confirmed value {r['value']:.4f}, {verdict}.")
    return "\n".join(lines)


def confirmation_long(report: pd.DataFrame, objective: Objective) -> pd.DataFrame:
    """The confirmation report one row per rule set and term: ``rules``, ``term``, ``estimate``,
    ``lo``, ``hi`` and the target band ``target_lo``/``target_hi`` (for charts)."""
    rows = []
    for r in report.to_dict("records"):
        for label in objective.labels():
            lo_t, _, hi_t = str(r[f"{label}_target"]).partition("..")
            rows.append(
                {
                    "rules": r["rules"],
                    "term": label,
                    "estimate": r[label],
                    "lo": r[f"{label}_lo"],
                    "hi": r[f"{label}_hi"],
                    "target_lo": float(lo_t),
                    "target_hi": float(hi_t or lo_t),
                }
            )
    return pd.DataFrame(rows)


def plot_trials(trials: pd.DataFrame, ax: Any = None, title: str | None = None) -> Any:
    """Each finished trial's value in the order they finished (pruned ones marked at the top)
    and the best value so far."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3.5))
    order = np.arange(len(trials))
    done = trials["state"].to_numpy() == "COMPLETE"
    values = trials["value"].to_numpy(dtype=float)
    ax.plot(order[done], values[done], "o", ms=4, label="trial (search games)")
    best = pd.Series(np.where(done, values, np.nan)).cummin()
    ax.plot(order, best, "-", color="black", lw=1.2, label="best so far")
    if (~done).any():
        top = float(np.nanmax(values[done])) if done.any() else 1.0
        ax.plot(
            order[~done],
            np.full((~done).sum(), top),
            "x",
            color="grey",
            label="refused by the game (pruned)",
        )
    ax.set_xlabel("trial (in the order finished)")
    ax.set_ylabel("objective (lower is better)")
    if title:
        ax.set_title(title)
    ax.legend(fontsize="small")
    return ax


# --- the multi-fidelity search in words ----------------------------------------------------


def verdict_words(row: Any) -> str:
    """One verdict row as a clause: ``stalls fails: stall rate 0.153 [0.139, 0.168] (stalls …
    below 0.05; 400 deals)``; an undecided row says so, with the deals a decision would need."""
    est = f"{row['estimate']:.3f} [{row['lo']:.3f}, {row['hi']:.3f}]"
    tail = f"{int(row['deals']):,} deals"
    more = row.get("more_deals")
    if row["decision"] == "undecided":
        tail += (
            ", on the margin"
            if more is None or (isinstance(more, float) and np.isnan(more))
            else f", about {int(more):,} more would decide"
        )
    return f"{row['question']} {row['decision']}: {row['measure']} {est} ({row['claim']}; {tail})"


def rejection_words(rungs: pd.DataFrame, goal: str) -> str:
    """Why no candidate reached the top: at the rung where the last ones were rejected, each
    with its failed constraints (``goal``: the goal question's name, not a constraint)."""
    cands = rungs[rungs["rules"] != "original"]
    last = int(cands["rung"].max())
    at = cands[cands["rung"] == last]
    parts = []
    for name, rows in at.groupby("rules", sort=False):
        bad = rows[rows["counts"] & (rows["decision"] == "fails") & (rows["question"] != goal)]
        parts.append(f"{name} ({'; '.join(verdict_words(r) for _, r in bad.iterrows())})")
    level = str(at["level"].iloc[0]) if len(at) else "?"
    return f"every candidate left at rung {last} was rejected at {level}: " + ", ".join(parts)


def _cell(row: Any) -> str:
    """A verdict's decision with its estimate: ``holds 0.512 [0.48, 0.55]``."""
    return f"{row['decision']} {row['estimate']:.3f} [{row['lo']:.3f}, {row['hi']:.3f}]"


def ladder_table(rows: pd.DataFrame, rungs: Sequence[str], top: str) -> pd.DataFrame:
    """The ladder's verdicts one row a rule set and rung (the top last): the rung, its level,
    the rule set, one column a question (its decision with estimate and interval, at the
    rung's own level and skill pair) and ``deals`` (the most a unit played); ``rejected`` and
    ``promoted`` for the rungs.  ``rows``: a search's rung rows and top rows (``rung`` set to
    ``len(rungs)`` for the top); ``rungs``/``top``: the search's rung texts."""
    from gamelib.tune.rungs import Rung, rung_rows

    texts = [*rungs, top]
    out = []
    for key, g in rows.groupby(["rung", "rules"], sort=False):
        r, name = int(g["rung"].iloc[0]), str(g["rules"].iloc[0])
        del key
        rung = Rung.parse(texts[r])
        mine = rung_rows(g, rung)
        rec: dict[str, Any] = {
            "rung": r,
            "level": texts[r] + (" (top)" if r == len(rungs) else ""),
            "rules": name,
        }
        for _, q in mine.iterrows():
            rec[str(q["question"])] = _cell(q)
        rec["deals"] = int(mine["deals"].max())
        if "rejected" in g and r < len(rungs):
            rec["rejected"] = bool(g["rejected"].iloc[0])
            rec["promoted"] = bool(g["promoted"].iloc[0])
        out.append(rec)
    return pd.DataFrame(out)


def goal_long(rows: pd.DataFrame, rungs: Sequence[str], top: str, goal: str) -> pd.DataFrame:
    """The goal's verdict at each rung's own level, one row a rule set and rung (for charts):
    ``step`` (the rung as text), ``rules``, ``estimate``, ``lo``, ``hi``, ``decision`` and the
    band ``band_lo``/``band_hi``."""
    texts = [*rungs, top]
    levels = {i: t.partition("=")[0] for i, t in enumerate(texts)}
    g = rows[(rows["question"] == goal) & (rows["level"] == rows["rung"].map(levels))]
    steps = [f"{i}: {t}" + (" (top)" if i == len(rungs) else "") for i, t in enumerate(texts)]
    return g.assign(step=[steps[int(r)] for r in g["rung"]])[
        ["step", "rung", "rules", "estimate", "lo", "hi", "decision", "band_lo", "band_hi"]
    ]


def plot_ladder(long: pd.DataFrame, ax: Any = None, title: str | None = None) -> Any:
    """The goal's estimate with its interval for every rule set judged at each rung (the
    original among them), the goal's band dashed."""
    from gamelib.plots import plot_rates

    ax = plot_rates(long, "step", y="estimate", hue="rules", ax=ax)
    for edge in {float(long["band_lo"].iloc[0]), float(long["band_hi"].iloc[0])}:
        ax.axhline(edge, color="grey", lw=1, ls="--")
    ax.set_xlabel("rung (level=games)")
    ax.set_ylabel("goal estimate (95% CS)")
    ax.legend(fontsize="x-small", ncol=2)
    if title:
        ax.set_title(title)
    return ax


def search_summary(result: Any) -> str:
    """A multi-fidelity search (:class:`gamelib.tune.fidelity.SearchResult`) in plain words: the
    ladder, the top's verdicts, the comparison with the original and the recommendation (every
    number read from the rows)."""
    spec = result.spec
    done = int((result.trials["state"] == "COMPLETE").sum()) if len(result.trials) else 0
    lines = [
        f"{spec['game']}: goal {spec['goal']}, constraints {', '.join(spec['constraints'])}; "
        f"screen {spec['screen']} ({len(result.trials)} trials, {done} complete)"
    ]
    for r, text in enumerate(spec["rungs"][1:], start=1):
        at = result.rungs[(result.rungs["rung"] == r) & (result.rungs["rules"] != "original")]
        promoted = sorted(set(at.loc[at["promoted"].astype(bool), "rules"]))
        lines.append(
            f"rung {r} {text}: {at['rules'].nunique()} judged, promoted: "
            + (", ".join(promoted) or "none")
        )
    lines.append(f"top {spec['top']} on fresh deals (seed {spec['confirm_seed']}):")
    for _, row in result.top.iterrows():
        lines.append(f"  {row['rules']} at {row['level']}: {verdict_words(row)}")
    for _, row in result.effects.iterrows():
        lines.append(f"  {row['rules']} v original at {row['level']}: {verdict_words(row)}")
    rec = result.recommendation
    head = (
        f"PRINT {rec.rules} ({rec.changes})"
        if rec.answer == "print"
        else "KEEP THE ORIGINAL"
        if rec.shown
        else "NO RULE SET SHOWN PRINTABLE (neither the original nor a tuned one holds every "
        "verdict)"
    )
    lines.append(f"recommendation at {rec.level}: {head}")
    lines += [f"  - {w}" for w in rec.why]
    lines.append(f"seconds: {seconds_text(result.seconds)}")
    return "\n".join(lines)


def seconds_text(seconds: Mapping[str, float]) -> str:
    """The stages' run times in words (``screen 12 s, rung 1 80 s, top 410 s``)."""
    return ", ".join(f"{k} {v:,.0f} s" for k, v in seconds.items())
