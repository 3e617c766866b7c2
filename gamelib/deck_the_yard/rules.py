"""Deck the Yard: the complete solitaire rules of ``shared/rules/deck-the-yard.md``.

*Why one file (740 lines):* the rules page read in order — each rule of the rules page and every
named reading in one place, written once, as the guide asks; split, one page of rules would be
spread over several files.

Cards in the draw pile are ints; ``KIND_OF`` names what each is (a bulb colour, ``bubble``,
``plug``, ``broken``, ``event`` or ``character``).  Moves speak of kinds, not ids: two red bulbs
are the same decision.  Every shuffle after the start goes through :class:`~gamelib.core.Chance`
so a record holds each reshuffle's result.
"""

from __future__ import annotations

import csv
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
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

#: the six bulb colours, in the order of their ids (0–5) in records and the compiled core
BULB_COLOURS = ("red", "green", "yellow", "blue", "purple", "pink")
SPECIALS = ("broken", "event", "character")  # set aside when drawn into a fresh hand
HandCounts = Literal["cards", "bulbs"]
HAND_COUNTS = ("cards", "bulbs")
PATTERN_FILE = Path(__file__).resolve().parents[2] / "data" / "deck_the_yard_patterns.csv"
PATTERN_SEED = 2018  # the year Christmas Lights was published


def generate_patterns(
    n: int = 18, length: int = 5, seed: int = PATTERN_SEED
) -> list[tuple[str, ...]]:
    """``n`` distinct strands of ``length`` different colours, from a fixed seed."""
    rng = random.Random(seed)
    out: list[tuple[str, ...]] = []
    while len(out) < n:
        p = tuple(rng.sample(BULB_COLOURS, length))
        if p not in out:
            out.append(p)
    return out


def load_patterns(path: str | Path = PATTERN_FILE, length: int = 5) -> tuple[tuple[str, ...], ...]:
    """Pattern cards from a CSV (one pattern a row, its colours left to right), validated.

    Colour names are read in any case; an optional first row that names no colour is a header.
    """
    path = Path(path)
    try:
        with path.open(newline="") as fh:
            rows = [[x.strip().lower() for x in r] for r in csv.reader(fh) if r]
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise ConfigError(f"cannot read the pattern file {path}: {exc}") from exc
    # colour names are read case-insensitively, so a first row "Red,Blue,…" is a pattern, and
    # only a row naming no colour at all is a header
    if rows and not set(rows[0]) & set(BULB_COLOURS):
        rows = rows[1:]
    patterns = tuple(tuple(r) for r in rows)
    try:
        check_patterns(patterns, length)
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    return patterns


def check_patterns(patterns: Sequence[Sequence[str]], length: int) -> None:
    """Refuse pattern sets that break the rules: wrong length, repeats, unknown colours."""
    if not patterns:
        raise ConfigError("there are no pattern cards")
    seen: set[tuple[str, ...]] = set()
    for i, p in enumerate(patterns, 1):
        unknown = [c for c in p if c not in BULB_COLOURS]
        if unknown:
            raise ConfigError(f"pattern {i} has unknown colours {unknown}; colours: {BULB_COLOURS}")
        if len(p) != length:
            raise ConfigError(f"pattern {i} has {len(p)} bulbs, the strand holds {length}")
        if len(set(p)) != len(p):
            raise ConfigError(f"pattern {i} {list(p)} repeats a colour")
        if tuple(p) in seen:
            raise ConfigError(f"pattern {i} {list(p)} appears twice")
        seen.add(tuple(p))


DEFAULT_PATTERNS = load_patterns()


@dataclass(frozen=True)
class DeckTheYardConfig:
    """Every count and rule reading of Deck the Yard; defaults are the published game's."""

    bulbs_per_colour: int = 7
    """Coloured bulbs of each of the six colours (42 in all)."""
    bubbles: int = 6
    """Bubble bulbs (wild, slot 5 only, one per strand)."""
    plugs: int = 8
    """Plugs (cancel an event or a broken bulb, or claim a character)."""
    broken: int = 5
    """Broken bulbs (lose the strand unless a plug is spent)."""
    events: int = 3
    """Power-outage events (a blackout unless a plug is spent)."""
    characters: int = 6
    """Character cards (claimed with a plug)."""
    hand_size: int = 5
    """Cards the hand is refilled to."""
    strand_length: int = 5
    """Slots in the strand (and bulbs in a pattern)."""
    face_up: int = 2
    """Pattern cards face up in the pattern row."""
    win_threshold: int = 8
    """Claimed cards (patterns and characters) needed to win."""
    hand_counts: HandCounts = "cards"
    """What "a hand of 5" counts: ``cards`` (every card in hand, plugs included) or ``bulbs``
    (only coloured and bubble bulbs; plugs are held on top of them).  Refills, the setup hand
    and blackout redraws all use the same count."""
    patterns: tuple[tuple[str, ...], ...] = DEFAULT_PATTERNS
    """The pattern cards (default: ``data/deck_the_yard_patterns.csv``).

    :meta hide-value:
    """

    #: One place per rule field: for every field, a variant of the defaults that moves it (with the
    #: fields that must move with it). The kernel's tables must tell each variant from the
    #: defaults, and the kernel's cross-check replays each one through the reference
    #: (tests/test_rule_fields.py, gamelib.core.rule_variants): a new field without a variant, or
    #: one the kernel ignores, fails a test instead of a game.
    RULE_VARIANTS: ClassVar[dict[str, dict[str, Any]]] = {
        "bulbs_per_colour": {"bulbs_per_colour": 5},
        "bubbles": {"bubbles": 0},
        "plugs": {"plugs": 12},
        "broken": {"broken": 0},
        "events": {"events": 0},
        "characters": {"characters": 0},
        "hand_size": {"hand_size": 4},
        # a strand of 3 needs patterns of 3 (generated, as notebook 03's pattern sets are)
        "strand_length": {"strand_length": 3, "patterns": tuple(generate_patterns(18, 3))},
        "face_up": {"face_up": 1},
        "win_threshold": {"win_threshold": 3},
        "hand_counts": {"hand_counts": "bulbs"},
        "patterns": {"patterns": tuple(generate_patterns(18, 5, seed=7))},
    }
    #: fields that only label a config (not rules)
    LABELS: ClassVar[tuple[str, ...]] = ()

    def __post_init__(self) -> None:
        for name in ("bulbs_per_colour", "bubbles", "plugs", "broken", "events", "characters"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise ConfigError(f"{name} must be a non-negative int, got {v!r}")
        for name in ("hand_size", "strand_length", "face_up", "win_threshold"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise ConfigError(f"{name} must be a positive int, got {v!r}")
        if self.hand_counts not in HAND_COUNTS:
            raise ConfigError(
                f"hand_counts must be one of {', '.join(HAND_COUNTS)}, got {self.hand_counts!r}"
            )
        if self.strand_length > len(BULB_COLOURS):
            raise ConfigError(
                f"a strand of {self.strand_length} different colours needs more than the "
                f"{len(BULB_COLOURS)} bulb colours"
            )
        if self.n_cards > MAX_CARDS:
            counts = ("bulbs_per_colour", "bubbles", "plugs", "broken", "events", "characters")
            raise ConfigError(
                f"a draw pile of {self.n_cards} cards is more than gamelib lays out "
                f"(at most {MAX_CARDS}): " + ", ".join(f"{c}={getattr(self, c)}" for c in counts)
            )
        pats = self.patterns
        if (
            not isinstance(pats, Sequence)
            or isinstance(pats, str)
            or not all(isinstance(p, Sequence) and not isinstance(p, str) for p in pats)
        ):
            raise ConfigError(
                f"patterns must be a tuple of patterns, each a tuple of colour names, got "
                f"{pats!r}; load_patterns(path) reads them from a CSV file"
            )
        if not isinstance(pats, tuple) or not all(isinstance(p, tuple) for p in pats):
            object.__setattr__(self, "patterns", tuple(tuple(p) for p in pats))  # lists
        check_patterns(self.patterns, self.strand_length)
        if self.n_cards < self.hand_size:
            raise ConfigError(
                f"a draw pile of {self.n_cards} cards cannot deal a hand of {self.hand_size}"
            )

    @property
    def n_cards(self) -> int:
        """Cards in the draw pile."""
        return (
            self.bulbs_per_colour * len(BULB_COLOURS)
            + self.bubbles
            + self.plugs
            + self.broken
            + self.events
            + self.characters
        )

    def kinds(self) -> tuple[str, ...]:
        """The kind of each draw-pile card id."""
        out: list[str] = []
        for colour in BULB_COLOURS:
            out += [colour] * self.bulbs_per_colour
        out += ["bubble"] * self.bubbles + ["plug"] * self.plugs + ["broken"] * self.broken
        out += ["event"] * self.events + ["character"] * self.characters
        return tuple(out)


# --- moves ---------------------------------------------------------------------------------


@move_type
class PlayBulb(NamedTuple):
    """Play a coloured bulb of this colour to the strand's next slot."""

    colour: str


@move_type
class PlayBubble(NamedTuple):
    """Play a bubble bulb into the strand's last slot."""


@move_type
class Discard(NamedTuple):
    """Discard one card of this kind from the hand."""

    kind: str


@move_type
class UsePlug(NamedTuple):
    """During the refill: spend a plug on the card just drawn (an event, character or broken
    bulb), or not."""

    use: bool


ACTION, PLUG, OVER = range(3)
PLUG_COUNTER = {
    "event": "plugs_on_events",
    "character": "plugs_on_characters",
    "broken": "plugs_on_broken",
}
PHASE_NAMES = ("action", "plug", "over")


@dataclass(frozen=True)
class DeckTheYardObservation:
    """What the player sees: everything but the order of the draw pile and pattern deck."""

    config: DeckTheYardConfig
    phase: str
    hand: tuple[str, ...]
    strand: tuple[str | None, ...]
    row: tuple[tuple[str, ...], ...]
    pending: str | None
    claimed_patterns: int
    claimed_characters: int
    pile_left: int
    patterns_left: int
    discard: tuple[str, ...]
    turn: int


class DeckTheYardState(State):
    """A Deck the Yard position: hand, strand, pattern row, piles and claim pile."""

    config: DeckTheYardConfig

    def __init__(
        self,
        config: DeckTheYardConfig,
        pattern_order: list[int],
        pile_order: list[int],
        chance: Chance,
    ) -> None:
        self.config = config
        self.kind = config.kinds()
        self._chance = chance
        self._start = {"patterns": pattern_order[:], "draw_pile": pile_order[:]}
        f = config.face_up
        self.row = pattern_order[:f]
        #: pattern deck and draw pile, top card last
        self.deck = list(reversed(pattern_order[f:]))
        self.pile = list(reversed(pile_order))
        self.hand: list[int] = []
        self.strand: list[str | None] = [None] * config.strand_length
        self.strand_cards: list[int] = []
        self.claimed: list[int] = []  # pattern indices
        #: every claim: [turn, pattern index, its place in the face-up row]
        self.claims: list[list[int]] = []
        self.characters: list[int] = []
        self.discard: list[int] = []
        self.out_of_play: list[int] = []
        self.pending: int | None = None
        self.phase = ACTION
        self.turns = 0
        self.counts = dict.fromkeys(
            (
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
            ),
            0,
        )
        self.blackout_turns: list[int] = []
        self._legal: list[Move] | None = None
        self._fresh_hand()
        self._check_end()

    # -- the protocol --
    @property
    def n_players(self) -> int:
        """A solitaire game: one seat."""
        return 1

    @property
    def chance(self) -> Chance:
        """The reshuffles after setup and blackout redraws."""
        return self._chance

    def start(self) -> dict[str, Any]:
        """The pattern order (face-up ones first) and the draw pile's order (top first)."""
        return {
            "patterns": [[*self.config.patterns[i], i] for i in self._start["patterns"]],
            "draw_pile": [self.kind[c] + f"#{c}" for c in self._start["draw_pile"]],
        }

    def end(self) -> dict[str, Any]:
        """The final position by card id (draw pile and pattern deck top first): what replay
        compares, so a record whose draws were not those implied by its start and chance log
        is refused."""
        return {
            "hand": list(self.hand),
            "draw_pile": list(reversed(self.pile)),
            "strand": list(self.strand),
            "row": list(self.row),
            "pattern_deck": list(reversed(self.deck)),
            "claimed": list(self.claimed),
            "characters": list(self.characters),
            "discard": list(self.discard),
            "out_of_play": list(self.out_of_play),
        }

    def current_player(self) -> Seat:
        """Seat 0 while the game runs."""
        return TERMINAL if self.phase == OVER else 0

    @property
    def decision(self) -> str:
        """``action`` or ``plug`` (or ``over``)."""
        return PHASE_NAMES[self.phase]

    def _compute_legal(self) -> list[Move]:
        if self.phase == PLUG:
            return [UsePlug(True), UsePlug(False)]
        if self.phase != ACTION:
            return []
        kinds = sorted({self.kind[c] for c in self.hand})
        moves: list[Move] = [PlayBulb(k) for k in kinds if k in BULB_COLOURS and self.fits(k)]
        if "bubble" in kinds and self.bubble_fits():
            moves.append(PlayBubble())
        moves += [Discard(k) for k in kinds]
        return moves

    def next_slot(self) -> int:
        """Where the next coloured bulb goes (left to right, before a bubble in the last slot)."""
        for i, s in enumerate(self.strand):
            if s is None:
                return i
        return len(self.strand)

    def matching(self) -> list[int]:
        """The face-up patterns whose start the strand matches (a bubble matches the last)."""
        out = []
        for p in self.row:
            pat = self.config.patterns[p]
            if all(
                s is None or s == "bubble" or s == c for s, c in zip(self.strand, pat, strict=True)
            ):
                out.append(p)
        return out

    def fits(self, colour: str) -> bool:
        """Whether a coloured bulb may go into the next slot."""
        k = self.next_slot()
        if k >= len(self.strand):
            return False
        return any(self.config.patterns[p][k] == colour for p in self.matching())

    def bubble_fits(self) -> bool:
        """A bubble takes the last slot if it is empty, once per strand."""
        return self.strand[-1] is None and bool(self.matching())

    def apply(self, move: Move) -> None:
        """Make one decision; an option not in ``legal_moves()`` raises IllegalMoveError."""
        legal = self.legal_moves()
        if move not in legal:
            raise IllegalMoveError(self._why_illegal(move, legal))
        self._legal = None
        if isinstance(move, UsePlug):
            self._resolve_pending(move.use)
            self._refill()
            return
        if isinstance(move, PlayBulb):
            c = self._take(move.colour)
            self.strand[self.next_slot()] = move.colour
            self.strand_cards.append(c)
        elif isinstance(move, PlayBubble):
            c = self._take("bubble")
            self.strand[-1] = "bubble"
            self.strand_cards.append(c)
            self.counts["bubbles_played"] += 1
        elif isinstance(move, Discard):
            self.discard.append(self._take(move.kind))
            self.counts["discards"] += 1
        if all(s is not None for s in self.strand):
            self._claim()
        self.turns += 1
        self._refill()

    def _why_illegal(self, move: Move, legal: list[Move]) -> str:
        if self.phase == OVER:
            return f"{move!r} is illegal: the game is over"
        held = sorted({self.kind[c] for c in self.hand})
        if isinstance(move, PlayBulb | Discard):
            what = move.colour if isinstance(move, PlayBulb) else move.kind
            if what not in held:
                return f"{move!r} is illegal: no {what} card in hand (hand: {held})"
            if isinstance(move, PlayBulb):
                return (
                    f"{move!r} is illegal: a {what} bulb does not continue any face-up pattern "
                    f"from the strand {self.strand}"
                )
        if isinstance(move, PlayBubble):
            return f"{move!r} is illegal: no bubble in hand, or the strand's last slot is taken"
        return f"{move!r} is illegal for the {self.decision} decision; legal: {legal}"

    def _take(self, kind: str) -> int:
        for i, c in enumerate(self.hand):
            if self.kind[c] == kind:
                return self.hand.pop(i)
        raise IllegalMoveError(f"no {kind} in hand")  # pragma: no cover - legal_moves checks

    def _claim(self) -> None:
        p = self.matching()[0]  # the leftmost face-up pattern the strand matches
        self.claimed.append(p)
        at = self.row.index(p)
        self.claims.append([self.turns, p, at])
        if self.deck:
            self.row[at] = self.deck.pop()
        else:
            self.row.pop(at)
        self.discard += self.strand_cards
        self.strand_cards = []
        self.strand = [None] * self.config.strand_length

    # -- drawing --
    def hand_count(self) -> int:
        """How full the hand is by the ``hand_counts`` reading: every card, or bulbs only."""
        if self.config.hand_counts == "cards":
            return len(self.hand)
        return sum(1 for c in self.hand if self.kind[c] != "plug")

    def _fresh_hand(self) -> None:
        """Draw to a full hand setting specials aside, then shuffle them back into the pile."""
        aside: list[int] = []
        size = self.config.hand_size
        while self.hand_count() < size and self.pile:
            c = self.pile.pop()
            if self.kind[c] in SPECIALS:
                aside.append(c)
            else:
                self.hand.append(c)
        if not aside:
            return
        if self.hand_count() < size:
            self.out_of_play += aside  # the pile ran dry: they stay out of play
        else:
            self.pile = list(reversed(self._chance.shuffle(list(reversed(self.pile)) + aside)))

    def _refill(self) -> None:
        size = self.config.hand_size
        while self.hand_count() < size and self.pile:
            c = self.pile.pop()
            kind = self.kind[c]
            if kind == "event":
                self.counts["events_drawn"] += 1
            elif kind == "broken":
                self.counts["broken_drawn"] += 1
            elif kind == "character":
                self.counts["characters_drawn"] += 1
            else:
                self.hand.append(c)
                continue
            if self._has("plug"):
                self.pending = c
                self.phase = PLUG
                return
            self.pending = c
            self._resolve_pending(False)
        self.phase = ACTION
        self._check_end()

    def _has(self, kind: str) -> bool:
        return any(self.kind[c] == kind for c in self.hand)

    def _resolve_pending(self, use_plug: bool) -> None:
        c = self.pending
        assert c is not None
        self.pending = None
        kind = self.kind[c]
        if use_plug:
            self.discard.append(self._take("plug"))
            self.counts[PLUG_COUNTER[kind]] += 1
        if kind == "event":
            self.discard.append(c)
            if use_plug:
                self.counts["events_cancelled"] += 1
            else:
                self._blackout()
        elif kind == "character":
            if use_plug:
                self.characters.append(c)
            else:
                self.discard.append(c)
        elif kind == "broken":
            self.discard.append(c)
            if use_plug:
                self.counts["broken_cancelled"] += 1
            elif self.strand_cards:
                self.discard += self.strand_cards
                self.strand_cards = []
                self.strand = [None] * self.config.strand_length
                self.counts["strands_lost"] += 1

    def _blackout(self) -> None:
        self.counts["blackouts"] += 1
        self.blackout_turns.append(self.turns)
        self.discard += self.hand
        self.hand = []
        self._fresh_hand()

    def _check_end(self) -> None:
        if not self.pile and not self.hand and self.phase != PLUG:
            self.phase = OVER

    # -- results --
    @property
    def claimed_total(self) -> int:
        """Claimed cards: patterns and characters together."""
        return len(self.claimed) + len(self.characters)

    def outcome(self) -> Outcome:
        """Won or not, claims, and every effect counted."""
        won = self.phase == OVER and self.claimed_total >= self.config.win_threshold
        counters: dict[str, int | float] = {
            "won": int(won),
            "claimed": self.claimed_total,
            "claimed_patterns": len(self.claimed),
            "claimed_characters": len(self.characters),
            **self.counts,
            "out_of_play": len(self.out_of_play),
            "first_blackout_turn": self.blackout_turns[0] if self.blackout_turns else -1,
        }
        # one column per possible blackout (at most one per event card), -1 where none struck
        for i in range(self.config.events):
            turns = self.blackout_turns
            counters[f"blackout_turn_{i + 1}"] = turns[i] if i < len(turns) else -1
        return Outcome(
            winners=(0,) if won else (),
            scores=(float(self.claimed_total),),
            reason=("won" if won else "lost") if self.phase == OVER else "unfinished",
            turns=self.turns,
            counters=counters,
            details={
                "blackout_turns": tuple(self.blackout_turns),
                "claims": tuple(tuple(c) for c in self.claims),
            },
        )

    def observation(self, seat: Seat = 0) -> DeckTheYardObservation:
        """Hand, strand, pattern row, claims and counts; never the order of a face-down pile."""
        pats = self.config.patterns
        return DeckTheYardObservation(
            config=self.config,
            phase=PHASE_NAMES[self.phase],
            hand=tuple(sorted(self.kind[c] for c in self.hand)),
            strand=tuple(self.strand),
            row=tuple(pats[p] for p in self.row),
            pending=None if self.pending is None else self.kind[self.pending],
            claimed_patterns=len(self.claimed),
            claimed_characters=len(self.characters),
            pile_left=len(self.pile),
            patterns_left=len(self.deck),
            discard=tuple(sorted(self.kind[c] for c in self.discard)),
            turn=self.turns,
        )

    def clone(self) -> DeckTheYardState:
        """An independent copy (its chance source is shared)."""
        new = DeckTheYardState.__new__(DeckTheYardState)
        new.__dict__.update(self.__dict__)
        for name in (
            "row",
            "deck",
            "pile",
            "hand",
            "strand",
            "strand_cards",
            "claimed",
            "characters",
            "discard",
            "out_of_play",
            "blackout_turns",
        ):
            setattr(new, name, list(getattr(self, name)))
        new.claims = [c[:] for c in self.claims]
        new.counts = dict(self.counts)
        return new

    def move_to_json(self, move: Move) -> Any:
        """{"bulb": colour}, {"bubble": true}, {"discard": kind}, {"plug": bool}."""
        if isinstance(move, PlayBulb):
            return {"bulb": move.colour}
        if isinstance(move, PlayBubble):
            return {"bubble": True}
        if isinstance(move, Discard):
            return {"discard": move.kind}
        if isinstance(move, UsePlug):
            return {"plug": move.use}
        raise IllegalMoveError(f"{move!r} is not a Deck the Yard move")

    def move_from_json(self, data: Any) -> Move:
        """Inverse of move_to_json."""
        try:
            ((kind, value),) = data.items()
        except (AttributeError, ValueError) as exc:
            raise RecordError(f"malformed Deck the Yard move {data!r}") from exc
        if kind == "bulb" and isinstance(value, str):
            return PlayBulb(value)
        if kind == "bubble":
            return PlayBubble()
        if kind == "discard" and isinstance(value, str):
            return Discard(value)
        if kind == "plug" and isinstance(value, bool):
            return UsePlug(value)
        raise RecordError(f"unknown or malformed Deck the Yard move {data!r}")


def new_state(config: DeckTheYardConfig, rng: random.Random) -> DeckTheYardState:
    """Shuffle the patterns and the draw pile, turn up the row, draw a clean hand of five."""
    patterns = list(range(len(config.patterns)))
    rng.shuffle(patterns)
    pile = list(range(config.n_cards))
    rng.shuffle(pile)
    return DeckTheYardState(config, patterns, pile, Chance(rng))


def check_edit(edit: Any, config: DeckTheYardConfig | None = None) -> tuple[str, int]:
    """A deal edit checked: ``("pattern", P)``, P a pattern card's index (below the config's
    number of patterns when ``config`` is given); a bad one is a one-line ConfigError."""
    try:
        kind, target = edit
    except (TypeError, ValueError):
        raise ConfigError(f"a Deck the Yard deal edit is ('pattern', P), got {edit!r}") from None
    if kind != "pattern":
        raise ConfigError(f"a Deck the Yard deal edit trades a pattern, got {kind!r}")
    most = len(config.patterns) if config is not None else 10_000
    if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target < most:
        raise ConfigError(f"a pattern edit's target is a pattern 0–{most - 1}, got {target!r}")
    return "pattern", int(target)


def edit_deal(state: DeckTheYardState, seat: int, edit: Any) -> DeckTheYardState:
    """A fresh deal with pattern P of edit ``("pattern", P)`` face up in slot 0: it trades
    places with the pattern dealt there, which goes where P was (the face-up row or the pattern
    deck); hand and draw pile as dealt.  The instrument of pattern worth
    (:mod:`gamelib.verdict.worth`): the same deal played once per pattern."""
    _, target = check_edit(edit, state.config)
    if seat != 0:
        raise ConfigError(f"a solitaire has one seat: the holder is seat 0, got {seat!r}")
    if state.turns or state.claimed or state.phase != ACTION:
        raise ConfigError("only a fresh deal (before the first decision) can be edited")
    order = list(state.start()["patterns"])
    ids = [int(p[-1]) for p in order]
    k = ids.index(target)
    ids[0], ids[k] = ids[k], ids[0]
    new = state.clone()
    f = state.config.face_up
    new.row = ids[:f]
    new.deck = list(reversed(ids[f:]))
    new._start = {**state._start, "patterns": ids}
    return new


def state_from_start(
    config: DeckTheYardConfig, start: Mapping[str, Any], chance_log: Sequence[Any] = ()
) -> DeckTheYardState:
    """Rebuild the start from a record: pattern order and draw-pile order (top first)."""
    kinds = config.kinds()
    try:
        patterns = [int(p[-1]) for p in start["patterns"]]
        pile = []
        for entry in start["draw_pile"]:
            kind, _, cid = str(entry).partition("#")
            if kinds[int(cid)] != kind:
                raise ValueError(f"card {entry!r} is not a {kind}")
            pile.append(int(cid))
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise RecordError(f"malformed Deck the Yard start: {exc}") from exc
    if sorted(patterns) != list(range(len(config.patterns))):
        raise RecordError("the start does not hold each pattern card exactly once")
    if sorted(pile) != list(range(config.n_cards)):
        raise RecordError(
            f"the start's draw pile does not hold each of the {config.n_cards} cards once"
        )
    return DeckTheYardState(config, patterns, pile, Chance(None, replay=chance_log))


def stacked(
    config: DeckTheYardConfig,
    hand: Sequence[str],
    pile: Sequence[str],
    *,
    row: Sequence[int] = (0, 1),
    strand: Sequence[str | None] | None = None,
    rng: random.Random | None = None,
) -> DeckTheYardState:
    """A position built by hand: the hand, the draw pile (top first) and the pattern row, by
    kind; for worked examples and tests.  Reshuffles use ``rng`` (without one they are refused).
    """
    kinds = list(config.kinds())
    free = {k: [i for i, x in enumerate(kinds) if x == k] for k in set(kinds)}

    def take(kind: str) -> int:
        if not free.get(kind):
            raise ConfigError(f"no {kind} card left for the stacked deck")
        return free[kind].pop(0)

    hand_ids = [take(k) for k in hand]
    pile_ids = [take(k) for k in pile]
    rest_rows = [i for i in range(len(config.patterns)) if i not in row]
    state = DeckTheYardState.__new__(DeckTheYardState)
    chance = Chance(rng) if rng is not None else Chance(None, replay=())
    DeckTheYardState.__init__(state, config, [*row, *rest_rows], [], chance)
    state.hand = hand_ids
    state.pile = list(reversed(pile_ids))
    state.phase = ACTION
    if strand is not None:
        state.strand = list(strand) + [None] * (config.strand_length - len(strand))
        state.strand_cards = [take(s) for s in strand if s is not None]
    state._legal = None
    return state
