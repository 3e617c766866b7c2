"""Tune rule fields automatically: search a printable space of rule values for a rule set that
meets a designer's goals, and name it only after a verdict at the strongest level confirms it.

The package, one room a purpose (imports go one way, down this list; nothing below
``gamelib.tune`` imports it):

* :mod:`gamelib.tune.space` — the space: fields, domains, printable grids, building a rule set;
* :mod:`gamelib.tune.objectives` — single-level objective terms and the games they need;
* :mod:`gamelib.tune.report` — a search's tables and charts in words and pictures;
* :mod:`gamelib.tune.rungs` — a rung of the ladder: a rule set judged by verdicts at one level
  (the goal and the constraints), and its standing there;
* :mod:`gamelib.tune.study` — the Optuna search (:func:`tune`), its storage and sampler;
* :mod:`gamelib.tune.halving` — successive halving up a ladder of levels, and what to print at
  its top (a finalist that holds every verdict, the original when it holds them all, or no
  rule set shown printable);
* :mod:`gamelib.tune.fidelity` — the multi-fidelity search end to end (:func:`search`): a TPE
  screen at a cheap level, the halving, the confirmation at the top level on fresh deals
  against the original rules, its storage, its time budget, and the stored search or the study
  cache's for a spec (``search(..., cache=True)``, :func:`find_search`);
* :mod:`gamelib.tune.spaces` — the printable spaces notebook 05 searches, each documenting
  its grid.
"""

from gamelib.tune.fidelity import (
    SearchResult,
    cache_folder,
    find_search,
    load_search,
    recheck_search,
    search,
    search_spec,
    seconds_text,
    serves,
)
from gamelib.tune.halving import (
    Recommendation,
    halve,
    paired_measure,
    recommend,
    search_runs,
    store_remade,
)
from gamelib.tune.objectives import (
    OBJECTIVE_HELP,
    DrawRate,
    Length,
    Measure,
    Objective,
    SeatFair,
    SeatsFair,
    SkillShows,
    SoloWinRate,
    Term,
    as_objective,
    evaluate,
    lineups,
    parse_objective,
    play,
)
from gamelib.tune.report import (
    confirmation_long,
    kept_text,
    ladder_rows,
    plot_trials,
    rejection_table,
    rejection_words,
    report_text,
    search_findings,
    search_table,
    verdict_words,
)
from gamelib.tune.rungs import (
    QUESTION_HELP,
    Rung,
    judge,
    parse_question,
    question_text,
    standing,
)
from gamelib.tune.space import (
    DERIVED,
    PRINTABLE_DECIMALS,
    Choice,
    Domain,
    FloatRange,
    IntRange,
    build_config,
    changed,
    check_printable,
    check_space,
    grid,
    is_printable,
    parse_space,
    snap,
    space_table,
    space_text,
)
from gamelib.tune.study import (
    STUDY,
    TuneError,
    TuneResult,
    confirm,
    load_study,
    recheck,
    trials_table,
    tune,
)

__all__ = [
    "DERIVED",
    "OBJECTIVE_HELP",
    "PRINTABLE_DECIMALS",
    "QUESTION_HELP",
    "STUDY",
    "Choice",
    "Domain",
    "DrawRate",
    "FloatRange",
    "IntRange",
    "Length",
    "Measure",
    "Objective",
    "Recommendation",
    "Rung",
    "SearchResult",
    "SeatFair",
    "SeatsFair",
    "SkillShows",
    "SoloWinRate",
    "Term",
    "TuneError",
    "TuneResult",
    "as_objective",
    "build_config",
    "cache_folder",
    "changed",
    "check_printable",
    "check_space",
    "confirm",
    "confirmation_long",
    "evaluate",
    "find_search",
    "grid",
    "halve",
    "is_printable",
    "judge",
    "kept_text",
    "ladder_rows",
    "lineups",
    "load_search",
    "load_study",
    "paired_measure",
    "parse_objective",
    "parse_question",
    "parse_space",
    "play",
    "plot_trials",
    "question_text",
    "recheck",
    "recheck_search",
    "recommend",
    "rejection_table",
    "rejection_words",
    "report_text",
    "search",
    "search_findings",
    "search_runs",
    "search_spec",
    "search_table",
    "seconds_text",
    "serves",
    "snap",
    "space_table",
    "space_text",
    "standing",
    "store_remade",
    "trials_table",
    "tune",
    "verdict_words",
]
