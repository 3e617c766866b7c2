"""``gamelib ladder``: its flags, the run and the printed report (guide: docs/guide/ladder.md)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from gamelib.cli.args import (
    FLAGS,
    CliError,
    add_config_flags,
    check_column_flag,
    check_run_args,
    comma_list,
    config_from_args,
    path_arg,
    resolved_players,
    resume_folder,
    slimmed_table,
)
from gamelib.core import GamelibError

if TYPE_CHECKING:  # pandas is imported only by the commands that make a table
    import pandas as pd


def add_ladder_flags(g: argparse.ArgumentParser, game: Any) -> None:
    g.add_argument("--setup", default=None, help=f"one of: {', '.join(game.setups)}")
    g.add_argument(
        "--players",
        required=True,
        help="the levels, comma-separated, weakest first (e.g. random,greedy); at least two "
        "for a game with opponents",
    )
    g.add_argument("-n", "--games", type=int, required=True, help="deals per pairing")
    g.add_argument(
        "--seed",
        type=int,
        default=None,
        help="0 ≤ SEED < 2**128 (default: drawn from the OS and printed first)",
    )
    g.add_argument(
        "--workers",
        type=int,
        default=None,
        help="local processes (default: every core; never more than the cores)",
    )
    g.add_argument("--scheduler", default=None, help="Dask scheduler address tcp://HOST:PORT")
    g.add_argument("--out", type=path_arg, default=None, help="save the table (.parquet)")
    g.add_argument("--no-progress", action="store_true", help="no progress bars")
    g.add_argument(
        "--resume",
        type=path_arg,
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
    g.set_defaults(readers=add_config_flags(g, game.config_type, game.name), sweep=False)


def cmd_ladder(args: argparse.Namespace) -> int:
    from gamelib.ladder import ladder_plan, matchups
    from gamelib.sim import clear_resume, n_seats, result_columns, save

    check_run_args(args)
    config = config_from_args(args, infer_players=False)
    levels = resolved_players(comma_list(args.players), config)
    if not levels:
        raise CliError(f"--players {args.players!r} names no player; e.g. --players random,greedy")
    try:
        ladder_plan(config, levels, not args.no_self_play)
    except GamelibError as exc:
        raise CliError(f"--players: {exc}") from None
    if args.columns:  # every run makes the same columns: one game of the first level tells
        check_column_flag(args, result_columns(config, [levels[0]] * n_seats(config)))
    resume = resume_folder(args)
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
        save(slimmed_table(table, args.columns), args.out)
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
