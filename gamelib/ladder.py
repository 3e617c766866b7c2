"""The skill ladder: every level of player against every other on common deals, the matchup
matrix with intervals, the first player's edge at each level, and ratings.

*Why one file (about 650 lines):* the play, the tables, the verdicts and the words all read the
same ladder table and its ``ladder`` provenance (levels, design, cheats); split, each part would
re-derive them.

A ladder is a list of player specs (``["random", "greedy", "cautious"]``), its *levels*; a
level's name is its spec.  :func:`matchups` plays the ladder through
:func:`gamelib.sim.simulate`, one run per pairing, every run on the same ``seed`` — so deal
*i* is the same deal in every pairing (common random numbers), and every run is reproducible,
parallel and resumable exactly as ``simulate`` is.  How a game is played depends on its seats:

* **two players** (Garner): each pair of levels A, B is one run ``[A, B]`` with
  ``rotate_seats=True``, so every deal is played with A first and with B first — both ordered
  pairings, both seat orders, on the same deal (pairing ``"A v B"``, ``matchup="pair"``).
  Playing ``[B, A]`` as well would repeat the very same games, so it is not played; the matrix
  reads B's row from the same games.  "A beats B": A's share of the points (a win 1, a draw ½)
  has an interval above ½.
* **three to five players** (Gargon): each *ordered* pair A ≠ B is one run with A on one seat
  and B on the other n − 1, ``rotate_seats=True`` (A sits once in every seat of every deal;
  pairing ``"A v B"``, ``matchup="one_v_rest"``); the mirror run ``"B v A"`` is a separate run.
  "A beats B": A's win share (a win shared by k counts 1/k) against n − 1 copies of B has an
  interval above the fair share 1/n.  The two directions are different questions (a strong
  player alone among weak ones; a weak one alone among strong ones), so the matrix is not
  antisymmetric there.
* **solitaire** (Deck the Yard): no pairings; each level plays the same shuffles (one run per
  level, ``matchup="solo"``); :func:`solitaire_table` gives win and blackout rates per level
  and each level's paired gain over the level before it.

With ``self_play=True`` (the default, multi-player games) every level also plays a table of
copies of itself (``matchup="mirror"``, pairing ``"A v A"``; seats are all alike, so one
arrangement a deal): the first player's edge at that level (:func:`first_player`).

The result is one tidy table: the rows of every run (as ``simulate`` makes them) with
``matchup``, ``pairing``, ``level_a`` and ``level_b`` (empty for solitaire) after ``seed``;
``table.attrs["provenance"]`` holds every run's provenance (as :func:`gamelib.sim.combine`
keeps it, so a stored ladder is re-simulated run by run like any stored study) and a ``ladder``
entry: the levels in order, the design, and which levels cheat (players with
``observes = "state"`` see the whole state; every summary marks them).

A played ladder's questions are decided on its own games (:func:`verdicts`, with the units and
the sequential procedure of :func:`gamelib.verdict.verdict`) and said in words
(:func:`skill_text`, :func:`solitaire_text`).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from gamelib.core import ConfigError, GamelibWarning, Player, ResultsError, check_seed
from gamelib.sim import combine, default_workers, game_of, n_seats, player_name, simulate
from gamelib.sim.checks import Names
from gamelib.sim.executors import local_pool
from gamelib.stats import clustered_rate, direction, interval_text, paired_difference, wilson

__all__ = [
    "LadderRun",
    "first_player",
    "format_matrix",
    "ladder_plan",
    "matchups",
    "matrix",
    "ratings",
    "skill_text",
    "solitaire_table",
    "solitaire_text",
    "verdicts",
]

#: the columns matchups() adds to the simulate rows, right after the provenance columns
LADDER_COLUMNS = ["matchup", "pairing", "level_a", "level_b"]


class LadderRun:
    """One run of a ladder: the line-up by seat, whether seats rotate, and its labels."""

    def __init__(
        self, matchup: str, level_a: str, level_b: str | None, seats: list[Any], rotate: bool
    ) -> None:
        self.matchup = matchup
        self.level_a = level_a
        self.level_b = level_b
        self.seats = seats
        self.rotate = rotate

    @property
    def pairing(self) -> str:
        """``"A v B"`` (A holds one seat in a one-v-rest run), or the level alone (solitaire)."""
        return self.level_a if self.level_b is None else f"{self.level_a} v {self.level_b}"

    def __repr__(self) -> str:
        return f"LadderRun({self.matchup!r}, {self.pairing!r}, rotate={self.rotate})"


def ladder_plan(
    config: Any, players: Sequence[str | Player], self_play: bool = True
) -> list[LadderRun]:
    """The runs a ladder of ``players`` plays for this config, in the order they are played
    (checked: known, distinct players; at least two levels for a multi-player game)."""
    game = game_of(config)
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise ConfigError(f"players must be a list of player specs (the levels), got {players!r}")
    if not isinstance(self_play, bool):
        raise ConfigError(f"self_play must be True or False, got {self_play!r}")
    for p in players:
        if not isinstance(p, str) and not callable(p):
            raise ConfigError(f"a player is a name or a callable, got {p!r}")
        game.player(p)  # an unknown name is refused here, before any game
    names = [player_name(p) for p in players]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ConfigError(f"each level appears once in a ladder; repeated: {', '.join(repeated)}")
    seats = n_seats(config)
    if seats == 1:
        if not players:
            raise ConfigError(f"a {game.name} ladder needs at least one player")
        return [LadderRun("solo", n, None, [p], False) for n, p in zip(names, players, strict=True)]
    if len(players) < 2:
        raise ConfigError(
            f"a {game.name} ladder needs at least two levels to pair, got {len(players)}: {names}"
        )
    runs: list[LadderRun] = []
    if self_play:
        runs += [
            LadderRun("mirror", n, n, [p] * seats, False)
            for n, p in zip(names, players, strict=True)
        ]
    levels = list(zip(names, players, strict=True))
    if seats == 2:
        for (na, pa), (nb, pb) in itertools.combinations(levels, 2):
            runs.append(LadderRun("pair", na, nb, [pa, pb], True))
    else:
        for (na, pa), (nb, pb) in itertools.permutations(levels, 2):
            runs.append(LadderRun("one_v_rest", na, nb, [pa] + [pb] * (seats - 1), True))
    return runs


def matchups(
    config: Any,
    players: Sequence[str | Player],
    n_games: int,
    seed: int,
    *,
    workers: int | None = None,
    executor: Any = None,
    progress: bool = True,
    resume: str | os.PathLike[str] | None = None,
    self_play: bool = True,
    chunk_size: int | None = None,
    cache: bool | str | os.PathLike[str] = False,
    keep_resume: bool = False,
    columns: Sequence[str] | None = None,
    _names: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    """Play every pairing of the levels ``players`` on ``n_games`` common deals into one table.

    The design per number of seats is in this module's docstring.  ``workers``, ``executor``,
    ``progress``, ``chunk_size``, ``cache`` and ``columns`` (the outcome columns kept) go to
    every :func:`gamelib.sim.simulate` run
    (local workers are started once for the whole ladder); ``resume``: a folder whose
    ``run-<i>`` subfolders keep each run's finished chunks, so the same call resumes an
    interrupted ladder.  The table is the same on any number of workers.  Everything is checked
    before the first game.
    """
    name = Names(_names)
    if not isinstance(n_games, int) or isinstance(n_games, bool) or n_games < 1:
        raise ConfigError(f"{name('n_games')} must be a whole number ≥ 1, got {n_games!r}")
    check_seed(seed, name("seed"))
    if workers is not None and (
        not isinstance(workers, int) or isinstance(workers, bool) or workers < 1
    ):
        raise ConfigError(f"{name('workers')} must be a positive whole number, got {workers!r}")
    plan = ladder_plan(config, players, self_play)
    game = game_of(config)
    cheating = sorted(_cheaters(game, players))
    levels = [player_name(p) for p in players]

    pool = None
    run_workers = workers
    if executor is None and workers != 1:
        cores = default_workers()
        run_workers = min(workers or cores, cores)
        if workers is not None and workers > cores:
            warnings.warn(
                f"{name('workers')} {workers}: using {cores} (this machine has {cores} cores)",
                GamelibWarning,
                stacklevel=2,
            )
        if run_workers > 1:
            # one pool for the whole ladder: starting workers once, not once per pairing
            pool = local_pool(run_workers)
            executor = pool
    tables = []
    try:
        for i, run in enumerate(plan):
            folder = None if resume is None else Path(resume) / f"run-{i}"
            t = simulate(
                config,
                run.seats,
                n_games,
                seed,
                workers=run_workers,
                executor=executor,
                rotate_seats=run.rotate,
                progress=progress,
                chunk_size=chunk_size,
                resume=folder,
                cache=cache,
                keep_resume=keep_resume,
                columns=columns,
                _names=_names,
            )
            at = list(t.columns).index("seed") + 1  # before the seats' players
            t.insert(at, "level_b", run.level_b)
            t.insert(at, "level_a", run.level_a)
            t.insert(at, "pairing", run.pairing)
            t.insert(at, "matchup", run.matchup)
            tables.append(t)
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
    if resume is not None and not keep_resume:
        with contextlib.suppress(OSError):
            Path(resume).rmdir()  # every run's chunks were cleared: drop the empty folder
    table = combine(tables)
    for col, cats in (
        ("matchup", ["solo", "mirror", "pair", "one_v_rest"]),
        ("pairing", list(dict.fromkeys(r.pairing for r in plan))),
        ("level_a", levels),
        ("level_b", levels),
    ):
        table[col] = pd.Categorical(table[col].astype("object"), categories=cats)
    design = {1: "solo", 2: "pair"}.get(n_seats(config), "one_v_rest")
    table.attrs["provenance"]["ladder"] = {
        "levels": levels,
        "design": design,
        "self_play": bool(self_play) and design != "solo",
        "n_games": n_games,
        "seed": seed,
        "seats": n_seats(config),
        "cheating": cheating,
    }
    return table


def _cheats(player: Any) -> bool:
    return getattr(player, "observes", None) == "state"


def _cheaters(game: Any, players: Sequence[str | Player]) -> set[str]:
    return {player_name(p) for p in players if _cheats(game.player(p))}


# --- reading a ladder table ----------------------------------------------------------------


def _info(table: pd.DataFrame) -> dict[str, Any]:
    """The ladder entry of a table's provenance (what matchups() stored)."""
    missing = [c for c in LADDER_COLUMNS if c not in table]
    info = table.attrs.get("provenance", {}).get("ladder")
    if missing or not isinstance(info, dict):
        raise ResultsError(
            "not a ladder table (no "
            + (", ".join(missing) if missing else "ladder provenance")
            + "): make it with gamelib.ladder.matchups() or load one saved with gamelib.sim.save"
        )
    return info


def _seats_of(table: pd.DataFrame) -> list[int]:
    return sorted(int(c.split("_")[1]) for c in table.columns if c.startswith("player_"))


def _credit(table: pd.DataFrame, level: str) -> pd.Series:
    """Each game's points for ``level``: its seats' win shares (a win shared by k: 1/k); in a
    game nobody won (a draw) every seat gets 1/n, so a 2-player draw counts half."""
    seats = _seats_of(table)
    n = len(seats)
    credit = pd.Series(0.0, index=table.index)
    nobody = table["n_winners"] == 0
    for s in seats:
        held = table[f"player_{s}"].astype(str) == level
        share = table[f"win_{s}"].astype(float).where(~nobody, 1.0 / n)
        credit += share.where(held, 0.0)
    return credit


def _levels(table: pd.DataFrame, info: Mapping[str, Any]) -> list[str]:
    return [str(x) for x in info.get("levels", [])]


def _solo_check(info: Mapping[str, Any], what: str) -> None:
    if info.get("design") == "solo":
        raise ConfigError(
            f"{what} compares seats or opponents; a solitaire ladder has neither: "
            "use gamelib.ladder.solitaire_table(table)"
        )


def matrix(table: pd.DataFrame, level: float = 0.95) -> pd.DataFrame:
    """The matchup matrix: how often level A beats level B, one row per ordered pair (long).

    ``rate`` is A's share of the points in the games of A v B (a win 1, a draw ½, a win shared
    by k: 1/k); in a 3–5-player ladder the games with A on one seat against n − 1 copies of B.
    ``fair`` is what A would get if the levels played alike (½, or 1/n).  The interval is
    Wilson's at the effective number of games, clustered by deal (the games of one deal share
    its cards): :func:`gamelib.stats.clustered_rate`.  ``beats``: the interval lies above
    ``fair``; ``draw_rate``: games without a sole winner.  In a 2-player ladder the rows A v B
    and B v A come from the same games, so their rates add up to 1.
    """
    info = _info(table)
    _solo_check(info, "matrix()")
    levels = _levels(table, info)
    seats = int(info.get("seats", len(_seats_of(table))))
    cheating = set(info.get("cheating", []))
    rows = []
    games = table[table["matchup"].astype(str).isin(["pair", "one_v_rest"])]
    for a, b in itertools.permutations(levels, 2):
        if seats == 2:
            pa, pb = f"{a} v {b}", f"{b} v {a}"
            g = games[games["pairing"].astype(str).isin([pa, pb])]
        else:
            g = games[games["pairing"].astype(str) == f"{a} v {b}"]
        if g.empty:
            continue
        r = clustered_rate(g, _credit(g, a), cluster="deal", level=level).iloc[0]
        fair = 1.0 / seats
        rows.append(
            {
                "level_a": a,
                "level_b": b,
                "games": int(r["games"]),
                "deals": int(r["clusters"]),
                "rate": float(r["rate"]),
                "lo": float(r["lo"]),
                "hi": float(r["hi"]),
                "fair": fair,
                "beats": bool(r["lo"] > fair),
                "draw_rate": float((g["n_winners"] != 1).mean()),
                "cheating_a": a in cheating,
                "cheating_b": b in cheating,
            }
        )
    if not rows:
        raise ResultsError("the table holds no pairing of two different levels")
    out = pd.DataFrame(rows)
    for col in ("level_a", "level_b"):
        out[col] = pd.Categorical(out[col], categories=levels)
    out.attrs["fair"] = 1.0 / seats
    return out


def first_player(table: pd.DataFrame, level: float = 0.95) -> pd.DataFrame:
    """Seat 0's share of the points per level (from its mirror games, every seat that level)
    and per pairing (both levels rotated through every seat), with intervals clustered by deal.

    ``fair`` is 1/n; ``rate`` counts a win 1, a shared win 1/k, a draw 1/n (a 2-player draw
    ½).  A fair game has seat 0 near ``fair`` at every level.  Columns: ``matchup``
    (``mirror`` or the pairing kind), ``pairing``, ``level`` (the mirror's level, else empty),
    ``games``, ``deals``, ``rate``, ``lo``, ``hi``, ``fair``, ``draw_rate``.
    """
    info = _info(table)
    _solo_check(info, "first_player()")
    seats = _seats_of(table)
    n = len(seats)
    rows = []
    for pairing, g in table.groupby("pairing", observed=True, sort=True):
        kind = str(g["matchup"].iloc[0])
        nobody = g["n_winners"] == 0
        seat0 = g["win_0"].astype(float).where(~nobody, 1.0 / n)
        r = clustered_rate(g, seat0, cluster="deal", level=level).iloc[0]
        rows.append(
            {
                "matchup": kind,
                "pairing": str(pairing),
                "level": str(g["level_a"].iloc[0]) if kind == "mirror" else "",
                "games": int(r["games"]),
                "deals": int(r["clusters"]),
                "rate": float(r["rate"]),
                "lo": float(r["lo"]),
                "hi": float(r["hi"]),
                "fair": 1.0 / n,
                "draw_rate": float((g["n_winners"] != 1).mean()),
            }
        )
    out = pd.DataFrame(rows)
    order = (out["matchup"] != "mirror").astype(int)  # the levels' own rates first
    return out.iloc[np.argsort(order.to_numpy(), kind="stable")].reset_index(drop=True)


def ratings(
    table: pd.DataFrame,
    *,
    mu: float = 25.0,
    sigma: float = 25.0 / 3.0,
    tau: float = 0.0,
) -> pd.DataFrame:
    """Ratings with uncertainty from openskill's Plackett–Luce model (Weng and Lin's Bayesian
    approximation), one row per level: ``mu``, ``sigma`` and the ``ordinal`` mu − 3·sigma
    (a conservative skill estimate), best first.

    Each game is one ranking of its seats by outcome — winners first (tied), every other seat
    after them (tied); a game nobody won ranks all seats equal — and the players are the level
    names.  Games are rated in table order (pairings in the ladder's order, then game order),
    so the same table always gives the same ratings.  A level holding several seats of a game
    (a one-v-rest Gargon table) gets the sum of its seats' updates: the model's likelihood is a
    product over seats, so its gradient is the sum over them.  Mirror games carry no
    information on the difference between levels and are skipped.  ``tau`` (openskill's
    additive dynamics, default 0: a player's skill does not drift between games) and the prior
    ``mu``/``sigma`` are openskill's parameters.
    """
    from openskill.models import PlackettLuce

    info = _info(table)
    _solo_check(info, "ratings()")
    levels = _levels(table, info)
    cheating = set(info.get("cheating", []))
    model = PlackettLuce(mu=mu, sigma=sigma, tau=tau)
    current = {lv: (float(mu), float(sigma)) for lv in levels}
    played = dict.fromkeys(levels, 0)
    seats = _seats_of(table)
    games = table[table["matchup"].astype(str) != "mirror"]
    seat_names = np.column_stack([games[f"player_{s}"].astype(str).to_numpy() for s in seats])
    wins = np.column_stack([games[f"win_{s}"].astype(float).to_numpy() for s in seats])
    for names, won in zip(seat_names, wins, strict=True):
        if len(set(names)) < 2:
            continue
        ranks = [1.0 if w > 0 else 2.0 for w in won] if won.any() else [1.0] * len(names)
        teams = [[model.rating(mu=current[n][0], sigma=current[n][1])] for n in names]
        new = model.rate(teams, ranks=ranks)
        for lv in set(names):
            m0, s0 = current[lv]
            idx = [i for i, n in enumerate(names) if n == lv]
            d_mu = sum(new[i][0].mu - m0 for i in idx)
            shrink = sum(1.0 - (new[i][0].sigma / s0) ** 2 for i in idx)
            current[lv] = (m0 + d_mu, s0 * max(1.0 - shrink, model.kappa) ** 0.5)
            played[lv] += 1
    rows = [
        {
            "level": lv,
            "mu": current[lv][0],
            "sigma": current[lv][1],
            "ordinal": current[lv][0] - 3 * current[lv][1],
            "games": played[lv],
            "cheating": lv in cheating,
        }
        for lv in levels
    ]
    out = pd.DataFrame(rows).sort_values("ordinal", ascending=False, kind="stable")
    out.insert(0, "rank", range(1, len(out) + 1))
    return out.reset_index(drop=True)


def solitaire_table(table: pd.DataFrame, level: float = 0.95) -> pd.DataFrame:
    """Deck the Yard's ladder: per level, the win rate and the blackout rate (games with at
    least one blackout), each with its Wilson interval, the mean number of blackouts, and
    ``gain``: the win rate minus the level before it in the ladder, paired shuffle by shuffle
    (every level played the same shuffles), with its t interval (``gain_lo``, ``gain_hi``).
    One game per shuffle and level, so the games of a level are independent."""
    info = _info(table)
    if info.get("design") != "solo":
        raise ConfigError(
            "solitaire_table() reads a solitaire ladder; for a game with opponents use "
            "matrix(), first_player() and ratings()"
        )
    if "blackouts" not in table:
        raise ResultsError("the table has no 'blackouts' column: not a Deck the Yard ladder")
    levels = _levels(table, info)
    cheating = set(info.get("cheating", []))
    rows = []
    previous: pd.DataFrame | None = None
    for lv in levels:
        g = table[table["level_a"].astype(str) == lv]
        if g.empty:
            continue
        n = len(g)
        won = int((g["win_0"] > 0).sum())
        out = int((g["blackouts"] > 0).sum())
        wlo, whi = wilson(won, n, level)
        blo, bhi = wilson(out, n, level)
        row: dict[str, Any] = {
            "level": lv,
            "games": n,
            "win_rate": won / n,
            "lo": wlo,
            "hi": whi,
            "blackout_rate": out / n,
            "blackout_lo": blo,
            "blackout_hi": bhi,
            "mean_blackouts": float(g["blackouts"].mean()),
            "gain": float("nan"),
            "gain_lo": float("nan"),
            "gain_hi": float("nan"),
            "cheating": lv in cheating,
        }
        if previous is not None:
            d = paired_difference(g, previous, lambda t: (t["win_0"] > 0).astype(float), level)
            row.update(gain=d["diff"], gain_lo=d["lo"], gain_hi=d["hi"])
        rows.append(row)
        previous = g
    return pd.DataFrame(rows)


def format_matrix(m: pd.DataFrame, digits: int = 2) -> str:
    """The matrix as text: row A, column B, each cell ``rate [lo, hi]`` (what the CLI prints);
    a level that cheats is marked ``*``."""
    levels = [str(x) for x in m["level_a"].cat.categories]
    cheats = set(m.loc[m["cheating_a"], "level_a"].astype(str))
    label = {lv: lv + (" *" if lv in cheats else "") for lv in levels}
    cell = {
        (str(r["level_a"]), str(r["level_b"])): (
            f"{r['rate']:.{digits}f} [{r['lo']:.{digits}f}, {r['hi']:.{digits}f}]"
        )
        for r in m.to_dict("records")
    }
    width = max(len(c) for c in cell.values())
    head = max(len(s) for s in label.values())
    cols = [lv for lv in levels if any(k[1] == lv for k in cell)]
    lines = [" " * head + "  " + "  ".join(f"{label[c]:>{width}}" for c in cols)]
    for a in levels:
        if not any(k[0] == a for k in cell):
            continue
        cells = [cell.get((a, b), "—" if a == b else "") for b in cols]
        lines.append(f"{label[a]:<{head}}  " + "  ".join(f"{c:>{width}}" for c in cells))
    return "\n".join(lines)


# --- a ladder's decisions and its findings in words ------------------------------------------


def verdicts(
    table: pd.DataFrame,
    questions: Sequence[Any],
    levels: Sequence[str] | None = None,
    *,
    alpha: float = 0.05,
    beta: float = 0.05,
) -> pd.DataFrame:
    """Decide ``questions`` on a played ladder's own games, with the units of
    :func:`gamelib.verdict.verdict` and its sequential procedure (:func:`gamelib.verdict.decide`,
    its looks up to the deals the ladder holds): a mirror question (fair, stalls, length) on
    each level's mirror games, ``skill`` on the games of each level against the one below it
    among ``levels`` (default: the ladder's; give a sub-list, weakest first, to step between
    some of them).  Returns a verdict table (one row per level, or ``"B v A"`` pair, and
    question), as ``verdict`` does."""
    from gamelib.verdict import COLUMNS, decide

    info = _info(table)
    names = list(levels) if levels is not None else _levels(table, info)
    unknown = [lv for lv in names if lv not in _levels(table, info)]
    if unknown:
        raise ConfigError(f"not a level of this ladder: {', '.join(unknown)}")
    design = info.get("design")

    def games(kind: str, a: str, b: str | None) -> pd.DataFrame:
        kinds, la, lb = table["matchup"].astype(str), table["level_a"], table["level_b"]
        if kind == "pair":  # one run holds both seat orders of a 2-player pairing
            g = table[(kinds == "pair") & la.isin([a, b]) & lb.isin([a, b])]
        else:
            g = table[(kinds == kind) & (la == a) & (lb == b if b is not None else True)]
        if g.empty:
            raise ResultsError(
                f"the ladder table holds no {kind} games of {a}" + f" v {b}" * bool(b)
            )
        return g.reset_index(drop=True)

    rows = []
    for q in questions:
        if q.unit == "mirror":
            if design == "solo":
                rows += [decide([games("solo", lv, None)], q, alpha=alpha, beta=beta, level=lv)
                         for lv in names]  # fmt: skip
            else:
                rows += [decide([games("mirror", lv, lv)], q, alpha=alpha, beta=beta, level=lv)
                         for lv in names]  # fmt: skip
            continue
        for weak, strong in itertools.pairwise(names):
            if design == "solo":  # both levels on the same shuffles
                units = [games("solo", strong, None), games("solo", weak, None)]
            elif design == "pair":
                units = [games("pair", weak, strong)]
            else:  # the stronger on one seat, the weaker on the others
                units = [games("one_v_rest", strong, weak)]
            rows.append(decide(units, q, alpha=alpha, beta=beta, level=f"{strong} v {weak}",
                               stronger=strong, weaker=weak))  # fmt: skip
    return pd.DataFrame(rows, columns=COLUMNS)


def _cell(m: pd.DataFrame, a: str, b: str) -> Any:
    return m[(m["level_a"] == a) & (m["level_b"] == b)].iloc[0]


def _cell_text(m: pd.DataFrame, a: str, b: str, digits: int) -> str:
    r = _cell(m, a, b)
    return f"`{a}` {interval_text(r['rate'], r['lo'], r['hi'], digits)}"


def skill_text(
    m: pd.DataFrame,
    rated: pd.DataFrame | None = None,
    against: Mapping[str, Sequence[str]] | None = None,
    digits: int = 3,
) -> str:
    """A ladder's matrix (:func:`matrix`) in words: each level against the one below it
    ("beats", "loses to" or "is not distinguishable from", as its interval lies above, below or
    around the fair share), how many of the others the top level beats, ``against`` (an
    opponent: the levels whose share against it to give) and, with ``rated``
    (:func:`ratings`), the ratings' order and whether it is the ladder's."""
    levels = [str(x) for x in m["level_a"].cat.categories]
    steps = []
    for weak, strong in itertools.pairwise(levels):
        r = _cell(m, strong, weak)
        word = direction(r["lo"], r["hi"], "beats", "loses to", "is not distinguishable from",
                         at=r["fair"])  # fmt: skip
        steps.append(
            f"`{strong}` {word} `{weak}` ({interval_text(r['rate'], r['lo'], r['hi'], digits)})"
        )
    top = levels[-1]
    beaten = [str(b) for b in m[(m["level_a"] == top) & m["beats"]]["level_b"]]
    text = "; ".join(steps) + f". `{top}` beats {len(beaten)} of the {len(levels) - 1} other levels"
    text += f" ({', '.join(f'`{b}`' for b in beaten)})" if beaten else ""
    if against:
        text += ". Against the same opponents: " + "; ".join(
            f"`{b}`: " + ", ".join(_cell_text(m, a, b, digits) for a in rows)
            for b, rows in against.items()
        )
    if rated is not None:
        order = [str(x) for x in rated["level"]]
        text += ". Ratings (openskill, best first): " + " > ".join(f"`{lv}`" for lv in order)
        text += " — the ladder's order" if order == levels[::-1] else " — not the ladder's order"
    return text + "."


def solitaire_text(solo: pd.DataFrame, digits: int = 3) -> str:
    """A solitaire ladder (:func:`solitaire_table`) in words: each level's win rate, and its
    gain over the level before it (paired on the same shuffles); a level that sees the draw
    order is marked "(cheats)"."""
    return "; ".join(
        f"`{r['level']}`{' (cheats)' if r['cheating'] else ''} wins "
        + interval_text(r["win_rate"], r["lo"], r["hi"], digits)
        + (
            ""
            if r["gain"] != r["gain"]
            else f", gain {interval_text(r['gain'], r['gain_lo'], r['gain_hi'], digits)}"
        )
        for r in solo.to_dict("records")
    )
