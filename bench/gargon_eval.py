"""Fit Gargon's cut-off evaluation (``gamelib.gargon.search.evaluate``) on greedy games.

The evaluation ``ismcts:N:cut:K`` backs up when it stops a playout is a conditional logit (a
softmax over the seats) of the final win on the position's features
(``gamelib.gargon.search.FEATURES``: captured amulets and majority bonuses as they stand, cards
in hand and their values, and two interactions with the share of the draw piles drawn). Its
weights are fitted here by maximum likelihood, one set per player count:

* **games**: ``GAMES`` seeded games per player count (seeds ``SEED + g``), every seat the
  compiled greedy player, except that each decision with several options is a uniformly random
  one with probability ``EPSILON`` (so the positions are more varied than greedy's own, closer
  to what a search's random playouts reach);
* **positions**: the start of every round after the first (the cut-off stops a playout at a
  round's start), each seat's features, and the game's final win shares (1, or 1/k for a win
  shared by k) as the target;
* **fit**: the multinomial log-likelihood ``Σ_positions Σ_seats y_s log softmax(w·f)_s`` (L-BFGS,
  an exact gradient) on the first two thirds of the games; the log-loss per position on the
  last third is reported beside the uniform guess (``log n``) and a score-only fit.

``python -m bench.gargon_eval`` prints the weights and writes ``bench/results/gargon-eval.json``
(the weights, per-player-count log-losses, sample sizes, seeds, the machine); the weights are
then copied into ``EVAL_WEIGHTS`` in ``gamelib/gargon/search.py``. One core; under a minute.
"""

from __future__ import annotations

import json
import platform
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit
from scipy.optimize import minimize

from gamelib.gargon import GARGON
from gamelib.gargon.kernel import (
    N_RESULTS,
    N_SEAT_RESULTS,
    OVER,
    PHASE,
    ROUNDS,
    S_WINNER,
    TO_MOVE,
    apply,
    deal,
    greedy,
    legal,
    new_fwork,
    new_work,
    result,
    rng_streams,
    tables,
)
from gamelib.gargon.rules import N_CARDS
from gamelib.gargon.search import FEATURES, N_FEATURES, features
from gamelib.kernel_rng import rng_below, seeds_for

GAMES = 20_000
SEED = 20_240_033
EPSILON = 0.1
OUT = Path(__file__).parent / "results" / "gargon-eval.json"


@njit(cache=True)
def _positions(t: Any, seeds: Any, epsilon: float) -> Any:
    """Play one game per seed (greedy, ε-random) and return, per round start after the first,
    the seats' features and the game's final win shares: ``(feats, shares, game)``."""
    n = t.params[0]
    cap = len(seeds) * 40
    feats = np.zeros((cap, n, N_FEATURES))
    shares = np.zeros((cap, n))
    game = np.zeros(cap, np.int64)
    k = 0
    work = new_work(t)
    fwork = new_fwork(t)
    deck = np.empty(N_CARDS, np.int64)
    row = np.zeros(N_RESULTS, np.int64)
    seat_rows = np.zeros((n, N_SEAT_RESULTS), np.int64)
    scores = np.zeros(n)
    amulets = np.zeros(n)
    for g in range(len(seeds)):
        rs = rng_streams(seeds[g], n)
        st = deal(t, rs, deck)
        first = k
        rounds = st[ROUNDS]
        while st[PHASE] != OVER:
            if st[ROUNDS] != rounds:
                rounds = st[ROUNDS]
                if k < cap:
                    features(t, st, row, seat_rows, scores, amulets, feats[k])
                    game[k] = g
                    k += 1
            m = legal(t, st, work)
            seat = st[TO_MOVE]
            if m == 1:
                d = work[0]
            elif rng_below(rs, 1 + seat, 1_000_000) < epsilon * 1_000_000:
                d = work[rng_below(rs, 1 + seat, m)]
            else:
                d = greedy(t, st, work, m, True, fwork)
            apply(t, st, d)
        result(t, st, row, seat_rows, scores, amulets)
        winners = 0
        for s in range(n):
            winners += seat_rows[s, S_WINNER]
        for i in range(first, k):
            for s in range(n):
                shares[i, s] = seat_rows[s, S_WINNER] / winners
    return feats[:k], shares[:k], game[:k]


def _loss(w: np.ndarray, f: np.ndarray, y: np.ndarray) -> tuple[float, np.ndarray]:
    """The mean negative log-likelihood of a conditional logit and its gradient."""
    u = f @ w
    u -= u.max(axis=1, keepdims=True)
    logp = u - np.log(np.exp(u).sum(axis=1, keepdims=True))
    p = np.exp(logp)
    nll = -(y * logp).sum() / len(f)
    grad = -np.einsum("ps,psk->k", y - p * y.sum(axis=1, keepdims=True), f) / len(f)
    return float(nll), grad


def fit(f: np.ndarray, y: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """The maximum-likelihood weights (features outside ``mask`` held at 0)."""
    k = f.shape[2]
    m = np.ones(k, bool) if mask is None else mask
    res = minimize(
        lambda w: _masked(w, m, f, y),
        np.zeros(m.sum()),
        jac=True,
        method="L-BFGS-B",
    )
    return _full(res.x, m)


def _full(w: np.ndarray, m: np.ndarray) -> np.ndarray:
    out = np.zeros(len(m))
    out[m] = w
    return out


def _masked(w: np.ndarray, m: np.ndarray, f: np.ndarray, y: np.ndarray) -> tuple[float, Any]:
    nll, grad = _loss(_full(w, m), f, y)
    return nll, grad[m]


def run(games: int = GAMES, seed: int = SEED, epsilon: float = EPSILON) -> dict[str, Any]:
    """Fit the weights for 3, 4 and 5 players; returns the JSON document."""
    doc: dict[str, Any] = {
        "what": "Gargon cut-off evaluation: conditional-logit fit of the final win share on "
        "round-start features (bench/gargon_eval.py)",
        "features": list(FEATURES),
        "games_per_player_count": games,
        "seed": seed,
        "epsilon_random": epsilon,
        "players": "compiled greedy on every seat, each multi-option decision uniformly random "
        "with probability epsilon",
        "train": "first 2/3 of the games; test: the last 1/3 (log-loss per position, nats)",
        "method": "maximum likelihood (scipy L-BFGS-B), as in Lanctot et al. 2014's and "
        "Winands et al. 2010's evaluation functions for MCTS cut-offs",
        "machine": platform.processor() or platform.machine(),
        "fits": {},
    }
    for n in (3, 4, 5):
        t0 = time.perf_counter()
        cfg = GARGON.config(None, n_players=n)
        f, y, g = _positions(tables(cfg), seeds_for(seed + n, games, 0), epsilon)
        train = g < (2 * games) // 3
        w = fit(f[train], y[train])
        score_only = fit(f[train], y[train], np.array([True, True] + [False] * (N_FEATURES - 2)))
        test_f, test_y = f[~train], y[~train]
        doc["fits"][str(n)] = {
            "weights": [round(float(x), 4) for x in w],
            "positions": len(f),
            "train_positions": int(train.sum()),
            "test_logloss": round(_loss(w, test_f, test_y)[0], 4),
            "test_logloss_score_only": round(_loss(score_only, test_f, test_y)[0], 4),
            "test_logloss_uniform": round(float(np.log(n)), 4),
            "seconds": round(time.perf_counter() - t0, 1),
        }
        print(n, doc["fits"][str(n)], file=sys.stderr)
    return doc


def main() -> None:
    """Fit, print and write ``bench/results/gargon-eval.json``."""
    doc = run()
    OUT.write_text(json.dumps(doc, indent=1) + "\n")
    print(json.dumps(doc["fits"], indent=1))


if __name__ == "__main__":
    main()
