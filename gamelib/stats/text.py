"""Findings in words: numbers and intervals as a designer reads them (never ``-0.000``), a
direction from an interval, a paired change, a row of an estimate table and a table of them in
one finding, and the rendered summary a notebook shows."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any


def number_text(x: float, digits: int = 3, *, signed: bool = False, pct: bool = False) -> str:
    """A number as a finding prints it: ``digits`` decimals (a percentage: ``digits`` − 2), with
    its sign when ``signed`` — and a value that rounds to zero prints as a plain zero
    (``0.000``, ``0.0%``), never ``-0.000`` or ``+0.000``: a rounded zero has no direction."""
    d = max(digits - 2, 0) if pct else digits
    spec = f".{d}%" if pct else f".{d}f"
    text = format(x, ("+" if signed else "") + spec)
    if math.isfinite(x) and float(text.rstrip("%")) == 0:
        return format(0.0, spec)
    return text


def interval_text(est: float, lo: float, hi: float, digits: int = 3, *, pct: bool = False) -> str:
    """An estimate with its interval as text: ``0.087 [0.078, 0.098]`` or ``8.7% [7.8%, 9.8%]``
    (a bound that rounds to zero prints as ``0.000``, never ``-0.000``)."""
    f = [number_text(x, digits, pct=pct) for x in (est, lo, hi)]
    return f"{f[0]} [{f[1]}, {f[2]}]"


def direction(lo: float, hi: float, up: str, down: str, neither: str, at: float = 0.0) -> str:
    """The word an interval supports: ``up`` if it lies above ``at``, ``down`` if below,
    ``neither`` if it contains ``at`` — so a generated sentence never outruns its interval."""
    if lo > at:
        return up
    if hi < at:
        return down
    return neither


def change_text(effect: Mapping[str, Any], *, digits: int = 3, pct: bool = False) -> str:
    """A paired effect (a row of :func:`~gamelib.stats.tables.paired_effects`) as text: the
    baseline mean, the
    variant's, and the difference with its interval — ``0.090 → 0.258 (+0.168 [+0.150, +0.186])``
    (signed; a value that rounds to zero prints as ``0.000``, never ``-0.000``).
    """

    def f(x: float) -> str:
        return number_text(x, digits, pct=pct)

    def g(x: float) -> str:
        return number_text(x, digits, signed=True, pct=pct)

    return (
        f"{f(effect['mean_b'])} → {f(effect['mean_a'])} "
        f"({g(effect['diff'])} [{g(effect['lo'])}, {g(effect['hi'])}])"
    )


#: the estimate column of each kind of :mod:`gamelib.stats` table, in the order they are looked for
ESTIMATES = ("rate", "mean", "share", "coef", "diff", "estimate", "ratio")


def estimate_text(
    row: Mapping[str, Any],
    digits: int = 3,
    *,
    pct: bool = False,
    words: Sequence[str] | None = None,
    at: float | str = 0.0,
) -> str:
    """A row of a :mod:`gamelib.stats` table in words: its estimate (``rate``, ``mean``,
    ``share``, ``coef``, ``diff``, ``estimate`` or ``ratio``) with its interval —
    ``0.599 [0.577, 0.620]`` — or, for a row of ``describe()``, the median with its quartiles,
    ``13 (11–15)``.  ``words``: (up, down, neither), the word the interval supports against
    ``at`` (:func:`direction`), in brackets after it — ``0.173 [0.161, 0.184] (more than
    even)``.  ``at`` may name a column of the row, so each row of a table is judged against
    its own reference (a player's ``fair_share``), and ``{at}`` in a word is the reference as a
    number — "(above its fair share {at})" says ``(above its fair share 0.250)``.  An interval
    with an infinite bound (a ratio whose denominator the deals cannot tell from zero) is said
    to be unbounded, and a missing estimate missing, never printed as ``inf`` or ``nan``."""
    if "50%" in row and "lo" not in row:
        q1, median, q3 = (number_text(float(row[k]), digits) for k in ("25%", "50%", "75%"))
        return f"{median} ({q1}–{q3})"
    names = [k for k in ESTIMATES if k in row]
    if not names or "lo" not in row or "hi" not in row:
        raise ValueError(f"not a row of an estimate table (no {'/'.join(ESTIMATES)}, lo, hi)")
    est, lo, hi = float(row[names[0]]), float(row["lo"]), float(row["hi"])
    if not math.isfinite(est):
        return "no estimate (these deals cannot give one)"
    if math.isfinite(lo) and math.isfinite(hi):
        text = interval_text(est, lo, hi, digits, pct=pct)
    else:
        text = f"{number_text(est, digits, pct=pct)} (an interval these deals cannot bound)"
    if words is None:
        return text
    mark = float(row[at]) if isinstance(at, str) else at
    up, down, neither = words
    word = direction(lo, hi, up, down, neither, at=mark)
    return f"{text} ({word.replace('{at}', number_text(mark, digits, pct=pct))})"


def listed(table: Any, by: str | None = None, *, sep: str = "; ", **how: Any) -> str:
    """A table of estimates in one finding: each row's ``by`` value (or its index) in code
    quotes and its :func:`estimate_text` (``how``: that function's options, ``at`` a column
    for a reference of each row's own) — "`greedy` 0.599 [0.577, 0.620]; `random` 0.995
    [0.991, 0.997]"."""
    rows = table.set_index(by) if by is not None else table
    return sep.join(f"`{key}` {estimate_text(row, **how)}" for key, row in rows.iterrows())


def listed_changes(
    table: Any, by: str | None = None, *, sep: str = "; ", digits: int = 3, pct: bool = False
) -> str:
    """A table of paired effects (rows of :func:`~gamelib.stats.tables.paired_effects`: ``mean_b``,
    ``mean_a``, ``diff``, ``lo``, ``hi``) in one finding: each row's ``by`` value (or its index)
    in code quotes and its :func:`change_text` — "`greedy` 1.927 → 2.348 (+0.420 [+0.352,
    +0.488]); `random` 1.262 → 1.396 (+0.135 [+0.073, +0.196])"."""
    rows = table.set_index(by) if by is not None else table
    return sep.join(
        f"`{key}` {change_text(row, digits=digits, pct=pct)}" for key, row in rows.iterrows()
    )


def budget_text(cut: Mapping[Any, int], minutes: float) -> str:
    """What a study's time budget did, in words, from the deals each ask it cut short stopped at
    (``Answers.cut`` of :class:`gamelib.study.Study`): "every ask played the deals asked for",
    or "the time budget (1 min) cut heuristics greedy to 1,200 deals; search to 40 deals" (a
    key that is a tuple is said as its parts)."""
    if not cut:
        return "every ask played the deals asked for"
    said = [
        f"{' '.join(map(str, key)) if isinstance(key, tuple) else key} to {deals:,} deals"
        for key, deals in cut.items()
    ]
    return f"the time budget ({minutes:g} min) cut " + "; ".join(said)


def range_text(values: Any, digits: int = 3) -> str:
    """A labelled column's range in words, its lowest and its highest value each with its label
    (the index) in code quotes: "from 12 (`A`) to 31 (`standard`)", or the first row's when
    every value is the same, "12 (`A`)".  Given a table of estimates (a :mod:`gamelib.stats`
    table: ``share``, ``rate``, … with ``lo`` and ``hi``), its lowest and highest rows by their
    estimate, each with its interval (:func:`estimate_text`): "from 0.400 [0.346, 0.456]
    (`C/one`) to …"."""
    if hasattr(values, "columns"):
        est = next((k for k in ESTIMATES if k in values.columns), None)
        if est is None:
            raise ValueError(f"not an estimate table (no {'/'.join(ESTIMATES)} column)")
        rows = values[values[est].notna()]
        order = rows[est]

        def said(i: int) -> str:
            return f"{estimate_text(rows.iloc[i], digits)} (`{rows.index[i]}`)"
    else:
        order = values.dropna()

        def said(i: int) -> str:
            return f"{number_text(float(order.iloc[i]), digits)} (`{order.index[i]}`)"

    if order.empty:
        return "no values"
    lo, hi = int(order.argmin()), int(order.argmax())  # positions: labels may repeat
    return said(lo) if order.iloc[lo] == order.iloc[hi] else f"from {said(lo)} to {said(hi)}"


def screen_text(
    screen: Any, by: str | Sequence[str] | None = None, *, null: float = 0.5, digits: int = 3
) -> str:
    """A screen of many groups in one finding: a table with a row a group (the group named by
    its index), its ``share`` and whether the adjusted test rejects ``null`` (``reject``: a row
    of :func:`~gamelib.stats.tables.seat_screen` after
    :func:`~gamelib.stats.intervals.adjust_pvalues`), said per value of ``by``: how many groups
    the test puts above ``null`` and how many below, of how many, and the lowest and highest
    share with their intervals (:func:`range_text`) — "`greedy`: 47 above 0.5, 1 below, of 72
    (from 0.400 [0.346, 0.456] (`C/one`) to 0.867 [0.822, 0.902] (`A/none`))"."""
    names = [] if by is None else [by] if isinstance(by, str) else list(by)
    groups = [((), screen)] if not names else screen.groupby(names, observed=True, sort=False)
    said = []
    for key, g in groups:
        reject = g["reject"].astype(bool)
        above = int((reject & (g["share"] > null)).sum())
        below = int((reject & (g["share"] < null)).sum())
        keys = key if isinstance(key, tuple) else (key,)
        head = f"`{' '.join(map(str, keys))}`: " if names else ""
        said.append(
            f"{head}{above} above {null:g}, {below} below, of {len(g)} ({range_text(g, digits)})"
        )
    return "; ".join(said)


def findings(items: Sequence[str], title: str | None = None) -> Any:
    """The notebook's answers as a Markdown bullet list (``IPython.display.Markdown``), so every
    number, direction and ranking in the summary is rendered from the result tables."""
    from IPython.display import Markdown

    head = [f"**{title}**", ""] if title else []
    text = "\n".join([*head, *(f"- {item}" for item in items)])
    return Markdown(text)  # type: ignore[no-untyped-call]
