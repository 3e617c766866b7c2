"""Reading a search: its confirmation in sentences, tables and charts for notebooks.

Everything here is a pure function of tables a search produced (:mod:`gamelib.tune.study`'s
trials and confirmation report, :mod:`gamelib.tune.halving`'s rung and top-level verdicts): it
plays no game, and every number it writes is read from those tables.  A finished multi-fidelity
search (:class:`gamelib.tune.fidelity.SearchResult`) is read by :func:`search_findings` (its
answer in sentences), :func:`search_table` (searches side by side), :func:`rejection_table` (what
its rungs rejected) and :func:`ladder_rows` (its verdicts rung by rung, for
:func:`ladder_table` and :func:`goal_long`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from gamelib.tune.objectives import Objective
from gamelib.tune.space import changed

__all__ = [
    "confirmation_long",
    "goal_long",
    "kept_text",
    "ladder_rows",
    "ladder_table",
    "plot_ladder",
    "plot_trials",
    "rejection_table",
    "rejection_words",
    "report_text",
    "search_findings",
    "search_summary",
    "search_table",
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


# --- a finished search's answer, its rungs and its place, for notebooks ----------------------


def _origin(spec: Mapping[str, Any]) -> str:
    """The search by its game and original rules: ``garner, from setup A``, ``gargon, 5
    players``."""
    base = spec["base"]
    if base.get("setup"):
        return f"{spec['game']}, from setup {base['setup']}"
    if base.get("n_players"):
        return f"{spec['game']}, {base['n_players']} players"
    return str(spec["game"])


#: an effect's decision in words, before its margin
EFFECT_WORDS = {
    "holds": "no effect within ±",
    "fails": "a decided effect beyond ±",
    "undecided": "undecided against ±",
}


def search_findings(result: Any) -> list[str]:
    """A finished search's answer in sentences (:class:`gamelib.tune.fidelity.SearchResult`):
    first its recommendation at the top level — print a finalist, keep the original, or no rule
    set shown printable (``Recommendation.headline``) — with the fresh deals' seed, each
    verdict's α (Bonferroni over the finalists) and the verdicts that say why; then one
    sentence per paired effect of a finalist against the original on the same top-level deals:
    the change with its interval, its decision against the margin and its deals.  Every word
    and number is read from ``result.top`` and ``result.effects``."""
    from gamelib.stats import interval_text

    spec, rec = result.spec, result.recommendation
    level = spec["top"].partition("=")[0]
    n = max(1, result.top["rules"].nunique() - 1)  # the finalists beside the original
    items = [
        f"**{_origin(spec)}: {rec.headline()}.** Decided at `{level}` on fresh deals (seed "
        f"{spec['confirm_seed']}), each verdict at α = {spec['alpha'] / n:g} (α = "
        f"{spec['alpha']} over {n} finalist{'s' * (n > 1)}, Bonferroni) and β = {spec['beta']}. "
        "Why: " + " · ".join(rec.why) + "."
    ]
    for e in result.effects.itertuples():
        what = changed(result.configs["original"], result.configs[e.rules])
        items.append(
            f"Paired with the original on the same `{level}` deals, {e.rules} ({what}) changes "
            f"{e.measure.replace('change in ', '')} by {interval_text(e.estimate, e.lo, e.hi)}: "
            f"{EFFECT_WORDS[e.decision]}{e.margin:g} ({int(e.deals):,} deals)."
        )
    return items


def kept_text(folder: str | Path | None) -> str:
    """Where a finished search is kept, in words: a stored search by its folder under the
    project (``data/results/tune-garner``), one the study cache keeps as "the study cache"."""
    from gamelib.sim import results_dir

    path = Path(folder) if folder is not None else None
    if path is not None and path.is_relative_to(results_dir()):
        return str(path.relative_to(results_dir().parents[1]))
    if path is None or path.parent.name == "tune":  # the study cache's <cache>/tune/<key>
        return "the study cache"
    return str(path)


def search_table(results: Mapping[Any, Any]) -> pd.DataFrame:
    """Finished searches side by side, one row each (``results``: name → ``SearchResult``):
    where it is kept, its time budget, the screen's trials (complete, refused by the game,
    rejected by a constraint), the rule sets judged at each rung of the halving, the top, the
    answer (``print``, ``keep``, or none shown printable) and the stages' run times."""
    rows = {}
    for name, r in results.items():
        t, spec = r.trials, r.spec
        minutes = spec.get("max_minutes")
        rejected = t["rejected"].fillna(False).astype(bool).sum() if "rejected" in t else 0
        row = {
            "search": kept_text(r.folder),
            "time budget": "none" if minutes is None else f"{minutes:g} min",
            "screen trials": f"{len(t)} of {spec['budget']}",
            "complete": int((t["state"] == "COMPLETE").sum()) if len(t) else 0,
            "refused by the game": int((t["state"] == "PRUNED").sum()) if len(t) else 0,
            "rejected at the screen": int(rejected),
        }
        g = r.rungs
        for k, text in enumerate(spec["rungs"][1:], start=1):
            at = g[(g["rung"] == k) & (g["rules"] != "original")] if len(g) else g
            row[f"judged at rung {k} ({text})"] = at["rules"].nunique() if len(at) else 0
        row["top"] = spec["top"]
        row["answer"] = (
            r.recommendation.answer if r.recommendation.shown else "none shown printable"
        )
        row["run time"] = seconds_text(r.seconds)
        rows[name] = row
    return pd.DataFrame(rows).T


def rejection_table(result: Any) -> pd.DataFrame:
    """What a search's rungs rejected, and why: per rung (the screen's first) and failed
    constraint, how many rule sets a constraint verdict that fails there rejected (``rung``,
    ``question``, ``rule sets``; the goal is not a constraint, and the original is never
    rejected)."""
    spec = result.spec
    goal = spec["goal"].split(":")[0]
    screen, _, weaker = spec["screen"].partition("/")
    at_screen = (screen.partition("=")[0], f"{screen.partition('=')[0]} v {weaker}")
    out = []
    t = result.trials
    done = t[t["state"] == "COMPLETE"] if len(t) else t
    for verdicts in done.get("verdicts", []):
        for q in verdicts:
            if q["decision"] == "fails" and q["question"] != goal and q["level"] in at_screen:
                out.append({"rung": f"0: {spec['screen']} (screen)", "question": q["question"]})
    g = result.rungs
    if len(g):
        bad = g[
            g["counts"].astype(bool)
            & (g["decision"] == "fails")
            & (g["rules"] != "original")
            & (g["question"] != goal)
        ]
        for x in bad.itertuples():
            out.append({"rung": f"{x.rung}: {spec['rungs'][x.rung]}", "question": x.question})
    if not out:
        return pd.DataFrame(columns=["rung", "question", "rule sets"])
    return pd.DataFrame(out).value_counts().rename("rule sets").reset_index()


def ladder_rows(result: Any) -> pd.DataFrame:
    """A search's verdict rows rung by rung, the top's last (its ``rung`` the number of rungs):
    the ``rows`` :func:`ladder_table` and :func:`goal_long` read."""
    top: pd.DataFrame = result.top.assign(rung=len(result.spec["rungs"]))
    return pd.concat([result.rungs, top], ignore_index=True) if len(result.rungs) else top
