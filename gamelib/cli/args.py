"""What every command shares: the one-line parser, the value parsers, a flag per rule field
(files for the long ones), and turning the flags into a config, a grid, seats and checked run
arguments.  Bad input raises :class:`CliError`, which :func:`gamelib.cli.main` prints as one line.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gamelib.core import GamelibError, OutputError, check_seed
from gamelib.registry import get_game

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
    "rotate_deals": "--rotate-deals",
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


class OneLineParser(argparse.ArgumentParser):
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


def add_config_flags(
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


def config_from_args(args: argparse.Namespace, infer_players: bool = True) -> Any:
    """The config from --setup and the rule flags; a Gargon-like game without --setup or
    --n-players takes its player count from the names in --players (unless not
    ``infer_players``: a ladder's names are levels, not seats)."""
    _check_setup(args)
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
    names = comma_list(args.players)
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


def path_arg(text: str) -> Path:
    """An argparse type for a file or folder flag: an empty name is no path (``Path('')`` would
    be the working directory)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty name is not a path; give a file or folder")
    return Path(text)


def _check_setup(args: argparse.Namespace) -> None:
    """--setup names a setup: an empty name is refused, not read as the default rules."""
    text = getattr(args, "setup", None)
    if text is not None and not [x for x in text.split(",") if x.strip()]:
        game = get_game(args.game)
        raise CliError(
            f"--setup {text!r} names no setup; known setups: {', '.join(game.setups)} "
            "(leave --setup out for the default rules)"
        )


def comma_list(text: str) -> list[str]:
    return [p.strip() for p in text.split(",") if p.strip()]


def grid_from_args(args: argparse.Namespace) -> dict[str, list[Any]]:
    _check_setup(args)
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


def check_run_args(args: argparse.Namespace) -> None:
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


def check_column_flag(args: argparse.Namespace, known: list[str]) -> None:
    """Refuse unknown --columns before the run (``known``: the columns the run makes, from one
    game; see ``gamelib.sim.result_columns``)."""
    from gamelib.sim import check_columns

    if args.columns is None:
        return
    wanted = [c.strip() for c in args.columns.split(",") if c.strip()]
    if not wanted:
        raise CliError("--columns is empty; name the outcome columns to keep")
    check_columns(known, wanted, "--columns")


def slimmed_table(table: pd.DataFrame, columns: str | None) -> pd.DataFrame:
    from gamelib.sim import slim

    if columns is None:
        return table
    return slim(table, [c.strip() for c in columns.split(",") if c.strip()])


def resume_folder(args: argparse.Namespace) -> Path | None:
    """--resume, or OUT.parts next to --out, so rerunning the same command resumes (none with
    --cache: the study cache keeps every finished chunk itself)."""
    if getattr(args, "cache", False):
        if args.resume is not None:
            raise CliError("--cache keeps every finished chunk in the study cache; drop --resume")
        return None
    if args.resume is None and args.out is not None:
        return Path(args.out.with_name(args.out.name + ".parts"))
    return Path(args.resume) if args.resume is not None else None


def resolved_players(names: list[str], config: Any) -> list[str]:
    """The players with every time spec (``mcts:25ms``) resolved to the concrete player it is
    on this machine (:mod:`gamelib.timed`: measured once, then kept in the study cache), each
    said in a note; the run seats and records the resolved names."""
    from gamelib.timed import resolve_players

    try:
        return [str(p) for p in resolve_players(config, names)]
    except GamelibError as exc:
        raise CliError(f"--players: {exc}") from None


def seats_from(text: str, config: Any) -> list[str]:
    """Players by seat from ``a,b,c``; a single name fills every seat."""
    from gamelib.sim import n_seats

    players = comma_list(text)
    if not players:
        raise CliError(f"--players {text!r} names no player; e.g. --players random,greedy")
    if len(players) == 1:
        players *= n_seats(config)
    return players
