"""Verdicts on stored studies: a finished ``gamelib compare`` or ``gamelib verdict`` run kept
as one small table, and the same decisions taken again on it — or on any stored tables that
hold the same deals — without playing a game.

A search player's comparison takes hours, a notebook a minute.  So the run is made once with
the command line, with ``--resume FOLDER`` (the folder keeps every deal it played), and
:func:`pack` turns the folder into one Parquet table with its provenance (every run's rules,
players, seed and deal count, so ``tests/test_results.py`` re-plays its first deals).  A
notebook then splits the table into its runs (:func:`paired_runs`) and decides on them
(:func:`decide_comparison`): the same sequential procedure at the same looks as
:func:`gamelib.verdict.compare.compare`, so on the stored parameters the decisions are the
command's, and with another margin they are what the stored deals can say — "undecided", with
the deals a decision would need, when they are too few.  :func:`sentence` says a decision in a
designer's words, with its margin, error rates, level and deals.

Command line::

    python -m gamelib.verdict.stored FOLDER OUT.parquet [--columns a,b,…]
"""

from __future__ import annotations

import argparse
import json
import math
import numbers
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from gamelib.core import ConfigError, GamelibError
from gamelib.sim import save
from gamelib.sim.chunks import games_per_deal
from gamelib.sim.deals import runs_of
from gamelib.sim.results import tidy
from gamelib.sim.store import PartStore
from gamelib.verdict.compare import bind, comparison_units, level_label, meaning
from gamelib.verdict.questions import Question
from gamelib.verdict.run import COLUMNS, decide
from gamelib.verdict.sequential import FAILS, HOLDS, UNDECIDED, look_schedule

__all__ = [
    "decide_comparison",
    "pack",
    "paired_runs",
    "rule_recommendation",
    "runs_of",
    "sentence",
]

#: the columns a stored run always keeps: every question reads them
KEEP = ("winner", "n_winners", "reason", "turns")


def pack(folder: str | Path, out: str | Path, columns: Sequence[str] | None = None) -> pd.DataFrame:
    """The deals a ``gamelib compare`` or ``gamelib verdict`` run kept in its ``--resume``
    folder, as one stored table (saved to ``out``, a ``.parquet`` file, and returned).

    Each run of the folder becomes the rows of its deals 0 … D−1 (D: the deals it played),
    with its provenance (``n_games`` = D), in the folder's run order; ``attrs["provenance"]``
    also keeps the command's manifest (``compare`` or ``verdict``).  ``columns``: the outcome
    columns to keep besides the seats, the wins and the labels every question reads (default:
    all)."""
    folder = Path(folder)
    manifests = [m for m in ("compare", "verdict") if (folder / f"{m}.json").exists()]
    if len(manifests) != 1:
        raise GamelibError(
            f"{folder} is not the --resume folder of one gamelib compare or verdict run "
            "(no compare.json or verdict.json)"
        )
    kind = manifests[0]
    call = _json(folder / f"{kind}.json", f"the {kind} manifest")
    run_dirs = sorted(
        (p for p in folder.glob("run-*") if re.fullmatch(r"run-\d+", p.name)),
        key=lambda p: int(p.name.split("-")[1]),
    )
    if not run_dirs:
        raise GamelibError(f"{folder} holds no runs (run-0, run-1, …)")
    tables, specs = [], []
    for d in run_dirs:
        spec = _json(d / "run.json", "the run's manifest")
        if not isinstance(spec, dict) or not {"players", "rotate_seats", "seed", "n_games"} <= set(
            spec
        ):
            raise GamelibError(f"{d / 'run.json'} is not a gamelib run manifest; delete {d}")
        per = games_per_deal(spec)
        parts = PartStore(d, spec, "pack").load(spec["n_games"], per, spec["seed"], False)
        at, frames = 0, []
        for a in sorted(parts):
            b, df, _ = parts[a]
            if a != at:
                raise GamelibError(f"{d}: deals {at}–{a - 1} are missing; finish the run first")
            frames.append(df)
            at = b
        if not frames:
            raise GamelibError(f"{d}: the run played no deal")
        table = tidy(pd.concat(frames, ignore_index=True))
        if columns is not None:
            wins = [c for c in table.columns if re.fullmatch(r"win_\d+", c)]
            keep = list(dict.fromkeys([*KEEP, *wins, *columns]))
            unknown = [c for c in keep if c not in table.columns]
            if unknown:
                raise ConfigError(f"columns: the runs have no {', '.join(unknown)}")
            start = list(table.columns).index("winner")
            table = table[
                list(table.columns[:start])
                + [c for c in table.columns[start:] if c in keep or c.startswith("player_")]
            ]
        tables.append(table)
        specs.append({**spec, "n_games": at})
    packed = tidy(pd.concat(tables, ignore_index=True))
    packed.attrs["provenance"] = {"runs": specs, kind: call}
    save(packed, out)
    return packed


def _json(path: Path, what: str) -> Any:
    """A manifest of a --resume folder, or one line naming it (missing, damaged)."""
    if not path.is_file():
        raise GamelibError(f"{path}: {what} is missing; this is not a finished run's folder")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise GamelibError(f"{path}: {what} is not readable JSON ({exc})") from None


def paired_runs(
    table: pd.DataFrame,
    field: str,
    base: Any,
    variant: Any,
    where: Mapping[str, Any] | None = None,
) -> dict[str, list[pd.DataFrame]]:
    """A stored table's runs paired for :func:`decide_comparison`: for each line-up (in the
    table's order), [its run with ``field`` = ``base``, its run with ``field`` = ``variant``],
    keyed by the level's name as ``gamelib compare`` writes it ("greedy v greedy:ignore ×3").
    ``where``: only the runs whose other rules have these values (a sweep over several rules,
    e.g. ``{"broken": 5, "hand_counts": "cards"}``).  Every other rule must be equal within a
    pair, and both runs must use the same seed."""
    found: dict[tuple[str, ...], dict[str, tuple[dict[str, Any], pd.DataFrame]]] = {}
    for spec, part in runs_of(table):
        if field not in spec["config"]:
            raise ConfigError(f"the runs have no rule {field!r}")
        for k in where or {}:
            if k not in spec["config"]:
                raise ConfigError(f"the runs have no rule {k!r}")
        if any(spec["config"][k] != v for k, v in (where or {}).items()):
            continue
        value = spec["config"][field]
        side = "base" if value == base else "variant" if value == variant else None
        if side is None:
            continue
        key = tuple(spec["players"])
        if side in found.setdefault(key, {}):
            raise GamelibError(f"two runs of {list(key)} have {field}={value}")
        found[key][side] = (spec, part)
    pairs: dict[str, list[pd.DataFrame]] = {}
    for key, sides in found.items():
        if len(sides) != 2:
            missing = "variant" if "variant" not in sides else "base"
            raise GamelibError(f"{list(key)} has no {missing} run ({field}={variant!r})")
        (sb, tb), (sv, tv) = sides["base"], sides["variant"]
        other = {k: v for k, v in sb["config"].items() if k != field}
        if other != {k: v for k, v in sv["config"].items() if k != field}:
            raise GamelibError(f"{list(key)}: the two runs differ in more than {field}")
        if sb["seed"] != sv["seed"] or sb["rotate_seats"] != sv["rotate_seats"]:
            raise GamelibError(f"{list(key)}: the two runs do not play the same deals")
        label = level_label(list(key))
        if label in pairs:
            raise GamelibError(
                f"two line-ups are both {label!r} (a sweep over player counts?): pick one "
                "with where={...}"
            )
        pairs[label] = [tb, tv]
    if not pairs:
        raise GamelibError(f"no line-up has runs with {field}={base!r} and {field}={variant!r}")
    return pairs


def _lineup(table: pd.DataFrame) -> list[str]:
    """A run's line-up as given (its first game: deal 0, seat arrangement 0)."""
    seats = sorted(
        (c for c in table.columns if re.fullmatch(r"player_\d+", c)),
        key=lambda c: int(c.split("_")[1]),
    )
    first = table.iloc[0]
    return [str(first[c]) for c in seats if pd.notna(first[c])]


def _deals(table: pd.DataFrame) -> int:
    return int(table["deal"].max()) + 1 if len(table) else 0


def decide_comparison(
    tables: Mapping[str, Sequence[pd.DataFrame]],
    questions: Sequence[Question],
    *,
    change: str,
    alpha: float = 0.05,
    beta: float = 0.05,
    first_batch: int = 50,
) -> pd.DataFrame:
    """Decide a comparison's questions on stored tables, as
    :func:`gamelib.verdict.compare.compare` decides them while it plays.

    ``tables``: per level, weakest first, [the base rules' games, the variant's games] on the
    same deals (:func:`paired_runs`); ``questions``: :class:`~gamelib.verdict.compare.Effect`
    and :class:`~gamelib.verdict.compare.Changes` at every level,
    :class:`~gamelib.verdict.compare.Depends` between neighbouring levels on the deals both
    hold; ``change`` names the change in the claims ("zero_multiplier=2").  Each unit looks at
    compare's schedule up to the deals its tables hold, so on a comparison's own packed table
    the rows equal the command's; a unit its deals leave undecided says so, with about how many
    more deals would decide.  Returns the rows of :data:`gamelib.verdict.COLUMNS`."""
    labels = list(tables)
    if not labels:
        raise ConfigError("no level to decide at")
    for label in labels:
        if len(tables[label]) != 2:
            raise ConfigError(f"{label}: give [base games, variant games]")
    lineups = [_lineup(tables[label][0]) for label in labels]
    paired = [q for q in questions if q.unit == "paired"]
    across = [q for q in questions if q.unit == "levels"]
    if len(paired) + len(across) != len(questions) or not questions:
        raise ConfigError("decide_comparison decides effect, changes and depends questions")
    if across and len(labels) < 2:
        raise ConfigError("depends compares two levels: give at least two (weakest first)")
    rows: list[dict[str, Any]] = []
    for label, ks, unit_qs, ctx in comparison_units(labels, questions):
        unit_tables = [t for k in ks for t in tables[labels[k]]]
        n = min(_deals(t) for t in unit_tables)
        cut = [t[t["deal"] < n].reset_index(drop=True) for t in unit_tables]
        looks = look_schedule(n, first_batch)
        for q in unit_qs:
            b = bind(q, ctx, change, lineups)
            try:
                rows.append(decide(cut, b, alpha=alpha, beta=beta, looks=looks, level=label))
            except ValueError as exc:
                raise ConfigError(f"{q.name} at {label}: {exc}") from None
    return pd.DataFrame(rows, columns=COLUMNS)


#: what the verdict questions' decisions mean, in a designer's words (compare's are in
#: :data:`gamelib.verdict.compare.WORDS`)
WORDS = {
    ("fair", HOLDS): "fair",
    ("fair", FAILS): "not fair",
    ("skill", HOLDS): "skill shows",
    ("skill", FAILS): "skill does not show",
    ("stalls", HOLDS): "rarely stalls",
    ("stalls", FAILS): "stalls too often",
    ("target", HOLDS): "on target",
    ("target", FAILS): "off target",
    ("length", HOLDS): "the right length",
    ("length", FAILS): "not the right length",
}


def _signed(x: float, digits: int) -> str:
    from gamelib.stats import number_text

    return number_text(x, digits, signed=True)


def sentence(row: Mapping[str, Any], digits: int = 3) -> str:
    """One decision (a row of a verdict or comparison table) in words, with everything a
    referee needs: the answer ("no effect", "depends on the level", "fair", "undecided"), the
    estimate and its bounds, the claim with its margin δ, the error rates α and β, the level
    and the deals used — and, when undecided, about how many more deals would decide (and,
    for a row of :class:`gamelib.study.Study` whose time budget stopped it short of the deals
    it ``asked`` for, where it stopped)."""
    from gamelib.stats import interval_text

    q, decision = str(row["question"]), str(row["decision"])
    words = WORDS.get((q, decision)) or meaning(q, decision)
    if q in ("effect", "depends"):
        est = (
            f"{_signed(row['estimate'], digits)} "
            f"[{_signed(row['lo'], digits)}, {_signed(row['hi'], digits)}]"
        )
    else:
        est = interval_text(row["estimate"], row["lo"], row["hi"], digits)
    text = (
        f"**{words}** at {row['level']} — {row['measure']} {est}; the claim "
        f"“{row['claim']}” {decision if decision != UNDECIDED else 'is undecided'} "
        f"(α {row['alpha']:g}, β {row['beta']:g}; {int(row['deals']):,} deals, "
        f"{int(row['games']):,} games)"
    )
    if row["lo"] > row["hi"]:
        text += (
            "; its running bounds have crossed (the lower above the upper, which happens with "
            "probability at most 2α), so the deals a decision would need cannot be estimated"
        )
    elif decision == UNDECIDED:
        more = row["more_deals"]
        if more is None or (isinstance(more, float) and math.isnan(more)):
            text += "; the estimate sits on the margin, so no number of deals would decide it"
        else:
            text += f"; about {int(more):,} more deals would decide"
    asked = row.get("asked")
    if decision == UNDECIDED and isinstance(asked, numbers.Real) and row["deals"] < asked:
        text += (
            f" — the time budget stopped it at {int(row['deals']):,} of the "
            f"{int(float(asked)):,} deals asked for"
        )
    return text


def sentences(
    table: pd.DataFrame, by: str, names: Mapping[Any, str] | None = None, digits: int = 3
) -> str:
    """Several decisions in one finding: each row's :func:`sentence` after its ``by`` value (or
    that value's name in ``names``), in the table's order, joined by semicolons — "at the
    heuristic — **an effect** at …; at the search level — **an effect** at …"."""
    names = names or {}
    rows: list[Mapping[str, Any]] = [{str(k): v for k, v in r.items()} for _, r in table.iterrows()]
    return "; ".join(f"{names.get(r[by], r[by])} — {sentence(r, digits)}" for r in rows)


def rule_recommendation(row: Mapping[str, Any], rule: str) -> str:
    """What to print about ``rule`` from its effect verdict on the share of the player who
    plays for it (a comparison row, variant = with the rule): **keep** it when the effect fails
    upwards (the rule is worth more than δ to that player: playing for it pays), **drop** it
    when the effect holds (worth less than ±δ: the rule asks players to track something that
    does not pay) or fails downwards (it costs the player who plays for it), and
    **undecided** otherwise, with the deals a decision would need at that level."""
    if row["question"] != "effect":
        raise ConfigError(f"a recommendation reads an effect verdict, not {row['question']}")
    where = f"at {row['level']}, δ {row['margin']:g}"
    if row["decision"] == FAILS and row["estimate"] > 0:
        return f"**keep {rule}** (it is worth more than δ to the player who plays for it, {where})"
    if row["decision"] == HOLDS:
        return f"**drop {rule}** (it is worth less than ±δ to the player who plays for it, {where})"
    if row["decision"] == FAILS:
        return f"**drop {rule}** (it costs the player who plays for it more than δ, {where})"
    more = row["more_deals"]
    need = (
        "the estimate sits on the margin"
        if more is None or (isinstance(more, float) and math.isnan(more))
        else f"about {int(more):,} more deals would decide"
    )
    return f"**undecided** whether to keep {rule} ({where}: {need})"


def verdict_list(table: pd.DataFrame, digits: int = 3) -> str:
    """A verdict table's rows in one finding: a clause a row — "`level` **answer** (measure
    estimate [lo, hi])", an undecided one with about how many more deals would decide, and
    where the time budget stopped it when it stopped short of the deals it ``asked`` for — then
    which rows share each answer ("In all: not fair at `a`, `b`; undecided at `c`.")."""
    from gamelib.stats import interval_text

    clauses: list[str] = []
    groups: dict[str, list[str]] = {}
    for row in table.to_dict("records"):
        q, decision = str(row["question"]), str(row["decision"])
        words = WORDS.get((q, decision)) or meaning(q, decision)
        said = f"{row['measure']} {interval_text(row['estimate'], row['lo'], row['hi'], digits)}"
        more = float(m) if isinstance(m := row.get("more_deals"), numbers.Real) else math.nan
        asked = float(a) if isinstance(a := row.get("asked"), numbers.Real) else math.nan
        if decision == UNDECIDED and more == more:
            said += f"; {f'about {int(more):,}' if more >= 1 else 'a few'} more deals would decide"
        elif decision == UNDECIDED:
            said += "; the estimate sits on the margin"
        if decision == UNDECIDED and row["deals"] < asked:
            said += f"; the time budget stopped it at {int(row['deals']):,} of {int(asked):,} deals"
        shown = words if decision == UNDECIDED else f"**{words}**"
        clauses.append(f"`{row['level']}` {shown} ({said})")
        groups.setdefault(words, []).append(f"`{row['level']}`")
    summary = "; ".join(f"{words} at {', '.join(rows)}" for words, rows in groups.items())
    return "; ".join(clauses) + (f". In all: {summary}." if clauses else "")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m gamelib.verdict.stored FOLDER OUT.parquet [--columns a,b]``."""
    ap = argparse.ArgumentParser(
        prog="python -m gamelib.verdict.stored",
        description="Pack the --resume folder of a finished gamelib compare or verdict run "
        "into one stored table with its provenance (data/results/).",
    )
    ap.add_argument("folder", type=Path, help="the run's --resume folder")
    ap.add_argument("out", type=Path, help="the .parquet table to write")
    ap.add_argument("--columns", default=None, help="outcome columns to keep (default: all)")
    args = ap.parse_args(argv)
    cols = None if args.columns is None else [c for c in args.columns.split(",") if c]
    try:
        table = pack(args.folder, args.out, cols)
    except GamelibError as exc:
        print(f"gamelib: error: {exc}", file=sys.stderr)
        return 2
    runs = table.attrs["provenance"]["runs"]
    deals = ", ".join(str(r["n_games"]) for r in runs)
    print(f"{args.out}: {len(table):,} games in {len(runs)} runs (deals per run: {deals})")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
