"""Gargon's compiled greedy players against the readable ones, decision by decision.

Kernel games with greedy, greedy:ignore and random seats (entirely in compiled code) are replayed
through the reference ``GargonState``; at every decision of a greedy seat the Python
``GreedyPlayer`` (given that seat's observation) must choose exactly the kernel's decision. The
reference takes the first best option and never draws from its rng (checked here too), so there
is no random tie-break to allow for: any difference fails. The kernel player must also ignore
what the seat cannot see: its decision is unchanged when the hidden numbers of the other seats
and the piles are shuffled within their colours (the resampler of ``test_gargon_properties``).
``GARGON_GREEDY_CROSSCHECK_GAMES`` sets the number of games (a few per case by default).
"""

from __future__ import annotations

import math
import os
import random
from collections import Counter

import numpy as np
import pytest
from test_gargon_properties import _resample_hidden

from gamelib.core import ConfigError
from gamelib.gargon import kernel as K
from gamelib.gargon.players import GreedyPlayer
from gamelib.gargon.rules import PHASE_NAMES, GargonConfig, Pass, Play

# (config, seats' players): 3, 4 and 5 players, both greedy variants, mixed tables, and rule
# variations that move the greedy player's numbers (zero multiplier, bonuses, amulets)
CASES: list[tuple[GargonConfig, tuple[str, ...]]] = [
    (GargonConfig(n_players=3), ("greedy",) * 3),
    (GargonConfig(n_players=4), ("greedy",) * 4),
    (GargonConfig(n_players=5), ("greedy",) * 5),
    (GargonConfig(n_players=3), ("greedy:ignore",) * 3),
    (GargonConfig(n_players=4), ("greedy:ignore",) * 4),
    (GargonConfig(n_players=5), ("greedy", "random", "greedy:ignore", "random", "greedy")),
    (GargonConfig(n_players=4), ("random", "greedy:value", "random", "greedy:ignore")),
    (GargonConfig(n_players=4, zero_multiplier=3), ("greedy", "greedy:ignore") * 2),
    (GargonConfig(n_players=3, zero_multiplier=1.5), ("greedy",) * 3),
    (GargonConfig(n_players=5, zero_multiplier=0), ("greedy", "greedy:ignore") * 2 + ("greedy",)),
    (GargonConfig(n_players=4, majority_bonus=0, shared_bonus=0), ("greedy",) * 4),
    (GargonConfig(n_players=3, majority_bonus=7, shared_bonus=5), ("greedy:ignore",) * 3),
    (GargonConfig(n_players=4, amulets=tuple(range(16))), ("greedy",) * 4),
    (GargonConfig(n_players=3, hand_size=3, allow_three_colours=False), ("greedy",) * 3),
    (GargonConfig(n_players=4, last_player_restriction=False), ("greedy",) * 4),
]
TOTAL_GAMES = int(os.environ.get("GARGON_GREEDY_CROSSCHECK_GAMES", 3 * len(CASES)))
GAMES_PER_CASE = max(1, math.ceil(TOTAL_GAMES / len(CASES)))
DEFAULTS = GargonConfig()


def _label(case: tuple[GargonConfig, tuple[str, ...]]) -> str:
    cfg, players = case
    changed = [
        f"{k}={v}" for k, v in vars(cfg).items() if k != "n_players" and v != getattr(DEFAULTS, k)
    ]
    return f"{cfg.n_players}p" + "".join("-" + c for c in changed) + "-" + ",".join(players)


def crosscheck(
    cfg: GargonConfig, players: tuple[str, ...], n_games: int, seed: int
) -> Counter[str]:
    """Replay kernel games through the reference; every greedy decision is checked against the
    Python player. Counts what the greedy seats decided."""
    games = K.play(cfg, players, n_games, seed, record=True)
    pythons = {
        s: GreedyPlayer(value_zeros=p != "greedy:ignore")
        for s, p in enumerate(players)
        if p != "random"
    }
    seen: Counter[str] = Counter()
    for g in range(n_games):
        ref = K.reference_state(cfg, games.deals[g])
        for i, d in enumerate(games.game_decisions(g)):
            seat = ref.to_move
            move = K.decode(ref.phase, int(d))
            if seat in pythons:
                rng = random.Random(i)
                before = rng.getstate()
                legal = ref.legal_moves()
                chosen = pythons[seat](ref.observation(seat), legal, rng)
                assert chosen == move, f"{_label((cfg, players))} game {g} decision {i}"
                assert rng.getstate() == before  # no random tie-break to allow for
                name = PHASE_NAMES[ref.phase]
                if isinstance(move, Play):
                    name += " lead" if seat == ref.lead else " follow"
                elif isinstance(move, Pass):
                    name += f" pass {move.draws}"
                seen[name] += 1
                seen["options"] += len(legal) > 1
            ref.apply(move)
        assert ref.is_over()
        for name, value in ref.outcome().row().items():
            assert games.table[g][name] == value, f"{_label((cfg, players))} game {g}: {name}"
        seen["games"] += 1
    return seen


@pytest.fixture(scope="module")
def exercised() -> Counter[str]:
    return Counter()


@pytest.mark.parametrize("case", CASES, ids=_label)
def test_kernel_greedy_chooses_as_the_python_player(
    case: tuple[GargonConfig, tuple[str, ...]], exercised: Counter[str]
):
    cfg, players = case
    exercised.update(crosscheck(cfg, players, GAMES_PER_CASE, seed=31 + CASES.index(case)))


def test_the_sample_exercised_every_greedy_decision(exercised: Counter[str]):
    if not exercised:
        for cfg, players in CASES[:6]:
            exercised.update(crosscheck(cfg, players, 1, seed=5))
    keys = ["play lead", "play follow", "play pass 1", "play pass 3", "draw", "resolve"]
    for key in keys:
        assert exercised[key] > 0, f"the sample never saw {key}: {dict(exercised)}"


@pytest.mark.parametrize("n", [3, 4, 5])
def test_kernel_greedy_ignores_hidden_numbers(n: int):
    # positions of kernel greedy games; the other seats' hands and face-down cards and the piles
    # reshuffled within their colours must not move the kernel player's decision
    cfg = GargonConfig(n_players=n)
    games = K.play(cfg, "greedy", 2, seed=70 + n, record=True)
    checked = moved = 0
    for g in range(2):
        ref = K.reference_state(cfg, games.deals[g])
        for i, d in enumerate(games.game_decisions(g)):
            if i % 3 == 0:
                seat = ref.to_move
                for k in range(2):
                    other = _resample_hidden(ref, seat, random.Random(k))
                    t, st = K.from_reference(other)
                    work, fwork = K.new_work(t), K.new_fwork(t)
                    m = K.legal(t, st, work)
                    for zeros in (True, False):
                        want = GreedyPlayer(zeros)(
                            ref.observation(seat), ref.legal_moves(), random.Random(0)
                        )
                        got = K.greedy(t, st, work, m, zeros, fwork)
                        assert K.decode(ref.phase, got) == want, f"game {g} decision {i}"
                    moved += other.hands != ref.hands or other.piles != ref.piles
                    checked += 1
            ref.apply(K.decode(ref.phase, int(d)))
    assert checked > 50 and moved > checked // 2  # the resampler did hide things


def test_all_random_play_is_play_random():
    cfg = GargonConfig(n_players=4)
    a = K.play(cfg, ["random"] * 4, 5, seed=3, record=True)
    b = K.play_random(cfg, 5, seed=3, record=True)
    assert np.array_equal(a.table, b.table) and np.array_equal(a.decisions, b.decisions)


def test_greedy_beats_random_in_the_kernel_too():
    cfg = GargonConfig(n_players=4)
    table = K.play(cfg, ["greedy", "random", "random", "random"], 400, seed=9).table
    assert table["win_0"].mean() > 1.5 / 4  # well above a fair share, as in the Python test
    blind = K.play(cfg, ["greedy:ignore", "random", "random", "random"], 400, seed=9).table
    assert blind["win_0"].mean() > 1.5 / 4


def test_bad_players_are_named():
    cfg = GargonConfig(n_players=3)
    with pytest.raises(ConfigError, match="got 'cautious' for seat 1"):
        K.play(cfg, ["greedy", "cautious", "random"], 1, seed=1)
    with pytest.raises(ConfigError, match="3 players play this config, got 2"):
        K.play(cfg, ["greedy", "random"], 1, seed=1)
    with pytest.raises(ConfigError, match="GargonConfig"):
        K.play("3p", "greedy", 1, seed=1)  # type: ignore[arg-type]
