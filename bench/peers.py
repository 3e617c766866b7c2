"""gamelib's games on the reference engine beside their peers (OpenSpiel's pure-Python and C++
games, RLCard's UNO), the ratios between them and the throughput targets.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from gamelib import play_game
from gamelib.registry import GAMES


def _reference(game: Any, config: Any, players: list[str]) -> Callable[[int], int]:
    """One game on the reference (Python) engine, the baseline of every compiled row."""

    def play(seed: int) -> int:
        return play_game(game, config, players, seed, engine="python").decisions

    return play


def gamelib_cases() -> list[tuple[str, str, Callable[[int], int]]]:
    """(name, players, play-one-game) for every gamelib game, setup and player of interest."""
    garner = GAMES["garner"]
    cases: list[tuple[str, str, Callable[[int], int]]] = []
    for setup in garner.setups:
        cfg = garner.config(setup)
        cases.append(
            (
                f"garner {setup}",
                "random ×2",
                lambda seed, cfg=cfg: (
                    play_game(garner, cfg, ["random", "random"], seed, engine="python").decisions
                ),
            )
        )
    std = garner.config("standard")
    for pair in (["greedy", "greedy"], ["cautious", "cautious"], ["cautious", "random"]):
        label = f"{pair[0]} ×2" if pair[0] == pair[1] else " v ".join(pair)
        cases.append(
            (
                "garner standard",
                label,
                lambda seed, pair=pair: (
                    play_game(garner, std, pair, seed, engine="python").decisions
                ),
            )
        )
    gargon = GAMES["gargon"]
    for n in (3, 4, 5):
        cfg = gargon.config(f"{n}p")
        cases.append(
            (
                f"gargon {n}p",
                f"random ×{n}",
                lambda seed, cfg=cfg, n=n: (
                    play_game(gargon, cfg, ["random"] * n, seed, engine="python").decisions
                ),
            )
        )
    g4 = gargon.config("4p")
    cases.append(
        (
            "gargon 4p",
            "greedy ×4",
            _reference(gargon, g4, ["greedy"] * 4),
        )
    )
    dty = GAMES["deck_the_yard"]
    dcfg = dty.config(None)
    for player in ("random", "greedy"):
        cases.append(
            (
                "deck_the_yard",
                player,
                _reference(dty, dcfg, [player]),
            )
        )
    return cases


OPENSPIEL_GAMES = (
    "python_kuhn_poker",
    "python_tic_tac_toe",
    "python_liars_poker",
    "python_iterated_prisoners_dilemma",
    # C++ games, driven move by move from Python through pyspiel (the targets of issue 11)
    "hearts",
    "clobber",
    "dots_and_boxes(num_rows=5,num_cols=5)",
    # gamelib's own games driven through OpenSpiel (gamelib.openspiel, issue 13): random play
    # through the adapter, beside the same games' rows above
    "gamelib_garner",
    "gamelib_gargon",
    "gamelib_deck_the_yard",
)


def peer_cases() -> tuple[list[tuple[str, str, Callable[[int], int]]], list[str]]:
    """Peers that are installed, and a note for each one that is not."""
    cases: list[tuple[str, str, Callable[[int], int]]] = []
    missing = []
    try:
        import pyspiel
        from open_spiel.python import games as _python_games  # noqa: F401  registers python_*

        import gamelib.openspiel  # noqa: F401  registers gamelib_*
    except ImportError as exc:
        missing.append(f"OpenSpiel not installed ({exc}); `make bench` installs it")
    else:
        for name in OPENSPIEL_GAMES:
            cases.append((f"openspiel {name}", "random", _openspiel_player(pyspiel, name)))
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError as exc:
        missing.append(f"RLCard not installed ({exc}); `make bench` installs it")
    else:

        def uno(seed: int) -> int:
            env = rlcard.make("uno", config={"seed": seed % 2**31})
            env.set_agents([RandomAgent(num_actions=env.num_actions)] * env.num_players)
            trajectories, _ = env.run(is_training=False)
            return sum((len(t) - 1) // 2 for t in trajectories)

        cases.append(("rlcard uno", "random", uno))
    return cases, missing


def _openspiel_player(pyspiel: Any, name: str) -> Callable[[int], int]:
    game = pyspiel.load_game(name)
    n_players = game.num_players()

    def play(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            elif state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(n_players)])
                decisions += n_players
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
        return decisions

    return play


TARGETS = {  # issue 11: random play, decisions/s, ÷ OpenSpiel's python tic-tac-toe
    "garner standard": 34.0,
    "gargon 4p": 24.0,
    "deck_the_yard": 21.0,
}


CPP_GAMES = ("openspiel hearts", "openspiel clobber", "openspiel dots_and_boxes")


def targets(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every compiled random-play row against issue 11's two ratio targets (same run)."""
    peers = {r["case"]: r for r in rows if r["kind"] == "peer"}
    ttt = peers.get("openspiel python_tic_tac_toe")
    cpp = [r for r in rows if r["kind"] == "peer" and r["case"].startswith(CPP_GAMES)]
    fastest = max(cpp, key=lambda r: r["decisions_per_s"], default=None)
    out = []
    for r in rows:
        if r["kind"] != "kernel" or not r["players"].startswith("random"):
            continue
        entry: dict[str, Any] = {"case": r["case"], "decisions_per_s": r["decisions_per_s"]}
        if ttt is not None:
            entry["vs_tic_tac_toe"] = round(r["decisions_per_s"] / ttt["decisions_per_s"], 1)
            entry["tic_tac_toe_target"] = TARGETS.get(r["case"])
        if fastest is not None:
            entry["fastest_cpp"] = fastest["case"]
            entry["vs_fastest_cpp"] = round(r["decisions_per_s"] / fastest["decisions_per_s"], 2)
        out.append(entry)
    return out
