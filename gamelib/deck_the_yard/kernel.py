"""Deck the Yard's compiled core: the rules of ``shared/rules/deck-the-yard.md`` as numba functions.

*Why one file (1090 lines):* numba's on-disk cache is keyed on the file a jitted function lives
in and does not follow calls into other files (a cached caller keeps the old code of a callee
edited elsewhere), so the jitted functions that call one another in the hot loop stay in one
module, compiled, cached and invalidated as one unit.

The readable reference is :mod:`gamelib.deck_the_yard.rules`; this module plays the same rules
inside compiled code, with the random player and the greedy one (each plug policy of
:mod:`gamelib.deck_the_yard.players`), so a batch of games never returns to Python per decision.
``tests/test_deck_the_yard_kernel.py`` replays kernel games through the reference engine decision
by decision (``make crosscheck`` does it at scale), so any difference between the two fails.

Layout, shaped like Garner's kernel (every array is ``int64``):

* **Tables** (:class:`KernelTables`, one per config, built once): ``params`` holds the rule
  fields (``hand_size``, ``strand_length``, ``face_up``, ``win_threshold``, ``hand_counts``) and
  the state's offsets as ints; ``kind_of[card]`` each draw-pile card's kind (:data:`KIND_NAMES`:
  the six colours in ``BULB_COLOURS`` order, then bubble, plug, broken, event, character);
  ``pattern[p, slot]`` each pattern card's colours; ``alpha`` the hand kinds in the reference's
  (alphabetical) order.
* **State**: one flat vector, so a clone is one ``copy()``. A header (phase, turns, the card
  awaiting the plug decision, sizes and every counter of the outcome), then the hand as a count
  per kind (the reference speaks of kinds, and a card in hand never returns to the draw pile, so
  its id is not needed), the strand's slots (a colour, :data:`BUBBLE`, or -1 for empty), the
  pattern row, the pattern deck and the draw pile (both top card last, as in the reference),
  each claim ``(turn, pattern, place in the row)`` and each blackout's turn.
* **Decisions** are ints: ``0-5`` play a coloured bulb of that colour, ``6`` play a bubble,
  ``7 + kind`` discard a card of that hand kind (``7-14``), ``15``/``16`` spend a plug or not.
  Legal decisions come in the reference's order (bulbs and discards by kind name), so option
  ``k`` here is option ``k`` of ``DeckTheYardState.legal_moves()``; :func:`reference_move` turns
  a decision into the reference's move.

Chance: per game two SplitMix64 streams derived from the game's seed, stream 0 for every chance
event (the deal: pattern order, then the draw pile; every reshuffle of set-aside cards at setup
and after a blackout) and stream 1 for the random player, so the deal does not depend on the
player (the greedy player draws nothing). A recorded batch keeps each game's deal and every
reshuffle's result, which is exactly what a reference record holds (``start`` and ``chance``):
:func:`reference_state` rebuilds the reference game from them, and :meth:`KernelGames.record`
writes a full ``gamelib-record/2`` that :func:`gamelib.records.replay` accepts. ``simulate`` and
``play_game`` play these players here (``supports``, ``play_seeds``, ``encode``); the reference
engine draws from the same streams (``gamelib.core.game_rngs``), so it deals and reshuffles the
same cards for a seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from gamelib.core import RECORD_FORMAT, ConfigError, Move, Outcome, config_to_json
from gamelib.deck_the_yard.heuristics import POLICIES
from gamelib.deck_the_yard.rules import (
    ACTION,
    BULB_COLOURS,
    OVER,
    PLUG,
    DeckTheYardConfig,
    DeckTheYardState,
    Discard,
    PlayBubble,
    PlayBulb,
    UsePlug,
    check_edit,
    state_from_start,
)
from gamelib.jit_cache import guard, njit_borrowing
from gamelib.kernel_rng import rng_below, seeds_for, streams
from gamelib.version import __version__

IntArray = npt.NDArray[np.int64]

# --- kinds and decisions ------------------------------------------------------------------------
#: every card kind by its id: the six colours, then bubble, plug, broken, event, character
KIND_NAMES = (*BULB_COLOURS, "bubble", "plug", "broken", "event", "character")
N_COLOURS = len(BULB_COLOURS)
#: a special kind's id in :data:`KIND_NAMES`, after the six colours
BUBBLE, PLUG_KIND, BROKEN, EVENT, CHARACTER = range(N_COLOURS, N_COLOURS + 5)
N_HAND_KINDS = PLUG_KIND + 1  # only colours, bubbles and plugs are ever held
D_BUBBLE = BUBBLE  # decisions 0-5: a coloured bulb; 6: a bubble
D_DISCARD = 7  # 7 + kind: discard a card of that hand kind
D_PLUG_YES, D_PLUG_NO = D_DISCARD + N_HAND_KINDS, D_DISCARD + N_HAND_KINDS + 1
N_DECISIONS = D_PLUG_NO + 1

# --- params: the config as ints, and the state vector's offsets ---------------------------------
HAND_SIZE, STRAND_LEN, FACE_UP, WIN, COUNT_BULBS, N_CARDS, N_PATTERNS, N_EVENTS = range(8)
O_HAND, O_STRAND, O_ROW, O_DECK, O_PILE, O_CLAIMS, O_BLACKOUT, STATE_LEN = range(8, 16)
MAX_SHUFFLE_LOG = 16  # ints a game's chance log may take (see ``tables``)
N_CHARACTERS = 17
N_PARAMS = 18

# --- the state header ---------------------------------------------------------------------------
PHASE, TURNS, PENDING, N_ROW, N_DECK, N_PILE, N_STRAND, HAND_TOTAL = range(8)
N_CLAIMS, N_CHARS, OUT_OF_PLAY = range(8, 11)
# the reference's ``counts``, in its order
(
    BLACKOUTS,
    EVENTS_DRAWN,
    EVENTS_CANCELLED,
    BROKEN_DRAWN,
    BROKEN_CANCELLED,
    CHARACTERS_DRAWN,
    STRANDS_LOST,
    PLUGS_ON_EVENTS,
    PLUGS_ON_CHARACTERS,
    PLUGS_ON_BROKEN,
    BUBBLES_PLAYED,
    DISCARDS,
) = range(11, 23)
HEADER = 23
COUNT_NAMES = (
    "blackouts",
    "events_drawn",
    "events_cancelled",
    "broken_drawn",
    "broken_cancelled",
    "characters_drawn",
    "strands_lost",
    "plugs_on_events",
    "plugs_on_characters",
    "plugs_on_broken",
    "bubbles_played",
    "discards",
)

# --- one game's result row (play_random_batch's ``results``) -----------------------------------
R_WON, R_OVER, R_TURNS, R_DECISIONS, R_CLAIMED, R_PATTERNS, R_CHARACTERS = range(7)
R_COUNTS = 7  # the 12 counts, in COUNT_NAMES order
R_OUT_OF_PLAY, R_FIRST_BLACKOUT, R_BLACKOUT_TURNS = R_COUNTS + 12, R_COUNTS + 13, R_COUNTS + 14

# scratch rows of ``work`` (``new_work``): legal options, set-aside cards, a shuffle, a fit
# mask, which face-up patterns the strand matches (the greedy player)
W_OUT, W_ASIDE, W_ITEMS, W_FIT, W_MATCH = range(5)
N_WORK = 5

# the players: random, or greedy with its plug policy (``POLICIES`` order)
RANDOM = -1
SAVE_FOR_EVENTS, CLAIM_CHARACTERS, PROTECT_STRAND, NEVER = range(4)


class KernelTables(NamedTuple):
    """Per-config constants the compiled functions read (see the module docstring)."""

    params: IntArray
    kind_of: IntArray
    pattern: IntArray
    alpha: IntArray


@lru_cache(maxsize=64)
def tables(config: DeckTheYardConfig) -> KernelTables:
    """The kernel's tables for one config (built in Python once)."""
    if not isinstance(config, DeckTheYardConfig):
        raise ConfigError(f"the kernel needs a DeckTheYardConfig, got {type(config).__name__}")
    kind_of = np.array([KIND_NAMES.index(k) for k in config.kinds()], np.int64)
    pattern = np.array(
        [[BULB_COLOURS.index(c) for c in p] for p in config.patterns], np.int64
    ).reshape(len(config.patterns), config.strand_length)
    alpha = np.array(sorted(range(N_HAND_KINDS), key=lambda k: KIND_NAMES[k]), np.int64)
    n_cards, n_pat = config.n_cards, len(config.patterns)
    p = np.zeros(N_PARAMS, np.int64)
    p[HAND_SIZE], p[STRAND_LEN], p[FACE_UP] = config.hand_size, config.strand_length, config.face_up
    p[WIN], p[COUNT_BULBS] = config.win_threshold, config.hand_counts == "bulbs"
    p[N_CARDS], p[N_PATTERNS], p[N_EVENTS] = n_cards, n_pat, config.events
    p[N_CHARACTERS] = config.characters
    p[O_HAND] = HEADER
    p[O_STRAND] = p[O_HAND] + N_HAND_KINDS
    p[O_ROW] = p[O_STRAND] + config.strand_length
    p[O_DECK] = p[O_ROW] + config.face_up
    p[O_PILE] = p[O_DECK] + n_pat
    p[O_CLAIMS] = p[O_PILE] + n_cards
    p[O_BLACKOUT] = p[O_CLAIMS] + 3 * n_pat
    p[STATE_LEN] = p[O_BLACKOUT] + config.events
    # a chance log: each reshuffle as its length, then the order (top first); a game shuffles
    # at setup and after each blackout (at most one per event card), never more than every card
    p[MAX_SHUFFLE_LOG] = (1 + config.events) * (n_cards + 1)
    for a in (kind_of, pattern, alpha, p):
        a.setflags(write=False)
    return KernelTables(p, kind_of, pattern, alpha)


# --- random numbers: SplitMix64 streams (gamelib.kernel_rng), two per game ----------------


@njit(cache=True)
def rng_streams(seed: int) -> Any:
    """Two streams from a game's seed: 0 for chance (deal, reshuffles), 1 for the player."""
    return streams(seed, 2)


@njit_borrowing
def _shuffle(rs: Any, items: Any, n: int) -> None:
    """Fisher–Yates on ``items[:n]`` from the chance stream."""
    for c in range(n - 1, 0, -1):
        k = rng_below(rs, 0, c + 1)
        items[c], items[k] = items[k], items[c]


# --- the position ---------------------------------------------------------------------------------


@njit_borrowing
def hand_count(t: Any, st: Any) -> int:
    """hand_counts: every card in hand, or only the bulbs (plugs held on top)."""
    if t.params[COUNT_BULBS]:
        return int(st[HAND_TOTAL] - st[t.params[O_HAND] + PLUG_KIND])
    return int(st[HAND_TOTAL])


@njit(cache=True)
def new_state(t: Any, patterns: Any, pile: Any, rs: Any, clog: Any, work: Any) -> Any:
    """Setup from a pattern order and a draw-pile order (both top first): turn up the row,
    draw a clean hand (specials set aside and reshuffled in, from stream 0)."""
    p = t.params
    st = np.zeros(p[STATE_LEN], np.int64)
    st[PENDING] = -1
    for s in range(p[STRAND_LEN]):
        st[p[O_STRAND] + s] = -1
    n_pat = p[N_PATTERNS]
    n_row = min(p[FACE_UP], n_pat)
    for i in range(n_row):
        st[p[O_ROW] + i] = patterns[i]
    st[N_ROW] = n_row
    n_deck = n_pat - n_row
    for i in range(n_deck):  # top card last
        st[p[O_DECK] + i] = patterns[n_pat - 1 - i]
    st[N_DECK] = n_deck
    n = p[N_CARDS]
    for i in range(n):
        st[p[O_PILE] + i] = pile[n - 1 - i]
    st[N_PILE] = n
    st[PHASE] = ACTION
    _fresh_hand(t, st, rs, clog, work)
    _check_end(st)
    return st


@njit(cache=True)
def deal(t: Any, rs: Any, patterns: Any, pile: Any, clog: Any, work: Any) -> Any:
    """Components and setup: shuffle the patterns, then the draw pile (stream 0; ``patterns`` and
    ``pile`` receive the orders, top first), and set up as :func:`new_state`."""
    p = t.params
    for i in range(p[N_PATTERNS]):
        patterns[i] = i
    _shuffle(rs, patterns, p[N_PATTERNS])
    for c in range(p[N_CARDS]):
        pile[c] = c
    _shuffle(rs, pile, p[N_CARDS])
    return new_state(t, patterns, pile, rs, clog, work)


@njit(cache=True)
def edit_patterns(t: Any, st: Any, patterns: Any, target: int) -> None:
    """A deal edit, in place (``gamelib.deck_the_yard.rules.edit_deal``'s): pattern ``target``
    trades places with the pattern in face-up slot 0, so it starts face up in slot 0 and the
    displaced pattern goes where it was (the row or the pattern deck); ``patterns`` (the order,
    top first) and the state's row and deck follow."""
    p = t.params
    n_pat = p[N_PATTERNS]
    for k in range(n_pat):
        if patterns[k] == target:
            patterns[k] = patterns[0]
            patterns[0] = target
            break
    for i in range(st[N_ROW]):
        st[p[O_ROW] + i] = patterns[i]
    for i in range(st[N_DECK]):  # top card last
        st[p[O_DECK] + i] = patterns[n_pat - 1 - i]


@njit_borrowing
def _fresh_hand(t: Any, st: Any, rs: Any, clog: Any, work: Any) -> None:
    """Draw to a full hand setting characters, broken bulbs and events aside, then shuffle them
    back into the pile (a chance event, logged to ``clog`` when it has room); if the pile ran
    dry first, they stay out of play."""
    p = t.params
    aside = work[W_ASIDE]
    n_aside = 0
    o_hand, o_pile = p[O_HAND], p[O_PILE]
    size = p[HAND_SIZE]
    while hand_count(t, st) < size and st[N_PILE] > 0:
        st[N_PILE] -= 1
        c = st[o_pile + st[N_PILE]]
        k = t.kind_of[c]
        if k >= BROKEN:
            aside[n_aside] = c
            n_aside += 1
        else:
            st[o_hand + k] += 1
            st[HAND_TOTAL] += 1
    if n_aside == 0:
        return
    if hand_count(t, st) < size:
        st[OUT_OF_PLAY] += n_aside
        return
    items = work[W_ITEMS]
    n_pile = st[N_PILE]
    for i in range(n_pile):  # the pile top first, then the set-aside cards as drawn
        items[i] = st[o_pile + n_pile - 1 - i]
    for i in range(n_aside):
        items[n_pile + i] = aside[i]
    n = n_pile + n_aside
    _shuffle(rs, items, n)
    for i in range(n):
        st[o_pile + i] = items[n - 1 - i]
    st[N_PILE] = n
    if len(clog) > 0:
        at = clog[0]
        clog[at] = n
        for i in range(n):
            clog[at + 1 + i] = items[i]
        clog[0] = at + 1 + n


@njit_borrowing
def _check_end(st: Any) -> None:
    """The game ends once the draw pile and the hand are both empty."""
    if st[N_PILE] == 0 and st[HAND_TOTAL] == 0 and st[PHASE] != PLUG:
        st[PHASE] = OVER


@njit_borrowing
def _reset_strand(t: Any, st: Any) -> None:
    p = t.params
    for s in range(p[STRAND_LEN]):
        st[p[O_STRAND] + s] = -1
    st[N_STRAND] = 0


@njit_borrowing
def _matches(t: Any, st: Any, pat: int) -> bool:
    """Whether the strand matches the start of pattern ``pat`` (a bubble matches its slot)."""
    p = t.params
    for s in range(p[STRAND_LEN]):
        v = st[p[O_STRAND] + s]
        if v >= 0 and v != BUBBLE and v != t.pattern[pat, s]:
            return False
    return True


@njit_borrowing
def _next_slot(t: Any, st: Any) -> int:
    """Where the next coloured bulb goes (left to right, before a bubble in the last slot)."""
    p = t.params
    n = p[STRAND_LEN]
    for s in range(n):
        if st[p[O_STRAND] + s] < 0:
            return s
    return int(n)


# --- legal decisions, apply, the end ------------------------------------------------------------


@njit_borrowing
def legal(t: Any, st: Any, work: Any) -> int:
    """A turn's options: play a coloured bulb that continues a face-up pattern, play a bubble
    into the empty last slot, discard any held kind; during a refill, spend a plug or not.

    Writes the legal decisions to ``work[W_OUT]`` in the reference's order and returns how many
    there are (0 once the game is over).
    """
    p = t.params
    out = work[W_OUT]
    phase = st[PHASE]
    if phase == PLUG:
        out[0] = D_PLUG_YES
        out[1] = D_PLUG_NO
        return 2
    if phase != ACTION:
        return 0
    o_hand = p[O_HAND]
    fit = work[W_FIT]
    for c in range(N_COLOURS):
        fit[c] = 0
    slot = _next_slot(t, st)
    any_match = False
    for i in range(st[N_ROW]):
        pat = st[p[O_ROW] + i]
        if _matches(t, st, pat):
            any_match = True
            if slot < p[STRAND_LEN]:
                fit[t.pattern[pat, slot]] = 1
    m = 0
    for j in range(N_HAND_KINDS):
        k = t.alpha[j]
        if k < N_COLOURS and st[o_hand + k] > 0 and fit[k]:
            out[m] = k
            m += 1
    if st[o_hand + BUBBLE] > 0 and st[p[O_STRAND] + p[STRAND_LEN] - 1] < 0 and any_match:
        out[m] = D_BUBBLE
        m += 1
    for j in range(N_HAND_KINDS):
        k = t.alpha[j]
        if st[o_hand + k] > 0:
            out[m] = D_DISCARD + k
            m += 1
    return m


@njit_borrowing
def apply(t: Any, st: Any, d: int, rs: Any, clog: Any, work: Any) -> None:
    """Make decision ``d`` (it must be legal, unchecked here), then refill the hand; a completed
    strand claims the leftmost face-up pattern it matches. Reshuffles draw from stream 0."""
    p = t.params
    o_hand = p[O_HAND]
    if st[PHASE] == PLUG:
        _resolve_pending(t, st, d == D_PLUG_YES, rs, clog, work)
        _refill(t, st, rs, clog, work)
        return
    if d < N_COLOURS:
        st[o_hand + d] -= 1
        st[p[O_STRAND] + _next_slot(t, st)] = d
        st[N_STRAND] += 1
    elif d == D_BUBBLE:
        st[o_hand + BUBBLE] -= 1
        st[p[O_STRAND] + p[STRAND_LEN] - 1] = BUBBLE
        st[N_STRAND] += 1
        st[BUBBLES_PLAYED] += 1
    else:
        st[o_hand + d - D_DISCARD] -= 1
        st[DISCARDS] += 1
    st[HAND_TOTAL] -= 1
    if st[N_STRAND] == p[STRAND_LEN]:
        _claim(t, st)
    st[TURNS] += 1
    _refill(t, st, rs, clog, work)


@njit_borrowing
def _claim(t: Any, st: Any) -> None:
    """Claim the leftmost face-up pattern the full strand matches; the next pattern card takes
    its place (the row shrinks once the pattern deck is empty); the strand is discarded."""
    p = t.params
    o_row = p[O_ROW]
    n_row = st[N_ROW]
    at = 0
    while at < n_row and not _matches(t, st, st[o_row + at]):
        at += 1
    pat = st[o_row + at]
    c = p[O_CLAIMS] + 3 * st[N_CLAIMS]
    st[c], st[c + 1], st[c + 2] = st[TURNS], pat, at
    st[N_CLAIMS] += 1
    if st[N_DECK] > 0:
        st[N_DECK] -= 1
        st[o_row + at] = st[p[O_DECK] + st[N_DECK]]
    else:
        for i in range(at, n_row - 1):
            st[o_row + i] = st[o_row + i + 1]
        st[N_ROW] = n_row - 1
    _reset_strand(t, st)


@njit_borrowing
def _refill(t: Any, st: Any, rs: Any, clog: Any, work: Any) -> None:
    """Draw until the hand is full or the pile is empty; an event, character or broken bulb
    stops for the plug decision when a plug is held, and is resolved without one otherwise."""
    p = t.params
    o_hand, o_pile = p[O_HAND], p[O_PILE]
    size = p[HAND_SIZE]
    while hand_count(t, st) < size and st[N_PILE] > 0:
        st[N_PILE] -= 1
        c = st[o_pile + st[N_PILE]]
        k = t.kind_of[c]
        if k == EVENT:
            st[EVENTS_DRAWN] += 1
        elif k == BROKEN:
            st[BROKEN_DRAWN] += 1
        elif k == CHARACTER:
            st[CHARACTERS_DRAWN] += 1
        else:
            st[o_hand + k] += 1
            st[HAND_TOTAL] += 1
            continue
        st[PENDING] = c
        if st[o_hand + PLUG_KIND] > 0:
            st[PHASE] = PLUG
            return
        _resolve_pending(t, st, False, rs, clog, work)
    st[PHASE] = ACTION
    _check_end(st)


@njit_borrowing
def _resolve_pending(t: Any, st: Any, use_plug: bool, rs: Any, clog: Any, work: Any) -> None:
    """An event is cancelled by a plug or blacks out the hand; a character is claimed with a
    plug; a broken bulb is cancelled by a plug or takes the strand with it."""
    p = t.params
    k = t.kind_of[st[PENDING]]
    st[PENDING] = -1
    if use_plug:
        st[p[O_HAND] + PLUG_KIND] -= 1
        st[HAND_TOTAL] -= 1
        if k == EVENT:
            st[PLUGS_ON_EVENTS] += 1
        elif k == CHARACTER:
            st[PLUGS_ON_CHARACTERS] += 1
        else:
            st[PLUGS_ON_BROKEN] += 1
    if k == EVENT:
        if use_plug:
            st[EVENTS_CANCELLED] += 1
        else:  # blackout: discard the hand, draw a fresh one
            st[p[O_BLACKOUT] + st[BLACKOUTS]] = st[TURNS]
            st[BLACKOUTS] += 1
            for j in range(N_HAND_KINDS):
                st[p[O_HAND] + j] = 0
            st[HAND_TOTAL] = 0
            _fresh_hand(t, st, rs, clog, work)
    elif k == CHARACTER:
        if use_plug:
            st[N_CHARS] += 1
    elif use_plug:
        st[BROKEN_CANCELLED] += 1
    elif st[N_STRAND] > 0:
        _reset_strand(t, st)
        st[STRANDS_LOST] += 1


@njit_borrowing
def is_over(st: Any) -> bool:
    """The draw pile and the hand are both empty."""
    return bool(st[PHASE] == OVER)


@njit_borrowing
def result(t: Any, st: Any, row: Any) -> None:
    """End and result: won with win_threshold or more claimed cards (patterns and characters)
    once the game is over. Fills ``row`` (``R_*`` columns; blackout turns -1 where none)."""
    p = t.params
    claimed = st[N_CLAIMS] + st[N_CHARS]
    over = st[PHASE] == OVER
    row[R_WON] = 1 if over and claimed >= p[WIN] else 0
    row[R_OVER] = 1 if over else 0
    row[R_TURNS] = st[TURNS]
    row[R_CLAIMED] = claimed
    row[R_PATTERNS] = st[N_CLAIMS]
    row[R_CHARACTERS] = st[N_CHARS]
    for i in range(12):
        row[R_COUNTS + i] = st[BLACKOUTS + i]
    row[R_OUT_OF_PLAY] = st[OUT_OF_PLAY]
    row[R_FIRST_BLACKOUT] = st[p[O_BLACKOUT]] if st[BLACKOUTS] > 0 else -1
    for i in range(p[N_EVENTS]):
        row[R_BLACKOUT_TURNS + i] = st[p[O_BLACKOUT] + i] if i < st[BLACKOUTS] else -1


# --- random play ----------------------------------------------------------------------------------


@njit(cache=True)
def new_work(t: Any) -> Any:
    """Scratch space for ``legal``/``apply`` (one per thread of play, reused every decision)."""
    p = t.params
    return np.zeros((N_WORK, max(p[N_CARDS], N_DECISIONS, p[FACE_UP]) + 1), np.int64)


@njit(cache=True)
def new_log(t: Any) -> Any:
    """An empty chance log with room for one game's reshuffles (``clog[0]``: ints used)."""
    clog = np.zeros(t.params[MAX_SHUFFLE_LOG] + 1, np.int64)
    clog[0] = 1
    return clog


@njit_borrowing
def _greedy_spend(t: Any, st: Any, policy: int) -> bool:
    """The greedy player's plug policy on the card just drawn (``GreedyPlayer.spend``)."""
    p = t.params
    kind = t.kind_of[st[PENDING]]
    plugs = st[p[O_HAND] + PLUG_KIND]
    if policy == NEVER:
        return False
    if policy == SAVE_FOR_EVENTS:
        return bool(kind == EVENT)
    if policy == CLAIM_CHARACTERS:
        return bool(kind == CHARACTER or (kind == EVENT and plugs >= 2))
    on_strand = 0
    for s in range(p[STRAND_LEN]):
        if st[p[O_STRAND] + s] >= 0:
            on_strand += 1
    return bool((kind == BROKEN and on_strand >= 2) or (kind == EVENT and plugs >= 2))


@njit_borrowing
def _need(t: Any, st: Any, match: Any, slot: int, colour: int) -> float:
    """GreedyPlayer._discard's need of ``colour``: the face-up patterns' call for it, a matching
    pattern's open slots from ``slot`` on weighted by nearness, another's slots by 0.3 / (1 + j)
    (summed in the Python player's order, row by row and slot by slot, so the floats are its)."""
    p = t.params
    n_slots, o_strand, o_row = p[STRAND_LEN], p[O_STRAND], p[O_ROW]
    need = 0.0
    for r in range(st[N_ROW]):
        pat = st[o_row + r]
        for j in range(n_slots):
            if t.pattern[pat, j] != colour:
                continue
            if match[r]:
                if j >= slot and st[o_strand + j] < 0:
                    need += 1.0 / (1 + j - slot)
            else:
                need += 0.3 / (1 + j)
    return need


@njit_borrowing
def greedy(t: Any, st: Any, work: Any, n: int, policy: int) -> int:
    """The greedy player (``gamelib.deck_the_yard.players.GreedyPlayer``) on the ``n`` legal
    options ``legal`` left in ``work[W_OUT]``: the coloured bulb whose pattern the hand best
    supports; a bubble only when it completes the strand or the pile is empty; otherwise the
    discard that face-up patterns need least, keeping one bubble and the plugs its policy can
    use. Ties go to the first option, as in the Python player."""
    p = t.params
    if st[PHASE] == PLUG:
        return D_PLUG_YES if _greedy_spend(t, st, policy) else D_PLUG_NO
    out, match = work[W_OUT], work[W_MATCH]
    n_slots, o_strand, o_hand, o_row = p[STRAND_LEN], p[O_STRAND], p[O_HAND], p[O_ROW]
    slot = _next_slot(t, st)
    n_row = st[N_ROW]
    for i in range(n_row):
        match[i] = 1 if _matches(t, st, st[o_row + i]) else 0
    best_d, best_v = -1, -1
    has_bubble = False
    for i in range(n):
        d = out[i]
        if d == D_BUBBLE:
            has_bubble = True
        if d >= N_COLOURS:
            continue
        support = 0  # GreedyPlayer._support
        for r in range(n_row):
            pat = st[o_row + r]
            if not match[r] or t.pattern[pat, slot] != d:
                continue
            have = 0
            for j in range(slot + 1, n_slots):
                if st[o_strand + j] < 0 and st[o_hand + t.pattern[pat, j]] >= 1:
                    have += 1
            support = max(support, 1 + have)
        if support > best_v:
            best_d, best_v = d, support
    if best_d >= 0:
        return int(best_d)
    if has_bubble:
        coloured = 0
        for j in range(n_slots - 1):
            if st[o_strand + j] >= 0:
                coloured += 1
        if coloured == n_slots - 1 or st[N_PILE] == 0:
            return D_BUBBLE
    events_left = p[N_EVENTS] - st[EVENTS_DRAWN]  # every drawn event is discarded
    characters_left = p[N_CHARACTERS] - st[CHARACTERS_DRAWN]  # discarded or claimed
    if policy == NEVER:
        useful = 0
    elif policy == SAVE_FOR_EVENTS:
        useful = min(1, events_left)
    elif policy == CLAIM_CHARACTERS:
        useful = min(2, characters_left + min(1, events_left))
    else:
        useful = 1
    best_d = -1
    best_a, best_b = 0.0, 0
    for i in range(n):
        d = out[i]
        if d < D_DISCARD or d >= D_DISCARD + N_HAND_KINDS:
            continue
        k = d - D_DISCARD
        copies = st[o_hand + k]
        if k == PLUG_KIND:
            a, b = (100.0 if copies <= useful else -1.0), 0
        elif k == BUBBLE:
            a, b = (50.0 if copies == 1 else 0.05), 0
        else:
            a, b = _need(t, st, match, slot, k), -copies
        if best_d < 0 or a < best_a or (a == best_a and b < best_b):
            best_d, best_a, best_b = d, a, b
    return int(best_d)


@njit(cache=True)
def play_game(
    t: Any, rs: Any, st: Any, clog: Any, work: Any, decisions: Any, player: int, counts: Any
) -> tuple[int, Any]:
    """Play ``st`` to the end: the random player (``player`` = ``RANDOM``; uniform over the legal
    options, stream 1) or the greedy one with plug policy ``player``. Returns ``(n,
    decisions)``: how many decisions there were and the buffer holding them (``decisions``, or
    a larger copy when the game outgrew it); adds the options offered to ``counts[0]`` and the
    decisions with two or more to ``counts[1]``."""
    n_dec = 0
    while st[PHASE] != OVER:
        if n_dec == len(decisions):
            grown = np.empty(2 * len(decisions) + 16, np.int64)
            grown[:n_dec] = decisions
            decisions = grown
        n = legal(t, st, work)
        if n == 0:
            raise RuntimeError("deck the yard kernel: no legal decision in an unfinished game")
        counts[0] += n
        counts[1] += n > 1
        if player == RANDOM:
            d = work[W_OUT, 0 if n == 1 else rng_below(rs, 1, n)]
        else:
            d = greedy(t, st, work, n, player)
        decisions[n_dec] = d
        n_dec += 1
        apply(t, st, d, rs, clog, work)
    return n_dec, decisions


@njit(cache=True)
def play_batch(t: Any, seeds: Any, record: bool, player: int, edit: int) -> Any:
    """Deal and play one game per seed with ``player`` (see ``play_game``), entirely in
    compiled code; ``edit`` ≥ 0 puts that pattern face up in slot 0 of every deal
    (``edit_patterns``).

    Returns ``(results, decisions, offsets, patterns, piles, chance)``: ``results[g]`` the
    ``R_*`` columns; with ``record``, game ``g``'s decisions are
    ``decisions[offsets[g]:offsets[g + 1]]`` (int8), ``patterns[g]`` and ``piles[g]`` its deal
    (top first) and ``chance[g]`` its chance log (see ``new_log``); without, those are empty.
    """
    p = t.params
    n_games = len(seeds)
    r_options = R_BLACKOUT_TURNS + p[N_EVENTS]  # then the options and the 2+ decisions
    results = np.zeros((n_games, r_options + 2), np.int64)
    work = new_work(t)
    buf = np.empty(1024, np.int64)
    pat_buf = np.empty(p[N_PATTERNS], np.int64)
    pile_buf = np.empty(p[N_CARDS], np.int64)
    n_rec = n_games if record else 0
    decisions = np.empty(n_rec * 64, np.int8)
    offsets = np.zeros(n_rec + 1, np.int64)
    patterns = np.empty((n_rec, p[N_PATTERNS]), np.int16)
    piles = np.empty((n_rec, p[N_CARDS]), np.int16)
    chance = np.zeros((n_rec, p[MAX_SHUFFLE_LOG] + 1), np.int16)
    no_log = np.zeros(0, np.int64)
    for g in range(n_games):
        rs = rng_streams(seeds[g])
        clog = new_log(t) if record else no_log
        st = deal(t, rs, pat_buf, pile_buf, clog, work)
        if edit >= 0:
            edit_patterns(t, st, pat_buf, edit)
        n_dec, buf = play_game(t, rs, st, clog, work, buf, player, results[g, r_options:])
        result(t, st, results[g])
        results[g, R_DECISIONS] = n_dec
        if record:
            patterns[g, :] = pat_buf
            piles[g, :] = pile_buf
            chance[g, :] = clog
            at = offsets[g]
            if at + n_dec > len(decisions):
                grown = np.empty(max(2 * len(decisions), at + n_dec), np.int8)
                grown[:at] = decisions[:at]
                decisions = grown
            for i in range(n_dec):
                decisions[at + i] = buf[i]
            offsets[g + 1] = at + n_dec
    return results, decisions[: offsets[n_rec]], offsets, patterns, piles, chance


# --- from Python ------------------------------------------------------------------------------


def reference_move(d: int) -> Move:
    """The reference engine's move for kernel decision ``d``."""
    d = int(d)
    if 0 <= d < N_COLOURS:
        return PlayBulb(BULB_COLOURS[d])
    if d == D_BUBBLE:
        return PlayBubble()
    if D_DISCARD <= d < D_DISCARD + N_HAND_KINDS:
        return Discard(KIND_NAMES[d - D_DISCARD])
    if d in (D_PLUG_YES, D_PLUG_NO):
        return UsePlug(d == D_PLUG_YES)
    raise ValueError(f"{d} is not a Deck the Yard kernel decision (0-{N_DECISIONS - 1})")


def decision(move: Move) -> int:
    """The kernel decision for a reference move (the inverse of :func:`reference_move`)."""
    if isinstance(move, PlayBulb) and move.colour in BULB_COLOURS:
        return BULB_COLOURS.index(move.colour)
    if isinstance(move, PlayBubble):
        return D_BUBBLE
    if isinstance(move, Discard) and move.kind in KIND_NAMES[:N_HAND_KINDS]:
        return D_DISCARD + KIND_NAMES.index(move.kind)
    if isinstance(move, UsePlug):
        return D_PLUG_YES if move.use else D_PLUG_NO
    raise ValueError(f"{move!r} is not a Deck the Yard decision")


encode = decision  # the name every kernel gives its move → decision map


def from_reference(state: DeckTheYardState) -> tuple[KernelTables, IntArray]:
    """The kernel state of a reference position, hand-built ones (``stacked``) included."""
    if state.claimed != [c[1] for c in state.claims]:
        raise ValueError(
            f"the position's claimed patterns {state.claimed} disagree with its claims "
            f"{state.claims} (turn, pattern, place in the row)"
        )
    t = tables(state.config)
    p = t.params
    st = np.zeros(int(p[STATE_LEN]), np.int64)
    st[PHASE], st[TURNS] = state.phase, state.turns
    st[PENDING] = -1 if state.pending is None else state.pending
    for c in state.hand:
        st[int(p[O_HAND]) + int(t.kind_of[c])] += 1
    st[HAND_TOTAL] = len(state.hand)
    for i, v in enumerate(state.strand):
        st[int(p[O_STRAND]) + i] = -1 if v is None else KIND_NAMES.index(v)
    st[N_STRAND] = len(state.strand_cards)
    for size, o, items in (
        (N_ROW, O_ROW, state.row),
        (N_DECK, O_DECK, state.deck),
        (N_PILE, O_PILE, state.pile),
    ):
        st[size] = len(items)
        st[int(p[o]) : int(p[o]) + len(items)] = items
    for i, claim in enumerate(state.claims):
        st[int(p[O_CLAIMS]) + 3 * i : int(p[O_CLAIMS]) + 3 * i + 3] = claim
    st[N_CLAIMS] = len(state.claims)
    st[N_CHARS], st[OUT_OF_PLAY] = len(state.characters), len(state.out_of_play)
    for i, count in enumerate(COUNT_NAMES):
        st[BLACKOUTS + i] = state.counts[count]
    for i, turn in enumerate(state.blackout_turns):
        st[int(p[O_BLACKOUT]) + i] = turn
    return t, st


def legal_moves(t: KernelTables, st: IntArray, work: IntArray) -> list[Move]:
    """The kernel's legal options of ``st`` as reference moves, in order."""
    n = int(legal(t, st, work))
    return [reference_move(int(d)) for d in work[W_OUT, :n]]


@dataclass(frozen=True)
class KernelGames:
    """A batch of kernel games: one table row per game, and the records when asked for."""

    config: DeckTheYardConfig
    table: np.ndarray[Any, Any]
    """A structured array (``pandas.DataFrame(table)`` makes it a frame): ``game``, ``seed``,
    ``decisions`` and the reference ``Outcome.row()`` columns."""
    decisions: npt.NDArray[np.int8]
    """Every game's decisions back to back (see the module docstring); empty unless recorded."""
    offsets: IntArray
    """Game ``g``'s decisions are ``decisions[offsets[g]:offsets[g + 1]]``."""
    patterns: npt.NDArray[np.int16]
    """``patterns[g]``: game ``g``'s pattern order, top first (the face-up row first)."""
    piles: npt.NDArray[np.int16]
    """``piles[g]``: game ``g``'s shuffled draw pile, top first, by card id."""
    chance: npt.NDArray[np.int16]
    """``chance[g]``: game ``g``'s reshuffles (``chance_log`` reads them)."""
    player: str = "random"
    """Who played: ``random``, ``greedy`` or ``greedy:POLICY``."""
    edit: int = -1
    """The pattern every deal put face up in slot 0 (``play_seeds(edit=...)``); −1: none."""

    def game_decisions(self, g: int) -> IntArray:
        """The decisions of game ``g`` of the batch, in order."""
        return self.decisions[self.offsets[g] : self.offsets[g + 1]].astype(np.int64)

    def start(self, g: int) -> dict[str, Any]:
        """Game ``g``'s start in the reference's record form (``DeckTheYardState.start``)."""
        pats, kinds = self.config.patterns, self.config.kinds()
        return {
            "patterns": [[*pats[i], int(i)] for i in self.patterns[g]],
            "draw_pile": [f"{kinds[c]}#{int(c)}" for c in self.piles[g]],
        }

    def chance_log(self, g: int) -> list[list[int]]:
        """Game ``g``'s reshuffles, each the new draw pile top first (a record's ``chance``)."""
        return self.chance_log_of(self.chance[g])

    @staticmethod
    def chance_log_of(log: npt.NDArray[np.integer[Any]]) -> list[list[int]]:
        """The reshuffles a chance log holds (see ``new_log``), each top first."""
        out, at = [], 1
        while at < log[0]:
            n = int(log[at])
            out.append([int(c) for c in log[at + 1 : at + 1 + n]])
            at += 1 + n
        return out

    def replay(self, g: int) -> tuple[KernelTables, IntArray]:
        """Game ``g`` dealt again from its seed and played decision by decision through the
        kernel's ``apply`` (from Python): its final state."""
        t, st, rs, clog, work = self.start_state(g)
        for d in self.game_decisions(g):
            apply(t, st, int(d), rs, clog, work)
        return t, st

    def start_state(self, g: int) -> tuple[KernelTables, IntArray, Any, IntArray, IntArray]:
        """Game ``g``'s kernel state after the deal, with what ``apply`` needs next: ``(t, st,
        rs, clog, work)`` (its random streams, a fresh chance log, scratch space)."""
        t = tables(self.config)
        rs = rng_streams(int(self.table["seed"][g]))
        p = t.params
        patterns = np.empty(int(p[N_PATTERNS]), np.int64)
        pile = np.empty(int(p[N_CARDS]), np.int64)
        clog, work = new_log(t), new_work(t)
        st = deal(t, rs, patterns, pile, clog, work)
        if self.edit >= 0:
            edit_patterns(t, st, patterns, self.edit)
        return t, st, rs, clog, work

    def record(self, g: int) -> dict[str, Any]:
        """Game ``g`` as a ``gamelib-record/2`` (without ``end``), written from the kernel alone
        (its deal, decisions, reshuffles and result): :func:`gamelib.records.replay` replays it
        through the reference and refuses it unless every move is legal there, every recorded
        reshuffle is used and the reference's outcome equals the kernel's."""
        t, st = self.replay(g)
        return {
            "format": RECORD_FORMAT,
            "game": "deck_the_yard",
            "gamelib_version": __version__,
            "config": config_to_json(self.config),
            "seed": int(self.table["seed"][g]),
            "players": [self.player],
            "start": self.start(g),
            "moves": [{"seat": 0, "move": move_to_json(int(d))} for d in self.game_decisions(g)],
            "chance": self.chance_log(g),
            "outcome": outcome(t, st).to_json(),
        }


def move_to_json(d: int) -> dict[str, Any]:
    """Kernel decision ``d`` in a record's words (``DeckTheYardState.move_to_json``)."""
    move = reference_move(d)
    if isinstance(move, PlayBulb):
        return {"bulb": move.colour}
    if isinstance(move, PlayBubble):
        return {"bubble": True}
    if isinstance(move, Discard):
        return {"discard": move.kind}
    assert isinstance(move, UsePlug)
    return {"plug": move.use}


def outcome(t: KernelTables, st: IntArray) -> Outcome:
    """The reference's ``Outcome`` of a kernel position (counters, blackout turns, claims)."""
    p = t.params
    row = np.zeros(R_BLACKOUT_TURNS + int(p[N_EVENTS]), np.int64)
    result(t, st, row)
    view = describe(t, st)
    won = bool(row[R_WON])
    counters: dict[str, int | float] = {
        "won": int(won),
        "claimed": int(row[R_CLAIMED]),
        "claimed_patterns": int(row[R_PATTERNS]),
        "claimed_characters": int(row[R_CHARACTERS]),
        **view["counts"],
        "out_of_play": int(row[R_OUT_OF_PLAY]),
        "first_blackout_turn": int(row[R_FIRST_BLACKOUT]),
    }
    for i in range(int(p[N_EVENTS])):
        counters[f"blackout_turn_{i + 1}"] = int(row[R_BLACKOUT_TURNS + i])
    over = bool(row[R_OVER])
    return Outcome(
        winners=(0,) if won else (),
        scores=(float(row[R_CLAIMED]),),
        reason=("won" if won else "lost") if over else "unfinished",
        turns=int(row[R_TURNS]),
        counters=counters,
        details={
            "blackout_turns": tuple(view["blackout_turns"]),
            "claims": tuple(tuple(c) for c in view["claims"]),
        },
    )


def reference_state(games: KernelGames, g: int) -> DeckTheYardState:
    """The reference engine's state at the start of kernel game ``g`` of a recorded batch, its
    reshuffles replayed from the kernel's chance log (as ``gamelib.records.replay`` does)."""
    if len(games.offsets) <= g + 1:
        raise ConfigError(f"game {g} was not recorded: play the batch with record=True")
    return state_from_start(games.config, games.start(g), games.chance_log(g))


def player_code(player: str) -> int:
    """``random`` → ``RANDOM``; ``greedy`` or ``greedy:POLICY`` → the policy's code."""
    if player == "random":
        return RANDOM
    name, _, policy = str(player).partition(":")
    if name == "greedy" and (policy or "save_for_events") in POLICIES:
        return POLICIES.index(policy or "save_for_events")
    raise ConfigError(
        f"the kernel plays random, greedy or greedy:POLICY (policies: {', '.join(POLICIES)}), "
        f"got {player!r}"
    )


def play_random(
    config: DeckTheYardConfig, n_games: int, seed: int, *, record: bool = False, start: int = 0
) -> KernelGames:
    """Play ``n_games`` random games in compiled code (see :func:`play`)."""
    return play(config, "random", n_games, seed, record=record, start=start)


def play(
    config: DeckTheYardConfig,
    player: str,
    n_games: int,
    seed: int,
    *,
    record: bool = False,
    start: int = 0,
) -> KernelGames:
    """Play ``n_games`` games of ``player`` (``random``, ``greedy`` or ``greedy:POLICY``) in
    compiled code; game ``i`` is seeded with the ``i``-th per-game seed of ``seed``
    (``gamelib.core.game_seeds``), as ``simulate`` seeds its games (it plays them here)."""
    if not isinstance(config, DeckTheYardConfig):
        raise ConfigError(f"the kernel needs a DeckTheYardConfig, got {type(config).__name__}")
    if not isinstance(n_games, int) or isinstance(n_games, bool) or n_games < 0:
        raise ConfigError(f"n_games must be a non-negative int, got {n_games!r}")
    return play_seeds(config, player, seeds_for(seed, n_games, start), record=record, start=start)


def supports(player: object) -> bool:
    """Whether a player spec has a compiled version here (``simulate`` then plays in compiled
    code)."""
    try:
        player_code(player)  # type: ignore[arg-type]
    except ConfigError:
        return False
    return isinstance(player, str)


def play_seeds(
    config: DeckTheYardConfig,
    player: str | Sequence[str],
    seeds: IntArray,
    *,
    record: bool = False,
    start: int = 0,
    edit: Sequence[Any] | None = None,
    holder: int = 0,
) -> KernelGames:
    """:func:`play` on explicit per-game seeds (``player`` may be a one-seat list, as
    ``simulate`` seats its players); ``edit`` (``("pattern", P)``) puts pattern P face up in
    slot 0 of every deal (:func:`gamelib.deck_the_yard.rules.edit_deal`; the solitaire's one
    seat, ``holder`` 0, holds it)."""
    if not isinstance(player, str):
        (player,) = player
    code = player_code(player)
    target = check_edit(edit, config)[1] if edit is not None else -1
    if holder != 0:
        raise ConfigError(f"a solitaire has one seat: holder must be 0, got {holder!r}")
    t = tables(config)
    seeds = np.asarray(seeds, dtype=np.int64)
    n_games = len(seeds)
    results, decisions, offsets, patterns, piles, chance = play_batch(
        t, seeds, record, code, target
    )
    won = results[:, R_WON]
    over = results[:, R_OVER].astype(bool)
    columns: list[tuple[str, Any]] = [
        ("game", np.arange(start, start + n_games)),
        ("seed", seeds),
        ("winner", np.where(won == 1, 0, -1)),
        ("n_winners", won),
        ("reason", np.where(over, np.where(won == 1, "won", "lost"), "unfinished")),
        ("turns", results[:, R_TURNS]),
        ("decisions", results[:, R_DECISIONS]),
        ("options", results[:, -2]),
        ("multi_option_decisions", results[:, -1]),
        ("score_0", results[:, R_CLAIMED].astype(np.float64)),
        ("win_0", won.astype(np.float64)),
        ("won", won),
        ("claimed", results[:, R_CLAIMED]),
        ("claimed_patterns", results[:, R_PATTERNS]),
        ("claimed_characters", results[:, R_CHARACTERS]),
    ]
    columns += [(name, results[:, R_COUNTS + i]) for i, name in enumerate(COUNT_NAMES)]
    columns += [
        ("out_of_play", results[:, R_OUT_OF_PLAY]),
        ("first_blackout_turn", results[:, R_FIRST_BLACKOUT]),
    ]
    columns += [
        (f"blackout_turn_{i + 1}", results[:, R_BLACKOUT_TURNS + i]) for i in range(config.events)
    ]
    table = np.empty(n_games, dtype=[(name, np.asarray(col).dtype) for name, col in columns])
    for name, col in columns:
        table[name] = col
    return KernelGames(config, table, decisions, offsets, patterns, piles, chance, player, target)


def describe(t: KernelTables, st: IntArray) -> dict[str, Any]:
    """A kernel position in the reference's words: what ``tests`` compare after each decision
    (hand as sorted kinds; strand, row, pattern deck and draw pile as the reference keeps them,
    top card last; claims; the pending card's kind; every count)."""
    p = t.params
    hand = sorted(
        KIND_NAMES[k] for k in range(N_HAND_KINDS) for _ in range(int(st[int(p[O_HAND]) + k]))
    )
    strand = [
        None if v < 0 else KIND_NAMES[int(v)]
        for v in st[int(p[O_STRAND]) : int(p[O_STRAND] + p[STRAND_LEN])]
    ]
    o = int(p[O_CLAIMS])
    claims = [[int(x) for x in st[o + 3 * i : o + 3 * i + 3]] for i in range(int(st[N_CLAIMS]))]
    pending = int(st[PENDING])
    return {
        "phase": int(st[PHASE]),
        "turns": int(st[TURNS]),
        "hand": hand,
        "strand": strand,
        "strand_cards": int(st[N_STRAND]),
        "row": [int(x) for x in st[int(p[O_ROW]) : int(p[O_ROW]) + int(st[N_ROW])]],
        "deck": [int(x) for x in st[int(p[O_DECK]) : int(p[O_DECK]) + int(st[N_DECK])]],
        "pile": [int(x) for x in st[int(p[O_PILE]) : int(p[O_PILE]) + int(st[N_PILE])]],
        "claims": claims,
        "characters": int(st[N_CHARS]),
        "out_of_play": int(st[OUT_OF_PLAY]),
        "pending": None if pending < 0 else KIND_NAMES[int(t.kind_of[pending])],
        "counts": {name: int(st[BLACKOUTS + i]) for i, name in enumerate(COUNT_NAMES)},
        "blackout_turns": [
            int(x) for x in st[int(p[O_BLACKOUT]) : int(p[O_BLACKOUT]) + int(st[BLACKOUTS])]
        ],
    }


def describe_reference(state: DeckTheYardState) -> dict[str, Any]:
    """The same view of a reference position (see :func:`describe`)."""
    return {
        "phase": state.phase,
        "turns": state.turns,
        "hand": sorted(state.kind[c] for c in state.hand),
        "strand": list(state.strand),
        "strand_cards": len(state.strand_cards),
        "row": list(state.row),
        "deck": list(state.deck),
        "pile": list(state.pile),
        "claims": [list(c) for c in state.claims],
        "characters": len(state.characters),
        "out_of_play": len(state.out_of_play),
        "pending": None if state.pending is None else state.kind[state.pending],
        "counts": dict(state.counts),
        "blackout_turns": list(state.blackout_turns),
    }


# the cache of this module's jitted functions is emptied when a file they depend on changed
# (numba watches only this file): gamelib/jit_cache.py
guard(globals())
