"""The multi-fidelity search end to end: screen many rule sets cheaply, promote only the
survivors up a ladder of stronger players, and name a rule set only when verdicts at the top
level, on fresh deals, show it meets the goal where the original does not — else keep the
original, saying whether the original itself is shown printable.

*Why one file (about 600 lines):* the search's stages (screen, rungs, top, read-back) are one
pipeline over one :class:`SearchResult`; the pieces it strings together live below it (the top's
comparison, the time budget's shares and where a finished search is kept in
:mod:`gamelib.tune.halving`, its summary in :mod:`gamelib.tune.report`).

``search(game, space, goal, constraints, rungs, top, budget, seed)``:

1. **Screen** (rung 0, the cheapest level): an Optuna TPE search (Bergstra et al. 2011, the
   sampler of :mod:`gamelib.tune.study`) of ``budget`` rule sets from a printable space, each
   judged by :func:`gamelib.tune.rungs.judge` at ``rungs[0]`` on the same deals; its value is
   the goal's distance plus one for each failed constraint.
2. **Successive halving** (:func:`gamelib.tune.halving.halve`: Jamieson and Talwalkar 2016;
   one bracket of Li et al. 2018, "Hyperband"; a model-based first rung as in Falkner et al.
   2018, "BOHB", ICML): the ``keep`` best distinct rule sets the screen did not reject are
   judged at ``rungs[1]``; at each rung a rule set whose constraint verdict fails is rejected,
   the rest rank by standing and the best ``1/eta`` go up to the next rung, a stronger level
   with a larger game budget; after the last rung the best ``finalists`` remain.  (Optuna's
   pruners, e.g. ``SuccessiveHalvingPruner``, do this asynchronously inside one study; an
   explicit loop keeps each rung's verdicts whole and stored.)  The original rules are judged
   at every rung as the reference, never eliminated.
3. **Confirmation at the top** (``top``, the strongest level the budget allows): the finalists
   and the original are judged once more on fresh deals (``confirm_seed``, no deal of the
   search), at α / (number of finalists) each (Bonferroni over the finalists: the only rule
   sets named from the search), and each finalist is compared with the original on the same
   top-level deals by :func:`gamelib.verdict.compare.compare` (paired
   :class:`~gamelib.verdict.compare.Effect` verdicts on the goal's measure and the stall rate,
   at the goal's margin).
4. **Recommendation** (:func:`gamelib.tune.halving.recommend`): keep the original when it
   already holds every verdict at the top; otherwise print the best finalist that holds every
   verdict; when neither does, no rule set is shown printable (the original is kept, and its
   headline says so) — with the reasons, rendered from the rows.

``storage=FOLDER`` keeps the screen's Optuna journal (``journal.log``; resumable), every rung's
deals while it runs (``runs/``, removed at the end), and the result: ``games.parquet`` (every
rung's and the top's games, each run with the provenance :func:`gamelib.sim.simulate` gives it,
so :func:`recheck_search` can replay a prefix) and ``ladder.json`` (the specification, the
rungs' and the top's verdict rows, the recommendation and the seconds each stage took).  The
same call on a finished folder reads it back; :func:`load_search` reads it without a game.
``cache=True`` finds the folder itself: a stored search in data/results/ whose spec
(:func:`search_spec`) is the one asked for, else the study cache's folder for that spec, where
the search runs when neither holds it.  ``max_minutes`` bounds the whole search in time.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from gamelib.core import ConfigError, Game, check_seed, config_to_json
from gamelib.registry import get_game
from gamelib.tune.halving import (
    OUTCOME_COLUMNS,
    Recommendation,
    Stages,
    cache_folder,
    combine_games,
    compare_top,
    find_search,
    halve,
    recommend,
    rung_sizes,
    serves,
    store_search,
)
from gamelib.tune.report import rejection_words, search_summary, seconds_text
from gamelib.tune.rungs import (
    ROW,
    Rung,
    judge,
    parse_goal,
    parse_rungs,
    question_text,
    rung_rows,
    spec_key,
    standing,
    tagged_runs,
    verdict_records,
)
from gamelib.tune.space import (
    build_config,
    check_printable,
    check_space,
    is_int,
    parse_space,
    space_text,
    values_from_params,
)
from gamelib.tune.study import (
    TuneError,
    base_config,
    finished_trials,
    open_study,
    run_trials,
    suggest_values,
    trials_table,
)
from gamelib.verdict import Question, Target

__all__ = [
    "FORMAT",
    "SearchResult",
    "cache_folder",
    "find_search",
    "load_search",
    "recheck_search",
    "search",
    "search_spec",
    "seconds_text",
    "serves",
]

FORMAT = "gamelib-tune-ladder/1"


@dataclass
class SearchResult:
    """What :func:`search` found: its ``spec``, the screen's ``trials``, the ``rungs``' and the
    ``top``'s verdict rows (a ``rules`` column names the rule set), the paired ``effects`` of
    each finalist against the original at the top, the ``recommendation``, every rule set it
    judged (``configs``: name → config), the stored ``games``, the ``seconds`` per stage and
    the ``folder`` it was read back from (None for a search kept nowhere)."""

    spec: dict[str, Any]
    trials: pd.DataFrame
    rungs: pd.DataFrame
    top: pd.DataFrame
    effects: pd.DataFrame
    recommendation: Recommendation
    configs: dict[str, Any]
    games: pd.DataFrame | None
    seconds: dict[str, float]
    folder: Path | None = None

    def summary(self) -> str:
        """The search in plain words: the ladder, the top's verdicts, the comparison with the
        original and the recommendation (every number read from the rows)."""
        return search_summary(self)


#: the spec's keys that name the screen (its Optuna study)
_SCREEN = (
    "format",
    "game",
    "base",
    "space",
    "goal",
    "constraints",
    "screen",
    "seed",
    "alpha",
    "beta",
)


def _parts(
    game_or_config: str | Game | Any,
    setup: str | None,
    space: Mapping[str, Any],
    goal: Question | str,
    constraints: Sequence[Question | str],
    rungs: Sequence[Rung | str],
    top: Rung | str,
    printable: bool,
) -> tuple[Game, Any, dict[str, Any], Question, list[Question], list[Rung], Rung]:
    """A search's game, original rules, checked space, goal, constraints, rungs and top."""
    from gamelib.sim import n_seats

    game, base = base_config(game_or_config, setup)
    g, cs = parse_goal(goal, constraints)
    if isinstance(g, Target) != (
        n_seats(base) == 1
    ):  # refused before any game, as the verdict would
        want = "target:RATE:MARGIN (a solitaire)" if n_seats(base) == 1 else "fair:MARGIN"
        raise ConfigError(f"goal {question_text(g)}: {game.name} asks {want}")
    ladder, top_rung = parse_rungs(rungs, top)
    for rung in [*ladder, top_rung]:
        for p in rung.levels():
            game.player(p)  # an unknown level is refused before any game
    checked = check_space(game, base, space)
    if printable:
        check_printable(checked)
    return game, base, dict(checked), g, cs, ladder, top_rung


def search_spec(
    game_or_config: str | Game | Any,
    space: Mapping[str, Any],
    goal: Question | str,
    constraints: Sequence[Question | str],
    rungs: Sequence[Rung | str],
    top: Rung | str,
    budget: int,
    seed: int,
    *,
    setup: str | None = None,
    keep: int = 9,
    eta: int = 3,
    finalists: int = 1,
    confirm_seed: int | None = None,
    compare_games: int | None = None,
    alpha: float = 0.05,
    beta: float = 0.05,
    printable: bool = True,
    max_minutes: float | None = None,
) -> dict[str, Any]:
    """The specification :func:`search` runs and stores for these arguments, checked as it
    checks them and with no game played (``load_search(folder).spec`` of its finished folder)."""
    from gamelib.verdict.budget import check_minutes

    check_seed(seed, "seed")
    if not is_int(budget) or budget < 1:
        raise TuneError(f"budget must be a whole number ≥ 1 (trials), got {budget!r}")
    if not is_int(keep) or keep < 1:
        raise ConfigError(f"keep must be a whole number ≥ 1, got {keep!r}")
    if not is_int(eta) or eta < 2:
        raise ConfigError(f"eta must be a whole number ≥ 2, got {eta!r}")
    if not is_int(finalists) or finalists < 1:
        raise ConfigError(f"finalists must be a whole number ≥ 1, got {finalists!r}")
    check_minutes(max_minutes)
    for what, v in (("alpha", alpha), ("beta", beta)):
        # checked before the first trial: inside one, Optuna would log the error's traceback
        if not isinstance(v, int | float) or isinstance(v, bool) or not 0 < v < 0.5:
            raise ConfigError(f"{what} must lie between 0 and 0.5, got {v!r}")
    game, base, checked, g, cs, ladder, top_rung = _parts(
        game_or_config, setup, space, goal, constraints, rungs, top, printable
    )
    seeds = [seed + r for r in range(1, len(ladder))]  # rung r of the halving plays seed + r
    confirm_seed = seed + len(ladder) if confirm_seed is None else confirm_seed
    check_seed(confirm_seed, "confirm_seed")
    if confirm_seed == seed or confirm_seed in seeds:
        raise ConfigError("confirm_seed must differ from the search's seeds: fresh deals")
    spec = {
        "format": FORMAT,
        "game": game.name,
        "base": config_to_json(base),
        "space": space_text(checked),
        "goal": question_text(g),
        "constraints": [question_text(c) for c in cs],
        "screen": ladder[0].text(),
        "seed": seed,
        "alpha": alpha,
        "beta": beta,
        "budget": budget,
        "rungs": [r.text() for r in ladder],
        "top": top_rung.text(),
        "keep": keep,
        "eta": eta,
        "finalists": finalists,
        "confirm_seed": confirm_seed,
    }
    if compare_games is not None:  # a search with the default budget keeps its old spec
        if not is_int(compare_games) or compare_games < 0:
            raise ConfigError(f"compare_games must be a whole number ≥ 0, got {compare_games!r}")
        spec["compare_games"] = compare_games
    if max_minutes is not None:  # a search without a time budget keeps its old spec
        spec["max_minutes"] = max_minutes
    return spec


def search(
    game_or_config: str | Game | Any,
    space: Mapping[str, Any],
    goal: Question | str,
    constraints: Sequence[Question | str],
    rungs: Sequence[Rung | str],
    top: Rung | str,
    budget: int,
    seed: int,
    *,
    setup: str | None = None,
    storage: str | Path | None = None,
    keep: int = 9,
    eta: int = 3,
    finalists: int = 1,
    confirm_seed: int | None = None,
    compare_games: int | None = None,
    alpha: float = 0.05,
    beta: float = 0.05,
    n_jobs: int = 1,
    workers: int | None = 1,
    progress: bool = True,
    printable: bool = True,
    max_minutes: float | None = None,
    executor: Any = None,
    cache: bool | str | Path = False,
) -> SearchResult:
    """Search ``space`` for a rule set that meets ``goal`` under ``constraints``, screened at
    ``rungs[0]``, halved up ``rungs[1:]`` and confirmed at ``top`` against the original rules
    (see the module docstring).

    ``goal``: :class:`~gamelib.verdict.Fair` or :class:`~gamelib.verdict.Target` (or
    ``"fair:0.05"``); ``constraints``: :class:`~gamelib.verdict.Stalls`,
    :class:`~gamelib.verdict.Length`, :class:`~gamelib.verdict.Skill` (or their text);
    ``rungs`` and ``top``: :class:`~gamelib.tune.rungs.Rung` (or ``"LEVEL=GAMES[/WEAKER]"``).
    ``budget``: the screen's trials; ``keep``: rule sets promoted from the screen; ``eta``: the
    halving factor; ``finalists``: rule sets confirmed at the top; ``confirm_seed`` (default
    ``seed + len(rungs)``) must differ from every rung's seed; ``compare_games``: the paired
    comparison's budget (default the top's games; 0: no comparison, the two rule sets' top
    verdicts side by side only); ``alpha``, ``beta``: the
    verdicts' error rates; ``workers``: processes per verdict; ``n_jobs``: screen trials at once;
    ``executor``: a Dask client or address for every verdict's play.

    ``max_minutes``: the time budget of the whole search (kept in its spec): each stage still
    to run an equal share of what is left and each verdict of the stage an equal share of its
    stage's (:class:`~gamelib.tune.halving.Stages`); the screen starts no trial once its share
    is spent, and a verdict whose share is spent stops at its next look as its bounds stand
    (holds, fails, or undecided with the deals still needed: valid at any stopping time; a
    verdict takes at least its first look, so a tiny budget runs over).  ``cache``: ``True``
    (or a folder) takes the search from a finished one that answers the same spec
    (:func:`~gamelib.tune.halving.find_search`: a stored one in data/results/, else the study
    cache's) and otherwise runs it in the study cache
    (:func:`~gamelib.tune.halving.cache_folder`), so the same call reads it back.
    """
    spec = search_spec(
        game_or_config,
        space,
        goal,
        constraints,
        rungs,
        top,
        budget,
        seed,
        setup=setup,
        keep=keep,
        eta=eta,
        finalists=finalists,
        confirm_seed=confirm_seed,
        compare_games=compare_games,
        alpha=alpha,
        beta=beta,
        printable=printable,
        max_minutes=max_minutes,
    )
    _, base, checked, g, cs, ladder, top_rung = _parts(
        game_or_config, setup, space, goal, constraints, rungs, top, False
    )
    confirm_seed = int(spec["confirm_seed"])
    if cache is not False:
        if storage is not None:
            raise ConfigError("storage and cache: give one (the cache keeps a finished search)")
        found = find_search(spec, cache)
        if found is not None:
            return load_search(found)
        storage = cache_folder(spec, cache)
    folder = Path(storage) if storage is not None else None
    if folder is not None and (folder / "ladder.json").is_file():
        stored = json.loads((folder / "ladder.json").read_text())
        if serves(stored["spec"], spec):
            return load_search(folder)

    import optuna

    clock = Stages(max_minutes)
    comparing = compare_games != 0
    seconds: dict[str, float] = {}
    t0 = time.perf_counter()
    study = open_study(storage, {k: spec[k] for k in _SCREEN}, seed, n_jobs)

    def run(trial: Any) -> float:
        values = suggest_values(trial, checked)
        try:
            config = build_config(base, values)
        except ConfigError as exc:
            trial.set_user_attr("invalid", str(exc))
            raise optuna.TrialPruned(str(exc)) from None
        rows = judge(
            config,
            ladder[0],
            g,
            cs,
            seed=seed,
            alpha=alpha,
            beta=beta,
            workers=workers,
            executor=executor,
            max_minutes=clock.share(),
        )
        mark = standing(rows, ladder[0], g)
        trial.set_user_attr("rejected", mark["rejected"])
        trial.set_user_attr("verdicts", verdict_records(rows))
        return float(mark["value"])

    stages = 1 + (len(ladder) - 1) + 1 + comparing
    timeout = clock.start(stages, budget - finished_trials(study))
    run_trials(study, run, budget, n_jobs, progress, storage, timeout=timeout)
    seconds["screen"] = time.perf_counter() - t0
    trials = trials_table(study, checked)
    ok = trials["state"] == "COMPLETE"
    if "rejected" in trials:
        ok &= ~trials["rejected"].fillna(True).astype(bool)
    best = trials[ok].sort_values(["value", "number"], kind="stable").drop_duplicates("rules")
    configs: dict[str, Any] = {"original": base}
    for r in best.head(keep).to_dict("records"):
        configs[f"trial {r['number']}"] = build_config(
            base, values_from_params(checked, r["params"])
        )

    games: list[pd.DataFrame] = []

    def play_rung(name: str, config: Any, rung: Rung, label: int, s: int, a: float) -> Any:
        tables: dict[str, list[pd.DataFrame]] = {}
        resume = None
        if folder is not None:
            resume = (
                folder / "runs" / spec_key(config_to_json(config), rung.text(), s, a, spec["goal"])
            )
        t = time.perf_counter()
        rows = judge(
            config,
            rung,
            g,
            cs,
            seed=s,
            alpha=a,
            beta=beta,
            workers=workers,
            resume=resume,
            tables=tables,
            max_minutes=clock.share(),
            executor=executor,
        )
        stage = "top" if label == len(ladder) else f"rung {label}"
        seconds[stage] = seconds.get(stage, 0.0) + time.perf_counter() - t
        games.extend(tagged_runs(config, tables, s, rules=name, rung=label))
        return rows[ROW]

    candidates = {k: v for k, v in configs.items() if k != "original"}
    alive = rung_sizes(len(candidates), len(ladder) - 1, eta)  # each rung's rule sets, at most
    at_rung: list[int] = []

    def judge_at(name: str, config: Any, rung: Rung, r: int, s: int, a: float) -> Any:
        if not at_rung or at_rung[-1] != r:  # a new rung: a new stage of the budget
            at_rung.append(r)
            clock.start(len(ladder) - 1 - r + 1 + comparing, 1 + alive[r])
        return play_rung(name, config, rung, r + 1, s, a)

    rung_table, final = halve(
        candidates,
        ladder[1:],
        g,
        judge_at,
        seed=seed + 1,
        eta=eta,
        finalists=finalists,
        alpha=alpha,
        original=base,
    )
    if len(rung_table):
        rung_table["rung"] += 1
    a_top = alpha / max(1, len(final))
    clock.start(1 + (comparing and bool(final)), 1 + len(final))
    top_frames = [
        play_rung(n, configs[n], top_rung, len(ladder), confirm_seed, a_top).assign(rules=n)
        for n in ["original", *final]
    ]
    top_table = pd.concat(top_frames, ignore_index=True)
    mirror = [
        t
        for t in games
        if t["rung"].iloc[0] == len(ladder)
        and t["rules"].iloc[0] == "original"
        and t["unit"].iloc[0] == top_rung.level
    ]
    t0 = time.perf_counter()
    clock.start(1, len(final))
    eff, compared = compare_top(
        configs,
        final if comparing else [],
        g,
        top_rung,
        mirror[0],
        seed=confirm_seed,
        alpha=a_top,
        beta=beta,
        workers=workers,
        resume=None if folder is None else folder / "runs",
        label=len(ladder),
        games=top_rung.games if compare_games is None else compare_games,
        minutes=clock.share,
        executor=executor,
    )
    seconds["compare"] = time.perf_counter() - t0
    combined = combine_games(games + compared)
    rejected_at = None if final or not candidates else rejection_words(rung_table, g.name)
    rec = recommend(top_table, configs, top_rung, finalists=final, rejected_at=rejected_at)
    result = SearchResult(spec, trials, rung_table, top_table, eff, rec, configs, combined, seconds)
    if folder is None:
        return result
    store_search(folder, result)
    return load_search(folder)  # what a rerun reads back (its seconds rounded as stored)


def load_search(folder: str | Path) -> SearchResult:
    """A stored search read back (no game is played)."""
    from gamelib.records import config_from_json
    from gamelib.sim import load
    from gamelib.tune.study import load_study

    path = Path(folder)
    doc_path = path / "ladder.json"
    if not doc_path.is_file():
        raise TuneError(f"storage {folder}: no ladder.json; the search has not finished there")
    doc = json.loads(doc_path.read_text())
    spec = doc["spec"]
    if spec.get("format") != FORMAT:
        raise TuneError(f"storage {folder}: not a multi-fidelity search ({spec.get('format')})")
    game = get_game(spec["game"])
    configs = {k: config_from_json(game, v) for k, v in doc["configs"].items()}
    _, trials = load_study(path)
    rungs = pd.DataFrame(doc["rungs"])
    top = pd.DataFrame(doc["top"])
    eff = pd.DataFrame(doc["effects"])
    rec = doc["recommendation"]
    if "shown" in rec:
        shown = bool(rec["shown"])
    else:  # stored before it was kept: the rules named hold every verdict at the top, or not
        named = rung_rows(top[top["rules"] == rec["rules"]], Rung.parse(spec["top"]))
        shown = bool(len(named)) and bool((named["decision"] == "holds").all())
    recommendation = Recommendation(
        rec["answer"],
        rec["rules"],
        configs[rec["rules"]],
        rec["changes"],
        rec["level"],
        rec["why"],
        shown=shown,
    )
    games = load(path / "games.parquet") if (path / "games.parquet").is_file() else None
    return SearchResult(
        spec, trials, rungs, top, eff, recommendation, configs, games, dict(doc["seconds"]), path
    )


def recheck_search(folder: str | Path, trials: int = 2, deals: int = 1) -> list[dict[str, Any]]:
    """Replay a prefix of a stored search: its first ``trials`` screen trials judged again
    (their values must equal the stored ones) and the first ``deals`` deals of every stored run
    simulated again (their outcomes must equal the stored games).  Returns one record a check:
    ``what``, ``stored``, ``fresh`` and ``same``."""
    from gamelib.records import config_from_json
    from gamelib.sim import simulate

    result = load_search(folder)
    spec = result.spec
    game = get_game(spec["game"])
    base = config_from_json(game, spec["base"])
    space = parse_space(game, spec["space"])
    g, cs = parse_goal(spec["goal"], spec["constraints"])
    screen = Rung.parse(spec["screen"])
    out: list[dict[str, Any]] = []
    for r in result.trials.head(trials).to_dict("records"):
        try:
            config = build_config(base, values_from_params(space, r["params"]))
        except ConfigError:
            out.append(
                {
                    "what": f"trial {r['number']}",
                    "stored": r["value"],
                    "fresh": float("nan"),
                    "same": r["state"] == "PRUNED",
                }
            )
            continue
        rows = judge(
            config, screen, g, cs, seed=spec["seed"], alpha=spec["alpha"], beta=spec["beta"]
        )
        value = float(standing(rows, screen, g)["value"])
        out.append(
            {
                "what": f"trial {r['number']}",
                "stored": float(r["value"]),
                "fresh": value,
                "same": value == float(r["value"]),
            }
        )
    games = result.games
    runs = games.attrs["provenance"]["runs"] if games is not None else []
    offset = 0
    for run in runs:
        per_deal = len(run["players"]) if run["rotate_seats"] else 1
        rows_n = run["n_games"] * per_deal
        stored = games.iloc[offset : offset + min(deals, run["n_games"]) * per_deal]  # type: ignore[union-attr]
        offset += rows_n
        config = config_from_json(game, run["config"])
        k = min(deals, run["n_games"])
        fresh = simulate(
            config,
            run["players"],
            k,
            run["seed"],
            rotate_seats=run["rotate_seats"],
            workers=1,
            progress=False,
        )
        cols = [c for c in OUTCOME_COLUMNS if c in fresh.columns] + [
            c for c in fresh.columns if c.startswith(("win_", "player_"))
        ]
        a = fresh[cols].astype(str).reset_index(drop=True)
        b = stored[cols].astype(str).reset_index(drop=True)
        what = f"{stored['rules'].iloc[0]} rung {stored['rung'].iloc[0]} {stored['unit'].iloc[0]}"
        out.append(
            {
                "what": what,
                "stored": b.to_dict("records"),
                "fresh": a.to_dict("records"),
                "same": a.equals(b),
            }
        )
    return out
