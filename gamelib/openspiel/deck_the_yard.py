"""Deck the Yard as the OpenSpiel game ``gamelib_deck_the_yard``: its adapter, its compiled
engine, the resampling behind ``resample_from_infostate`` and its game class.

**Actions** are the compiled core's decision codes (``gamelib.deck_the_yard.kernel``): ``0..5``
play a bulb of that colour, then bubble, discards by kind, use a plug / not.

**Chance.** The pattern cards are dealt, then the draw pile top card first; every reshuffle of
the rules (specials set aside and shuffled back) is a chance node too.  The kernel would draw a
reshuffle itself, so a step that reshuffles is taken on the reference engine, which asks.

**Resampling.** What the player has not seen is the order of the cards still face down: the
draw pile (the undrawn part of the last shuffle that made it) and the pattern deck (the undrawn
part of the deal's pattern order).  Both are put back in ascending order and shuffled again —
the draw the rollout player's :func:`gamelib.deck_the_yard.search.determinize` makes, but on
the information state: the player remembers which patterns it claimed, which its observation
alone does not say.  Drawn cards and the decisions stay, so the new history is a whole game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pyspiel

from gamelib.core import Chance, Move, Outcome, State
from gamelib.deck_the_yard import DECK_THE_YARD
from gamelib.deck_the_yard import kernel as dty_kernel
from gamelib.deck_the_yard import rules as dty
from gamelib.openspiel.adapter import Adapter, Engine, ResampledHistory
from gamelib.openspiel.state import GamelibSpielGame, GamelibSpielState

__all__ = ["DeckTheYardAdapter", "DeckTheYardEngine", "DeckTheYardSpielGame"]


class DeckTheYardEngine(Engine):
    """Deck the Yard's kernel behind the OpenSpiel state; a step that would reshuffle is handed
    back to the reference engine (``apply`` returns False)."""

    def __init__(self, config: dty.DeckTheYardConfig) -> None:
        self.t = dty_kernel.tables(config)
        self.work = dty_kernel.new_work(self.t)
        self._rs = np.zeros(1, np.uint64)  # never drawn from: a reshuffle goes back (above)
        self._log = dty_kernel.new_log(self.t)
        self._row = np.zeros(dty_kernel.R_BLACKOUT_TURNS + config.events + 1, np.int64)
        self._decisions = np.zeros(1024, np.int64)
        self._counts = np.zeros(2, np.int64)

    def start(self, ref: State) -> np.ndarray:
        assert isinstance(ref, dty.DeckTheYardState)
        return dty_kernel.from_reference(ref)[1]

    def legal(self, k: np.ndarray) -> list[int]:
        n = dty_kernel.legal(self.t, k, self.work)
        return sorted(self.work[dty_kernel.W_OUT, :n].tolist())

    def apply(self, k: np.ndarray, action: int) -> bool:
        before = k.copy()
        self._log[0] = 1
        dty_kernel.apply(self.t, k, action, self._rs, self._log, self.work)
        if self._log[0] != 1:  # the step reshuffled: it is the reference engine's to take
            k[:] = before
            return False
        return True

    def current_player(self, k: np.ndarray) -> int:
        return -1 if k[dty_kernel.PHASE] == dty.OVER else 0

    def playout(self, k: np.ndarray, seed: int) -> list[float]:
        st = k.copy()
        rs = dty_kernel.rng_streams(seed)
        log = np.zeros(0, np.int64)  # a rollout's reshuffles are drawn, not logged
        dty_kernel.play_game(
            self.t, rs, st, log, self.work, self._decisions, dty_kernel.RANDOM, self._counts
        )
        return self.returns(st)

    def returns(self, k: np.ndarray) -> list[float]:
        dty_kernel.result(self.t, k, self._row)
        return [float(self._row[dty_kernel.R_WON])]


def _reshuffled_tail(order: Sequence[int], left: int, rng: random.Random) -> list[int]:
    """``order`` with its last ``left`` items (the undrawn ones) in ascending order, shuffled."""
    cut = len(order) - left
    tail = sorted(order[cut:])
    rng.shuffle(tail)
    return [*order[:cut], *tail]


def resampled_history(
    state: GamelibSpielState, adapter: Adapter, rng: random.Random
) -> ResampledHistory:
    """The deal, reshuffles and decisions of a game the player cannot tell from ``state``'s,
    the face-down order dealt again (see the module docstring)."""
    ref = state.ref
    assert isinstance(ref, dty.DeckTheYardState)
    patterns, pile = state.deal_orders
    log = [list(o) for o in state.chance_log]
    patterns = _reshuffled_tail(patterns, len(ref.deck), rng)
    if log:  # every logged shuffle is of the draw pile; the last one made the pile there is
        log[-1] = _reshuffled_tail(log[-1], len(ref.pile), rng)
    else:
        pile = _reshuffled_tail(pile, len(ref.pile), rng)
    return [patterns, pile], log, [adapter.encode(m) for _, m in state.moves]


#: Deck the Yard's card kinds: the six colours, bubble (the bulbs), then the specials
_DTY_KINDS = dty_kernel.KIND_NAMES


class DeckTheYardAdapter(Adapter):
    """Deck the Yard: one seat, hidden draw order, 1 for a won game."""

    game = DECK_THE_YARD
    short_name = "gamelib_deck_the_yard"
    long_name = "gamelib Deck the Yard"
    information = pyspiel.GameType.Information.IMPERFECT_INFORMATION
    utility = pyspiel.GameType.Utility.GENERAL_SUM
    min_players = max_players = 1

    def deal(self, config: Any) -> list[list[int]]:
        return [list(range(len(config.patterns))), list(range(config.n_cards))]

    def build(self, config: Any, orders: list[list[int]], chance: Chance) -> State:
        patterns, pile = orders
        return dty.DeckTheYardState(config, list(patterns), list(pile), chance)

    def deal_orders(
        self, config: Any, start: Mapping[str, Any], chance: Sequence[Any]
    ) -> list[list[int]]:
        dty.state_from_start(config, start, chance)  # refuses a malformed start by name
        patterns = [int(p[-1]) for p in start["patterns"]]
        pile = [int(str(e).partition("#")[2]) for e in start["draw_pile"]]
        return [patterns, pile]

    def encode(self, move: Move) -> int:
        return int(dty_kernel.decision(move))

    def n_actions(self, config: Any) -> int:
        return int(dty_kernel.N_DECISIONS)

    def move_string(self, state: State, move: Move) -> str:
        if isinstance(move, dty.PlayBulb):
            return f"play a {move.colour} bulb"
        if isinstance(move, dty.PlayBubble):
            return "play a bubble bulb"
        if isinstance(move, dty.Discard):
            return f"discard a {move.kind}"
        if isinstance(move, dty.UsePlug):
            return "spend a plug" if move.use else "keep the plug"
        return repr(move)

    def chance_string(self, config: Any, shuffle: int, item: int) -> str:
        if shuffle == 0:
            return f"pattern {'-'.join(config.patterns[item])} (#{item}) comes next"
        return f"{config.kinds()[item]} (#{item}) comes next"

    def returns(self, outcome: Outcome, n: int) -> list[float]:
        return [1.0 if outcome.winners else 0.0]

    def utility_range(self, config: Any) -> tuple[float, float, float]:
        return 0.0, 1.0, 0.0

    def tensor_shapes(self, config: Any) -> list[tuple[str, tuple[int, ...]]]:
        kinds, bulbs, length = len(_DTY_KINDS), len(_DTY_KINDS[:7]), config.strand_length
        return [
            ("decision", (3,)),
            ("hand", (kinds,)),  # cards of each kind in hand
            ("strand", (length, bulbs)),  # each slot's bulb (colour or bubble), if any
            ("row", (config.face_up, length, bulbs)),  # the face-up patterns
            ("pending", (kinds + 1,)),  # the card awaiting the plug decision (last: none)
            ("claimed_patterns", (1,)),
            ("claimed_characters", (1,)),
            ("pile_left", (1,)),
            ("patterns_left", (1,)),
            ("turn", (1,)),
            ("discard", (kinds,)),
        ]

    def fill_tensor(self, state: State, seat: int, out: dict[str, np.ndarray]) -> None:
        obs = state.observation(seat)
        assert isinstance(obs, dty.DeckTheYardObservation)
        out["decision"][dty.PHASE_NAMES.index(obs.phase)] = 1
        for k in obs.hand:
            out["hand"][_DTY_KINDS.index(k)] += 1
        for i, b in enumerate(obs.strand):
            if b is not None:
                out["strand"][i, _DTY_KINDS.index(b)] = 1
        for r, pattern in enumerate(obs.row):
            for i, b in enumerate(pattern):
                out["row"][r, i, _DTY_KINDS.index(b)] = 1
        out["pending"][
            len(_DTY_KINDS) if obs.pending is None else _DTY_KINDS.index(obs.pending)
        ] = 1
        out["claimed_patterns"][0] = obs.claimed_patterns
        out["claimed_characters"][0] = obs.claimed_characters
        out["pile_left"][0] = obs.pile_left
        out["patterns_left"][0] = obs.patterns_left
        out["turn"][0] = obs.turn
        for k in obs.discard:
            out["discard"][_DTY_KINDS.index(k)] += 1

    def max_length(self, config: Any) -> int:
        # every turn plays or discards a card and draws; each reshuffle replays at most the pile
        cards = config.n_cards
        return int(len(config.patterns) + cards * (4 + cards))

    def engine(self, config: Any) -> Engine | None:
        return DeckTheYardEngine(config)

    def resample(
        self, state: GamelibSpielState, seat: int, rng: random.Random
    ) -> ResampledHistory | None:
        return resampled_history(state, self, rng)


class DeckTheYardSpielGame(GamelibSpielGame):
    """Deck the Yard as an OpenSpiel game (``gamelib_deck_the_yard``)."""

    adapter = DeckTheYardAdapter()
