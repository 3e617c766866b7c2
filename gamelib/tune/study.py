"""The single-level search: Optuna trials over a space, scored by an objective, confirmed on
fresh seeds — and the storage, sampler and trial bookkeeping the multi-fidelity search
(:mod:`gamelib.tune.halving`) shares.

``tune(game_or_config, space, objective, budget, seed, ...)`` searches with Optuna (a seeded
TPE sampler).  Each trial is one rule set: the config is built from the base config and the
sampled values, and every line-up the objective needs is played by :func:`gamelib.sim.simulate`
on the **same seed in every trial** (common random numbers: two rule sets are compared on the
same deals).  A sampled config the game refuses is pruned, its reason kept in the trial's
``invalid`` attribute; it never stops the search.  The search's scores are noisy (one batch of
deals each, and the best of many noisy scores is biased low), so the answer is
**confirmed on fresh seeds**: the best few rule sets and the designer's original rules are
played again on a different seed, with enough games for a stated precision
(:func:`gamelib.stats.games_for_half_width`), and the report lists the confirmation intervals.
The space must be printable (:func:`gamelib.tune.space.check_printable`) unless
``printable=False``.

**Resumable**: with ``storage=FOLDER`` the study is an Optuna journal (``FOLDER/journal.log``,
``JournalFileBackend``); every finished trial is appended as it ends, so an interrupted run keeps
them, and the same call continues until ``budget`` trials have finished.  The folder remembers
the search's specification and refuses a call with another one.

**Reproducible** with one worker (``n_jobs=1``): each trial's sampler is a TPE sampler seeded
from ``seed`` and the number of trials finished before it, so the sampled values depend only on
the finished trials — an interrupted and resumed search samples the same rule sets as an
uninterrupted one, and each trial's games are fixed by its config and ``seed``.  With
``n_jobs > 1`` (threads) or several processes on one storage folder, trials run at the same time
and each one's sample depends on which others had finished by then: every trial's value is still
reproducible from its rule set, but which rule sets are tried (and so the best one) is not.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from gamelib.core import ConfigError, Game, GamelibError, ResumeError, check_seed, config_to_json
from gamelib.registry import get_game
from gamelib.tune.objectives import (
    Lineup,
    Objective,
    Term,
    as_objective,
    evaluate,
    parse_objective,
    play,
)
from gamelib.tune.report import report_text
from gamelib.tune.space import (
    Domain,
    FloatRange,
    IntRange,
    build_config,
    check_printable,
    check_space,
    is_int,
    parse_space,
    snap,
    space_text,
    value_text,
    values_from_params,
)

__all__ = [
    "STUDY",
    "TuneError",
    "TuneResult",
    "confirm",
    "load_study",
    "open_study",
    "recheck",
    "rules_text",
    "run_trials",
    "trials_table",
    "tune",
]


class TuneError(GamelibError):
    """A tuning run that cannot go on (bad budget, an unusable storage folder, interrupted)."""


def base_config(game_or_config: Any, setup: str | None) -> tuple[Game, Any]:
    from gamelib.sim import game_of

    if isinstance(game_or_config, str):
        game = get_game(game_or_config)
        return game, game.config(setup)
    if isinstance(game_or_config, Game):
        return game_or_config, game_or_config.config(setup)
    if setup is not None:
        raise ConfigError("setup: give a game name with setup=, or a config without it")
    return game_of(game_or_config), game_or_config


def _seats(players: str | Sequence[str] | None, game: Game, config: Any, n: int) -> list[str]:
    if players is None:
        names = ["greedy"]
    elif isinstance(players, str):
        names = [p.strip() for p in players.split(",") if p.strip()]
    else:
        names = list(players)
    if not names or not all(isinstance(p, str) for p in names):
        raise ConfigError(f"players: give player names, got {players!r}")
    if len(names) == 1:
        names *= n
    if len(names) != n:
        raise ConfigError(f"players: {n} seats, {len(names)} players given ({names})")
    for p in names:
        game.player(p)  # a ConfigError names an unknown player
    return names


def _storage(folder: str | Path) -> Any:
    """The journal storage in ``folder`` (created), or a TuneError naming what is wrong."""
    import optuna
    from optuna.storages.journal import JournalFileBackend

    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise TuneError(f"storage {path} is a file; give a folder (it holds journal.log)")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise TuneError(f"storage {path}: cannot create the folder ({exc.strerror})") from None
    log = path / "journal.log"
    if log.exists():
        _check_journal(log)
    try:
        return optuna.storages.JournalStorage(JournalFileBackend(str(log)))
    except Exception as exc:  # optuna's own errors on a damaged log
        raise TuneError(f"storage {log} cannot be read ({exc}); delete the folder") from None


def _check_journal(log: Path) -> None:
    """Every line of a journal must be a JSON object (a half-written last line, from a killed
    run, is cut off: the trial it belonged to is run again)."""
    data = log.read_bytes()
    lines = data.split(b"\n")
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            ok = isinstance(json.loads(line), dict)
        except ValueError:
            ok = False
        if not ok:
            if i == len(lines) - 1:  # no newline after it: a write cut short
                log.write_bytes(b"\n".join(lines[:i]) + (b"\n" if i else b""))
                return
            raise ResumeError(
                f"storage {log}: line {i + 1} is not a journal entry (the file is damaged or "
                "not an Optuna journal); delete it to start again"
            )


STUDY = "gamelib-tune"


def _sampler(seed: int, n_jobs: int) -> Any:
    """The reproducible sampler: a fresh TPE sampler per trial, seeded from ``seed`` and the
    number of trials finished so far (so a resumed search samples what an uninterrupted one
    would)."""
    import optuna
    from optuna.samplers import BaseSampler, TPESampler
    from optuna.trial import TrialState

    class Reseeded(BaseSampler):
        def __init__(self) -> None:
            self._per_trial: dict[int, TPESampler] = {}

        def _of(self, study: Any, trial: Any) -> TPESampler:
            key = trial._trial_id
            if key not in self._per_trial:
                done = len(
                    study.get_trials(
                        deepcopy=False, states=(TrialState.COMPLETE, TrialState.PRUNED)
                    )
                )
                sub = int(np.random.SeedSequence([seed, done]).generate_state(1)[0])
                self._per_trial[key] = TPESampler(seed=sub, constant_liar=n_jobs > 1)
            return self._per_trial[key]

        def infer_relative_search_space(self, study: Any, trial: Any) -> Any:
            return self._of(study, trial).infer_relative_search_space(study, trial)

        def sample_relative(self, study: Any, trial: Any, space: Any) -> Any:
            return self._of(study, trial).sample_relative(study, trial, space)

        def sample_independent(self, study: Any, trial: Any, name: str, dist: Any) -> Any:
            return self._of(study, trial).sample_independent(study, trial, name, dist)

        def before_trial(self, study: Any, trial: Any) -> None:
            self._of(study, trial).before_trial(study, trial)

        def after_trial(self, study: Any, trial: Any, state: Any, values: Any) -> None:
            sub = self._per_trial.pop(trial._trial_id, None)
            if sub is not None:
                sub.after_trial(study, trial, state, values)

    del optuna
    return Reseeded()


def suggest_values(trial: Any, space: Mapping[str, Domain]) -> dict[str, Any]:
    """One trial's values: Optuna's suggestions, a grid's snapped to its points."""
    values: dict[str, Any] = {}
    for name, d in space.items():
        if isinstance(d, IntRange):
            values[name] = trial.suggest_int(name, d.lo, d.hi, step=d.step)
        elif isinstance(d, FloatRange):
            v = trial.suggest_float(name, d.lo, d.hi, step=d.step)
            values[name] = v if d.step is None else snap(d, v)
        else:
            labels = [value_text(v) for v in d.values]
            values[name] = d.values[labels.index(trial.suggest_categorical(name, labels))]
    return values


@dataclass
class TuneResult:
    """What :func:`tune` found: the trials, the confirmation report and its text."""

    study: Any
    spec: dict[str, Any]
    trials: pd.DataFrame
    report: pd.DataFrame
    text: str
    original: Any
    best: Any
    tables: dict[str, dict[Lineup, pd.DataFrame]]


def _spec(
    game: Game,
    base: Any,
    space: Mapping[str, Domain],
    objective: Objective,
    players: list[str],
    n_games: int,
    seed: int,
) -> dict[str, Any]:
    return {
        "format": "gamelib-tune/1",
        "game": game.name,
        "base": config_to_json(base),
        "space": space_text(space),
        "objective": objective.text(),
        "players": players,
        "n_games": n_games,
        "seed": seed,
    }


def tune(
    game_or_config: str | Game | Any,
    space: Mapping[str, Any],
    objective: Term | Objective | str | Sequence[Term | str],
    budget: int,
    seed: int,
    *,
    n_games: int = 1000,
    players: str | Sequence[str] | None = None,
    setup: str | None = None,
    storage: str | Path | None = None,
    confirm_games: int | None = None,
    precision: float = 0.02,
    confirm_seed: int | None = None,
    top: int = 3,
    n_jobs: int = 1,
    workers: int | None = 1,
    progress: bool = True,
    printable: bool = True,
) -> TuneResult:
    """Search ``space`` for the rule set that minimises ``objective``, then confirm the ``top``
    best and the original rules on fresh seeds.

    ``game_or_config``: a game name (with ``setup``), a :class:`~gamelib.core.Game` or a config
    (the base: fields outside the space keep its values; it is "the original").  ``budget``:
    trials to finish (with ``storage``, counting those already in the folder).  ``n_games``:
    deals per trial and line-up, all trials on ``seed``.  ``players``: the line-up of the
    fairness terms (one name fills every seat; default ``greedy``).  ``confirm_games``: deals per
    candidate in the confirmation (default: enough for a 95% Wilson interval of ±``precision``
    at a rate of one half); ``confirm_seed`` (default ``seed + 1``) must differ from ``seed``.
    ``n_jobs``: trials at once (threads; see the module docstring for what that changes);
    ``workers``: processes per ``simulate``.  ``progress``: Optuna's progress bar.
    ``printable``: refuse a space that can sample a value no one can print (a continuous
    range; see :func:`gamelib.tune.space.check_printable`).
    """
    import optuna

    game, base = base_config(game_or_config, setup)
    check_seed(seed, "seed")
    if not is_int(budget) or budget < 1:
        raise TuneError(f"budget must be a whole number ≥ 1 (trials), got {budget!r}")
    if not is_int(n_games) or n_games < 1:
        raise ConfigError(f"n_games must be a whole number ≥ 1, got {n_games!r}")
    if not is_int(n_jobs) or n_jobs < 1:
        raise ConfigError(f"n_jobs must be a whole number ≥ 1, got {n_jobs!r}")
    if not is_int(top) or top < 1:
        raise ConfigError(f"top must be a whole number ≥ 1, got {top!r}")
    from gamelib.sim import n_seats
    from gamelib.stats import games_for_half_width

    confirm_seed = seed + 1 if confirm_seed is None else check_seed(confirm_seed, "confirm_seed")
    if confirm_seed == seed:
        raise ConfigError("confirm_seed must differ from seed: the confirmation needs fresh deals")
    if confirm_games is None:
        try:
            confirm_games = games_for_half_width(precision)
        except ValueError as exc:
            raise ConfigError(f"precision: {exc}") from None
    elif not is_int(confirm_games) or confirm_games < 1:
        raise ConfigError(f"confirm_games must be a whole number ≥ 1, got {confirm_games!r}")
    checked = check_space(game, base, space)
    if printable:
        check_printable(checked)
    obj = as_objective(objective)
    n = n_seats(base)
    seated = _seats(players, game, base, n)
    for _, t in obj.terms:
        t.check(n)
        lineup = t.lineup(seated, n)[0]
        if len(lineup) != n:
            raise ConfigError(
                f"objective {t.text()}: {n} seats, {len(lineup)} players ({', '.join(lineup)})"
            )
        for p in lineup:
            game.player(p)
    spec = _spec(game, base, checked, obj, seated, n_games, seed)

    study = open_study(storage, spec, seed, n_jobs)

    def run(trial: Any) -> float:
        values = suggest_values(trial, checked)
        try:
            config = build_config(base, values)
        except ConfigError as exc:
            trial.set_user_attr("invalid", str(exc))
            raise optuna.TrialPruned(str(exc)) from None
        tables = play(config, obj, seated, n_games, seed, workers)
        value, measures = evaluate(obj, tables, seated)
        for label, m in zip(obj.labels(), measures, strict=True):
            trial.set_user_attr(label, m.estimate)
        return value

    run_trials(study, run, budget, n_jobs, progress, storage)
    trials = trials_table(study, checked)
    done = trials[trials.state == "COMPLETE"]
    if done.empty:
        raise TuneError(
            f"no trial of {len(trials)} gave a valid rule set (every one was refused by the "
            "game; see the trials' 'invalid' reasons): widen or fix the space"
        )
    best_rows = done.sort_values(["value", "number"], kind="stable").drop_duplicates("rules")
    candidates: dict[str, Any] = {"original": base}
    searched: dict[str, float] = {"original": float("nan")}
    for r in best_rows.head(top).to_dict("records"):
        label = f"trial {r['number']}"
        candidates[label] = build_config(base, values_from_params(checked, r["params"]))
        searched[label] = float(r["value"])
    report, tables = confirm(candidates, obj, seated, confirm_games, confirm_seed, workers=workers)
    report.insert(1, "search_value", [searched[k] for k in report["rules"]])
    ranked = report[report.rules != "original"].sort_values("value", kind="stable")
    best = candidates[str(ranked.iloc[0]["rules"])]
    text = report_text(report, obj, confirm_games, confirm_seed, spec, budget)
    return TuneResult(study, spec, trials, report, text, base, best, tables)


def open_study(storage: str | Path | None, spec: Mapping[str, Any], seed: int, n_jobs: int) -> Any:
    """The Optuna study of a search: loaded from ``storage`` when the folder holds one (its
    stored specification must equal ``spec``: a ResumeError names what differs), else created
    there (or in memory without a folder), with the reproducible sampler."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    store = _storage(storage) if storage is not None else None
    try:
        if store is not None and STUDY in optuna.study.get_all_study_names(store):
            # load, not create: opening a finished search writes nothing to its journal
            study = optuna.load_study(
                study_name=STUDY, storage=store, sampler=_sampler(seed, n_jobs)
            )
        else:
            study = optuna.create_study(
                study_name=STUDY,
                storage=store,
                sampler=_sampler(seed, n_jobs),
                direction="minimize",
            )
    except Exception as exc:
        raise TuneError(f"storage {storage}: the study cannot be opened ({exc})") from None
    stored = study.user_attrs.get("spec")
    if stored is None:
        study.set_user_attr("spec", dict(spec))
    elif stored != spec:
        diff = sorted(k for k in spec if stored.get(k) != spec[k])
        raise ResumeError(
            f"storage {storage} holds a search with another {', '.join(diff)}; use another "
            "folder (or the same arguments to continue it)"
        )
    return study


def run_trials(
    study: Any,
    run: Any,
    budget: int,
    n_jobs: int,
    progress: bool,
    storage: str | Path | None,
    timeout: float | None = None,
) -> None:
    """Finish trials of ``run`` until ``budget`` have finished (those in the folder count),
    starting none after ``timeout`` seconds; Ctrl-C is a TuneError saying how many are kept."""
    import optuna

    left = budget - finished_trials(study)
    if left <= 0:
        return
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
            study.optimize(
                run, n_trials=left, n_jobs=n_jobs, timeout=timeout, show_progress_bar=progress
            )
    except KeyboardInterrupt:
        kept = (
            f"{finished_trials(study)} of {budget} trials are kept in {storage}; rerun the same "
            "call to continue"
            if storage
            else f"{finished_trials(study)} trials had finished; pass storage=FOLDER to keep them"
        )
        raise TuneError(f"tuning interrupted: {kept}") from None


def finished_trials(study: Any) -> int:
    from optuna.trial import TrialState

    return len(study.get_trials(deepcopy=False, states=(TrialState.COMPLETE, TrialState.PRUNED)))


def rules_text(space: Mapping[str, Domain], params: Mapping[str, Any]) -> str:
    """A trial's sampled values as ``field=value`` text (a grid's value snapped)."""
    out = []
    for k, d in space.items():
        if k not in params:
            continue
        v = params[k]
        if isinstance(d, FloatRange) and d.step is not None:
            v = snap(d, v)
        out.append(f"{k}={v}")
    return ", ".join(out)


def trials_table(study: Any, space: Mapping[str, Domain]) -> pd.DataFrame:
    """The finished trials in the order they finished: number, state, value, the sampled
    values (``params``, and ``rules`` as text), each term's estimate and why a pruned one was
    refused."""
    from optuna.trial import TrialState

    rows = []
    finished = [
        t
        for t in study.get_trials(deepcopy=False)
        if t.state in (TrialState.COMPLETE, TrialState.PRUNED)
    ]
    for t in sorted(finished, key=lambda t: (t.datetime_complete, t.number)):
        rules = rules_text(space, t.params)
        rows.append(
            {
                "number": t.number,
                "state": t.state.name,
                "value": t.value if t.value is not None else float("nan"),
                "rules": rules,
                "params": dict(t.params),
                **{k: v for k, v in t.user_attrs.items() if k != "invalid"},
                "invalid": t.user_attrs.get("invalid", ""),
            }
        )
    cols = ["number", "state", "value", "rules", "params", "invalid"]
    return pd.DataFrame(rows, columns=None if rows else cols)


def confirm(
    candidates: Mapping[str, Any],
    objective: Term | Objective | str | Sequence[Term | str],
    players: Sequence[str],
    n_games: int,
    seed: int,
    *,
    workers: int | None = 1,
) -> tuple[pd.DataFrame, dict[str, dict[Lineup, pd.DataFrame]]]:
    """Play every candidate rule set (name → config) on ``n_games`` deals of ``seed`` and
    measure each term with its 95% interval: one row per candidate, sorted by the confirmed
    value (``original`` kept first).  ``consistent``: every term's interval touches its target;
    ``shown``: every interval lies inside its target."""
    obj = as_objective(objective)
    rows = []
    tables: dict[str, dict[Lineup, pd.DataFrame]] = {}
    for name, config in candidates.items():
        tabs = play(config, obj, players, n_games, seed, workers)
        value, measures = evaluate(obj, tabs, players)
        tables[name] = tabs
        row: dict[str, Any] = {"rules": name, "value": value}
        for label, m in zip(obj.labels(), measures, strict=True):
            row[label] = m.estimate
            row[f"{label}_lo"] = m.lo
            row[f"{label}_hi"] = m.hi
            row[f"{label}_target"] = (
                f"{m.target_lo:g}"
                if m.target_lo == m.target_hi
                else f"{m.target_lo:g}..{m.target_hi:g}"
            )
        row["consistent"] = all(m.consistent for m in measures)
        row["shown"] = all(m.shown for m in measures)
        row["games"] = n_games
        row["config"] = config
        rows.append(row)
    out = pd.DataFrame(rows)
    first = out[out.rules == "original"]
    rest = out[out.rules != "original"].sort_values("value", kind="stable")
    out = pd.concat([first, rest], ignore_index=True)
    out.attrs["seed"] = seed
    return out, tables


def load_study(folder: str | Path) -> tuple[dict[str, Any], pd.DataFrame]:
    """The specification and the finished trials of a stored search (read only)."""
    import optuna

    log = Path(folder) / "journal.log"
    if not log.is_file():
        raise TuneError(f"storage {folder}: no journal.log; not a tuning folder")
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.load_study(study_name=STUDY, storage=_storage(folder))
    spec = study.user_attrs.get("spec")
    if spec is None:
        raise TuneError(f"storage {folder}: the study has no gamelib specification")
    game = get_game(spec["game"])
    return spec, trials_table(study, parse_space(game, spec["space"]))


def recheck(folder: str | Path, k: int = 3) -> list[tuple[int, float, float]]:
    """Play the first ``k`` finished trials of a stored search again: (number, stored value,
    fresh value) for each (a pruned trial must be refused again: its values are NaN)."""
    from gamelib.records import config_from_json

    spec, trials = load_study(folder)
    game = get_game(spec["game"])
    base = config_from_json(game, spec["base"])
    space = parse_space(game, spec["space"])
    obj = parse_objective(spec["objective"])
    out = []
    for r in trials.head(k).to_dict("records"):
        values = values_from_params(space, r["params"])
        try:
            config = build_config(base, values)
        except ConfigError:
            out.append((int(r["number"]), float(r["value"]), float("nan")))
            continue
        tables = play(config, obj, spec["players"], spec["n_games"], spec["seed"])
        fresh, _ = evaluate(obj, tables, spec["players"])
        out.append((int(r["number"]), float(r["value"]), fresh))
    return out
