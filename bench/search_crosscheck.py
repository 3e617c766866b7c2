"""Generic against compiled search: are :mod:`gamelib.search`'s protocol-only players as strong
as each game's compiled search at the same budget?

For each game the generic player sits on one seat and the compiled one on the others, every
deal from every seat (Deck the Yard: both on the same shuffles, paired), and gamelib's verdict
layer plays deals until the question below is decided (:func:`gamelib.verdict.verdict`, α = β =
0.05). The question, :class:`Equal`, is "skill shows in neither direction": the generic
player's share of the points lies within its fair share ± δ (a solitaire: its win rate within
±δ of the compiled one's) — the two one-sided skill claims at margin δ both rejected.

Each study pits two players that run the same algorithm, so it checks the generic code:

* ``garner`` (setup A) — UCT with uniform random playouts to the end, C = 0.5, against the
  kernel's ``mcts:25:random``; the generic player is given the kernel's playout reward (0.8 of
  the result, 0.2 of the card share: :func:`garner_card_share_reward`), which its default (the
  points alone) lacks;
* ``garner-points`` — the same with the generic default reward, the points alone;
* ``gargon`` (three players) — SO-ISMCTS, random playouts, C = 0.7, against the kernel's search
  without progressive widening (``IsmctsPlayer(10, "random", 0.7, widen=False)``; the
  ``ismcts:N`` spec also widens by greedy's estimate, which the generic player cannot know),
  the generic player expanding, as that kernel search does, the first untried option in legal
  order;
* ``gargon-random-expansion`` — the same, with the generic default: a random untried option;
* ``deck_the_yard`` — flat Monte-Carlo, 4 futures, greedy ``claim_characters`` continuations,
  claims plus a win as the value: ``generic:rollout:4:greedy:claim_characters`` against the
  kernel's ``rollout:4`` (the same belief and determinization).

``python -m bench.search_crosscheck [--studies garner,gargon,…]`` writes each study's games to
``data/results/search-crosscheck-<study>.csv`` (a solitaire's second level to ``….1.csv``) and
the verdicts, with the command that re-makes each, to ``data/results/search-crosscheck.json``;
``tests/test_search_crosscheck.py`` plays the first deal of each stored table again and decides
the verdict again from the stored games.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from gamelib.registry import get_game
from gamelib.verdict import Band, verdict
from gamelib.verdict.questions import Question, level_credit, per_deal, seats_of

RESULTS = Path(__file__).resolve().parents[1] / "data" / "results"
SEED = 2026
MARGIN = 0.1
#: the columns a stored table keeps (with every seat's player, score and win)
KEPT = ("game", "game_index", "deal", "rotation", "seed", "winner", "n_winners", "reason", "turns")


@dataclass(frozen=True)
class Equal(Question):
    """Skill shows in neither direction: the stronger level's share (here: the generic
    player's) lies within its fair share ± ``margin`` (a solitaire: its win rate within
    ± ``margin`` of the other level's, on the same shuffles)."""

    margin: float = MARGIN
    name = "equal"
    unit = "pair"

    def margin_value(self) -> float:
        return self.margin

    def streams(
        self, tables: list[pd.DataFrame], **ctx: Any
    ) -> tuple[list[np.ndarray], list[Band]]:
        if len(tables) == 2:  # solitaire: the win difference on the same shuffles, on [0, 1]
            a, b = tables
            d = per_deal(a, a["win_0"]) - per_deal(b, b["win_0"])
            return [(d + 1) / 2], [Band((1 - self.margin) / 2, (1 + self.margin) / 2)]
        (t,) = tables
        n = len(seats_of(t))
        share = per_deal(t, level_credit(t, ctx["stronger"]))
        return [share], [Band(1 / n - self.margin, 1 / n + self.margin)]

    def describe(
        self, mean: np.ndarray, lo: np.ndarray, hi: np.ndarray, **ctx: Any
    ) -> tuple[float, float, float, str]:
        if ctx["n_seats"] == 1:
            return (
                float(2 * mean[0] - 1),
                float(2 * lo[0] - 1),
                float(2 * hi[0] - 1),
                f"{ctx['stronger']} wins more often than {ctx['weaker']} by",
            )
        return float(mean[0]), float(lo[0]), float(hi[0]), f"{ctx['stronger']} scores"

    def claim(self, **ctx: Any) -> str:
        if ctx["n_seats"] == 1:
            return f"{ctx['stronger']} wins as often as {ctx['weaker']}, within ±{self.margin:g}"
        fair = 1 / ctx["n_seats"]
        return f"{ctx['stronger']} scores {fair:.3g} ± {self.margin:g} against {ctx['weaker']}"

    def band(self, **ctx: Any) -> tuple[float | None, float | None]:
        fair = 0.0 if ctx["n_seats"] == 1 else 1 / ctx["n_seats"]
        return fair - self.margin, fair + self.margin


def compiled_gargon_flat(iterations: int) -> Any:
    """Gargon's compiled SO-ISMCTS with random playouts, C = 0.7, without progressive
    widening (it then expands the first untried option in legal order)."""
    from gamelib.gargon.search import IsmctsPlayer

    return IsmctsPlayer(iterations, "random", 0.7, widen=False)


def garner_card_share_reward(state: Any) -> list[float]:
    """The kernel's reward of a finished Garner playout (``gamelib.garner.search.end_reward``):
    0.8 of the result (win 1, draw ½) and 0.2 of seat 0's weighted share of the cards
    collected, ``0.5 + 0.5·Σ wᵤ(aᵤ − bᵤ)/nᵤ / Σ wᵤ``; seat 1's is one minus it."""
    from gamelib.garner.search import RESULT_WEIGHT
    from gamelib.search import points

    cfg = state.config
    weights, totals = cfg.weights, cfg.suit_sizes
    diff = sum(w * (a - b) / n for w, a, b, n in zip(weights, *state.piles, totals, strict=True))
    share = 0.5 + 0.5 * diff / sum(weights)
    r0 = RESULT_WEIGHT * points(state.outcome(), 2)[0] + (1 - RESULT_WEIGHT) * share
    return [r0, 1.0 - r0]


def generic_garner(iterations: int) -> Any:
    """The generic UCT with the kernel's playout reward (card share) and C = 0.5."""
    from gamelib.search.players import MctsPlayer, clone_state

    name = f"generic:mcts:{iterations}:0.5+card-share"
    return MctsPlayer(name, iterations, 0.5, clone_state, reward=garner_card_share_reward)


def generic_gargon_first(iterations: int) -> Any:
    """The generic SO-ISMCTS (C = 0.7) expanding the first untried option, as the kernel's
    flat search does."""
    from gamelib.registry import get_game
    from gamelib.search.players import IsmctsPlayer

    resample = get_game("gargon").resample
    assert resample is not None
    name = f"generic:ismcts:{iterations}:0.7+first"
    return IsmctsPlayer(name, iterations, 0.7, resample, expand="first")


#: study: (game, setup, the compiled level, the generic level, most games of the pair, what)
STUDIES: dict[str, tuple[str, str | None, Any, Any, int, str]] = {
    "garner": (
        "garner",
        "A",
        lambda: "mcts:25:random",
        lambda: generic_garner(25),
        1200,
        "UCT, random playouts to the end, C = 0.5, the kernel's reward (result and card share)",
    ),
    "garner-points": (
        "garner",
        "A",
        lambda: "mcts:25:random",
        lambda: "generic:mcts:25:0.5",
        1200,
        "the generic default (a playout scores its points alone) against the kernel's mcts:25",
    ),
    "gargon": (
        "gargon",
        "3p",
        lambda: compiled_gargon_flat(10),
        lambda: generic_gargon_first(10),
        1200,
        "SO-ISMCTS, random playouts, C = 0.7, no widening, the first untried option expanded",
    ),
    "gargon-random-expansion": (
        "gargon",
        "3p",
        lambda: compiled_gargon_flat(10),
        lambda: "generic:ismcts:10:0.7",
        1200,
        "the generic default (a random untried option expanded) against the kernel's flat search",
    ),
    "deck_the_yard": (
        "deck_the_yard",
        None,
        lambda: "rollout:4",
        lambda: "generic:rollout:4:greedy:claim_characters",
        1200,
        "flat Monte-Carlo, 4 futures, greedy:claim_characters continuations, claims + win",
    ),
}


def levels(study_id: str) -> tuple[Any, Any]:
    """The (compiled, generic) players of a study."""
    _, _, compiled, generic, _, _ = STUDIES[study_id]
    return compiled(), generic()


def study(study_id: str, workers: int = 2, max_games: int | None = None) -> dict[str, Any]:
    """Play one study's pair until :class:`Equal` is decided; store its games; the verdict."""
    game, setup, _, _, games, what = STUDIES[study_id]
    config = get_game(game).config(setup)
    compiled, generic = levels(study_id)
    tables: dict[str, list[pd.DataFrame]] = {}
    t0 = time.perf_counter()
    rows = verdict(
        config,
        [compiled, generic],
        [Equal()],
        max_games=max_games or games,
        seed=SEED,
        workers=workers,
        progress=True,
        tables=tables,
    )
    seconds = round(time.perf_counter() - t0, 1)
    row = rows.iloc[0].to_dict()
    (key,) = tables
    parts = tables[key]
    for i, part in enumerate(parts):
        out = RESULTS / f"search-crosscheck-{study_id}{'' if i == 0 else f'.{i}'}.csv"
        cols = [c for c in part.columns if c in KEPT or c.startswith(("player_", "score_", "win_"))]
        part[cols].to_csv(out, index=False)
    return {
        "game": game,
        "what": what,
        "setup": setup,
        "seed": SEED,
        "margin": MARGIN,
        "seconds": seconds,
        **{k: (v.item() if hasattr(v, "item") else v) for k, v in row.items()},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.search_crosscheck", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--studies", default=",".join(STUDIES), help=", ".join(STUDIES))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-games", type=int, default=None)
    args = parser.parse_args(argv)
    out = RESULTS / "search-crosscheck.json"
    stored = json.loads(out.read_text()) if out.exists() else {}
    for study_id in [g.strip() for g in args.studies.split(",") if g.strip()]:
        if study_id not in STUDIES:
            parser.error(f"unknown study {study_id!r}; studies: {', '.join(STUDIES)}")
        result = study(study_id, args.workers, args.max_games)
        result["command"] = shlex.join(
            ["python", "-m", "bench.search_crosscheck", "--studies", study_id]
            + ([f"--max-games={args.max_games}"] if args.max_games else [])
        )
        stored[study_id] = result
        print(json.dumps(result, indent=1, default=str), flush=True)
        out.write_text(json.dumps(stored, indent=1, default=str) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
