"""The command line: ``gamelib simulate GAME …``, ``gamelib sweep GAME …``,
``gamelib ladder GAME …``, ``gamelib tune GAME …``, ``gamelib replay FILE``, ``gamelib games``.

Every rule field of a game's config is a flag (``--top-layer surface``, ``--must-move one``,
``--straight-line true``, ``--forbidden-pile-size none``, ``--suit-sizes 13,13,13,9`` …).
Bad input gets one line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import types
import typing
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gamelib.core import GamelibError, GamelibWarning, OutputError, check_seed
from gamelib.registry import GAMES, get_game
from gamelib.version import __version__

if TYPE_CHECKING:  # pandas is imported only by the commands that make a table
    import pandas as pd

#: how simulate()'s messages name its parameters on the command line
FLAGS = {
    "seed": "--seed",
    "n_games": "-n",
    "workers": "--workers",
    "executor": "--scheduler",
    "records": "--records",
    "resume": "--resume",
    "cache": "--cache",
    "rotate_seats": "--rotate-seats",
    "engine": "--engine",
}


class CliError(GamelibError):
    """A command-line flag or value that cannot be used."""


def _bool(text: str) -> bool:
    low = text.strip().lower()
    if low in ("true", "yes", "1", "on"):
        return True
    if low in ("false", "no", "0", "off"):
        return False
    raise ValueError(f"{text!r} is not true or false")


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a whole number") from None


def _float(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number") from None


class _OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (and the exit status 2), not a usage dump."""

    def error(self, message: str) -> typing.NoReturn:
        self.exit(2, f"gamelib: error: {message} (see {self.prog} --help)\n")


def _parser_for(hint: Any) -> Callable[[str], Any]:
    """How to read a flag's text for a config field of type ``hint``."""
    args = typing.get_args(hint)
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        inner = _parser_for(next(a for a in args if a is not type(None)))
        return lambda text: None if text.strip().lower() in ("none", "") else inner(text)
    if origin is tuple:
        item = _parser_for(args[0])
        return lambda text: tuple(item(x) for x in text.split(","))
    if hint is bool:
        return _bool
    if hint is int:
        return _int
    if hint is float:
        return _float
    return str


def _load_amulets(text: str) -> tuple[int, ...]:
    from gamelib.gargon import load_amulets

    return load_amulets(text)


def _load_patterns(text: str, strand_length: int = 5) -> tuple[tuple[str, ...], ...]:
    from gamelib.deck_the_yard import load_patterns

    return load_patterns(text, strand_length)


#: rule fields whose value is a table: the flag takes a file (CSV) path
FILE_FIELDS: dict[tuple[str, str], tuple[Callable[[str], Any], str]] = {
    ("gargon", "amulets"): (_load_amulets, "a CSV file with columns value,amulets"),
    ("deck_the_yard", "patterns"): (_load_patterns, "a CSV file, one pattern a row"),
}


def _file_reader(load: Callable[..., Any], inline: Callable[[str], Any]) -> Callable[..., Any]:
    """A path to a file is loaded; anything else is read as the value itself.  ``context``:
    the other rule fields the file is checked against (a pattern file against the strand
    length the flags or the setup give)."""

    def read(text: str, **context: Any) -> Any:
        if os.path.exists(text) or text.lower().endswith(".csv"):
            try:
                return load(text, **context)
            except GamelibError as exc:
                raise ValueError(str(exc)) from None
        return inline(text)

    return read


def _no_inline(text: str) -> Any:
    raise ValueError(f"{text!r} is not a file; give the path of a CSV file")


def _add_config_flags(
    parser: argparse.ArgumentParser, config_type: type, game_name: str
) -> dict[str, Any]:
    hints = typing.get_type_hints(config_type)
    readers = {}
    group = parser.add_argument_group("rule fields (override the setup)")
    for f in dataclasses.fields(config_type):
        if f.name == "setup":
            continue
        flag = "--" + f.name.replace("_", "-")
        reader = _parser_for(hints[f.name])
        choices = typing.get_args(hints[f.name]) if typing.get_origin(hints[f.name]) else ()
        shown = "|".join(map(str, choices)) if all(isinstance(c, str) for c in choices) else ""
        default = f"default {f.default!r}"
        if (game_name, f.name) in FILE_FIELDS:
            load, what = FILE_FIELDS[(game_name, f.name)]
            nested = typing.get_origin(typing.get_args(hints[f.name])[0]) is tuple
            reader = _file_reader(load, _no_inline if nested else reader)
            shown = "FILE" if nested else "FILE|VALUES"
            default = f"{what}{'' if nested else ', or the values comma-separated'}"
        elif f.name == "n_players":
            default += "; without --setup, the number of names in --players"
        readers[f.name] = reader
        group.add_argument(
            flag,
            dest=f"cfg_{f.name}",
            metavar=shown or "VALUE",
            default=None,
            help=default,
        )
    return readers


def _add_run_flags(g: argparse.ArgumentParser, game: Any, *, sweep: bool) -> None:
    what = "one or more setups, comma-separated" if sweep else "one of"
    g.add_argument("--setup", default=None, help=f"{what}: {', '.join(game.setups)}")
    g.add_argument(
        "--players",
        required=True,
        help="comma-separated, one per seat (a single name fills every seat)"
        + ("; line-ups separated by ';'" if sweep else "")
        + (
            "; without --setup or --n-players, the number of names sets the player count"
            if "n_players" in {f.name for f in dataclasses.fields(game.config_type)}
            else ""
        ),
    )
    g.add_argument("-n", "--games", type=int, required=True, help="how many games (deals)")
    g.add_argument("--seed", type=int, required=True, help="0 ≤ SEED < 2**128")
    g.add_argument(
        "--workers",
        type=int,
        default=None,
        help="local processes (default: every core; never more than the cores or the chunks "
        "of work, and a note says so)",
    )
    g.add_argument("--scheduler", default=None, help="Dask scheduler address tcp://HOST:PORT")
    g.add_argument("--rotate-seats", action="store_true", help="play each deal in every seat")
    g.add_argument("--out", type=Path, default=None, help="save the table (.parquet)")
    if not sweep:
        g.add_argument("--records", type=Path, default=None, help="write game records (.jsonl)")
    g.add_argument("--no-progress", action="store_true", help="no progress bar")
    g.add_argument(
        "--resume",
        type=Path,
        default=None,
        help="folder for finished chunks (default with --out: OUT.parts); rerun to resume",
    )
    g.add_argument("--cache", action="store_true", help="reuse an identical earlier run")
    g.add_argument(
        "--engine",
        choices=["auto", "compiled", "python"],
        default="auto",
        help="auto (default): compiled core when every player has a compiled version; "
        "python: the reference engine (slower, other tie-breaks)",
    )
    g.add_argument(
        "--columns",
        default=None,
        help="outcome columns to keep in --out (comma-separated; provenance is always kept)",
    )
    g.set_defaults(readers=_add_config_flags(g, game.config_type, game.name), sweep=sweep)


def _add_ladder_flags(g: argparse.ArgumentParser, game: Any) -> None:
    g.add_argument("--setup", default=None, help=f"one of: {', '.join(game.setups)}")
    g.add_argument(
        "--players",
        required=True,
        help="the levels, comma-separated, weakest first (e.g. random,greedy); at least two "
        "for a game with opponents",
    )
    g.add_argument("-n", "--games", type=int, required=True, help="deals per pairing")
    g.add_argument("--seed", type=int, required=True, help="0 ≤ SEED < 2**128")
    g.add_argument(
        "--workers",
        type=int,
        default=None,
        help="local processes (default: every core; never more than the cores)",
    )
    g.add_argument("--scheduler", default=None, help="Dask scheduler address tcp://HOST:PORT")
    g.add_argument("--out", type=Path, default=None, help="save the table (.parquet)")
    g.add_argument("--no-progress", action="store_true", help="no progress bars")
    g.add_argument(
        "--resume",
        type=Path,
        default=None,
        help="folder for finished chunks (default with --out: OUT.parts); rerun to resume",
    )
    g.add_argument(
        "--no-self-play",
        action="store_true",
        help="skip the tables of one level against copies of itself (seat 0 per level)",
    )
    g.add_argument(
        "--columns",
        default=None,
        help="outcome columns to keep in --out (comma-separated; provenance, the ladder's "
        "labels and the seats' players are always kept)",
    )
    g.set_defaults(readers=_add_config_flags(g, game.config_type, game.name), sweep=False)


def _add_verdict_flags(g: argparse.ArgumentParser, game: Any, report: bool = False) -> None:
    g.add_argument("--setup", default=None, help=f"one of: {', '.join(game.setups)}")
    g.add_argument(
        "--players",
        required=True,
        help="the levels, comma-separated, weakest first (e.g. random,greedy,mcts:200)",
    )
    g.add_argument(
        "--question",
        action="append",
        choices=["fair", "skill", "target", "stalls", "length"],
        default=None,
        help="a question to decide (repeat for several); default: fair and stalls (target "
        "with --target for a solitaire), and skill with two levels or more",
    )
    g.add_argument(
        "--margin",
        type=float,
        default=None,
        help="δ: fair within ±δ of the fair share (default 0.03), skill by at least δ "
        "(default 0.03), target within ±δ (default 0.05)",
    )
    g.add_argument("--target", type=float, default=None, help="target win rate (solitaire)")
    g.add_argument("--ceiling", type=float, default=0.05, help="stall ceiling (default 0.05)")
    g.add_argument("--turns", default=None, help="LO,HI: the median length's range in turns")
    g.add_argument("--alpha", type=float, default=0.05, help="false 'holds' rate (0.05)")
    g.add_argument("--beta", type=float, default=0.05, help="false 'fails' rate (0.05)")
    g.add_argument(
        "--max-games", type=int, default=20_000, help="game budget per level or pair (20000)"
    )
    g.add_argument("--seed", type=int, required=True, help="0 ≤ SEED < 2**128")
    g.add_argument("--workers", type=int, default=None, help="local processes (default: all)")
    g.add_argument("--scheduler", default=None, help="Dask scheduler address tcp://HOST:PORT")
    g.add_argument(
        "--resume",
        type=Path,
        default=None,
        help="folder that keeps finished deals; rerun to resume",
    )
    if report:
        g.add_argument("--out", type=Path, required=True, help="the report, an .html file")
    else:
        g.add_argument("--json", type=Path, default=None, help="write the decisions as JSON")
        g.add_argument(
            "--table",
            type=Path,
            default=None,
            help="store every game played (.parquet, with provenance and this command): "
            "gamelib.verdict.redecide(FILE) decides the same table from it",
        )
    g.add_argument("--no-progress", action="store_true", help="no progress bar")
    g.set_defaults(readers=_add_config_flags(g, game.config_type, game.name), sweep=False)


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of the whole command line."""
    parser = _OneLineParser(prog="gamelib", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"gamelib {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    sim = sub.add_parser("simulate", help="play many seeded games into a results table")
    games = sim.add_subparsers(dest="game", required=True, metavar="GAME")
    for game in GAMES.values():
        g = games.add_parser(game.name, help=f"simulate {game.name}")
        _add_run_flags(g, game, sweep=False)

    swp = sub.add_parser(
        "sweep",
        help="simulate every combination of rule values on common seeds",
        description="Rule flags take alternatives separated by commas (tuple fields such as "
        "--suit-sizes by semicolons); --players takes line-ups separated by semicolons.",
    )
    games = swp.add_subparsers(dest="game", required=True, metavar="GAME")
    for game in GAMES.values():
        g = games.add_parser(game.name, help=f"sweep {game.name} rule variants")
        _add_run_flags(g, game, sweep=True)

    lad = sub.add_parser(
        "ladder",
        help="play every pairing of player levels on common deals: matrix, seat 0, ratings",
        description="Every pair of levels on the same deals, every seat arrangement; prints the "
        "matchup matrix and the first player's rate with 95%% intervals clustered by deal, and "
        "openskill ratings (see gamelib.ladder).",
    )
    games = lad.add_subparsers(dest="game", required=True, metavar="GAME")
    for game in GAMES.values():
        g = games.add_parser(game.name, help=f"a skill ladder of {game.name} players")
        _add_ladder_flags(g, game)

    _add_tune_parser(sub)

    ver = sub.add_parser(
        "verdict",
        help="decide balance questions (fair, skill, target, stalls, length) with error rates",
        description="Plays deals in batches until each question is decided: holds, fails, or "
        "undecided at the budget. alpha: the chance of calling unfair rules fair; beta: of "
        "calling fair rules unfair (see docs/guide/verdicts.md).",
    )
    games = ver.add_subparsers(dest="game", required=True, metavar="GAME")
    for game in GAMES.values():
        g = games.add_parser(game.name, help=f"balance verdicts for {game.name}")
        _add_verdict_flags(g, game)

    rpt = sub.add_parser(
        "report",
        help="decide the verdicts and write a balance report a designer can send (HTML)",
        description="Decides the verdicts as 'gamelib verdict' does, then renders the report "
        "notebook (papermill) to one HTML file without code: the verdict table across the "
        "ladder, charts with intervals, game lengths and margins, and how to reproduce it.",
    )
    games = rpt.add_subparsers(dest="game", required=True, metavar="GAME")
    for game in GAMES.values():
        g = games.add_parser(game.name, help=f"a balance report for {game.name}")
        _add_verdict_flags(g, game, report=True)

    cmp = sub.add_parser(
        "compare",
        help="what a rule change does: the same deals under both rules, decided with error rates",
        description="Plays every deal under the rules the flags give (the base) and under "
        "the same rules with --variant's changes, by the same players, until each question "
        "is decided: effect (holds: no effect within ±margin; fails: a decided effect), changes "
        "(the winner changes in fewer than --ceiling of games) and, with two levels or more, "
        "depends (the effect is the same at each level). See docs/guide/verdicts.md.",
    )
    games = cmp.add_subparsers(dest="game", required=True, metavar="GAME")
    for game in GAMES.values():
        g = games.add_parser(game.name, help=f"compare two {game.name} rule sets")
        _add_compare_flags(g, game)

    rep = sub.add_parser("replay", help="check every record in a .jsonl file move by move")
    rep.add_argument("file", type=Path)

    sub.add_parser("games", help="list the games, their setups, players and rule fields")
    _name_guide_pages(sub)
    return parser


#: each command's page of the documentation site (``docs/guide/PAGE.md``), named by its --help
GUIDE_PAGES = {
    "simulate": "simulate",
    "sweep": "simulate",
    "replay": "simulate",
    "ladder": "ladder",
    "tune": "tune",
    "verdict": "verdicts",
    "compare": "verdicts",
    "report": "report",
}


def _name_guide_pages(sub: argparse._SubParsersAction[Any]) -> None:
    """End the --help of each command (and of each of its games) with its guide page."""
    for command, page in GUIDE_PAGES.items():
        parser = sub.choices[command]
        parsers = [parser]
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                parsers += action.choices.values()
        for p in parsers:
            p.epilog = (
                f"guide: docs/guide/{page}.md (the site, built by make docs: "
                f"docs/_build/html/guide/{page}.html)"
            )


def _config_from_args(args: argparse.Namespace, infer_players: bool = True) -> Any:
    """The config from --setup and the rule flags; a Gargon-like game without --setup or
    --n-players takes its player count from the names in --players (unless not
    ``infer_players``: a ladder's names are levels, not seats)."""
    game = get_game(args.game)
    overrides: dict[str, Any] = {}
    # plain fields first: a file-valued field is checked against them (a pattern file against
    # --strand-length, or against the setup's strand when that flag is not given)
    order = sorted(args.readers, key=lambda n: (args.game, n) in FILE_FIELDS)
    for name in order:
        reader = args.readers[name]
        text = getattr(args, f"cfg_{name}")
        if text is None:
            continue
        context = {}
        if (args.game, name) == ("deck_the_yard", "patterns"):
            base = game.config(args.setup) if args.setup else game.config(None)
            context["strand_length"] = overrides.get("strand_length", base.strand_length)
        try:
            overrides[name] = reader(text, **context)
        except ValueError as exc:
            raise CliError(f"--{name.replace('_', '-')}: {exc}") from None
    names = _names(args.players)
    fields = {f.name for f in dataclasses.fields(game.config_type)}
    if (
        infer_players
        and "n_players" in fields
        and "n_players" not in overrides
        and not args.setup
        and len(names) > 1
    ):
        overrides["n_players"] = len(names)
    return game.config(args.setup, **overrides) if args.setup else game.config(None, **overrides)


def _names(text: str) -> list[str]:
    return [p.strip() for p in text.split(",") if p.strip()]


def _grid_from_args(args: argparse.Namespace) -> dict[str, list[Any]]:
    grid: dict[str, list[Any]] = {}
    if args.setup:
        grid["setup"] = [x.strip() for x in args.setup.split(",") if x.strip()]
    game = get_game(args.game)
    hints = typing.get_type_hints(game.config_type)
    for name in sorted(args.readers, key=lambda n: (args.game, n) in FILE_FIELDS):
        reader = args.readers[name]
        text = getattr(args, f"cfg_{name}")
        if text is None:
            continue
        is_tuple = tuple in (
            typing.get_origin(hints[name]),
            *map(typing.get_origin, typing.get_args(hints[name])),
        )
        alternatives = text.split(";") if is_tuple else text.split(",")
        context = {}
        if (args.game, name) == ("deck_the_yard", "patterns"):
            lengths = grid.get("strand_length")
            if lengths is not None and len(lengths) > 1:
                raise CliError(
                    "--patterns: a pattern file fits one strand length; give --strand-length "
                    "a single value when sweeping pattern files"
                )
            base = game.config(grid["setup"][0] if "setup" in grid else None)
            context["strand_length"] = lengths[0] if lengths else base.strand_length
        try:
            grid[name] = [reader(x, **context) for x in alternatives]
        except ValueError as exc:
            raise CliError(f"--{name.replace('_', '-')}: {exc}") from None
    return grid


def _check_run_args(args: argparse.Namespace) -> None:
    """Everything about a run that can be checked before the first game."""
    from gamelib.sim import check_output_path, check_scheduler_address

    if args.games < 1:
        raise CliError(f"-n must be at least 1, got {args.games}")
    check_seed(args.seed, "--seed")
    if args.workers is not None and args.workers < 1:
        raise CliError(f"--workers must be at least 1, got {args.workers}")
    if args.out is not None:
        check_output_path(args.out, "--out", ".parquet")
    records = getattr(args, "records", None)
    if records is not None:
        check_output_path(records, "--records", ".jsonl")
        if records.exists():
            raise OutputError(
                f"--records {records} exists; records are never appended to an old file "
                "(delete it or choose another name)"
            )
    if args.out is not None and records is not None and args.out.resolve() == records.resolve():
        raise CliError("--out and --records name the same file")
    if args.resume is not None:
        for flag, path in (("--out", args.out), ("--records", records)):
            if path is not None and path.resolve() == args.resume.resolve():
                raise CliError(f"--resume {args.resume} is the {flag} file; give another folder")
    if args.scheduler is not None:
        check_scheduler_address(args.scheduler, "--scheduler")
        if args.workers is not None:
            raise CliError("--workers and --scheduler exclude each other (the cluster has its own)")
    if args.columns is not None and args.out is None:
        raise CliError("--columns chooses what --out keeps; give --out too")


def _check_columns(args: argparse.Namespace, known: list[str]) -> None:
    """Refuse unknown --columns before the run (``known``: the columns the run makes, from one
    game; see ``gamelib.sim.result_columns``)."""
    from gamelib.sim import check_columns

    if args.columns is None:
        return
    wanted = [c.strip() for c in args.columns.split(",") if c.strip()]
    if not wanted:
        raise CliError("--columns is empty; name the outcome columns to keep")
    check_columns(known, wanted, "--columns")


def _slimmed(table: pd.DataFrame, columns: str | None) -> pd.DataFrame:
    from gamelib.sim import slim

    if columns is None:
        return table
    return slim(table, [c.strip() for c in columns.split(",") if c.strip()])


def _resume_folder(args: argparse.Namespace) -> Path | None:
    """--resume, or OUT.parts next to --out, so rerunning the same command resumes."""
    if args.resume is None and args.out is not None:
        return Path(args.out.with_name(args.out.name + ".parts"))
    return Path(args.resume) if args.resume is not None else None


def _seats(text: str, config: Any) -> list[str]:
    """Players by seat from ``a,b,c``; a single name fills every seat."""
    from gamelib.sim import n_seats

    players = _names(text)
    if not players:
        raise CliError(f"--players {text!r} names no player; e.g. --players random,greedy")
    if len(players) == 1:
        players *= n_seats(config)
    return players


def _cmd_sweep(args: argparse.Namespace) -> int:
    from gamelib.sim import clear_resume, result_columns, save, sweep

    _check_run_args(args)
    grid = _grid_from_args(args)
    if not grid:
        raise CliError("give at least one rule flag or --setup with the values to sweep")
    lineups = [_names(lu) for lu in args.players.split(";")]
    if not all(lineups):
        raise CliError(f"--players {args.players!r} has an empty line-up")
    fields = {f.name for f in dataclasses.fields(get_game(args.game).config_type)}
    sizes = {len(lu) for lu in lineups}
    inferred = "n_players" in fields and "n_players" not in grid and "setup" not in grid
    if inferred and len(sizes) == 1 and min(sizes) > 1:  # the player count follows the line-ups
        grid = {"n_players": [min(sizes)], **grid}
    if args.columns is not None:
        game = get_game(args.game)
        # a column is known when some setup of the sweep makes it (5-player seats in a 3p-5p
        # sweep); checked on one game per setup and line-up
        first = {k: v[0] for k, v in grid.items() if k != "setup"}
        known: list[str] = []
        for setup in grid.get("setup", [None]):
            config = game.config(setup, **first) if setup else game.config(None, **first)
            for lineup in lineups:
                seated = _seats(",".join(lineup), config)
                known += [c for c in result_columns(config, seated) if c not in known]
        _check_columns(args, known)

    resume = _resume_folder(args)
    table = sweep(
        args.game,
        grid,
        lineups if len(lineups) > 1 else lineups[0],
        args.games,
        args.seed,
        workers=args.workers,
        executor=args.scheduler,
        rotate_seats=args.rotate_seats,
        progress=not args.no_progress,
        resume=resume,
        cache=args.cache,
        keep_resume=True,
        engine=args.engine,
        _names=FLAGS,
    )
    if args.out is not None:
        save(_slimmed(table, args.columns), args.out)
    if resume is not None:
        clear_resume(resume)  # only once the table is safely saved
    from gamelib.stats import game_metrics  # scipy and statsmodels: only once there is a table

    keys = [k for k in grid if k != "setup"]
    keys = (["setup"] if "setup" in grid else []) + keys
    if len(lineups) > 1:
        keys += [c for c in table.columns if c.startswith("player_")]
    metrics = game_metrics(table, by=keys)
    cols = [*keys, "games", "win_rate_0", "lo_0", "hi_0", "draw_rate", "duration_mean"]
    import pandas as pd

    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(metrics[cols].round(3).to_string(index=False))
    if args.out is not None:
        print(f"table: {args.out}")
    return 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    from gamelib.sim import clear_resume, result_columns, save, simulate, simulate_to

    _check_run_args(args)
    config = _config_from_args(args)
    players = _seats(args.players, config)
    _check_columns(args, result_columns(config, players) if args.columns else [])
    resume = _resume_folder(args)
    run = {
        "workers": args.workers,
        "executor": args.scheduler,
        "rotate_seats": args.rotate_seats,
        "progress": not args.no_progress,
        "records": args.records,
        "resume": resume,
        "keep_resume": True,
        "engine": args.engine,
        "_names": FLAGS,
    }
    if args.out is not None and resume is not None and not args.cache:
        # written chunk by chunk from the resume folder: memory does not grow with -n
        columns = [c.strip() for c in args.columns.split(",")] if args.columns else None
        table = simulate_to(
            args.out, config, players, args.games, args.seed, columns=columns, **run
        )
    else:
        table = simulate(config, players, args.games, args.seed, cache=args.cache, **run)
        if args.out is not None:
            save(_slimmed(table, args.columns), args.out)
    if resume is not None:
        clear_resume(resume)  # only once the table is safely saved
    from gamelib.stats import win_rates  # scipy and statsmodels: only once there is a table

    rates = win_rates(table, by="player")
    seats = win_rates(table, by="seat")
    label = args.setup or getattr(config, "setup", None) or "default rules"
    n_players = getattr(config, "n_players", None)
    if not args.setup and n_players is not None:
        label = f"{n_players} players"
    print(f"{args.game} ({label}), {len(table)} games")
    for _, r in rates.iterrows():
        print(
            f"  {r['player']:<12} wins {r['win_rate']:.3f}  95% CI [{r['lo']:.3f}, {r['hi']:.3f}]"
            f"  ({r['wins']}/{r['games']})"
        )
    d, lo, hi = rates.attrs["draw_rate"]
    if len(seats) > 1:
        for _, r in seats.iterrows():
            print(
                f"  seat {int(r['seat']):<7} wins {r['win_rate']:.3f}  "
                f"95% CI [{r['lo']:.3f}, {r['hi']:.3f}]"
            )
        print(f"  no sole win  {d:.3f}  95% CI [{lo:.3f}, {hi:.3f}]  (draws and shared wins)")
    print(f"  mean turns   {table['turns'].mean():.1f}")
    if args.out is not None:
        print(f"table: {args.out}")
    if args.records is not None:
        print(f"records: {args.records}")
    return 0


def _verdict_questions(args: argparse.Namespace, seats: int, levels: int) -> list[Any]:
    """The Question objects the flags ask for."""
    from gamelib.verdict import Fair, Length, Skill, Stalls, Target

    asked = args.question
    if asked is None:
        asked = ["fair", "stalls"] if seats > 1 else ["stalls"]
        if seats == 1 and args.target is not None:
            asked.insert(0, "target")
        if levels > 1:
            asked.append("skill")
    out: list[Any] = []
    try:
        for q in dict.fromkeys(asked):
            if q == "fair":
                out.append(Fair(args.margin if args.margin is not None else 0.03))
            elif q == "skill":
                out.append(Skill(args.margin if args.margin is not None else 0.03))
            elif q == "stalls":
                out.append(Stalls(args.ceiling))
            elif q == "target":
                if args.target is None:
                    raise CliError("--question target needs --target RATE (e.g. --target 0.30)")
                out.append(Target(args.target, args.margin if args.margin is not None else 0.05))
            elif q == "length":
                if args.turns is None:
                    raise CliError("--question length needs --turns LO,HI (e.g. --turns 20,60)")
                try:
                    lo, hi = (int(x) for x in args.turns.split(","))
                except ValueError:
                    raise CliError(
                        f"--turns {args.turns!r}: give two whole numbers LO,HI"
                    ) from None
                out.append(Length(lo, hi))
    except ValueError as exc:
        if isinstance(exc, CliError):
            raise
        raise CliError(f"--question: {exc}") from None
    return out


def _verdict_call(args: argparse.Namespace, out: tuple[str, str]) -> dict[str, Any]:
    """What ``verdict`` and ``report`` share: the rules, levels and questions from the flags,
    every argument checked before any game, as keyword arguments of
    :func:`gamelib.verdict.verdict` (``out``: the output flag and its suffix)."""
    from gamelib.sim import check_output_path, check_scheduler_address, n_seats

    config = _config_from_args(args, infer_players=False)
    levels = _names(args.players)
    if not levels:
        raise CliError(f"--players {args.players!r} names no player; e.g. --players greedy")
    flag, suffix = out
    path = getattr(args, flag.lstrip("-"))
    if path is not None:
        check_output_path(path, flag, suffix)
    if args.scheduler is not None:
        check_scheduler_address(args.scheduler, "--scheduler")
    return {
        "config": config,
        "levels": levels,
        "questions": _verdict_questions(args, n_seats(config), len(levels)),
        "alpha": args.alpha,
        "beta": args.beta,
        "max_games": args.max_games,
        "seed": args.seed,
        "workers": args.workers,
        "executor": args.scheduler,
        "resume": args.resume,
        "progress": not args.no_progress,
        "_names": {
            **FLAGS,
            "max_games": "--max-games",
            "alpha": "--alpha",
            "beta": "--beta",
            flag.lstrip("-"): flag,
        },
    }


def _cmd_verdict(args: argparse.Namespace) -> int:
    import json
    import shlex

    from gamelib.verdict import format_verdicts, verdict

    call = _verdict_call(args, ("--json", ".json"))
    config = call["config"]
    if args.table is not None:
        call["out"] = args.table
        call["command"] = shlex.join(["gamelib", *args.argv])
        call["_names"] = {**call["_names"], "out": "--table"}
    table = verdict(**call)
    label = args.setup or getattr(config, "setup", None) or "default rules"
    n_players = getattr(config, "n_players", None)
    if not args.setup and n_players is not None:
        label = f"{n_players} players"
    print(
        f"{args.game} ({label}): verdicts at alpha {args.alpha:g} (false holds), "
        f"beta {args.beta:g} (false fails), seed {args.seed}"
    )
    print(format_verdicts(table))
    if args.json is not None:
        rows = json.loads(table.to_json(orient="records"))
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
        print(f"json: {args.json}")
    if args.table is not None:
        print(f"games: {args.table}")
    return 0


def _cmd_report(args: argparse.Namespace) -> int:
    import shlex

    from gamelib.report import report

    call = _verdict_call(args, ("--out", ".html"))
    argv = list(args.argv) if getattr(args, "argv", None) is not None else sys.argv[1:]
    path = report(**call, out=args.out, command=shlex.join(["gamelib", *argv]))
    print(f"report: {path}")
    return 0


def _add_compare_flags(g: argparse.ArgumentParser, game: Any) -> None:
    g.add_argument("--setup", default=None, help=f"one of: {', '.join(game.setups)}")
    g.add_argument(
        "--variant",
        action="append",
        required=True,
        metavar="FIELD=VALUE",
        help="a rule of the variant that differs from the base (repeat for several), written as "
        "its flag takes it, e.g. --variant zero-multiplier=1",
    )
    g.add_argument(
        "--players",
        required=True,
        help="the levels, comma-separated, weakest first; a level is one player (every seat) "
        "or a line-up joined by '+', a seat repeated with '*K' (greedy+greedy:ignore*3)",
    )
    g.add_argument(
        "--question",
        action="append",
        default=None,
        metavar="Q[:MEASURE]",
        help="effect[:MEASURE], changes or depends[:MEASURE] (repeat for several); MEASURE: "
        "win, stall, seat:S, level:NAME, level:* (each line-up's first player) or "
        "column:NAME:LO:HI; default: effect and changes (a solitaire: effect on win), and "
        "depends with two levels or more",
    )
    g.add_argument("--margin", type=float, default=0.03, help="δ of effect and depends (0.03)")
    g.add_argument("--ceiling", type=float, default=0.05, help="ceiling of changes (0.05)")
    g.add_argument("--alpha", type=float, default=0.05, help="false 'holds' rate (0.05)")
    g.add_argument("--beta", type=float, default=0.05, help="false 'fails' rate (0.05)")
    g.add_argument(
        "--max-games", type=int, default=20_000, help="game budget per rule set and level (20000)"
    )
    g.add_argument("--seed", type=int, required=True, help="0 ≤ SEED < 2**128")
    g.add_argument("--workers", type=int, default=None, help="local processes (default: all)")
    g.add_argument("--scheduler", default=None, help="Dask scheduler address tcp://HOST:PORT")
    g.add_argument(
        "--resume",
        type=Path,
        default=None,
        help="folder that keeps finished deals; rerun to resume",
    )
    g.add_argument("--json", type=Path, default=None, help="write the decisions as JSON")
    g.add_argument("--no-progress", action="store_true", help="no progress bar")
    g.set_defaults(readers=_add_config_flags(g, game.config_type, game.name), sweep=False)


def _compare_levels(text: str, seats: int) -> list[Any]:
    """--players: levels split at commas; a line-up's seats at '+', 'NAME*K' repeating one."""
    levels: list[Any] = []
    for level in _names(text):
        if "+" not in level and "*" not in level:
            levels.append(level)
            continue
        lineup: list[str] = []
        for part in level.split("+"):
            name, star, k = part.strip().rpartition("*") if "*" in part else (part, "", "")
            if star and not k.isdigit():
                raise CliError(f"--players: {part!r}: write a repeated seat as NAME*K (K ≥ 1)")
            lineup += [name.strip()] * (int(k) if star else 1)
        if len(lineup) != seats:
            raise CliError(
                f"--players: the line-up {level!r} names {len(lineup)} seats; the game has {seats}"
            )
        levels.append(lineup)
    return levels


def _compare_questions(args: argparse.Namespace, seats: int, levels: int) -> list[Any]:
    from gamelib.verdict.compare import Changes, Depends, Effect

    asked = args.question
    if asked is None:
        asked = ["effect"] + (["changes"] if seats > 1 else [])
        asked += ["depends"] if levels > 1 else []
    out: list[Any] = []
    for q in dict.fromkeys(asked):
        kind, _, measure = q.partition(":")
        measure = measure or ("win" if seats == 1 else "seat:0")
        try:
            if kind == "effect":
                out.append(Effect(measure, args.margin))
            elif kind == "depends":
                out.append(Depends(measure, args.margin))
            elif kind == "changes":
                out.append(Changes(args.ceiling))
            else:
                raise CliError(f"--question {q!r}: ask effect[:MEASURE], changes or depends")
        except ValueError as exc:
            if isinstance(exc, CliError):
                raise
            raise CliError(f"--question {q!r}: {exc}") from None
    return out


def _cmd_compare(args: argparse.Namespace) -> int:
    import json

    from gamelib.core import replace_config
    from gamelib.sim import check_output_path, check_scheduler_address, n_seats
    from gamelib.verdict.compare import compare, format_comparison

    base = _config_from_args(args, infer_players=False)
    changes: dict[str, Any] = {}
    for item in args.variant:
        field, eq, text = item.partition("=")
        field = field.strip().lstrip("-").replace("-", "_")
        if not eq or field not in args.readers:
            raise CliError(
                f"--variant {item!r}: write FIELD=VALUE with a rule field of {args.game} "
                f"({', '.join(f.replace('_', '-') for f in sorted(args.readers))})"
            )
        try:
            changes[field] = args.readers[field](text.strip())
        except ValueError as exc:
            raise CliError(f"--variant {item!r}: {exc}") from None
    variant = replace_config(base, **changes)
    seats = n_seats(base)
    levels = _compare_levels(args.players, seats)
    if not levels:
        raise CliError(f"--players {args.players!r} names no player; e.g. --players greedy")
    if args.json is not None:
        check_output_path(args.json, "--json", ".json")
    if args.scheduler is not None:
        check_scheduler_address(args.scheduler, "--scheduler")
    table = compare(
        base,
        variant,
        levels,
        _compare_questions(args, seats, len(levels)),
        alpha=args.alpha,
        beta=args.beta,
        max_games=args.max_games,
        seed=args.seed,
        workers=args.workers,
        executor=args.scheduler,
        resume=args.resume,
        progress=not args.no_progress,
    )
    print(
        f"{args.game}: {table.attrs['compare']['change']} against the base rules, "
        f"alpha {args.alpha:g} (false holds), beta {args.beta:g} (false fails), seed {args.seed}"
    )
    print(format_comparison(table))
    if args.json is not None:
        rows = json.loads(table.to_json(orient="records"))
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
        print(f"json: {args.json}")
    return 0


def _cmd_ladder(args: argparse.Namespace) -> int:
    from gamelib.ladder import ladder_plan, matchups
    from gamelib.sim import clear_resume, n_seats, result_columns, save

    _check_run_args(args)
    config = _config_from_args(args, infer_players=False)
    levels = _names(args.players)
    if not levels:
        raise CliError(f"--players {args.players!r} names no player; e.g. --players random,greedy")
    try:
        ladder_plan(config, levels, not args.no_self_play)
    except GamelibError as exc:
        raise CliError(f"--players: {exc}") from None
    if args.columns:  # every run makes the same columns: one game of the first level tells
        _check_columns(args, result_columns(config, [levels[0]] * n_seats(config)))
    resume = _resume_folder(args)
    table = matchups(
        config,
        levels,
        args.games,
        args.seed,
        workers=args.workers,
        executor=args.scheduler,
        progress=not args.no_progress,
        resume=resume,
        self_play=not args.no_self_play,
        keep_resume=True,
        _names=FLAGS,
    )
    if args.out is not None:
        save(_slimmed(table, args.columns), args.out)
    if resume is not None:
        clear_resume(resume)  # only once the table is safely saved
    label = args.setup or getattr(config, "setup", None) or "default rules"
    n_players = getattr(config, "n_players", None)
    if not args.setup and n_players is not None:
        label = f"{n_players} players"
    print(
        f"{args.game} ({label}), a ladder of {len(levels)} levels: {len(table)} games on "
        f"{args.games} deals"
    )
    print(_ladder_report(table))
    if args.out is not None:
        print(f"table: {args.out}")
    return 0


def _ladder_report(table: pd.DataFrame) -> str:
    """What `gamelib ladder` prints: the matrix, seat 0's rates and the ratings (or, for a
    solitaire game, win and blackout rates per level)."""
    from gamelib.ladder import first_player, format_matrix, matrix, ratings, solitaire_table

    info = table.attrs["provenance"]["ladder"]
    out: list[str] = []
    cheats = info.get("cheating", [])
    if info["design"] == "solo":
        out.append("win and blackout rates per level, 95% CI; gain: win rate minus the level")
        out.append("before it, on the same shuffles")
        for r in solitaire_table(table).to_dict("records"):
            gain = (
                ""
                if r["gain"] != r["gain"]  # NaN: the first level
                else f"  gain {r['gain']:+.3f} [{r['gain_lo']:+.3f}, {r['gain_hi']:+.3f}]"
            )
            name = str(r["level"]) + (" *" if r["cheating"] else "")
            out.append(
                f"  {name:<16} wins {r['win_rate']:.3f} [{r['lo']:.3f}, {r['hi']:.3f}]  "
                f"blackout {r['blackout_rate']:.3f} [{r['blackout_lo']:.3f}, "
                f"{r['blackout_hi']:.3f}]{gain}"
            )
    else:
        m = matrix(table)
        fair = m.attrs["fair"]
        if info["design"] == "pair":
            what = "the row's share of the points against the column (a draw ½)"
        else:
            what = (
                "the row's win share alone against copies of the column (a shared win 1/k; "
                f"fair {fair:.3f})"
            )
        out.append(f"matchup matrix: {what}, 95% CI clustered by deal")
        out.append(format_matrix(m))
        out.append(f"seat 0's share of the points (fair {fair:.3f}), 95% CI clustered by deal")
        for r in first_player(table).to_dict("records"):
            out.append(
                f"  {r['pairing']:<28} {r['rate']:.3f} [{r['lo']:.3f}, {r['hi']:.3f}]  "
                f"({r['games']} games)"
            )
        out.append("ratings: openskill Plackett–Luce, ordinal = mu − 3·sigma")
        for r in ratings(table).to_dict("records"):
            name = str(r["level"]) + (" *" if r["cheating"] else "")
            out.append(
                f"  {r['rank']}. {name:<16} mu {r['mu']:6.2f}  sigma {r['sigma']:5.2f}  "
                f"ordinal {r['ordinal']:6.2f}"
            )
    if cheats:
        out.append(f"* cheats (sees the whole state): {', '.join(cheats)}")
    return "\n".join(out)


# --- gamelib tune (issue 14) ---------------------------------------------------------------


class _TuneParser(_OneLineParser):
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


def _add_tune_parser(sub: Any) -> None:
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
    for game in GAMES.values():
        g = games.add_parser(game.name, help=f"tune {game.name} rules")
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
        g.add_argument("--seed", type=int, required=True, help="0 ≤ SEED < 2**128")
        g.add_argument(
            "--players",
            default="greedy",
            help="the line-up, comma-separated (one name fills every seat; default greedy)",
        )
        g.add_argument("--storage", type=Path, default=None, help="journal folder; rerun resumes")
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
        g.add_argument("--out", type=Path, default=None, help="save the report (.parquet)")
        g.add_argument("--no-progress", action="store_true", help="no progress bar")
        g.set_defaults(readers=_add_config_flags(g, game.config_type, game.name), sweep=False)


def _cmd_tune(args: argparse.Namespace) -> int:
    from gamelib.sim import check_output_path
    from gamelib.tune import parse_objective, parse_space, tune

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
    config = _config_from_args(args, infer_players=False)
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
    config = _config_from_args(args, infer_players=False)
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


def _cmd_replay(args: argparse.Namespace) -> int:
    from gamelib.records import read_records, replay

    n = 0
    for i, rec in enumerate(read_records(args.file)):
        try:
            replay(rec)
        except GamelibError as exc:
            raise CliError(f"{args.file}: record {i}: {exc}") from None
        n += 1
    print(f"{n} records replayed move by move: every outcome matches")
    return 0


def _cmd_games(args: argparse.Namespace) -> int:
    for game in GAMES.values():
        print(f"{game.name}")
        print(f"  setups:  {', '.join(game.setups)}")
        print(f"  players: {', '.join(game.players)}")
        fields = [f.name for f in dataclasses.fields(game.config_type)]
        print(f"  fields:  {', '.join(fields)}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = list(argv) if argv is not None else sys.argv[1:]
    commands = {
        "simulate": _cmd_simulate,
        "sweep": _cmd_sweep,
        "ladder": _cmd_ladder,
        "tune": _cmd_tune,
        "replay": _cmd_replay,
        "games": _cmd_games,
        "verdict": _cmd_verdict,
        "report": _cmd_report,
        "compare": _cmd_compare,
    }
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _note
            warnings.simplefilter("always", GamelibWarning)
            return commands[args.command](args)
    except GamelibError as exc:
        return _error(str(exc))
    except OSError as exc:
        # a file the user named that vanished or failed mid-way (disk full, permissions)
        where = f"{exc.filename}: " if exc.filename else ""
        return _error(f"{where}{exc.strerror or exc}")
    except KeyboardInterrupt:
        return _error("interrupted", status=130)


def _error(message: str, status: int = 2) -> int:
    """The one line every expected failure prints."""
    print(f"gamelib: error: {' '.join(message.split())}", file=sys.stderr)
    return status


def _note(message: Warning | str, category: type[Warning], *args: Any, **kwargs: Any) -> None:
    print(f"gamelib: note: {message}", file=sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
