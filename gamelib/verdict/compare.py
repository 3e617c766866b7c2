"""compare(): what a rule change does, decided by intervention — the same deals played under
the original rules and under the changed ones, at one or more player levels.

*Why one file (about 660 lines):* the three questions, their measures and the paired-deal sequential
loop that decides them share one bookkeeping of deals and levels.

A designer asks "what is this rule worth?", "does it matter at all?", "does the answer depend on
how well people play?".  Correlating an outcome with a rule's use (wins against zeros captured)
confuses the rule with the players who exploit it; an *intervention* does not: every deal is
played twice, once under ``base`` and once under ``variant``, by the same line-up, and the
per-deal difference of a measure is the effect (common random numbers: deal *i* is the same
shuffle under both rules, so most of the luck cancels).  The deal is the unit, as in every
verdict: a deal played from every seat arrangement is one observation.

Questions (all sequential and anytime-valid, decided by :mod:`gamelib.verdict.sequential`):

* :class:`Effect` — "the change moves the measure by less than ±``margin``".  **holds**: no
  effect worth printing (equivalence within ±margin, error α of calling a real effect none);
  **fails**: a decided effect beyond the margin, its sign in the estimate (error β of calling
  no effect one); **undecided**: the budget ran out first.  The estimate is the mean paired
  difference variant − base with its bounds.
* :class:`Changes` — "the change alters the winner in fewer than ``ceiling`` of the deals": the
  share of deal games whose winner (or shared win) differs between the two rules.
* :class:`Depends` — "the effect is the same at the stronger level as at the weaker, within
  ±``margin``": the per-deal difference of the two levels' paired differences (a difference of
  differences on the same deals).  **holds**: the answer does not depend on the level;
  **fails**: it does.

Measures (``Measure``, in [0, 1] per game): ``win`` (a solitaire's win, or seat 0 of a game
with opponents), ``seat:S`` (seat S's points: its win share, 1/n each when nobody won),
``level:NAME`` (the points of the seats a level holds, summed), ``stall`` (no sole winner or a
turn-limit ending) and ``column:NAME:LO:HI`` (an outcome column scaled from [LO, HI]).
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from gamelib.core import ConfigError, GamelibError, Player, config_to_json
from gamelib.sim import game_of, n_seats, player_name
from gamelib.sim.checks import Names
from gamelib.verdict.questions import INCOMPLETE, Question, credit, level_credit, per_deal
from gamelib.verdict.run import COLUMNS, Run, Sequential, Unit, attach_runs, play_units
from gamelib.verdict.sequential import UNDECIDED, Band

__all__ = [
    "Changes",
    "Depends",
    "Effect",
    "Measure",
    "bind",
    "compare",
    "comparison_units",
    "format_comparison",
    "level_label",
    "level_measure",
    "with_measure",
]


@dataclass(frozen=True)
class Measure:
    """A per-game value in [0, 1] read off a run table (see the module docstring for the
    kinds); ``Measure.parse("level:greedy")`` reads the command line's form."""

    kind: str = "win"
    arg: str = ""
    lo: float = 0.0
    hi: float = 1.0

    KINDS = ("win", "seat", "level", "stall", "column")

    def __post_init__(self) -> None:
        if self.kind not in self.KINDS:
            raise ValueError(f"unknown measure {self.kind!r}; known: {', '.join(self.KINDS)}")
        if self.kind in ("seat", "level", "column") and not self.arg:
            raise ValueError(f"the measure {self.kind} needs an argument ({self.kind}:…)")
        if self.kind == "seat" and not self.arg.isdigit():
            raise ValueError(f"seat:S takes a seat number, got seat:{self.arg}")
        if not self.lo < self.hi:
            raise ValueError(f"a scaled column needs LO < HI, got {self.lo}, {self.hi}")

    @classmethod
    def parse(cls, text: str) -> Measure:
        """``win``, ``stall``, ``seat:S``, ``level:NAME`` (a name may hold ':', as
        ``level:mcts:200``) or ``column:NAME:LO:HI``."""
        kind, _, rest = text.partition(":")
        if kind == "column":
            parts = rest.split(":")
            if len(parts) != 3:
                raise ValueError(f"column takes NAME:LO:HI, got {text!r}")
            try:
                lo, hi = float(parts[1]), float(parts[2])
            except ValueError:
                raise ValueError(f"column:NAME:LO:HI needs numbers, got {text!r}") from None
            return cls("column", parts[0], lo, hi)
        return cls(kind, rest)

    def __str__(self) -> str:
        if self.kind == "column":
            return f"column:{self.arg}:{self.lo:g}:{self.hi:g}"
        return self.kind + (f":{self.arg}" if self.arg else "")

    def words(self) -> str:
        """What the measure is, in a sentence's words."""
        return {
            "win": "the win rate",
            "seat": f"seat {self.arg}'s share of the points",
            "level": f"{self.arg}'s share of the points",
            "stall": "the stall rate",
            "column": f"mean {self.arg} (scaled from {self.lo:g}–{self.hi:g})",
        }[self.kind]

    def values(self, table: pd.DataFrame) -> np.ndarray:
        """The measure of every game of ``table``."""
        if self.kind == "win":
            if len(seats_of_table(table)) == 1:  # a solitaire: won or not (no share of a loss)
                return table["win_0"].to_numpy(dtype=float)
            return np.asarray(credit(table, 0), dtype=float)
        if self.kind == "seat":
            if f"win_{self.arg}" not in table.columns:
                raise ValueError(f"the games have no seat {self.arg}")
            return credit(table, int(self.arg))
        if self.kind == "level":
            seats = [c for c in table.columns if c.startswith("player_")]
            held = [(table[c].astype(str) == self.arg).to_numpy() for c in seats]
            if not any(h.any() for h in held):
                raise ValueError(f"no seat is played by {self.arg!r} in these games")
            if all(h.all() for h in held):
                raise ValueError(
                    f"{self.arg!r} holds every seat, so its share is always 1: measure a seat "
                    "(seat:S) or play it against another level (A+B*K)"
                )
            return level_credit(table, self.arg)
        if self.kind == "stall":
            stalled = table["reason"].astype(str).isin(INCOMPLETE).to_numpy()
            if len(seats_of_table(table)) > 1:
                stalled = stalled | (table["n_winners"].to_numpy() != 1)
            return stalled.astype(float)
        if self.arg not in table.columns:
            raise ValueError(f"the games have no column {self.arg!r}")
        x = (table[self.arg].to_numpy(dtype=float) - self.lo) / (self.hi - self.lo)
        return np.clip(x, 0.0, 1.0)


def seats_of_table(table: pd.DataFrame) -> list[str]:
    """The ``player_<seat>`` columns of a run table."""
    return [c for c in table.columns if c.startswith("player_")]


def _measure(m: Measure | str) -> Measure:
    return m if isinstance(m, Measure) else Measure.parse(m)


def _diff(base: pd.DataFrame, variant: pd.DataFrame, m: Measure) -> np.ndarray:
    """Per deal: the variant's measure less the base's, in [−1, 1]."""
    d: np.ndarray = per_deal(variant, m.values(variant)) - per_deal(base, m.values(base))
    return d


@dataclass(frozen=True)
class Effect(Question):
    """The change moves ``measure`` by less than ±``margin`` (holds: no effect within the
    margin; fails: a decided effect beyond it)."""

    measure: Measure | str = "win"
    margin: float = 0.03
    name = "effect"
    unit = "paired"

    def __post_init__(self) -> None:
        object.__setattr__(self, "measure", _measure(self.measure))
        if not 0 < self.margin < 1:
            raise ValueError(f"the effect margin must lie in (0, 1), got {self.margin}")

    def margin_value(self) -> float:
        return self.margin

    def streams(
        self, tables: list[pd.DataFrame], **ctx: Any
    ) -> tuple[list[np.ndarray], list[Band]]:
        base, variant = tables
        d = _diff(base, variant, _measure(self.measure))
        return [(d + 1) / 2], [Band(0.5 - self.margin / 2, 0.5 + self.margin / 2)]

    def describe(
        self, mean: np.ndarray, lo: np.ndarray, hi: np.ndarray, **ctx: Any
    ) -> tuple[float, float, float, str]:
        m = _measure(self.measure)
        return (
            float(2 * mean[0] - 1),
            float(2 * lo[0] - 1),
            float(2 * hi[0] - 1),
            f"change in {m.words()}",
        )

    def claim(self, **ctx: Any) -> str:
        return (
            f"{ctx['change']} moves {_measure(self.measure).words()} by less than ±{self.margin:g}"
        )

    def band(self, **ctx: Any) -> tuple[float | None, float | None]:
        return -self.margin, self.margin


@dataclass(frozen=True)
class Changes(Question):
    """The change alters the winner (or the shared win) in fewer than ``ceiling`` of the deals'
    games."""

    ceiling: float = 0.05
    name = "changes"
    unit = "paired"

    def __post_init__(self) -> None:
        if not 0 < self.ceiling < 1:
            raise ValueError(f"the ceiling must lie in (0, 1), got {self.ceiling}")

    def margin_value(self) -> float:
        return self.ceiling

    def streams(
        self, tables: list[pd.DataFrame], **ctx: Any
    ) -> tuple[list[np.ndarray], list[Band]]:
        base, variant = tables
        keys = ["deal", "rotation"] if "rotation" in base.columns else ["deal"]
        cols = [c for c in base.columns if c.startswith("win_")]
        both = base[keys + cols].merge(
            variant[keys + cols], on=keys, suffixes=("_a", "_b"), validate="one_to_one"
        )
        if len(both) != len(base):
            raise ValueError("the two rule sets' games do not pair up deal by deal")
        differs = np.zeros(len(both), dtype=bool)
        for c in cols:
            differs |= both[f"{c}_a"].to_numpy() != both[f"{c}_b"].to_numpy()
        return [per_deal(both, differs)], [Band(hi=self.ceiling)]

    def describe(
        self, mean: np.ndarray, lo: np.ndarray, hi: np.ndarray, **ctx: Any
    ) -> tuple[float, float, float, str]:
        return float(mean[0]), float(lo[0]), float(hi[0]), "share of games whose winner changes"

    def claim(self, **ctx: Any) -> str:
        return f"{ctx['change']} changes the winner in fewer than {self.ceiling:g} of games"

    def band(self, **ctx: Any) -> tuple[float | None, float | None]:
        return None, self.ceiling


@dataclass(frozen=True)
class Depends(Question):
    """The change's effect on ``measure`` at the stronger level equals its effect at the weaker
    within ±``margin`` (holds: the answer does not depend on the level; fails: it does)."""

    measure: Measure | str = "win"
    margin: float = 0.03
    name = "depends"
    unit = "levels"

    def __post_init__(self) -> None:
        object.__setattr__(self, "measure", _measure(self.measure))
        if not 0 < self.margin < 2:
            raise ValueError(f"the margin must lie in (0, 2), got {self.margin}")

    def margin_value(self) -> float:
        return self.margin

    def streams(
        self, tables: list[pd.DataFrame], **ctx: Any
    ) -> tuple[list[np.ndarray], list[Band]]:
        weak_base, weak_variant, strong_base, strong_variant = tables
        weak = _measure(self.measure) if ctx.get("weak_measure") is None else ctx["weak_measure"]
        strong = (
            _measure(self.measure) if ctx.get("strong_measure") is None else ctx["strong_measure"]
        )
        dd = _diff(strong_base, strong_variant, strong) - _diff(weak_base, weak_variant, weak)
        return [(dd + 2) / 4], [Band(0.5 - self.margin / 4, 0.5 + self.margin / 4)]

    def describe(
        self, mean: np.ndarray, lo: np.ndarray, hi: np.ndarray, **ctx: Any
    ) -> tuple[float, float, float, str]:
        return (
            float(4 * mean[0] - 2),
            float(4 * lo[0] - 2),
            float(4 * hi[0] - 2),
            f"effect at {ctx['stronger']} less effect at {ctx['weaker']}",
        )

    def claim(self, **ctx: Any) -> str:
        return (
            f"the effect of {ctx['change']} is the same at {ctx['stronger']} as at "
            f"{ctx['weaker']} within ±{self.margin:g}"
        )

    def band(self, **ctx: Any) -> tuple[float | None, float | None]:
        return -self.margin, self.margin


def _lineup(level: str | Player | Sequence[str | Player], seats: int) -> list[Any]:
    """A level's seats: one player name fills every seat; a list names each seat."""
    if isinstance(level, str) or callable(level):
        return [level] * seats
    lineup = list(level)
    if len(lineup) != seats:
        raise ConfigError(f"a line-up names one player a seat: {seats} seats, got {lineup}")
    return lineup


def level_label(lineup: Sequence[Any]) -> str:
    """A level's name: its player, "A v B" for one A against copies of B, else the seats."""
    names = [player_name(p) for p in lineup]
    if len(set(names)) == 1:
        return names[0]
    if len(set(names[1:])) == 1:
        return f"{names[0]} v {names[1]}" + (f" ×{len(names) - 1}" if len(names) > 2 else "")
    return " + ".join(names)


def level_measure(q: Question, lineup: Sequence[Any]) -> Measure | None:
    """``level:`` with no name measures the line-up's first seat's player (its level)."""
    m = getattr(q, "measure", None)
    if isinstance(m, Measure) and m.kind == "level" and m.arg == "*":
        return Measure("level", player_name(lineup[0]))
    return m if isinstance(m, Measure) else None


def compare(
    base: Any,
    variant: Any,
    levels: Sequence[str | Player | Sequence[str | Player]],
    questions: Sequence[Question],
    *,
    change: str | None = None,
    alpha: float = 0.05,
    beta: float = 0.05,
    max_games: int = 20_000,
    seed: int = 0,
    rotate_seats: bool | None = None,
    workers: int | None = None,
    executor: Any = None,
    resume: str | os.PathLike[str] | None = None,
    progress: bool = True,
    first_batch: int = 50,
    tables: dict[str, list[pd.DataFrame]] | None = None,
    cache: bool | str | os.PathLike[str] = False,
    max_minutes: float | None = None,
    design: str = "cs",
    held_only: bool = False,
) -> pd.DataFrame:
    """Decide what changing the rules from ``base`` to ``variant`` does, at each level.

    ``levels``: weakest first; each a player name (it fills every seat) or a line-up (one
    player a seat, e.g. ``["greedy", "greedy:ignore", "greedy:ignore"]``: rotated through every
    seat of every deal unless ``rotate_seats=False``).  ``questions``: :class:`Effect` and
    :class:`Changes` are decided at every level (``Effect("level:*")`` measures each line-up's
    first player); :class:`Depends` between each pair of neighbouring levels, on the deals both
    played.  Every run uses ``seed``, so deal *i* is the same shuffle under both rules and at
    every level.  ``change`` names the change in the claims (default: the fields that differ).
    ``alpha``, ``beta``, ``max_games`` (per rule set and level), ``workers``, ``executor``,
    ``resume``, ``tables``, ``cache``, ``max_minutes``, ``held_only`` and ``design``
    (``"cs"``, the default, or a design of :mod:`gamelib.verdict.designs` for the two-sided
    effect and depends; changes stays with ``"cs"``) work as in
    :func:`gamelib.verdict.verdict`.  Returns one row per level (or pair of levels) and
    question with the columns of :data:`COLUMNS`.
    """
    name = Names(None)
    game = game_of(base)
    if game_of(variant) is not game:
        raise ConfigError("base and variant must be rules of the same game")
    if type(base) is not type(variant):
        raise ConfigError("base and variant must be configs of the same type")
    fields = [k for k, v in config_to_json(base).items() if config_to_json(variant)[k] != v]
    if not fields:
        raise ConfigError("the variant's rules equal the base's: there is no change to compare")
    if n_seats(base) != n_seats(variant):
        raise ConfigError("the variant changes the number of seats; compare like with like")
    change = change or ", ".join(f"{k}={config_to_json(variant)[k]}" for k in fields)
    how = Sequential(
        name, seed, alpha, beta, max_games, first_batch, design, max_minutes, workers, executor,
        progress, resume, cache, held_only
    )  # fmt: skip
    if isinstance(levels, str) or not isinstance(levels, Sequence) or not levels:
        raise ConfigError(f"levels must be a non-empty list, got {levels!r}")
    if not questions:
        raise ConfigError("no question to decide")
    for q in questions:
        if q.unit not in ("paired", "levels"):
            raise ConfigError(
                f"compare decides effect, changes and depends; {q.name} is a verdict question"
            )
        if q.unit == "levels" and len(levels) < 2:
            raise ConfigError("depends compares two levels: give at least two (weakest first)")
    seats = n_seats(base)
    lineups = [_lineup(lv, seats) for lv in levels]
    for lineup in lineups:
        for p in lineup:
            game.player(p)  # an unknown name is refused before any game
    labels = [level_label(lu) for lu in lineups]
    if len(set(labels)) != len(labels):
        raise ConfigError(f"each level appears once; got {labels}")
    mixed = any(len({player_name(p) for p in lu}) > 1 for lu in lineups)
    # a line-up of one player is the same from every seat: one game a deal; a mixed one is
    # rotated through every seat so no player keeps the first seat's edge
    rotate = seats > 1 and (mixed if rotate_seats is None else bool(rotate_seats))

    runs = {
        (k, which): Run(cfg, lineup, rotate, seed, max_games)
        for k, lineup in enumerate(lineups)
        for which, cfg in (("base", base), ("variant", variant))
    }
    units = []
    for label, ks, unit_qs, ctx in comparison_units(labels, questions):
        unit_runs = [runs[k, which] for k in ks for which in ("base", "variant")]
        # the comparison's words and the unit's levels' measures are bound into its questions
        bound = [bind(q, ctx, change, lineups) for q in unit_qs]
        units.append(Unit(label, unit_runs, bound, {}, unit_runs[0].per_deal))

    call = {
        "game": game.name,
        "base": config_to_json(base),
        "variant": config_to_json(variant),
        "levels": labels,
        "questions": [repr(q) for q in questions],
        "alpha": alpha,
        "beta": beta,
        "max_games": max_games,
        "seed": seed,
        "rotate": rotate,
        "first_batch": first_batch,
    }
    measures = [_measure(m) for q in questions if (m := getattr(q, "measure", None))]
    measured = [m.arg for m in measures if m.kind == "column"]
    attach_runs(list(runs.values()), "compare", call, how, measured)
    rows, _, _ = play_units(units, list(runs.values()), "compare", game.name, how, tables)
    out = pd.DataFrame(rows, columns=COLUMNS)
    out.attrs["compare"] = {
        "game": game.name,
        "base": config_to_json(base),
        "variant": config_to_json(variant),
        "change": change,
        "levels": labels,
        "seed": seed,
        "alpha": alpha,
        "beta": beta,
        "max_games": max_games,
        "rotate": rotate,
        "design": how.design,
    }
    return out


def comparison_units(
    labels: Sequence[str], questions: Sequence[Question]
) -> list[tuple[str, list[int], list[Question], dict[str, Any]]]:
    """A comparison's units: each level's paired questions (on its base and variant runs), then
    each pair of neighbouring levels' across-level questions (on both levels' runs, the weaker
    first); each as (row label, the levels it reads, its questions, its context for
    :func:`bind`)."""
    paired = [q for q in questions if q.unit == "paired"]
    across = [q for q in questions if q.unit == "levels"]
    units: list[tuple[str, list[int], list[Question], dict[str, Any]]] = []
    for k, label in enumerate(labels):
        if paired:
            units.append((label, [k], paired, {"k": k}))
    for k in range(1, len(labels)) if across else ():
        ctx = {"stronger": labels[k], "weaker": labels[k - 1], "k": k}
        units.append((f"{labels[k]} / {labels[k - 1]}", [k - 1, k], across, ctx))
    return units


def bind(q: Question, ctx: dict[str, Any], change: str, lineups: Sequence[Any]) -> Question:
    """``q`` with the comparison's words and the unit's levels' measures bound in."""
    qctx: dict[str, Any] = {"change": change}
    if q.unit == "levels":
        qctx.update(stronger=ctx["stronger"], weaker=ctx["weaker"])
        qctx["weak_measure"] = level_measure(q, lineups[ctx["k"] - 1])
        qctx["strong_measure"] = level_measure(q, lineups[ctx["k"]])
    else:
        q = with_measure(q, level_measure(q, lineups[ctx["k"]]))
    return _Bound(q, qctx)


def with_measure(q: Question, m: Measure | None) -> Question:
    """``q`` measuring ``m`` (the same question when it has no measure or already measures it)."""
    if m is None or getattr(q, "measure", None) == m:
        return q
    return dataclasses.replace(q, **{"measure": m})


class _Bound(Question):
    """A question with extra context (the change's words, the levels' measures) bound in."""

    q: Question
    ctx: dict[str, Any]

    def __init__(self, q: Question, ctx: dict[str, Any]) -> None:
        # Question is a frozen dataclass: set the bound parts past its __setattr__
        object.__setattr__(self, "q", q)
        object.__setattr__(self, "ctx", ctx)
        object.__setattr__(self, "name", q.name)

    def margin_value(self) -> float | None:
        return self.q.margin_value()

    def streams(
        self, tables: list[pd.DataFrame], **ctx: Any
    ) -> tuple[list[np.ndarray], list[Band]]:
        return self.q.streams(tables, **{**ctx, **self.ctx})

    def describe(
        self, mean: np.ndarray, lo: np.ndarray, hi: np.ndarray, **ctx: Any
    ) -> tuple[float, float, float, str]:
        return self.q.describe(mean, lo, hi, **{**ctx, **self.ctx})

    def claim(self, **ctx: Any) -> str:
        return self.q.claim(**{**ctx, **self.ctx})

    def band(self, **ctx: Any) -> tuple[float | None, float | None]:
        return self.q.band(**{**ctx, **self.ctx})


#: what each question's decision means, in a designer's words
WORDS = {
    ("effect", "holds"): "no effect",
    ("effect", "fails"): "an effect",
    ("changes", "holds"): "rarely changes the winner",
    ("changes", "fails"): "changes the winner often",
    ("depends", "holds"): "the same at both levels",
    ("depends", "fails"): "depends on the level",
}


def meaning(question: str, decision: str) -> str:
    """A comparison row's decision in a designer's words ("no effect", "depends on the
    level", …; "undecided" as such)."""
    if decision == UNDECIDED:
        return "undecided"
    try:
        return WORDS[question, decision]
    except KeyError:
        raise GamelibError(f"no words for {question} {decision}") from None


def format_comparison(table: pd.DataFrame) -> str:
    """A comparison table in plain words: one line per level and question."""
    lines = []
    width = max([len(str(x)) for x in table["level"]] + [5])
    for _, r in table.iterrows():
        est = f"{r['estimate']:+.3f} [{r['lo']:+.3f}, {r['hi']:+.3f}]"
        if r["question"] == "changes":
            est = f"{r['estimate']:.3f} [{r['lo']:.3f}, {r['hi']:.3f}]"
        tail = f"{r['deals']} deals, {r['games']} games"
        more = r["more_deals"]
        if r["decision"] == UNDECIDED:
            on_margin = (
                more is None
                or (isinstance(more, float) and math.isnan(more))
                or more > 100 * max(1, int(r["deals"]))
            )
            tail += (
                "; the estimate sits on the margin"
                if on_margin
                else f"; about {int(more):,} more deals would decide"
            )
        lines.append(
            f"  {r['level']!s:<{width}}  {r['question']:<7} "
            f"{meaning(r['question'], r['decision']).upper():<26} {r['measure']} {est}"
            f"  ({r['claim']}; {tail})"
        )
    return "\n".join(lines)
