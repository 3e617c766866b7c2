"""The multi-fidelity search end to end: screen many rule sets cheaply, promote only the
survivors up a ladder of stronger players, and name a rule set only when verdicts at the top
level, on fresh deals, show it meets the goal where the original does not — else "keep the
original".

*Why one file (610 lines):* the search's stages (screen, rungs, top, storage and read-back) are
one pipeline over one :class:`SearchResult`.

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
   already holds every verdict at the top, or when no finalist does; otherwise print the best
   finalist that holds every verdict — with the reasons, rendered from the rows.

``storage=FOLDER`` keeps the screen's Optuna journal (``journal.log``; resumable), every rung's
deals while it runs (``runs/``, removed at the end), and the result: ``games.parquet`` (every
rung's and the top's games, each run with the provenance :func:`gamelib.sim.simulate` gives it,
so :func:`recheck_search` can replay a prefix) and ``ladder.json`` (the specification, the
rungs' and the top's verdict rows, the recommendation and the seconds each stage took).  The
same call on a finished folder reads it back; :func:`load_search` reads it without a game.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from gamelib.core import ConfigError, Game, check_seed, config_to_json
from gamelib.registry import get_game
from gamelib.tune.halving import Recommendation, halve, paired_measure, recommend
from gamelib.tune.report import rejection_words
from gamelib.tune.rungs import Rung, judge, parse_question, question_text, standing
from gamelib.tune.space import (
    _is_int,
    build_config,
    changed,
    check_printable,
    check_space,
    parse_space,
    space_text,
    values_from_params,
)
from gamelib.tune.study import (
    TuneError,
    _base_config,
    _suggest,
    open_study,
    run_trials,
    trials_table,
)
from gamelib.verdict import Fair, Question, Target

__all__ = ["FORMAT", "SearchResult", "load_search", "recheck_search", "search", "seconds_text"]

FORMAT = "gamelib-tune-ladder/1"
#: the verdict row columns a search keeps (gamelib.verdict.COLUMNS)
ROW = [
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
]


@dataclass
class SearchResult:
    """What :func:`search` found: its ``spec``, the screen's ``trials``, the ``rungs``' and the
    ``top``'s verdict rows (a ``rules`` column names the rule set), the paired ``effects`` of
    each finalist against the original at the top, the ``recommendation``, every rule set it
    judged (``configs``: name → config), the stored ``games`` and the ``seconds`` per stage."""

    spec: dict[str, Any]
    trials: pd.DataFrame
    rungs: pd.DataFrame
    top: pd.DataFrame
    effects: pd.DataFrame
    recommendation: Recommendation
    configs: dict[str, Any]
    games: pd.DataFrame | None
    seconds: dict[str, float]

    def summary(self) -> str:
        """The search in plain words: the ladder, the top's verdicts, the comparison with the
        original and the recommendation (every number read from the rows)."""
        from gamelib.tune.report import verdict_words

        spec = self.spec
        done = int((self.trials["state"] == "COMPLETE").sum()) if len(self.trials) else 0
        lines = [
            f"{spec['game']}: goal {spec['goal']}, constraints {', '.join(spec['constraints'])}; "
            f"screen {spec['screen']} ({len(self.trials)} trials, {done} complete)"
        ]
        for r, text in enumerate(spec["rungs"][1:], start=1):
            at = self.rungs[(self.rungs["rung"] == r) & (self.rungs["rules"] != "original")]
            promoted = sorted(set(at.loc[at["promoted"].astype(bool), "rules"]))
            lines.append(
                f"rung {r} {text}: {at['rules'].nunique()} judged, promoted: "
                + (", ".join(promoted) or "none")
            )
        lines.append(f"top {spec['top']} on fresh deals (seed {spec['confirm_seed']}):")
        for _, row in self.top.iterrows():
            lines.append(f"  {row['rules']} at {row['level']}: {verdict_words(row)}")
        for _, row in self.effects.iterrows():
            lines.append(f"  {row['rules']} v original at {row['level']}: {verdict_words(row)}")
        rec = self.recommendation
        head = "KEEP THE ORIGINAL" if rec.answer == "keep" else f"PRINT {rec.rules} ({rec.changes})"
        lines.append(f"recommendation at {rec.level}: {head}")
        lines += [f"  - {w}" for w in rec.why]
        lines.append(f"seconds: {seconds_text(self.seconds)}")
        return "\n".join(lines)


def _questions(goal: Question | str, constraints: Sequence[Question | str]) -> tuple[Any, Any]:
    g = parse_question(goal) if isinstance(goal, str) else goal
    cs = [parse_question(c) if isinstance(c, str) else c for c in constraints]
    if not isinstance(g, Fair | Target):
        raise ConfigError(f"goal: {question_text(g)} is not a goal; give fair:MARGIN or target")
    for c in cs:
        if isinstance(c, Fair | Target):
            raise ConfigError(f"constraint {question_text(c)}: the goal is asked already")
    names = [c.name for c in cs]
    if len(set(names)) != len(names):
        raise ConfigError(f"constraints: each question once, got {', '.join(names)}")
    return g, cs


def _rungs(rungs: Sequence[Rung | str], top: Rung | str) -> tuple[list[Rung], Rung]:
    out = [Rung.parse(r) if isinstance(r, str) else r for r in rungs]
    top_rung = Rung.parse(top) if isinstance(top, str) else top
    if not out:
        raise ConfigError("rungs: give at least the screen's rung, e.g. greedy=400")
    return out, top_rung


def _key(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _provenance(
    config: Any, tables: Mapping[str, list[pd.DataFrame]], seed: int, **tags: Any
) -> list[pd.DataFrame]:
    """Each unit's games as a run table with the provenance simulate gives the same games
    (deal i of a verdict's run is deal i of ``simulate(config, seats, n, seed, rotate)``)."""
    from gamelib.sim import n_seats, run_spec

    out = []
    for unit, ts in tables.items():
        for t in ts:
            seats = [str(t[c].iloc[0]) for c in t.columns if c.startswith("player_")]
            rotate = n_seats(config) > 1 and " v " in unit
            deals = int(t["deal"].max()) + 1
            run = t.copy()
            for k, (col, v) in enumerate(
                {"rules": tags["rules"], "rung": tags["rung"], "unit": unit}.items()
            ):
                run.insert(k, col, v)
            run.attrs = {"provenance": run_spec(config, seats, deals, seed, rotate)}
            out.append(run)
    return out


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
    verdicts' error rates; ``workers``: processes per verdict; ``n_jobs``: screen trials at once.
    """
    game, base = _base_config(game_or_config, setup)
    check_seed(seed, "seed")
    if not _is_int(budget) or budget < 1:
        raise TuneError(f"budget must be a whole number ≥ 1 (trials), got {budget!r}")
    if not _is_int(keep) or keep < 1:
        raise ConfigError(f"keep must be a whole number ≥ 1, got {keep!r}")
    g, cs = _questions(goal, constraints)
    ladder, top_rung = _rungs(rungs, top)
    seeds = [seed + r for r in range(1, len(ladder))]  # rung r of the halving plays seed + r
    confirm_seed = seed + len(ladder) if confirm_seed is None else confirm_seed
    check_seed(confirm_seed, "confirm_seed")
    if confirm_seed == seed or confirm_seed in seeds:
        raise ConfigError("confirm_seed must differ from the search's seeds: fresh deals")
    for rung in [*ladder, top_rung]:
        for p in rung.levels():
            game.player(p)  # an unknown level is refused before any game
    checked = check_space(game, base, space)
    if printable:
        check_printable(checked)
    screen_spec = {
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
    }
    spec = {
        **screen_spec,
        "budget": budget,
        "rungs": [r.text() for r in ladder],
        "top": top_rung.text(),
        "keep": keep,
        "eta": eta,
        "finalists": finalists,
        "confirm_seed": confirm_seed,
    }
    if compare_games is not None:  # a search with the default budget keeps its old spec
        if not _is_int(compare_games) or compare_games < 0:
            raise ConfigError(f"compare_games must be a whole number ≥ 0, got {compare_games!r}")
        spec["compare_games"] = compare_games
    folder = Path(storage) if storage is not None else None
    if folder is not None and (folder / "ladder.json").is_file():
        stored = json.loads((folder / "ladder.json").read_text())
        if stored["spec"] == spec:
            return load_search(folder)

    import optuna

    seconds: dict[str, float] = {}
    t0 = time.perf_counter()
    study = open_study(storage, screen_spec, seed, n_jobs)

    def run(trial: Any) -> float:
        values = _suggest(trial, checked)
        try:
            config = build_config(base, values)
        except ConfigError as exc:
            trial.set_user_attr("invalid", str(exc))
            raise optuna.TrialPruned(str(exc)) from None
        rows = judge(config, ladder[0], g, cs, seed=seed, alpha=alpha, beta=beta, workers=workers)
        mark = standing(rows, ladder[0], g)
        trial.set_user_attr("rejected", mark["rejected"])
        trial.set_user_attr("verdicts", _records(rows))
        return float(mark["value"])

    run_trials(study, run, budget, n_jobs, progress, storage)
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
            resume = folder / "runs" / _key(config_to_json(config), rung.text(), s, a, spec["goal"])
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
        )
        stage = "top" if label == len(ladder) else f"rung {label}"
        seconds[stage] = seconds.get(stage, 0.0) + time.perf_counter() - t
        games.extend(_provenance(config, tables, s, rules=name, rung=label))
        return rows[ROW]

    def judge_at(name: str, config: Any, rung: Rung, r: int, s: int, a: float) -> Any:
        return play_rung(name, config, rung, r + 1, s, a)

    candidates = {k: v for k, v in configs.items() if k != "original"}
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
    eff, compared = _compare_top(
        configs,
        final if compare_games != 0 else [],
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
    )
    seconds["compare"] = time.perf_counter() - t0
    combined = _combine(games + compared)
    rejected_at = None if final or not candidates else rejection_words(rung_table, g.name)
    rec = recommend(top_table, configs, top_rung, finalists=final, rejected_at=rejected_at)
    result = SearchResult(spec, trials, rung_table, top_table, eff, rec, configs, combined, seconds)
    if folder is not None:
        _store(folder, result)
    return result


def _records(rows: pd.DataFrame) -> list[dict[str, Any]]:
    """Verdict rows as JSON-able records."""
    out = json.loads(rows[ROW].to_json(orient="records"))
    return list(out)


def _combine(games: list[pd.DataFrame]) -> pd.DataFrame | None:
    from gamelib.sim import combine

    return combine(games) if games else None


def _compare_top(
    configs: Mapping[str, Any],
    final: Sequence[str],
    goal: Question,
    top_rung: Rung,
    original_mirror: pd.DataFrame,
    *,
    seed: int,
    alpha: float,
    beta: float,
    workers: int | None,
    resume: Path | None,
    label: int,
    games: int,
) -> tuple[pd.DataFrame, list[pd.DataFrame]]:
    """Each finalist against the original at the top level by
    :func:`gamelib.verdict.compare.compare`: the same deals under both rule sets, paired effect
    verdicts on the goal's measure and on the stall rate, at the goal's margin."""
    from gamelib.verdict.compare import Effect, compare

    margin = float(goal.margin_value() or 0.05)
    measures = [paired_measure(goal, original_mirror), "stall"]
    frames, played = [], []
    for name in final:
        tables: dict[str, list[pd.DataFrame]] = {}
        folder = None if resume is None else resume / _key("compare", name, seed, alpha)
        rows = compare(
            configs["original"],
            configs[name],
            [top_rung.level],
            [Effect(m, margin) for m in measures],
            change=changed(configs["original"], configs[name]),
            alpha=alpha,
            beta=beta,
            max_games=games,
            seed=seed,
            workers=workers,
            resume=folder,
            progress=False,
            tables=tables,
        )
        frames.append(rows[ROW].assign(rules=name, measure_name=measures))
        for unit, (base_t, variant_t) in tables.items():
            for rules, cfg, t in (
                ("original", configs["original"], base_t),
                (name, configs[name], variant_t),
            ):
                played += _provenance(
                    cfg, {unit: [t]}, seed, rules=rules, rung=label, unit=f"compare {name}"
                )
    return (pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()), played


def _store(folder: Path, result: SearchResult) -> None:
    from gamelib.sim import save

    if result.games is not None:
        save(_slim(result.games), folder / "games.parquet")
    doc = {
        "spec": result.spec,
        "rungs": json.loads(result.rungs.to_json(orient="records")) if len(result.rungs) else [],
        "top": json.loads(result.top.to_json(orient="records")),
        "effects": json.loads(result.effects.to_json(orient="records"))
        if len(result.effects)
        else [],
        "recommendation": {
            "answer": result.recommendation.answer,
            "rules": result.recommendation.rules,
            "changes": result.recommendation.changes,
            "level": result.recommendation.level,
            "why": result.recommendation.why,
        },
        "configs": {k: config_to_json(v) for k, v in result.configs.items()},
        "seconds": {k: round(v, 1) for k, v in result.seconds.items()},
    }
    (folder / "ladder.json").write_text(json.dumps(doc, indent=1) + "\n")
    shutil.rmtree(folder / "runs", ignore_errors=True)


#: the outcome columns a verdict reads (the rest of a run's row is dropped when stored)
_OUTCOME = ("winner", "n_winners", "reason", "turns")


def _slim(games: pd.DataFrame) -> pd.DataFrame:
    from gamelib.sim import slim

    cols = [*_OUTCOME, *(c for c in games.columns if c.startswith("win_"))]
    return slim(games, [c for c in cols if c in games.columns])


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
    recommendation = Recommendation(
        rec["answer"], rec["rules"], configs[rec["rules"]], rec["changes"], rec["level"], rec["why"]
    )
    games = load(path / "games.parquet") if (path / "games.parquet").is_file() else None
    return SearchResult(
        spec, trials, rungs, top, eff, recommendation, configs, games, dict(doc["seconds"])
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
    g, cs = _questions(spec["goal"], spec["constraints"])
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
        cols = [c for c in _OUTCOME if c in fresh.columns] + [
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


def seconds_text(seconds: Mapping[str, float]) -> str:
    """The stages' run times in words (``screen 12 s, rung 1 80 s, top 410 s``)."""
    return ", ".join(f"{k} {v:,.0f} s" for k, v in seconds.items())
