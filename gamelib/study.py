"""Studies for notebooks and scripts: parameters checked first, a plan with its time estimate
stated before play, and the games taken from the study cache.

*Why one file (about 1,550 lines):* the checks, the plan, the cost model, the budget and the
declared study are the one room a notebook talks to; they read the same held deals and costs.

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
anytime-valid bounds), and a search of rules through :func:`gamelib.tune.search`
(:meth:`Study.tune`: its clock is its share of the budget).

The cost model is the simplest that works: seconds per deal of a line-up on one core, times the
deals still to play, divided by the workers (play is embarrassingly parallel by deal); a computed
table (:meth:`Study.table`: positions solved exactly, say) the same per item, measured by
computing its next item, on one core.
:class:`Budget` shares one time budget among a notebook's calls by that model and remembers
where it cut one.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import itertools
import json
import math
import os
import re
import time
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple, Protocol, cast

import pandas as pd

from gamelib.core import ConfigError, GamelibError, GamelibWarning, atomic_write_text, check_seed
from gamelib.registry import GAMES
from gamelib.sim import default_workers, game_of, player_name, run_spec
from gamelib.sim.deals import RunCache, cache_root
from gamelib.sim.store import DealRanges

__all__ = [
    "Answers",
    "Budget",
    "Call",
    "Computation",
    "Computed",
    "Job",
    "ParameterError",
    "Study",
    "check",
    "config_lineup",
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


def _root(name: str) -> str:
    """The parameter a check's name refers to: ``SEARCH_DEALS[3]`` and ``QUESTIONS's games``
    are checks of ``SEARCH_DEALS`` and ``QUESTIONS``."""
    m = re.match(r"[A-Za-z_][A-Za-z0-9_]*", name)
    return m.group(0) if m else name


def _parameter_names(source: str) -> list[str] | None:
    """The UPPER_CASE names a parameters cell assigns, or None when the cell is not one (it
    holds anything but assignments to UPPER_CASE names)."""
    import ast

    try:
        body = ast.parse(source).body
    except SyntaxError:
        return None
    names = []
    for node in body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if not targets or not all(isinstance(t, ast.Name) and t.id.isupper() for t in targets):
            return None
        names += [t.id for t in targets if isinstance(t, ast.Name)]
    return names or None


def _words(choices: Sequence[Any]) -> str:
    shown = [repr(c) if isinstance(c, str) else str(c) for c in choices]
    if len(shown) <= 1:
        return "".join(shown)
    return ", ".join(shown[:-1]) + " or " + shown[-1]


class _Checks:
    """Each check raises :class:`ParameterError` naming the parameter, its domain and the value;
    each notes the parameter it checked, so :meth:`only` can name a value set for a parameter
    the notebook does not have."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def only(self, names: dict[str, Any], *also: str) -> None:
        """No UPPER_CASE name is set in the parameters cell (or by papermill's injected cell)
        but the parameters the checks before this call named (and ``also``): a typo, or a
        parameter of another notebook, is named in one line instead of being silently unused.

        ``names`` is the notebook's ``globals()``; the cells read are the ones IPython ran just
        before this one (its ``In`` history) that hold nothing but assignments to UPPER_CASE
        names — the parameters cell and papermill's ``# Parameters`` cell.  Outside IPython, or
        when the cell before is another, there is nothing to compare and nothing is said."""
        known, self.seen = {*self.seen, *also}, set()
        history = names.get("In")
        if not isinstance(history, list) or len(history) < 2:
            return
        given: list[str] = []
        for source in reversed(history[:-1]):  # the cells before this one, latest first
            assigned = _parameter_names(source)
            if assigned is None:
                break
            given += assigned
        unknown = sorted({n for n in given if n not in known}, key=given.index)
        if unknown:
            them = ", ".join(sorted(known))
            raise ParameterError(
                f"{unknown[0]} is not a parameter of this notebook (its parameters: {them})"
            )

    def one_of(self, name: str, value: Any, choices: Sequence[Any]) -> Any:
        """``value`` is one of ``choices``."""
        self.seen.add(_root(name))
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
        self.seen.add(_root(name))
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

    def each_whole(
        self,
        name: str,
        value: Any,
        keys: Sequence[Any],
        lo: int | None = None,
        hi: int | None = None,
    ) -> dict[Any, int]:
        """One whole number within ``lo`` … ``hi`` for every key of ``keys``, or a dict with one
        for each (a key spelled as text, as JSON spells it, stands for the key it names; other
        keys are left alone, so one dict serves several choices of ``keys``); returns the number
        of each key, in the order of ``keys``."""
        self.seen.add(_root(name))
        if not isinstance(value, dict):
            self.whole(name, value, lo, hi)
            return {k: value for k in keys}
        given = {str(k): v for k, v in value.items()}
        for k in keys:
            if str(k) not in given:
                raise ParameterError(
                    f"{name} gives no value for {k!r}: give one whole number for all of "
                    f"{_words(list(keys))}, or a dict with one for each, got {value!r}"
                )
            self.whole(f"{name}[{k!r}]", given[str(k)], lo, hi)
        return {k: given[str(k)] for k in keys}

    def field_values(
        self, name: str, value: Any, game: str, field: str, least: int = 1
    ) -> list[Any]:
        """A list of at least ``least`` distinct values the rule ``field`` of ``game`` takes
        (the rules say which: a value they refuse is named with their one line)."""
        self.seen.add(_root(name))
        if isinstance(value, str) or not isinstance(value, Sequence):
            raise ParameterError(f"{name} must be a list of {field} values, got {value!r}")
        if len(value) < least:
            raise ParameterError(
                f"{name} must list at least {least} {field} value{'s' * (least > 1)}, got {value!r}"
            )
        if len(set(map(repr, value))) != len(value):
            raise ParameterError(f"{name} lists a value twice: {value!r}")
        for v in value:
            self.rules(name, game, None, **{field: v})
        return list(value)

    def subset(self, name: str, value: Any, choices: Sequence[Any], empty: bool = False) -> Any:
        """``value`` is a list of distinct members of ``choices`` (non-empty unless ``empty``)."""
        self.seen.add(_root(name))
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
        self.seen.add(_root(name))
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
        self.seen.add(_root(name))
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
        self.seen.add(_root(name))
        if not isinstance(value, bool):
            raise ParameterError(f"{name} must be True or False, got {value!r}")
        return value

    def seed(self, name: str, value: Any) -> Any:
        """A seed: a whole number 0 ≤ seed < 2**128."""
        self.seen.add(_root(name))
        try:
            check_seed(value, name)
        except ConfigError as exc:
            raise ParameterError(str(exc)) from None
        return value

    def player(self, name: str, value: Any, game: str, seats: int | None = None) -> Any:
        """A player the game knows (its known players are named otherwise)."""
        self.seen.add(_root(name))
        g = GAMES[game] if isinstance(game, str) else game
        if not isinstance(value, str) or not value.strip():
            raise ParameterError(f"{name} must be a player name of {g.name}, got {value!r}")
        try:
            g.player(value)
        except (ConfigError, ValueError, KeyError) as exc:
            raise ParameterError(f"{name}: {exc}") from None
        return value

    def players(self, name: str, value: Any, game: str, empty: bool = False, least: int = 1) -> Any:
        """A list of distinct players the game knows (at least ``least``; none too if
        ``empty``)."""
        self.seen.add(_root(name))
        if isinstance(value, str) or not isinstance(value, Sequence):
            raise ParameterError(f"{name} must be a list of player names, got {value!r}")
        if not value and not empty:
            raise ParameterError(f"{name} must name at least one player")
        if value and len(value) < least:
            raise ParameterError(f"{name} must name at least {least} players, got {value!r}")
        for v in value:
            self.player(name, v, game)
        if len(set(value)) != len(value):
            raise ParameterError(f"{name} names a player twice: {value!r}")
        return value

    def named(
        self, name: str, value: Any, items: Mapping[str, type | tuple[type, ...]]
    ) -> dict[str, tuple[Any, ...]]:
        """A non-empty dict from text names to entries of the ``items`` named, in order, each of
        its type — ``check.named("RULES", RULES, {"rule fields": dict, "levels": list})`` — an
        entry a tuple or a list (as JSON spells one), a list item a tuple too; returns the
        entries as tuples."""
        self.seen.add(_root(name))
        kinds: list[tuple[type, ...]] = []
        for kind in items.values():
            kind = kind if isinstance(kind, tuple) else (kind,)
            kinds.append((*kind, tuple) if list in kind else kind)
        ok = isinstance(value, dict) and bool(value)
        for key, entry in value.items() if ok else ():
            ok = ok and isinstance(key, str) and isinstance(entry, list | tuple)
            ok = ok and len(entry) == len(kinds) and all(map(isinstance, entry, kinds))
        if not ok:
            raise ParameterError(f"{name} must map a name to ({', '.join(items)}), got {value!r}")
        return {key: tuple(entry) for key, entry in value.items()}

    def keyed(
        self, name: str, value: Any, choices: Sequence[Any], need: Sequence[Any] = ()
    ) -> dict[Any, Any]:
        """A non-empty dict keyed by members of ``choices`` (games, player counts …) with an
        entry for each of ``need`` (other keys among ``choices`` are left alone, so one dict
        serves several choices of ``need``); returns it."""
        self.seen.add(_root(name))
        if not isinstance(value, dict) or not value:
            raise ParameterError(f"{name} must be a dict keyed by {_words(choices)}, got {value!r}")
        for k in value:
            if isinstance(k, bool) or k not in list(choices):
                raise ParameterError(
                    f"{name} must be keyed by {_words(choices)}, got {k!r} in {value!r}"
                )
        for k in need:
            if k not in value:
                raise ParameterError(f"{name} must have an entry for {k!r}")
        return value

    def questions(self, name: str, value: Any, config: Any, levels: Sequence[str]) -> list[Any]:
        """A non-empty list of verdict questions in words (``fair:0.05``, ``target:0.3:0.05``,
        ``stalls:0.05``, ``length:10..60``, ``skill:0.05``: :func:`gamelib.tune.parse_question`)
        that ``config`` can be asked at ``levels``: fairness only of a game with opponents, a
        target only of a solitaire, skill only up a ladder of two levels or more; returns the
        questions."""
        from gamelib.sim import n_seats
        from gamelib.tune import QUESTION_HELP, parse_question

        self.seen.add(_root(name))
        if isinstance(value, str) or not isinstance(value, Sequence) or not value:
            raise ParameterError(
                f"{name} must be a non-empty list of {QUESTION_HELP}, got {value!r}"
            )
        solitaire, out = n_seats(config) == 1, []
        for text in value:
            if not isinstance(text, str):
                raise ParameterError(f"{name}: a question is text ({QUESTION_HELP}), got {text!r}")
            try:
                q = parse_question(text)
            except ConfigError as exc:
                raise ParameterError(f"{name}: {exc}") from None
            if q.name == "fair" and solitaire:
                raise ParameterError(f"{name}: {text} asks seats of a solitaire")
            if q.name == "target" and not solitaire:
                raise ParameterError(
                    f"{name}: {text} asks a solitaire's win rate of a game with opponents"
                )
            if q.name == "skill" and len(levels) < 2:
                raise ParameterError(f"{name}: {text} compares two levels; {list(levels)} has one")
            out.append(q)
        return out

    def rules(self, name: str, game: str, setup: Any = None, **fields: Any) -> Any:
        """The rule set builds (a known setup, known fields, values each field takes); returns
        its config."""
        self.seen.add(_root(name))
        g = GAMES[game]
        try:
            return g.config(setup, **fields)
        except (ConfigError, ValueError, TypeError) as exc:
            raise ParameterError(f"{name}: {exc}") from None

    def rule_sets(self, name: str, value: Any, game: str, empty: bool = False) -> list[Any]:
        """A list of distinct rule sets of ``game`` (non-empty unless ``empty``), each a dict of
        its rule fields — ``{"setup": "C", "must_move": "one"}``, any field the game's config
        has — that builds (:meth:`rules`); returns their configs."""
        self.seen.add(_root(name))
        shape = f"a list of rule sets, each a dict of {game} rule fields"
        if isinstance(value, str) or not isinstance(value, Sequence):
            raise ParameterError(f"{name} must be {shape}, got {value!r}")
        if not value and not empty:
            raise ParameterError(f"{name} must list at least one rule set")
        configs = []
        for i, fields in enumerate(value):
            if not isinstance(fields, dict) or not all(isinstance(k, str) for k in fields):
                raise ParameterError(f"{name} must be {shape}, got {fields!r} in {name}[{i}]")
            configs.append(self.rules(f"{name}[{i}]", game, **fields))
        if len(set(map(repr, configs))) != len(configs):
            raise ParameterError(f"{name} lists a rule set twice: {value!r}")
        return configs

    def search(
        self,
        name: str,
        value: Any,
        game: str,
        space: Mapping[str, Any],
        seed: int,
        alpha: float = 0.05,
        beta: float = 0.05,
    ) -> Any:
        """A search's arguments (:meth:`Study.tune`'s): a dict of ``goal``, ``constraints``,
        ``rungs``, ``top`` and ``budget`` (and optionally ``setup``, ``keep``, ``eta``,
        ``finalists``, ``confirm_seed``, ``compare_games``) that makes a search of ``space``,
        checked as :func:`gamelib.tune.search_spec` checks it, before any game."""
        from gamelib.tune import search_spec

        self.seen.add(_root(name))
        needed = {"goal", "constraints", "rungs", "top", "budget"}
        optional = {"setup", "keep", "eta", "finalists", "confirm_seed", "compare_games"}
        keys = set(value) if isinstance(value, dict) else set()
        if not isinstance(value, dict) or not needed <= keys or keys - needed - optional:
            raise ParameterError(
                f"{name} must be a dict of {', '.join(sorted(needed))} (and optionally "
                f"{', '.join(sorted(optional))}), got {value!r}"
            )
        try:
            search_spec(game, space, seed=seed, alpha=alpha, beta=beta, **value)
        except (GamelibError, ValueError, TypeError) as exc:
            raise ParameterError(f"{name}: {exc}") from None
        return value

    def minutes(self, name: str, value: Any) -> Any:
        """A time budget: a positive number of minutes."""
        self.seen.add(_root(name))
        return self.number(name, value, lo=0, strict=True)

    def workers(self, name: str, value: Any) -> Any:
        """Local worker processes: a whole number ≥ 1 (more than the cores uses the cores)."""
        self.seen.add(_root(name))
        return self.whole(name, value, lo=1)

    def scheduler(self, name: str, value: Any) -> Any:
        """None (this machine) or a Dask scheduler address (``tcp://host:port``)."""
        self.seen.add(_root(name))
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
    serves it; ``cached``: False for a run played outside the study cache — a search's, in its
    own folder — of which no tier holds a deal; ``edit``: each deal edited, as ``simulate``'s
    ``edit`` — an arm of card worth; ``engine``: ``"python"`` for a run played through the
    reference engine — an arm of option worth)."""

    label: str
    config: Any
    players: Sequence[str]
    deals: int
    rotate_seats: bool = False
    columns: Sequence[str] | None = None
    cached: bool = True
    edit: Any = None
    engine: str = "compiled"

    @property
    def per_deal(self) -> int:
        return len(self.players) if self.rotate_seats else 1

    def spec(self, seed: int) -> dict[str, Any]:
        """The run as a value on ``seed``: its provenance (:func:`gamelib.sim.run_spec`), which
        ``run_key`` names and ``run_fingerprint`` keys in every tier."""
        return run_spec(
            self.config, self.players, self.deals, seed, self.rotate_seats, self.engine,
            edit=self.edit,
        )  # fmt: skip


class Computation(Protocol):
    """A table a study computes rather than plays (:meth:`Study.table`): ``make(parts, first,
    n)`` returns the rows of items ``first`` … ``n`` − 1 of each of ``parts`` (each part a dict
    of the columns that name its rows), the rows of item ``i`` the same whatever ``first`` and
    ``n`` (so a count is a prefix, as deals are); ``item`` is the column that numbers them (an
    item may have no row); ``name`` says everything else that fixes the rows (what is computed,
    its rules and seed); ``stored``: a file of the stored studies (``data/results/``) that holds
    items 0 … k − 1 of every part it has rows of, and that k — or None."""

    @property
    def name(self) -> str: ...
    @property
    def item(self) -> str: ...
    @property
    def stored(self) -> tuple[str, int] | None: ...
    def make(self, parts: Sequence[dict[str, Any]], first: int, n: int) -> pd.DataFrame: ...


@dataclass(frozen=True)
class Computed:
    """One computed table a study will ask for: ``items`` items of each of ``parts`` (JSON, in
    order) of ``what`` (a :class:`Computation`).  Each part's items 0 … k − 1 are kept in the
    study cache, in ``tables/`` as one CSV a part and count, and served from there or from the
    stored file; what neither holds is computed in this process, every part that lacks the same
    items in one call of ``make``."""

    label: str
    what: Computation = field(compare=False, repr=False)
    name: str
    parts: tuple[str, ...]
    items: int
    cache: Any = field(compare=False, repr=False, default=True)

    def _file(self, part: str) -> Path:
        root, _ = cache_root(self.cache)
        key = hashlib.sha256(json.dumps([self.name, part]).encode()).hexdigest()[:24]
        return root / "tables" / key

    def _cached(self, part: str) -> int:
        """The items of ``part`` the study cache holds."""
        stem = self._file(part)
        counts = [int(p.stem.rsplit("-", 1)[1]) for p in stem.parent.glob(f"{stem.name}-*.csv")]
        return max(counts, default=0)

    def _stored(self, part: str) -> tuple[pd.DataFrame, int] | None:
        """The stored file's rows of ``part`` and the items it holds, if it has any."""
        if self.what.stored is None:
            return None
        name, items = self.what.stored
        from gamelib.sim.deals import stored_folders

        path = next((f / name for f in stored_folders() if (f / name).is_file()), None)
        if path is None:
            return None
        rows = _part_rows(_read_table(path, path.stat().st_mtime_ns), json.loads(part))
        return (rows, items) if len(rows) else None

    def tiers(self) -> tuple[tuple[int, int], ...]:
        """Per part: the items the study cache and the stored file hold."""
        held = []
        for p in self.parts:
            stored = self._stored(p)
            held.append((self._cached(p), stored[1] if stored is not None else 0))
        return tuple(held)

    def held(self) -> int:
        """The items 0 … k − 1 every part holds (in either tier): k."""
        return min((max(c, s) for c, s in self.tiers()), default=0)

    def rows(self, n: int, deadline: float | None = None) -> pd.DataFrame:
        """Items 0 … k − 1 of every part, the parts in order, computing what no tier holds: k is
        ``n``, or fewer when the clock (``deadline``, of ``time.monotonic``) stops the computing
        (``attrs["items"]``: k)."""
        k = self.extend(n, deadline)
        parts = []
        for p in self.parts:
            stored = self._stored(p)
            if stored is not None and stored[1] >= k:
                rows = stored[0]
            else:
                rows = pd.read_csv(f"{self._file(p)}-{self._cached(p)}.csv")
            parts.append(rows[rows[self.what.item] < k])
        out = pd.concat(parts, ignore_index=True)
        out.attrs["items"] = k
        return out

    def extend(self, n: int, deadline: float | None = None) -> int:
        """Compute the items below ``n`` that no tier holds, in batches while ``deadline``
        allows (each about half of what the time left pays for, at the measured cost of an item
        and then at the rate so far; all at once without a deadline); returns the items every
        part then holds."""
        start = done = self.held()
        t0 = time.monotonic()
        while done < n:
            step = n - done
            if deadline is not None:
                rate = (time.monotonic() - t0) / (done - start) if done > start else self.seconds()
                done = max(done, self.held())  # measuring the cost may have computed an item
                left, step = deadline - time.monotonic(), n - done
                if step <= 0 or rate > left:
                    break
                step = max(1, min(step, int(left / rate / 2) if rate > 0 else step))
            self._compute(done + step)
            done += step
        return min(done, n)

    def _compute(self, n: int) -> None:
        """Compute the items below ``n`` that no tier holds: the parts that lack the same items
        in one call of ``make``; each part's items 0 … n − 1 then written to the cache (its
        shorter files removed)."""
        short: dict[int, list[str]] = {}
        for p, (c, s) in zip(self.parts, self.tiers(), strict=True):
            if max(c, s) < n:
                short.setdefault(max(c, s), []).append(p)
        for first, parts in short.items():
            new = self.what.make([json.loads(p) for p in parts], first, n)
            for p in parts:
                stored, cached, stem = self._stored(p), self._cached(p), self._file(p)
                old = (
                    stored[0] if stored is not None and stored[1] >= cached
                    else pd.read_csv(f"{stem}-{cached}.csv") if cached else None
                )  # fmt: skip
                rows = pd.concat(
                    [t for t in (old, _part_rows(new, json.loads(p))) if t is not None],
                    ignore_index=True,
                )
                rows = rows[rows[self.what.item] < n]
                stem.parent.mkdir(parents=True, exist_ok=True)
                atomic_write_text(Path(f"{stem}-{n}.csv"), rows.to_csv(index=False))
                if cached:  # what the longer file holds; a file that cannot go is read no more
                    with contextlib.suppress(OSError):
                        Path(f"{stem}-{cached}.csv").unlink()

    def seconds(self) -> float:
        """Seconds one item of the parts still short takes, as measured on this machine: read
        from ``costs.json`` beside the cache, or measured now by computing the next item (kept
        in the cache)."""
        tiers = zip(self.parts, self.tiers(), strict=True)
        short = [p for p, (c, s) in tiers if max(c, s) < self.items]
        key = f"table|{self.name}|{','.join(short)}"
        known = _read_costs().get(key)
        if known is not None:
            return known
        t0 = time.perf_counter()
        self.extend(self.held() + 1)
        seconds = time.perf_counter() - t0
        _write_cost(key, seconds)
        return seconds


def _part_rows(table: pd.DataFrame, part: dict[str, Any]) -> pd.DataFrame:
    """The rows of a computed table that belong to ``part``."""
    keep = pd.Series(True, index=table.index)
    for column, value in part.items():
        keep &= table[column] == value
    return table[keep].reset_index(drop=True)


@functools.lru_cache(maxsize=8)
def _read_table(path: Path, mtime: int) -> pd.DataFrame:
    """A stored computed table, read once per version of the file."""
    return pd.read_csv(path)


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


def held(job: Job | Computed, seed: int, cache: bool | str | os.PathLike[str] = True) -> int:
    """The deals 0 … k−1 of the job's run the study cache or a stored study holds: k (of a
    computed table: the items every part holds)."""
    if isinstance(job, Computed):
        return job.held()
    spec = job.spec(seed)
    return _held(job, spec, cache)


def _entry(job: Job, spec: dict[str, Any], cache: bool | str | os.PathLike[str]) -> RunCache:
    """The job's run in the study cache and the stored tier."""
    root, what = cache_root(cache)
    return RunCache(spec, root, job.per_deal, what, need=job.columns)


def _held(job: Job, spec: dict[str, Any], cache: bool | str | os.PathLike[str]) -> int:
    if not job.cached:
        return 0
    return DealRanges.of(_entry(job, spec, cache).parts(job.deals, spec["seed"])).prefix()


def estimate_seconds(
    job: Job | Computed, seed: int, cache: bool | str | os.PathLike[str] = True
) -> float:
    """Seconds one core needs for one deal of the job's run, as measured on this machine: read
    from ``costs.json`` beside the cache, or measured now by playing deals of the same line-up
    on a probe seed (``seed`` + 7919): one untimed deal (the first deal of a process loads the
    compiled core), then the slope between two sizes (a call's fixed cost is not a deal's).
    A deal of a rotated line-up is all its seat arrangements; an item of a computed table is
    :meth:`Computed.seconds`."""
    from gamelib.sim import simulate

    if isinstance(job, Computed):
        return job.seconds()

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
            edit=job.edit,
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
    jobs: Iterable[Job | Computed],
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
        if isinstance(job, Computed):  # computed in this process, on one core
            have, asked, on, who = job.held(), job.items, 1, job.name
        else:
            spec = job.spec(seed)
            have, asked, on = _held(job, spec, cache), job.deals, cores
            who = ",".join(player_name(p) for p in job.players)
        todo = max(0, asked - have)
        cost = estimate_seconds(job, seed, cache) if todo else 0.0
        rows.append(
            {
                "study": job.label,
                "players": who,
                "deals": asked,
                "stored": min(have, asked),
                "to play": todo,
                "minutes": cost * todo / on / 60.0,
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
    spec = job.spec(seed)
    have = _held(job, spec, True)
    if have >= job.deals:
        return job.deals
    cost = estimate_seconds(job, seed) / cores
    extra = int(minutes * 60.0 / cost) if cost > 0 else job.deals
    return min(job.deals, have + extra)


class Call(NamedTuple):
    """One call a notebook makes under a shared budget: its ``key`` (a string naming everything
    that fixes its answer), the runs it ``reads``, the ``deals`` it asks for, and
    ``go(deals, minutes, show)`` that makes it (at most ``deals`` deals; a clock of ``minutes``
    when not None; a progress bar when ``show``) and returns its table (a verdict's or
    comparison's has ``decision`` and ``deals`` columns).  ``settle()``, a decision's: its table
    from the deals already held alone, on its whole schedule, or None when a look needs a deal
    they lack."""

    key: str
    reads: Sequence[Job | Computed]
    deals: int
    go: Callable[[int, float | None, bool], pd.DataFrame]
    settle: Callable[[], pd.DataFrame | None] | None = None


class Budget:
    """``minutes`` shared among a study's calls that have deals to play (deals already held
    are free).

    A decision the deals already held settle (:attr:`Call.settle`: every look to its last
    decision covered) is answered from them first, on its whole schedule and without a clock —
    so the same on any machine — and needs no share.  The plan of every run the other calls
    read (each once, at its most deals, every column any call reads) is printed next.  Then
    each call in turn gets a share of the minutes still unspent, by water-filling the
    estimated play of the calls still to come: a call that needs less than an equal share gets
    all it needs, the others split the rest equally, and each is capped at the deals its share
    pays for (at the cost per deal measured on this machine); a capped
    call also has a clock, with slack for the estimate (:class:`Study`'s verdicts and
    comparisons take the clock alone: they play their whole schedule and stop at it; a call
    that plays outside the study cache — :meth:`Study.tune`'s search — always has its clock).

    A call the budget cut short (a capped run, a verdict still undecided at its cap or clock)
    is remembered in ``budget-stops.json`` beside the study cache under a key of everything that
    decides what it plays: the call's key, ``minutes``, and the deals 0 … k−1 each tier (the
    writable cache, the stored studies) holds of each run it reads when the study has played.
    The same study again, with the tiers as it left them, replays each call to where it stopped
    and plays nothing; a study that meets other tiers (the stored studies off or on, deals that
    another study cached) never replays it, and shares its budget afresh with the deals held
    free.  A call that decided before its cap is not a stop."""

    def __init__(
        self,
        minutes: float,
        calls: Sequence[Call],
        seed: int,
        workers: int | None = None,
        cache: bool | str | os.PathLike[str] = True,
    ) -> None:
        self.calls = [Call(*c) for c in calls]
        self.left, self.seed, self.cache = float(minutes), seed, cache
        self.budget = float(minutes)
        self.cores = max(1, min(workers or default_workers(), default_workers()))
        self.settled: dict[str, pd.DataFrame] = {}  # call key -> its table from held deals
        for c in self.calls:
            table = c.settle() if c.settle is not None else None
            if table is not None:
                self.settled[c.key] = table
        if self.settled:
            print(f"{len(self.settled)} decision(s) settled by the deals held: nothing to play")
        runs: dict[Any, Job | Computed] = {}  # a run read by several calls is planned once
        for c in self.calls:
            for j in () if c.key in self.settled else c.reads:
                if isinstance(j, Computed):
                    runs[_ident(j)] = j
                    continue
                d = cast(Job, runs.get(_ident(j), j))
                cols = tuple(sorted({*(d.columns or ()), *(j.columns or ())}))
                runs[_ident(j)] = replace(j if j.deals > d.deals else d, columns=cols)
        shown = bool(runs) or not self.settled  # nothing left to plan: the line above says so
        self.plan = plan(runs.values(), seed, minutes, self.cores, cache, show=shown)
        self.minutes = dict(zip(runs, self.plan["minutes"], strict=True))
        self.file = cache_root(cache)[0] / "budget-stops.json"
        try:
            self.stops: dict[str, int] = json.loads(self.file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self.stops = {}
        self.cut: dict[str, int] = {}  # call key -> the deals it stopped at (fewer than asked)

    def play(self) -> dict[str, pd.DataFrame]:
        """Make every call in order; returns each call's table by its key."""
        out = {}
        for i, (key, reads, deals, go, _) in enumerate(self.calls):
            if key in self.settled:
                out[key] = self.settled[key]
                continue
            later = [c.reads for c in self.calls[i + 1 :] if c.key not in self.settled]
            future = [self._est(r) for r in later]
            out[key] = self._one(key, reads, deals, go, [n for n in future if n > 0])
        if self.cut:  # keyed by the tiers as the whole study leaves them: what a rerun meets
            read_by = {c.key: c.reads for c in self.calls}
            for key, stop in self.cut.items():
                self.stops[self.stop_key(key, read_by[key])] = stop
            # a stop that cannot be written is not replayed: the call is made again
            with contextlib.suppress(OSError):
                atomic_write_text(self.file, json.dumps(self.stops, indent=1, sort_keys=True))
        return out

    def _est(self, reads: Sequence[Job | Computed]) -> float:
        return float(sum(self.minutes[_ident(j)] for j in reads))

    def stop_key(self, key: str, reads: Sequence[Job | Computed]) -> str:
        """Where a stop of this call is remembered: its key, the budget and the deals each tier
        holds of each run it reads now."""
        tiers = [self._tiers(j) for j in reads]
        doc = json.dumps([key, self.budget, tiers], default=str)
        return hashlib.sha256(doc.encode()).hexdigest()[:24]

    def _tiers(self, job: Job | Computed) -> Any:
        if isinstance(job, Computed):
            return job.tiers()
        if not job.cached:
            return 0, 0
        spec = job.spec(self.seed)
        return _entry(job, spec, self.cache).tiers(spec["seed"])

    def share(self, need: float, future: Sequence[float]) -> float:
        """This call's minutes: all it needs when every call's need fits what is left (and its
        part of the surplus), else the least of its need and the water level."""
        needs = sorted([need, *future])
        if sum(needs) <= self.left:
            return self.left * need / sum(needs)
        rest = self.left
        for k, n in enumerate(needs):
            if n * (len(needs) - k) >= rest:
                return min(need, rest / (len(needs) - k))
            rest -= n
        return need

    def _one(
        self,
        key: str,
        reads: Sequence[Job | Computed],
        deals: int,
        go: Callable[[int, float | None, bool], pd.DataFrame],
        future: Sequence[float],
    ) -> pd.DataFrame:
        remembered = self.stops.get(self.stop_key(key, reads))
        if remembered is not None:
            self.cut[key] = remembered
            return go(remembered, None, False)
        short = [
            (j, h)
            for j in reads
            if self.minutes[_ident(j)] > 0 and (h := held(j, self.seed, self.cache)) < deals
        ]
        if not short:
            return go(deals, None, False)
        cost = []
        for j, h in short:  # a computed table is computed in this process, on one core
            cores = 1 if isinstance(j, Computed) else self.cores
            most = j.items if isinstance(j, Computed) else j.deals  # a search's runs: their own
            cost.append((h, most, estimate_seconds(j, self.seed, self.cache) / cores))

        def need(n: int) -> float:
            return sum(c * max(0, min(n, most) - h) for h, most, c in cost) / 60

        share = self.share(need(deals), future)
        lo, hi = min(h for h, _, _ in cost), deals  # the most deals the share pays for
        while lo < hi:
            mid = (lo + hi + 1) // 2
            lo, hi = (mid, hi) if need(mid) <= share else (lo, mid - 1)
        cap = max(1, lo)
        # a call whose whole play fits its share runs to its end; a capped one also has a
        # clock, with slack for the estimate; a call that plays outside the study cache (a
        # search: its deals no cap can count) always has its clock
        outside = any(isinstance(j, Job) and not j.cached for j, _ in short)
        # a computed table always has its clock too: its cost is measured on one item
        computed = any(isinstance(j, Computed) for j, _ in short)
        clock = None if cap == deals and not (outside or computed) else 1.5 * share + 0.1
        t0 = time.monotonic()
        table = go(cap, clock, True)
        self.left = max(self.left - (time.monotonic() - t0) / 60, 0.01)
        if outside:  # where its clock stopped it is its own store's: 0, read back from there
            stop = 0
        elif computed:  # a computed table says how far its clock let it get
            stop = int(table.attrs.get("items", cap))
        elif "decision" in table:
            open_ = table[table["decision"] == "undecided"]
            stop = int(open_["deals"].max()) if len(open_) else deals  # decided: not a stop
        else:
            stop = cap
        if stop < deals:
            self.cut[key] = stop
        return table


def _ident(job: Job | Computed) -> tuple[Any, ...]:
    if isinstance(job, Computed):
        return "table", job.name, job.parts
    if not job.cached:  # a search's runs are its own: never shared with another ask's
        return job.config, tuple(job.players), job.rotate_seats, job.label
    return job.config, tuple(job.players), job.rotate_seats, repr(job.edit)


class Answers(dict[Any, pd.DataFrame]):
    """What :meth:`Study.run` returns: each ask's table by its key (with the ask's tags and the
    deals it ``asked`` for as columns; a search's answer is its ``SearchResult``); ``games``:
    each verdict's and comparison's units' games by its key (as ``verdict(tables=...)``);
    ``cut``: the keys the budget stopped short of the deals they asked for (a search's clock
    is in its spec instead)."""

    games: dict[Any, dict[str, list[pd.DataFrame]]]
    cut: dict[Any, int]

    def cat(self, keys: Iterable[Any]) -> pd.DataFrame:
        """The tables of ``keys``, one below the other."""
        return pd.concat([self[k] for k in keys], ignore_index=True)


class Study:
    """A study a notebook or a script declares: what it asks, then one plan and one budget.

    Each ask names a key (any hashable the caller reads the answer by), what to play or
    decide, and ``tags``: columns its table gets (``n_players=4``, ``at="search"``).
    :meth:`simulate`, :meth:`sweep` and :meth:`matchups` (tables of games, as the functions
    of those names), :meth:`verdict` and :meth:`compare` (decisions, as
    :func:`gamelib.verdict.verdict` and :func:`gamelib.verdict.compare.compare`) are played
    in the order asked, with the study's seed, error rates, workers and scheduler, every deal
    taken from the study cache or a stored study when one holds it (``cache``).  :meth:`plan`
    prints every run the asks read, each once at its most deals, with what is held, what is to
    play and the estimate against ``minutes``; :meth:`run` shares ``minutes`` among the asks by
    :class:`Budget` (one that needs little gets all it needs) and returns the :class:`Answers`.
    :meth:`table` asks for a computed table, :meth:`tune` for a search of rules (as
    :func:`gamelib.tune.search`: its result is the answer).
    """

    def __init__(
        self,
        seed: int,
        minutes: float,
        *,
        workers: int | None = None,
        scheduler: Any = None,
        alpha: float = 0.05,
        beta: float = 0.05,
        cache: bool | str | os.PathLike[str] = True,
    ) -> None:
        self.seed, self.minutes, self.workers, self.scheduler = seed, minutes, workers, scheduler
        self.alpha, self.beta, self.cache = alpha, beta, cache
        self.calls: list[Call] = []
        self.keys: list[Any] = []
        self.answers = Answers()
        self.answers.games, self.answers.cut = {}, {}
        self.budget: Budget | None = None
        self.tables: set[Any] = set()  # the keys of computed tables
        self.kept: dict[Any, str] = {}  # a search a finished one answers: where it is kept

    def _ask(
        self,
        key: Any,
        what: list[Any],
        reads: Sequence[Job | Computed],
        deals: int,
        go: Any,
        settle: Callable[[], pd.DataFrame | None] | None = None,
    ) -> None:
        if key in self.keys:
            raise ConfigError(f"the study asks {key!r} twice")
        # the key is part of the call: two asks of the same run keep their own tables and tags
        doc = json.dumps([repr(key), *what, self.alpha, self.beta, deals, self.seed], default=str)

        def quiet(n: int, minutes: float | None, show: bool) -> pd.DataFrame:
            # the study's workers are "at most": a run with fewer chunks uses fewer, unsaid
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", r"workers \d+: using", GamelibWarning)
                return cast(pd.DataFrame, go(n, minutes, show))

        self.keys.append(key)
        self.calls.append(Call(doc, reads, deals, quiet, settle))
        self.budget = None

    def _settle(
        self, go: Callable[..., pd.DataFrame], deals: int
    ) -> Callable[[], pd.DataFrame | None] | None:
        """A decision's :attr:`Call.settle`: ``go`` on the held deals alone (None when they do
        not reach its decision; a study without a cache holds none)."""
        from gamelib.verdict.run import NeedsPlay

        if self.cache is False:
            return None

        def settle() -> pd.DataFrame | None:
            try:  # held deals only: nothing is played, so no worker count to note
                return go(deals, None, False, True)
            except NeedsPlay:
                return None

        return settle

    def _label(self, key: Any) -> str:
        return " ".join(map(str, key)) if isinstance(key, tuple) else str(key)

    def simulate(
        self,
        key: Any,
        config: Any,
        players: Sequence[str],
        deals: int,
        *,
        rotate_seats: bool = False,
        columns: Sequence[str] | None = None,
        **tags: Any,
    ) -> None:
        """Ask for ``deals`` deals of ``players`` on ``config`` (fewer if the budget pays for
        fewer), as :func:`gamelib.sim.simulate` (``columns``: the outcome columns kept)."""
        from gamelib.sim import simulate

        job = Job(self._label(key), config, tuple(players), deals, rotate_seats, columns)

        def go(n: int, minutes: float | None, show: bool) -> pd.DataFrame:
            table = simulate(
                config, list(players), n, self.seed, rotate_seats=rotate_seats,
                cache=self.cache, columns=columns, workers=self.workers,
                executor=self.scheduler, progress=show,
            )  # fmt: skip
            return table.assign(**tags)

        what = ["simulate", repr(config), list(players), rotate_seats, columns]
        self._ask(key, what, [job], deals, go)

    def sweep(
        self,
        key: Any,
        game: Any,
        grid: dict[str, Sequence[Any]],
        players: Sequence[str],
        deals: int,
        *,
        columns: Sequence[str] | None = None,
        **tags: Any,
    ) -> None:
        """Ask for ``deals`` deals of every rule set of ``grid`` (the same deals under each), as
        :func:`gamelib.sim.sweep` with one line-up (a single name fills every seat)."""
        from gamelib.sim import sweep

        g = GAMES[game] if isinstance(game, str) else game
        names = list(grid)
        reads = []
        for values in itertools.product(*(grid[k] for k in names)):
            fields = dict(zip(names, values, strict=True))
            config = g.config(fields.pop("setup", None), **fields)
            lineup = tuple(config_lineup(config, players[0])) if len(players) == 1 else players
            reads.append(Job(self._label(key), config, tuple(lineup), deals, False, columns))

        def go(n: int, minutes: float | None, show: bool) -> pd.DataFrame:
            table = sweep(
                g, grid, list(players), n, self.seed, cache=self.cache, columns=columns,
                workers=self.workers, executor=self.scheduler, progress=show,
            )  # fmt: skip
            return table.assign(**tags)

        what = ["sweep", g.name, {k: [repr(v) for v in vs] for k, vs in grid.items()}]
        self._ask(key, [*what, list(players), columns], reads, deals, go)

    def matchups(
        self,
        key: Any,
        config: Any,
        levels: Sequence[str],
        deals: int,
        *,
        columns: Sequence[str] | None = None,
        **tags: Any,
    ) -> None:
        """Ask for every pairing of the ``levels`` of a ladder on ``deals`` common deals, as
        :func:`gamelib.ladder.matchups`."""
        from gamelib.ladder import ladder_plan, matchups

        reads = [
            Job(self._label(key), config, tuple(player_name(p) for p in r.seats), deals,
                r.rotate, columns)
            for r in ladder_plan(config, levels)
        ]  # fmt: skip

        def go(n: int, minutes: float | None, show: bool) -> pd.DataFrame:
            table = matchups(
                config, list(levels), n, self.seed, cache=self.cache, columns=columns,
                workers=self.workers, executor=self.scheduler, progress=show,
            )  # fmt: skip
            return table.assign(**tags)

        what = ["matchups", repr(config), list(levels), columns]
        self._ask(key, what, reads, deals, go)

    def verdict(
        self,
        key: Any,
        config: Any,
        levels: Sequence[str],
        questions: Sequence[Any],
        deals: int,
        **tags: Any,
    ) -> None:
        """Ask for the decisions of ``questions`` at ``levels`` on at most ``deals`` deals a
        unit, as :func:`gamelib.verdict.verdict`: the mirror questions (fair, stalls, length,
        target) on each level's own games, or ``skill`` on each level against the one below it
        — one kind an ask (a unit's deals are exact only when every unit plays as many games a
        deal).  A verdict the budget gives a clock plays its whole schedule and stops at the
        clock (valid at any stopping time), never on a schedule cut to fit."""
        from gamelib.verdict import verdict
        from gamelib.verdict.budget import need_columns

        kinds = {q.unit for q in questions}
        if len(kinds) != 1:
            raise ConfigError(
                f"the study's verdict {key!r} mixes mirror questions with skill: ask them apart"
            )
        seats = len(config_lineup(config, levels[0]))
        lineups: list[tuple[tuple[str, ...], bool]] = []
        if kinds == {"mirror"}:
            lineups = [((lv,) * seats, False) for lv in levels]
        for weak, strong in itertools.pairwise(levels) if kinds == {"pair"} else ():
            if seats == 1:  # a solitaire's pair: each level's own games
                lineups += [((strong,), False), ((weak,), False)]
            else:
                lineups.append(((strong,) + (weak,) * (seats - 1), True))
        per = 1 if kinds == {"mirror"} else 2 if seats == 1 else seats  # games a unit's deal
        reads = [
            Job(self._label(key), config, lineup, deals, rotate, need_columns(lineup))
            for lineup, rotate in lineups
        ]
        key_doc = ["verdict", repr(config), list(levels), [repr(q) for q in questions]]

        def go(n: int, minutes: float | None, show: bool, held: bool = False) -> pd.DataFrame:
            games: dict[str, list[pd.DataFrame]] = {}
            table = verdict(
                config, list(levels), list(questions), alpha=self.alpha, beta=self.beta,
                seed=self.seed, cache=self.cache, workers=self.workers, executor=self.scheduler,
                max_games=(deals if minutes is not None else n) * per, max_minutes=minutes,
                progress=show, tables=games, held_only=held,
            )  # fmt: skip
            self.answers.games[key] = games
            return pd.DataFrame(table).assign(**tags, asked=deals)

        self._ask(key, key_doc, reads, deals, go, self._settle(go, deals))

    def compare(
        self,
        key: Any,
        base: Any,
        variant: Any,
        levels: Sequence[str | Sequence[str]],
        questions: Sequence[Any],
        deals: int,
        *,
        change: str | None = None,
        **tags: Any,
    ) -> None:
        """Ask what changing the rules from ``base`` to ``variant`` does at ``levels`` (a
        player name fills every seat; a line-up is rotated through every seat), on at most
        ``deals`` deals, as :func:`gamelib.verdict.compare.compare` (given a clock by the budget,
        it plays its whole schedule and stops at the clock, as :meth:`verdict`)."""
        from gamelib.verdict.budget import need_columns
        from gamelib.verdict.compare import compare

        lineups = [config_lineup(base, lv) for lv in levels]
        mixed = any(len(set(lu)) > 1 for lu in lineups)
        per = len(lineups[0]) if mixed else 1
        reads = [
            Job(self._label(key), cfg, tuple(lu), deals, mixed, need_columns(lu))
            for lu in lineups
            for cfg in (base, variant)
        ]
        key_doc = ["compare", repr(base), repr(variant), lineups, [repr(q) for q in questions]]

        def go(n: int, minutes: float | None, show: bool, held: bool = False) -> pd.DataFrame:
            games: dict[str, list[pd.DataFrame]] = {}
            table = compare(
                base, variant, lineups, list(questions), change=change, alpha=self.alpha,
                beta=self.beta, seed=self.seed, cache=self.cache, workers=self.workers,
                executor=self.scheduler, max_minutes=minutes, progress=show, tables=games,
                max_games=(deals if minutes is not None else n) * per, held_only=held,
            )  # fmt: skip
            self.answers.games[key] = games
            return table.assign(**tags, asked=deals)

        self._ask(key, key_doc, reads, deals, go, self._settle(go, deals))

    def worth(
        self,
        key: Any,
        config: Any,
        level: str | Sequence[str],
        deals: int,
        *,
        kind: str = "value",
        margin: float = 0.01,
        **tags: Any,
    ) -> None:
        """Ask what each card is worth to its holder (``kind``: one row per value, or per
        colour as a null check) at ``level`` (a player, or a line-up with the holder first),
        on at most ``deals`` deals played once per card, as
        :func:`gamelib.verdict.worth.worth` — an intervention on the same deals, decided with
        the study's error rates split over the cards (given a clock by the budget, it plays
        its whole schedule and stops at the clock, as :meth:`verdict`)."""
        from gamelib.verdict.budget import need_columns
        from gamelib.verdict.worth import arms, worth

        lineup = config_lineup(config, level)
        columns = need_columns(lineup, ["n_winners"])
        targets = arms(config, kind) if kind in game_of(config).edit_kinds else []  # refused
        reads = [
            Job(self._label(key), config, tuple(lineup), deals, True, columns, edit=[kind, t])
            for t in targets
        ]
        key_doc = ["worth", repr(config), lineup, kind, margin]

        def go(n: int, minutes: float | None, show: bool, held: bool = False) -> pd.DataFrame:
            games: dict[str, list[pd.DataFrame]] = {}
            table = worth(
                config, level, kind, margin=margin, alpha=self.alpha, beta=self.beta,
                max_deals=deals if minutes is not None else n, seed=self.seed,
                workers=self.workers, executor=self.scheduler, progress=show, cache=self.cache,
                max_minutes=minutes, held_only=held, tables=games,
            )  # fmt: skip
            self.answers.games[key] = {"worth": games["worth"]}
            return table.assign(**tags, asked=deals)

        self._ask(key, key_doc, reads, deals, go, self._settle(go, deals))

    def options(
        self,
        key: Any,
        config: Any,
        level: str | Sequence[str],
        deals: int,
        *,
        options: Sequence[str] | None = None,
        mode: str = "forbid",
        margin: float = 0.02,
        decisive: float = 0.1,
        **tags: Any,
    ) -> None:
        """Ask what each class of moves is worth to its holder at ``level`` (a player, or a
        line-up with the holder first), on at most ``deals`` deals played once unrestricted and
        once per class with the holder forbidden it (``mode="always"``: forced to take it), as
        :func:`gamelib.verdict.options.option_worth` — restricted play on the same deals,
        decided with the study's error rates split over the claims."""
        from gamelib.verdict.budget import need_columns
        from gamelib.verdict.options import option_worth

        lineup = config_lineup(config, level)
        columns = need_columns(lineup, ["n_winners"])
        game = game_of(config)
        classes = list(game.options) if options is None else list(options)
        holder = str(lineup[0])
        arms = [list(lineup)] + [[f"{holder}:{mode}={c}", *lineup[1:]] for c in classes]
        reads = [
            Job(self._label(key), config, tuple(a), deals, True, columns, engine="python")
            for a in arms
        ]
        key_doc = ["options", repr(config), lineup, classes, mode, margin, decisive]

        def go(n: int, minutes: float | None, show: bool, held: bool = False) -> pd.DataFrame:
            games: dict[str, list[pd.DataFrame]] = {}
            table = option_worth(
                config, level, classes, mode=mode, margin=margin, decisive=decisive,
                alpha=self.alpha, beta=self.beta, max_deals=deals if minutes is not None else n,
                seed=self.seed, workers=self.workers, executor=self.scheduler, progress=show,
                cache=self.cache, max_minutes=minutes, held_only=held, tables=games,
            )  # fmt: skip
            self.answers.games[key] = {"options": games["options"]}
            return table.assign(**tags, asked=deals)

        self._ask(key, key_doc, reads, deals, go, self._settle(go, deals))

    def table(
        self,
        key: Any,
        what: Computation,
        items: int,
        *,
        parts: Sequence[dict[str, Any]] = ({},),
        **tags: Any,
    ) -> None:
        """Ask for items 0 … ``items`` − 1 of each of ``parts`` of a computed table
        (:class:`Computation`: positions solved exactly, say, rather than games played),
        fewer if the budget pays for fewer — every part then the same count.  What the study
        cache or the stored file holds is read; the rest is computed in this process within the
        ask's share of the budget (one item measured first) and kept in the cache, so a rerun
        computes nothing, and a count the budget stopped at is remembered as a run's is.  The
        answer: the rows of every part, in the order of ``parts``."""
        if not isinstance(items, int) or isinstance(items, bool) or items < 1:
            raise ConfigError(f"the table {key!r} asks for {items!r} items: a whole number ≥ 1")
        docs = tuple(json.dumps(dict(p), sort_keys=True, default=str) for p in parts)
        job = Computed(self._label(key), what, what.name, docs, items, self.cache)

        def go(n: int, minutes: float | None, show: bool) -> pd.DataFrame:
            deadline = None if minutes is None else time.monotonic() + 60 * minutes
            return job.rows(n, deadline).assign(**tags)  # attrs["items"]: how far it got

        self.tables.add(key)
        self._ask(key, ["table", what.name, list(docs)], [job], items, go)

    def tune(self, key: Any, game: Any, space: Mapping[str, Any], **search_args: Any) -> None:
        """Ask for a multi-fidelity search of ``space`` for rules of ``game``, as
        :func:`gamelib.tune.search` with the rest of its arguments (``goal``, ``constraints``,
        ``rungs``, ``top``, ``budget``, ``setup``, ``keep``, ``eta``, …) and the study's seed,
        error rates, workers and scheduler; the answer is its
        :class:`~gamelib.tune.SearchResult`.  A finished search of the same spec without a
        time budget (a stored one in data/results/, or the study cache's) answers it with
        nothing to play.  Otherwise the plan counts what it plays at most (every verdict of
        every stage on its full budget, on the original rules' line-ups:
        :func:`gamelib.tune.search_runs`), and it runs in the study cache with its share of
        ``minutes`` as its clock (``max_minutes``, kept in its spec: no count of deals can cap
        a search, whose rule sets the screen picks); the same study again reads it back."""
        from gamelib.tune import (
            find_search,
            kept_text,
            load_search,
            search,
            search_runs,
            search_spec,
        )

        owned = {"seed", "alpha", "beta", "max_minutes", "workers", "executor", "cache"}
        given = sorted({*owned, "storage", "progress"} & set(search_args))
        if given:
            raise ConfigError(f"the study's search {key!r} sets {', '.join(given)} itself")
        args = {**search_args, "seed": self.seed, "alpha": self.alpha, "beta": self.beta}
        spec = search_spec(game, space, **args)
        cache = self.cache if isinstance(self.cache, bool | str) else Path(self.cache)
        found = find_search(spec, cache)
        runs: dict[tuple[Any, ...], Job] = {}  # each line-up once, the deals of every stage
        for run in search_runs(spec) if found is None else []:
            players, rotate = tuple(run["players"]), run["rotate_seats"]
            deals = run["deals"] + (runs[players, rotate].deals if (players, rotate) in runs else 0)
            runs[players, rotate] = Job(
                self._label(key), run["config"], players, deals, rotate, cached=False
            )
        reads = list(runs.values())
        most = max((j.deals for j in reads), default=1)
        if found is not None:
            self.kept[key] = kept_text(found)

        def go(n: int, minutes: float | None, show: bool) -> Any:
            if minutes is None and n < most:  # a search this study's clock stopped: as kept
                stopped = find_search({**spec, "max_minutes": 0.0}, cache)
                if stopped is not None:
                    return load_search(stopped)
                minutes = self.minutes  # gone from the cache: searched again within them all
            return search(
                game, space, **args, max_minutes=minutes, cache=cache,
                workers=self.workers, executor=self.scheduler, progress=show,
            )  # fmt: skip

        self._ask(key, ["tune", spec], reads, most, go)

    def plan(self) -> None:
        """Print the plan: every run the asks read, each once at its most deals, held and to
        play, and the estimate against the budget (the table: ``study.budget.plan``); first,
        each search a finished one answers, and where that is kept."""
        for key, where in self.kept.items():
            print(f"{self._label(key)}: the search in {where} answers it: nothing to play")
        self.budget = Budget(self.minutes, self.calls, self.seed, self.workers, self.cache)

    def run(self) -> Answers:
        """Play what is missing, ``minutes`` shared across the asks; the answers by key."""
        budget = self.budget or Budget(
            self.minutes, self.calls, self.seed, self.workers, self.cache
        )
        self.budget = budget
        played = budget.play()
        for key, (doc, _, deals, _, _) in zip(self.keys, self.calls, strict=True):
            table = self.answers[key] = played[doc]
            if doc in budget.cut and isinstance(table, pd.DataFrame):  # a search: its spec says
                self.answers.cut[key] = budget.cut[doc]
                if key in self.tables:  # a computed table the budget paid for in part
                    print(
                        f"{self._label(key)}: {budget.cut[doc]:,} of the {deals:,} items asked "
                        "for (the time budget)"
                    )
                elif "decision" not in table:  # a table of games the budget paid for in part
                    print(
                        f"{self._label(key)}: {table['deal'].nunique():,} of the {deals:,} "
                        "deals asked for (the time budget)"
                    )
        return self.answers


def config_lineup(config: Any, level: str | Sequence[str]) -> list[str]:
    """A level as a line-up of ``config``'s seats: a player name fills every seat."""
    from gamelib.sim.chunks import n_seats

    if isinstance(level, str):
        return [level] * n_seats(config)
    return [player_name(p) for p in level]
