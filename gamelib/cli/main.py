"""The command line: ``gamelib simulate GAME …``, ``gamelib sweep GAME …``,
``gamelib ladder GAME …``, ``gamelib tune GAME …``, ``gamelib replay FILE``, ``gamelib games``.

Every rule field of a game's config is a flag (``--top-layer surface``, ``--must-move one``,
``--straight-line true``, ``--forbidden-pile-size none``, ``--suit-sizes 13,13,13,9`` …).
Bad input gets one line on stderr and exit status 2, never a traceback.

This room is the entry: the whole parser (each command's --help names its page of the guide),
:func:`main`, and the one line every expected failure or note prints; the commands live in
the rooms beside it.
"""

from __future__ import annotations

import argparse
import functools
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from gamelib.cli.args import OneLineParser, path_arg
from gamelib.cli.ladder import add_ladder_flags, cmd_ladder
from gamelib.cli.simulate import (
    add_cache_flags,
    add_run_flags,
    cmd_cache,
    cmd_games,
    cmd_replay,
    cmd_simulate,
    cmd_sweep,
)
from gamelib.cli.tune import add_tune_parser, cmd_tune
from gamelib.cli.verdicts import (
    add_compare_flags,
    add_verdict_flags,
    add_worth_flags,
    cmd_compare,
    cmd_report,
    cmd_verdict,
    cmd_worth,
)
from gamelib.core import Game, GamelibError, GamelibWarning
from gamelib.registry import BUILT_IN, GAMES
from gamelib.version import __version__


def _per_game(
    command: argparse.ArgumentParser,
    each: str,
    add_flags: Any,
    reached: Callable[[str], bool] = lambda game: True,
    listed: Sequence[Game] | None = None,
) -> None:
    """Give ``command`` one sub-command per game of ``listed`` (default: every game; ``each``:
    its help, ``{game}`` its name), each with the flags ``add_flags(parser, game)`` adds (only
    for the games ``reached``)."""
    games = command.add_subparsers(dest="game", required=True, metavar="GAME")
    for game in GAMES.values() if listed is None else listed:
        parser = games.add_parser(game.name, help=each.format(game=game.name))
        if reached(game.name):
            add_flags(parser, game)


#: the commands whose second word is a game
PER_GAME = ("simulate", "sweep", "ladder", "tune", "verdict", "report", "compare", "worth")


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argparse parser of the whole command line.  With ``argv``, the flags of the
    commands and games that command line does not name are left out (every command and game
    is still there, with its help line): a run builds one game's flags of one command, not
    every game's of every command."""
    words = list(argv or [])
    named = words[0] if words and words[0] in PER_GAME else None
    game = words[1] if named and len(words) > 1 and words[1] in GAMES else None
    # a command line naming a built-in game lists only those: the installed packages' entry
    # points are then never read (gamelib.registry)
    listed = [GAMES[name] for name in BUILT_IN] if argv is not None and game in BUILT_IN else None

    def reached(command: str) -> Callable[[str], bool]:
        if argv is None or named is None:
            return lambda name: True
        return lambda name: command == named and game in (None, name)

    parser = OneLineParser(prog="gamelib", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"gamelib {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    sim = sub.add_parser("simulate", help="play many seeded games into a results table")
    run_flags = functools.partial(add_run_flags, sweep=False)
    _per_game(sim, "simulate {game}", run_flags, reached("simulate"), listed)

    swp = sub.add_parser(
        "sweep",
        help="simulate every combination of rule values on common seeds",
        description="Rule flags take alternatives separated by commas (tuple fields such as "
        "--suit-sizes by semicolons); --players takes line-ups separated by semicolons.",
    )
    sweep_flags = functools.partial(add_run_flags, sweep=True)
    _per_game(swp, "sweep {game} rule variants", sweep_flags, reached("sweep"), listed)

    lad = sub.add_parser(
        "ladder",
        help="play every pairing of player levels on common deals: matrix, seat 0, ratings",
        description="Every pair of levels on the same deals, every seat arrangement; prints the "
        "matchup matrix and the first player's rate with 95%% intervals clustered by deal, and "
        "openskill ratings (see gamelib.ladder).",
    )
    _per_game(lad, "a skill ladder of {game} players", add_ladder_flags, reached("ladder"), listed)

    add_tune_parser(sub, reached("tune"), listed)

    ver = sub.add_parser(
        "verdict",
        help="decide balance questions (fair, skill, target, stalls, length) with error rates",
        description="Plays deals in batches until each question is decided: holds, fails, or "
        "undecided at the budget. alpha: the chance of calling unfair rules fair; beta: of "
        "calling fair rules unfair (see docs/guide/verdicts.md).",
    )
    _per_game(ver, "balance verdicts for {game}", add_verdict_flags, reached("verdict"), listed)

    rpt = sub.add_parser(
        "report",
        help="decide the verdicts and write a balance report a designer can send (HTML)",
        description="Decides the verdicts as 'gamelib verdict' does, then renders the report "
        "notebook (papermill) to one HTML file without code: the verdict table across the "
        "ladder, charts with intervals, game lengths and margins, and how to reproduce it.",
    )
    report_flags = functools.partial(add_verdict_flags, report=True)
    _per_game(rpt, "a balance report for {game}", report_flags, reached("report"), listed)

    cmp = sub.add_parser(
        "compare",
        help="what a rule change does: the same deals under both rules, decided with error rates",
        description="Plays every deal under the rules the flags give (the base) and under "
        "the same rules with --variant's changes, by the same players, until each question "
        "is decided: effect (holds: no effect within ±margin; fails: a decided effect), changes "
        "(the winner changes in fewer than --ceiling of games) and, with two levels or more, "
        "depends (the effect is the same at each level). See docs/guide/verdicts.md.",
    )
    _per_game(cmp, "compare two {game} rule sets", add_compare_flags, reached("compare"), listed)

    wor = sub.add_parser(
        "worth",
        help="what each card or option is worth to its holder: the same deals, one thing changed",
        description="--cards: plays every deal once per card, the holder's first card traded "
        "for it wherever it was dealt, and decides each card's worth (the holder's share of the "
        "points less the average card's) against ±margin: in line, out of line or undecided. "
        "--options: plays every deal with the holder as it is and forbidden (or, --always, "
        "forced to take) each class of moves, and decides what the class is worth: dead, "
        "decisive, or as good as playing well. Bonferroni-corrected over the rows. See "
        "docs/guide/worth.md.",
    )
    worth_games = [g for g in (listed or GAMES.values()) if g.edit_kinds or g.options]
    _per_game(wor, "card worth in {game}", add_worth_flags, reached("worth"), worth_games)

    rep = sub.add_parser("replay", help="check every record in a .jsonl file move by move")
    rep.add_argument("file", type=path_arg)

    sub.add_parser("games", help="list the games, their setups, players and rule fields")
    cache = sub.add_parser(
        "cache", help="where the study cache is and what it holds; --clear empties it"
    )
    add_cache_flags(cache)
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
    "worth": "worth",
    "cache": "rerun",
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


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    words = list(argv) if argv is not None else sys.argv[1:]
    parser = build_parser(words)  # the flags this command line can reach
    args = parser.parse_args(words)
    args.argv = words
    if getattr(args, "seed", 0) is None:
        # no --seed: draw one from the OS's entropy (as numpy's default_rng() does), say it
        # first and keep it in the command line a table or report stores, so the run repeats
        import secrets

        args.seed = secrets.randbits(63)
        args.argv = [*args.argv, "--seed", str(args.seed)]
        print(f"seed {args.seed} (drawn; --seed {args.seed} plays the same games again)")
    commands = {
        "simulate": cmd_simulate,
        "sweep": cmd_sweep,
        "ladder": cmd_ladder,
        "tune": cmd_tune,
        "replay": cmd_replay,
        "games": cmd_games,
        "verdict": cmd_verdict,
        "report": cmd_report,
        "compare": cmd_compare,
        "worth": cmd_worth,
        "cache": cmd_cache,
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
