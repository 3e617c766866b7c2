"""A verdict's time budget and what its questions read: the clock that gives each unit an
equal share of the minutes left, and the outcome columns a stored study must hold to serve a
verdict's runs.  Stopping a unit at any look is valid: the confidence sequences of
:mod:`gamelib.verdict.sequential` hold at any stopping time (Howard et al. 2021).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

from gamelib.core import ConfigError


def check_minutes(minutes: float | None, what: str = "max_minutes") -> None:
    """A time budget is a positive number of minutes (or None: no budget)."""
    if minutes is None:
        return
    if not isinstance(minutes, int | float) or isinstance(minutes, bool) or not minutes > 0:
        raise ConfigError(f"{what} must be a positive number of minutes, got {minutes!r}")
    if math.isinf(minutes) or math.isnan(minutes):
        raise ConfigError(f"{what} must be a finite number of minutes, got {minutes!r}")


class Clock:
    """A verdict's time budget: each unit still to decide gets an equal share of what is left
    (so the first unit cannot spend the whole budget)."""

    def __init__(self, minutes: float | None) -> None:
        self.end = None if minutes is None else time.monotonic() + 60.0 * minutes

    def unit_deadline(self, units_left: int) -> float | None:
        if self.end is None:
            return None
        now = time.monotonic()
        return now + max(0.0, self.end - now) / max(1, units_left)

    def over(self, deadline: float | None) -> bool:
        return deadline is not None and time.monotonic() >= deadline


def need_columns(seats: Sequence[Any], extra: Sequence[str] = ()) -> list[str]:
    """The outcome columns a verdict's questions read from a run's games (a stored study
    without them cannot serve it): the seats' wins, and ``extra`` (a measured column)."""
    return [f"win_{s}" for s in range(len(seats))] + list(extra)


def stopped(
    kind: str, exc: BaseException, kept: int, resume: Any, cache: Any, how_to_keep: str
) -> str:
    """What an interrupted verdict or comparison says: why it stopped (Ctrl-C, a worker that
    died) and where its finished deals are, so the same call resumes."""
    from concurrent.futures import BrokenExecutor

    why = (
        "stopped: a worker process died (killed, or out of memory)"
        if isinstance(exc, BrokenExecutor)
        else "interrupted"
    )
    if resume is not None:
        where = f"kept in {resume}; run the same call again to resume"
    elif cache is not False:
        where = "kept in the study cache; run the same call again to resume"
    else:
        where = f"lost; pass {how_to_keep} to keep finished deals"
    return f"{kind} {why}: {kept} finished deals {where}"


def read_manifest(path: Any, kind: str) -> Any:
    """A resume folder's ``verdict.json`` / ``compare.json``, or a one-line error naming it."""
    import json

    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(
            f"{path} is not a gamelib {kind} manifest ({exc}); use another resume folder or "
            "delete this one"
        ) from None
