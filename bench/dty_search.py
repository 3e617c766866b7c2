"""Deck the Yard's search players: what a decision costs, and how often each player wins.

``search_rows()`` returns one dict per measurement (nothing is asserted):

* ``kind="search-cost"``: milliseconds per decision of ``rollout:50`` and ``rollout:200`` on the
  mid-game positions of a few seeded ``greedy:claim_characters`` games (every position with a
  choice, decisions through the Python player, so the observation and belief are included), with
  the greedy futures played per second; seconds per game of ``oracle`` (one plan a game) and of
  wider beams.
* ``kind="search-strength"``: win rate (95% Wilson interval), mean claimed cards and the paired
  win-rate difference against ``greedy`` of random, every greedy policy, ``rollout:50`` and the
  oracle, each on the same ``n_games`` shuffles (``simulate``, one process). The oracle cheats:
  its rows say so.

Run ``python -m bench.dty_search [--games N] [--out FILE]`` (default: 1,000 shuffles, written
to ``bench/results/dty-search.json``); ``bench/__main__.py`` can call :func:`search_rows`.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from pathlib import Path
from typing import Any

from gamelib import __version__
from gamelib.core import SplitMixRandom, game_rngs
from gamelib.deck_the_yard import DECK_THE_YARD, DeckTheYardConfig
from gamelib.deck_the_yard.players import POLICIES
from gamelib.deck_the_yard.rules import DeckTheYardState
from gamelib.sim import simulate
from gamelib.stats import paired_difference, wilson

RESULTS = Path(__file__).parent / "results"
SEED = 2026


def _positions(cfg: DeckTheYardConfig, n_games: int) -> list[DeckTheYardState]:
    """Every position with a choice in ``n_games`` seeded greedy:claim_characters games."""
    out = []
    agent = DECK_THE_YARD.player("greedy:claim_characters")
    for seed in range(n_games):
        chance, seats = game_rngs(seed, 1)
        state = DECK_THE_YARD.new_state(cfg, chance)
        while not state.is_over():
            legal = state.legal_moves()
            if len(legal) > 1:
                out.append(state.clone())
            state.apply(agent(state.observation(0), legal, seats[0]))
    return out


def _label(spec: str) -> str:
    player = DECK_THE_YARD.player(spec)
    return str(getattr(player, "label", spec)) if getattr(player, "cheats", False) else spec


def cost_rows(cfg: DeckTheYardConfig, n_positions_games: int = 3) -> list[dict[str, Any]]:
    """Milliseconds per rollout decision; seconds per oracle game."""
    rows: list[dict[str, Any]] = []
    states = _positions(cfg, n_positions_games)
    for spec in ("rollout:50", "rollout:200"):
        player = DECK_THE_YARD.player(spec)
        player(states[0].observation(0), states[0].legal_moves(), SplitMixRandom(0))  # compile
        times, playouts = [], 0
        for i, state in enumerate(states):
            legal = state.legal_moves()
            t0 = time.perf_counter()
            player(state.observation(0), legal, SplitMixRandom(i))
            times.append(time.perf_counter() - t0)
            playouts += len(legal) * int(spec.split(":")[1])
        rows.append(
            {
                "kind": "search-cost",
                "case": "deck_the_yard standard",
                "players": spec,
                "decisions": len(times),
                "ms_per_decision_mean": round(1000 * statistics.mean(times), 2),
                "ms_per_decision_median": round(1000 * statistics.median(times), 2),
                "ms_per_decision_max": round(1000 * max(times), 2),
                "futures_per_s": round(playouts / sum(times)),
            }
        )
    for spec, n in (("oracle", 20), ("oracle:256", 10), ("oracle:1024", 5)):
        simulate(cfg, [spec], 1, 0, workers=1, progress=False)  # compile outside the timing
        t0 = time.perf_counter()
        simulate(cfg, [spec], n, SEED, workers=1, progress=False)
        rows.append(
            {
                "kind": "search-cost",
                "case": "deck_the_yard standard",
                "players": _label(spec),
                "games": n,
                "s_per_game": round((time.perf_counter() - t0) / n, 3),
            }
        )
    return rows


def strength_rows(
    cfg: DeckTheYardConfig, n_games: int, players: tuple[str, ...]
) -> list[dict[str, Any]]:
    """Win rates of ``players`` on the same ``n_games`` shuffles, paired against greedy."""
    tables = {}
    rows: list[dict[str, Any]] = []
    for spec in players:
        t0 = time.perf_counter()
        tables[spec] = simulate(cfg, [spec], n_games, SEED, workers=1, progress=False)
        seconds = time.perf_counter() - t0
        table = tables[spec]
        wins = int(table["won"].sum())
        lo, hi = wilson(wins, n_games)
        row = {
            "kind": "search-strength",
            "case": "deck_the_yard standard",
            "players": _label(spec),
            "cheats": bool(getattr(DECK_THE_YARD.player(spec), "cheats", False)),
            "games": n_games,
            "seed": SEED,
            "win_rate": round(wins / n_games, 4),
            "win_lo": round(lo, 4),
            "win_hi": round(hi, 4),
            "claimed_mean": round(float(table["claimed"].mean()), 3),
            "blackout_rate": round(float((table["blackouts"] > 0).mean()), 4),
            "s_per_game": round(seconds / n_games, 4),
        }
        if spec != "greedy" and "greedy" in tables:
            diff = paired_difference(table, tables["greedy"], "won")
            row["win_diff_vs_greedy"] = [round(float(diff[k]), 4) for k in ("diff", "lo", "hi")]
        if spec != "greedy:claim_characters" and "greedy:claim_characters" in tables:
            diff = paired_difference(table, tables["greedy:claim_characters"], "won")
            row["win_diff_vs_greedy_claim_characters"] = [
                round(float(diff[k]), 4) for k in ("diff", "lo", "hi")
            ]
        rows.append(row)
    return rows


PLAYERS = ("random", "greedy", *(f"greedy:{p}" for p in POLICIES[1:]), "rollout:50", "oracle")


def search_rows(n_games: int = 1000, players: tuple[str, ...] = PLAYERS) -> list[dict[str, Any]]:
    """Costs of the search players and win rates of ``players`` on ``n_games`` shuffles."""
    cfg = DeckTheYardConfig()
    return cost_rows(cfg) + strength_rows(cfg, n_games, players)


def main(argv: list[str] | None = None) -> int:
    """``python -m bench.dty_search``: print the rows and write them as JSON."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="shuffles per player")
    ap.add_argument("--players", default=",".join(PLAYERS), help="comma-separated specs")
    ap.add_argument("--out", type=Path, default=RESULTS / "dty-search.json")
    args = ap.parse_args(argv)
    rows = search_rows(args.games, tuple(args.players.split(",")))
    for r in rows:
        print(json.dumps(r))
    report = {
        "gamelib_version": __version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "when": time.strftime("%Y-%m-%d %H:%M:%S"),
        "rows": rows,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
