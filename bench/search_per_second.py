"""Search strength per second (issue 33): where a decision's time goes, milliseconds per decision
of each search variant, the iteration count that matches a reference's time, and skill verdicts
at equal time per decision.

Every time here is **CPU time of this process** (``time.process_time``), on one core, on the
fixed sample of positions :mod:`gamelib.timed` resolves time specs on (``SAMPLE_POSITIONS``
decisions of ``SAMPLE_GAMES`` seeded games of the player at ``PROBE`` iterations): the machine
these figures come from is shared, and CPU time is what one search gets, not what its
neighbours take. Sub-commands (``python -m bench.search_per_second SUB``), each adding its
section to ``bench/results/search-per-second.json``:

``profile``
    Gargon 4p: per variant, CPU ms per decision and where the compiled search's time goes —
    ``determinize`` / ``tree`` (selection, widening, expansion) / ``playout`` / ``score`` (the
    result of a finished game, or the evaluation at a cut-off) / ``backup`` — as shares of its
    CPU cycles (``gamelib.gargon.search.search``'s ``profile``), plus the Python side (the
    observation's template and the rest of the player call) in ms. Garner standard: CPU ms per
    decision of ``mcts`` variants.
``equal GAME SETUP REFERENCE VARIANT``
    The iteration count at which ``VARIANT`` (a time spec, e.g. ``ismcts:1ms:cut:1``: only its
    options count) takes the reference's CPU time per decision on the sample, both measured in
    this process, interleaved (the line search of :func:`gamelib.timed.measure`).
``ingame GAME SETUP SPEC,SPEC,... GAMES``
    CPU ms per decision of each spec as it plays, the specs sharing the table in seeded games
    (seats rotated): the cost of a player that keeps a tree between decisions.
``verdict GAME SETUP WEAKER STRONGER MINUTES [SEED [WORKERS]]``
    ``gamelib.verdict.verdict(config, [WEAKER, STRONGER], [Skill(0)])``: the stronger alone
    against copies of the weaker, rotated through every seat, on ``WORKERS`` processes (default
    1; every game runs inside one process, so both players of a game get the same core and the
    comparison stays one at equal time per decision on an otherwise idle machine), looking first
    after ``FIRST_BATCH`` deals, stopped at ``MINUTES`` (reported as it stands: holds / fails /
    undecided with its interval); its deals are kept in the study cache.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from gamelib import timed
from gamelib.core import Game, SplitMixRandom
from gamelib.registry import get_game

OUT = Path(__file__).parent / "results" / "search-per-second.json"
#: a verdict looks at its bounds after this many deals, then every 1.25× as many: small, so
#: the time budget stops it soon after it runs out (the bounds hold at any look)
FIRST_BATCH = 6
#: the verdicts keep every finished deal in the study cache, so a rerun plays only new ones
CACHE: bool | str = True

GARGON_VARIANTS = (
    "ismcts:1000",
    "ismcts:1000:greedy",
    "ismcts:1000:cut:1",
    "ismcts:1000:cut:2",
    "ismcts:1000:cut:4",
    "ismcts:3400:cut:1",
)
GARNER_VARIANTS = (
    "mcts:1000",
    "mcts:1000:greedy:1",
    "mcts:1000:greedy:4",
    "mcts:1000:greedy:0",
    "mcts:1000:random",
    "mcts:1100:reuse",
)


def _machine() -> dict[str, Any]:
    return {
        "machine": platform.processor() or platform.machine(),
        "cores": os.cpu_count(),
        "load_average_1_5_15": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
    }


def _save(section: str, data: Any) -> None:
    doc = json.loads(OUT.read_text()) if OUT.exists() else {}
    doc[section] = data
    OUT.write_text(json.dumps(doc, indent=1) + "\n")


def _sample(game: Game, setup: str, family: str) -> tuple[Any, list[Any]]:
    config = game.config(setup)
    return config, timed.positions(game, config, family)


def gargon_profile(spec: str, sample: list[Any]) -> dict[str, Any]:
    """CPU ms per decision of a Gargon ``ismcts`` spec on the sample, and where it goes."""
    from gamelib.gargon import GARGON
    from gamelib.gargon.search import PROFILE, template

    ms = timed.mean_ms(GARGON, spec, sample)
    cycles = np.zeros(len(PROFILE), np.int64)
    seat, state, _ = sample[0]  # compiles (or loads) the profiling search before the clock
    GARGON.player(spec).search(state.observation(seat), 0, True, cycles)  # type: ignore[attr-defined]
    cycles[:] = 0
    t_template = t_search = 0.0
    for i, (seat, state, legal) in enumerate(sample):
        player = GARGON.player(spec)
        obs = state.observation(seat)
        a = time.process_time()
        template(obs)
        b = time.process_time()
        player.search(obs, SplitMixRandom(i).getrandbits(63), True, cycles)  # type: ignore[attr-defined]
        c = time.process_time()
        t_template += b - a
        t_search += c - b
        del legal
    n = len(sample)
    share = cycles / cycles.sum()
    search_ms = 1000 * t_search / n
    return {
        "spec": spec,
        "ms_per_decision": round(ms, 2),
        "template_ms": round(1000 * t_template / n, 3),
        "compiled_search_ms": round(search_ms, 2),
        "stage_share_of_compiled_search": {
            k: round(float(v), 3) for k, v in zip(PROFILE, share, strict=True)
        },
        "stage_ms": {
            k: round(float(v) * search_ms, 2) for k, v in zip(PROFILE, share, strict=True)
        },
    }


def profile() -> dict[str, Any]:
    """The ``profile`` section (see the module docstring)."""
    from gamelib.gargon import GARGON
    from gamelib.garner import GARNER

    _, g_sample = _sample(GARGON, "4p", "ismcts:1ms")
    gargon = [gargon_profile(s, g_sample) for s in GARGON_VARIANTS]
    for row in gargon:
        print(row, file=sys.stderr)
    _, m_sample = _sample(GARNER, "standard", "mcts:1ms")
    garner = []
    for s in GARNER_VARIANTS:
        garner.append({"spec": s, "ms_per_decision": round(timed.mean_ms(GARNER, s, m_sample), 2)})
        print(garner[-1], file=sys.stderr)
    return {
        "what": "CPU ms per decision (process time, one core) on gamelib.timed's fixed sample; "
        "Gargon's compiled search split by stage from its cycle counts",
        "gargon_4p": {"positions": len(g_sample), "variants": gargon},
        "garner_standard": {"positions": len(m_sample), "variants": garner},
        **_machine(),
    }


def equal(game_name: str, setup: str, reference: str, variant: str) -> dict[str, Any]:
    """The ``equal`` section: the count at which ``variant`` costs what ``reference`` does."""
    game = get_game(game_name)
    config, sample = _sample(game, setup, variant)
    ref_ms = timed.mean_ms(game, reference, sample)
    points: list[tuple[int, float]] = []
    n = timed.PROBE
    for _ in range(4):
        points.append((n, timed.mean_ms(game, timed.with_iterations(variant, n), sample)))
        n = round(max(1.0, timed.count_for(points, ref_ms)))
        if n in (m for m, _ in points):
            break
    ref_again = timed.mean_ms(game, reference, sample)
    best = timed.two_digits(timed.count_for(points, (ref_ms + ref_again) / 2))
    out = {
        "game": game_name,
        "setup": setup,
        "reference": reference,
        "reference_ms": [round(ref_ms, 2), round(ref_again, 2)],
        "variant": variant,
        "points": [[a, round(b, 2)] for a, b in points],
        "equal_time_spec": timed.with_iterations(variant, best),
        "positions": len(sample),
        **_machine(),
    }
    del config
    return out


def in_games(game_name: str, setup: str, specs: list[str], n_games: int) -> dict[str, Any]:
    """The ``ingame`` section: CPU ms per decision (with two or more options) of each spec in
    ``n_games`` seeded games where they share the table (seats rotated game by game; a spec
    list shorter than the seats is repeated), as they play: what a player that keeps
    something between decisions (``mcts:N:reuse``) costs in play, which the fixed sample
    cannot show."""
    from gamelib.core import game_rngs, game_seeds
    from gamelib.sim import n_seats

    game = get_game(game_name)
    config = game.config(setup)
    n = n_seats(config)
    spent = {s: 0.0 for s in specs}
    made = {s: 0 for s in specs}
    first = game.new_state(config, game_rngs(0, n)[0])
    for spec in specs:  # loads (or compiles) the compiled code before the clock starts
        p = game.player(spec)
        p(first.observation(first.current_player()), first.legal_moves(), SplitMixRandom(0))
    for g, seed in enumerate(game_seeds(33, n_games)):
        seated = [specs[(s + g) % len(specs)] for s in range(n)]
        agents = [game.player(p) for p in seated]
        chance, rngs = game_rngs(seed, n)
        state = game.new_state(config, chance)
        while not state.is_over():
            seat = state.current_player()
            legal = state.legal_moves()
            obs = state.observation(seat)
            a = time.process_time()
            move = agents[seat](obs, legal, rngs[seat])
            if len(legal) > 1:
                spent[seated[seat]] += time.process_time() - a
                made[seated[seat]] += 1
            state.apply(move)
    out = {
        "game": game_name,
        "setup": setup,
        "games": n_games,
        "ms_per_decision": {s: round(1000 * spent[s] / max(1, made[s]), 2) for s in specs},
        "decisions": made,
        **_machine(),
    }
    return out


def run_verdict(
    game_name: str,
    setup: str,
    weaker: str,
    stronger: str,
    minutes: float,
    seed: int = 33,
    workers: int = 1,
) -> dict[str, Any]:
    """The ``verdict`` section: a skill verdict at margin 0, ``minutes`` at most."""
    from gamelib.verdict import Skill, verdict

    game = get_game(game_name)
    config = game.config(setup)
    start = time.process_time()
    wall = time.perf_counter()
    table = verdict(
        config,
        [weaker, stronger],
        [Skill(0)],
        seed=seed,
        workers=workers,
        max_minutes=minutes,
        progress=False,
        first_batch=FIRST_BATCH,
        cache=CACHE,
    )
    row = table.iloc[0].to_dict()
    out = {
        "game": game_name,
        "setup": setup,
        "weaker": weaker,
        "stronger": stronger,
        "seed": seed,
        "workers": workers,
        "max_minutes": minutes,
        "cpu_minutes": round((time.process_time() - start) / 60, 1),
        "wall_minutes": round((time.perf_counter() - wall) / 60, 1),
        **{k: (v.item() if hasattr(v, "item") else v) for k, v in row.items()},
        **_machine(),
    }
    return out


def main(argv: list[str]) -> None:
    """``profile`` · ``equal GAME SETUP REF VARIANT`` · ``verdict GAME SETUP WEAK STRONG MIN``."""
    if not argv or argv[0] == "profile":
        _save("profile", profile())
    elif argv[0] == "equal":
        res = equal(*argv[1:5])
        print(json.dumps(res, indent=1))
        _save(f"equal {res['game']} {res['setup']} {res['reference']} {res['variant']}", res)
    elif argv[0] == "ingame":
        game, setup, specs, games = argv[1:5]
        res = in_games(game, setup, specs.split(","), int(games))
        print(json.dumps(res, indent=1))
        _save(f"ingame {game} {setup} {specs}", res)
    elif argv[0] == "verdict":
        game, setup, weak, strong, minutes = argv[1:6]
        seed = int(argv[6]) if len(argv) > 6 else 33
        workers = int(argv[7]) if len(argv) > 7 else 1
        res = run_verdict(game, setup, weak, strong, float(minutes), seed, workers)
        print(json.dumps(res, indent=1, default=str))
        _save(f"verdict {game} {setup} {weak} vs {strong} seed {seed}", res)
    else:
        raise SystemExit(main.__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
