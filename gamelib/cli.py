"""The command line: ``gamelib simulate GAME …``, ``gamelib replay FILE``, ``gamelib games``.

Every rule field of a game's config is a flag (``--top-layer surface``, ``--must-move one``,
``--straight-line true``, ``--forbidden-pile-size none``, ``--suit-sizes 13,13,13,9`` …).
Bad input gets one line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import types
import typing
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from gamelib import __version__
from gamelib.core import GamelibError
from gamelib.registry import GAMES, get_game


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
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


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


def _add_config_flags(parser: argparse.ArgumentParser, config_type: type) -> dict[str, Any]:
    hints = typing.get_type_hints(config_type)
    readers = {}
    group = parser.add_argument_group("rule fields (override the setup)")
    for f in dataclasses.fields(config_type):
        if f.name == "setup":
            continue
        flag = "--" + f.name.replace("_", "-")
        reader = _parser_for(hints[f.name])
        readers[f.name] = reader
        choices = typing.get_args(hints[f.name]) if typing.get_origin(hints[f.name]) else ()
        shown = "|".join(map(str, choices)) if all(isinstance(c, str) for c in choices) else ""
        group.add_argument(
            flag,
            dest=f"cfg_{f.name}",
            metavar=shown or "VALUE",
            default=None,
            help=f"default {f.default!r}",
        )
    return readers


def _add_run_flags(g: argparse.ArgumentParser, game: Any, *, sweep: bool) -> None:
    what = "one or more setups, comma-separated" if sweep else "one of"
    g.add_argument("--setup", default=None, help=f"{what}: {', '.join(game.setups)}")
    g.add_argument(
        "--players",
        required=True,
        help="comma-separated, one per seat" + ("; line-ups separated by ';'" if sweep else ""),
    )
    g.add_argument("-n", "--games", type=int, required=True, help="how many games (deals)")
    g.add_argument("--seed", type=int, required=True)
    g.add_argument("--workers", type=int, default=None, help="local processes (default: all)")
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
        "--columns",
        default=None,
        help="outcome columns to keep in --out (comma-separated; provenance is always kept)",
    )
    g.set_defaults(readers=_add_config_flags(g, game.config_type), sweep=sweep)


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

    rep = sub.add_parser("replay", help="check every record in a .jsonl file move by move")
    rep.add_argument("file", type=Path)

    sub.add_parser("games", help="list the games, their setups, players and rule fields")
    return parser


def _config_from_args(args: argparse.Namespace) -> Any:
    game = get_game(args.game)
    overrides = {}
    for name, reader in args.readers.items():
        text = getattr(args, f"cfg_{name}")
        if text is None:
            continue
        try:
            overrides[name] = reader(text)
        except ValueError as exc:
            raise CliError(f"--{name.replace('_', '-')}: {exc}") from None
    return game.config(args.setup, **overrides) if args.setup else game.config(None, **overrides)


def _grid_from_args(args: argparse.Namespace) -> dict[str, list[Any]]:
    grid: dict[str, list[Any]] = {}
    if args.setup:
        grid["setup"] = [x.strip() for x in args.setup.split(",") if x.strip()]
    hints = typing.get_type_hints(get_game(args.game).config_type)
    for name, reader in args.readers.items():
        text = getattr(args, f"cfg_{name}")
        if text is None:
            continue
        is_tuple = tuple in (
            typing.get_origin(hints[name]),
            *map(typing.get_origin, typing.get_args(hints[name])),
        )
        alternatives = text.split(";") if is_tuple else text.split(",")
        try:
            grid[name] = [reader(x) for x in alternatives]
        except ValueError as exc:
            raise CliError(f"--{name.replace('_', '-')}: {exc}") from None
    return grid


def _check_paths(args: argparse.Namespace) -> None:
    records = getattr(args, "records", None)
    for path, suffix in ((args.out, ".parquet"), (records, ".jsonl")):
        if path is not None and path.suffix != suffix:
            raise CliError(f"{path}: expected a {suffix} file")
        if path is not None and not path.parent.exists():
            raise CliError(f"{path.parent}: no such directory")
    if records is not None and records.exists():
        raise CliError(f"{records} exists; records are never appended to an old file")
    if args.games < 1:
        raise CliError(f"-n must be at least 1, got {args.games}")


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

    players = [p.strip() for p in text.split(",") if p.strip()]
    if len(players) == 1:
        players *= n_seats(config)
    return players


def _cmd_sweep(args: argparse.Namespace) -> int:
    from gamelib.sim import save, sweep
    from gamelib.stats import game_metrics

    _check_paths(args)
    grid = _grid_from_args(args)
    if not grid:
        raise CliError("give at least one rule flag or --setup with the values to sweep")
    lineups = [[p.strip() for p in lu.split(",") if p.strip()] for lu in args.players.split(";")]

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
    )
    if args.out is not None:
        save(_slimmed(table, args.columns), args.out)
    keys = [k for k in grid if k != "setup"]
    keys = (["setup"] if "setup" in grid else []) + keys
    if len(lineups) > 1:
        keys += [c for c in table.columns if c.startswith("player_")]
    metrics = game_metrics(table, by=keys)
    cols = [*keys, "games", "win_rate_0", "lo_0", "hi_0", "draw_rate", "duration_mean"]
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(metrics[cols].round(3).to_string(index=False))
    if args.out is not None:
        print(f"table: {args.out}")
    return 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    from gamelib.sim import save, simulate
    from gamelib.stats import win_rates

    config = _config_from_args(args)
    players = _seats(args.players, config)
    _check_paths(args)
    resume = _resume_folder(args)
    table = simulate(
        config,
        players,
        args.games,
        args.seed,
        workers=args.workers,
        executor=args.scheduler,
        rotate_seats=args.rotate_seats,
        progress=not args.no_progress,
        records=args.records,
        resume=resume,
        cache=args.cache,
    )
    if args.out is not None:
        save(_slimmed(table, args.columns), args.out)
    rates = win_rates(table, by="player")
    seats = win_rates(table, by="seat")
    label = args.setup or getattr(config, "setup", None) or "default rules"
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


def _cmd_replay(args: argparse.Namespace) -> int:
    from gamelib.records import read_records, replay

    if not args.file.exists():
        raise CliError(f"{args.file}: no such file")
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
    commands = {
        "simulate": _cmd_simulate,
        "sweep": _cmd_sweep,
        "replay": _cmd_replay,
        "games": _cmd_games,
    }
    try:
        return commands[args.command](args)
    except GamelibError as exc:
        print(f"gamelib: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("gamelib: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
