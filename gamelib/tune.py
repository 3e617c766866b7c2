"""Tune rule fields automatically: search a space of config values for a rule set that meets a
balance objective, then confirm the best ones on fresh seeds.

``tune(game_or_config, space, objective, budget, seed, ...)`` searches with Optuna (a seeded
TPE sampler).  Each trial is one rule set: the config is built from the base config and the
sampled values, and every line-up the objective needs is played by :func:`gamelib.sim.simulate`
on the **same seed in every trial** (common random numbers: two rule sets are compared on the
same deals).  A sampled config the game refuses is pruned, its reason kept in the trial's
``invalid`` attribute; it never stops the search.  The search's scores are noisy (one batch of
deals each, and the best of many noisy scores is biased low), so the answer is
**confirmed on fresh seeds**: the best few rule sets and the designer's original rules are
played again on a different seed, with enough games for a stated precision
(:func:`gamelib.stats.games_for_half_width`), and the report lists the confirmation intervals.

**The space**: config field names with a range (:class:`IntRange`, :class:`FloatRange`, or the
text ``"LO..HI"``) or a :class:`Choice` (text ``"a,b,c"``; tuple fields separated by ``;``).
``FIELD[i]`` tunes one element of a tuple field (``amulets[3]``, ``suit_weights[3]``).  Garner
also has ``n_suits``: when ``n_suits``, ``rows``, ``cols`` or ``height`` is searched and
``suit_sizes`` is not, the deck is that many equal suits filling the grid.

**The objective**: a sum of weighted terms, each a small object (``SeatFair() + 0.5 *
DrawRate(0.05)``) or its text (``"seat0"``, ``"seats:0.02"``, ``"skill:greedy>random:0.6"``,
``"solo:0.3"``, ``"draws:0.05"``, ``"length:20..40"``, ``"2*seat0"``): every term is a loss
(0 when met), and the trial's value is their weighted sum, which Optuna minimises.

**Resumable**: with ``storage=FOLDER`` the study is an Optuna journal (``FOLDER/journal.log``,
``JournalFileBackend``); every finished trial is appended as it ends, so an interrupted run keeps
them, and the same call continues until ``budget`` trials have finished.  The folder remembers
the search's specification and refuses a call with another one.

**Reproducible** with one worker (``n_jobs=1``): each trial's sampler is a TPE sampler seeded
from ``seed`` and the number of trials finished before it, so the sampled values depend only on
the finished trials — an interrupted and resumed search samples the same rule sets as an
uninterrupted one, and each trial's games are fixed by its config and ``seed``.  With
``n_jobs > 1`` (threads) or several processes on one storage folder, trials run at the same time
and each one's sample depends on which others had finished by then: every trial's value is still
reproducible from its rule set, but which rule sets are tried (and so the best one) is not.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
import re
import types
import typing
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from gamelib.core import ConfigError, Game, GamelibError, ResumeError, check_seed, config_to_json
from gamelib.registry import get_game

__all__ = [
    "Choice",
    "DrawRate",
    "FloatRange",
    "IntRange",
    "Length",
    "Objective",
    "SeatFair",
    "SeatsFair",
    "SkillShows",
    "SoloWinRate",
    "Term",
    "TuneError",
    "TuneResult",
    "confirm",
    "load_study",
    "parse_objective",
    "parse_space",
    "recheck",
    "tune",
]


class TuneError(GamelibError):
    """A tuning run that cannot go on (bad budget, an unusable storage folder, interrupted)."""


# --- the space -----------------------------------------------------------------------------


@dataclass(frozen=True)
class IntRange:
    """Whole numbers ``lo..hi`` (both included) in steps of ``step``."""

    lo: int
    hi: int
    step: int = 1

    def text(self) -> str:
        """The range as the command line writes it."""
        return f"{self.lo}..{self.hi}" + (f":{self.step}" if self.step != 1 else "")


@dataclass(frozen=True)
class FloatRange:
    """Numbers ``lo..hi``; ``step`` (optional) makes them a grid."""

    lo: float
    hi: float
    step: float | None = None

    def text(self) -> str:
        """The range as the command line writes it."""
        return f"{float(self.lo)!r}..{float(self.hi)!r}" + (
            f":{self.step!r}" if self.step is not None else ""
        )


@dataclass(frozen=True)
class Choice:
    """One of these values."""

    values: tuple[Any, ...]

    def __init__(self, values: Sequence[Any]) -> None:
        object.__setattr__(self, "values", tuple(values))

    def text(self) -> str:
        """The choices as the command line writes them."""
        sep = ";" if any(isinstance(v, tuple) for v in self.values) else ","
        return sep.join(_value_text(v) for v in self.values)


Domain = IntRange | FloatRange | Choice


def _value_text(v: Any) -> str:
    if isinstance(v, tuple):
        return ",".join(map(str, v))
    if v is None:
        return "none"
    return str(v)


#: fields that are not rules to tune (the player count is the line-up's; a label is no rule)
_NOT_TUNED = {"setup", "n_players", "patterns"}
#: pseudo-fields computed into real ones: game -> name -> what it means
DERIVED = {"garner": {"n_suits": "equal suits filling the grid"}}
_GRID = ("rows", "cols", "height", "n_suits")
_ELEMENT = re.compile(r"^([a-z_]+)\[(\d+)\]$")


def _hints(game: Game) -> dict[str, Any]:
    return typing.get_type_hints(game.config_type)


def _base_type(hint: Any) -> tuple[Any, bool, bool]:
    """(scalar type, optional?, tuple?) of a config field's type hint."""
    optional = False
    args = typing.get_args(hint)
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        optional = True
        hint = next(a for a in args if a is not type(None))
        args, origin = typing.get_args(hint), typing.get_origin(hint)
    if origin is tuple:
        return args[0], optional, True
    if origin is typing.Literal:
        return str, optional, False
    return hint, optional, False


def _field_kind(game: Game, base: Any, name: str) -> tuple[Any, bool, bool]:
    """The scalar type, optional and tuple flags of a tunable name; a name the game does not
    have is a ConfigError that lists the ones it has."""
    hints = _hints(game)
    tunable = [f for f in hints if f not in _NOT_TUNED] + list(DERIVED.get(game.name, {}))
    m = _ELEMENT.match(name)
    if m:
        whole, index = m.group(1), int(m.group(2))
        if whole not in hints or whole in _NOT_TUNED:
            raise ConfigError(
                f"space: {name!r}: {game.name} has no tuple field {whole!r}; fields: "
                + ", ".join(tunable)
            )
        scalar, _, is_tuple = _base_type(hints[whole])
        if not is_tuple:
            raise ConfigError(f"space: {name!r}: {whole} is not a tuple field, tune it whole")
        current = getattr(base, whole)
        length = len(current) if current is not None else _default_length(game, base, whole)
        if index >= length:
            raise ConfigError(
                f"space: {name!r}: {whole} has {length} elements (indices 0..{length - 1})"
            )
        return scalar, False, False
    if name in DERIVED.get(game.name, {}):
        return int, False, False
    if name not in hints or name in _NOT_TUNED:
        why = " (not a rule to tune)" if name in _NOT_TUNED else ""
        raise ConfigError(
            f"space: unknown {game.name} field {name!r}{why}; fields: " + ", ".join(tunable)
        )
    return _base_type(hints[name])


def _default_length(game: Game, base: Any, whole: str) -> int:
    if game.name == "garner" and whole == "suit_weights":
        return int(base.n_suits)
    raise ConfigError(f"space: {whole} is None in the base config; give it a value to tune")


def _check_domain(game: Game, base: Any, name: str, domain: Any) -> Domain:
    """A domain checked against its field's type: a ConfigError names the field and the fix."""
    scalar, optional, is_tuple = _field_kind(game, base, name)
    if isinstance(domain, tuple) and len(domain) == 2 and not is_tuple:
        lo, hi = domain
        domain = IntRange(lo, hi) if all(_is_int(x) for x in domain) else FloatRange(lo, hi)
    elif isinstance(domain, list):
        domain = Choice(domain)
    if isinstance(domain, IntRange | FloatRange):
        if is_tuple or scalar not in (int, float):
            raise ConfigError(
                f"space: {name} takes choices, not a range (it is a "
                f"{'tuple' if is_tuple else getattr(scalar, '__name__', str(scalar))} field)"
            )
        nums = [domain.lo, domain.hi] + ([domain.step] if domain.step is not None else [])
        if not all(isinstance(x, int | float) and not isinstance(x, bool) for x in nums) or not all(
            math.isfinite(x) for x in nums
        ):
            raise ConfigError(f"space: {name}: a range needs finite numbers, got {domain!r}")
        if isinstance(domain, IntRange) and not all(_is_int(x) for x in nums):
            raise ConfigError(f"space: {name}: a whole-number range needs ints, got {domain!r}")
        if isinstance(domain, FloatRange) and scalar is int:
            raise ConfigError(
                f"space: {name} is a whole number; give whole-number bounds, got {domain.text()}"
            )
        if domain.lo >= domain.hi:
            raise ConfigError(
                f"space: {name}: the range {domain.text()} is empty or a single value "
                "(lo must be below hi; fix the field instead of tuning it)"
            )
        if domain.step is not None and domain.step <= 0:
            raise ConfigError(f"space: {name}: the step must be positive, got {domain.step}")
        return domain
    if isinstance(domain, Choice):
        if len(domain.values) < 2:
            raise ConfigError(f"space: {name}: give at least two choices, got {domain.values!r}")
        if len(set(map(repr, domain.values))) != len(domain.values):
            raise ConfigError(f"space: {name}: repeated choices in {domain.values!r}")
        for v in domain.values:
            ok = (v is None and optional) or (
                isinstance(v, tuple)
                if is_tuple
                else _is_int(v)
                if scalar is int
                else isinstance(v, bool)
                if scalar is bool
                else (isinstance(v, int | float) and not isinstance(v, bool))
                if scalar is float
                else isinstance(v, str)
            )
            if not ok:
                raise ConfigError(f"space: {name}: the choice {v!r} is not a valid value")
        return domain
    raise ConfigError(
        f"space: {name}: {domain!r} is neither a range (IntRange, FloatRange, (lo, hi)) nor a "
        "Choice (or a list of values)"
    )


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def check_space(game: Game, base: Any, space: Mapping[str, Any]) -> dict[str, Domain]:
    """The space with every domain checked (and tuples/lists read as ranges/choices)."""
    if not isinstance(space, Mapping) or not space:
        raise ConfigError("space: give at least one field to tune, e.g. {'hand_size': (8, 12)}")
    out = {str(k): _check_domain(game, base, str(k), v) for k, v in space.items()}
    wholes = {m.group(1) for k in out if (m := _ELEMENT.match(k))}
    both = sorted(wholes & set(out))
    if both:
        raise ConfigError(f"space: {both[0]} is tuned whole and by element; choose one")
    return out


def parse_space(game: str | Game, items: Sequence[str]) -> dict[str, Domain]:
    """The space from command-line text: ``FIELD=LO..HI[:STEP]`` or ``FIELD=a,b,c`` (a tuple
    field's choices separated by ``;``), one item each."""
    g = get_game(game) if isinstance(game, str) else game
    base = g.config(None)
    out: dict[str, Domain] = {}
    for item in items:
        name, eq, text = item.partition("=")
        name = name.strip()
        if not eq or not name or not text.strip():
            raise ConfigError(f"--space {item!r}: write FIELD=LO..HI or FIELD=a,b,c")
        if name in out:
            raise ConfigError(f"--space: {name} is given twice")
        scalar, optional, is_tuple = _field_kind(g, base, name)
        text = text.strip()
        rng = re.fullmatch(r"([-+0-9.eE]+)\.\.([-+0-9.eE]+)(?::([-+0-9.eE]+))?", text)
        try:
            if rng and not is_tuple:
                lo_v: Any = _number(rng.group(1))
                hi_v: Any = _number(rng.group(2))
                step: Any = _number(rng.group(3)) if rng.group(3) else None
                if scalar is float and all(_is_int(x) for x in (lo_v, hi_v)):
                    lo_v, hi_v = float(lo_v), float(hi_v)
                if all(_is_int(x) for x in (lo_v, hi_v)) and (step is None or _is_int(step)):
                    domain: Any = IntRange(lo_v, hi_v, 1 if step is None else step)
                else:
                    domain = FloatRange(float(lo_v), float(hi_v), step)
            else:
                parts = text.split(";") if is_tuple else text.split(",")
                domain = Choice([_read_value(p.strip(), scalar, optional, is_tuple) for p in parts])
        except ValueError as exc:
            raise ConfigError(f"--space {item!r}: {exc}") from None
        out[name] = _check_domain(g, base, name, domain)
    return out


def _number(text: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            raise ValueError(f"{text!r} is not a number") from None


def _read_value(text: str, scalar: Any, optional: bool, is_tuple: bool) -> Any:
    if optional and text.lower() in ("none", ""):
        return None
    if is_tuple:
        return tuple(_read_value(x.strip(), scalar, False, False) for x in text.split(","))
    if scalar is bool:
        low = text.lower()
        if low in ("true", "yes", "1", "on"):
            return True
        if low in ("false", "no", "0", "off"):
            return False
        raise ValueError(f"{text!r} is not true or false")
    if scalar is int:
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"{text!r} is not a whole number") from None
    if scalar is float:
        return float(_number(text))
    return text


def space_text(space: Mapping[str, Domain]) -> list[str]:
    """The space as command-line items (how a storage folder remembers it)."""
    return [f"{k}={d.text()}" for k, d in space.items()]


def build_config(base: Any, values: Mapping[str, Any]) -> Any:
    """The config of one trial: ``base`` with the sampled values (elements set in their tuple;
    Garner's grid refilled with equal suits); a ConfigError says why the game refuses it."""
    from gamelib.sim import game_of

    game = game_of(base)
    whole: dict[str, Any] = {}
    elements: dict[str, dict[int, Any]] = {}
    derived: dict[str, Any] = {}
    for k, v in values.items():
        m = _ELEMENT.match(k)
        if m:
            elements.setdefault(m.group(1), {})[int(m.group(2))] = v
        elif k in DERIVED.get(game.name, {}):
            derived[k] = v
        else:
            whole[k] = v
    for name, items in elements.items():
        current = getattr(base, name)
        if current is None:
            current = (1.0,) * int(base.n_suits)  # Garner's suit_weights: None is 1 each
        seq = list(current)
        for i, v in items.items():
            seq[i] = v
        whole[name] = tuple(seq)
    if (
        game.name == "garner"
        and "suit_sizes" not in whole
        and (set(whole) | set(derived)) & set(_GRID)
    ):
        n = int(derived.get("n_suits", base.n_suits))
        rows, cols = whole.get("rows", base.rows), whole.get("cols", base.cols)
        places = rows * cols * whole.get("height", base.height)
        if n < 1 or places % n:
            raise ConfigError(
                f"a {rows}×{cols} grid {whole.get('height', base.height)} high has {places} "
                f"places, which do not split into {n} equal suits"
            )
        whole["suit_sizes"] = (places // n,) * n
        weights = base.suit_weights
        if weights is not None and "suit_weights" not in whole and len(weights) != n:
            raise ConfigError(f"the base suit_weights {weights} do not fit {n} suits")
    config = game.config(None, **{**_fields(base), **whole})
    game.new_state(config, random.Random(0))  # a rule set the engine cannot deal is refused
    return config


def _fields(config: Any) -> dict[str, Any]:
    return {f.name: getattr(config, f.name) for f in dataclasses.fields(config)}


# --- the objective -------------------------------------------------------------------------

Lineup = tuple[tuple[str, ...], bool]  # (players by seat, rotate_seats)


@dataclass(frozen=True)
class Measure:
    """What one term measured on one rule set: the estimate with its 95% interval, the target
    band, the loss (0 when the estimate meets the target) and a note for the report."""

    estimate: float
    lo: float
    hi: float
    target_lo: float
    target_hi: float
    loss: float
    note: str = ""

    @property
    def consistent(self) -> bool:
        """The interval touches the target band: the games give no evidence against it."""
        return self.hi >= self.target_lo and self.lo <= self.target_hi

    @property
    def shown(self) -> bool:
        """The whole interval lies inside the target band: the games show it is met."""
        return self.lo >= self.target_lo and self.hi <= self.target_hi


class Term:
    """One part of an objective: a loss computed from the tables of the line-ups it needs."""

    name: str = "term"
    players: tuple[str, ...] | None = None

    def lineup(self, players: Sequence[str], n_seats: int) -> Lineup:
        """The players and seat rotation this term's games need (default: the tune's; one
        name fills every seat)."""
        own = tuple(self.players or players)
        return (own * n_seats if len(own) == 1 else own, False)

    def check(self, n_seats: int) -> None:
        """Refuse a term that makes no sense for a game of ``n_seats`` seats."""

    def measure(self, table: pd.DataFrame) -> Measure:  # pragma: no cover - abstract
        """The term's measure on the table of its line-up."""
        raise NotImplementedError

    def text(self) -> str:  # pragma: no cover - abstract
        """The term as the command line writes it."""
        raise NotImplementedError

    def __add__(self, other: Term | Objective) -> Objective:
        return Objective([(1.0, self)]) + other

    def __rmul__(self, weight: float) -> Objective:
        return Objective([(float(weight), self)])

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.text()!r})"


def _hinge(value: float, lo: float, hi: float) -> float:
    return max(0.0, lo - value, value - hi)


def _with_players(text: str, players: tuple[str, ...] | None) -> str:
    return text + (f"@{','.join(players)}" if players else "")


def _seats_of(table: pd.DataFrame) -> list[int]:
    """The seats of a table (a sweep over player counts leaves missing seats empty)."""
    cols = [c for c in table.columns if c.startswith("player_") and table[c].notna().all()]
    return sorted(int(c.split("_")[1]) for c in cols)


def _seat_shares(table: pd.DataFrame) -> pd.DataFrame:
    """Each seat's share of the decided games (sole winner), Wilson interval: notebook 01's
    fairness measure (``gamelib.stats.seat_screen``)."""
    from gamelib.stats import seat_screen

    seats = _seats_of(table)
    t = table.assign(_all="all")
    return pd.concat([seat_screen(t, "_all", seat=s).assign(seat=s) for s in seats])


@dataclass(frozen=True, repr=False)
class SeatFair(Term):
    """A seat's share of the decided games is its fair share (1 / seats) ± ``tolerance``."""

    tolerance: float = 0.0
    seat: int = 0
    players: tuple[str, ...] | None = None
    name: str = "seat0"

    def check(self, n_seats: int) -> None:
        """Needs opponents and the seat."""
        if n_seats < 2:
            raise ConfigError(f"objective {self.text()}: a solitaire game has no fair share")
        if not 0 <= self.seat < n_seats:
            raise ConfigError(f"objective {self.text()}: no seat {self.seat} in {n_seats} seats")

    def measure(self, table: pd.DataFrame) -> Measure:
        """Seat ``seat``'s share of decided games."""
        r: Any = _seat_shares(table).set_index("seat").loc[self.seat]
        fair = 1 / len(_seats_of(table))
        band = (fair - self.tolerance, fair + self.tolerance)
        share = float(r["share"]) if r["decided"] else float("nan")
        loss = _hinge(share, *band) if r["decided"] else 1.0
        return Measure(
            share,
            float(r["lo"]),
            float(r["hi"]),
            *band,
            loss,
            f"seat {self.seat} of {int(r['decided'])} decided games",
        )

    def text(self) -> str:
        """``seat0[:TOL]`` (another seat: ``seatS``)."""
        base = f"seat{self.seat}" + (f":{self.tolerance:g}" if self.tolerance else "")
        return _with_players(base, self.players)


@dataclass(frozen=True, repr=False)
class SeatsFair(Term):
    """Every seat's share of the decided games is within ± ``tolerance`` of 1 / seats; the
    measure is the largest gap (its interval: that seat's)."""

    tolerance: float = 0.0
    players: tuple[str, ...] | None = None
    name: str = "seats"

    def check(self, n_seats: int) -> None:
        """Needs opponents."""
        if n_seats < 2:
            raise ConfigError(f"objective {self.text()}: a solitaire game has no fair share")

    def measure(self, table: pd.DataFrame) -> Measure:
        """The seat farthest from its fair share."""
        shares = _seat_shares(table)
        fair = 1 / len(shares)
        gaps = (shares["share"] - fair).abs()
        worst = shares.iloc[int(np.nanargmax(gaps.to_numpy()))] if gaps.notna().any() else None
        if worst is None:
            return Measure(float("nan"), 0.0, 1.0, 0.0, self.tolerance, 1.0, "no decided game")
        # the gap's interval: the worst seat's interval, shifted to a distance from fair
        lo, hi = float(worst["lo"]) - fair, float(worst["hi"]) - fair
        glo, ghi = (lo, hi) if worst["share"] >= fair else (-hi, -lo)
        note = ", ".join(
            f"seat {int(s)} {v:.3f}" for s, v in zip(shares.seat, shares.share, strict=True)
        )
        gap = float(gaps.max())
        return Measure(
            gap, max(0.0, glo), ghi, 0.0, self.tolerance, max(0.0, gap - self.tolerance), note
        )

    def text(self) -> str:
        """``seats[:TOL]``."""
        return _with_players(
            "seats" + (f":{self.tolerance:g}" if self.tolerance else ""), self.players
        )


@dataclass(frozen=True, repr=False)
class SkillShows(Term):
    """The stronger player of a pair wins at least ``at_least`` of the points against the
    weaker: two players, each deal from both seats; 3–5 players, the strong one alone against
    copies of the weak one, in every seat (a draw or a shared win splits the point)."""

    strong: str = "greedy"
    weak: str = "random"
    at_least: float = 0.5
    name: str = "skill"

    def lineup(self, players: Sequence[str], n_seats: int) -> Lineup:
        """``strong`` in one seat, ``weak`` in the others, every seat arrangement."""
        return ((self.strong, *[self.weak] * (n_seats - 1)), True)

    def check(self, n_seats: int) -> None:
        """Needs opponents and two different players."""
        if n_seats < 2:
            raise ConfigError(f"objective {self.text()}: a solitaire game has no opponent")
        if self.strong == self.weak:
            raise ConfigError(f"objective {self.text()}: name two different players")
        if not 0 < self.at_least < 1:
            raise ConfigError(f"objective {self.text()}: the share must lie in (0, 1)")

    def measure(self, table: pd.DataFrame) -> Measure:
        """The strong player's share of the points, clustered by deal."""
        from gamelib.stats import clustered_rate

        seats = [f"player_{s}" for s in _seats_of(table)]
        n = len(seats)
        points = pd.Series(0.0, index=table.index)
        nobody = table["n_winners"] == 0
        for c in seats:
            s = int(c.split("_")[1])
            mine = table[c].astype(str) == self.strong
            points += np.where(mine, np.where(nobody, 1 / n, table[f"win_{s}"]), 0.0)
        r = clustered_rate(table, points).iloc[0]
        band = (self.at_least, 1.0)
        return Measure(
            float(r["rate"]),
            float(r["lo"]),
            float(r["hi"]),
            *band,
            _hinge(float(r["rate"]), *band),
            f"{self.strong} against {self.weak}, {int(r['clusters'])} deals",
        )

    def text(self) -> str:
        """``skill:STRONG>WEAK:SHARE``."""
        return f"skill:{self.strong}>{self.weak}:{self.at_least:g}"


@dataclass(frozen=True, repr=False)
class SoloWinRate(Term):
    """A solitaire game is won ``target`` ± ``tolerance`` of the time."""

    target: float = 0.3
    tolerance: float = 0.0
    players: tuple[str, ...] | None = None
    name: str = "solo"

    def check(self, n_seats: int) -> None:
        """Only for a one-seat game, and a rate in (0, 1)."""
        if n_seats != 1:
            raise ConfigError(
                f"objective {self.text()}: a game of {n_seats} seats is not solitaire; use "
                "seat0 or seats"
            )
        if not 0 <= self.target <= 1:
            raise ConfigError(f"objective {self.text()}: the target must lie in 0..1")

    def measure(self, table: pd.DataFrame) -> Measure:
        """The win rate, Wilson interval."""
        from gamelib.stats import wilson

        wins = int(((table["winner"] == 0) & (table["n_winners"] == 1)).sum())
        n = len(table)
        rate = wins / n if n else float("nan")
        lo, hi = wilson(wins, n)
        band = (self.target - self.tolerance, self.target + self.tolerance)
        return Measure(rate, lo, hi, *band, _hinge(rate, *band), f"{wins} of {n} games won")

    def text(self) -> str:
        """``solo:RATE[:TOL]``."""
        base = f"solo:{self.target:g}" + (f":{self.tolerance:g}" if self.tolerance else "")
        return _with_players(base, self.players)


@dataclass(frozen=True, repr=False)
class DrawRate(Term):
    """Games without a sole winner (draws, shared wins, turn-limit stalls) stay below
    ``below``."""

    below: float = 0.05
    players: tuple[str, ...] | None = None
    name: str = "draws"

    def check(self, n_seats: int) -> None:
        """Needs opponents."""
        if n_seats < 2:
            raise ConfigError(f"objective {self.text()}: a solitaire game has no draws")

    def measure(self, table: pd.DataFrame) -> Measure:
        """The rate of games without a sole winner, Wilson interval."""
        from gamelib.stats import wilson

        k = int((table["n_winners"] != 1).sum())
        n = len(table)
        lo, hi = wilson(k, n)
        rate = k / n if n else float("nan")
        return Measure(
            rate, lo, hi, 0.0, self.below, _hinge(rate, 0.0, self.below), f"{k} of {n} games"
        )

    def text(self) -> str:
        """``draws:RATE``."""
        return _with_players(f"draws:{self.below:g}", self.players)


@dataclass(frozen=True, repr=False)
class Length(Term):
    """The mean game length (``column``, default ``turns``) lies in ``lo..hi``; the loss is the
    distance outside the range as a share of ``hi``."""

    lo: float = 0.0
    hi: float = math.inf
    column: str = "turns"
    players: tuple[str, ...] | None = None
    name: str = "length"

    def check(self, n_seats: int) -> None:
        """A non-empty range."""
        if not 0 <= self.lo <= self.hi or not math.isfinite(self.hi):
            raise ConfigError(f"objective {self.text()}: give a range 0 ≤ LO ≤ HI")

    def measure(self, table: pd.DataFrame) -> Measure:
        """The mean length, t interval."""
        from gamelib.stats import mean_table

        if self.column not in table:
            raise ConfigError(f"objective {self.text()}: the table has no column {self.column!r}")
        r = mean_table(table.assign(_all=0), "_all", self.column).iloc[0]
        m = float(r["mean"])
        return Measure(
            m,
            float(r["lo"]),
            float(r["hi"]),
            self.lo,
            self.hi,
            _hinge(m, self.lo, self.hi) / max(self.hi, 1.0),
            f"mean {self.column}",
        )

    def text(self) -> str:
        """``length:LO..HI``."""
        col = f":{self.column}" if self.column != "turns" else ""
        return _with_players(f"length:{self.lo:g}..{self.hi:g}{col}", self.players)


@dataclass
class Objective:
    """A weighted sum of terms; the value of a rule set is Σ weight × loss (0: every term met)."""

    terms: list[tuple[float, Term]] = field(default_factory=list)

    def __add__(self, other: Term | Objective) -> Objective:
        more = other.terms if isinstance(other, Objective) else [(1.0, other)]
        return Objective([*self.terms, *more])

    def __rmul__(self, weight: float) -> Objective:
        return Objective([(w * float(weight), t) for w, t in self.terms])

    def text(self) -> list[str]:
        """Each weighted term as the command line writes it."""
        return [(f"{w:g}*" if w != 1 else "") + t.text() for w, t in self.terms]

    def labels(self) -> list[str]:
        """A unique column label per term."""
        out: list[str] = []
        for _, t in self.terms:
            text, _, who = t.text().partition("@")
            label = text.split(":")[0] + (f"@{who}" if who else "")
            while label in out:
                label += "'"
            out.append(label)
        return out


def as_objective(objective: Term | Objective | str | Sequence[Term | str]) -> Objective:
    """An :class:`Objective` from a term, terms, or their text."""
    if isinstance(objective, Objective):
        out = objective
    elif isinstance(objective, Term):
        out = Objective([(1.0, objective)])
    elif isinstance(objective, str):
        out = parse_objective([objective])
    elif isinstance(objective, Sequence):
        out = Objective()
        for t in objective:
            out = out + as_objective(t)
    else:
        raise ConfigError(f"objective: {objective!r} is not a term, an Objective or its text")
    if not out.terms:
        raise ConfigError("objective: give at least one term, e.g. SeatFair() or 'seat0'")
    for w, t in out.terms:
        if not isinstance(t, Term):
            raise ConfigError(f"objective: {t!r} is not a term")
        if not (math.isfinite(w) and w > 0):
            raise ConfigError(f"objective {t.text()}: the weight must be positive, got {w}")
    return out


OBJECTIVE_HELP = (
    "seat0[:TOL] (seat 0's share of decided games = fair ± TOL), seats[:TOL] (every seat), "
    "skill:STRONG>WEAK:SHARE, solo:RATE[:TOL], draws:RATE, length:LO..HI; a weight W*TERM; "
    "@P1,P2 after a term plays it with other players"
)


def parse_objective(items: Sequence[str]) -> Objective:
    """An objective from command-line terms (summed); see ``OBJECTIVE_HELP``."""
    out = Objective()
    for item in items:
        for part in item.split("+"):
            out = out + _parse_term(part.strip())
    if not out.terms:
        raise ConfigError(f"--objective: give a term: {OBJECTIVE_HELP}")
    return out


def _parse_term(text: str) -> Objective:
    raw = text
    weight = 1.0
    m = re.match(r"^([0-9.]+)\s*\*\s*(.+)$", text)
    if m:
        weight = _num(m.group(1), raw)
        text = m.group(2)
    text, _, who = text.partition("@")
    players = tuple(p.strip() for p in who.split(",") if p.strip()) or None
    kind, _, rest = text.partition(":")
    args = rest.split(":") if rest else []
    term: Term
    try:
        seat = re.fullmatch(r"seat(\d+)", kind)
        if seat:
            term = SeatFair(_num(args[0], raw) if args else 0.0, int(seat.group(1)), players)
            _most(args, 1, raw)
        elif kind == "seats":
            term = SeatsFair(_num(args[0], raw) if args else 0.0, players)
            _most(args, 1, raw)
        elif kind == "skill":
            pair = args[0].split(">") if args else []
            if len(pair) != 2 or len(args) != 2 or players:
                raise ConfigError(f"--objective {raw!r}: write skill:STRONG>WEAK:SHARE")
            term = SkillShows(pair[0].strip(), pair[1].strip(), _num(args[1], raw))
        elif kind == "solo":
            if not args:
                raise ConfigError(f"--objective {raw!r}: write solo:RATE[:TOL]")
            term = SoloWinRate(
                _num(args[0], raw), _num(args[1], raw) if len(args) > 1 else 0.0, players
            )
            _most(args, 2, raw)
        elif kind == "draws":
            if len(args) != 1:
                raise ConfigError(f"--objective {raw!r}: write draws:RATE")
            term = DrawRate(_num(args[0], raw), players)
        elif kind == "length":
            span = args[0].split("..") if args else []
            if len(span) != 2 or len(args) > 2:
                raise ConfigError(f"--objective {raw!r}: write length:LO..HI[:COLUMN]")
            term = Length(
                _num(span[0], raw),
                _num(span[1], raw),
                args[1] if len(args) > 1 else "turns",
                players,
            )
        else:
            raise ConfigError(
                f"--objective {raw!r}: unknown term {kind!r}; terms: {OBJECTIVE_HELP}"
            )
    except IndexError:  # pragma: no cover - guarded above
        raise ConfigError(f"--objective {raw!r}: {OBJECTIVE_HELP}") from None
    return weight * term


def _num(text: str, raw: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ConfigError(f"--objective {raw!r}: {text!r} is not a number") from None


def _most(args: Sequence[str], n: int, raw: str) -> None:
    if len(args) > n:
        raise ConfigError(f"--objective {raw!r}: too many ':' parts")


# --- evaluating a rule set -----------------------------------------------------------------


def lineups(objective: Objective, players: Sequence[str], n_seats: int) -> list[Lineup]:
    """The distinct line-ups the objective's terms need, in term order."""
    out: list[Lineup] = []
    for _, t in objective.terms:
        lu = t.lineup(players, n_seats)
        if lu not in out:
            out.append(lu)
    return out


def play(
    config: Any,
    objective: Objective,
    players: Sequence[str],
    n_games: int,
    seed: int,
    workers: int | None = 1,
) -> dict[Lineup, pd.DataFrame]:
    """Every line-up the objective needs, played on ``n_games`` deals of ``seed``."""
    from gamelib.sim import n_seats, simulate

    n = n_seats(config)
    return {
        lu: simulate(
            config, list(lu[0]), n_games, seed, rotate_seats=lu[1], workers=workers, progress=False
        )
        for lu in lineups(objective, players, n)
    }


def evaluate(
    objective: Objective, tables: Mapping[Lineup, pd.DataFrame], players: Sequence[str]
) -> tuple[float, list[Measure]]:
    """The objective's value (Σ weight × loss) and each term's measure."""
    n = len(_seats_of(next(iter(tables.values()))))
    measures = [t.measure(tables[t.lineup(players, n)]) for _, t in objective.terms]
    value = sum(w * m.loss for (w, _), m in zip(objective.terms, measures, strict=True))
    return float(value), measures


# --- the search ----------------------------------------------------------------------------


def _base_config(game_or_config: Any, setup: str | None) -> tuple[Game, Any]:
    from gamelib.sim import game_of

    if isinstance(game_or_config, str):
        game = get_game(game_or_config)
        return game, game.config(setup)
    if isinstance(game_or_config, Game):
        return game_or_config, game_or_config.config(setup)
    if setup is not None:
        raise ConfigError("setup: give a game name with setup=, or a config without it")
    return game_of(game_or_config), game_or_config


def _seats(players: str | Sequence[str] | None, game: Game, config: Any, n: int) -> list[str]:
    if players is None:
        names = ["greedy"]
    elif isinstance(players, str):
        names = [p.strip() for p in players.split(",") if p.strip()]
    else:
        names = list(players)
    if not names or not all(isinstance(p, str) for p in names):
        raise ConfigError(f"players: give player names, got {players!r}")
    if len(names) == 1:
        names *= n
    if len(names) != n:
        raise ConfigError(f"players: {n} seats, {len(names)} players given ({names})")
    for p in names:
        game.player(p)  # a ConfigError names an unknown player
    return names


def _storage(folder: str | Path) -> Any:
    """The journal storage in ``folder`` (created), or a TuneError naming what is wrong."""
    import optuna
    from optuna.storages.journal import JournalFileBackend

    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise TuneError(f"storage {path} is a file; give a folder (it holds journal.log)")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise TuneError(f"storage {path}: cannot create the folder ({exc.strerror})") from None
    log = path / "journal.log"
    if log.exists():
        _check_journal(log)
    try:
        return optuna.storages.JournalStorage(JournalFileBackend(str(log)))
    except Exception as exc:  # optuna's own errors on a damaged log
        raise TuneError(f"storage {log} cannot be read ({exc}); delete the folder") from None


def _check_journal(log: Path) -> None:
    """Every line of a journal must be a JSON object (a half-written last line, from a killed
    run, is cut off: the trial it belonged to is run again)."""
    data = log.read_bytes()
    lines = data.split(b"\n")
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            ok = isinstance(json.loads(line), dict)
        except ValueError:
            ok = False
        if not ok:
            if i == len(lines) - 1:  # no newline after it: a write cut short
                log.write_bytes(b"\n".join(lines[:i]) + (b"\n" if i else b""))
                return
            raise ResumeError(
                f"storage {log}: line {i + 1} is not a journal entry (the file is damaged or "
                "not an Optuna journal); delete it to start again"
            )


STUDY = "gamelib-tune"


def _sampler(seed: int, n_jobs: int) -> Any:
    """The reproducible sampler: a fresh TPE sampler per trial, seeded from ``seed`` and the
    number of trials finished so far (so a resumed search samples what an uninterrupted one
    would)."""
    import optuna
    from optuna.samplers import BaseSampler, TPESampler
    from optuna.trial import TrialState

    class Reseeded(BaseSampler):
        def __init__(self) -> None:
            self._per_trial: dict[int, TPESampler] = {}

        def _of(self, study: Any, trial: Any) -> TPESampler:
            key = trial._trial_id
            if key not in self._per_trial:
                done = len(
                    study.get_trials(
                        deepcopy=False, states=(TrialState.COMPLETE, TrialState.PRUNED)
                    )
                )
                sub = int(np.random.SeedSequence([seed, done]).generate_state(1)[0])
                self._per_trial[key] = TPESampler(seed=sub, constant_liar=n_jobs > 1)
            return self._per_trial[key]

        def infer_relative_search_space(self, study: Any, trial: Any) -> Any:
            return self._of(study, trial).infer_relative_search_space(study, trial)

        def sample_relative(self, study: Any, trial: Any, space: Any) -> Any:
            return self._of(study, trial).sample_relative(study, trial, space)

        def sample_independent(self, study: Any, trial: Any, name: str, dist: Any) -> Any:
            return self._of(study, trial).sample_independent(study, trial, name, dist)

        def before_trial(self, study: Any, trial: Any) -> None:
            self._of(study, trial).before_trial(study, trial)

        def after_trial(self, study: Any, trial: Any, state: Any, values: Any) -> None:
            sub = self._per_trial.pop(trial._trial_id, None)
            if sub is not None:
                sub.after_trial(study, trial, state, values)

    del optuna
    return Reseeded()


def _suggest(trial: Any, space: Mapping[str, Domain]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for name, d in space.items():
        if isinstance(d, IntRange):
            values[name] = trial.suggest_int(name, d.lo, d.hi, step=d.step)
        elif isinstance(d, FloatRange):
            values[name] = trial.suggest_float(name, d.lo, d.hi, step=d.step)
        else:
            labels = [_value_text(v) for v in d.values]
            values[name] = d.values[labels.index(trial.suggest_categorical(name, labels))]
    return values


def _values_from_params(space: Mapping[str, Domain], params: Mapping[str, Any]) -> dict[str, Any]:
    """A finished trial's sampled values (choices stored by their text)."""
    out: dict[str, Any] = {}
    for name, d in space.items():
        v = params[name]
        if isinstance(d, Choice):
            v = d.values[[_value_text(x) for x in d.values].index(v)]
        out[name] = v
    return out


@dataclass
class TuneResult:
    """What :func:`tune` found: the trials, the confirmation report and its text."""

    study: Any
    spec: dict[str, Any]
    trials: pd.DataFrame
    report: pd.DataFrame
    text: str
    original: Any
    best: Any
    tables: dict[str, dict[Lineup, pd.DataFrame]]


def _spec(
    game: Game,
    base: Any,
    space: Mapping[str, Domain],
    objective: Objective,
    players: list[str],
    n_games: int,
    seed: int,
) -> dict[str, Any]:
    return {
        "format": "gamelib-tune/1",
        "game": game.name,
        "base": config_to_json(base),
        "space": space_text(space),
        "objective": objective.text(),
        "players": players,
        "n_games": n_games,
        "seed": seed,
    }


def tune(
    game_or_config: str | Game | Any,
    space: Mapping[str, Any],
    objective: Term | Objective | str | Sequence[Term | str],
    budget: int,
    seed: int,
    *,
    n_games: int = 1000,
    players: str | Sequence[str] | None = None,
    setup: str | None = None,
    storage: str | Path | None = None,
    confirm_games: int | None = None,
    precision: float = 0.02,
    confirm_seed: int | None = None,
    top: int = 3,
    n_jobs: int = 1,
    workers: int | None = 1,
    progress: bool = True,
) -> TuneResult:
    """Search ``space`` for the rule set that minimises ``objective``, then confirm the ``top``
    best and the original rules on fresh seeds.

    ``game_or_config``: a game name (with ``setup``), a :class:`~gamelib.core.Game` or a config
    (the base: fields outside the space keep its values; it is "the original").  ``budget``:
    trials to finish (with ``storage``, counting those already in the folder).  ``n_games``:
    deals per trial and line-up, all trials on ``seed``.  ``players``: the line-up of the
    fairness terms (one name fills every seat; default ``greedy``).  ``confirm_games``: deals per
    candidate in the confirmation (default: enough for a 95% Wilson interval of ±``precision``
    at a rate of one half); ``confirm_seed`` (default ``seed + 1``) must differ from ``seed``.
    ``n_jobs``: trials at once (threads; see the module docstring for what that changes);
    ``workers``: processes per ``simulate``.  ``progress``: Optuna's progress bar.
    """
    import optuna

    game, base = _base_config(game_or_config, setup)
    check_seed(seed, "seed")
    if not _is_int(budget) or budget < 1:
        raise TuneError(f"budget must be a whole number ≥ 1 (trials), got {budget!r}")
    if not _is_int(n_games) or n_games < 1:
        raise ConfigError(f"n_games must be a whole number ≥ 1, got {n_games!r}")
    if not _is_int(n_jobs) or n_jobs < 1:
        raise ConfigError(f"n_jobs must be a whole number ≥ 1, got {n_jobs!r}")
    if not _is_int(top) or top < 1:
        raise ConfigError(f"top must be a whole number ≥ 1, got {top!r}")
    from gamelib.sim import n_seats
    from gamelib.stats import games_for_half_width

    confirm_seed = seed + 1 if confirm_seed is None else check_seed(confirm_seed, "confirm_seed")
    if confirm_seed == seed:
        raise ConfigError("confirm_seed must differ from seed: the confirmation needs fresh deals")
    if confirm_games is None:
        try:
            confirm_games = games_for_half_width(precision)
        except ValueError as exc:
            raise ConfigError(f"precision: {exc}") from None
    elif not _is_int(confirm_games) or confirm_games < 1:
        raise ConfigError(f"confirm_games must be a whole number ≥ 1, got {confirm_games!r}")
    checked = check_space(game, base, space)
    obj = as_objective(objective)
    n = n_seats(base)
    seated = _seats(players, game, base, n)
    for _, t in obj.terms:
        t.check(n)
        lineup = t.lineup(seated, n)[0]
        if len(lineup) != n:
            raise ConfigError(
                f"objective {t.text()}: {n} seats, {len(lineup)} players ({', '.join(lineup)})"
            )
        for p in lineup:
            game.player(p)
    spec = _spec(game, base, checked, obj, seated, n_games, seed)

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    store = _storage(storage) if storage is not None else None
    try:
        if store is not None and STUDY in optuna.study.get_all_study_names(store):
            # load, not create: opening a finished search writes nothing to its journal
            study = optuna.load_study(
                study_name=STUDY, storage=store, sampler=_sampler(seed, n_jobs)
            )
        else:
            study = optuna.create_study(
                study_name=STUDY,
                storage=store,
                sampler=_sampler(seed, n_jobs),
                direction="minimize",
            )
    except Exception as exc:
        raise TuneError(f"storage {storage}: the study cannot be opened ({exc})") from None
    stored = study.user_attrs.get("spec")
    if stored is None:
        study.set_user_attr("spec", spec)
    elif stored != spec:
        diff = sorted(k for k in spec if stored.get(k) != spec[k])
        raise ResumeError(
            f"storage {storage} holds a search with another {', '.join(diff)}; use another "
            "folder (or the same arguments to continue it)"
        )

    def run(trial: Any) -> float:
        values = _suggest(trial, checked)
        try:
            config = build_config(base, values)
        except ConfigError as exc:
            trial.set_user_attr("invalid", str(exc))
            raise optuna.TrialPruned(str(exc)) from None
        tables = play(config, obj, seated, n_games, seed, workers)
        value, measures = evaluate(obj, tables, seated)
        for label, m in zip(obj.labels(), measures, strict=True):
            trial.set_user_attr(label, m.estimate)
        return value

    left = budget - _finished(study)
    if left > 0:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
                study.optimize(run, n_trials=left, n_jobs=n_jobs, show_progress_bar=progress)
        except KeyboardInterrupt:
            kept = (
                f"{_finished(study)} of {budget} trials are kept in {storage}; rerun the same "
                "call to continue"
                if storage
                else f"{_finished(study)} trials had finished; pass storage=FOLDER to keep them"
            )
            raise TuneError(f"tuning interrupted: {kept}") from None
    trials = trials_table(study, checked)
    done = trials[trials.state == "COMPLETE"]
    if done.empty:
        raise TuneError(
            f"no trial of {len(trials)} gave a valid rule set (every one was refused by the "
            "game; see the trials' 'invalid' reasons): widen or fix the space"
        )
    best_rows = done.sort_values(["value", "number"], kind="stable").drop_duplicates("rules")
    candidates: dict[str, Any] = {"original": base}
    searched: dict[str, float] = {"original": float("nan")}
    for r in best_rows.head(top).to_dict("records"):
        label = f"trial {r['number']}"
        candidates[label] = build_config(base, _values_from_params(checked, r["params"]))
        searched[label] = float(r["value"])
    report, tables = confirm(candidates, obj, seated, confirm_games, confirm_seed, workers=workers)
    report.insert(1, "search_value", [searched[k] for k in report["rules"]])
    ranked = report[report.rules != "original"].sort_values("value", kind="stable")
    best = candidates[str(ranked.iloc[0]["rules"])]
    text = report_text(report, obj, confirm_games, confirm_seed, spec, budget)
    return TuneResult(study, spec, trials, report, text, base, best, tables)


def _finished(study: Any) -> int:
    from optuna.trial import TrialState

    return len(study.get_trials(deepcopy=False, states=(TrialState.COMPLETE, TrialState.PRUNED)))


def trials_table(study: Any, space: Mapping[str, Domain]) -> pd.DataFrame:
    """The finished trials in the order they finished: number, state, value, the sampled
    values (``params``, and ``rules`` as text), each term's estimate and why a pruned one was
    refused."""
    from optuna.trial import TrialState

    rows = []
    finished = [
        t
        for t in study.get_trials(deepcopy=False)
        if t.state in (TrialState.COMPLETE, TrialState.PRUNED)
    ]
    for t in sorted(finished, key=lambda t: (t.datetime_complete, t.number)):
        rules = ", ".join(f"{k}={t.params[k]}" for k in space if k in t.params)
        rows.append(
            {
                "number": t.number,
                "state": t.state.name,
                "value": t.value if t.value is not None else float("nan"),
                "rules": rules,
                "params": dict(t.params),
                **{k: v for k, v in t.user_attrs.items() if k != "invalid"},
                "invalid": t.user_attrs.get("invalid", ""),
            }
        )
    cols = ["number", "state", "value", "rules", "params", "invalid"]
    return pd.DataFrame(rows, columns=None if rows else cols)


def confirm(
    candidates: Mapping[str, Any],
    objective: Term | Objective | str | Sequence[Term | str],
    players: Sequence[str],
    n_games: int,
    seed: int,
    *,
    workers: int | None = 1,
) -> tuple[pd.DataFrame, dict[str, dict[Lineup, pd.DataFrame]]]:
    """Play every candidate rule set (name → config) on ``n_games`` deals of ``seed`` and
    measure each term with its 95% interval: one row per candidate, sorted by the confirmed
    value (``original`` kept first).  ``consistent``: every term's interval touches its target;
    ``shown``: every interval lies inside its target."""
    obj = as_objective(objective)
    rows = []
    tables: dict[str, dict[Lineup, pd.DataFrame]] = {}
    for name, config in candidates.items():
        tabs = play(config, obj, players, n_games, seed, workers)
        value, measures = evaluate(obj, tabs, players)
        tables[name] = tabs
        row: dict[str, Any] = {"rules": name, "value": value}
        for label, m in zip(obj.labels(), measures, strict=True):
            row[label] = m.estimate
            row[f"{label}_lo"] = m.lo
            row[f"{label}_hi"] = m.hi
            row[f"{label}_target"] = (
                f"{m.target_lo:g}"
                if m.target_lo == m.target_hi
                else f"{m.target_lo:g}..{m.target_hi:g}"
            )
        row["consistent"] = all(m.consistent for m in measures)
        row["shown"] = all(m.shown for m in measures)
        row["games"] = n_games
        row["config"] = config
        rows.append(row)
    out = pd.DataFrame(rows)
    first = out[out.rules == "original"]
    rest = out[out.rules != "original"].sort_values("value", kind="stable")
    out = pd.concat([first, rest], ignore_index=True)
    out.attrs["seed"] = seed
    return out, tables


def changed(original: Any, config: Any) -> str:
    """The fields where ``config`` differs from ``original``, as ``field=value`` text."""
    diffs = []
    for f in dataclasses.fields(original):
        a, b = getattr(original, f.name), getattr(config, f.name)
        if a != b and f.name != "setup":
            diffs.append(f"{f.name}={_value_text(b)}")
    return ", ".join(diffs) or "(the original rules)"


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


def load_study(folder: str | Path) -> tuple[dict[str, Any], pd.DataFrame]:
    """The specification and the finished trials of a stored search (read only)."""
    import optuna

    log = Path(folder) / "journal.log"
    if not log.is_file():
        raise TuneError(f"storage {folder}: no journal.log; not a tuning folder")
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.load_study(study_name=STUDY, storage=_storage(folder))
    spec = study.user_attrs.get("spec")
    if spec is None:
        raise TuneError(f"storage {folder}: the study has no gamelib specification")
    game = get_game(spec["game"])
    return spec, trials_table(study, parse_space(game, spec["space"]))


def recheck(folder: str | Path, k: int = 3) -> list[tuple[int, float, float]]:
    """Play the first ``k`` finished trials of a stored search again: (number, stored value,
    fresh value) for each (a pruned trial must be refused again: its values are NaN)."""
    from gamelib.records import config_from_json

    spec, trials = load_study(folder)
    game = get_game(spec["game"])
    base = config_from_json(game, spec["base"])
    space = parse_space(game, spec["space"])
    obj = parse_objective(spec["objective"])
    out = []
    for r in trials.head(k).to_dict("records"):
        values = _values_from_params(space, r["params"])
        try:
            config = build_config(base, values)
        except ConfigError:
            out.append((int(r["number"]), float(r["value"]), float("nan")))
            continue
        tables = play(config, obj, spec["players"], spec["n_games"], spec["seed"])
        fresh, _ = evaluate(obj, tables, spec["players"])
        out.append((int(r["number"]), float(r["value"]), fresh))
    return out


# --- reading a search: tables and charts for notebooks ------------------------------------


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
