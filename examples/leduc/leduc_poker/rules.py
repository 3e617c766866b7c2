"""Leduc hold'em on gamelib's protocol: the rules, a seat's observation, and the resampling that
lets information-set search play it.

Leduc hold'em (Southey et al. 2005, "Bayes' bluff: opponent modelling in poker", UAI) is the
small poker of game-AI research, and OpenSpiel's ``leduc_poker`` plays the same rules, which
``tests/test_leduc.py`` checks game by game:

* **Deck**: two suits of ``n_players + 1`` ranks (J, Q, K for two players); card ``c`` has rank
  ``c // 2``. Each seat antes ``ante`` chip(s) and is dealt one private card.
* **Two betting rounds.** Seat 0 acts first in each (the first seat still in, in round two).
  A seat may **call** (match the stake; a check when nothing is owed), **raise** (call, then
  add ``raise_1`` chips in round one, ``raise_2`` in round two; at most ``max_raises`` raises a
  round) or **fold** (only when it owes chips). A round ends when every seat still in has acted
  since the last raise and owes nothing. After round one a public card is turned up.
* **The end.** The last seat in takes the pot. Otherwise, at the showdown, a private card that
  pairs the public card beats every other hand, then the higher private rank wins; equal hands
  split the pot.

**What a seat sees** (:class:`LeducObservation`): its own card, the public card once turned up,
and every bet (betting is public), so the observation is the seat's whole information state.
**The outcome**: the seats taking the pot win (several when they split it); each seat's score is
the chips it won or lost.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

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

RANKS = "JQKAT98765"  # rank names, lowest first (two players use J, Q, K)


@dataclass(frozen=True)
class LeducConfig:
    """The rule readings of Leduc hold'em (the defaults: OpenSpiel's ``leduc_poker``)."""

    n_players: int = 2
    """Seats at the table, 2 to 9; the deck has two suits of ``n_players + 1`` ranks."""
    ante: int = 1
    """Chips each seat puts in the pot before the deal."""
    raise_1: int = 2
    """The size of a raise in the first betting round."""
    raise_2: int = 4
    """The size of a raise in the second betting round."""
    max_raises: int = 2
    """The most raises in one betting round."""

    def __post_init__(self) -> None:
        for name in ("n_players", "ante", "raise_1", "raise_2", "max_raises"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ConfigError(f"{name} must be a whole number, got {value!r}")
        if not 2 <= self.n_players <= 9:
            raise ConfigError(f"Leduc hold'em seats 2 to 9 players, got n_players={self.n_players}")
        if self.ante < 1 or self.raise_1 < 1 or self.raise_2 < 1 or self.max_raises < 0:
            raise ConfigError("ante and raises must be at least 1 chip, max_raises at least 0")

    @property
    def n_cards(self) -> int:
        """Cards in the deck: two of each of ``n_players + 1`` ranks."""
        return 2 * (self.n_players + 1)


SETUPS = {f"{n}p": LeducConfig(n_players=n) for n in (2, 3)}


@move_type
class Fold(NamedTuple):
    """Give up the hand (only when owing chips)."""


@move_type
class Call(NamedTuple):
    """Match the stake (a check when nothing is owed)."""


@move_type
class Raise(NamedTuple):
    """Match the stake and raise it by the round's raise size."""


#: every move, in the order OpenSpiel's leduc_poker numbers its actions
MOVES: tuple[Move, ...] = (Fold(), Call(), Raise())


def all_moves(config: LeducConfig) -> Sequence[Move]:
    """Every move the game can offer (the OpenSpiel action of a move is its index here)."""
    return MOVES


def rank(card: int) -> int:
    """A card's rank (0 the lowest)."""
    return card // 2


def card_name(card: int) -> str:
    """A card in words: its rank and suit (``Qs``, ``Kh``)."""
    return f"{RANKS[rank(card)]}{'sh'[card % 2]}"


@dataclass(frozen=True)
class LeducObservation:
    """Exactly what one seat sees: its card, the public card once turned up, every bet."""

    config: LeducConfig
    seat: Seat
    card: int
    public: int | None
    round: int
    to_move: Seat
    contributed: tuple[int, ...]
    folded: tuple[bool, ...]
    bets: tuple[tuple[tuple[Seat, str], ...], ...]
    """Each round's bets so far, in order: (seat, ``fold``/``call``/``raise``)."""


class LeducState(State):
    """A Leduc hold'em hand: the deck's order (private cards first, then the public card), the
    chips in the pot and the bets."""

    config: LeducConfig

    def __init__(self, config: LeducConfig, deck: list[int], chance: Chance) -> None:
        self.config = config
        self.deck = deck
        self._chance = chance
        n = config.n_players
        self.round = 1
        self.to_move: Seat = 0
        self.contributed = [config.ante] * n
        self.folded = [False] * n
        self.stake = config.ante
        self.raises = 0
        self.waiting: set[Seat] = set(range(n))  # seats yet to act since the last raise
        self.bets: list[list[tuple[Seat, str]]] = [[]]
        self.over = False
        self.reason = ""
        self._legal: list[Move] | None = None

    # -- the protocol --
    @property
    def n_players(self) -> int:
        """How many seats play."""
        return int(self.config.n_players)

    @property
    def chance(self) -> Chance:
        """The only chance event is the deal (``start()``), so the chance log stays empty."""
        return self._chance

    def current_player(self) -> Seat:
        """The seat to bet, or TERMINAL."""
        return TERMINAL if self.over else self.to_move

    def _compute_legal(self) -> list[Move]:
        if self.over:
            return []
        moves: list[Move] = []
        if self.contributed[self.to_move] < self.stake:
            moves.append(Fold())
        moves.append(Call())
        if self.raises < self.config.max_raises:
            moves.append(Raise())
        return moves

    def apply(self, move: Move) -> None:
        """Bet; a move not in ``legal_moves()`` raises IllegalMoveError."""
        legal = self.legal_moves()
        if move not in legal:
            raise IllegalMoveError(
                f"{move!r} is illegal for seat {self.to_move} now; legal: {legal}"
                if not self.over
                else f"{move!r} is illegal: the hand is over"
            )
        self._legal = None
        seat = self.to_move
        if isinstance(move, Fold):
            self.folded[seat] = True
            self.bets[-1].append((seat, "fold"))
        elif isinstance(move, Call):
            self.contributed[seat] = self.stake
            self.bets[-1].append((seat, "call"))
        else:
            size = self.config.raise_1 if self.round == 1 else self.config.raise_2
            self.stake += size
            self.contributed[seat] = self.stake
            self.raises += 1
            self.waiting = {s for s in self._in_hand() if s != seat}
            self.bets[-1].append((seat, "raise"))
        self.waiting.discard(seat)
        live = self._in_hand()
        if len(live) == 1:
            self._finish("fold")
        elif not self.waiting:
            if self.round == 1:
                self._next_round()
            else:
                self._finish("showdown")
        else:
            self.to_move = self._next_seat(seat)

    def _in_hand(self) -> list[Seat]:
        return [s for s in range(self.n_players) if not self.folded[s]]

    def _next_seat(self, seat: Seat) -> Seat:
        n = self.n_players
        for step in range(1, n + 1):
            s = (seat + step) % n
            if not self.folded[s]:
                return s
        raise AssertionError("no seat left in the hand")  # pragma: no cover

    def _next_round(self) -> None:
        self.round = 2
        self.raises = 0
        self.waiting = set(self._in_hand())
        self.bets.append([])
        self.to_move = self._in_hand()[0]

    def _finish(self, reason: str) -> None:
        self.over = True
        self.reason = reason

    @property
    def public(self) -> int | None:
        """The public card, once turned up (after the first round)."""
        return self.deck[self.n_players] if self.round == 2 else None

    def hand_value(self, seat: Seat) -> tuple[int, int]:
        """A seat's hand at the showdown: (1 for a pair with the public card, its rank)."""
        mine = rank(self.deck[seat])
        return (int(mine == rank(self.deck[self.n_players])), mine)

    def winners(self) -> tuple[Seat, ...]:
        """The seats taking the pot."""
        live = self._in_hand()
        if self.reason != "showdown":
            return tuple(live)
        best = max(self.hand_value(s) for s in live)
        return tuple(s for s in live if self.hand_value(s) == best)

    def outcome(self) -> Outcome:
        """Who takes the pot, and each seat's chips won or lost."""
        n = self.n_players
        pot = sum(self.contributed)
        if not self.over:
            return Outcome((), tuple(0.0 for _ in range(n)), "unfinished", self.turns)
        win = self.winners()
        scores = tuple(
            (pot / len(win) if s in win else 0.0) - self.contributed[s] for s in range(n)
        )
        return Outcome(
            winners=win,
            scores=scores,
            reason=self.reason,
            turns=self.turns,
            counters={"pot": pot, "showdown": int(self.reason == "showdown")},
        )

    @property
    def turns(self) -> int:
        """Bets made so far."""
        return sum(len(r) for r in self.bets)

    def observation(self, seat: Seat) -> LeducObservation:
        """Its own card, the public card once turned up, every bet."""
        return LeducObservation(
            config=self.config,
            seat=seat,
            card=self.deck[seat],
            public=self.public,
            round=self.round,
            to_move=self.to_move,
            contributed=tuple(self.contributed),
            folded=tuple(self.folded),
            bets=tuple(tuple(r) for r in self.bets),
        )

    def clone(self) -> LeducState:
        """An independent copy."""
        new = LeducState.__new__(LeducState)
        new.__dict__.update(self.__dict__)
        new.deck = self.deck[:]
        new.contributed = self.contributed[:]
        new.folded = self.folded[:]
        new.waiting = set(self.waiting)
        new.bets = [r[:] for r in self.bets]
        return new

    # -- records --
    def start(self) -> dict[str, Any]:
        """The deal: the deck's order, private cards first, then the public card."""
        return {"deck": [card_name(c) + f"#{c}" for c in self.deck]}

    def move_to_json(self, move: Move) -> Any:
        """``"fold"``, ``"call"`` or ``"raise"``."""
        return type(move).__name__.lower()

    def move_from_json(self, data: Any) -> Move:
        """Inverse of move_to_json."""
        moves = {"fold": Fold(), "call": Call(), "raise": Raise()}
        if data not in moves:
            raise RecordError(f"malformed Leduc move {data!r}")
        return moves[data]


def new_state(config: LeducConfig, rng: random.Random) -> LeducState:
    """Shuffle the deck and deal: one private card a seat, the next card face down for later."""
    deck = list(range(config.n_cards))
    rng.shuffle(deck)
    return LeducState(config, deck, Chance(rng))


def state_from_start(
    config: LeducConfig, start: Mapping[str, Any], chance_log: Sequence[Any] = ()
) -> LeducState:
    """Rebuild the deal from a record's ``start``."""
    try:
        deck = [int(str(c).partition("#")[2]) for c in start["deck"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"malformed Leduc deal: {exc}") from exc
    if sorted(deck) != list(range(config.n_cards)):
        raise RecordError(f"the deal does not hold each of the {config.n_cards} cards once")
    return LeducState(config, deck, Chance(None, replay=chance_log))


def resample(observation: LeducObservation, rng: random.Random) -> LeducState:
    """A whole hand that agrees with a seat's observation: the other private cards (and the
    public card, while face down) dealt again uniformly from the cards the seat has not seen,
    then the same bets. Bets show no card, so every such deal is equally likely."""
    obs = observation
    cfg = obs.config
    n = cfg.n_players
    seen = {obs.card} | ({obs.public} if obs.public is not None else set())
    unseen = sorted(set(range(cfg.n_cards)) - seen)
    rng.shuffle(unseen)
    deck: list[int] = []
    for position in range(cfg.n_cards):
        if position == obs.seat:
            deck.append(obs.card)
        elif position == n and obs.public is not None:
            deck.append(obs.public)
        else:
            deck.append(unseen.pop())
    state = LeducState(cfg, deck, Chance(None))
    names = {"fold": Fold(), "call": Call(), "raise": Raise()}
    for bets in obs.bets:
        for _, bet in bets:
            state.apply(names[bet])
    return state
