"""What a search scores: objective terms, each a loss measured on the games of a line-up, and
the games themselves.

An objective is a sum of weighted terms, each a small object (``SeatFair() + 0.5 *
DrawRate(0.05)``) or its text (``"seat0"``, ``"seats:0.02"``, ``"skill:greedy>random:0.6"``,
``"solo:0.3"``, ``"draws:0.05"``, ``"length:20..40"``, ``"2*seat0"``): every term is a loss
(0 when met), and a rule set's value is their weighted sum, which the search minimises.  Each
term names the line-up its games need (:func:`lineups`); :func:`play` plays them all on one seed
with :func:`gamelib.sim.simulate` and :func:`evaluate` measures every term with its 95%
interval.

These are :func:`gamelib.tune.tune`'s single-level scores.  The multi-fidelity search
(:mod:`gamelib.tune.halving`) asks :mod:`gamelib.verdict` questions instead, so that stalls,
length and skill are decisions with error rates rather than terms of a sum.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from gamelib.core import ConfigError

__all__ = [
    "OBJECTIVE_HELP",
    "DrawRate",
    "Length",
    "Lineup",
    "Measure",
    "Objective",
    "SeatFair",
    "SeatsFair",
    "SkillShows",
    "SoloWinRate",
    "Term",
    "as_objective",
    "evaluate",
    "lineups",
    "parse_objective",
    "play",
]

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
