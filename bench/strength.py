"""Strength curves: does each search player get stronger with its budget?

For each game a search player is played at growing budgets (Garner ``mcts:N`` on setup A in
steps of ×4, with ``solver:800`` — ``mcts:800`` exact from 18 cards left — as the top rung;
Gargon ``ismcts:N`` with four players and Deck the Yard ``rollout:N``, doubling), and every
step is a *skill* verdict (:mod:`gamelib.verdict`, margin 0, α = β = 0.05) between the two
neighbouring levels on common deals from every seat (Gargon: the larger budget alone against
three copies of the smaller; Deck the Yard: both on the same shuffles, paired). The curve is the
chain of those decisions: "holds" means the step is decided stronger, "undecided" that the game
budget per pair ran out first, "fails" that the larger budget is decided *not* stronger. The
plateau is the first step that does not hold.

``python -m bench.strength [--games garner,gargon,deck_the_yard] [--max-games N]`` prints the
table and writes ``bench/results/strength.json`` (the games run replace their own rows; other
games' stored curves are kept); ``make bench`` shows the stored curves without playing them
again (an hour of play on 2 cores at the default budgets).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from gamelib.registry import get_game
from gamelib.verdict import Skill, verdict

RESULTS = Path(__file__).parent / "results"

#: game: (setup, player template, budgets, games per pair, a top rung above the largest budget)
CURVES: dict[str, tuple[str | None, str, list[int], int, str | None]] = {
    # Garner: steps of ×4 (one doubling gains about 0.02 in setup A — mcts:400 v mcts:200
    # 0.518 over the ladder's 300 deals — and would need about 1,000 more deals to decide);
    # the top rung is the same search, exact from 18 cards left (gamelib.garner.perfect)
    # (4,000 games a pair: mcts:200 v mcts:50 needs about 930 deals to decide)
    "garner": ("A", "mcts:{}", [50, 200, 800], 4000, "solver:800"),
    "gargon": ("4p", "ismcts:{}", [50, 100, 200, 400], 1200, None),
    "deck_the_yard": (None, "rollout:{}", [5, 10, 20, 40], 800, None),
}


def curve(game: str, max_games: int | None = None, seed: int = 2026) -> list[dict[str, Any]]:
    """The doubling verdicts of one game's search player, weakest pair first."""
    setup, template, budgets, games, top = CURVES[game]
    levels = [template.format(n) for n in budgets] + ([top] if top else [])
    config = get_game(game).config(setup)
    t0 = time.perf_counter()
    table = verdict(
        config,
        levels,
        [Skill(0.0)],
        max_games=max_games or games,
        seed=seed,
        workers=2,
        progress=True,
    )
    seconds = round(time.perf_counter() - t0, 1)
    return [
        {
            "game": game,
            "setup": setup,
            "pair": r["level"],
            "decision": r["decision"],
            "measure": r["measure"],
            "estimate": round(float(r["estimate"]), 3),
            "lo": round(float(r["lo"]), 3),
            "hi": round(float(r["hi"]), 3),
            "deals": int(r["deals"]),
            "games": int(r["games"]),
            "seconds_all_pairs": seconds,
        }
        for _, r in table.iterrows()
    ]


def show(rows: list[dict[str, Any]]) -> None:
    """Print each game's curve: one line per step, then its plateau (the first step that is
    not decided stronger)."""
    for game in dict.fromkeys(r["game"] for r in rows):
        part = [r for r in rows if r["game"] == game]
        print(f"\n{game} ({part[0]['setup'] or 'standard'}): each step a skill verdict")
        for r in part:
            print(
                f"  {r['pair']:<26} {r['decision']:<10} {r['measure']} {r['estimate']:.3f} "
                f"[{r['lo']:.3f}, {r['hi']:.3f}]  {r['deals']} deals, {r['games']} games"
            )
        plateau = next((r["pair"] for r in part if r["decision"] != "holds"), None)
        print(f"  plateau: {plateau or 'none up to the largest budget'}")
        print(f"  {part[0]['seconds_all_pairs']} s for the curve on 2 workers")


def show_stored(path: Path = RESULTS / "strength.json") -> list[dict[str, Any]]:
    """The stored curves (``make bench`` shows them; this module's ``main`` re-makes them)."""
    if not path.exists():
        print(f"\nstrength curves: none stored yet (python -m bench.strength writes {path})")
        return []
    rows: list[dict[str, Any]] = json.loads(path.read_text())
    print(f"\nstrength curves, as stored in {path.name} (python -m bench.strength re-makes them):")
    show(rows)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.strength", description=__doc__)
    parser.add_argument("--games", default="garner,gargon,deck_the_yard")
    parser.add_argument("--max-games", type=int, default=None, help="games per pair")
    parser.add_argument("--out", type=Path, default=RESULTS / "strength.json")
    args = parser.parse_args(argv)
    games = args.games.split(",")
    # the curves of other games already stored are kept: each game's run replaces its own
    kept = json.loads(args.out.read_text()) if args.out.exists() else []
    rows: list[dict[str, Any]] = [r for r in kept if r["game"] not in games]
    for game in games:
        part = curve(game, args.max_games)
        rows += part
        show(part)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(rows, indent=2) + "\n")
    print(f"written: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
