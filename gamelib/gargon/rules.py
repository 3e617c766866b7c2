"""Gargon: the complete rules of ``shared/rules/gargon.md`` on the gamelib protocol.

*Why one file (820 lines):* the rules page read in order — each rule of the rules page and every
named reading in one place, written once, as the guide asks; split, one page of rules would be
spread over several files.

Cards are ints 0..101: ``colour * 17 + k`` with values ``(0, 0, 1, 2, …, 15)[k]``.  Colours are
public (hands, face-down plays, both piles); numbers are hidden until a card is turned up, so
:meth:`GargonState.observation` hands a player only colours of what it may not see.
"""

from __future__ import annotations

import csv
import itertools
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, NamedTuple

from gamelib.core import (
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

#: the six colours, in the order of their ids (0–5) in records and the compiled core
COLOURS = ("white", "blue", "violet", "red", "yellow", "green")
N_COLOURS = 6
PER_COLOUR = 17
VALUES = (0, 0, *range(1, 16))
N_CARDS = N_COLOURS * PER_COLOUR
CardId = int

COLOUR_OF: tuple[int, ...] = tuple(c // PER_COLOUR for c in range(N_CARDS))
VALUE_OF: tuple[int, ...] = tuple(VALUES[c % PER_COLOUR] for c in range(N_CARDS))

AMULET_FILE = Path(__file__).resolve().parents[2] / "data" / "gargon_amulets.csv"


def load_amulets(path: str | Path = AMULET_FILE) -> tuple[int, ...]:
    """The amulet table from a CSV with columns ``value,amulets`` covering values 0–15."""
    path = Path(path)
    try:
        with path.open(newline="") as fh:
            rows = list(csv.DictReader(fh))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise ConfigError(f"cannot read the amulet table {path}: {exc}") from exc
    table: dict[int, int] = {}
    for i, row in enumerate(rows, 2):
        try:
            value, amulets = int(row["value"]), int(row["amulets"])
        except (KeyError, TypeError, ValueError):
            raise ConfigError(
                f"{path}:{i}: expected integer columns 'value' and 'amulets', got {row}"
            ) from None
        if not 0 <= value <= 15 or amulets < 0:
            raise ConfigError(f"{path}:{i}: value must be 0–15 and amulets ≥ 0, got {row}")
        if value in table:
            raise ConfigError(f"{path}:{i}: value {value} appears twice")
        table[value] = amulets
    missing = sorted(set(range(16)) - set(table))
    if missing:
        raise ConfigError(f"{path}: no amulets given for values {missing}")
    return tuple(table[v] for v in range(16))


DEFAULT_AMULETS = load_amulets()


@dataclass(frozen=True)
class GargonConfig:
    """Every named parameter of Gargon's rules page; the defaults are the published game's."""

    n_players: int = 4
    """Players, 3 to 5; seat 0 leads the first round."""
    hand_size: int = 10
    """Cards dealt to each player; the rest make the two draw piles."""
    allow_three_colours: bool = True
    """Whether the 1:1:1 shape (three colours) may be played."""
    last_player_restriction: bool = True
    """The last player of a round may play only colours already on the table."""
    zero_multiplier: float = 2
    """Each captured zero multiplies its colour's amulets by this (both zeros: squared)."""
    tie_losers_draw: bool = True
    """Whether the owners of tied (0–0) cards draw like losers."""
    majority_bonus: int = 10
    """Bonus per colour for the one player who captured the most cards of it."""
    shared_bonus: int = 5
    """Bonus per colour for each player tied for the most captured cards of it."""
    amulets: tuple[int, ...] = DEFAULT_AMULETS
    """Amulets printed on values 0–15 (default: ``data/gargon_amulets.csv``)."""

    #: One place per rule field: for every field, a variant of the defaults that moves it (with the
    #: fields that must move with it). The kernel's tables must tell each variant from the
    #: defaults, and the kernel's cross-check replays each one through the reference
    #: (tests/test_rule_fields.py, gamelib.core.rule_variants): a new field without a variant, or
    #: one the kernel ignores, fails a test instead of a game.
    RULE_VARIANTS: ClassVar[dict[str, dict[str, Any]]] = {
        "n_players": {"n_players": 3},
        "hand_size": {"hand_size": 3},
        "allow_three_colours": {"allow_three_colours": False},
        "last_player_restriction": {"last_player_restriction": False},
        "zero_multiplier": {"zero_multiplier": 3},
        "tie_losers_draw": {"tie_losers_draw": False},
        "majority_bonus": {"majority_bonus": 0},
        "shared_bonus": {"shared_bonus": 10},
        "amulets": {"amulets": (9,) + (1,) * 15},
    }
    #: fields that only label a config (not rules)
    LABELS: ClassVar[tuple[str, ...]] = ()

    def __post_init__(self) -> None:
        if not _is_int(self.n_players) or not 3 <= self.n_players <= 5:
            raise ConfigError(f"Gargon is for 3–5 players, got n_players={self.n_players!r}")
        if not _is_int(self.hand_size) or self.hand_size < 1:
            raise ConfigError(f"hand_size must be a positive int, got {self.hand_size!r}")
        if self.n_players * self.hand_size > N_CARDS - 2:
            raise ConfigError(
                f"{self.n_players} hands of {self.hand_size} leave fewer than 2 of the "
                f"{N_CARDS} cards for the draw piles"
            )
        for name in ("allow_three_colours", "last_player_restriction", "tie_losers_draw"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(f"{name} must be True or False, got {getattr(self, name)!r}")
        zm = self.zero_multiplier
        if not isinstance(zm, int | float) or isinstance(zm, bool) or not 0 <= zm < math.inf:
            raise ConfigError(f"zero_multiplier must be a number ≥ 0, got {self.zero_multiplier!r}")
        for name in ("majority_bonus", "shared_bonus"):
            v = getattr(self, name)
            if not _is_int(v) or v < 0:
                raise ConfigError(f"{name} must be a non-negative int, got {v!r}")
        a = self.amulets
        if not isinstance(a, tuple) or len(a) != 16 or not all(_is_int(x) and x >= 0 for x in a):
            raise ConfigError(f"amulets must be 16 non-negative ints (values 0–15), got {a!r}")


def _is_int(x: object) -> bool:
    """An int that is not True or False (``hand_size=True`` is refused, not read as 1)."""
    return isinstance(x, int) and not isinstance(x, bool)


#: the setups by name: ``3p``, ``4p`` and ``5p``, the default rules for that many players
#:
#: :meta hide-value:
SETUPS = {f"{n}p": GargonConfig(n_players=n) for n in (3, 4, 5)}

# --- moves ---------------------------------------------------------------------------------


@move_type
class Play(NamedTuple):
    """Put these cards (ids, ascending) face down on the table."""

    cards: tuple[CardId, ...]


@move_type
class Pass(NamedTuple):
    """Follower: pass and draw this many cards (0 only when both piles are empty)."""

    draws: int


@move_type
class DrawFrom(NamedTuple):
    """Draw the top card of pile 0 or pile 1 (after passing, or after losing a battle)."""

    pile: int


@move_type
class Resolve(NamedTuple):
    """Battle: the chooser resolves this colour next."""

    colour: int


class Card(NamedTuple):
    """A card as the rules name it."""

    colour: int
    value: int


def card(cid: CardId) -> Card:
    """The colour and value of a card id."""
    return Card(COLOUR_OF[cid], VALUE_OF[cid])


def card_id(colour: int, value: int, copy: int = 0) -> CardId:
    """The id of a card (``copy`` 0 or 1 tells the two zeros of a colour apart)."""
    if not 0 <= colour < N_COLOURS or not 0 <= value <= 15 or copy not in (0, 1):
        raise ValueError(f"no Gargon card has colour {colour}, value {value}, copy {copy}")
    if value and copy:
        raise ValueError("only zeros come in two copies")
    return colour * PER_COLOUR + (value + 1 if value else copy)


def from_deal(
    config: GargonConfig, hands: Sequence[Sequence[CardId]], piles: Sequence[Sequence[CardId]]
) -> GargonState:
    """A position built by hand: hands and piles (top card first) of card ids, seat 0 to lead.

    For worked examples and tests; the cards need not be the whole deck but must be distinct.
    """
    flat = [c for part in (*hands, *piles) for c in part]
    if len(set(flat)) != len(flat):
        raise ConfigError("a card appears twice in the deal")
    if len(hands) != config.n_players:
        raise ConfigError(f"{config.n_players} hands needed, got {len(hands)}")
    return GargonState(
        config,
        [list(h) for h in hands],
        [list(reversed(p)) for p in piles],
        Chance(None, replay=()),
    )


def shape_of(cards: Sequence[CardId]) -> tuple[int, ...]:
    """The shape of a play: its colour multiplicities, largest first (``(2, 1)`` for 2:1)."""
    counts: dict[int, int] = {}
    for c in cards:
        counts[COLOUR_OF[c]] = counts.get(COLOUR_OF[c], 0) + 1
    return tuple(sorted(counts.values(), reverse=True))


SHAPES = ((1,), (2,), (1, 1), (2, 1), (1, 1, 1))

# --- phases --------------------------------------------------------------------------------
PLAY, DRAW, RESOLVE, OVER = range(4)
PHASE_NAMES = ("play", "draw", "resolve", "over")


@dataclass(frozen=True)
class GargonObservation:
    """Exactly what one seat may see (rules page, "What each player may see")."""

    config: GargonConfig
    seat: Seat
    phase: str
    to_move: Seat
    lead: Seat
    round: int
    hand: tuple[CardId, ...]
    hand_colours: tuple[tuple[int, ...], ...]
    pile_colours: tuple[tuple[int, ...], tuple[int, ...]]
    table_colours: tuple[tuple[int, ...], ...]
    turned_up: tuple[tuple[CardId, ...], ...] | None
    acted: tuple[bool, ...]
    passed: tuple[bool, ...]
    shape: tuple[int, ...] | None
    captured: tuple[tuple[CardId, ...], ...]
    discard: tuple[CardId, ...]
    draws_left: int
    resolving: int | None = None
    """The colour being resolved while losers of its battle draw (battles are public)."""
    owed: tuple[tuple[Seat, int], ...] = ()
    """The draws still owed, in the order they are taken: (seat, cards) — who passed or lost."""


class GargonState(State):
    """A Gargon position: hands, piles, the table, captures and the decision to make."""

    config: GargonConfig

    def __init__(
        self,
        config: GargonConfig,
        hands: list[list[CardId]],
        piles: list[list[CardId]],
        chance: Chance,
    ) -> None:
        self.config = config
        n = config.n_players
        self.hands = hands
        #: piles[i]: the draw pile, bottom first (its last card is the top)
        self.piles = piles
        self._chance = chance
        self._start = {
            "hands": [h[:] for h in hands],
            "piles": [list(reversed(p)) for p in piles],
        }
        self.table: list[list[CardId]] = [[] for _ in range(n)]
        self.captured: list[list[CardId]] = [[] for _ in range(n)]
        self.discard: list[CardId] = []
        self.lead: Seat = 0
        self.order: list[Seat] = [(self.lead + i) % n for i in range(n)]
        self.pos = 0  # index into order of the player to act in the play-out
        self.passed = [False] * n
        self.acted = [False] * n
        self.shape: tuple[int, ...] | None = None
        self.turned_up = False
        self.phase = PLAY
        self.to_move: Seat = 0
        #: draws still owed: (player, how many, reason) in the order they are taken
        self.draw_queue: list[list[Any]] = []
        self.resolving: int | None = None  # colour being resolved (draws pause it)
        self.rounds = 0
        self.battles = 0
        self.ties = 0
        self.drawn_passing = [0] * n
        self.drawn_losing = [0] * n
        self.reason = ""
        self._legal: list[Move] | None = None

    # -- the protocol --
    @property
    def n_players(self) -> int:
        """How many seats play."""
        return int(self.config.n_players)

    @property
    def chance(self) -> Chance:
        """Gargon's only chance event is the deal, so its chance log stays empty."""
        return self._chance

    def start(self) -> dict[str, Any]:
        """The deal: each hand, and each pile top card first."""
        return {
            "hands": [[[*card(c), c] for c in h] for h in self._start["hands"]],
            "piles": [[[*card(c), c] for c in p] for p in self._start["piles"]],
        }

    def end(self) -> dict[str, Any]:
        """The final position by card id: hands, piles (top first), cards still on the table,
        each seat's captures and the discard pile."""
        return {
            "hands": [sorted(h) for h in self.hands],
            "piles": [list(reversed(p)) for p in self.piles],
            "table": [list(t) for t in self.table],
            "captured": [list(c) for c in self.captured],
            "discard": list(self.discard),
        }

    def current_player(self) -> Seat:
        """The seat to decide, or TERMINAL."""
        return TERMINAL if self.phase == OVER else self.to_move

    @property
    def decision(self) -> str:
        """Which kind of decision comes next."""
        return PHASE_NAMES[self.phase]

    def _compute_legal(self) -> list[Move]:
        if self.phase == PLAY:
            seat = self.to_move
            is_lead = seat == self.lead
            allowed: set[int] | None = None
            if (
                not is_lead
                and self.config.last_player_restriction
                and self.pos == len(self.order) - 1
            ):
                allowed = {COLOUR_OF[c] for t in self.table for c in t}
            moves: list[Move] = [
                Play(p)
                for p in self._plays(self.hands[seat], None if is_lead else self.shape, allowed)
            ]
            if not is_lead:
                avail = len(self.piles[0]) + len(self.piles[1])
                moves += [Pass(k) for k in range(1, min(3, avail) + 1)] if avail else [Pass(0)]
            return moves
        if self.phase == DRAW:
            return [DrawFrom(i) for i in (0, 1) if self.piles[i]]
        if self.phase == RESOLVE:
            colours = sorted({COLOUR_OF[c] for c in self.table[self.to_move]})
            return [Resolve(col) for col in colours]
        return []

    def _plays(
        self,
        hand: Sequence[CardId],
        shape: tuple[int, ...] | None,
        allowed: set[int] | None,
    ) -> list[tuple[CardId, ...]]:
        """Every legal play from ``hand`` (of ``shape`` if given; in ``allowed`` colours)."""
        by_colour: dict[int, list[CardId]] = {}
        for c in sorted(hand):
            col = COLOUR_OF[c]
            if allowed is None or col in allowed:
                by_colour.setdefault(col, []).append(c)
        shapes = [shape] if shape is not None else list(SHAPES)
        if not self.config.allow_three_colours:
            shapes = [s for s in shapes if s != (1, 1, 1)]
        cols = sorted(by_colour)
        out: list[tuple[CardId, ...]] = []
        for s in shapes:
            if s == (1,):
                out += [(c,) for col in cols for c in by_colour[col]]
            elif s == (2,):
                for col in cols:
                    out += list(itertools.combinations(by_colour[col], 2))
            elif s == (1, 1):
                for a, b in itertools.combinations(cols, 2):
                    out += [(x, y) for x in by_colour[a] for y in by_colour[b]]
            elif s == (2, 1):
                for a in cols:
                    pairs = list(itertools.combinations(by_colour[a], 2))
                    if not pairs:
                        continue
                    for b in cols:
                        if b != a:
                            out += [tuple(sorted((*pr, y))) for pr in pairs for y in by_colour[b]]
            elif s == (1, 1, 1):
                for a, b, c3 in itertools.combinations(cols, 3):
                    out += [
                        (x, y, z) for x in by_colour[a] for y in by_colour[b] for z in by_colour[c3]
                    ]
        return out

    def apply(self, move: Move) -> None:
        """Make one decision; an option not in ``legal_moves()`` raises IllegalMoveError."""
        legal = self.legal_moves()
        if move not in legal:
            raise IllegalMoveError(self._why_illegal(move, legal))
        self._legal = None
        seat = self.to_move
        if isinstance(move, Play):
            hand = self.hands[seat]
            for c in move.cards:
                hand.remove(c)
            self.table[seat] = list(move.cards)
            if seat == self.lead:
                self.shape = shape_of(move.cards)
            self.acted[seat] = True
            self._next_in_play_out()
        elif isinstance(move, Pass):
            self.passed[seat] = True
            self.acted[seat] = True
            if move.draws:
                self.draw_queue.append([seat, move.draws, "pass"])
                self._start_draws()
            else:
                self._next_in_play_out()
        elif isinstance(move, DrawFrom):
            self._draw(seat, move.pile)
        elif isinstance(move, Resolve):
            self.resolving = move.colour
            self._resolve()

    def _why_illegal(self, move: Move, legal: list[Move]) -> str:
        if self.phase == OVER:
            return f"{move!r} is illegal: the game is over"
        shown = ", ".join(map(repr, legal[:6])) + (", …" if len(legal) > 6 else "")
        if isinstance(move, Play) and self.phase == PLAY:
            missing = [c for c in move.cards if c not in self.hands[self.to_move]]
            if missing:
                return f"{move!r} is illegal: cards {missing} are not in seat {self.to_move}'s hand"
            if self.shape is not None and self.to_move != self.lead:
                if shape_of(move.cards) != self.shape:
                    return (
                        f"{move!r} is illegal: its shape {shape_of(move.cards)} is not the "
                        f"lead's {self.shape}"
                    )
                return (
                    f"{move!r} is illegal: the last player may only play colours already on "
                    "the table"
                )
            if list(move.cards) != sorted(move.cards):
                return f"{move!r} is illegal: list a play's cards in ascending id order"
        return (
            f"{move!r} is illegal for seat {self.to_move}'s {self.decision} decision; "
            f"legal: {shown}"
        )

    # -- play-out --
    def _next_in_play_out(self) -> None:
        self.pos += 1
        if self.pos < len(self.order):
            self.to_move = self.order[self.pos]
            self.phase = PLAY
            return
        self._turn_up()

    def _turn_up(self) -> None:
        self.turned_up = True
        self.phase = RESOLVE
        self._next_chooser()

    def _next_chooser(self) -> None:
        """The lead chooses while he has unresolved colours, then the next player clockwise."""
        for seat in self.order:
            if self.table[seat]:
                self.to_move = seat
                self.phase = RESOLVE
                return
        self._end_round()

    # -- battles --
    def _resolve(self) -> None:
        """Resolve the current colour step by step, pausing whenever losers must draw."""
        col = self.resolving
        assert col is not None
        table = self.table
        while True:
            holders = [s for s in self.order if any(COLOUR_OF[c] == col for c in table[s])]
            if len(holders) == 0:
                break
            if len(holders) == 1:
                s = holders[0]
                mine = [c for c in table[s] if COLOUR_OF[c] == col]
                self.captured[s] += mine
                table[s] = [c for c in table[s] if COLOUR_OF[c] != col]
                break
            forward = {}
            for s in holders:
                best = max((c for c in table[s] if COLOUR_OF[c] == col), key=VALUE_OF.__getitem__)
                forward[s] = best
                table[s].remove(best)
            top = max(VALUE_OF[c] for c in forward.values())
            winners = [s for s, c in forward.items() if VALUE_OF[c] == top]
            self.battles += 1
            losers: list[Seat]
            if len(winners) == 1:
                w = winners[0]
                self.captured[w].append(forward[w])
                losers = [s for s in holders if s != w]
                self.discard += [forward[s] for s in losers]
                draw = True
            else:
                self.ties += 1
                losers = holders
                self.discard += list(forward.values())
                draw = self.config.tie_losers_draw
                # only 0 against 0 can tie; a higher card cannot be in the set
            if draw:
                for s in losers:  # clockwise from the lead
                    self.draw_queue.append([s, 1, "lose"])
                if self.draw_queue and (self.piles[0] or self.piles[1]):
                    self._start_draws()
                    return
                self.draw_queue.clear()
        self.resolving = None
        self._next_chooser()

    def _start_draws(self) -> None:
        while self.draw_queue and not (self.piles[0] or self.piles[1]):
            self.draw_queue.pop(0)  # nothing left to draw
        if not self.draw_queue:
            self._after_draws()
            return
        self.to_move = self.draw_queue[0][0]
        self.phase = DRAW

    def _draw(self, seat: Seat, pile: int) -> None:
        c = self.piles[pile].pop()
        self.hands[seat].append(c)
        entry = self.draw_queue[0]
        if entry[2] == "pass":
            self.drawn_passing[seat] += 1
        else:
            self.drawn_losing[seat] += 1
        entry[1] -= 1
        if entry[1] == 0:
            self.draw_queue.pop(0)
        self._start_draws()

    def _after_draws(self) -> None:
        if self.turned_up:
            if self.resolving is not None:
                self._resolve()
            else:
                self._next_chooser()
        else:
            self._next_in_play_out()

    def _end_round(self) -> None:
        cfg = self.config
        n = cfg.n_players
        self.rounds += 1
        if not self.piles[0] or not self.piles[1]:
            self._finish("pile_empty")
            return
        if not any(self.hands):
            self._finish("hands_empty")
            return
        # every round turns up at least the lead's card, which is captured or discarded for
        # good, so no game can pass N_CARDS rounds; more would be a bug in this file
        assert self.rounds <= N_CARDS, f"Gargon round {self.rounds} > {N_CARDS}: a rules bug"
        for step in range(1, n + 1):
            nxt = (self.lead + step) % n
            if self.hands[nxt]:
                break
        self.lead = nxt
        self.order = [(nxt + i) % n for i in range(n)]
        self.pos = 0
        self.passed = [False] * n
        self.acted = [False] * n
        self.shape = None
        self.turned_up = False
        self.to_move = nxt
        self.phase = PLAY

    def _finish(self, reason: str) -> None:
        self.phase = OVER
        self.reason = reason

    # -- scoring --
    def colour_score(self, seat: Seat, colour: int) -> float:
        """Amulets of ``seat``'s captures of ``colour``, times the zero multiplier per zero."""
        cards = [c for c in self.captured[seat] if COLOUR_OF[c] == colour]
        amulets = sum(self.config.amulets[VALUE_OF[c]] for c in cards)
        zeros = sum(1 for c in cards if VALUE_OF[c] == 0)
        return float(amulets * self.config.zero_multiplier**zeros)

    def bonuses(self) -> list[list[int]]:
        """bonuses[seat][colour]: +10 to the one player with most captures, +5 to tied ones."""
        cfg = self.config
        n = cfg.n_players
        out = [[0] * N_COLOURS for _ in range(n)]
        for col in range(N_COLOURS):
            counts = [sum(1 for c in self.captured[s] if COLOUR_OF[c] == col) for s in range(n)]
            top = max(counts)
            if top == 0:
                continue
            best = [s for s in range(n) if counts[s] == top]
            for s in best:
                out[s][col] = cfg.majority_bonus if len(best) == 1 else cfg.shared_bonus
        return out

    def scores(self) -> list[float]:
        """Each player's total: amulets (with zero doubling) plus colour bonuses."""
        bonus = self.bonuses()
        return [
            sum(self.colour_score(s, col) for col in range(N_COLOURS)) + sum(bonus[s])
            for s in range(self.config.n_players)
        ]

    def outcome(self) -> Outcome:
        """Scores, winner(s), and the per-game counters of the rules page."""
        n = self.config.n_players
        scores = self.scores()
        top = max(scores)
        winners = tuple(s for s in range(n) if scores[s] == top) if self.phase == OVER else ()
        bonus = self.bonuses()
        counters: dict[str, int | float] = {
            "rounds": self.rounds,
            "battles": self.battles,
            "ties": self.ties,
        }
        for s in range(n):
            caps = self.captured[s]
            counters[f"amulets_{s}"] = sum(self.colour_score(s, col) for col in range(N_COLOURS))
            counters[f"bonus_{s}"] = sum(bonus[s])
            counters[f"captured_{s}"] = len(caps)
            counters[f"zeros_{s}"] = sum(1 for c in caps if VALUE_OF[c] == 0)
            counters[f"drawn_passing_{s}"] = self.drawn_passing[s]
            counters[f"drawn_losing_{s}"] = self.drawn_losing[s]
            counters[f"hand_left_{s}"] = len(self.hands[s])
        return Outcome(
            winners=winners,
            scores=tuple(scores),
            reason=self.reason or "unfinished",
            turns=self.rounds,
            counters=counters,
        )

    # -- what a seat may see --
    def observation(self, seat: Seat) -> GargonObservation:
        """Own hand; other hands', piles' and face-down cards' colours; everything turned up."""
        n = self.config.n_players
        col = COLOUR_OF
        return GargonObservation(
            config=self.config,
            seat=seat,
            phase=PHASE_NAMES[self.phase],
            to_move=self.to_move,
            lead=self.lead,
            round=self.rounds,
            hand=tuple(sorted(self.hands[seat])),
            hand_colours=tuple(tuple(sorted(col[c] for c in self.hands[s])) for s in range(n)),
            pile_colours=(
                tuple(col[c] for c in reversed(self.piles[0])),
                tuple(col[c] for c in reversed(self.piles[1])),
            ),
            table_colours=tuple(tuple(sorted(col[c] for c in self.table[s])) for s in range(n)),
            turned_up=tuple(tuple(sorted(t)) for t in self.table) if self.turned_up else None,
            acted=tuple(self.acted),
            passed=tuple(self.passed),
            shape=self.shape,
            captured=tuple(tuple(sorted(c)) for c in self.captured),
            discard=tuple(sorted(self.discard)),
            draws_left=self.draw_queue[0][1] if self.phase == DRAW and self.draw_queue else 0,
            resolving=self.resolving,
            owed=tuple((int(e[0]), int(e[1])) for e in self.draw_queue),
        )

    # -- copying and records --
    def clone(self) -> GargonState:
        """An independent copy."""
        new = GargonState.__new__(GargonState)
        new.__dict__.update(self.__dict__)
        new.hands = [h[:] for h in self.hands]
        new.piles = [p[:] for p in self.piles]
        new.table = [t[:] for t in self.table]
        new.captured = [c[:] for c in self.captured]
        new.discard = self.discard[:]
        new.order = self.order[:]
        new.passed = self.passed[:]
        new.acted = self.acted[:]
        new.draw_queue = [e[:] for e in self.draw_queue]
        new.drawn_passing = self.drawn_passing[:]
        new.drawn_losing = self.drawn_losing[:]
        return new

    def move_to_json(self, move: Move) -> Any:
        """{"play": [[colour, value, id], …]}, {"pass": n}, {"draw": pile}, {"resolve": c}."""
        if isinstance(move, Play):
            return {"play": [[*card(c), c] for c in move.cards]}
        if isinstance(move, Pass):
            return {"pass": move.draws}
        if isinstance(move, DrawFrom):
            return {"draw": move.pile}
        if isinstance(move, Resolve):
            return {"resolve": move.colour}
        raise IllegalMoveError(f"{move!r} is not a Gargon move")

    def move_from_json(self, data: Any) -> Move:
        """Inverse of move_to_json (the card ids decide; colour and value are checked)."""
        try:
            ((kind, value),) = data.items()
            if kind == "play":
                ids = []
                for colour, val, cid in value:
                    if card(int(cid)) != (colour, val):
                        raise RecordError(f"card id {cid} is not {colour}/{val}")
                    ids.append(int(cid))
                return Play(tuple(ids))
            if kind == "pass":
                return Pass(int(value))
            if kind == "draw":
                return DrawFrom(int(value))
            if kind == "resolve":
                return Resolve(int(value))
        except RecordError:
            raise
        except (AttributeError, TypeError, ValueError, IndexError) as exc:
            raise RecordError(f"malformed Gargon move {data!r}: {exc}") from exc
        raise RecordError(f"unknown Gargon move kind in {data!r}")


def resample_hidden(state: GargonState, seat: Seat, rng: random.Random) -> GargonState:
    """A copy of ``state`` with every number ``seat`` cannot see dealt again within its colour.

    Hidden from ``seat``: the other hands, face-down cards on the table and both draw piles —
    only their colours show. Swapping cards of equal colour among those places keeps the
    seat's observation unchanged, so any decision of a fair player must stay the same.
    """
    t = state.clone()
    slots: list[tuple[list[CardId], int]] = []  # (container, index) of every hidden card
    for p in range(t.n_players):
        if p != seat:
            slots += [(t.hands[p], i) for i in range(len(t.hands[p]))]
            if not t.turned_up:
                slots += [(t.table[p], i) for i in range(len(t.table[p]))]
    for pile in t.piles:
        slots += [(pile, i) for i in range(len(pile))]
    by_colour: dict[int, list[tuple[list[CardId], int]]] = {}
    for cont, i in slots:
        by_colour.setdefault(COLOUR_OF[cont[i]], []).append((cont, i))
    for places in by_colour.values():
        cards = [cont[i] for cont, i in places]
        rng.shuffle(cards)
        for (cont, i), c in zip(places, cards, strict=True):
            cont[i] = c
    for p in range(t.n_players):  # keep the engine's sorted-table convention
        t.table[p].sort()
    t._legal = None
    return t


# --- setting up ----------------------------------------------------------------------------


def new_state(config: GargonConfig, rng: random.Random) -> GargonState:
    """Shuffle, deal ``hand_size`` to each player, split the rest into two piles."""
    deck = list(range(N_CARDS))
    rng.shuffle(deck)
    n, h = config.n_players, config.hand_size
    hands = [deck[i * h : (i + 1) * h] for i in range(n)]
    rest = deck[n * h :]
    half = (len(rest) + 1) // 2
    piles = [rest[:half], rest[half:]]
    return GargonState(config, hands, piles, Chance(rng))


def rotate_deal(state: GargonState, rotation: int) -> GargonState:
    """Rotation ``rotation`` of a fresh deal: seat ``i`` is dealt the hand dealt to seat
    ``(i + rotation) mod n``; both draw piles, and seat 0 leading, stay as dealt.

    Playing rotations 0 … n−1 of one shuffle starts each hand once from each position (a
    seat-rotated deal); rotation 0 is the deal itself."""
    n = state.n_players
    if state.rounds or any(state.acted) or state.phase != PLAY or state.captured != [[]] * n:
        raise ConfigError("only a fresh deal (before the first decision) can be rotated")
    if not isinstance(rotation, int) or isinstance(rotation, bool) or not 0 <= rotation < n:
        raise ConfigError(f"a deal of {n} hands has rotations 0–{n - 1}, got {rotation!r}")
    hands = [state.hands[(i + rotation) % n][:] for i in range(n)]
    return GargonState(state.config, hands, [p[:] for p in state.piles], state.chance)


#: what a deal edit may trade (see :func:`edit_deal`): ``("value", 0–15)``, ``("colour", 0–5)``
EDITS = {"value": 16, "colour": N_COLOURS}


def check_edit(edit: Any) -> tuple[str, int]:
    """A deal edit checked: ``(kind, target)`` with kind ``"value"`` (target 0–15) or
    ``"colour"`` (0–5, in :data:`COLOURS`' order); a bad one is a one-line ConfigError."""
    try:
        kind, target = edit
    except (TypeError, ValueError):
        raise ConfigError(f"a Gargon deal edit is (kind, target), got {edit!r}") from None
    if kind not in EDITS:
        raise ConfigError(f"a Gargon deal edit trades a value or a colour, got {kind!r}")
    if not _is_int(target) or not 0 <= target < EDITS[kind]:
        raise ConfigError(f"a {kind} edit's target is 0–{EDITS[kind] - 1}, got {target!r}")
    return str(kind), int(target)


def edit_deal(state: GargonState, seat: int, edit: Any) -> GargonState:
    """A fresh deal with one card traded: the first card dealt to ``seat``, (c, x), trades
    places with the card (c, v) of edit ``("value", v)`` (v = 0: the colour's first zero) or
    (c', x) of edit ``("colour", c')`` (a zero: the zero in the same place) — wherever that
    card was dealt, another hand or a pile — so the deal stays the same 102 cards; nothing
    moves when it is the card itself.  The instrument of card worth (:mod:`gamelib.verdict.worth`):
    the same deal played once per target, the holder's result compared across them."""
    kind, target = check_edit(edit)
    if state.rounds or any(state.acted) or state.phase != PLAY:
        raise ConfigError("only a fresh deal (before the first decision) can be edited")
    if not 0 <= seat < state.n_players:
        raise ConfigError(f"a deal of {state.n_players} hands has seats 0–{state.n_players - 1}")
    hands = [h[:] for h in state.hands]
    piles = [p[:] for p in state.piles]
    a = hands[seat][0]
    k = a % PER_COLOUR
    if kind == "value":
        b = None if VALUE_OF[a] == target else a - k + (0 if target == 0 else target + 1)
    else:
        b = None if COLOUR_OF[a] == target else target * PER_COLOUR + k
    if b is not None:
        for part in (*hands, *piles):
            if b in part:
                part[part.index(b)] = a
        hands[seat][0] = b
    return GargonState(state.config, hands, piles, state.chance)


def state_from_start(
    config: GargonConfig, start: Mapping[str, Any], chance_log: Sequence[Any] = ()
) -> GargonState:
    """Rebuild the deal from a record: hands, and piles top card first."""
    try:
        hands = [[_card_id(x) for x in h] for h in start["hands"]]
        piles = [list(reversed([_card_id(x) for x in p])) for p in start["piles"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"malformed Gargon deal: {exc}") from exc
    if len(hands) != config.n_players or len(piles) != 2:
        raise RecordError(
            f"the deal has {len(hands)} hands and {len(piles)} piles; the config needs "
            f"{config.n_players} hands and 2 piles"
        )
    flat = sorted(c for part in (*hands, *piles) for c in part)
    if flat != list(range(N_CARDS)):
        raise RecordError("the deal does not hold each of the 102 cards exactly once")
    return GargonState(config, hands, piles, Chance(None, replay=chance_log))


def _card_id(entry: Sequence[Any]) -> CardId:
    colour, value, cid = entry
    cid = int(cid)
    if not 0 <= cid < N_CARDS or card(cid) != (colour, value):
        raise ValueError(f"{list(entry)} is not a Gargon card")
    return cid
