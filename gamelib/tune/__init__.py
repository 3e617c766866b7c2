"""Tune rule fields automatically: search a printable space of rule values for a rule set that
meets a designer's goals, and name it only after a verdict at the strongest level confirms it.

The package, one room a purpose (imports go one way, down this list; nothing below
``gamelib.tune`` imports it):

* :mod:`gamelib.tune.space` — the space: fields, domains, printable grids, building a rule set;
* :mod:`gamelib.tune.objectives` — single-level objective terms and the games they need;
* :mod:`gamelib.tune.report` — a search's tables and charts in words and pictures;
* :mod:`gamelib.tune.search` — the Optuna search (:func:`tune`), its storage and sampler.
"""

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
from gamelib.tune.report import confirmation_long, plot_trials, report_text
from gamelib.tune.search import (
    STUDY,
    TuneError,
    TuneResult,
    confirm,
    load_study,
    recheck,
    trials_table,
    tune,
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

__all__ = [
    "DERIVED",
    "OBJECTIVE_HELP",
    "PRINTABLE_DECIMALS",
    "STUDY",
    "Choice",
    "Domain",
    "DrawRate",
    "FloatRange",
    "IntRange",
    "Length",
    "Measure",
    "Objective",
    "SeatFair",
    "SeatsFair",
    "SkillShows",
    "SoloWinRate",
    "Term",
    "TuneError",
    "TuneResult",
    "as_objective",
    "build_config",
    "changed",
    "check_printable",
    "check_space",
    "confirm",
    "confirmation_long",
    "evaluate",
    "grid",
    "is_printable",
    "lineups",
    "load_study",
    "parse_objective",
    "parse_space",
    "play",
    "plot_trials",
    "recheck",
    "report_text",
    "snap",
    "space_table",
    "space_text",
    "trials_table",
    "tune",
]
