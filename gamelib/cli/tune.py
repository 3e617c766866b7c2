"""``gamelib tune`` and ``gamelib tune ladder``: their own parser, the search and the
confirmation up the ladder (guide: docs/guide/tune.md).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

from gamelib.cli.args import (
    CliError,
    OneLineParser,
    add_config_flags,
    config_from_args,
    path_arg,
)
from gamelib.core import Game, check_seed
from gamelib.registry import GAMES

# --- gamelib tune (issue 14) ---------------------------------------------------------------


class _TuneParser(OneLineParser):
    """A ``tune GAME`` parser: its ``--objective`` help comes from :mod:`gamelib.tune` (which
    imports pandas) only when the help is shown, so no other command pays that import."""

    def format_help(self) -> str:
        from gamelib.tune import OBJECTIVE_HELP, QUESTION_HELP

        for action in self._actions:
            if action.dest == "objective":
                action.help = OBJECTIVE_HELP
            if action.dest in ("goal", "constraint"):
                action.help = f"{action.help}: {QUESTION_HELP}"
        return super().format_help()


def add_tune_parser(
    sub: Any,
    reached: Callable[[str], bool] = lambda game: True,
    listed: Sequence[Game] | None = None,
) -> None:
    """``tune``, with a sub-command per game of ``listed`` (default: every game; the flags only
    for the games ``reached``)."""
    tun = sub.add_parser(
        "tune",
        help="search rule fields for a balance objective (Optuna), confirmed on fresh seeds",
        description="Each trial plays a rule set from --space on the same seed; the best ones "
        "and the original rules are then played on fresh seeds and reported with 95%% "
        "intervals (see gamelib.tune). With --goal it is the multi-fidelity search instead: "
        "a screen at the first --rung, successive halving up the others, verdicts as "
        "constraints, and a recommendation confirmed at --confirm-at on fresh deals against "
        "the original rules (see gamelib.tune.fidelity).",
    )
    games = tun.add_subparsers(dest="game", required=True, metavar="GAME", parser_class=_TuneParser)
    for game in GAMES.values() if listed is None else listed:
        g = games.add_parser(game.name, help=f"tune {game.name} rules")
        if not reached(game.name):
            continue
        g.add_argument("--setup", default=None, help=f"the base rules: {', '.join(game.setups)}")
        g.add_argument(
            "--space",
            action="append",
            nargs="+",
            required=True,
            metavar="FIELD=LO..HI|a,b,c",
            help="a field and its range (LO..HI[:STEP]) or choices (a,b,c; a tuple field's "
            "choices separated by ';'); FIELD[i] tunes one element of a tuple field",
        )
        g.add_argument(
            "--objective",
            action="append",
            metavar="TERM",
            help="a term of the objective",
        )
        g.add_argument(
            "--goal",
            default=None,
            metavar="QUESTION",
            help="the multi-fidelity search's goal, a verdict question (fair:0.05)",
        )
        g.add_argument(
            "--constraint",
            action="append",
            default=[],
            metavar="QUESTION",
            help="a verdict every recommended rule set must hold (repeat)",
        )
        g.add_argument(
            "--rung",
            action="append",
            default=[],
            metavar="LEVEL=GAMES[/WEAKER]",
            help="a rung of the ladder, cheapest first: the first screens, the others halve "
            "(WEAKER: the level skill is decided against)",
        )
        g.add_argument(
            "--confirm-at",
            default=None,
            metavar="LEVEL=GAMES[/WEAKER]",
            help="the top level, played on fresh deals against the original rules",
        )
        g.add_argument(
            "--compare-games",
            type=int,
            default=None,
            help="the paired comparison's budget at the top (default its games; 0: none)",
        )
        g.add_argument("--keep", type=int, default=9, help="rule sets promoted from the screen")
        g.add_argument("--eta", type=int, default=3, help="the halving factor (3)")
        g.add_argument("--finalists", type=int, default=1, help="rule sets confirmed (1)")
        g.add_argument("--alpha", type=float, default=0.05, help="a verdict's false holds")
        g.add_argument("--beta", type=float, default=0.05, help="a verdict's false fails")
        g.add_argument(
            "--continuous",
            action="store_true",
            help="allow ranges without a grid (values that cannot be printed)",
        )
        g.add_argument("--budget", type=int, required=True, help="trials to finish")
        g.add_argument("-n", "--games", type=int, default=None, help="deals per trial")
        g.add_argument(
            "--seed",
            type=int,
            default=None,
            help="0 ≤ SEED < 2**128 (default: drawn from the OS and printed first)",
        )
        g.add_argument(
            "--players",
            default="greedy",
            help="the line-up, comma-separated (one name fills every seat; default greedy)",
        )
        g.add_argument(
            "--storage", type=path_arg, default=None, help="journal folder; rerun resumes"
        )
        g.add_argument(
            "--confirm-games",
            type=int,
            default=None,
            help="fresh deals per confirmed rule set (default: a ±--precision interval)",
        )
        g.add_argument(
            "--precision", type=float, default=0.02, help="confirmation half-width (0.02)"
        )
        g.add_argument("--confirm-seed", type=int, default=None, help="default SEED + 1")
        g.add_argument("--top", type=int, default=3, help="best rule sets to confirm (3)")
        g.add_argument("--jobs", type=int, default=1, help="trials at once (1: reproducible)")
        g.add_argument("--workers", type=int, default=1, help="processes per simulation (1)")
        g.add_argument("--out", type=path_arg, default=None, help="save the report (.parquet)")
        g.add_argument("--no-progress", action="store_true", help="no progress bar")
        g.set_defaults(readers=add_config_flags(g, game.config_type, game.name), sweep=False)


def cmd_tune(args: argparse.Namespace) -> int:
    from gamelib.sim import check_output_path
    from gamelib.tune import parse_objective, parse_space, tune

    for flag, value in (("--alpha", args.alpha), ("--beta", args.beta)):
        if not 0 < value < 0.5:
            raise CliError(f"{flag} must lie between 0 and 0.5, got {value:g}")
    if args.goal is not None:
        return _cmd_tune_ladder(args)
    if not args.objective:
        raise CliError("give --objective TERM (or --goal QUESTION for the multi-fidelity search)")
    if args.games is None:
        raise CliError("-n/--games: give the deals per trial")
    check_seed(args.seed, "--seed")
    if args.confirm_seed is not None:
        check_seed(args.confirm_seed, "--confirm-seed")
    for flag, value in (
        ("--budget", args.budget),
        ("-n", args.games),
        ("--top", args.top),
        ("--jobs", args.jobs),
        ("--workers", args.workers),
    ):
        if value < 1:
            raise CliError(f"{flag} must be at least 1, got {value}")
    if args.confirm_games is not None and args.confirm_games < 1:
        raise CliError(f"--confirm-games must be at least 1, got {args.confirm_games}")
    if not 0 < args.precision < 0.5:
        raise CliError(f"--precision must lie between 0 and 0.5, got {args.precision}")
    if args.out is not None:
        check_output_path(args.out, "--out", ".parquet")
    config = config_from_args(args, infer_players=False)
    space = parse_space(args.game, [item for group in args.space for item in group])
    objective = parse_objective(args.objective)
    result = tune(
        config,
        space,
        objective,
        args.budget,
        args.seed,
        n_games=args.games,
        players=args.players,
        storage=args.storage,
        confirm_games=args.confirm_games,
        precision=args.precision,
        confirm_seed=args.confirm_seed,
        top=args.top,
        n_jobs=args.jobs,
        workers=args.workers,
        progress=not args.no_progress,
        printable=not args.continuous,
    )
    print(result.text)
    if args.out is not None:
        import pandas as pd

        report = result.report.drop(columns="config").assign(
            changes=[_changes(result.original, c) for c in result.report["config"]]
        )
        pd.DataFrame(report).to_parquet(args.out)
        print(f"report: {args.out}")
    if args.storage is not None:
        print(f"trials: {args.storage}/journal.log")
    return 0


def _cmd_tune_ladder(args: argparse.Namespace) -> int:
    """``gamelib tune GAME --goal …``: the multi-fidelity search, its summary printed."""
    from gamelib.tune import parse_space, search

    check_seed(args.seed, "--seed")
    if args.objective:
        raise CliError("--goal and --objective are two searches; give one")
    if not args.rung or args.confirm_at is None:
        raise CliError("--goal needs --rung LEVEL=GAMES (one or more) and --confirm-at")
    for flag, value in (
        ("--budget", args.budget),
        ("--keep", args.keep),
        ("--finalists", args.finalists),
        ("--jobs", args.jobs),
        ("--workers", args.workers),
    ):
        if value < 1:
            raise CliError(f"{flag} must be at least 1, got {value}")
    if args.eta < 2:
        raise CliError(f"--eta must be at least 2, got {args.eta}")
    config = config_from_args(args, infer_players=False)
    space = parse_space(args.game, [item for group in args.space for item in group])
    result = search(
        config,
        space,
        args.goal,
        args.constraint,
        args.rung,
        args.confirm_at,
        args.budget,
        args.seed,
        storage=args.storage,
        keep=args.keep,
        eta=args.eta,
        finalists=args.finalists,
        confirm_seed=args.confirm_seed,
        compare_games=args.compare_games,
        alpha=args.alpha,
        beta=args.beta,
        n_jobs=args.jobs,
        workers=args.workers,
        progress=not args.no_progress,
        printable=not args.continuous,
    )
    print(result.summary())
    if args.storage is not None:
        print(f"search: {args.storage}/ladder.json, games: {args.storage}/games.parquet")
    return 0


def _changes(original: Any, config: Any) -> str:
    from gamelib.tune import changed

    return changed(original, config)
