"""Studies for notebooks and scripts: parameters checked first, a plan with its time estimate
stated before play, and the games taken from the study cache.

A notebook's parameters cell is the single source of its values; the cell after it checks each
one with :data:`check` and stops with one line naming a bad one (``GARGON_PLAYERS must be 3, 4
or 5, got 6``), never a KeyError twenty cells later.  :func:`plan` then says what the notebook
will play — for each run, the deals the study cache (:mod:`gamelib.sim.deals`) or a stored
study already holds and the deals still to play — and how long that should take on this machine,
from a measured cost per deal of each line-up (measured once, by playing a few deals of it on a
probe seed for about a fifth of a second, and remembered in ``costs.json`` beside the cache).  Play
itself goes through the usual functions with ``cache=True``: :func:`gamelib.sim.simulate`,
:func:`~gamelib.sim.sweep`, :func:`gamelib.verdict.verdict` and
:func:`~gamelib.verdict.compare.compare` (the last two stop at ``max_minutes`` with their
anytime-valid bounds).

The cost model is the simplest that works: seconds per deal of a line-up on one core, times the
deals still to play, divided by the workers (play is embarrassingly parallel by deal).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from gamelib.core import ConfigError, GamelibError, check_seed
from gamelib.registry import GAMES
from gamelib.sim import default_workers, game_of, player_name, run_spec
from gamelib.sim.deals import RunCache, cache_root
from gamelib.sim.store import atomic_write_text

__all__ = [
    "Job",
    "ParameterError",
    "check",
    "deals_within",
    "estimate_seconds",
    "held",
    "plan",
    "plan_text",
]


class ParameterError(GamelibError, ValueError):
    """A notebook parameter outside its domain; shown as its one line in Jupyter."""

    def _render_traceback_(self) -> list[str]:  # IPython shows these lines instead of a traceback
        return [f"ParameterError: {self}"]


def _words(choices: Sequence[Any]) -> str:
    shown = [repr(c) if isinstance(c, str) else str(c) for c in choices]
    if len(shown) <= 1:
        return "".join(shown)
    return ", ".join(shown[:-1]) + " or " + shown[-1]


class _Checks:
    """Each check raises :class:`ParameterError` naming the parameter, its domain and the value."""

    def one_of(self, name: str, value: Any, choices: Sequence[Any]) -> Any:
        """``value`` is one of ``choices``."""
        if isinstance(value, bool) and not any(isinstance(c, bool) for c in choices):
            raise ParameterError(f"{name} must be {_words(choices)}, got {value!r}")
        if value not in list(choices):
            raise ParameterError(f"{name} must be {_words(choices)}, got {value!r}")
        return value

    def wholes(
        self,
        name: str,
        value: Any,
        lo: int | None = None,
        hi: int | None = None,
        empty: bool = False,
    ) -> Any:
        """A list of distinct whole numbers within ``lo`` … ``hi`` (non-empty unless ``empty``)."""
        if isinstance(value, str) or not isinstance(value, Sequence):
            raise ParameterError(f"{name} must be a list of whole numbers, got {value!r}")
        if not value and not empty:
            raise ParameterError(f"{name} must list at least one whole number")
        for v in value:
            try:
                self.whole(name, v, lo, hi)
            except ParameterError as exc:
                raise ParameterError(f"{exc} in {value!r}") from None
        if len(set(value)) != len(value):
            raise ParameterError(f"{name} lists a value twice: {value!r}")
        return value

    def subset(self, name: str, value: Any, choices: Sequence[Any], empty: bool = False) -> Any:
        """``value`` is a list of distinct members of ``choices`` (non-empty unless ``empty``)."""
        if isinstance(value, str) or not isinstance(value, Sequence):
            raise ParameterError(f"{name} must be a list of {_words(choices)}, got {value!r}")
        if not value and not empty:
            raise ParameterError(f"{name} must list at least one of {_words(choices)}")
        for v in value:
            if isinstance(v, bool) or v not in list(choices):
                raise ParameterError(
                    f"{name} must list values among {_words(choices)}, got {v!r} in {value!r}"
                )
        if len(set(map(repr, value))) != len(value):
            raise ParameterError(f"{name} lists a value twice: {value!r}")
        return value

    def whole(
        self,
        name: str,
        value: Any,
        lo: int | None = None,
        hi: int | None = None,
        none: bool = False,
    ) -> Any:
        """A whole number within ``lo`` … ``hi`` (inclusive); ``None`` too if ``none``."""
        if value is None and none:
            return value
        ok = isinstance(value, int) and not isinstance(value, bool)
        if ok and (lo is None or value >= lo) and (hi is None or value <= hi):
            return value
        where = (
            f"from {lo} to {hi}"
            if lo is not None and hi is not None
            else f"≥ {lo}"
            if lo is not None
            else f"≤ {hi}"
            if hi is not None
            else ""
        )
        raise ParameterError(
            f"{name} must be a whole number {where}".rstrip()
            + (" or None" if none else "")
            + f", got {value!r}"
        )

    def number(
        self,
        name: str,
        value: Any,
        lo: float | None = None,
        hi: float | None = None,
        strict: bool = True,
        none: bool = False,
    ) -> Any:
        """A number between ``lo`` and ``hi`` (excluded if ``strict``); ``None`` too if ``none``."""
        if value is None and none:
            return value
        ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
        if ok:
            above = lo is None or (value > lo if strict else value >= lo)
            below = hi is None or (value < hi if strict else value <= hi)
            if above and below:
                return value
        sign = ("<", ">") if strict else ("≤", "≥")
        if lo is not None and hi is not None:
            where = f"with {lo:g} {sign[0]} {name} {sign[0]} {hi:g}"
        elif lo is not None:
            where = f"{sign[1]} {lo:g}"
        elif hi is not None:
            where = f"{sign[0]} {hi:g}"
        else:
            where = "(finite)"
        raise ParameterError(
            f"{name} must be a number {where}" + (" or None" if none else "") + f", got {value!r}"
        )

    def flag(self, name: str, value: Any) -> Any:
        """True or False."""
        if not isinstance(value, bool):
            raise ParameterError(f"{name} must be True or False, got {value!r}")
        return value

    def seed(self, name: str, value: Any) -> Any:
        """A seed: a whole number 0 ≤ seed < 2**128."""
        try:
            check_seed(value, name)
        except ConfigError as exc:
            raise ParameterError(str(exc)) from None
        return value

    def player(self, name: str, value: Any, game: str, seats: int | None = None) -> Any:
        """A player the game knows (its known players are named otherwise)."""
        g = GAMES[game] if isinstance(game, str) else game
        if not isinstance(value, str) or not value.strip():
            raise ParameterError(f"{name} must be a player name of {g.name}, got {value!r}")
        try:
            g.player(value)
        except (ConfigError, ValueError, KeyError) as exc:
            raise ParameterError(f"{name}: {exc}") from None
        return value

    def players(self, name: str, value: Any, game: str, empty: bool = False) -> Any:
        """A list of distinct players the game knows."""
        if isinstance(value, str) or not isinstance(value, Sequence):
            raise ParameterError(f"{name} must be a list of player names, got {value!r}")
        if not value and not empty:
            raise ParameterError(f"{name} must name at least one player")
        for v in value:
            self.player(name, v, game)
        if len(set(value)) != len(value):
            raise ParameterError(f"{name} names a player twice: {value!r}")
        return value

    def rules(self, name: str, game: str, setup: Any = None, **fields: Any) -> Any:
        """The rule set builds (a known setup, known fields, values each field takes); returns
        its config."""
        g = GAMES[game]
        try:
            return g.config(setup, **fields)
        except (ConfigError, ValueError, TypeError) as exc:
            raise ParameterError(f"{name}: {exc}") from None

    def minutes(self, name: str, value: Any) -> Any:
        """A time budget: a positive number of minutes."""
        return self.number(name, value, lo=0, strict=True)

    def workers(self, name: str, value: Any) -> Any:
        """Local worker processes: a whole number ≥ 1 (more than the cores uses the cores)."""
        return self.whole(name, value, lo=1)

    def scheduler(self, name: str, value: Any) -> Any:
        """None (this machine) or a Dask scheduler address (``tcp://host:port``)."""
        if value is None:
            return value
        from gamelib.core import ClusterError
        from gamelib.sim import check_scheduler_address

        if not isinstance(value, str):
            raise ParameterError(f"{name} must be None or a Dask address tcp://HOST:PORT")
        try:
            check_scheduler_address(value, name)
        except (ConfigError, ClusterError) as exc:
            raise ParameterError(str(exc)) from None
        return value


#: the parameter checks a notebook's second cell runs (``check.one_of("X", X, [...])``, …)
check = _Checks()


@dataclass(frozen=True)
class Job:
    """One run a study will ask for: ``deals`` deals of ``players`` on ``config`` (``columns``:
    the outcome columns it reads, as ``simulate(columns=...)``; a stored study slimmed to them
    serves it)."""

    label: str
    config: Any
    players: Sequence[str]
    deals: int
    rotate_seats: bool = False
    columns: Sequence[str] | None = None

    @property
    def per_deal(self) -> int:
        return len(self.players) if self.rotate_seats else 1


def _costs_file() -> Path:
    root, _ = cache_root(True)
    return root / "costs.json"


def _cost_key(job: Job) -> str:
    """What a deal's cost depends on most: the game, its size (the rules' setup or seats) and
    the line-up; other rule fields share one measure (a cost is an estimate, not a promise)."""
    g = game_of(job.config).name
    size = getattr(job.config, "setup", None) or getattr(job.config, "n_players", None)
    return f"{g}|{size}|{','.join(player_name(p) for p in job.players)}|{job.rotate_seats}"


def _read_costs() -> dict[str, float]:
    try:
        data = json.loads(_costs_file().read_text(encoding="utf-8"))
        return {str(k): float(v) for k, v in data.items()}
    except (OSError, ValueError, AttributeError):
        return {}


def _write_cost(key: str, seconds: float) -> None:
    costs = _read_costs()
    costs[key] = seconds
    # a cost that cannot be written is measured again next time
    with contextlib.suppress(OSError):
        atomic_write_text(_costs_file(), json.dumps(costs, indent=1, sort_keys=True))


def held(job: Job, seed: int, cache: bool | str | os.PathLike[str] = True) -> int:
    """The deals 0 … k−1 of the job's run the study cache or a stored study holds: k."""
    spec = run_spec(job.config, job.players, job.deals, seed, job.rotate_seats)
    return _held(job, spec, cache)


def _held(job: Job, spec: dict[str, Any], cache: bool | str | os.PathLike[str]) -> int:
    root, what = cache_root(cache)
    entry = RunCache(spec, root, job.per_deal, what, need=job.columns)
    parts = entry.parts(job.deals, spec["seed"])
    at = 0
    for a in sorted(parts):
        if a > at:
            break
        at = max(at, parts[a][0])
    return at


def estimate_seconds(job: Job, seed: int, cache: bool | str | os.PathLike[str] = True) -> float:
    """Seconds one core needs for one deal of the job's run, as measured on this machine: read
    from ``costs.json`` beside the cache, or measured now by playing deals of the same line-up
    on a probe seed (``seed`` + 7919): one untimed deal (the first deal of a process loads the
    compiled core), then the slope between two sizes (a call's fixed cost is not a deal's).
    A deal of a rotated line-up is all its seat arrangements."""
    from gamelib.sim import simulate

    key = _cost_key(job)
    known = _read_costs().get(key)
    if known is not None:
        return known
    probe_seed = (seed + 7919) % 2**128

    def timed(first: int, n: int) -> float:
        # deals already cached cost nothing: a run of the same line-up on another seed times
        # real play, in this process (no worker start-up); not kept in the cache
        t0 = time.perf_counter()
        simulate(
            job.config,
            list(job.players),
            n,
            (probe_seed + first) % 2**128,
            rotate_seats=job.rotate_seats,
            workers=1,
            progress=False,
        )
        return time.perf_counter() - t0

    timed(0, 1)  # untimed: the first deal of a process loads the compiled core
    # the slope between two sizes: a call's fixed cost (a rotated line-up's set-up, the
    # table's tidying) is not a deal's
    probe, small = 1, 0.0
    while True:
        small = timed(probe, probe)
        if small > 0.05 or probe >= 512:
            break
        probe *= 8
    large = timed(9 * probe, 4 * probe)
    seconds = max(large - small, 0.25 * large) / (3 * probe)
    _write_cost(key, seconds)
    return seconds


def plan(
    jobs: Iterable[Job],
    seed: int,
    minutes: float | None = None,
    workers: int | None = None,
    cache: bool | str | os.PathLike[str] = True,
    show: bool = True,
) -> pd.DataFrame:
    """What a study will play, before it plays: per job the deals asked for, the deals the
    cache or a stored study holds, the deals to play and the estimated minutes (``workers``
    cores; default: all).  Printed with the total against ``minutes`` when ``show``; returns
    the table (``attrs["minutes"]``: the estimate in all)."""
    cores = max(1, min(workers or default_workers(), default_workers()))
    rows = []
    for job in jobs:
        spec = run_spec(job.config, job.players, job.deals, seed, job.rotate_seats)
        have = _held(job, spec, cache)
        todo = max(0, job.deals - have)
        cost = estimate_seconds(job, seed, cache) if todo else 0.0
        rows.append(
            {
                "study": job.label,
                "players": ",".join(player_name(p) for p in job.players),
                "deals": job.deals,
                "stored": min(have, job.deals),
                "to play": todo,
                "minutes": cost * todo / cores / 60.0,
            }
        )
    table = pd.DataFrame(
        rows, columns=["study", "players", "deals", "stored", "to play", "minutes"]
    )
    total = float(table["minutes"].sum()) if len(table) else 0.0
    table.attrs["minutes"] = total
    if show:
        print(plan_text(table, minutes, cores))
    return table


def plan_text(table: pd.DataFrame, minutes: float | None, cores: int) -> str:
    """The plan in words: what is stored, what will be played, how long it should take."""
    total = float(table.attrs.get("minutes", table["minutes"].sum() if len(table) else 0.0))
    stored = int(table["stored"].sum()) if len(table) else 0
    todo = int(table["to play"].sum()) if len(table) else 0
    head = (
        f"{len(table)} run(s): {stored:,} deals stored, {todo:,} to play "
        f"— about {_mins(total)} on {cores} core(s)"
    )
    if minutes is not None:
        head += f" (budget {_mins(minutes)}" + (
            "; verdicts stop at it, other studies are trimmed to fit)" if total > minutes else ")"
        )
    return head


def _mins(m: float) -> str:
    if m < 1 / 60:
        return "under a second"
    if m < 1:
        return f"{m * 60:.0f} s"
    return f"{m:.1f} min"


def deals_within(job: Job, seed: int, minutes: float, workers: int | None = None) -> int:
    """The most deals of ``job`` (up to ``job.deals``) that fit in ``minutes``: the deals
    already held, plus what the measured cost allows on ``workers`` cores."""
    cores = max(1, min(workers or default_workers(), default_workers()))
    spec = run_spec(job.config, job.players, job.deals, seed, job.rotate_seats)
    have = _held(job, spec, True)
    if have >= job.deals:
        return job.deals
    cost = estimate_seconds(job, seed) / cores
    extra = int(minutes * 60.0 / cost) if cost > 0 else job.deals
    return min(job.deals, have + extra)
