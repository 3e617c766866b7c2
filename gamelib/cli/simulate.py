"""``gamelib simulate``, ``gamelib sweep``, ``gamelib replay`` and ``gamelib games``: their flags
and what they run (guide: docs/guide/simulate.md).
"""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any

from gamelib.cli.args import (
    FLAGS,
    CliError,
    add_config_flags,
    check_column_flag,
    check_run_args,
    comma_list,
    config_from_args,
    grid_from_args,
    path_arg,
    resolved_players,
    resume_folder,
    seats_from,
    slimmed_table,
)
from gamelib.core import GamelibError
from gamelib.registry import GAMES, get_game


def add_run_flags(g: argparse.ArgumentParser, game: Any, *, sweep: bool) -> None:
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
        help="local processes (default: every core; never more than the cores or the chunks "
        "of work, and a note says so)",
    )
    g.add_argument("--scheduler", default=None, help="Dask scheduler address tcp://HOST:PORT")
    g.add_argument("--rotate-seats", action="store_true", help="play each deal in every seat")
    if game.rotate_deal is not None:
        g.add_argument(
            "--rotate-deals",
            action="store_true",
            help="play each deal once per rotation of its hands (each hand from every seat)",
        )
    g.add_argument("--out", type=path_arg, default=None, help="save the table (.parquet)")
    if not sweep:
        g.add_argument("--records", type=path_arg, default=None, help="write game records (.jsonl)")
    g.add_argument("--no-progress", action="store_true", help="no progress bar")
    g.add_argument(
        "--resume",
        type=path_arg,
        default=None,
        help="folder for finished chunks (default with --out: OUT.parts); rerun to resume",
    )
    g.add_argument(
        "--cache",
        action="store_true",
        help="take the deals the study cache or data/results holds; keep new ones there",
    )
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
    g.set_defaults(readers=add_config_flags(g, game.config_type, game.name), sweep=sweep)


def cmd_sweep(args: argparse.Namespace) -> int:
    from gamelib.sim import clear_resume, result_columns, save, sweep

    check_run_args(args)
    grid = grid_from_args(args)
    if not grid:
        raise CliError("give at least one rule flag or --setup with the values to sweep")
    lineups = [comma_list(lu) for lu in args.players.split(";")]
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
                seated = seats_from(",".join(lineup), config)
                known += [c for c in result_columns(config, seated) if c not in known]
        check_column_flag(args, known)

    resume = resume_folder(args)
    table = sweep(
        args.game,
        grid,
        lineups if len(lineups) > 1 else lineups[0],
        args.games,
        args.seed,
        workers=args.workers,
        executor=args.scheduler,
        rotate_seats=args.rotate_seats,
        rotate_deals=getattr(args, "rotate_deals", False),
        progress=not args.no_progress,
        resume=resume,
        cache=args.cache,
        keep_resume=True,
        engine=args.engine,
        _names=FLAGS,
    )
    if args.out is not None:
        save(slimmed_table(table, args.columns), args.out)
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


def cmd_simulate(args: argparse.Namespace) -> int:
    from gamelib.sim import (
        clear_resume,
        result_columns,
        save,
        simulate,
        simulate_summary,
        simulate_to,
    )

    check_run_args(args)
    config = config_from_args(args)
    players = resolved_players(seats_from(args.players, config), config)
    check_column_flag(args, result_columns(config, players) if args.columns else [])
    resume = resume_folder(args)
    run = {
        "workers": args.workers,
        "executor": args.scheduler,
        "rotate_seats": args.rotate_seats,
        "rotate_deals": getattr(args, "rotate_deals", False),
        "progress": not args.no_progress,
        "records": args.records,
        "resume": resume,
        "keep_resume": True,
        "engine": args.engine,
        "_names": FLAGS,
    }
    table: Any
    if args.out is not None and resume is not None and not args.cache:
        # written chunk by chunk from the resume folder: memory does not grow with -n
        columns = [c.strip() for c in args.columns.split(",")] if args.columns else None
        table = simulate_to(
            args.out, config, players, args.games, args.seed, columns=columns, **run
        )
    elif args.out is None and resume is None and not args.cache:
        # no table kept: the same games into the few columns the summary prints, as plain
        # lists (a small run starts without pandas)
        table = simulate_summary(config, players, args.games, args.seed, **run).columns
    else:
        table = simulate(config, players, args.games, args.seed, cache=args.cache, **run)
        if args.out is not None:
            save(slimmed_table(table, args.columns), args.out)
    if resume is not None:
        clear_resume(resume)  # only once the table is safely saved
    from gamelib.stats.rates import win_rate_rows  # no pandas, scipy or statsmodels

    rates, (d, lo, hi) = win_rate_rows(table, by="player")
    seats, _ = win_rate_rows(table, by="seat")
    turns = table["turns"]
    label = args.setup or getattr(config, "setup", None) or "default rules"
    n_players = getattr(config, "n_players", None)
    if not args.setup and n_players is not None:
        label = f"{n_players} players"
    print(f"{args.game} ({label}), {len(turns)} games")
    for r in rates:
        print(
            f"  {r['player']:<12} wins {r['win_rate']:.3f}  95% CI [{r['lo']:.3f}, {r['hi']:.3f}]"
            f"  ({r['wins']}/{r['games']})"
        )
    if len(seats) > 1:
        for r in seats:
            print(
                f"  seat {int(r['seat']):<7} wins {r['win_rate']:.3f}  "
                f"95% CI [{r['lo']:.3f}, {r['hi']:.3f}]"
            )
        print(f"  no sole win  {d:.3f}  95% CI [{lo:.3f}, {hi:.3f}]  (draws and shared wins)")
    print(f"  mean turns   {sum(turns) / len(turns):.1f}")
    if args.out is not None:
        print(f"table: {args.out}")
    if args.records is not None:
        print(f"records: {args.records}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
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


def cmd_games(args: argparse.Namespace) -> int:
    for game in GAMES.values():
        print(f"{game.name}")
        print(f"  setups:  {', '.join(game.setups)}")
        print(f"  players: {', '.join(game.players)}")
        fields = [f.name for f in dataclasses.fields(game.config_type)]
        print(f"  fields:  {', '.join(fields)}")
    return 0


def add_cache_flags(g: argparse.ArgumentParser) -> None:
    g.add_argument("--clear", action="store_true", help="delete the runs the cache holds")
    g.add_argument("--game", default=None, help="with --clear: only this game's runs")
    g.add_argument(
        "--pack",
        type=path_arg,
        default=None,
        metavar="FOLDER",
        help="write the search players' runs as stored studies there, and make each search"
        " the cache remade the stored one (make results does)",
    )


def cmd_cache(args: argparse.Namespace) -> int:
    """Where the study cache is, what it holds, and clearing it (data/results is never
    touched)."""
    from gamelib.registry import GAMES
    from gamelib.sim import cache_size, clear_cache, default_cache_dir

    root = default_cache_dir()
    if args.game is not None and args.game not in GAMES:
        raise CliError(f"--game {args.game!r}: known games: {', '.join(GAMES)}")
    if args.game is not None and not args.clear:
        raise CliError("--game goes with --clear")
    if args.pack is not None:
        from gamelib.sim.deals import pack_cache
        from gamelib.tune import store_remade

        written = pack_cache(args.pack, root)
        print(f"packed {len(written)} run(s) from {root} into {args.pack}")
        for stored, remade in store_remade(root):
            print(f"the stored search {stored} is now the one remade in {remade}")
        return 0
    if args.clear:
        removed = clear_cache(root, args.game)
        print(f"removed {removed} run(s) from {root}" + (f" ({args.game})" if args.game else ""))
        return 0
    runs, size = cache_size(root)
    print(f"study cache: {root} ($GAMELIB_CACHE moves it)")
    print(f"{runs} run(s), {size / 1e6:.1f} MB; the stored studies in data/results are read too")
    return 0
