"""Garner: the complete rules of ``shared/rules/garner.md`` on the gamelib protocol.

*Why one file (680 lines):* the rules page read in order — each rule of the rules page and every
named reading in one place, written once, as the guide asks; split, one page of rules would be
spread over several files.

Cards are small ints (``offset[suit] + number - 1``) and sites are ints (``row * cols + col``);
adjacency, straight lines and card tables are precomputed once per config, so a decision costs
one scan of the top layer and a flood fill over at most ``rows * cols`` sites.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, Literal, NamedTuple

from gamelib.core import (
    MAX_CARDS,
    TERMINAL,
    Chance,
    ConfigError,
    IllegalMoveError,
    Move,
    Outcome,
    RecordError,
    Seat,
    State,
    move_type,
)

Site = int  # row * cols + col
CardId = int  # offset[suit] + number - 1

TopLayer = Literal["level", "surface"]
MustMove = Literal["none", "one", "all"]


@dataclass(frozen=True)
class GarnerConfig:
    """Every rule reading and variation of Garner; the defaults are the ``standard`` setup."""

    suit_sizes: tuple[int, ...] = (15, 15, 15, 15, 15)
    """Numbers in each suit (suit ``u`` holds numbers ``1..suit_sizes[u]``)."""
    rows: int = 5
    """Rows of the grid of stacks."""
    cols: int = 5
    """Columns of the grid of stacks."""
    height: int = 3
    """Cards dealt onto each site; the deck must fill the grid exactly."""
    top_layer: TopLayer = "level"
    """``level``: the highest occupied level; ``surface``: the top card of every stack."""
    must_move: MustMove = "none"
    """``none`` · ``one``: at least one distributed card changes site · ``all``: every card does."""
    straight_line: bool = False
    """Each distributed card lands on the row, column or diagonal of its own site."""
    forbidden_pile_size: int | None = None
    """Never exactly this many cards of a suit in a scoring pile (6 in setups B and E)."""
    suit_weights: tuple[float, ...] | None = None
    """What winning each suit is worth (None: 1 each; setup C: its 9-card suit 0.5)."""
    max_turns: int = 1000
    """Turns after which a stalled game is stopped and recorded as a ``turn_limit`` draw."""
    setup: str = "custom"
    """The setup's name, a label for tables (``standard``, ``A``–``E`` or ``custom``)."""

    #: One place per rule field: for every field, a variant of the defaults that moves it (with the
    #: fields that must move with it). The kernel's tables must tell each variant from the
    #: defaults, and the kernel's cross-check replays each one through the reference
    #: (tests/test_rule_fields.py, gamelib.core.rule_variants): a new field without a variant, or
    #: one the kernel ignores, fails a test instead of a game.
    RULE_VARIANTS: ClassVar[dict[str, dict[str, Any]]] = {
        "suit_sizes": {"suit_sizes": (20, 20, 20, 15)},
        "rows": {"rows": 4, "suit_sizes": (15, 15, 15, 15)},
        "cols": {"cols": 4, "suit_sizes": (15, 15, 15, 15)},
        "height": {"height": 2, "suit_sizes": (10, 10, 10, 10, 10)},
        "top_layer": {"top_layer": "surface"},
        "must_move": {"must_move": "one"},
        "straight_line": {"straight_line": True},
        "forbidden_pile_size": {"forbidden_pile_size": 6},
        "suit_weights": {"suit_weights": (2.0, 1.0, 1.0, 1.0, 0.5)},
        "max_turns": {"max_turns": 20},
    }
    #: fields that only label a config (not rules)
    LABELS: ClassVar[tuple[str, ...]] = ("setup",)

    def __post_init__(self) -> None:
        sizes = self.suit_sizes
        if not isinstance(sizes, tuple) or not sizes or not all(_is_pos_int(n) for n in sizes):
            raise ConfigError(
                f"suit_sizes must be a non-empty tuple of positive ints, got {sizes!r}"
            )
        for name in ("rows", "cols", "height", "max_turns"):
            if not _is_pos_int(getattr(self, name)):
                raise ConfigError(f"{name} must be a positive int, got {getattr(self, name)!r}")
        if self.rows * self.cols < 2:
            raise ConfigError(f"a {self.rows}×{self.cols} grid has fewer than 2 sites")
        deck, places = sum(sizes), self.rows * self.cols * self.height
        if deck > MAX_CARDS:
            raise ConfigError(
                f"a deck of {deck} cards is more than gamelib lays out (at most {MAX_CARDS})"
            )
        if deck != places:
            raise ConfigError(
                f"a deck of {deck} cards ({' + '.join(map(str, sizes))}) cannot deal exactly onto "
                f"a {self.rows}×{self.cols} grid {self.height} high ({places} places)"
            )
        if self.top_layer not in ("level", "surface"):
            raise ConfigError(f"top_layer must be 'level' or 'surface', got {self.top_layer!r}")
        if self.must_move not in ("none", "one", "all"):
            raise ConfigError(f"must_move must be 'none', 'one' or 'all', got {self.must_move!r}")
        if not isinstance(self.straight_line, bool):
            raise ConfigError(f"straight_line must be True or False, got {self.straight_line!r}")
        fps = self.forbidden_pile_size
        if fps is not None and not _is_pos_int(fps):
            raise ConfigError(f"forbidden_pile_size must be None or a positive int, got {fps!r}")
        w = self.suit_weights
        if w is not None and (
            not isinstance(w, tuple)
            or len(w) != len(sizes)
            or not all(_is_number(x) and x >= 0 for x in w)
        ):
            raise ConfigError(
                f"suit_weights must be None or {len(sizes)} non-negative numbers, got {w!r}"
            )
        if not isinstance(self.setup, str):
            raise ConfigError(f"setup must be a name (text), got {self.setup!r}")

    @property
    def n_suits(self) -> int:
        """How many suits the deck has."""
        return len(self.suit_sizes)

    @property
    def weights(self) -> tuple[float, ...]:
        """What winning each suit is worth."""
        return self.suit_weights or (1.0,) * self.n_suits


def _is_pos_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x >= 1


def _is_number(x: object) -> bool:
    """A finite int or float (True and False are not numbers here)."""
    return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)


#: the setups by name: ``standard`` and ``A``–``E`` (the rules page's table)
#:
#: :meta hide-value:
SETUPS: dict[str, GarnerConfig] = {
    "standard": GarnerConfig(setup="standard"),
    "A": GarnerConfig((9,) * 3, 3, 3, 3, setup="A"),
    "B": GarnerConfig((12,) * 3, 3, 3, 4, forbidden_pile_size=6, setup="B"),
    "C": GarnerConfig((13, 13, 13, 9), 4, 4, 3, suit_weights=(1.0, 1.0, 1.0, 0.5), setup="C"),
    "D": GarnerConfig((9,) * 5, 3, 5, 3, setup="D"),
    "E": GarnerConfig((12,) * 5, 4, 5, 3, forbidden_pile_size=6, setup="E"),
}


def custom(
    suits: int, numbers: int, rows: int, cols: int, height: int, **rules: Any
) -> GarnerConfig:
    """A custom setup: ``suits × numbers`` cards on ``rows × cols`` stacks ``height`` high."""
    if not _is_pos_int(suits) or not _is_pos_int(numbers):
        raise ConfigError(f"suits and numbers must be positive ints, got {suits!r} × {numbers!r}")
    return GarnerConfig((numbers,) * suits, rows, cols, height, **rules)


# --- moves ---------------------------------------------------------------------------------


@move_type
class Lift(NamedTuple):
    """Decision 1: lift the number group on these sites (ascending)."""

    sites: tuple[Site, ...]


@move_type
class Place(NamedTuple):
    """Decision 2: put the next lifted card (lowest origin site first) on this site."""

    site: Site


@move_type
class Collect(NamedTuple):
    """Decision 3: collect the suit group on these sites (ascending)."""

    sites: tuple[Site, ...]


@move_type
class LeaveBehind(NamedTuple):
    """Decision 4 (never-exactly-6): the card on this site stays in the layout."""

    site: Site


class Card(NamedTuple):
    """A card as the rules name it (suits from 0, numbers from 1)."""

    suit: int
    number: int


# --- precomputed tables --------------------------------------------------------------------


class _Tables:
    """Per-config constants shared by every state of that config."""

    def __init__(self, cfg: GarnerConfig) -> None:
        r, c = cfg.rows, cfg.cols
        self.n_sites = r * c
        suit_of: list[int] = []
        number_of: list[int] = []
        for u, size in enumerate(cfg.suit_sizes):
            suit_of += [u] * size
            number_of += range(1, size + 1)
        self.suit_of = tuple(suit_of)
        self.number_of = tuple(number_of)
        self.suit_total = cfg.suit_sizes
        adj = []
        lines = []
        for s in range(self.n_sites):
            i, j = divmod(s, c)
            adj.append(
                tuple(
                    a * c + b
                    for a, b in ((i - 1, j), (i, j - 1), (i, j + 1), (i + 1, j))
                    if 0 <= a < r and 0 <= b < c
                )
            )
            lines.append(
                tuple(
                    t
                    for t in range(self.n_sites)
                    if (t // c == i or t % c == j or abs(t // c - i) == abs(t % c - j))
                )
            )
        self.adj: tuple[tuple[Site, ...], ...] = tuple(adj)
        everywhere = tuple(range(self.n_sites))
        targets = lines if cfg.straight_line else [everywhere] * self.n_sites
        if cfg.must_move == "all":
            targets = [tuple(t for t in ts if t != s) for s, ts in enumerate(targets)]
        #: sites a card lifted from site s may go to (before "no two on one site")
        self.targets: tuple[tuple[Site, ...], ...] = tuple(tuple(t) for t in targets)
        self.target_sets: tuple[frozenset[Site], ...] = tuple(frozenset(t) for t in targets)
        #: placements can dead-end only under these variations
        self.constrained = cfg.must_move != "none"


@lru_cache(maxsize=64)
def rule_tables(cfg: GarnerConfig) -> _Tables:
    return _Tables(cfg)


# --- the state -----------------------------------------------------------------------------

LIFT, PLACE, COLLECT, LEAVE, OVER = range(5)
PHASE_NAMES = ("lift", "place", "collect", "leave", "over")


class GarnerState(State):
    """A Garner position: the layout, both scoring piles, whose turn and which decision is next."""

    __slots__ = (
        "_chance",
        "_legal",
        "_origins",
        "_start",
        "collected",
        "collected_per_turn",
        "config",
        "lifted",
        "pending",
        "phase",
        "piles",
        "placed",
        "stacks",
        "t",
        "to_move",
        "turns",
    )

    def __init__(self, config: GarnerConfig, stacks: list[list[CardId]], chance: Chance) -> None:
        self.config = config
        self.t = rule_tables(config)
        self.stacks = stacks
        self._chance = chance
        #: piles[seat][suit]: how many cards of that suit the seat has collected
        self.piles = [[0] * config.n_suits for _ in range(2)]
        #: collected[seat]: the cards in that seat's scoring pile, in the order collected
        self.collected: list[list[CardId]] = [[], []]
        self.to_move: Seat = 0
        self.phase = LIFT
        self.turns = 0
        self.collected_per_turn: list[int] = []
        #: lifted cards still to place, as (origin site, card), lowest origin first
        self.lifted: list[tuple[Site, CardId]] = []
        #: sites already given a card this distribution, and whether any card moved away
        self.placed: list[Site] = []
        #: the suit group chosen for collection, awaiting the leave-behind decision
        self.pending: tuple[Site, ...] = ()
        self._legal: list[Move] | None = None
        #: origin sites of the group being distributed
        self._origins: list[Site] = []
        #: the layout as dealt (kept for records)
        self._start = [st[:] for st in stacks]

    # -- the protocol --
    @property
    def n_players(self) -> int:
        """Garner is a two-player game."""
        return 2

    @property
    def chance(self) -> Chance:
        """Garner's only chance event is the deal, so its chance log stays empty."""
        return self._chance

    def current_player(self) -> Seat:
        """The seat to decide, or TERMINAL."""
        return TERMINAL if self.phase == OVER else self.to_move

    def observation(self, seat: Seat) -> GarnerState:
        """Garner has no hidden information: every seat sees the whole state."""
        return self

    def _compute_legal(self) -> list[Move]:
        phase = self.phase
        if phase == LIFT:
            groups = self.groups(self.t.number_of)
            if self.t.constrained:
                groups = [g for g in groups if self._can_finish(list(g), [], False)]
            return [Lift(g) for g in groups]
        if phase == PLACE:
            return [Place(s) for s in self._place_sites()]
        if phase == COLLECT:
            return [Collect(g) for g in self.groups(self.t.suit_of)]
        if phase == LEAVE:
            return [LeaveBehind(s) for s in self.pending]
        return []

    def _place_sites(self) -> list[Site]:
        origin = self.lifted[0][0]
        used = self.placed
        free = [s for s in self.t.targets[origin] if s not in used]
        if not self.t.constrained:
            return free
        rest = [o for o, _ in self.lifted[1:]]
        moved = self._moved_any()
        return [s for s in free if self._can_finish(rest, [*used, s], moved or s != origin)]

    def _moved_any(self) -> bool:
        return any(o != s for o, s in zip(self._origins, self.placed, strict=False))

    def _can_finish(self, origins: list[Site], used: list[Site], moved: bool) -> bool:
        """Whether lifted cards from ``origins`` can still all be placed legally."""
        if not origins:
            return moved or self.config.must_move != "one"
        first, rest = origins[0], origins[1:]
        for s in self.t.targets[first]:
            if s not in used and self._can_finish(rest, [*used, s], moved or s != first):
                return True
        return False

    def apply(self, move: Move) -> None:
        """Make one decision; an option not in ``legal_moves()`` raises IllegalMoveError."""
        legal = self.legal_moves()
        if move not in legal:
            raise IllegalMoveError(self._why_illegal(move, legal))
        self._legal = None
        phase = self.phase
        stacks = self.stacks
        if phase == LIFT:
            sites = move.sites  # type: ignore[attr-defined]
            self.lifted = [(s, stacks[s].pop()) for s in sites]
            self._origins = list(sites)
            self.placed = []
            self.phase = PLACE
        elif phase == PLACE:
            site = move.site  # type: ignore[attr-defined]
            _, card = self.lifted.pop(0)
            stacks[site].append(card)
            self.placed.append(site)
            if not self.lifted:
                self.phase = COLLECT
        elif phase == COLLECT:
            sites = move.sites  # type: ignore[attr-defined]
            suit = self.t.suit_of[stacks[sites[0]][-1]]
            fps = self.config.forbidden_pile_size
            if fps is not None and self.piles[self.to_move][suit] + len(sites) == fps:
                self.pending = sites
                self.phase = LEAVE
            else:
                self._collect(sites)
        elif phase == LEAVE:
            self._collect(tuple(s for s in self.pending if s != move.site))  # type: ignore[attr-defined]
            self.pending = ()

    def _collect(self, sites: Sequence[Site]) -> None:
        stacks = self.stacks
        seat = self.to_move
        pile = self.piles[seat]
        mine = self.collected[seat]
        suit_of = self.t.suit_of
        for s in sites:
            card = stacks[s].pop()
            pile[suit_of[card]] += 1
            mine.append(card)
        self.collected_per_turn.append(len(sites))
        self.turns += 1
        if not any(stacks) or self.turns >= self.config.max_turns:
            self.phase = OVER
        else:
            self.phase = LIFT
            self.to_move = 1 - seat

    def _why_illegal(self, move: Move, legal: list[Move]) -> str:
        name = PHASE_NAMES[self.phase]
        if self.phase == OVER:
            return f"{move!r} is illegal: the game is over"
        expected = {LIFT: Lift, PLACE: Place, COLLECT: Collect, LEAVE: LeaveBehind}[self.phase]
        if not isinstance(move, expected):
            return f"{move!r} is illegal: the next decision is {name} (a {expected.__name__} move)"
        shown = ", ".join(map(repr, legal[:8])) + (", …" if len(legal) > 8 else "")
        return f"{move!r} is illegal for seat {self.to_move}'s {name} decision; legal: {shown}"

    # -- groups and the top layer --
    def top_sites(self) -> list[Site]:
        """The sites whose top card is in the top layer (per ``top_layer``)."""
        stacks = self.stacks
        if self.config.top_layer == "level":
            top = max(map(len, stacks))
            return [s for s, st in enumerate(stacks) if top and len(st) == top]
        return [s for s, st in enumerate(stacks) if st]

    def groups(self, key: Sequence[int]) -> list[tuple[Site, ...]]:
        """Maximal connected sets of top-layer cards sharing ``key`` (number_of or suit_of)."""
        stacks = self.stacks
        n = len(stacks)
        val = [-1] * n
        if self.config.top_layer == "level":
            top = max(map(len, stacks))
            if not top:
                return []
            for s in range(n):
                st = stacks[s]
                if len(st) == top:
                    val[s] = key[st[-1]]
        else:
            for s in range(n):
                st = stacks[s]
                if st:
                    val[s] = key[st[-1]]
        adj = self.t.adj
        out: list[tuple[Site, ...]] = []
        for s in range(n):
            k = val[s]
            if k < 0:
                continue
            val[s] = -1
            comp = [s]
            for u in comp:  # grows while iterating: a breadth-first flood fill
                for v in adj[u]:
                    if val[v] == k:
                        val[v] = -1
                        comp.append(v)
            out.append(tuple(sorted(comp)) if len(comp) > 1 else (s,))
        return out

    def number_groups(self) -> list[tuple[Site, ...]]:
        """The number groups of the top layer."""
        return self.groups(self.t.number_of)

    def suit_groups(self) -> list[tuple[Site, ...]]:
        """The suit groups of the top layer."""
        return self.groups(self.t.suit_of)

    # -- reading the position --
    def card(self, card: CardId) -> Card:
        """The card with this id, as (suit, number)."""
        return Card(self.t.suit_of[card], self.t.number_of[card])

    def layout(self) -> list[list[Card]]:
        """Every stack, bottom to top, as cards."""
        return [[self.card(c) for c in st] for st in self.stacks]

    def cards_in_layout(self) -> int:
        """How many cards are still in the layout (lifted cards included)."""
        return sum(map(len, self.stacks)) + len(self.lifted)

    @property
    def decision(self) -> str:
        """Which decision comes next: lift, place, collect, leave or over."""
        return PHASE_NAMES[self.phase]

    def suit_winner(self, suit: int) -> Seat | None:
        """The seat holding more cards of ``suit`` (None when equal)."""
        a, b = self.piles[0][suit], self.piles[1][suit]
        return 0 if a > b else 1 if b > a else None

    def outcome(self) -> Outcome:
        """Suits won, weighted totals, the winner or a draw, and the per-game counters."""
        cfg = self.config
        weights = cfg.weights
        scores = [0.0, 0.0]
        suits_won = [0, 0]
        for u in range(cfg.n_suits):
            w = self.suit_winner(u)
            if w is not None:
                scores[w] += weights[u]
                suits_won[w] += 1
        if self.phase != OVER:
            reason = "unfinished"
            winners: tuple[Seat, ...] = ()
        else:
            reason = "layout_empty" if not any(self.stacks) else "turn_limit"
            if reason == "turn_limit" or scores[0] == scores[1]:
                winners = ()
            else:
                winners = (0,) if scores[0] > scores[1] else (1,)
        per_turn = self.collected_per_turn
        counters: dict[str, int | float] = {
            "suits_won_0": suits_won[0],
            "suits_won_1": suits_won[1],
            "cards_0": len(self.collected[0]),
            "cards_1": len(self.collected[1]),
            "cards_left": self.cards_in_layout(),
            "empty_collects": sum(1 for k in per_turn if k == 0),
            "max_collect": max(per_turn, default=0),
        }
        for u in range(cfg.n_suits):
            for p in (0, 1):
                counters[f"suit{u}_cards_{p}"] = self.piles[p][u]
        return Outcome(
            winners=winners,
            scores=(scores[0], scores[1]),
            reason=reason,
            turns=self.turns,
            counters=counters,
            details={"collected_per_turn": tuple(per_turn)},
        )

    # -- copying and records --
    def clone(self) -> GarnerState:
        """An independent copy sharing only immutable tables."""
        new = GarnerState.__new__(GarnerState)
        new.config = self.config
        new.t = self.t
        new.stacks = [st[:] for st in self.stacks]
        new._chance = self._chance
        new.piles = [p[:] for p in self.piles]
        new.collected = [c[:] for c in self.collected]
        new.to_move = self.to_move
        new.phase = self.phase
        new.turns = self.turns
        new.collected_per_turn = self.collected_per_turn[:]
        new.lifted = self.lifted[:]
        new._origins = self._origins[:]
        new._start = self._start
        new.placed = self.placed[:]
        new.pending = self.pending
        new._legal = self._legal
        return new

    def start(self) -> dict[str, Any]:
        """The starting layout: each site's stack bottom to top as [suit, number] pairs."""
        t = self.t
        return {"layout": [[[t.suit_of[c], t.number_of[c]] for c in st] for st in self._start]}

    def end(self) -> dict[str, Any]:
        """The final position: each site's stack bottom to top and each seat's scoring pile in
        the order collected, cards as [suit, number]."""
        t = self.t
        return {
            "layout": [[[t.suit_of[c], t.number_of[c]] for c in st] for st in self.stacks],
            "collected": [
                [[t.suit_of[c], t.number_of[c]] for c in pile] for pile in self.collected
            ],
        }

    def move_to_json(self, move: Move) -> Any:
        """A move as JSON: {"lift": [sites]}, {"place": site}, {"collect": [...]}, {"leave": s}."""
        if isinstance(move, Lift):
            return {"lift": list(move.sites)}
        if isinstance(move, Place):
            return {"place": move.site}
        if isinstance(move, Collect):
            return {"collect": list(move.sites)}
        if isinstance(move, LeaveBehind):
            return {"leave": move.site}
        raise IllegalMoveError(f"{move!r} is not a Garner move")

    def move_from_json(self, data: Any) -> Move:
        """Inverse of move_to_json."""
        try:
            ((kind, value),) = data.items()
            if kind == "lift":
                return Lift(tuple(int(s) for s in value))
            if kind == "place":
                return Place(int(value))
            if kind == "collect":
                return Collect(tuple(int(s) for s in value))
            if kind == "leave":
                return LeaveBehind(int(value))
        except (AttributeError, TypeError, ValueError) as exc:
            raise RecordError(f"malformed Garner move {data!r}: {exc}") from exc
        raise RecordError(f"unknown Garner move kind in {data!r}")


# --- setting up ----------------------------------------------------------------------------


def new_state(config: GarnerConfig, rng: random.Random) -> GarnerState:
    """Shuffle the deck and deal it onto the grid, ``height`` cards per site."""
    deck = list(range(sum(config.suit_sizes)))
    rng.shuffle(deck)
    h = config.height
    stacks = [deck[i * h : (i + 1) * h] for i in range(config.rows * config.cols)]
    return GarnerState(config, stacks, Chance(rng))


def state_from_start(
    config: GarnerConfig, start: Mapping[str, Any], chance_log: Sequence[Any] = ()
) -> GarnerState:
    """Rebuild the starting state from a record's layout, checking it deals the whole deck."""
    t = rule_tables(config)
    index = {(u, n): c for c, (u, n) in enumerate(zip(t.suit_of, t.number_of, strict=True))}
    try:
        layout = start["layout"]
        stacks = [[index[(int(u), int(n))] for u, n in site] for site in layout]
    except KeyError as exc:
        raise RecordError(
            f"the starting layout names a card or field that does not exist: {exc}"
        ) from exc
    except (TypeError, ValueError) as exc:
        raise RecordError(f"malformed starting layout: {exc}") from exc
    if len(stacks) != config.rows * config.cols:
        raise RecordError(
            f"the starting layout has {len(stacks)} sites, the config's grid has "
            f"{config.rows * config.cols}"
        )
    if any(len(st) != config.height for st in stacks):
        raise RecordError(f"every starting stack must be {config.height} cards high")
    flat = sorted(c for st in stacks for c in st)
    if flat != list(range(len(t.suit_of))):
        raise RecordError("the starting layout does not hold every card of the deck exactly once")
    return GarnerState(config, stacks, Chance(None, replay=chance_log))


def from_layout(
    config: GarnerConfig,
    layout: Sequence[Sequence[tuple[int, int]]],
    *,
    piles: Sequence[Sequence[int]] | None = None,
    to_move: Seat = 0,
) -> GarnerState:
    """A position built by hand: stacks of (suit, number) cards, bottom to top, any heights.

    For worked examples and tests; the cards need not be the whole deck, but each must exist
    and appear once.  ``piles[seat][suit]`` sets how many cards each scoring pile holds.
    """
    t = rule_tables(config)
    index = {(u, n): c for c, (u, n) in enumerate(zip(t.suit_of, t.number_of, strict=True))}
    if len(layout) != config.rows * config.cols:
        raise ConfigError(
            f"a layout for a {config.rows}×{config.cols} grid needs {t.n_sites} stacks"
        )
    try:
        stacks = [[index[(u, n)] for u, n in site] for site in layout]
    except KeyError as exc:
        raise ConfigError(f"card {exc} is not in this config's deck") from None
    flat = [c for st in stacks for c in st]
    if len(set(flat)) != len(flat):
        raise ConfigError("a card appears twice in the layout")
    state = GarnerState(config, stacks, Chance(None, replay=()))
    if piles is not None:
        state.piles = [list(p) for p in piles]
    state.to_move = to_move
    return state
