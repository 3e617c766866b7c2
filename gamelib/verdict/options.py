"""Option worth by restricted play: the same deals played by the holder as it is and restricted
from (or to) one class of moves (:mod:`gamelib.restrict`), and each class's worth decided with
error rates.

Method.  Jaffe, Miller, Andersen, Liu, Karlin and Popović (2012, "Evaluating competitive game
balance with restricted play", AIIDE) measure an option as what a player loses when forbidden
it.  Here the holder (the line-up's first player, rotated through every seat so each seat holds
once a deal) plays every deal once unrestricted (arm 0) and once per class restricted (arm k),
against the same unrestricted opponents; the option's worth on a deal is
w_k(i) = s_0(i) − s_k(i), the holder's share of the points lost to the restriction, so the
deal's luck cancels (a paired design on the same shuffles).  Each w_k is one stream of a
sequential verdict (:mod:`gamelib.verdict.sequential`), with these claims:

* forbid (``greedy:forbid=pass``): *dead* — the worth lies within ±δ (the rule could go) — and
  *decisive* — the worth exceeds D, a large share (the option decides games);
* always (``greedy:always=pass``, the holder forced to take the class wherever it may): *as good
  as playing well* — the forced player loses at most δ (a one-sided non-inferiority verdict).

The claims are corrected for multiplicity by Bonferroni — each at α/Q and β/Q for Q claims —
so the chance of any false "holds" is at most α and of any false "fails" at most β.  All arms
play through the reference engine (restricted players do; Garner's compiled engine deals other
games from the same seed), so every arm plays the same deals.

What it means.  A restriction changes one seat's play, so the worth is "this option, for a
player who plays as the holder does", against opponents who play as they do: a class that
greedy never takes is dead for greedy whatever it is worth to a stronger player, which is why
the table is made at a heuristic and at a search level (docs/guide/worth.md).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from gamelib.core import ConfigError
from gamelib.restrict import MODES
from gamelib.sim import game_of, player_name
from gamelib.sim.checks import Names, check_output_path
from gamelib.verdict.questions import Question
from gamelib.verdict.run import COLUMNS, Run, Sequential
from gamelib.verdict.sequential import Band
from gamelib.verdict.worth import arm_shares, check_family, holder_lineup, play_arms

__all__ = [
    "CLAIMS",
    "OptionWorth",
    "format_options",
    "option_changes",
    "option_rows",
    "option_text",
    "option_worth",
]

#: the claims an option's row decides: forbid mode's dead and decisive, always mode's as-good
CLAIMS = ("dead", "decisive", "as-good")


@dataclass(frozen=True)
class OptionWorth(Question):
    """What the holder loses under arm ``arm``'s restriction (arm 0 unrestricted): ``claim``
    ``"dead"`` — within ±``margin``; ``"decisive"`` — more than ``margin``; ``"as-good"`` — at
    most ``margin`` (non-inferiority).  ``option`` names the class in the claim."""

    arm: int = 1
    margin: float = 0.02
    option: str = ""
    kind: str = "dead"
    name = "option worth"
    unit = "arms"

    def __post_init__(self) -> None:
        if not 0 < self.margin < 1:
            raise ValueError(f"the option margin must lie in (0, 1), got {self.margin}")
        if self.kind not in CLAIMS:
            raise ValueError(f"the option claim must be one of {CLAIMS}, got {self.kind!r}")

    def margin_value(self) -> float:
        return self.margin

    def streams(
        self, tables: list[pd.DataFrame], **ctx: Any
    ) -> tuple[list[np.ndarray], list[Band]]:
        shares = arm_shares(tables)
        lost = shares[0] - shares[self.arm]
        half = self.margin / 2
        band = {
            "dead": Band(0.5 - half, 0.5 + half),
            "decisive": Band(lo=0.5 + half),
            "as-good": Band(hi=0.5 + half),
        }[self.kind]
        return [(lost + 1) / 2], [band]

    def describe(
        self, mean: np.ndarray, lo: np.ndarray, hi: np.ndarray, **ctx: Any
    ) -> tuple[float, float, float, str]:
        return (
            float(2 * mean[0] - 1),
            float(2 * lo[0] - 1),
            float(2 * hi[0] - 1),
            "holder's share of the points lost to the restriction",
        )

    def claim(self, **ctx: Any) -> str:
        m = f"{self.margin:g}"
        return {
            "dead": f"{self.option} is dead: forbidding it costs its holder within ±{m}",
            "decisive": f"{self.option} is decisive: forbidding it costs its holder over {m}",
            "as-good": f"always {self.option} is as good as playing well (costs at most {m})",
        }[self.kind]

    def band(self, **ctx: Any) -> tuple[float | None, float | None]:
        return {
            "dead": (-self.margin, self.margin),
            "decisive": (self.margin, None),
            "as-good": (None, self.margin),
        }[self.kind]


def option_worth(
    config: Any,
    level: str | Sequence[str],
    options: Sequence[str] | None = None,
    *,
    mode: str = "forbid",
    margin: float = 0.02,
    decisive: float = 0.1,
    alpha: float = 0.05,
    beta: float = 0.05,
    max_deals: int = 5_000,
    seed: int = 0,
    workers: int | None = None,
    executor: Any = None,
    progress: bool = True,
    first_batch: int = 50,
    cache: bool | str | os.PathLike[str] = False,
    max_minutes: float | None = None,
    held_only: bool = False,
    tables: dict[str, list[pd.DataFrame]] | None = None,
    out: str | os.PathLike[str] | None = None,
    _names: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    """What each class of moves is worth to its holder, decided on the same deals (module
    docstring).

    ``level``: a player name (every seat) or a line-up whose first player is the holder (a
    searching holder against greedy opponents: ``["ismcts:100", "greedy", "greedy",
    "greedy"]``); a holder whose search cannot apply a restriction inside its tree is refused
    with the reason.  ``options``: the classes (``Game.options``' names; default all of them).
    ``mode``: ``"forbid"`` (each row: dead within ±``margin``, decisive above ``decisive``) or
    ``"always"`` (each row: as good as playing well, losing at most ``margin``).  ``alpha``,
    ``beta``: the family's error rates, split over the claims by Bonferroni.  ``max_deals``,
    ``seed``, ``workers``, ``executor``, ``cache``, ``max_minutes``, ``held_only``, ``tables``
    (key ``"options"``) and ``out`` work as in :func:`gamelib.verdict.worth.worth`.  Returns one
    row per class: ``option``, ``words`` (the rules' words), the verdict columns of its first
    claim (dead, or as-good) and, in forbid mode, ``decisive`` (that claim's decision); the
    estimate, bounds and deals are those of the claim decided last."""
    name = Names(_names)
    game = game_of(config)
    if out is not None:
        check_output_path(out, name("out"), ".parquet")
    if not game.options:
        raise ConfigError(f"{game.name} names no classes of moves: it has no option worth")
    if mode not in MODES:
        raise ConfigError(f"{name('mode')} must be one of {', '.join(MODES)}, got {mode!r}")
    classes = list(game.options) if options is None else list(options)
    unknown = [c for c in classes if c not in game.options]
    if unknown or not classes:
        raise ConfigError(
            f"{name('options')}: {game.name} has no class of moves "
            f"{', '.join(map(repr, unknown)) or '(none given)'}; its classes: "
            f"{', '.join(game.options)}"
        )
    for what, v, top in (("margin", margin, 1), ("decisive", decisive, 1)):
        if not isinstance(v, int | float) or isinstance(v, bool) or not 0 < v < top:
            raise ConfigError(f"{name(what)} must lie between 0 and 1, got {v!r}")
    if mode == "forbid" and decisive <= margin:
        raise ConfigError(f"{name('decisive')} must exceed {name('margin')} ({margin:g})")
    check_family(name, max_deals, alpha, beta)
    lineup = holder_lineup(game, config, level)
    holder = player_name(lineup[0])
    specs = [f"{holder}:{mode}={c}" for c in classes]
    for spec in specs:
        game.player(spec)  # a search that cannot apply it is refused here, with the reason
    qs: list[Question] = []
    for k, c in enumerate(classes, start=1):
        if mode == "forbid":
            qs += [OptionWorth(k, margin, c, "dead"), OptionWorth(k, decisive, c, "decisive")]
        else:
            qs.append(OptionWorth(k, margin, c, "as-good"))
    q = len(qs)
    how = Sequential(
        name, seed, alpha / q, beta / q, max_deals, first_batch, "cs", max_minutes, workers,
        executor, progress, None, cache, held_only,
    )  # fmt: skip
    runs = []
    for seats_k in [lineup, *([spec, *lineup[1:]] for spec in specs)]:
        run = Run(config, list(seats_k), True, seed, max_deals)
        run.engine = "python"
        runs.append(run)
    call = {"game": game.name, "options": mode, "lineup": lineup, "seed": seed}
    what = f"option worth ({mode})"
    rows = play_arms(game.name, lineup, runs, qs, what, "options", call, how, tables, out)
    frame = pd.DataFrame(rows, columns=COLUMNS)
    step = 2 if mode == "forbid" else 1
    table = frame.iloc[::step].reset_index(drop=True)
    if mode == "forbid":
        # both claims read the same stream at the same level: the row's estimate and bounds
        # are those of the claim decided last, on the most deals (the row's answer took them)
        later = frame.iloc[1::2].reset_index(drop=True)
        longer = later["deals"] > table["deals"]
        for col in ("estimate", "lo", "hi", "deals", "games"):
            table[col] = table[col].where(~longer, later[col])
        table["decisive"] = later["decision"].to_numpy()
        table["decisive_margin"] = decisive
    table.insert(0, "words", [game.options[c].words for c in classes])
    table.insert(0, "option", classes)
    table.attrs["options"] = {
        "game": game.name,
        "mode": mode,
        "lineup": [player_name(p) for p in lineup],
        "seed": seed,
        "alpha": alpha,
        "beta": beta,
        "margin": margin,
        "decisive": decisive if mode == "forbid" else None,
        "correction": f"Bonferroni: each of the {q} claims at α/{q} and β/{q}",
    }
    return table


def _verdict(r: Any, mode: str) -> str:
    """A row's answer in words: dead, decisive, matters (neither), hurts (its holder does better
    without it), as good, worse, undecided."""
    if mode == "always":
        return {"holds": "as good", "fails": "worse"}.get(str(r["decision"]), "undecided")
    if r["decision"] == "holds":
        return "dead"
    if r.get("decisive") == "holds":
        return "decisive"
    if r["decision"] == "fails" and r["estimate"] < 0:
        return "hurts"  # the holder does better without it
    if r["decision"] == "fails" and r.get("decisive") == "fails":
        return "matters"
    return "undecided"


def option_rows(table: pd.DataFrame) -> list[dict[str, Any]]:
    """An option table as the rows ``gamelib worth --options --json`` writes: one per class —
    ``card`` (the class), ``estimate``, ``low``, ``high``, ``deals``, ``decision`` (of its first
    claim: dead, or as good as playing well), ``answer`` (dead, decisive, matters, hurts, as
    good, worse or undecided), the margin and the family's error rates."""
    info = table.attrs.get("options", {})
    mode = info.get("mode", "forbid")
    return [
        {
            "card": str(r["option"]),
            "estimate": float(r["estimate"]),
            "low": float(r["lo"]),
            "high": float(r["hi"]),
            "deals": int(r["deals"]),
            "decision": str(r["decision"]),
            "answer": _verdict(r, mode),
            "margin": float(r["margin"]),
            "alpha": info.get("alpha"),
            "beta": info.get("beta"),
        }
        for _, r in table.iterrows()
    ]


def format_options(table: pd.DataFrame) -> str:
    """An option table in plain words: one line per class — what its holder loses to the
    restriction, the interval, the answer and the deals it took."""
    mode = table.attrs.get("options", {}).get("mode", "forbid")
    lines = []
    for _, r in table.iterrows():
        lines.append(
            f"  {r['option']:<15} {r['estimate']:+.4f} [{r['lo']:+.4f}, {r['hi']:+.4f}]  "
            f"{_verdict(r, mode):<10} {int(r['deals']):,} deals  ({r['words']})"
        )
    return "\n".join(lines)


def option_text(table: pd.DataFrame) -> str:
    """An option table in one finding, rendered from its rows: forbid mode — the dead classes,
    the decisive ones, those that matter without deciding, the undecided; always mode — the
    classes always taking which is as good as playing well, and those it is worse."""
    mode = table.attrs.get("options", {}).get("mode", "forbid")
    answers = [_verdict(r, mode) for _, r in table.iterrows()]

    def named(answer: str) -> str:
        rows = [r for (_, r), a in zip(table.iterrows(), answers, strict=True) if a == answer]
        out = [
            f"{r['option']} ({r['estimate']:+.3f} [{r['lo']:+.3f}, {r['hi']:+.3f}])" for r in rows
        ]
        return ", ".join(out) if out else "none"

    if mode == "always":
        parts = [f"always taking it is as good as playing well: {named('as good')}",
                 f"worse: {named('worse')}", f"undecided: {named('undecided')}"]  # fmt: skip
    else:
        parts = [f"dead: {named('dead')}", f"decisive: {named('decisive')}",
                 f"matter without deciding: {named('matters')}",
                 f"hurt their holder: {named('hurts')}",
                 f"undecided: {named('undecided')}"]  # fmt: skip
    deals = int(table["deals"].max()) if len(table) else 0
    return "; ".join(parts) + f" — decided on at most {deals:,} deals"


def option_changes(low: pd.DataFrame, high: pd.DataFrame) -> pd.DataFrame:
    """The classes whose answer changes between two levels' option tables (``low`` at the
    weaker level, ``high`` at the stronger, same classes and mode): decided at both and not
    alike — dead for greedy and decisive for a search is a design fact (an option only strong
    players use), not noise.  Columns ``option``, ``low``, ``high``."""
    mode = low.attrs.get("options", {}).get("mode", "forbid")
    a = {r["option"]: _verdict(r, mode) for _, r in low.iterrows()}
    b = {r["option"]: _verdict(r, mode) for _, r in high.iterrows()}
    rows = [
        {"option": o, "low": a[o], "high": b[o]}
        for o in a
        if o in b and "undecided" not in (a[o], b[o]) and a[o] != b[o]
    ]
    return pd.DataFrame(rows, columns=["option", "low", "high"])
