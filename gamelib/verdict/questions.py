"""The questions a verdict decides, each a claim on per-deal streams of a run's games.

A question turns the games of one *unit* (a level's mirror games, or two neighbouring levels
played on the same deals) into streams of per-deal values in [0, 1] with the band each must lie
in (see :mod:`gamelib.verdict.sequential`), and says what its estimate is in the designer's
words.  The deal is the unit: a deal's games (its seat rotations) are averaged into one value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from gamelib.verdict.sequential import Band

__all__ = ["INCOMPLETE", "Fair", "Length", "Question", "Skill", "Stalls", "Target"]

#: outcome reasons that mean a game did not reach its natural end (as gamelib.stats)
INCOMPLETE = ("turn_limit", "unfinished")


def seats_of(table: pd.DataFrame) -> list[int]:
    """The seat numbers of a run table's ``player_<seat>`` columns."""
    return sorted(int(c.split("_")[1]) for c in table.columns if c.startswith("player_"))


def per_deal(table: pd.DataFrame, values: pd.Series | np.ndarray) -> np.ndarray:
    """One value per deal, in deal order: the mean of the deal's games."""
    s = pd.Series(np.asarray(values, dtype=float), index=table.index)
    return s.groupby(table["deal"].to_numpy(), sort=True).mean().to_numpy()


def credit(table: pd.DataFrame, seat: int) -> np.ndarray:
    """Seat ``seat``'s points per game: its win share (a win shared by k: 1/k); in a game nobody
    won every seat gets 1/n, so points always add up to 1 and a seat's fair share is 1/n."""
    n = len(seats_of(table))
    nobody = table["n_winners"].to_numpy() == 0
    win = table[f"win_{seat}"].to_numpy(dtype=float)
    return np.where(nobody, 1.0 / n, win)


def level_credit(table: pd.DataFrame, level: str) -> np.ndarray:
    """A level's points per game over the seats it holds."""
    total = np.zeros(len(table))
    for s in seats_of(table):
        held = table[f"player_{s}"].astype(str).to_numpy() == level
        total += np.where(held, credit(table, s), 0.0)
    return total


@dataclass(frozen=True)
class Question:
    """A claim a verdict decides; subclasses say which games and which streams."""

    name = "question"
    #: "mirror": one level in every seat; "pair": a stronger level against the one below
    unit = "mirror"

    def margin_value(self) -> float | None:
        """The margin the JSON reports (δ, or the question's own threshold)."""
        return None

    def streams(
        self, tables: list[pd.DataFrame], **ctx: Any
    ) -> tuple[list[np.ndarray], list[Band]]:
        """Per-deal streams and their bands from the unit's run tables."""
        raise NotImplementedError

    def describe(
        self, mean: np.ndarray, lo: np.ndarray, hi: np.ndarray, **ctx: Any
    ) -> tuple[float, float, float, str]:
        """(estimate, lo, hi, words) for the table: the stream that matters most."""
        raise NotImplementedError

    def claim(self, **ctx: Any) -> str:
        """The claim in words."""
        raise NotImplementedError

    def band(self, **ctx: Any) -> tuple[float | None, float | None]:
        """Where the claim holds, on the scale of :meth:`describe`'s estimate (None: open)."""
        raise NotImplementedError


@dataclass(frozen=True)
class Fair(Question):
    """Every seat's share of the points lies within ±``margin`` of its fair share 1/n."""

    margin: float = 0.03
    name = "fair"

    def __post_init__(self) -> None:
        if not 0 < self.margin < 0.5:
            raise ValueError(f"the fairness margin must lie in (0, 0.5), got {self.margin}")

    def margin_value(self) -> float:
        return self.margin

    def _tested(self, table: pd.DataFrame) -> list[int]:
        seats = seats_of(table)
        if len(seats) < 2:
            raise ValueError("fair compares seats; a solitaire has one (ask target instead)")
        # two seats' points add up to 1: seat 0 alone carries the question
        return seats[:1] if len(seats) == 2 else seats

    def streams(
        self, tables: list[pd.DataFrame], **ctx: Any
    ) -> tuple[list[np.ndarray], list[Band]]:
        (t,) = tables
        n = len(seats_of(t))
        seats = self._tested(t)
        band = Band(1 / n - self.margin, 1 / n + self.margin)
        return [per_deal(t, credit(t, s)) for s in seats], [band] * len(seats)

    def describe(
        self, mean: np.ndarray, lo: np.ndarray, hi: np.ndarray, **ctx: Any
    ) -> tuple[float, float, float, str]:
        n = ctx["n_seats"]
        k = int(np.argmax(np.abs(mean - 1 / n)))
        seat = k if n > 2 else 0
        return float(mean[k]), float(lo[k]), float(hi[k]), f"seat {seat} wins"

    def claim(self, **ctx: Any) -> str:
        n = ctx["n_seats"]
        return f"every seat within ±{self.margin:g} of its fair share {1 / n:.3g}"

    def band(self, **ctx: Any) -> tuple[float | None, float | None]:
        n = ctx["n_seats"]
        return 1 / n - self.margin, 1 / n + self.margin


@dataclass(frozen=True)
class Skill(Question):
    """The stronger level's share against the weaker on the same deals, from every seat, is
    above its fair share + ``margin`` (solitaire: its win rate above the weaker's + margin)."""

    margin: float = 0.03
    name = "skill"
    unit = "pair"

    def __post_init__(self) -> None:
        if not 0 <= self.margin < 0.5:
            raise ValueError(f"the skill margin must lie in [0, 0.5), got {self.margin}")

    def margin_value(self) -> float:
        return self.margin

    def streams(
        self, tables: list[pd.DataFrame], **ctx: Any
    ) -> tuple[list[np.ndarray], list[Band]]:
        strong, weak = ctx["stronger"], ctx["weaker"]
        if len(tables) == 2:  # solitaire: the two levels on the same shuffles
            a, b = tables
            d = per_deal(a, a["win_0"]) - per_deal(b, b["win_0"])
            return [(d + 1) / 2], [Band(lo=(self.margin + 1) / 2)]
        (t,) = tables
        n = len(seats_of(t))
        return [per_deal(t, level_credit(t, strong))], [Band(lo=1 / n + self.margin)]
        del weak

    def describe(
        self, mean: np.ndarray, lo: np.ndarray, hi: np.ndarray, **ctx: Any
    ) -> tuple[float, float, float, str]:
        if ctx["n_seats"] == 1:  # back from the (d + 1) / 2 scale
            return (
                float(2 * mean[0] - 1),
                float(2 * lo[0] - 1),
                float(2 * hi[0] - 1),
                f"{ctx['stronger']} wins more often than {ctx['weaker']} by",
            )
        return float(mean[0]), float(lo[0]), float(hi[0]), f"{ctx['stronger']} scores"

    def claim(self, **ctx: Any) -> str:
        if ctx["n_seats"] == 1:
            return (
                f"{ctx['stronger']} wins at least {self.margin:g} more often than {ctx['weaker']}"
            )
        n = ctx["n_seats"]
        return f"{ctx['stronger']} scores above {1 / n + self.margin:.3g} against {ctx['weaker']}"

    def band(self, **ctx: Any) -> tuple[float | None, float | None]:
        n = ctx["n_seats"]
        return (self.margin if n == 1 else 1 / n + self.margin), None


@dataclass(frozen=True)
class Target(Question):
    """A solitaire's win rate lies within ``rate`` ± ``margin``."""

    rate: float = 0.30
    margin: float = 0.05
    name = "target"

    def __post_init__(self) -> None:
        if not 0 <= self.rate - self.margin < self.rate + self.margin <= 1 or self.margin <= 0:
            raise ValueError(
                f"the target band {self.rate} ± {self.margin} must lie inside [0, 1] "
                "with a positive margin"
            )

    def margin_value(self) -> float:
        return self.margin

    def streams(
        self, tables: list[pd.DataFrame], **ctx: Any
    ) -> tuple[list[np.ndarray], list[Band]]:
        (t,) = tables
        if len(seats_of(t)) != 1:
            raise ValueError("target asks a solitaire's win rate; this game has opponents")
        return [per_deal(t, t["win_0"])], [Band(self.rate - self.margin, self.rate + self.margin)]

    def describe(
        self, mean: np.ndarray, lo: np.ndarray, hi: np.ndarray, **ctx: Any
    ) -> tuple[float, float, float, str]:
        return float(mean[0]), float(lo[0]), float(hi[0]), "win rate"

    def claim(self, **ctx: Any) -> str:
        return f"win rate within {self.rate:g} ± {self.margin:g}"

    def band(self, **ctx: Any) -> tuple[float | None, float | None]:
        return self.rate - self.margin, self.rate + self.margin


@dataclass(frozen=True)
class Stalls(Question):
    """Games without a sole winner (draws, shared wins, turn-limit endings; a solitaire: only
    turn-limit endings) stay below ``ceiling``."""

    ceiling: float = 0.05
    name = "stalls"

    def __post_init__(self) -> None:
        if not 0 < self.ceiling < 1:
            raise ValueError(f"the stall ceiling must lie in (0, 1), got {self.ceiling}")

    def margin_value(self) -> float:
        return self.ceiling

    def streams(
        self, tables: list[pd.DataFrame], **ctx: Any
    ) -> tuple[list[np.ndarray], list[Band]]:
        (t,) = tables
        stalled = t["reason"].astype(str).isin(INCOMPLETE).to_numpy()
        if len(seats_of(t)) > 1:
            stalled = stalled | (t["n_winners"].to_numpy() != 1)
        return [per_deal(t, stalled)], [Band(hi=self.ceiling)]

    def describe(
        self, mean: np.ndarray, lo: np.ndarray, hi: np.ndarray, **ctx: Any
    ) -> tuple[float, float, float, str]:
        return float(mean[0]), float(lo[0]), float(hi[0]), "stall rate"

    def claim(self, **ctx: Any) -> str:
        return f"stalls (no sole winner or turn limit) below {self.ceiling:g}"

    def band(self, **ctx: Any) -> tuple[float | None, float | None]:
        return None, self.ceiling


@dataclass(frozen=True)
class Length(Question):
    """The median game lasts between ``lo`` and ``hi`` turns: fewer than half the games end
    before ``lo`` and fewer than half after ``hi``."""

    lo: int = 1
    hi: int = 1000
    name = "length"

    def __post_init__(self) -> None:
        if not 0 <= self.lo <= self.hi:
            raise ValueError(f"the length range needs 0 ≤ lo ≤ hi, got {self.lo}–{self.hi}")

    def streams(
        self, tables: list[pd.DataFrame], **ctx: Any
    ) -> tuple[list[np.ndarray], list[Band]]:
        (t,) = tables
        turns = t["turns"].to_numpy()
        short = per_deal(t, turns < self.lo)
        long = per_deal(t, turns > self.hi)
        return [short, long], [Band(hi=0.5), Band(hi=0.5)]

    def describe(
        self, mean: np.ndarray, lo: np.ndarray, hi: np.ndarray, **ctx: Any
    ) -> tuple[float, float, float, str]:
        k = int(np.argmax(mean))
        what = f"games shorter than {self.lo} turns" if k == 0 else f"longer than {self.hi}"
        return float(mean[k]), float(lo[k]), float(hi[k]), f"share of {what}"

    def claim(self, **ctx: Any) -> str:
        return f"median length within {self.lo}–{self.hi} turns"

    def band(self, **ctx: Any) -> tuple[float | None, float | None]:
        return None, 0.5


#: the questions by the name the command line uses
QUESTIONS: dict[str, type[Question]] = {q.name: q for q in (Fair, Skill, Target, Stalls, Length)}
