"""Gargon's search player on one core: milliseconds per ``ismcts:1000`` decision on a 4-player
mid-game position, iterations/s, beside the compiled core's random decisions/s.

Two kinds of row per playout policy (``random``, ``greedy``). The position: a seeded random game
of the reference engine played to half its length, then on to the next decision of a round's
lead (the richest decision: every play of its hand); the full player call (observation →
template → compiled search → move) is timed for several seeds and the median kept, the compiled
code loaded (or compiled) before timing. In games: one ``ismcts:1000`` seat against three
``greedy`` for a few seeded games, every searched decision timed (mean, median, slowest; early
positions have longer playouts). Nothing is asserted. ``python -m bench.gargon_search`` prints
the rows and writes them to ``bench/results/gargon-search.json``.
"""

from __future__ import annotations

import json
import platform
import random
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gamelib import play_game
from gamelib.core import Move
from gamelib.gargon import GARGON, GargonObservation, GargonState, new_state
from gamelib.gargon.kernel import play_random
from gamelib.gargon.rules import PLAY


def mid_game_lead(seed: int = 2024) -> tuple[GargonState, int, int]:
    """A 4-player position: seeded random play to half the game's length, then to the next
    lead's decision. Returns (state, decisions made, decisions in the whole game)."""
    cfg = GARGON.config("4p")

    def play(stop: int | None) -> tuple[GargonState, int]:
        rng = random.Random(seed)
        s = new_state(cfg, rng)
        made = 0
        while not s.is_over() and (stop is None or made < stop):
            s.apply(rng.choice(s.legal_moves()))
            made += 1
        return s, made

    _, length = play(None)
    s, made = play(length // 2)
    rng = random.Random(seed + 1)
    while not (s.phase == PLAY and s.current_player() == s.lead):
        s.apply(rng.choice(s.legal_moves()))
        made += 1
    return s, made, length


def kernel_random_decisions_per_s(seconds: float = 2.0) -> float:
    """The compiled core's random play, 4 players: decisions per second over ``seconds``."""
    cfg = GARGON.config("4p")
    play_random(cfg, 1, 0)
    decisions, start, games = 0, time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        decisions += int(play_random(cfg, 200, 12345, start=games).table["decisions"].sum())
        games += 200
    return decisions / (time.perf_counter() - start)


def game_row(iterations: int, playout: str, games: int) -> dict[str, Any]:
    """ms per searched ``ismcts:N`` decision over ``games`` seeded 4-player games, one search
    seat (seat 0) against three greedy ones."""
    player = GARGON.player(f"ismcts:{iterations}:{playout}")
    times: list[float] = []

    def timed(obs: GargonObservation, legal: Sequence[Move], rng: random.Random) -> Move:
        t0 = time.perf_counter()
        move = player(obs, legal, rng)
        if len(legal) > 1:
            times.append(time.perf_counter() - t0)
        return move

    for seed in range(games):
        play_game(GARGON, GARGON.config("4p"), [timed, "greedy", "greedy", "greedy"], seed)
    return {
        "case": f"gargon 4p, {games} games v greedy ×3",
        "players": f"ismcts:{iterations}:{playout}",
        "searched_decisions": len(times),
        "ms_per_decision": round(statistics.mean(times) * 1e3, 2),
        "median_ms": round(statistics.median(times) * 1e3, 2),
        "slowest_ms": round(max(times) * 1e3, 2),
        "iterations_per_s": round(iterations * len(times) / sum(times), 0),
    }


def search_rows(iterations: int = 1000, repeats: int = 7, games: int = 2) -> list[dict[str, Any]]:
    """Per playout policy: ms per ``ismcts:N`` decision and iterations/s on the mid-game lead
    position (with the kernel's random decisions/s of the same run), and over the searched
    decisions of ``games`` games against greedy."""
    s, made, length = mid_game_lead()
    seat = s.current_player()
    obs, legal = s.observation(seat), s.legal_moves()
    kernel_rate = kernel_random_decisions_per_s()
    rows = []
    for playout in ("random", "greedy"):
        player = GARGON.player(f"ismcts:{iterations}:{playout}")
        player(obs, legal, random.Random(0))  # load (or compile) outside the timing
        times = []
        for k in range(repeats):
            rng = random.Random(k)
            t0 = time.perf_counter()
            player(obs, legal, rng)
            times.append(time.perf_counter() - t0)
        sec = statistics.median(times)
        rows.append(
            {
                "case": "gargon 4p mid-game lead",
                "players": f"ismcts:{iterations}:{playout}",
                "decisions_made": made,
                "game_length": length,
                "options": len(legal),
                "ms_per_decision": round(sec * 1e3, 2),
                "iterations_per_s": round(iterations / sec, 0),
                "kernel_random_decisions_per_s": round(kernel_rate, 0),
            }
        )
    rows += [game_row(iterations, playout, games) for playout in ("random", "greedy")]
    return rows


if __name__ == "__main__":
    found = search_rows()
    for r in found:
        print(r)
    out = Path(__file__).parent / "results" / "gargon-search.json"
    report = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "when": time.strftime("%Y-%m-%d %H:%M:%S"),
        "rows": found,
    }
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"written: {out}")
