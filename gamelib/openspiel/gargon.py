"""Gargon as the OpenSpiel game ``gamelib_gargon``: its adapter, its compiled engine, the
resampling behind ``resample_from_infostate`` and its game class.

**Actions**: ``0..3`` pass and draw that many cards; ``4, 5`` draw from pile 0 / 1; ``6..11``
resolve colour 0..5; ``12 + rank`` play the cards of that rank, the rank of ascending card ids
``a < b < c`` in the combinatorial number system (:func:`gargon_play_rank`).

**Resampling.** Every number a seat has not seen — the other hands, face-down cards on the
table, both draw piles; their colours are public — is dealt again within its colour by
:func:`gamelib.gargon.rules.resample_hidden` (the resampling the leak tests and the rules'
IS-MCTS template use), starting from the seat's *canonical* position (those cards put back in
ascending id order), so the result depends on what the seat saw and the random numbers only.
The new position is the old one with the seat's unseen cards relabelled (a colour-preserving
permutation), so the same relabelling of the deal and of the other seats' plays is a whole
game that reaches it: the resampled state carries that history.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pyspiel
from numba import njit

from gamelib.core import Chance, Move, Outcome, RecordError, State
from gamelib.gargon import GARGON, kernel
from gamelib.gargon import rules as gargon
from gamelib.jit_cache import guard
from gamelib.openspiel.adapter import Adapter, Engine, ResampledHistory
from gamelib.openspiel.state import GamelibSpielGame, GamelibSpielState

__all__ = ["GargonAdapter", "GargonEngine", "GargonSpielGame", "gargon_play_rank"]


_N1 = gargon.N_CARDS
_N2 = math.comb(gargon.N_CARDS, 2)
_N3 = math.comb(gargon.N_CARDS, 3)
_PLAY0 = 12  # first play action: after 4 passes, 2 draws and 6 resolves


def gargon_play_rank(cards: Sequence[int]) -> int:
    """The rank of a play (ascending card ids) among all sets of 1–3 Gargon cards."""
    c = sorted(cards)
    if len(c) == 1:
        return c[0]
    if len(c) == 2:
        return _N1 + math.comb(c[1], 2) + c[0]
    if len(c) == 3:
        return _N1 + _N2 + math.comb(c[2], 3) + math.comb(c[1], 2) + c[0]
    raise ValueError(f"a Gargon play has 1 to 3 cards, got {list(cards)}")


_COMB2 = np.array([math.comb(b, 2) for b in range(_N1 + 1)], np.int64)
_COMB3 = np.array([math.comb(c, 3) for c in range(_N1 + 1)], np.int64)
_COMB3_LIST = _COMB3.tolist()


@njit(cache=True)
def _actions(t: Any, st: Any, work: Any, out: Any) -> int:
    """The legal actions of kernel position ``st`` in ``out[:n]``, ascending; returns ``n``.
    A play's kernel code holds its ascending card ids in 7 bits each; its action is
    ``_PLAY0`` plus the rank of that set (:func:`gargon_play_rank`)."""
    n = kernel.legal(t, st, work)
    phase = st[kernel.PHASE]
    for i in range(n):
        d = work[i]
        if phase == gargon.DRAW:
            out[i] = 4 + d
        elif phase == gargon.RESOLVE:
            out[i] = 6 + d
        elif d < 0:
            out[i] = -1 - d  # pass and draw that many
        else:
            a, b, c = (d & 127) - 1, ((d >> 7) & 127) - 1, ((d >> 14) & 127) - 1
            if b < 0:
                r = a
            elif c < 0:
                r = _N1 + _COMB2[b] + a
            else:
                r = _N1 + _N2 + _COMB3[c] + _COMB2[b] + a
            out[i] = _PLAY0 + r
    out[:n].sort()
    return n


_KEY_LEN = 12 + gargon.N_CARDS + 2 * kernel.MAX_SEATS * gargon.N_COLOURS + 2 * (gargon.N_CARDS + 1)
_KEY_LEN += 2 * kernel.DQ_CAP


@njit(cache=True)
def _observation_keys(st: Any, n: int, out: Any, keys: Any) -> None:
    """``keys[seat]``: a 64-bit FNV-1a digest of :func:`_observation_key` for every seat."""
    for seat in range(n):
        _observation_key(st, seat, out)
        h = np.uint64(0xCBF29CE484222325)
        for x in out:
            h = (h ^ np.uint64(x & 0xFFFF)) * np.uint64(0x100000001B3)
        keys[seat] = np.int64(h >> np.uint64(1))


@njit(cache=True)
def _observation_key(st: Any, seat: int, out: Any) -> None:
    """What ``seat``'s observation of kernel position ``st`` shows, as small ints in ``out``
    (:class:`gamelib.gargon.GargonObservation`, field by field): the header it shows; for
    every card where the seat can see it (its own hand, a seat's captures, the discard pile, a
    turned-up table spot; 0 where only its colour shows); each hand's and table spot's colours;
    both piles' colours top first; the draws owed."""
    out[:] = 0
    phase = st[kernel.PHASE]
    out[0], out[1], out[2], out[3] = seat, phase, st[kernel.TO_MOVE], st[kernel.LEAD]
    out[4], out[5] = st[kernel.ROUNDS], st[kernel.SHAPE]
    up = st[kernel.TURNED_UP]
    out[6], out[7] = up, st[kernel.RESOLVING]
    at = 12
    hands = at + gargon.N_CARDS
    tables = hands + kernel.MAX_SEATS * gargon.N_COLOURS
    for c in range(gargon.N_CARDS):
        loc = st[kernel.O_LOC + c]
        col = c // gargon.PER_COLOUR
        if 0 <= loc < kernel.L_TABLE:  # a hand
            out[hands + loc * gargon.N_COLOURS + col] += 1
            if loc == seat:
                out[at + c] = 1
        elif loc < kernel.L_CAPTURED:  # a table spot
            s = loc - kernel.L_TABLE
            out[tables + s * gargon.N_COLOURS + col] += 1
            if up:
                out[at + c] = 2 + s
        elif loc < kernel.L_DISCARD:
            out[at + c] = 2 + kernel.MAX_SEATS + loc - kernel.L_CAPTURED
        elif loc == kernel.L_DISCARD:
            out[at + c] = 2 + 2 * kernel.MAX_SEATS
    at = tables + kernel.MAX_SEATS * gargon.N_COLOURS
    for o_pile, n_pile in ((kernel.O_PILE0, kernel.PILE_N0), (kernel.O_PILE1, kernel.PILE_N1)):
        m = st[n_pile]
        out[at] = m
        for j in range(m):  # top first: the kernel keeps piles bottom first
            out[at + 1 + j] = st[o_pile + m - 1 - j] // gargon.PER_COLOUR
        at += gargon.N_CARDS + 1
    head, length = st[kernel.DQ_HEAD], st[kernel.DQ_LEN]
    for i in range(length):
        out[at + 2 * i] = 1 + st[kernel.O_DQ_SEAT + head + i]
        out[at + 2 * i + 1] = st[kernel.O_DQ_COUNT + head + i]


@njit(cache=True)
def _pair_of(r: int) -> tuple[int, int]:
    """The ids ``a < b`` of rank ``r`` among pairs (``r = C(b, 2) + a``)."""
    b = int((1.0 + math.sqrt(1.0 + 8.0 * r)) / 2.0)
    while _COMB2[b] > r:
        b -= 1
    while b + 1 <= _N1 and _COMB2[b + 1] <= r:
        b += 1
    return r - _COMB2[b], b


@njit(cache=True)
def _play_code(action: int) -> int:
    """The kernel code of a play action (the inverse of the rank in :func:`_actions`)."""
    r = action - _PLAY0
    if r < _N1:
        return r + 1
    r -= _N1
    if r < _N2:
        a, b = _pair_of(r)
        return (a + 1) | (b + 1) << 7
    r -= _N2
    c = int(np.searchsorted(_COMB3, r, side="right")) - 1
    a, b = _pair_of(r - _COMB3[c])
    return int((a + 1) | (b + 1) << 7 | (c + 1) << 14)


@njit(cache=True)
def _kernel_code(action: int) -> int:
    """The kernel decision of an action (its phase is told by the action's range)."""
    if action < 4:
        return -1 - action
    if action < 6:
        return action - 4
    if action < _PLAY0:
        return action - 6
    return _play_code(action)


@njit(cache=True)
def _run(t: Any, st: Any, actions: Any, seats: Any, keys: Any, n: int, scratch: Any) -> None:
    """Take ``actions`` on ``st`` in turn: ``seats[i]`` who took action ``i``, ``keys[i]``
    every seat's observation digest after it (:func:`_observation_keys`)."""
    for i in range(len(actions)):
        seats[i] = st[kernel.TO_MOVE]
        kernel.apply(t, st, _kernel_code(actions[i]))
        _observation_keys(st, n, scratch, keys[i])


@njit(cache=True)
def _relabel(actions: Any, pi: Any) -> Any:
    """The actions with every played card relabelled by ``pi`` (card id -> card id)."""
    out = actions.copy()
    ids = np.empty(3, np.int64)
    for i in range(len(actions)):
        if actions[i] < _PLAY0:
            continue
        d = _play_code(actions[i])
        m = 0
        while d:
            ids[m] = pi[(d & 127) - 1]
            d >>= 7
            m += 1
        srt = np.sort(ids[:m])
        if m == 1:
            r = srt[0]
        elif m == 2:
            r = _N1 + _COMB2[srt[1]] + srt[0]
        else:
            r = _N1 + _N2 + _COMB3[srt[2]] + _COMB2[srt[1]] + srt[0]
        out[i] = _PLAY0 + r
    return out


class GargonEngine(Engine):
    """Gargon's kernel (:mod:`gamelib.gargon.kernel`) behind the OpenSpiel state; the kernel's
    decision codes become actions in compiled code (:func:`_actions`) and back by unranking
    (:func:`_play_code`)."""

    def __init__(self, config: gargon.GargonConfig) -> None:
        self.t = kernel.tables(config)
        self.n = int(config.n_players)
        self.work = kernel.new_work(self.t)
        self._out = np.zeros(kernel.MAX_OPTIONS + 4, np.int64)
        self._key = np.zeros(_KEY_LEN, np.int64)
        self._keys = np.zeros(self.n, np.int64)
        self._decisions = np.zeros(1024, np.int64)
        self._row = np.zeros(kernel.N_RESULTS, np.int64)
        self._seats = np.zeros((self.n, kernel.N_SEAT_RESULTS), np.int64)
        self._scores = np.zeros(self.n, np.float64)
        self._amulets = np.zeros(self.n, np.float64)

    deal_only_chance = True

    def start(self, ref: State) -> np.ndarray:
        assert isinstance(ref, gargon.GargonState)
        return kernel.from_reference(ref)[1]

    def legal(self, k: np.ndarray) -> list[int]:
        n = _actions(self.t, k, self.work, self._out)
        out: list[int] = self._out[:n].tolist()
        return out

    def apply(self, k: np.ndarray, action: int) -> bool:
        kernel.apply(self.t, k, _kernel_code(action))
        return True

    def run(self, k: np.ndarray, actions: Sequence[int]) -> tuple[list[int], list[list[int]]]:
        acts = np.asarray(actions, np.int64)
        seats = np.zeros(len(acts), np.int64)
        keys = np.zeros((len(acts), self.n), np.int64)
        _run(self.t, k, acts, seats, keys, self.n, self._key)
        return seats.tolist(), keys.tolist()

    def current_player(self, k: np.ndarray) -> int:
        return -1 if k[kernel.PHASE] == gargon.OVER else int(k[kernel.TO_MOVE])

    keys = True

    def step_keys(self, k: np.ndarray) -> list[int]:
        """Per seat, a 64-bit digest of :func:`_observation_key`: the information-state string
        is one short key a step instead of the whole observation's text (so IS-MCTS, which
        asks for every node's, stays fast); ``observation_string`` stays the readable text."""
        _observation_keys(k, self.n, self._key, self._keys)
        out: list[int] = self._keys.tolist()
        return out

    def playout(self, k: np.ndarray, seed: int) -> list[float]:
        st = k.copy()
        rs = kernel.rng_streams(seed, self.n)
        kernel.play_random_game(self.t, rs, st, self.work, self._decisions)
        return self.returns(st)

    def returns(self, k: np.ndarray) -> list[float]:
        kernel.result(self.t, k, self._row, self._seats, self._scores, self._amulets)
        won = self._seats[:, kernel.S_WINNER]
        shares = int(won.sum())
        return [float(w) / shares if shares else 0.0 for w in won.tolist()]


def _hidden_slots(state: gargon.GargonState, seat: int) -> list[tuple[list[int], int]]:
    """Every place whose number ``seat`` cannot see, in resample_hidden's order."""
    slots: list[tuple[list[int], int]] = []
    for p in range(state.n_players):
        if p != seat:
            slots += [(state.hands[p], i) for i in range(len(state.hands[p]))]
            if not state.turned_up:
                slots += [(state.table[p], i) for i in range(len(state.table[p]))]
    for pile in state.piles:
        slots += [(pile, i) for i in range(len(pile))]
    return slots


def canonical(state: gargon.GargonState, seat: int) -> gargon.GargonState:
    """A copy of ``state`` with the cards ``seat`` has not seen put back in its hidden places in
    ascending id order within each colour: the same for every state the seat cannot tell
    apart."""
    out = state.clone()
    slots = _hidden_slots(out, seat)
    by_colour: dict[int, list[tuple[list[int], int]]] = {}
    for cont, i in slots:
        by_colour.setdefault(gargon.COLOUR_OF[cont[i]], []).append((cont, i))
    for places in by_colour.values():
        cards = sorted(cont[i] for cont, i in places)
        for (cont, i), c in zip(places, cards, strict=True):
            cont[i] = c
    for p in range(out.n_players):
        out.table[p].sort()
    out._legal = None
    return out


def relabelling(real: gargon.GargonState, new: gargon.GargonState, seat: int) -> dict[int, int]:
    """The colour-preserving card relabelling that turns ``real`` into ``new`` (two states
    ``seat`` cannot tell apart): hands and piles place by place, a face-down table spot (a
    set) colour by colour."""
    pi: dict[int, int] = {}
    n = real.n_players
    for p in range(n):
        if p != seat:
            pi.update(zip(real.hands[p], new.hands[p], strict=True))
            if not real.turned_up:
                for col in range(gargon.N_COLOURS):
                    a = sorted(c for c in real.table[p] if gargon.COLOUR_OF[c] == col)
                    b = sorted(c for c in new.table[p] if gargon.COLOUR_OF[c] == col)
                    pi.update(zip(a, b, strict=True))
    for a_pile, b_pile in zip(real.piles, new.piles, strict=True):
        pi.update(zip(a_pile, b_pile, strict=True))
    assert all(gargon.COLOUR_OF[a] == gargon.COLOUR_OF[b] for a, b in pi.items())
    return pi


def resampled_history(
    state: GamelibSpielState, adapter: Adapter, seat: int, rng: random.Random
) -> ResampledHistory:
    """The deal and decisions of a game ``seat`` cannot tell from ``state``'s, its unseen
    numbers dealt again (see the module docstring)."""
    ref = state.ref
    assert isinstance(ref, gargon.GargonState)
    new = gargon.resample_hidden(canonical(ref, seat), seat, rng)
    relabel = relabelling(ref, new, seat)
    pi = np.arange(gargon.N_CARDS)
    for a, b in relabel.items():
        pi[a] = b
    orders = state.deal_orders
    deal = [pi[order].tolist() for order in orders]
    # the history: the deal's chance outcomes (its last card comes without one), then decisions
    dealt = sum(len(o) - 1 for o in orders)
    decisions = np.asarray(state.history()[dealt:], np.int64)
    out: list[int] = _relabel(decisions, pi).tolist()
    return deal, [], out


class GargonAdapter(Adapter):
    """Gargon: 3–5 seats, hidden numbers, the win share as the return."""

    game = GARGON
    short_name = "gamelib_gargon"
    long_name = "gamelib Gargon"
    information = pyspiel.GameType.Information.IMPERFECT_INFORMATION
    utility = pyspiel.GameType.Utility.GENERAL_SUM
    min_players, max_players = 3, 5

    def n_players(self, config: Any) -> int:
        return int(config.n_players)

    def deal(self, config: Any) -> list[list[int]]:
        return [list(range(gargon.N_CARDS))]

    def build(self, config: Any, orders: list[list[int]], chance: Chance) -> State:
        (deck,) = orders
        n, h = config.n_players, config.hand_size
        hands = [deck[i * h : (i + 1) * h] for i in range(n)]
        rest = deck[n * h :]
        half = (len(rest) + 1) // 2
        return gargon.GargonState(config, hands, [rest[:half], rest[half:]], chance)

    def deal_orders(
        self, config: Any, start: Mapping[str, Any], chance: Sequence[Any]
    ) -> list[list[int]]:
        state = gargon.state_from_start(config, start)
        deck = [c for h in state.hands for c in h] + state.piles[0] + state.piles[1]
        if len(state.piles[0]) != (len(state.piles[0]) + len(state.piles[1]) + 1) // 2:
            raise RecordError("the record's draw piles are not split as the deal splits them")
        return [deck]

    def encode(self, move: Move) -> int:
        if isinstance(move, gargon.Pass):
            return int(move.draws)
        if isinstance(move, gargon.DrawFrom):
            return 4 + int(move.pile)
        if isinstance(move, gargon.Resolve):
            return 6 + int(move.colour)
        if isinstance(move, gargon.Play):
            return _PLAY0 + gargon_play_rank(move.cards)
        raise ValueError(f"{move!r} is not a Gargon move")

    def n_actions(self, config: Any) -> int:
        return _PLAY0 + _N1 + _N2 + _N3

    def move_string(self, state: State, move: Move) -> str:
        def name(c: int) -> str:
            colour, value = gargon.COLOURS[gargon.COLOUR_OF[c]], gargon.VALUE_OF[c]
            # the two zeros of a colour are told apart, as card ids are
            return f"{colour} {value}" + (f"#{c % gargon.PER_COLOUR + 1}" if value == 0 else "")

        if isinstance(move, gargon.Play):
            return "play " + " + ".join(name(c) for c in move.cards)
        if isinstance(move, gargon.Pass):
            return f"pass and draw {move.draws}"
        if isinstance(move, gargon.DrawFrom):
            return f"draw from pile {move.pile}"
        if isinstance(move, gargon.Resolve):
            return f"resolve {gargon.COLOURS[move.colour]}"
        return repr(move)

    def chance_string(self, config: Any, shuffle: int, item: int) -> str:
        # card ids only: the string is the same for every seat, so it names no number
        return f"deal card {item}"

    def returns(self, outcome: Outcome, n: int) -> list[float]:
        k = len(outcome.winners)
        return [1.0 / k if s in outcome.winners else 0.0 for s in range(n)]

    def utility_range(self, config: Any) -> tuple[float, float, float]:
        return 0.0, 1.0, 1.0

    def tensor_shapes(self, config: Any) -> list[tuple[str, tuple[int, ...]]]:
        n, cards, colours = config.n_players, gargon.N_CARDS, gargon.N_COLOURS
        longest_pile = (cards - n * config.hand_size + 1) // 2
        return [
            ("seat", (n,)),
            ("decision", (4,)),
            ("to_move", (n,)),
            ("lead", (n,)),
            ("round", (1,)),
            ("hand", (cards,)),  # the seat's own cards, by id
            ("hand_colours", (n, colours)),  # how many cards of each colour every hand holds
            ("pile_colours", (2, longest_pile, colours)),  # each pile's colours, top card first
            ("table_colours", (n, colours)),
            ("turned_up", (n, cards)),
            ("acted", (n,)),
            ("passed", (n,)),
            ("shape", (len(gargon.SHAPES) + 1,)),  # the round's shape (last: none yet)
            ("captured", (n, cards)),
            ("discard", (cards,)),
            ("draws_left", (1,)),
            ("resolving", (colours + 1,)),  # the colour being resolved (last: none)
            ("owed", (n, n + 1)),  # draws owed in order: the seat, and how many cards
        ]

    def fill_tensor(self, state: State, seat: int, out: dict[str, np.ndarray]) -> None:
        obs = state.observation(seat)
        assert isinstance(obs, gargon.GargonObservation)
        out["seat"][seat] = 1
        out["decision"][gargon.PHASE_NAMES.index(obs.phase)] = 1
        out["to_move"][obs.to_move] = 1
        out["lead"][obs.lead] = 1
        out["round"][0] = obs.round
        out["hand"][list(obs.hand)] = 1
        for s, cols in enumerate(obs.hand_colours):
            for col in cols:
                out["hand_colours"][s, col] += 1
        for p, cols in enumerate(obs.pile_colours):
            for i, col in enumerate(cols):
                out["pile_colours"][p, i, col] = 1
        for s, cols in enumerate(obs.table_colours):
            for col in cols:
                out["table_colours"][s, col] += 1
        for s, up in enumerate(obs.turned_up or ()):
            out["turned_up"][s, list(up)] = 1
        out["acted"][:] = obs.acted
        out["passed"][:] = obs.passed
        shape = gargon.SHAPES.index(obs.shape) if obs.shape is not None else len(gargon.SHAPES)
        out["shape"][shape] = 1
        for s, caps in enumerate(obs.captured):
            out["captured"][s, list(caps)] = 1
        out["discard"][list(obs.discard)] = 1
        out["draws_left"][0] = obs.draws_left
        out["resolving"][gargon.N_COLOURS if obs.resolving is None else obs.resolving] = 1
        for i, (s, k) in enumerate(obs.owed):
            out["owed"][i, s] = 1
            out["owed"][i, -1] = k

    def max_length(self, config: Any) -> int:
        # each round captures or discards a card for good, so at most 102 rounds; a round has
        # at most a play, three draws and a resolve per seat, and losers' draws
        return int(gargon.N_CARDS + gargon.N_CARDS * config.n_players * 12)

    def engine(self, config: Any) -> Engine | None:
        return GargonEngine(config)

    def resample(
        self, state: GamelibSpielState, seat: int, rng: random.Random
    ) -> ResampledHistory | None:
        return resampled_history(state, self, seat, rng)


class GargonSpielGame(GamelibSpielGame):
    """Gargon as an OpenSpiel game (``gamelib_gargon``)."""

    adapter = GargonAdapter()


# the cache of this module's jitted functions is emptied when a file they depend on changed
# (numba watches only this file): gamelib/jit_cache.py
guard(globals())
