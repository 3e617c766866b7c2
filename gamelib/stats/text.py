"""Findings in words: numbers and intervals as a designer reads them (never ``-0.000``), a
direction from an interval, a paired change, and the rendered summary a notebook shows."""

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


def findings(items: Sequence[str], title: str | None = None) -> Any:
    """The notebook's answers as a Markdown bullet list (``IPython.display.Markdown``), so every
    number, direction and ranking in the summary is rendered from the result tables."""
    from IPython.display import Markdown

    head = [f"**{title}**", ""] if title else []
    text = "\n".join([*head, *(f"- {item}" for item in items)])
    return Markdown(text)  # type: ignore[no-untyped-call]
