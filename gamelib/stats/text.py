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
    at: float = 0.0,
) -> str:
    """A row of a :mod:`gamelib.stats` table in words: its estimate (``rate``, ``mean``,
    ``share``, ``coef``, ``diff``, ``estimate`` or ``ratio``) with its interval —
    ``0.599 [0.577, 0.620]`` — or, for a row of ``describe()``, the median with its quartiles,
    ``13 (11–15)``.  ``words``: (up, down, neither), the word the interval supports against
    ``at`` (:func:`direction`), in brackets after it — ``0.173 [0.161, 0.184] (more than
    even)``.  An interval with an infinite bound (a ratio whose denominator the deals cannot
    tell from zero) is said to be unbounded, and a missing estimate missing, never printed as
    ``inf`` or ``nan``."""
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
    up, down, neither = words
    return f"{text} ({direction(lo, hi, up, down, neither, at=at)})"


def listed(table: Any, by: str | None = None, *, sep: str = "; ", **how: Any) -> str:
    """A table of estimates in one finding: each row's ``by`` value (or its index) in code
    quotes and its :func:`estimate_text` (``how``: that function's options) — "`greedy` 0.599
    [0.577, 0.620]; `random` 0.995 [0.991, 0.997]"."""
    rows = table.set_index(by) if by is not None else table
    return sep.join(f"`{key}` {estimate_text(row, **how)}" for key, row in rows.iterrows())


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


def findings(items: Sequence[str], title: str | None = None) -> Any:
    """The notebook's answers as a Markdown bullet list (``IPython.display.Markdown``), so every
    number, direction and ranking in the summary is rendered from the result tables."""
    from IPython.display import Markdown

    head = [f"**{title}**", ""] if title else []
    text = "\n".join([*head, *(f"- {item}" for item in items)])
    return Markdown(text)  # type: ignore[no-untyped-call]
