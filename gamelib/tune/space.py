"""The space a search walks: which rule fields are tuned, over which values, and how one
sampled point becomes a rule set the game accepts.

A space maps config field names to a domain: :class:`IntRange` (whole numbers ``lo..hi`` in
steps), :class:`FloatRange` (numbers ``lo..hi``, on a grid when it has a ``step``) or
:class:`Choice` (one of a few values; text ``"a,b,c"``, a tuple field's choices separated by
``;``).  ``FIELD[i]`` tunes one element of a tuple field (``amulets[3]``, ``suit_weights[2]``).
Garner also has ``n_suits``: when ``n_suits``, ``rows``, ``cols`` or ``height`` is searched and
``suit_sizes`` is not, the deck is that many equal suits filling the grid.

**Printable.**  A rule set is printed on cards and in a rulebook, so a search should only name
values a designer can print: whole-number counts and tables, weights on a coarse grid
(quarters, halves) or small integer ratios.  :func:`check_printable` refuses a space that can
sample anything else (a continuous range gave notebook 05 a suit weight of
``0.8592193236258718``): every value of a printable domain has at most
:data:`PRINTABLE_DECIMALS` decimals, and :func:`grid` lists them all.  A grid's values are
exact decimals: a sampled value is snapped to its grid point and rounded to the step's decimals
(:func:`snap`), so ``0.5 + 3 * 0.1`` is printed ``0.8``, never ``0.8000000000000002``.

This module owns the space and the rule sets it makes; it plays no games (that is
:mod:`gamelib.tune.objectives`) and searches nothing (:mod:`gamelib.tune.study`).
"""

from __future__ import annotations

import dataclasses
import math
import random
import re
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pandas as pd

from gamelib.core import ConfigError, Game
from gamelib.registry import get_game

__all__ = [
    "DERIVED",
    "PRINTABLE_DECIMALS",
    "Choice",
    "Domain",
    "FloatRange",
    "IntRange",
    "build_config",
    "changed",
    "check_printable",
    "check_space",
    "grid",
    "is_printable",
    "parse_space",
    "snap",
    "space_table",
    "space_text",
    "values_from_params",
]


@dataclass(frozen=True)
class IntRange:
    """Whole numbers ``lo..hi`` (both included) in steps of ``step``: its grid is ``lo``,
    ``lo + step``, …, up to ``hi`` (always printable)."""

    lo: int
    hi: int
    step: int = 1

    def text(self) -> str:
        """The range as the command line writes it."""
        return f"{self.lo}..{self.hi}" + (f":{self.step}" if self.step != 1 else "")


@dataclass(frozen=True)
class FloatRange:
    """Numbers ``lo..hi``; ``step`` makes them the grid ``lo``, ``lo + step``, … up to ``hi``
    (printable when ``lo`` and ``step`` have at most two decimals, e.g. quarters
    ``0.5..1.5:0.25``).  Without a step the range is continuous and a search refuses it unless
    told ``printable=False``."""

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
    """One of these values (its grid is the values themselves)."""

    values: tuple[Any, ...]

    def __init__(self, values: Sequence[Any]) -> None:
        object.__setattr__(self, "values", tuple(values))

    def text(self) -> str:
        """The choices as the command line writes them."""
        sep = ";" if any(isinstance(v, tuple) for v in self.values) else ","
        return sep.join(value_text(v) for v in self.values)


Domain = IntRange | FloatRange | Choice


def value_text(v: Any) -> str:
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
        domain = IntRange(lo, hi) if all(is_int(x) for x in domain) else FloatRange(lo, hi)
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
        if isinstance(domain, IntRange) and not all(is_int(x) for x in nums):
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
                else is_int(v)
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


def is_int(x: object) -> bool:
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
                if scalar is float and all(is_int(x) for x in (lo_v, hi_v)):
                    lo_v, hi_v = float(lo_v), float(hi_v)
                if all(is_int(x) for x in (lo_v, hi_v)) and (step is None or is_int(step)):
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
        if current is None:  # Garner's suit_weights: None is 1 a suit, of the trial's suits
            current = (1.0,) * int(derived.get("n_suits", base.n_suits))
        seq = list(current)
        for i, v in items.items():
            if i >= len(seq):
                raise ConfigError(f"{name}[{i}]: this rule set has {len(seq)} of them")
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


def values_from_params(space: Mapping[str, Domain], params: Mapping[str, Any]) -> dict[str, Any]:
    """A finished trial's sampled values (choices stored by their text; a grid's values snapped
    to their grid point)."""
    out: dict[str, Any] = {}
    for name, d in space.items():
        v = params[name]
        if isinstance(d, Choice):
            v = d.values[[value_text(x) for x in d.values].index(v)]
        elif isinstance(d, FloatRange) and d.step is not None:
            v = snap(d, v)
        out[name] = v
    return out


def changed(original: Any, config: Any) -> str:
    """The fields where ``config`` differs from ``original``, as ``field=value`` text."""
    diffs = []
    for f in dataclasses.fields(original):
        a, b = getattr(original, f.name), getattr(config, f.name)
        if a != b and f.name != "setup":
            diffs.append(f"{f.name}={value_text(b)}")
    return ", ".join(diffs) or "(the original rules)"


# --- printable values ----------------------------------------------------------------------

#: the most decimals a printable number has (a quarter: 0.25)
PRINTABLE_DECIMALS = 2
#: the most values a grid may list before :func:`grid` refuses to spell it out
_MAX_GRID = 10_000


def _decimals(x: float) -> int:
    """How many decimals the shortest text of ``x`` has (``0.25`` → 2, ``3.0`` → 0)."""
    exp = Decimal(repr(float(x))).normalize().as_tuple().exponent
    return max(0, -int(exp))


def is_printable(value: Any) -> bool:
    """A value a designer can print: a whole number, a flag, a word, none, a number with at
    most :data:`PRINTABLE_DECIMALS` decimals, or a tuple of those."""
    if value is None or isinstance(value, bool | str | int):
        return True
    if isinstance(value, float):
        return math.isfinite(value) and _decimals(value) <= PRINTABLE_DECIMALS
    if isinstance(value, tuple):
        return all(is_printable(v) for v in value)
    return False


def snap(domain: FloatRange, value: float) -> float:
    """``value`` moved to the nearest point of ``domain``'s grid and rounded to the decimals of
    its ``lo`` and ``step`` (Optuna's stepped floats carry binary noise: 0.8000000000000002)."""
    if domain.step is None:
        raise ConfigError(f"snap: {domain.text()} has no grid (give it a step)")
    k = round((value - domain.lo) / domain.step)
    k = min(max(k, 0), math.floor((domain.hi - domain.lo) / domain.step + 1e-9))
    digits = max(_decimals(domain.lo), _decimals(domain.step))
    return round(domain.lo + k * domain.step, digits)


def grid(domain: Domain) -> tuple[Any, ...]:
    """Every value ``domain`` can give, in order: a range's grid points (``hi`` included when
    it lies on the grid), a choice's values; a continuous range has no grid (ConfigError)."""
    if isinstance(domain, Choice):
        return domain.values
    if isinstance(domain, IntRange):
        n = (domain.hi - domain.lo) // domain.step + 1
    else:
        if domain.step is None:
            raise ConfigError(
                f"{domain.text()} is a continuous range: it has no grid (give it a step)"
            )
        n = math.floor((domain.hi - domain.lo) / domain.step + 1e-9) + 1
    if n > _MAX_GRID:
        raise ConfigError(f"{domain.text()} has {n} values; a printable grid is coarse")
    if isinstance(domain, IntRange):
        return tuple(domain.lo + k * domain.step for k in range(n))
    step = float(domain.step or 0)
    return tuple(snap(domain, domain.lo + k * step) for k in range(n))


def check_printable(space: Mapping[str, Domain]) -> None:
    """Refuse a space that can sample a value no one can print; the ConfigError names the
    field and the fix (a grid step, whole numbers, fewer decimals)."""
    for name, d in space.items():
        if isinstance(d, FloatRange) and d.step is None:
            raise ConfigError(
                f"space: {name}={d.text()} is continuous and samples values no one can print "
                f"(0.8592193236258718); give it a coarse grid, e.g. {name}="
                f"{d.lo:g}..{d.hi:g}:0.25 (pass printable=False, --continuous, to search it "
                "anyway)"
            )
        try:
            values = grid(d)
        except ConfigError as exc:
            raise ConfigError(f"space: {name}: {exc}") from None
        bad = [v for v in values if not is_printable(v)]
        if bad:
            raise ConfigError(
                f"space: {name}={d.text()} gives {bad[0]!r}, which has more than "
                f"{PRINTABLE_DECIMALS} decimals; choose a grid of quarters, halves or whole "
                "numbers"
            )


def space_table(space: Mapping[str, Domain]) -> pd.DataFrame:
    """The space's grid, one row a field: ``field``, ``domain`` (its text), ``values`` (every
    value it can take, as text) and ``count``; ``size`` in ``attrs`` is the product of the
    counts (the rule sets the space holds)."""
    rows = []
    size = 1
    for name, d in space.items():
        values = grid(d)
        size *= len(values)
        rows.append(
            {
                "field": name,
                "domain": d.text(),
                "values": " · ".join(value_text(v) for v in values),
                "count": len(values),
            }
        )
    out = pd.DataFrame(rows, columns=["field", "domain", "values", "count"])
    out.attrs["size"] = size
    return out
