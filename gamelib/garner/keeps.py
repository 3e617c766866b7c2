"""How often a Garner player keeps a position's game-theoretic value: the ladder's distance
from perfect play.

Positions are sampled from seeded games played by ``reach`` players (:func:`sample_positions`)
and solved exactly (:mod:`gamelib.garner.solver`); a *critical* position is a decision with two
or more options where some option loses value (a win becomes a draw or a loss, a draw a loss,
for the seat to move). :func:`judge` asks a player for its move at each critical position, and
the share of them where its choice keeps the value, with a Wilson interval (:func:`share_row`),
measures how often it plays exactly right where it matters (:func:`keeps_value`).

:func:`study` is notebook 04's stored measure — every ladder level judged on the same positions
at several depths of the game — and ``python -m gamelib.garner.keeps OUT.csv`` re-makes it
(``data/results/ladders.sh`` runs it). Reading the share as a distance from perfect play
follows the "agreement with an oracle" measures of computer chess (e.g. Guid & Bratko,
"Computer analysis of world chess champions", *ICGA Journal* 29, 2006), with the exact solver as
the oracle.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from gamelib.core import ConfigError, Move, Player, game_rngs, game_seeds
from gamelib.garner import GARNER
from gamelib.garner.kernel_players import encode, play_seeds, supports
from gamelib.garner.rules import LIFT, PHASE_NAMES, GarnerConfig, GarnerState, new_state
from gamelib.garner.solver import IntArray, Solver, SolverBudgetError, solver_for


@dataclass(frozen=True)
class Position:
    """One sampled decision, solved: the position, the earlier decisions of its turn and which
    options keep its value."""

    game: int
    """The game's number in the sample (its seed is ``game_seeds(seed, n)[game]``)."""
    seed: int
    """The game's seed (it deals the layout, as ``gamelib`` seeds games)."""
    state: GarnerState
    """The position at the decision (not to be modified)."""
    turn: tuple[tuple[GarnerState, Move], ...]
    """The decisions of this turn before it: each position and the move the reach player made."""
    value: float
    """Seat 0's result under perfect play (1 win, 0.5 draw, 0 loss)."""
    keeping: tuple[int, ...]
    """The options (indices into ``legal_moves()``) that keep the value for the seat to move."""
    n_options: int
    """How many legal options the decision has."""
    nodes: int
    """Positions the solver searched for it."""

    @property
    def critical(self) -> bool:
        """Two or more options, and some option loses value for the seat to move."""
        return self.n_options >= 2 and len(self.keeping) < self.n_options


def _reach_pair(reach: str | Sequence[str]) -> tuple[str, str]:
    pair = (reach, reach) if isinstance(reach, str) else tuple(reach)
    if len(pair) != 2 or not all(isinstance(r, str) for r in pair):
        raise ConfigError(f"reach names one player spec, or one per seat, got {reach!r}")
    for r in pair:
        GARNER.player(r)  # an unknown spec is refused here, by name
    return pair[0], pair[1]


def _sampled_turn(
    config: GarnerConfig,
    reach: tuple[str, str],
    game_seed: int,
    cards_left: int,
    decisions: IntArray | None,
) -> list[tuple[GarnerState, Move]] | None:
    """The first turn that starts with at most ``cards_left`` cards in the layout and has a
    decision with two or more options, as (position, move played) pairs: the game dealt from
    ``game_seed`` and played by the ``reach`` players (through the player protocol, each seat on
    its own stream; or replaying the compiled game's ``decisions``). None if the game ends first."""
    chance, seat_rngs = game_rngs(game_seed, 2)
    state = new_state(config, chance)
    agents = [GARNER.player(r) for r in reach] if decisions is None else []
    turn: list[tuple[GarnerState, Move]] = []
    at = 0
    while not state.is_over():
        legal = state.legal_moves()
        seat = state.to_move
        if decisions is None:
            look = getattr(agents[seat], "observes", True)
            obs = state.clone() if look == "state" else state.observation(seat) if look else None
            move = agents[seat](obs, legal, seat_rngs[seat])
        else:
            d = int(decisions[at])
            move = next(m for m in legal if encode(m) == d)
        at += 1
        if state.cards_in_layout() <= cards_left:
            turn.append((state.clone(), move))
        state.apply(move)
        if turn and (state.phase == LIFT or state.is_over()):  # the turn is over
            if any(len(s.legal_moves()) > 1 for s, _ in turn):
                return turn
            turn = []
    return None


def sample_positions(
    config: GarnerConfig,
    cards_left: int,
    n_positions: int,
    seed: int,
    *,
    reach: str | Sequence[str] = "greedy",
    solver: Solver | None = None,
    max_nodes: int | None = None,
    first: int = 0,
) -> tuple[list[Position], int]:
    """Sample and solve ``n_positions`` decisions, one per seeded game (with ``first``: the
    games ``first`` … ``n_positions`` − 1 alone, as a longer sample has them).

    Game ``i`` (seed ``game_seeds(seed, n_positions)[i]``) is played by the ``reach`` players
    (one spec, or one per seat; compiled when both have a compiled version, as ``simulate``
    plays them) until the first turn that starts with at most ``cards_left`` cards in the
    layout — *cards left* counts every card not yet collected: on the grid, or lifted and not
    yet placed (constant through a turn). One of that turn's decisions with two or more options
    is drawn at random (``random.Random(game seed)``) and solved. Returns the solved positions
    and how many were skipped because their solve passed ``max_nodes``; a game that ends
    before such a turn gives no position."""
    if not isinstance(cards_left, int) or isinstance(cards_left, bool) or cards_left < 1:
        raise ConfigError(f"cards_left must be a positive int, got {cards_left!r}")
    if not isinstance(n_positions, int) or isinstance(n_positions, bool) or n_positions < 0:
        raise ConfigError(f"n_positions must be a non-negative int, got {n_positions!r}")
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first <= n_positions:
        raise ConfigError(f"first must be an int from 0 to n_positions, got {first!r}")
    pair = _reach_pair(reach)
    solver = solver or solver_for(config)
    seeds = game_seeds(seed, n_positions - first, first)
    games = None
    if supports(pair[0]) and supports(pair[1]):
        games = play_seeds(config, list(pair), np.array(seeds, np.int64), record=True)
    positions = []
    unsolved = 0
    for i, gs in enumerate(seeds, start=first):
        turn = _sampled_turn(
            config, pair, gs, cards_left, None if games is None else games.game_decisions(i - first)
        )
        if turn is None:
            continue
        multi = [j for j, (s, _) in enumerate(turn) if len(s.legal_moves()) > 1]
        j = multi[random.Random(gs).randrange(len(multi))]
        state = turn[j][0]
        try:
            value, keep = solver.analyse(state, max_nodes)
        except SolverBudgetError:
            unsolved += 1
            continue
        positions.append(
            Position(
                i,
                gs,
                state,
                tuple(turn[:j]),
                value,
                tuple(keep),
                len(state.legal_moves()),
                solver.nodes,
            )
        )
    return positions, unsolved


def _observe(agent: Player, state: GarnerState) -> Any:
    """What the play loop hands a player: its observation (a copy, so the sample stays put),
    the whole state for an oracle (``observes = "state"``), nothing for ``observes = False``."""
    look = getattr(agent, "observes", True)
    return state.clone() if look else None


def judge(
    positions: Sequence[Position],
    player: str | Player,
    *,
    solver: Solver | None = None,
    max_nodes: int | None = None,
) -> pd.DataFrame:
    """Ask ``player`` for its move at every critical position; one row per position.

    The player is called as the simulator calls players — ``player(observation, legal, rng)``,
    ``rng`` the seat's stream of the position's game (``gamelib.core.game_rngs``) — as a fresh
    instance per position (a spec; a callable is used as given). Before the sampled decision it
    is shown the turn's earlier decisions the same way (its answers there are not used; the
    reach player's moves are played), so a player that plans its turn at its lift (greedy,
    cautious, mcts) has a plan; ``own_line`` says whether it chose every one of those moves
    itself. Columns: ``game``, ``seat``, ``decision``, ``options``, ``keeping`` (how many keep
    the value), ``value`` (the mover's result under perfect play), ``choice`` (option index),
    ``move``, ``kept``, ``choice_value`` (the mover's result after the choice) and
    ``own_line``."""
    solver = solver or (solver_for(positions[0].state.config) if positions else None)
    rows = []
    for pos in positions:
        if not pos.critical:
            continue
        agent = GARNER.player(player)
        seat = pos.state.to_move
        rng = game_rngs(pos.seed, 2)[1][seat]
        own = True
        for earlier, played in pos.turn:
            answer = agent(_observe(agent, earlier), earlier.legal_moves(), rng)
            own = own and answer == played
        legal = pos.state.legal_moves()
        choice = agent(_observe(agent, pos.state), legal, rng)
        if choice not in legal:
            raise ConfigError(f"player {player!r} chose {choice!r}, which is not a legal move")
        k = legal.index(choice)
        mine = pos.value if seat == 0 else 1.0 - pos.value
        kept = k in pos.keeping
        after = mine
        if not kept and solver is not None:
            child = pos.state.clone()
            child.apply(choice)
            v = solver.solve(child, max_nodes)
            after = v if seat == 0 else 1.0 - v
        rows.append(
            {
                "game": pos.game,
                "seat": seat,
                "decision": PHASE_NAMES[pos.state.phase],
                "options": pos.n_options,
                "keeping": len(pos.keeping),
                "value": mine,
                "choice": k,
                "move": repr(choice),
                "kept": kept,
                "choice_value": after,
                "own_line": own,
            }
        )
    return pd.DataFrame(rows, columns=JUDGE_COLUMNS)


#: the columns of a judged table: one row per sampled decision and player
JUDGE_COLUMNS = [
    "game",
    "seat",
    "decision",
    "options",
    "keeping",
    "value",
    "choice",
    "move",
    "kept",
    "choice_value",
    "own_line",
]


def share_row(judged: pd.DataFrame, level: float = 0.95) -> dict[str, Any]:
    """How many critical positions a player kept the value at, the share and its Wilson
    interval (``statsmodels``' ``proportion_confint``, ``method="wilson"``)."""
    # imported here: statsmodels takes a second to import, and only this measure needs it
    from statsmodels.stats.proportion import proportion_confint

    n = len(judged)
    kept = int(judged["kept"].sum()) if n else 0
    lo, hi = proportion_confint(kept, n, alpha=1 - level, method="wilson") if n else (0.0, 1.0)
    # the interval reaches 1 (0) exactly at a share of 1 (0); statsmodels rounds it to 1 - 1e-16
    lo = 0.0 if kept == 0 else float(lo)
    hi = 1.0 if kept == n else float(hi)
    return {
        "kept": kept,
        "critical": n,
        "share": kept / n if n else float("nan"),
        "share_lo": float(lo),
        "share_hi": float(hi),
        "own_line": int(judged["own_line"].sum()) if n else 0,
    }


def keeps_value(
    config: GarnerConfig,
    players: str | Player | Sequence[str | Player],
    cards_left: int,
    n_positions: int,
    seed: int,
    *,
    reach: str | Sequence[str] = "greedy",
    max_nodes: int | None = None,
    level: float = 0.95,
) -> pd.DataFrame:
    """How often each player keeps the game-theoretic value where it matters.

    Samples ``n_positions`` decisions with at most ``cards_left`` cards left from seeded games
    played by ``reach`` (see :func:`sample_positions`), solves them, keeps the *critical* ones
    (two or more options, some option loses value for the seat to move) and asks each player
    for its move there (see :func:`judge`). One row per player: ``player``, ``setup``,
    ``cards_left``, ``reach``, ``sampled`` (positions drawn), ``unsolved`` (past
    ``max_nodes``, left out), ``critical``, ``kept``, ``share`` = kept / critical and its
    Wilson interval ``share_lo``–``share_hi`` at ``level``, and ``own_line`` (critical
    positions whose earlier decisions this turn the player would have made itself)."""
    specs = [players] if isinstance(players, str) or callable(players) else list(players)
    positions, unsolved = sample_positions(
        config, cards_left, n_positions, seed, reach=reach, max_nodes=max_nodes
    )
    rows = []
    for spec in specs:
        judged = judge(positions, spec, max_nodes=max_nodes)
        rows.append(
            {
                "player": spec if isinstance(spec, str) else getattr(spec, "__name__", repr(spec)),
                "setup": config.setup,
                "cards_left": cards_left,
                "reach": reach if isinstance(reach, str) else "/".join(reach),
                "sampled": len(positions) + unsolved,
                "unsolved": unsolved,
                **share_row(judged, level),
            }
        )
    return pd.DataFrame(rows)


#: notebook 04's stored study: the ladder's levels and more budgets of its search
STUDY_LEVELS = (
    "random",
    "greedy",
    "cautious",
    "mcts:50",
    "mcts:200",
    "mcts:400",
    "mcts:800",
    "solver:400",
)
STUDY_CARDS = (27, 21, 15, 9)
"""Cards left at the sampled decisions: setup A's first turn, then three depths of the game."""
STUDY_COLUMNS = ["setup", "cards_left", "reach", "sampled", "unsolved", "player", *JUDGE_COLUMNS]


def study(
    setup: str = "A",
    levels: Sequence[str] = STUDY_LEVELS,
    cards: Sequence[int] = STUDY_CARDS,
    n_positions: int = 200,
    seed: int = 2026,
    *,
    reach: str = "greedy",
    max_nodes: int | None = 3_000_000,
    first: int = 0,
) -> pd.DataFrame:
    """Every level judged on the same solved positions at each depth in ``cards``: one row per
    (depth, level, critical position), :data:`JUDGE_COLUMNS` plus the depth's ``sampled`` and
    ``unsolved`` counts (with ``first``: of the games ``first`` … ``n_positions`` − 1 alone).
    ``share_row`` of a (depth, level) group gives that level's share."""
    config = GARNER.config(setup)
    solver = solver_for(config)
    parts = []
    for c in cards:
        positions, unsolved = sample_positions(
            config, c, n_positions, seed, reach=reach, solver=solver, max_nodes=max_nodes,
            first=first,
        )  # fmt: skip
        for level in levels:
            judged = judge(positions, level, solver=solver, max_nodes=max_nodes)
            parts.append(
                judged.assign(
                    setup=setup,
                    cards_left=c,
                    reach=reach,
                    sampled=len(positions) + unsolved,
                    unsolved=unsolved,
                    player=level,
                )
            )
    return pd.concat(parts, ignore_index=True)[STUDY_COLUMNS]


def shares(table: pd.DataFrame, level: float = 0.95) -> pd.DataFrame:
    """A :func:`study` table summed up: one row per (cards left, player) — or per player over
    every depth with ``cards_left`` = ``"all"`` — with :func:`share_row`'s columns."""
    rows = []
    for (c, player), g in table.groupby(["cards_left", "player"], sort=False):
        rows.append({"cards_left": str(c), "player": player, **share_row(g, level)})
    for player, g in table.groupby("player", sort=False):
        rows.append({"cards_left": "all", "player": player, **share_row(g, level)})
    columns = ["cards_left", "player", "kept", "critical", "share", "share_lo", "share_hi"]
    return pd.DataFrame(rows, columns=[*columns, "own_line"])  # its columns even when empty


def perfect_deals(
    setup: str, n_deals: int, seed: int, *, max_nodes: int | None = None, first: int = 0
) -> pd.DataFrame:
    """Seat 0's result under perfect play on deals ``first … n_deals - 1`` of ``seed`` — the
    deals ``simulate`` and the ladder play with that seed (deal ``i`` is dealt from
    ``game_seeds(seed, n)[i]``'s chance stream). One row per deal: ``deal``, ``value`` (1 win,
    0.5 draw, 0 loss; NaN past ``max_nodes``), ``nodes``, ``seconds``."""
    config = GARNER.config(setup)
    solver = Solver(config)
    rows = []
    for deal, gs in enumerate(game_seeds(seed, n_deals - first, first), start=first):
        state = new_state(config, game_rngs(gs, 2)[0])
        solver.clear()  # each deal's cost on its own
        t0 = time.perf_counter()
        try:
            value = solver.solve(state, max_nodes)
        except SolverBudgetError:
            value = float("nan")
        rows.append(
            {
                "deal": deal,
                "value": value,
                "nodes": solver.nodes,
                "seconds": round(time.perf_counter() - t0, 3),
            }
        )
    return pd.DataFrame(rows)


#: the stored studies (``data/results/``, made by ``python -m gamelib.garner.keeps`` at
#: :func:`study`'s defaults, setup A and seed 2026): each kind's file and the items it holds
STORED = {
    "positions": ("garner-keeps-value.csv", 200),
    "deals": ("garner-perfect-deals-a.csv", 300),
}


@dataclass(frozen=True)
class Solved:
    """This module's two studies as tables a study computes (a computation of
    :meth:`gamelib.study.Study.table`): ``"positions"``, every level judged at solved positions
    (:func:`study` at its defaults; a part a ``cards_left`` and ``player``, an item a sampled
    game), or ``"deals"``, seat 0's result under perfect play (:func:`perfect_deals`; an item a
    deal).  The stored studies (:data:`STORED`) serve setup A and seed 2026."""

    kind: str
    """``"positions"`` or ``"deals"``."""
    setup: str = "A"
    seed: int = 2026

    def __post_init__(self) -> None:
        if self.kind not in STORED:
            raise ConfigError(f"kind must be 'positions' or 'deals', got {self.kind!r}")

    @property
    def name(self) -> str:
        """Everything that fixes the rows but the part and the item."""
        how = ", reach greedy, max_nodes 3000000" if self.kind == "positions" else ""
        return f"gamelib.garner.keeps {self.kind}: setup {self.setup}, seed {self.seed}{how}"

    @property
    def item(self) -> str:
        """The column that numbers the items: the sampled game, or the deal."""
        return "game" if self.kind == "positions" else "deal"

    @property
    def stored(self) -> tuple[str, int] | None:
        """The stored study's file and items, if it was made with this setup and seed."""
        return STORED[self.kind] if (self.setup, self.seed) == ("A", 2026) else None

    def make(self, parts: Sequence[dict[str, Any]], first: int, n: int) -> pd.DataFrame:
        """The rows of items ``first`` … ``n`` − 1 of ``parts``: the positions of each depth
        sampled and solved once, and judged for each of its parts' players."""
        if self.kind == "deals":
            return perfect_deals(self.setup, n, self.seed, first=first)
        levels: dict[int, list[str]] = {}
        for part in parts:
            levels.setdefault(int(part["cards_left"]), []).append(str(part["player"]))
        return pd.concat(
            [study(self.setup, lvs, [c], n, self.seed, first=first) for c, lvs in levels.items()],
            ignore_index=True,
        )


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m gamelib.garner.keeps OUT.csv [--positions N] [--seed S]`` re-makes the
    stored study (a small table, one row per judged position); ``--deals N --deals-out CSV``
    also solves the first N deals of the seed (notebook 04: the setup-A ladder's deals)."""
    parser = argparse.ArgumentParser(prog="python -m gamelib.garner.keeps", description=__doc__)
    parser.add_argument("out", type=Path, nargs="?")
    parser.add_argument("--positions", type=int, default=200, help="positions per depth")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--deals", type=int, default=0, help="whole setup-A deals to solve")
    parser.add_argument("--deals-out", type=Path)
    args = parser.parse_args(argv)
    if args.deals and args.deals_out is None:
        parser.error("--deals needs --deals-out")
    t0 = time.perf_counter()
    if args.out is not None:
        table = study(n_positions=args.positions, seed=args.seed)
        table.to_csv(args.out, index=False)
        summary = shares(table)
        print(summary[summary.cards_left == "all"].to_string(index=False))
        print(f"{len(table)} judged positions in {time.perf_counter() - t0:.0f} s: {args.out}")
    if args.deals:
        deals = perfect_deals("A", args.deals, args.seed)
        deals.to_csv(args.deals_out, index=False)
        wins = int((deals["value"] == 1.0).sum())
        print(f"setup A under perfect play: seat 0 wins {wins} of {len(deals)} deals")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
