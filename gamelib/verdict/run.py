"""verdict(): play deals in batches until every question is decided (holds / fails) or the
game budget runs out (undecided), at each level of a ladder.

Units of play.  Each level's mirror games (that level in every seat; one game a deal, since the
seats are alike) decide ``fair``, ``stalls``, ``length`` and ``target`` at that level.  Each
pair of neighbouring levels (weakest first, as a ladder) decides ``skill``: the stronger level
on one seat and the weaker on the others, every deal played once per seat arrangement (a deal
from every seat), or, in a solitaire, both levels on the same shuffles.  Every run uses the same
``seed``, so deal *i* is the same shuffle everywhere (common random numbers), and deal *i* of a
run is the same game however many deals are played (see :mod:`gamelib.sim`): a verdict is the
same on any number of workers or executor, and a rerun with a ``resume`` folder replays its
stored deals and reaches the same decision after the same deals.

*Why one file (about 820 lines):* the one sequential driver (:func:`play_units`, which
:func:`verdict` and :func:`~gamelib.verdict.compare.compare` share), the decision it takes at
each look and the store that :func:`redecide` replays share one bookkeeping of units, looks
and rows; when they play and look under a design lives in :mod:`gamelib.verdict.schedule`.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import time
import warnings
from collections.abc import Mapping, Sequence
from concurrent.futures import BrokenExecutor
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from gamelib.core import (
    ConfigError,
    GamelibWarning,
    Player,
    ResultsError,
    check_seed,
    config_to_json,
)
from gamelib.sim import (
    SimulationInterrupted,
    check_output_path,
    default_workers,
    game_of,
    games_per_deal,
    n_seats,
    player_name,
    run_spec,
)
from gamelib.sim.checks import Names, check_rotate_deals
from gamelib.sim.chunks import ChunkJob
from gamelib.sim.deals import RunCache, cache_root
from gamelib.sim.executors import LazyPool, Timing, run_chunks, worth_workers
from gamelib.sim.results import tidy
from gamelib.sim.store import DealRanges, PartStore
from gamelib.verdict.budget import Clock, check_minutes, need_columns, read_manifest, stopped
from gamelib.verdict.designs import check_design, decide_streams_with, two_sided
from gamelib.verdict.questions import Fair, Question, Skill, Stalls, Target
from gamelib.verdict.schedule import Schedule, question_context, question_looks, refuse_budget
from gamelib.verdict.sequential import FAILS, HOLDS, UNDECIDED, look_schedule

__all__ = [
    "NeedsPlay",
    "Run",
    "Sequential",
    "Unit",
    "attach_runs",
    "decide",
    "default_questions",
    "format_verdicts",
    "play_units",
    "redecide",
    "verdict",
]

#: the columns of a verdict table, in order
COLUMNS = [
    "level",
    "question",
    "decision",
    "estimate",
    "lo",
    "hi",
    "measure",
    "claim",
    "band_lo",
    "band_hi",
    "deals",
    "games",
    "margin",
    "alpha",
    "beta",
    "more_deals",
    "design",
]


def default_questions(config: Any, levels: Sequence[Any]) -> list[Question]:
    """What a verdict asks when not told: fairness and stalls (a game with opponents), skill
    when there are two levels or more."""
    qs: list[Question] = [Fair(), Stalls()] if n_seats(config) > 1 else [Stalls()]
    if len(levels) > 1:
        qs.append(Skill())
    return qs


def decide(
    tables: Sequence[pd.DataFrame],
    question: Question,
    *,
    alpha: float = 0.05,
    beta: float = 0.05,
    looks: Sequence[int] | None = None,
    first_batch: int = 50,
    level: str = "",
    stronger: str | None = None,
    weaker: str | None = None,
    design: str = "cs",
) -> dict[str, Any]:
    """Decide one question on stored run tables (a simulate table, or a ladder's runs): the
    same sequential procedure a verdict runs, its looks at ``looks`` (default: the batch
    schedule up to the deals the tables hold).  Returns one verdict row (a dict).

    ``design`` (:data:`gamelib.verdict.designs.DESIGNS`): ``"cs"``, the confidence sequences,
    or a design of :mod:`gamelib.verdict.designs` — then ``looks`` are the looks a run may take,
    ending at its budget, and the design takes its own among the deals the tables hold.  A
    question with a one-sided claim (stalls, skill, length, changes) is decided by ``"cs"``
    whatever the design; the row's ``design`` says which decided it."""
    n = len(tables[0]["deal"].unique())
    if any(len(t["deal"].unique()) != n for t in tables):
        raise ValueError("the run tables of one decision must hold the same deals")
    design = check_design(design)
    looks = list(looks) if looks is not None else look_schedule(n, first_batch)
    ctx = question_context(tables, stronger, weaker)
    streams, bands = question.streams(list(tables), **ctx)
    used = design if two_sided(bands) else "cs"
    if used == "cs" and design != "cs":  # a one-sided claim: the confidence sequences, so far
        looks = [k for k in looks if k <= n] or looks
    d = decide_streams_with(used, streams, bands, alpha, beta, looks)
    if d.decision == FAILS:
        est, lo, hi, measure = question.describe(d.mean, d.lo_fail, d.hi_fail, **ctx)
    else:
        est, lo, hi, measure = question.describe(d.mean, d.lo, d.hi, **ctx)
    games = sum(int((t["deal"] < d.deals).sum()) for t in tables)
    # the running intersection of a confidence sequence can cross (an empty set) when a stream
    # sits far outside the band: show an interval around the estimate, never lo above hi
    lo, hi = min(lo, hi, est), max(lo, hi, est)
    more = d.more_deals()
    band_lo, band_hi = question.band(**ctx)
    return {
        "level": level,
        "question": question.name,
        "decision": d.decision,
        "estimate": est,
        "lo": lo,
        "hi": hi,
        "measure": measure,
        "claim": question.claim(**ctx),
        "band_lo": band_lo,
        "band_hi": band_hi,
        "deals": d.deals,
        "games": games,
        "margin": question.margin_value(),
        "alpha": alpha,
        "beta": beta,
        "more_deals": None if more is None else (0 if d.decision != UNDECIDED else math.ceil(more)),
        "design": used,
    }


class NeedsPlay(Exception):
    """A verdict asked to decide on held deals alone (``held_only=True``) reached a look whose
    deals the cache does not hold: only playing can decide it."""


class Run:
    """One line-up on the verdict's seed: its finished deals, kept (and stored) as they come."""

    def __init__(self, config: Any, seats: list[Any], rotate: bool, seed: int, cap: int) -> None:
        self.config, self.seats, self.rotate, self.seed = config, seats, rotate, seed
        self.hands = False  # every rotation of a deal's hands: verdict(rotate_deals=True)
        self.edit: Any = None  # a deal edit (simulate's edit): the arms of card worth
        self.engine = "auto"  # "python": the reference engine even for compiled players
        self.cap = cap
        self.parts: dict[int, tuple[int, pd.DataFrame]] = {}
        self.store: PartStore | None = None
        self.timing = Timing()  # the seconds a deal took in this process

    @property
    def per_deal(self) -> int:
        return games_per_deal(self.spec(self.cap))

    def spec(self, n: int) -> dict[str, Any]:
        """The run's provenance for its first ``n`` deals."""
        return run_spec(
            self.config, self.seats, n, self.seed, self.rotate,
            "python" if self.engine == "python" else "compiled", self.hands, self.edit,
        )  # fmt: skip

    def attach(self, folder: Path, what: str) -> None:
        spec = self.spec(self.cap)
        self.store = PartStore(folder, spec, what)
        for a, (b, df, _) in self.store.load(self.cap, self.per_deal, self.seed, False).items():
            self.parts[a] = (b, df)

    def attach_cache(self, cache: bool | str | os.PathLike[str], need: Sequence[str]) -> None:
        """Keep this run's deals in the study cache (:mod:`gamelib.sim.deals`): what it or a
        stored study already holds is read, what is played is kept there."""
        spec = self.spec(self.cap)
        root, what = cache_root(cache)
        entry = RunCache(spec, root, self.per_deal, what, need=need)
        self.store = entry.store
        self.parts.update(entry.parts(self.cap, self.seed))

    def covered(self) -> int:
        """The deals 0 … k−1 this run holds without a gap: k."""
        return DealRanges.of(self.parts).prefix()

    def missing(self, upto: int) -> list[tuple[int, int]]:
        return DealRanges.of(self.parts).missing(upto)

    def done(self) -> int:
        return sum(b - a for a, (b, _) in self.parts.items())

    def table(self, upto: int) -> pd.DataFrame:
        frames = [df for a, (b, df) in sorted(self.parts.items()) if a < upto]
        t = pd.concat(frames, ignore_index=True)
        return t[t["deal"] < upto].reset_index(drop=True)


@dataclasses.dataclass
class Unit:
    """One unit of a sequential decision: the runs it reads, its questions (``ctx``: the
    keyword arguments :func:`decide` takes for them, a skill unit's ``stronger`` and
    ``weaker``), its row label and the games a deal of it counts toward ``max_games``."""

    label: str
    runs: list[Run]
    questions: list[Question]
    ctx: dict[str, Any]
    per_deal: int


@dataclasses.dataclass(frozen=True)
class Sequential:
    """How a sequential decision (:func:`verdict`,
    :func:`~gamelib.verdict.compare.compare`) plays and decides: the arguments both take,
    checked before any game (a bad one is a one-line :class:`~gamelib.core.ConfigError` naming
    it as ``name`` says: ``seed`` for Python callers, ``--seed`` on the command line)."""

    name: Names
    seed: int
    alpha: float = 0.05
    beta: float = 0.05
    max_games: int = 20_000
    first_batch: int = 50
    design: str = "cs"
    max_minutes: float | None = None
    workers: int | None = None
    executor: Any = None
    progress: bool = True
    resume: str | os.PathLike[str] | None = None
    cache: bool | str | os.PathLike[str] = False
    held_only: bool = False

    def __post_init__(self) -> None:
        name = self.name
        check_seed(self.seed, name("seed"))
        for what, v in (("alpha", self.alpha), ("beta", self.beta)):
            if not isinstance(v, int | float) or isinstance(v, bool) or not 0 < v < 0.5:
                raise ConfigError(f"{name(what)} must lie between 0 and 0.5, got {v!r}")
        n = self.max_games
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ConfigError(f"{name('max_games')} must be a whole number ≥ 1, got {n!r}")
        check_minutes(self.max_minutes, name("max_minutes"))
        try:
            design = check_design(self.design)
        except ValueError as exc:
            raise ConfigError(f"{name('design')}: {exc}") from None
        refuse_budget(design, self.max_minutes, name("design"), name("max_minutes"))
        if self.resume is not None and self.cache is not False:
            raise ConfigError(
                f"{name('resume')} and {name('cache')}: give one (the cache keeps finished "
                "deals too)"
            )
        object.__setattr__(self, "design", design)


def attach_runs(
    runs: Sequence[Run],
    kind: str,
    call: dict[str, Any],
    how: Sequential,
    measured: Sequence[str] = (),
) -> None:
    """Where the runs keep their deals: a ``resume`` folder (its manifest ``<kind>.json`` holds
    ``call``; a folder of another call, or of a simulate run, is refused), else the study cache
    (each run needs its seats' wins and the ``measured`` columns), else memory only."""
    resume, cache, name = how.resume, how.cache, how.name
    if resume is not None:
        folder = Path(resume)
        folder.mkdir(parents=True, exist_ok=True)
        manifest = folder / f"{kind}.json"
        if (folder / "run.json").exists():
            raise ConfigError(
                f"resume {folder} holds the chunks of a simulate run, not a {kind}'s; use "
                "another folder"
            )
        if manifest.exists() and read_manifest(manifest, kind) != call:
            another = "comparison's" if kind == "compare" else f"{kind}'s"
            raise ConfigError(
                f"{name('resume')} {folder} holds another {another} deals; use another folder "
                "or delete it"
            )
        manifest.write_text(json.dumps(call, indent=1, sort_keys=True))
        for i, r in enumerate(runs):
            r.attach(folder / f"run-{i}", name("resume"))
    elif cache is not False:
        for r in runs:
            r.attach_cache(cache, need_columns(r.seats, measured))


def play_units(
    units: Sequence[Unit],
    runs: Sequence[Run],
    kind: str,
    game: str,
    how: Sequential,
    tables: dict[str, list[pd.DataFrame]] | None = None,
) -> tuple[list[dict[str, Any]], list[int], list[int]]:
    """The one sequential driver of :func:`verdict` and
    :func:`~gamelib.verdict.compare.compare`: unit by unit, play the runs' deals up to each
    look of the batch schedule (moved down to what fits the unit's share of ``max_minutes``,
    ``_fit_to_clock``), decide every question due at the look, and stop the unit once all are
    decided, at its last look or its deadline.  Ctrl-C or a worker that died ends with one
    line saying where the finished deals are.  Returns the rows (a unit's questions in order),
    each unit's last look and each unit's budget in deals."""
    alpha, beta, design, executor, name = how.alpha, how.beta, how.design, how.executor, how.name
    workers = how.workers
    clock = Clock(how.max_minutes)
    cores = min(workers or default_workers(), default_workers())
    pool = LazyPool(cores) if executor is None and cores > 1 else None
    where = Place(cores, executor, pool, name("executor"))
    bar = None
    if how.progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(units), unit="unit", desc=f"{game} {kind}")
    rows: list[dict[str, Any]] = []
    played: list[int] = []
    budgets: list[int] = []
    try:
        for u, unit in enumerate(units):
            looks = look_schedule(max(1, how.max_games // unit.per_deal), how.first_batch)
            schedule = Schedule(looks, design)
            decided: dict[int, dict[str, Any]] = {}
            deadline = clock.unit_deadline(len(units) - u)
            for i, _ in schedule.steps():
                upto = _fit_to_clock(unit.runs, schedule, i, deadline, where)
                if how.held_only and min(r.covered() for r in unit.runs) < upto:
                    raise NeedsPlay(f"{unit.label}: look {i + 1} needs deals not held")
                for r in unit.runs:
                    _play(r, upto, where)
                tabs = [tidy(r.table(upto)) for r in unit.runs]
                if not schedule.planned():
                    try:
                        plans = {
                            k: question_looks(tabs, q, design, alpha, beta, looks, **unit.ctx)
                            for k, q in enumerate(unit.questions)
                        }
                    except ValueError as exc:
                        raise ConfigError(f"at {unit.label}: {exc}") from None
                    schedule.plan(plans, upto)
                last = schedule.last(i) or clock.over(deadline)
                for k, q in enumerate(unit.questions):
                    if k in decided or not (last or schedule.due(k, i)):
                        continue
                    try:
                        row = decide(
                            tabs,
                            q,
                            alpha=alpha,
                            beta=beta,
                            looks=schedule.looks_at(i),
                            level=unit.label,
                            design=design,
                            **unit.ctx,
                        )
                    except ValueError as exc:
                        raise ConfigError(f"{q.name} at {unit.label}: {exc}") from None
                    if row["decision"] != UNDECIDED or last:
                        decided[k] = row
                if len(decided) == len(unit.questions) or last:
                    break
            rows += [decided[k] for k in range(len(unit.questions))]
            played.append(upto)
            budgets.append(looks[-1])
            if tables is not None:
                tables[unit.label] = tabs
            if bar is not None:
                bar.update(1)
    except (KeyboardInterrupt, BrokenExecutor) as exc:
        kept = sum(r.done() for r in runs)
        how_to_keep = name.give("resume", "FOLDER")
        message = stopped(kind, exc, kept, how.resume, how.cache, how_to_keep)
        raise SimulationInterrupted(message) from exc
    finally:
        if bar is not None:
            bar.close()
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
    return rows, played, budgets


def verdict(
    config: Any,
    levels: Sequence[str | Player],
    questions: Sequence[Question] | None = None,
    *,
    alpha: float = 0.05,
    beta: float = 0.05,
    max_games: int = 20_000,
    seed: int = 0,
    workers: int | None = None,
    executor: Any = None,
    resume: str | os.PathLike[str] | None = None,
    progress: bool = True,
    first_batch: int = 50,
    tables: dict[str, list[pd.DataFrame]] | None = None,
    out: str | os.PathLike[str] | None = None,
    command: str | None = None,
    cache: bool | str | os.PathLike[str] = False,
    max_minutes: float | None = None,
    design: str = "cs",
    rotate_deals: bool = False,
    held_only: bool = False,
    _names: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    """Decide ``questions`` (default: :func:`default_questions`) at every level of ``levels``
    (weakest first), playing deals in batches until each is decided or a unit's games reach
    ``max_games``.

    ``alpha``: the chance of a false "holds" (calling unfair rules fair); ``beta``: of a false
    "fails" (calling fair rules unfair); both hold whenever the run stops.  Returns one row per
    level (or pair of levels, for ``skill``) and question with the columns of :data:`COLUMNS`;
    ``table.attrs["verdict"]`` holds what was run.  ``workers``, ``executor`` (a Dask client or
    address) and ``resume`` (a folder that keeps every finished deal; the same call resumes
    there) work as in :func:`gamelib.sim.simulate`.  ``tables``, a dict, receives each unit's
    games up to its last look (key: the row's ``level``; a list of run tables) for charts.
    ``out`` (a ``.parquet`` path) stores every game the verdict played with its provenance, so
    :func:`redecide` gives the same table from the file alone and ``tests/test_results.py``
    can re-simulate its first games; ``command`` (the command line that made it) is kept with
    it.  ``cache``: ``True`` (or a folder) takes every deal the study cache or a stored study
    already holds instead of playing it, and keeps what is played there (see
    :func:`gamelib.sim.simulate`), so a rerun with another margin, α or budget plays only the
    deals it lacks.  ``max_minutes``: the time budget; each unit gets an equal share of what is
    left, a look that would overrun the share is moved down to the deals that fit, and a unit
    whose share runs out stops there and is reported as it stands —
    holds or fails if its bounds already decide, else undecided with the deals still needed.
    Stopping early is valid: the confidence sequences hold at any stopping time.
    ``design``: how each question is decided — ``"cs"`` (the default: the confidence sequences
    above) or a design of :mod:`gamelib.verdict.designs` (``"fixed"``, ``"sprt"``, ``"gst"``,
    ``"gst-pocock"``), cheaper where valid but planned in advance: they are refused with
    ``max_minutes``, and questions with a one-sided claim stay with ``"cs"`` (each row's
    ``design`` says which decided it; docs/guide/verdicts.md says what each costs).
    ``rotate_deals``: the mirror games play every rotation of each deal's hands (as
    :func:`~gamelib.sim.simulate`), the deal still the unit (its n games averaged); default off.
    ``held_only``: play nothing — decide on the deals ``cache`` holds, on the same schedule, and
    raise :class:`NeedsPlay` at the first look they do not cover (a study asks this first, so a
    verdict its held deals decide is answered the same on any machine, without a clock).
    """
    name = Names(_names)
    game = game_of(config)
    check_rotate_deals(game, rotate_deals, name("rotate_deals"))
    how = Sequential(
        name, seed, alpha, beta, max_games, first_batch, design, max_minutes, workers, executor,
        progress, resume, cache, held_only
    )  # fmt: skip
    design = how.design
    if workers is not None and (
        not isinstance(workers, int) or isinstance(workers, bool) or workers < 1
    ):
        raise ConfigError(f"{name('workers')} must be a positive whole number, got {workers!r}")
    if isinstance(levels, str) or not isinstance(levels, Sequence) or not levels:
        raise ConfigError(f"levels must be a non-empty list of player names, got {levels!r}")
    for p in levels:
        game.player(p)  # an unknown name is refused before any game
    names = [player_name(p) for p in levels]
    if len(set(names)) != len(names):
        raise ConfigError(f"each level appears once; got {names}")
    seats = n_seats(config)
    qs = list(questions) if questions is not None else default_questions(config, levels)
    if not qs:
        raise ConfigError("no question to decide")
    if out is not None:
        check_output_path(out, name("out"), ".parquet")
    for q in qs:
        if isinstance(q, Fair) and seats == 1:
            raise ConfigError(f"{game.name} is a solitaire: fair has no seats to compare")
        if isinstance(q, Target) and seats > 1:
            raise ConfigError(f"target asks a solitaire's win rate; {game.name} has opponents")
        if isinstance(q, Skill) and len(levels) < 2:
            raise ConfigError("skill compares two levels: give at least two (weakest first)")

    # the units: each level's mirror games, each neighbouring pair's games
    runs: dict[tuple[Any, ...], Run] = {}

    def run_of(lineup: list[Any], rotate: bool, hands: bool = False) -> Run:
        key = (tuple(player_name(p) for p in lineup), rotate, hands)
        if key not in runs:
            runs[key] = Run(config, lineup, rotate, seed, max_games)
            runs[key].hands = hands
        return runs[key]

    units: list[Unit] = []
    mirror_qs = [q for q in qs if q.unit == "mirror"]
    skill_qs = [q for q in qs if q.unit == "pair"]

    def unit(label: str, unit_runs: list[Run], unit_qs: list[Question], **ctx: Any) -> Unit:
        return Unit(label, unit_runs, unit_qs, ctx, sum(r.per_deal for r in unit_runs))

    for n, p in zip(names, levels, strict=True):
        if mirror_qs:
            units.append(unit(n, [run_of([p] * seats, False, rotate_deals)], mirror_qs))
    for (wn, wp), (sn, sp) in zip(
        zip(names, levels, strict=True), list(zip(names, levels, strict=True))[1:], strict=False
    ):
        if not skill_qs:
            break
        if seats == 1:
            pair = [run_of([sp], False), run_of([wp], False)]
        else:
            pair = [run_of([sp] + [wp] * (seats - 1), True)]
        units.append(unit(f"{sn} v {wn}", pair, skill_qs, stronger=sn, weaker=wn))

    call = {
        "game": game.name,
        "config": config_to_json(config),
        "levels": names,
        "questions": [repr(q) for q in qs],
        "alpha": alpha,
        "beta": beta,
        "max_games": max_games,
        "seed": seed,
        "first_batch": first_batch,
        **({"rotate_deals": True} if rotate_deals else {}),
    }
    order = list(runs.values())
    attach_runs(order, "verdict", call, how)
    if workers is not None and workers > default_workers() and executor is None:
        cores = default_workers()
        warnings.warn(
            f"{name('workers')} {workers}: using {cores} (this machine has {cores} cores)",
            GamelibWarning,
            stacklevel=2,
        )
    rows, played, budgets = play_units(units, order, "verdict", game.name, how, tables)
    table = pd.DataFrame(rows, columns=COLUMNS)
    table.attrs["verdict"] = {
        "game": game.name,
        "config": config_to_json(config),
        "levels": names,
        "seed": seed,
        "alpha": alpha,
        "beta": beta,
        "max_games": max_games,
        "design": design,
        **({"rotate_deals": True} if rotate_deals else {}),
    }
    if out is not None:
        call = {
            **table.attrs["verdict"],
            "questions": [question_to_json(q) for q in qs],
            "first_batch": first_batch,
            "command": command,
            "units": [
                {
                    "level": un.label,
                    "runs": [order.index(r) for r in un.runs],
                    "questions": [qs.index(q) for q in un.questions],
                    "deals": upto,
                    **({"budget": budget} if design != "cs" else {}),
                    **{k: v for k, v in un.ctx.items() if k in ("stronger", "weaker")},
                }
                for un, upto, budget in zip(units, played, budgets, strict=True)
            ],
        }
        _store(order, call, Path(out))
    return table


def question_to_json(q: Question) -> dict[str, Any]:
    """A question as JSON: its name and its fields (``QUESTIONS[name](**fields)`` rebuilds it)."""
    return {"name": q.name, **dataclasses.asdict(q)}


def question_from_json(data: Mapping[str, Any]) -> Question:
    """The question :func:`question_to_json` wrote."""
    from gamelib.verdict.questions import QUESTIONS

    fields = {k: v for k, v in data.items() if k != "name"}
    try:
        return QUESTIONS[data["name"]](**fields)
    except (KeyError, TypeError) as exc:
        raise ResultsError(f"not a verdict question: {dict(data)} ({exc})") from None


def _store(runs: list[Run], call: dict[str, Any], path: Path) -> None:
    """Every run's games up to the last deal a unit used, one table with each run's
    provenance (re-simulated by tests/test_results.py) and the call (``redecide`` reads it)."""
    from gamelib.sim import combine, save

    frames = []
    for i, r in enumerate(runs):
        upto = max(u["deals"] for u in call["units"] if i in u["runs"])
        t = tidy(r.table(upto))
        t.attrs["provenance"] = r.spec(upto)
        frames.append(t)
    table = combine(frames)
    table.attrs["verdict"] = call
    save(table, path)


def redecide(stored: pd.DataFrame | str | os.PathLike[str]) -> pd.DataFrame:
    """The verdict table a stored verdict (``verdict(..., out=PATH)``, ``gamelib verdict
    --table PATH``) decided, decided again from its games alone: the same procedure on the same
    deals gives the same rows, so a stored verdict can be checked and rendered without play."""
    from gamelib.sim import load

    table = stored if isinstance(stored, pd.DataFrame) else load(stored)
    call = table.attrs.get("verdict")
    runs = table.attrs.get("provenance", {}).get("runs")
    if not call or "units" not in call or not runs:
        raise ResultsError("this table was not stored by a verdict (no units in its attrs)")
    parts, at = [], 0
    for run in runs:
        n = run["n_games"] * games_per_deal(run)
        parts.append(tidy(table.iloc[at : at + n].reset_index(drop=True)))
        at += n
    qs = [question_from_json(q) for q in call["questions"]]
    rows = []
    for unit in call["units"]:
        tabs = [
            parts[i][parts[i]["deal"] < unit["deals"]].reset_index(drop=True) for i in unit["runs"]
        ]
        design = call.get("design", "cs")
        looks = look_schedule(unit.get("budget", unit["deals"]), call["first_batch"])
        ctx = {k: unit[k] for k in ("stronger", "weaker") if k in unit}
        for k in unit["questions"]:
            rows.append(
                decide(
                    tabs,
                    qs[k],
                    alpha=call["alpha"],
                    beta=call["beta"],
                    looks=looks,
                    level=unit["level"],
                    design=design,
                    **ctx,
                )
            )
    out = pd.DataFrame(rows, columns=COLUMNS)
    out.attrs["verdict"] = {
        k: call[k] for k in ("game", "config", "levels", "seed", "alpha", "beta", "max_games")
    }
    out.attrs["verdict"]["design"] = call.get("design", "cs")
    if call.get("rotate_deals"):
        out.attrs["verdict"]["rotate_deals"] = True
    return out


class Place(NamedTuple):
    """Where a sequential run's chunks play: up to ``cores`` local workers (kept across looks in
    ``pool``) or ``executor``; ``what`` names the executor argument in errors."""

    cores: int
    executor: Any
    pool: LazyPool | None
    what: str


def _play(run: Run, upto: int, where: Place) -> None:
    """Play the deals of ``run`` below ``upto`` it does not have, keeping each finished chunk.

    Where they play is :func:`~gamelib.sim.executors.run_chunks`' one rule: a run not timed
    here yet (a fresh run, or one the cache served) plays two chunks of a few deals here first
    to time them; a timed run's batch goes to the workers when
    :func:`~gamelib.sim.executors.worth_workers` says so.  Either way deal *i* is the same
    game, so the choice never changes a result."""
    todo = run.missing(upto)
    if not todo:
        return
    cores, deals = where.cores, sum(b - a for a, b in todo)
    timed = run.timing.seconds_per_deal > 0.0
    here_first = where.executor is None and not timed and deals > 2 * cores
    spread = where.executor is not None or here_first
    spread = spread or worth_workers(run.timing.seconds_per_deal * deals, cores, where.pool)
    spans: list[tuple[int, int]] = []
    if here_first:  # two chunks of a few deals (the first may pay a compile) time the run
        a, b = todo[0]
        for x in range(a, min(b, a + 2 * cores), cores):
            spans.append((x, min(b, x + cores)))
        todo = [(spans[-1][1], b), *todo[1:]] if spans[-1][1] < b else list(todo[1:])
    size = max(1, -(-deals // (2 * cores)))
    for a, b in todo:
        step = size if spread else b - a
        spans += [(x, min(x + step, b)) for x in range(a, b, step)]
    jobs = (
        ChunkJob(
            run.config,
            list(run.seats),
            run.seed,
            x,
            y,
            run.rotate,
            rotate_deals=run.hands,
            edit=run.edit,
            engine=run.engine,
        )
        for x, y in spans
    )
    workers = cores if spread else 1
    for start, (df, _) in run_chunks(
        jobs, workers, where.executor, where.what, here_first, where.pool, run.timing
    ):
        stop = start + len(df) // run.per_deal
        if run.store is not None:
            run.store.save(start, stop, df, False)
        run.parts[start] = (stop, df)


def _fit_to_clock(
    unit_runs: Sequence[Run], schedule: Schedule, i: int, deadline: float | None, where: Place
) -> int:
    """The deal count a unit's look ``i`` can reach before the unit's ``deadline``.

    Without a deadline (or under a planned design), the scheduled look.  Under one, the deals
    the unit's runs still lack are costed at the seconds a deal they have measured (a few deals
    are played first to measure it, when a run has not played here yet); a look that would not
    finish in time is moved down to the deals that fit (at least one past the previous look)
    and becomes the unit's last (:meth:`Schedule.cut`).  Stopping there is valid: the
    confidence sequences hold at any stopping time (Howard et al. 2021, Waudby-Smith & Ramdas
    2023).  Without this a unit stopped only at its first look past the deadline, overrunning
    its share of the budget by up to one batch and starving the units after it."""
    upto = schedule.deals[i]
    if deadline is None or schedule.design != "cs":
        return upto
    prev = schedule.deals[i - 1] if i else 0
    if min(r.covered() for r in unit_runs) >= upto:
        return upto
    cores = where.cores
    for r in unit_runs:
        if r.timing.seconds_per_deal == 0.0:  # not timed here yet: a few deals to measure it
            _play(r, min(upto, max(prev, r.covered()) + cores), where)
    have = min(r.covered() for r in unit_runs)
    if have >= upto:
        return upto
    seconds = 0.0
    for r in unit_runs:
        rate, lack = r.timing.seconds_per_deal, upto - r.covered()
        parallel = where.executor is not None or worth_workers(rate * lack, cores, where.pool)
        seconds += rate / (cores if parallel else 1)
    if seconds <= 0.0:
        return upto
    fit = have + int(max(0.0, deadline - time.monotonic()) / seconds)
    cut = min(upto, max(prev + 1, fit, have))
    if cut < upto:
        schedule.cut(i, cut)
    return cut


def format_verdicts(table: pd.DataFrame) -> str:
    """The verdict table in plain words: one line per level and question."""
    lines = []
    width = max([len(str(x)) for x in table["level"]] + [5])
    for _, r in table.iterrows():
        word = {HOLDS: "HOLDS", FAILS: "FAILS", UNDECIDED: "undecided"}[r["decision"]]
        est = f"{r['estimate']:.3f} [{r['lo']:.3f}, {r['hi']:.3f}]"
        tail = f"{r['deals']} deals, {r['games']} games"
        if r["decision"] == UNDECIDED:
            more = r["more_deals"]
            tail += (
                "; the estimate sits on the margin"
                if more is None or (isinstance(more, float) and np.isnan(more))
                else f"; about {int(more):,} more deals would decide"
            )
        lines.append(
            f"  {r['level']!s:<{width}}  {r['question']:<7} {word:<9}  {r['measure']} {est}"
            f"  ({r['claim']}; {tail})"
        )
    return "\n".join(lines)
