"""The OpenSpiel adapters' speed beside OpenSpiel's own games: random play through pyspiel.

Each game is played with uniform random actions (chance outcomes drawn by their
probabilities) for about ``seconds``, every step through ``pyspiel`` from Python, as an
OpenSpiel algorithm drives it: decisions per second, actions per second (chance outcomes
included — the deal is dealt card by card, so a card game has many), and both as ratios to
OpenSpiel's own pure-Python tic-tac-toe (``python_tic_tac_toe``, issue 23's bar) and to C++
games driven the same way (tic-tac-toe and Leduc poker). Nothing is asserted; ``make bench``
prints the table, ``python -m bench --openspiel-only`` writes ``bench/results/openspiel.json``.
"""

from __future__ import annotations

import random
import time
from typing import Any

#: OpenSpiel's own games: the Python bar and C++ games driven through pyspiel
PEERS = ("python_tic_tac_toe", "tic_tac_toe", "leduc_poker")
#: gamelib's games through gamelib.openspiel (compiled-kernel states; Leduc protocol-only)
ADAPTERS = (
    "gamelib_garner(setup=A)",
    "gamelib_garner(setup=standard)",
    "gamelib_gargon(setup=4p)",
    "gamelib_deck_the_yard",
    "gamelib_leduc",
)
BAR = "python_tic_tac_toe"


def measure(name: str, seconds: float) -> dict[str, Any]:
    """Random play of ``name`` for about ``seconds``: games, decisions and actions per second."""
    import pyspiel

    game = pyspiel.load_game(name)
    rng = random.Random(0)
    games = decisions = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
            actions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {
        "game": name,
        "games_per_s": round(games / elapsed, 1),
        "decisions_per_s": round(decisions / elapsed),
        "actions_per_s": round(actions / elapsed),
        "chance_per_decision": round((actions - decisions) / max(decisions, 1), 2),
    }


def rows(seconds: float = 3.0) -> list[dict[str, Any]]:
    """Every peer and adapter measured, with the ratios, printed as they come."""
    try:
        import pyspiel  # noqa: F401
        from open_spiel.python import games as _python_games  # noqa: F401  registers python_*

        import gamelib.openspiel  # noqa: F401  registers gamelib_*
    except ImportError as exc:
        print(f"skipped the OpenSpiel adapters' rows: {exc}")
        return []
    out = []
    print(
        f"\nOpenSpiel, random play through pyspiel  {'decisions/s':>12} {'actions/s':>11} "
        f"{'chance/dec':>10}  {'÷ python ttt (dec, act)':>24}  {'÷ C++ ttt (act)':>15}"
    )
    for name in (*PEERS, *ADAPTERS):
        out.append(measure(name, seconds))
    by = {r["game"]: r for r in out}
    bar, cpp = by[BAR], by["tic_tac_toe"]
    for r in out:
        r["decisions_vs_python_ttt"] = round(r["decisions_per_s"] / bar["decisions_per_s"], 2)
        r["actions_vs_python_ttt"] = round(r["actions_per_s"] / bar["actions_per_s"], 2)
        r["actions_vs_cpp_ttt"] = round(r["actions_per_s"] / cpp["actions_per_s"], 3)
        print(
            f"  {r['game']:<38} {r['decisions_per_s']:>12,} {r['actions_per_s']:>11,} "
            f"{r['chance_per_decision']:>10}  {r['decisions_vs_python_ttt']:>11.2f} "
            f"{r['actions_vs_python_ttt']:>11.2f}  {r['actions_vs_cpp_ttt']:>15.3f}"
        )
    return out
