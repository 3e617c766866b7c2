"""``gamelib verdict``, ``gamelib report``, ``gamelib compare`` and ``gamelib worth``: their
flags, the questions they build and what they print or write (guides: docs/guide/verdicts.md,
docs/guide/report.md, docs/guide/worth.md).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from gamelib.cli.args import (
    FLAGS,
    CliError,
    add_config_flags,
    comma_list,
    config_from_args,
    path_arg,
    resolved_players,
)

#: the designs --design takes (gamelib.verdict.designs.DESIGNS; kept here so --help needs no
#: import of the verdicts, and a test keeps the two equal)
DESIGNS = ("cs", "fixed", "sprt", "gst", "gst-pocock")


def _add_decision_flags(g: argparse.ArgumentParser, budget: str) -> None:
    """The flags every sequential decision takes: its error rates, its game budget (per
    ``budget``), its seed, where it plays and the folder that lets it resume."""
    g.add_argument("--alpha", type=float, default=0.05, help="false 'holds' rate (0.05)")
    g.add_argument("--beta", type=float, default=0.05, help="false 'fails' rate (0.05)")
    g.add_argument(
        "--max-games", type=int, default=20_000, help=f"game budget per {budget} (20000)"
    )
    _add_where_flags(g, resume=True)
    g.add_argument(
        "--design",
        choices=DESIGNS,
        default="cs",
        help="how a two-sided claim is decided: cs (confidence sequences, any stop; default), "
        "fixed (TOST), sprt, gst or gst-pocock (cheaper, planned in advance, no --max-minutes; "
        "docs/guide/verdicts.md)",
    )


def _add_where_flags(g: argparse.ArgumentParser, resume: bool) -> None:
    """The flags of where and how long a sequential decision plays: its seed, workers, Dask
    scheduler, resume folder (``resume``), study cache and time budget."""
    g.add_argument(
        "--seed",
        type=int,
        default=None,
        help="0 ≤ SEED < 2**128 (default: drawn from the OS and printed first)",
    )
    g.add_argument("--workers", type=int, default=None, help="local processes (default: all)")
    g.add_argument("--scheduler", default=None, help="Dask scheduler address tcp://HOST:PORT")
    if resume:
        g.add_argument(
            "--resume",
            type=path_arg,
            default=None,
            help="folder that keeps finished deals; rerun to resume",
        )
    g.add_argument(
        "--cache",
        action="store_true",
        help="take the deals the study cache or data/results holds; keep new ones there",
    )
    g.add_argument(
        "--max-minutes",
        type=float,
        default=None,
        help="time budget: stop at it with the bounds reached (holds, fails or undecided)",
    )


def add_verdict_flags(g: argparse.ArgumentParser, game: Any, report: bool = False) -> None:
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
    if game.rotate_deal is not None and not report:
        g.add_argument(
            "--rotate-deals",
            action="store_true",
            help="mirror games play each deal once per rotation of its hands (the deal the unit)",
        )
    _add_decision_flags(g, "level or pair")
    if report:
        g.add_argument("--out", type=path_arg, required=True, help="the report, an .html file")
        if game.edit_kinds:
            g.add_argument(
                "--worth-deals",
                type=int,
                default=None,
                help=f"add a card worth section: each {game.edit_kinds[0]}'s worth at the "
                "strongest level on at most this many deals (docs/guide/worth.md)",
            )
            g.add_argument(
                "--worth-margin", type=float, default=0.02, help="δ of card worth (0.02)"
            )
        if game.options:
            g.add_argument(
                "--option-deals",
                type=int,
                default=None,
                help="add an option worth section: each class of moves forbidden to the "
                "strongest level that can be restricted, on at most this many deals "
                "(docs/guide/worth.md)",
            )
    else:
        g.add_argument("--json", type=path_arg, default=None, help="write the decisions as JSON")
        g.add_argument(
            "--table",
            type=path_arg,
            default=None,
            help="store every game played (.parquet, with provenance and this command): "
            "gamelib.verdict.redecide(FILE) decides the same table from it",
        )
    g.add_argument("--no-progress", action="store_true", help="no progress bar")
    g.set_defaults(readers=add_config_flags(g, game.config_type, game.name), sweep=False)


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

    config = config_from_args(args, infer_players=False)
    levels = resolved_players(comma_list(args.players), config)
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
        "cache": args.cache,
        "max_minutes": args.max_minutes,
        "design": args.design,
        "progress": not args.no_progress,
        "_names": {
            **FLAGS,
            "max_games": "--max-games",
            "max_minutes": "--max-minutes",
            "design": "--design",
            "alpha": "--alpha",
            "beta": "--beta",
            flag.lstrip("-"): flag,
        },
    }


def cmd_verdict(args: argparse.Namespace) -> int:
    import json
    import shlex

    from gamelib.verdict import format_verdicts, verdict

    call = _verdict_call(args, ("--json", ".json"))
    call["rotate_deals"] = getattr(args, "rotate_deals", False)
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
    design = "" if args.design == "cs" else f", design {args.design}"
    print(
        f"{args.game} ({label}): verdicts at alpha {args.alpha:g} (false holds), "
        f"beta {args.beta:g} (false fails), seed {args.seed}{design}"
    )
    print(format_verdicts(table))
    if args.json is not None:
        rows = [{**r, "seed": args.seed} for r in json.loads(table.to_json(orient="records"))]
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
        print(f"json: {args.json}")
    if args.table is not None:
        print(f"games: {args.table}")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    import shlex

    from gamelib.report import report

    call = _verdict_call(args, ("--out", ".html"))
    deals = getattr(args, "worth_deals", None)
    if deals is not None and deals < 1:
        raise CliError(f"--worth-deals must be a whole number ≥ 1, got {deals}")
    margin = getattr(args, "worth_margin", 0.02)
    if not 0 < margin < 1:
        raise CliError(f"--worth-margin must lie between 0 and 1, got {margin:g}")
    options = getattr(args, "option_deals", None)
    if options is not None and options < 1:
        raise CliError(f"--option-deals must be a whole number ≥ 1, got {options}")
    argv = list(args.argv) if getattr(args, "argv", None) is not None else sys.argv[1:]
    path = report(
        **call, out=args.out, command=shlex.join(["gamelib", *argv]), worth_deals=deals,
        worth_margin=margin, option_deals=options,
    )  # fmt: skip
    print(f"report: {path}")
    return 0


def add_compare_flags(g: argparse.ArgumentParser, game: Any) -> None:
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
    _add_decision_flags(g, "rule set and level")
    g.add_argument("--json", type=path_arg, default=None, help="write the decisions as JSON")
    g.add_argument("--no-progress", action="store_true", help="no progress bar")
    g.set_defaults(readers=add_config_flags(g, game.config_type, game.name), sweep=False)


def _compare_levels(text: str, seats: int) -> list[Any]:
    """--players: levels split at commas; a line-up's seats at '+', 'NAME*K' repeating one."""
    levels: list[Any] = []
    for level in comma_list(text):
        if "+" not in level and "*" not in level:
            levels.append(level)
            continue
        lineup: list[str] = []
        for part in level.split("+"):
            name, star, k = part.strip().rpartition("*") if "*" in part else (part, "", "")
            if star and (not k.isdigit() or int(k) < 1):
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


def cmd_compare(args: argparse.Namespace) -> int:
    import json

    from gamelib.core import replace_config
    from gamelib.sim import check_output_path, check_scheduler_address, n_seats
    from gamelib.verdict.compare import compare, format_comparison

    base = config_from_args(args, infer_players=False)
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
    if args.design != "cs" and args.max_minutes is not None:
        raise CliError(
            f"--design {args.design} and --max-minutes: a time budget may stop the run before "
            "the design's planned looks; use --design cs (anytime-valid) with a time budget"
        )
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
        cache=args.cache,
        max_minutes=args.max_minutes,
        design=args.design,
        progress=not args.no_progress,
    )
    design = "" if args.design == "cs" else f", design {args.design}"
    print(
        f"{args.game}: {table.attrs['compare']['change']} against the base rules, "
        f"alpha {args.alpha:g} (false holds), beta {args.beta:g} (false fails), seed {args.seed}"
        f"{design}"
    )
    print(format_comparison(table))
    if args.json is not None:
        rows = [{**r, "seed": args.seed} for r in json.loads(table.to_json(orient="records"))]
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
        print(f"json: {args.json}")
    return 0


def add_worth_flags(g: argparse.ArgumentParser, game: Any) -> None:
    g.add_argument("--setup", default=None, help=f"one of: {', '.join(game.setups)}")
    kinds = game.edit_kinds
    what = g.add_mutually_exclusive_group(required=True)
    if kinds:
        what.add_argument(
            "--cards",
            nargs="?",
            const=kinds[0],
            choices=kinds,
            help=f"the card table: one row per {kinds[0]} (default)"
            + (f", or per {kinds[1]} as a null check" if len(kinds) > 1 else ""),
        )
    if game.options:
        what.add_argument(
            "--options",
            nargs="*",
            metavar="CLASS",
            help="the option table: one row per class of moves (default all: "
            f"{', '.join(game.options)}), the holder forbidden it (dead? decisive?)",
        )
        g.add_argument(
            "--always",
            action="store_true",
            help="with --options: the holder forced to take each class wherever it may (as "
            "good as playing well, losing at most --margin?)",
        )
        g.add_argument(
            "--decisive",
            type=float,
            default=0.1,
            help="with --options: the share of the points lost above which a class is "
            "decisive (0.1)",
        )
    g.add_argument(
        "--players",
        default="greedy",
        help="the holder's level: one player (every seat) or a line-up joined by '+', the "
        "holder first (ismcts:100+greedy*3); default greedy",
    )
    g.add_argument(
        "--margin",
        type=float,
        default=None,
        help="δ on the holder's share of the points (cards 0.01, options 0.02)",
    )
    g.add_argument("--alpha", type=float, default=0.05, help="false 'holds' rate (0.05)")
    g.add_argument("--beta", type=float, default=0.05, help="false 'fails' rate (0.05)")
    g.add_argument(
        "--max-deals", type=int, default=None, help="deal budget (cards 20000, options 5000)"
    )
    _add_where_flags(g, resume=False)
    g.add_argument("--json", type=path_arg, default=None, help="write the rows as JSON")
    g.add_argument(
        "--table", type=path_arg, default=None, help="store every arm's games (.parquet)"
    )
    g.add_argument("--no-progress", action="store_true", help="no progress bar")
    g.set_defaults(readers=add_config_flags(g, game.config_type, game.name), sweep=False)


def _option_worth(args: argparse.Namespace, config: Any, level: Any) -> int:
    """``gamelib worth GAME --options``: the option table (gamelib.verdict.options)."""
    import json

    from gamelib.verdict.options import format_options, option_rows, option_worth

    mode = "always" if args.always else "forbid"
    table = option_worth(
        config, level, args.options or None, mode=mode, margin=args.margin,
        decisive=args.decisive, alpha=args.alpha, beta=args.beta, max_deals=args.max_deals,
        seed=args.seed, workers=args.workers, executor=args.scheduler, cache=args.cache,
        max_minutes=args.max_minutes, progress=not args.no_progress, out=args.table,
        _names={**FLAGS, "margin": "--margin", "max_deals": "--max-deals", "alpha": "--alpha",
                "beta": "--beta", "options": "--options", "decisive": "--decisive",
                "max_minutes": "--max-minutes", "out": "--table"},
    )  # fmt: skip
    info = table.attrs["options"]
    claim = (
        f"forced to take each class, as good as playing well within {args.margin:g}"
        if mode == "always"
        else f"forbidden each class: dead within ±{args.margin:g}, decisive above {args.decisive:g}"
    )
    print(
        f"{args.game}: what each class of moves is worth to its holder "
        f"({', '.join(info['lineup'])}), {claim}; {info['correction']}; seed {args.seed}"
    )
    print(format_options(table))
    if args.json is not None:
        rows = [{**r, "seed": args.seed} for r in option_rows(table)]
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
        print(f"json: {args.json}")
    if args.table is not None:
        print(f"games: {args.table}")
    return 0


def cmd_worth(args: argparse.Namespace) -> int:
    import json

    from gamelib.sim import check_output_path, check_scheduler_address, n_seats
    from gamelib.verdict.worth import format_worth, worth, worth_rows

    config = config_from_args(args, infer_players=False)
    levels = _compare_levels(args.players, n_seats(config))
    if len(levels) != 1:
        raise CliError(f"--players: give one level (the holder's), got {args.players!r}")
    if args.json is not None:
        check_output_path(args.json, "--json", ".json")
    if args.scheduler is not None:
        check_scheduler_address(args.scheduler, "--scheduler")
    options = getattr(args, "options", None) is not None
    if args.margin is None:
        args.margin = 0.02 if options else 0.01
    if args.max_deals is None:
        args.max_deals = 5_000 if options else 20_000
    if not isinstance(args.max_deals, int) or args.max_deals < 1:
        raise CliError(f"--max-deals must be a whole number ≥ 1, got {args.max_deals}")
    if options:
        return _option_worth(args, config, levels[0])
    table = worth(
        config, levels[0], args.cards, margin=args.margin, alpha=args.alpha,
        beta=args.beta, max_deals=args.max_deals, seed=args.seed, workers=args.workers,
        executor=args.scheduler, cache=args.cache, max_minutes=args.max_minutes,
        progress=not args.no_progress, out=args.table,
        _names={**FLAGS, "margin": "--margin", "max_deals": "--max-deals",
                "alpha": "--alpha", "beta": "--beta", "kind": "--cards",
                "max_minutes": "--max-minutes", "out": "--table"},
    )  # fmt: skip
    info = table.attrs["worth"]
    print(
        f"{args.game}: what each {args.cards} is worth to its holder "
        f"({', '.join(info['lineup'])}), within ±{args.margin:g} in line; "
        f"{info['correction']}; seed {args.seed}"
    )
    print(format_worth(table, config))
    if args.json is not None:
        rows = [{**r, "seed": args.seed} for r in worth_rows(table)]
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
        print(f"json: {args.json}")
    if args.table is not None:
        print(f"games: {args.table}")
    return 0
