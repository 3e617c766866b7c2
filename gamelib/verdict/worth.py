"""Card worth by intervention: the same deals played once per *arm* — one card of a holder's
hand traded for another (:func:`gamelib.sim.simulate`'s ``edit``) — and each arm's worth
decided against the average arm, with error rates.

Method.  On every deal the holder (the line-up's first player, rotated through every seat so
each seat holds once a deal) is dealt card (c, x) first; arm v trades it for the card (c, v)
wherever that card was dealt (``Game.edit_deal``), so the deal stays the same cards.  The
holder's share of the points under arm k on deal i is s_k(i); the arm's worth on that deal is
w_k(i) = s_k(i) − mean_j s_j(i), so the deal's luck cancels (the arms are played on the same
shuffle: a paired design with K arms, Box, Hunter and Hunter 2005, ch. 4's randomised blocks).
Each w_k is one stream of a sequential verdict (:mod:`gamelib.verdict.sequential`: the
anytime-valid confidence sequences of Waudby-Smith and Ramdas 2023) with the claim
"the worth lies within ±δ" (in line); the K claims are corrected for multiplicity by
Bonferroni — each row decided at α/K and β/K — so the chance of any false "in line" is at most
α and of any false "out of line" at most β, whichever rows they fall on.  The deals, the looks,
the clock and the study cache are the verdicts' own (:func:`gamelib.verdict.run.play_units`).

What it means.  Worth is "this card instead of another, for me": about a third of the trades
take the card from an opponent's hand (at 4 players, 30 of the 92 other cards are in the other
hands), so a strong card's worth includes denying it to the others.  It is not "a card from
nowhere" (an extra card changes the hand size), and not the observational "win rate when held
minus when not" (:func:`observed_worth`), which confounds the card with the games it shows up
in.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from gamelib.core import ConfigError
from gamelib.records import check_edit
from gamelib.sim import game_of, player_name
from gamelib.sim.checks import Names, check_output_path
from gamelib.sim.chunks import n_seats
from gamelib.sim.results import tidy
from gamelib.verdict.budget import need_columns
from gamelib.verdict.questions import Question, per_deal, seats_of
from gamelib.verdict.run import COLUMNS, Run, Sequential, Unit, attach_runs, play_units
from gamelib.verdict.sequential import Band

__all__ = [
    "Worth",
    "amended",
    "arms",
    "change_text",
    "check_family",
    "direction_changes",
    "format_worth",
    "holder_lineup",
    "holder_share",
    "observed_worth",
    "play_arms",
    "store_arms",
    "worth",
    "worth_rows",
    "worth_text",
]


def arms(config: Any, kind: str) -> list[int]:
    """The arms of a kind of trade under ``config``: Gargon's values 0–15 or colours 0–5, Deck
    the Yard's pattern cards (18 by default)."""
    if kind == "value":
        return list(range(16))
    if kind == "colour":
        return list(range(6))
    return list(range(len(config.patterns)))


def holder_share(table: pd.DataFrame) -> np.ndarray:
    """The holder's share of the points in each game: the win share (a win shared by k: 1/k;
    nobody won: 1/n) of the seat the line-up's first player sits in (column ``rotation``); a
    solitaire's: won or not."""
    n = len(seats_of(table))
    if n == 1:
        return table["win_0"].to_numpy(dtype=float)
    seat = table["rotation"].to_numpy() if "rotation" in table else np.zeros(len(table), int)
    wins = table[[f"win_{s}" for s in range(n)]].to_numpy(dtype=float)
    share = wins[np.arange(len(table)), seat]
    return np.where(table["n_winners"].to_numpy() == 0, 1.0 / n, share)


#: the last unit's shares: every arm's question reads the same tables at a look (the memo
#: holds the tables themselves, so their ids cannot be another's while it is kept)
_memo: list[Any] = [None, None, None]


def arm_shares(tables: list[pd.DataFrame]) -> np.ndarray:
    """(arm, deal): the holder's share of the points per deal under each arm."""
    key = [(id(t), len(t)) for t in tables]
    if _memo[0] != key:
        _memo[:] = key, list(tables), np.stack([per_deal(t, holder_share(t)) for t in tables])
    shares: np.ndarray = _memo[2]
    return shares


@dataclass(frozen=True)
class Worth(Question):
    """Arm ``arm`` (of the unit's runs, one a card) is worth within ±``margin`` of the average
    arm to its holder (holds: in line; fails: out of line, the estimate's sign says which
    way).  ``card`` names it in the claim."""

    arm: int = 0
    margin: float = 0.02
    card: str = ""
    name = "worth"
    unit = "arms"

    def __post_init__(self) -> None:
        if not 0 < self.margin < 1:
            raise ValueError(f"the worth margin must lie in (0, 1), got {self.margin}")

    def margin_value(self) -> float:
        return self.margin

    def streams(
        self, tables: list[pd.DataFrame], **ctx: Any
    ) -> tuple[list[np.ndarray], list[Band]]:
        shares = arm_shares(tables)
        w = shares[self.arm] - shares.mean(axis=0)
        return [(w + 1) / 2], [Band(0.5 - self.margin / 2, 0.5 + self.margin / 2)]

    def describe(
        self, mean: np.ndarray, lo: np.ndarray, hi: np.ndarray, **ctx: Any
    ) -> tuple[float, float, float, str]:
        return (
            float(2 * mean[0] - 1),
            float(2 * lo[0] - 1),
            float(2 * hi[0] - 1),
            "holder's share of the points, less the average card's",
        )

    def claim(self, **ctx: Any) -> str:
        return f"{self.card} is worth within ±{self.margin:g} of the average card to its holder"

    def band(self, **ctx: Any) -> tuple[float | None, float | None]:
        return -self.margin, self.margin


def _label(kind: str, card: int) -> str:
    """A card as the findings name it: a colour by its name, a value or pattern by its number."""
    from gamelib.gargon.rules import COLOURS

    return COLOURS[card] if kind == "colour" else str(card)


def _card_name(kind: str, target: int) -> str:
    return f"{kind} {_label(kind, target)}"


def worth(
    config: Any,
    level: str | Sequence[str],
    kind: str = "value",
    *,
    margin: float = 0.02,
    alpha: float = 0.05,
    beta: float = 0.05,
    max_deals: int = 20_000,
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
    """What each card is worth to its holder, decided on the same deals (module docstring).

    ``level``: a player name (every seat) or a line-up whose first player is the holder (a
    searching holder against greedy opponents: ``["ismcts:100", "greedy", "greedy",
    "greedy"]``); its seats are rotated so each holds once a deal.  ``kind``: Gargon's
    ``"value"`` (one arm per value 0–15: the card table) or ``"colour"`` (one per colour: a
    built-in null, since the rules treat colours alike, every row should come out in line);
    Deck the Yard's ``"pattern"`` (one arm per pattern card, put face up in slot 0 at the
    start; worth is then a change in the win rate).  ``margin``: δ on the
    holder's share of the points.  ``alpha``/``beta``: the family's error rates, split over the
    rows by Bonferroni (each row's ``alpha`` and ``beta`` columns say α/K and β/K).
    ``max_deals``: the most deals (each played by every arm from every seat).  ``seed``,
    ``workers``, ``executor``, ``cache``, ``max_minutes``, ``held_only`` and ``tables``
    (key: ``"worth"``) work as in :func:`gamelib.verdict.verdict`; ``out`` (a ``.parquet``
    path) stores every arm's games up to the deals the table used, each run with its
    provenance, slimmed to the columns worth reads — a stored study the cache's read-only tier
    serves (``data/results``), so the same call decides from it on any machine.  Returns one
    row per arm with the verdict columns and ``card`` (the value or colour) first."""
    name = Names(_names)
    game = game_of(config)
    if out is not None:
        check_output_path(out, name("out"), ".parquet")
    if game.edit_deal is None or not game.edit_kinds:
        raise ConfigError(f"{game.name} has no card trades: card worth is for games that do")
    if kind not in game.edit_kinds:
        kinds = ", ".join(game.edit_kinds)
        raise ConfigError(f"{name('kind')} of {game.name} must be one of {kinds}, got {kind!r}")
    if not isinstance(margin, int | float) or isinstance(margin, bool) or not 0 < margin < 1:
        raise ConfigError(f"{name('margin')} must lie between 0 and 1, got {margin!r}")
    check_family(name, max_deals, alpha, beta)
    lineup = holder_lineup(game, config, level)
    seats = len(lineup)
    targets = arms(config, kind)
    k = len(targets)
    how = Sequential(
        name, seed, alpha / k, beta / k, max_deals, first_batch, "cs", max_minutes, workers,
        executor, progress, None, cache, held_only,
    )  # fmt: skip
    runs = []
    for target in targets:
        run = Run(config, lineup, True, seed, max_deals)
        run.edit = check_edit(game, (kind, target), seats)
        runs.append(run)
    qs: list[Question] = [Worth(i, margin, _card_name(kind, t)) for i, t in enumerate(targets)]
    call = {"game": game.name, "worth": kind, "lineup": lineup, "seed": seed}
    rows = play_arms(game.name, lineup, runs, qs, f"{kind} worth", "worth", call, how, tables, out)
    table = pd.DataFrame(rows, columns=COLUMNS)
    table.insert(0, "card", targets)
    table.attrs["worth"] = {
        "game": game.name,
        "kind": kind,
        "lineup": [player_name(p) for p in lineup],
        "seed": seed,
        "alpha": alpha,
        "beta": beta,
        "margin": margin,
        "correction": f"Bonferroni: each of the {k} rows at α/{k} and β/{k}",
    }
    return table


def check_family(name: Names, max_deals: Any, alpha: Any, beta: Any) -> None:
    """Refuse, in one line naming it, a deal budget that is not a whole number ≥ 1 or a
    family's error rate (before the split over its rows) outside (0, 0.5)."""
    if not isinstance(max_deals, int) or isinstance(max_deals, bool) or max_deals < 1:
        raise ConfigError(f"{name('max_deals')} must be a whole number ≥ 1, got {max_deals!r}")
    for what, v in (("alpha", alpha), ("beta", beta)):
        if not isinstance(v, int | float) or isinstance(v, bool) or not 0 < v < 0.5:
            raise ConfigError(f"{name(what)} must lie between 0 and 0.5, got {v!r}")


def holder_lineup(game: Any, config: Any, level: str | Sequence[str]) -> list[str]:
    """The line-up ``level`` names — a player for every seat, or a line-up whose first player
    is the holder — with every name made once, so an unknown one is refused before any game."""
    seats = n_seats(config)
    lineup = [level] * seats if isinstance(level, str) else list(level)
    if len(lineup) != seats:
        raise ConfigError(f"{seats} players play this config, got the line-up {lineup}")
    for p in lineup:
        game.player(p)
    return lineup


def play_arms(
    game: str,
    lineup: Sequence[str],
    runs: Sequence[Run],
    questions: Sequence[Question],
    what: str,
    key: str,
    call: dict[str, Any],
    how: Sequential,
    tables: dict[str, list[pd.DataFrame]] | None,
    out: str | os.PathLike[str] | None,
) -> list[dict[str, Any]]:
    """Play the arms ``runs`` (every one on the same deals, the line-up's seats rotated) as
    one unit decided by ``questions``, and return its verdict rows; ``tables[key]`` gets the
    games the verdicts read, and ``out`` every arm's games with their provenance
    (:func:`store_arms`).  Card worth and option worth both play through it."""
    label = ",".join(player_name(p) for p in lineup) if len(set(lineup)) > 1 else lineup[0]
    arms_ = list(runs)
    unit = Unit(label, arms_, list(questions), {}, 1)
    attach_runs(arms_, key, call, how, ["n_winners"])
    got: dict[str, list[pd.DataFrame]] = {}
    rows, played, _ = play_units([unit], arms_, what, game, how, got)
    if tables is not None:
        tables[key] = got[label]
    if out is not None:
        store_arms(runs, played[0], need_columns(lineup, ["n_winners"]), Path(out))
    return rows


def store_arms(runs: Sequence[Run], upto: int, columns: Sequence[str], path: Path) -> None:
    """Every arm's games of deals 0 … ``upto``−1, slimmed to ``columns``, one table with each
    run's provenance (a stored study of many runs, as :func:`gamelib.sim.save` writes)."""
    from gamelib.sim import combine, save, slim
    from gamelib.sim.deals import ALWAYS

    frames = []
    for r in runs:
        t = slim(tidy(r.table(upto)), list(dict.fromkeys([*ALWAYS, *columns])))
        t.attrs["provenance"] = r.spec(upto)
        frames.append(t)
    save(combine(frames), path)


def observed_worth(table: pd.DataFrame, config: Any, kind: str = "value") -> pd.DataFrame:
    """The observational estimate designers read today (17lands' "improvement when drawn"):
    per value (or colour), the mean share of the points of the seats dealt at least one such
    card minus of the seats dealt none, over the games of ``table`` (ordinary games, no edit;
    the hands are dealt again from each game's ``seed``).  Confounded by what else comes with
    the card — shown beside :func:`worth` to say how far it is from the intervention."""
    from gamelib.gargon import kernel
    from gamelib.gargon.rules import COLOUR_OF, VALUE_OF

    if game_of(config).edit_deal is None:
        raise ConfigError("observed worth reads Gargon hands")
    n, h = config.n_players, config.hand_size
    decks = kernel.dealt_decks(config, table["seed"].to_numpy(dtype=np.int64))
    hands = decks[:, : n * h].reshape(len(table), n, h)
    attr = VALUE_OF if kind == "value" else COLOUR_OF
    of = np.asarray(attr)[hands]  # (game, seat, card)
    wins = table[[f"win_{s}" for s in range(n)]].to_numpy(dtype=float)
    nobody = table["n_winners"].to_numpy() == 0
    share = np.where(nobody[:, None], 1.0 / n, wins)
    rows = []
    for target in arms(config, kind):
        held = (of == target).any(axis=2)
        with_it, without = share[held], share[~held]
        est = with_it.mean() - without.mean() if len(with_it) and len(without) else np.nan
        rows.append({"card": target, "observed": float(est), "held": float(held.mean())})
    return pd.DataFrame(rows)


def amended(config: Any, table: pd.DataFrame) -> tuple[Any, pd.DataFrame]:
    """The amulet table a value worth table suggests: one amulet fewer on each value that is
    out of line above the average card, one more on each out of line below (never below 0);
    returns the amended config and the changes (value, amulets before, after)."""
    amulets = list(config.amulets)
    changes = []
    out = table[table["decision"] == "fails"]
    for v, est in zip(out["card"].astype(int), out["estimate"].astype(float), strict=True):
        step = -1 if est > 0 else 1
        after = max(0, amulets[v] + step)
        if after != amulets[v]:
            changes.append({"card": v, "before": amulets[v], "after": after})
            amulets[v] = after
    new = dataclasses.replace(config, amulets=tuple(amulets))
    return new, pd.DataFrame(changes, columns=["card", "before", "after"])


def worth_rows(table: pd.DataFrame) -> list[dict[str, Any]]:
    """A worth table as the rows ``gamelib worth --json`` writes: one per card — ``card`` (the
    value or colour), ``estimate``, ``low``, ``high``, ``deals`` and ``decision`` (holds, fails
    or undecided, as the verdicts write it), with the family's margin and error rates."""
    info = table.attrs.get("worth", {})
    return [
        {
            "card": int(r["card"]),
            "estimate": float(r["estimate"]),
            "low": float(r["lo"]),
            "high": float(r["hi"]),
            "deals": int(r["deals"]),
            "decision": str(r["decision"]),
            "margin": float(r["margin"]),
            "alpha": info.get("alpha"),
            "beta": info.get("beta"),
        }
        for _, r in table.iterrows()
    ]


def format_worth(table: pd.DataFrame, config: Any) -> str:
    """A worth table in plain words: one line per card — its printed amulets (a value), its
    worth and interval, the decision and the deals it took."""
    from gamelib.gargon.rules import COLOURS

    info = table.attrs.get("worth", {})
    kind = info.get("kind", "value")
    lines = []
    for _, r in table.iterrows():
        card = int(r["card"])
        if kind == "value":
            n = config.amulets[card]
            name = f"value {card:>2} ({n} amulet{'s' * (n != 1)})"
        elif kind == "colour":
            name = f"colour {COLOURS[card]:<6}"
        else:
            name = f"pattern {card:>2} ({'-'.join(config.patterns[card])})"
        words = {"holds": "in line", "fails": "OUT OF LINE", "undecided": "undecided"}
        word = words.get(str(r["decision"]), str(r["decision"]))
        if r["decision"] == "fails":
            word += " (above)" if r["estimate"] > 0 else " (below)"
        lines.append(
            f"  {name:<24} {r['estimate']:+.4f} [{r['lo']:+.4f}, {r['hi']:+.4f}]  "
            f"{word:<20} {int(r['deals']):,} deals"
        )
    return "\n".join(lines)


def _names(table: pd.DataFrame, rows: pd.DataFrame, config: Any) -> str:

    kind = table.attrs.get("worth", {}).get("kind", "value")
    out = []
    for _, r in rows.iterrows():
        card = int(r["card"])
        label = _label(kind, card)
        out.append(f"{label} ({r['estimate']:+.3f} [{r['lo']:+.3f}, {r['hi']:+.3f}])")
    return ", ".join(out) if out else "none"


def worth_text(table: pd.DataFrame, config: Any) -> str:
    """A worth table in one finding, rendered from its rows: the cards out of line above and
    below the average card (each with its worth and interval), how many are in line, and the
    undecided ones with the deals they took — "out of line above: 6 (+0.015 [+0.010, +0.021]);
    below: none; in line: 9 of 16; undecided: …"."""
    kind = table.attrs.get("worth", {}).get("kind", "value")
    fails = table[table["decision"] == "fails"]
    above, below = fails[fails["estimate"] > 0], fails[fails["estimate"] <= 0]
    held = table[table["decision"] == "holds"]
    open_ = table[table["decision"] == "undecided"]

    word = f"{kind}s"
    named = [_label(kind, int(c)) for c in held["card"]]
    in_line = ", ".join(named) if 0 < len(held) < len(table) else ""
    parts = [
        f"out of line above the average card: {_names(table, above, config)}",
        f"below: {_names(table, below, config)}",
        f"in line: {len(held)} of {len(table)} {word}" + (f" ({in_line})" if in_line else ""),
        f"undecided: {_names(table, open_, config)}",
    ]
    deals = int(table["deals"].max()) if len(table) else 0
    return "; ".join(parts) + f" — decided on at most {deals:,} deals"


def change_text(changes: pd.DataFrame) -> str:
    """The amulet changes :func:`amended` suggests, in words: "value 6: 3 → 2 amulets; …"
    (none: "no change")."""
    if not len(changes):
        return "no change"
    return "; ".join(
        f"value {int(r['card'])}: {int(r['before'])} → {int(r['after'])} amulets"
        for _, r in changes.iterrows()
    )


def direction_changes(low: pd.DataFrame, high: pd.DataFrame) -> pd.DataFrame:
    """The cards whose verdict changes direction between two levels' worth tables (``low`` at
    the weaker level, ``high`` at the stronger, on the same cards): decided out of line one way
    at one level and the other way, or in line, at the other — or in line at one and out of
    line at the other.  A card only strong players can use is a design fact, not noise."""

    def side(t: pd.DataFrame) -> pd.Series:
        s = pd.Series("undecided", index=t["card"].astype(int).to_numpy())
        d, e = t["decision"].to_numpy(), t["estimate"].to_numpy()
        s[d == "holds"] = "in line"
        s[(d == "fails") & (e > 0)] = "above"
        s[(d == "fails") & (e <= 0)] = "below"
        return s

    a, b = side(low), side(high)
    both = pd.DataFrame({"low": a, "high": b}).dropna()
    decided = (both["low"] != "undecided") & (both["high"] != "undecided")
    moved = both[decided & (both["low"] != both["high"])]
    return moved.rename_axis("card").reset_index()
