"""gamelib's three games as OpenSpiel games: ``gamelib_garner``, ``gamelib_gargon`` and
``gamelib_deck_the_yard``.

Importing this module registers the three games with ``pyspiel`` (the optional extra:
``pip install 'gamelib[openspiel]'``), after which ``pyspiel.load_game`` loads them by name::

    import gamelib.openspiel
    game = pyspiel.load_game("gamelib_garner(setup=E,must_move=one)")

**Parameters.** ``setup`` names one of the game's setups (empty: the defaults); every other
parameter is a config field of the same name overriding that setup (OpenSpiel hands every
parameter over, defaults included, so a value equal to the default config's keeps the
setup's).  Fields whose values are tuples are written as text, elements separated by ``:``
(``suit_sizes=9:9:9``; a one-element tuple ends in ``:``; Deck the Yard's ``patterns`` separates
patterns by ``/``: ``red:blue:red:blue:bubble/…``); a field that may be empty (``None``) takes
``none``, and Garner's ``forbidden_pile_size`` is ``0`` for none.

**Chance.** Every random event of the rules is a chance node with explicit, uniform outcome
probabilities, one card at a time: the deal (Garner: the deck dealt site by site, bottom card
first; Gargon: the shuffled deck, hands seat by seat then the two draw piles bottom card first;
Deck the Yard: the pattern cards, then the draw pile top card first) and every reshuffle of the
rules (Deck the Yard sets special cards aside and shuffles them back).  A chance outcome is the
id of the card that comes next (``gamelib.<game>.rules`` card ids); when one card is left it
comes without a chance node.

**Actions** (fixed per game, ``num_distinct_actions`` wide):

* Garner — the site a decision names (``row * cols + col``): the lowest site of the number
  group to lift, the site to place the next lifted card on, the lowest site of the suit group to
  collect, the site whose card is left behind (the compiled core's decision code).
* Gargon — ``0..3`` pass and draw that many cards; ``4, 5`` draw from pile 0 / 1; ``6..11``
  resolve colour 0..5; ``12 + rank`` play the cards of that rank, the rank of ascending card ids
  ``a < b < c`` in the combinatorial number system (``a``; ``102 + C(b,2) + a``;
  ``102 + C(102,2) + C(c,3) + C(b,2) + a``).
* Deck the Yard — the compiled core's decision codes (``gamelib.deck_the_yard.kernel``): ``0..5``
  play a bulb of that colour, then bubble, discards by kind, use a plug / not.

**Returns.** Garner: +1 for the winner, -1 for the loser, 0 each for a draw (zero-sum).
Gargon: each winner's share of the win, ``1/k`` when ``k`` players tie for the top score, 0 for
the others (declared general-sum, as the scores are; the shares always sum to 1).  Deck the
Yard: 1 for a won game, 0 for a lost one.

**Observations.** ``observation_string(seat)`` renders exactly ``state.observation(seat)`` of the
reference engine (Garner: the whole position), and ``observation_tensor(seat)`` the same in
numbers (its named pieces: ``make_py_observer().dict``); ``information_state_string(seat)`` is
the seat's observations after every step so far, with its own decisions (perfect recall).  No
information-state tensor is provided.

**Conversions.** :func:`record_to_actions` turns a gamelib record into (OpenSpiel game, action
history), :func:`actions_to_record` an action history into a record ``gamelib.replay`` accepts;
:func:`to_openspiel` builds the OpenSpiel state of a gamelib position from its start and the
moves since, :func:`from_openspiel` hands back a copy of the wrapped reference State.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "gamelib.openspiel needs OpenSpiel, which is not installed: "
        "pip install 'gamelib[openspiel]'"
    ) from exc

from gamelib import __version__
from gamelib.core import (
    Chance,
    ConfigError,
    Game,
    Move,
    Outcome,
    RecordError,
    State,
    config_to_json,
)
from gamelib.deck_the_yard import DECK_THE_YARD
from gamelib.deck_the_yard import kernel as dty_kernel
from gamelib.deck_the_yard import rules as dty
from gamelib.gargon import GARGON
from gamelib.gargon import rules as gargon
from gamelib.garner import GARNER
from gamelib.garner import rules as garner
from gamelib.garner.kernel_players import encode as garner_encode
from gamelib.records import RECORD_FORMAT

__all__ = [
    "GAME_NAMES",
    "actions_to_record",
    "from_openspiel",
    "from_openspiel_record",
    "gargon_play_rank",
    "record_to_actions",
    "to_openspiel",
]


# --- chance that asks instead of drawing ---------------------------------------------------


class _NeedShuffle(Exception):
    """Raised by :class:`_AskingChance` when the rules shuffle and no order was chosen yet."""

    def __init__(self, items: list[Any]) -> None:
        super().__init__(f"a shuffle of {len(items)} items needs chance outcomes")
        self.items = items


class _AskingChance(Chance):
    """A chance source replaying the orders chosen so far, asking for the next one."""

    __slots__ = ()

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        """The next chosen order, or :class:`_NeedShuffle` when none is left."""
        if not self._replay:
            raise _NeedShuffle(list(items))
        return super().shuffle(items)


# --- per-game adapters ---------------------------------------------------------------------


def _split(text: str, sep: str) -> list[str]:
    return [x.strip() for x in text.split(sep)] if text.strip() else []


def _field_from_param(name: str, default: Any, value: Any) -> Any:
    """A config field's value from an OpenSpiel parameter (tuples and None come as text)."""
    if isinstance(default, bool | str):
        return value
    if name == "forbidden_pile_size":
        return None if value == 0 else value
    if isinstance(default, int) and not isinstance(value, str):
        return value
    if isinstance(default, float) and isinstance(value, int | float):
        return float(value)
    text = str(value)
    if text.lower() == "none":
        return None
    try:
        if name == "patterns":
            return tuple(tuple(_split(p, ":")) for p in _split(text, "/"))
        if name == "suit_weights":
            return tuple(float(x) for x in _split(text, ":"))
        if name in ("suit_sizes", "amulets"):  # "9:" is a one-element tuple
            return tuple(int(x) for x in _split(text, ":"))
    except ValueError as exc:
        raise ConfigError(f"parameter {name}={value!r} is not valid: {exc}") from None
    return value


def _param_from_field(value: Any, name: str = "") -> bool | int | float | str:
    """An OpenSpiel parameter for a config field value."""
    if name == "forbidden_pile_size":
        return 0 if value is None else int(value)
    if isinstance(value, tuple) and len(value) == 1:
        return f"{value[0]}:"
    if isinstance(value, bool | int | float | str):
        return value
    if value is None:
        return "none"
    if isinstance(value, tuple) and value and isinstance(value[0], tuple):
        return "/".join(":".join(map(str, p)) for p in value)
    if isinstance(value, tuple):
        return ":".join(map(str, value))
    raise TypeError(f"no OpenSpiel parameter type for {value!r}")


def params_of(config: Any) -> dict[str, Any]:
    """A config's fields as OpenSpiel parameters."""
    out = {}
    for f in dataclasses.fields(config):
        value = getattr(config, f.name)
        # a float field holding an int (Gargon's zero_multiplier = 2) is still a float parameter
        is_float = f.type in ("float", float) and isinstance(value, int)
        out[f.name] = float(value) if is_float else _param_from_field(value, f.name)
    return out


class _Adapter:
    """What the generic OpenSpiel game needs to know about one gamelib game."""

    game: Game
    short_name: str
    long_name: str
    information: Any
    utility: Any
    min_players: int
    max_players: int

    def parameters(self) -> dict[str, Any]:
        """The parameter specification: ``setup`` plus every config field's default."""
        base = self.game.config_type()
        return {"setup": "", **params_of(base)}

    def config(self, params: Mapping[str, Any]) -> Any:
        """The gamelib config of a set of parameters (those given override the setup)."""
        setup: str | None = str(params.get("setup", ""))
        if setup not in self.game.setups:
            if setup not in ("", "custom"):
                raise ConfigError(
                    f"unknown {self.game.name} setup {setup!r}; known setups: "
                    f"{', '.join(self.game.setups)}"
                )
            setup = None
        base = self.game.config(setup)
        defaults = self.parameters()
        overrides = {}
        for name, value in params.items():
            # OpenSpiel hands every parameter over, defaults included: a value equal to the
            # default config's means "the setup's value"
            if name == "setup" or (name in defaults and value == defaults[name]):
                continue
            if not hasattr(base, name):
                raise ConfigError(
                    f"{self.short_name} has no parameter {name!r}; parameters are: "
                    f"{', '.join(self.parameters())}"
                )
            overrides[name] = _field_from_param(name, getattr(base, name), value)
        return self.game.config(setup, **overrides)

    def n_players(self, config: Any) -> int:
        """Seats of this config."""
        return self.min_players

    def deal(self, config: Any) -> list[list[int]]:
        """The items of each shuffle before play (each chosen card by card)."""
        raise NotImplementedError

    def build(self, config: Any, orders: list[list[int]], chance: Chance) -> State:
        """The reference state dealt from the chosen orders."""
        raise NotImplementedError

    def deal_orders(
        self, config: Any, start: Mapping[str, Any], chance: Sequence[Any]
    ) -> list[list[int]]:
        """The deal's orders that give a record's ``start`` (``chance``: the record's)."""
        raise NotImplementedError

    def encode(self, move: Move) -> int:
        """The OpenSpiel action of a move."""
        raise NotImplementedError

    def n_actions(self, config: Any) -> int:
        """``num_distinct_actions``."""
        raise NotImplementedError

    def move_string(self, state: State, move: Move) -> str:
        """A move in the rules' words."""
        return repr(move)

    def chance_string(self, config: Any, shuffle: int, item: int) -> str:
        """A chance outcome in the rules' words (``shuffle``: 0, 1, … before play, -1 later)."""
        return f"next card {item}"

    def returns(self, outcome: Outcome, n: int) -> list[float]:
        """The returns of a finished game."""
        raise NotImplementedError

    def utility_range(self) -> tuple[float, float, float]:
        """(min_utility, max_utility, utility_sum)."""
        raise NotImplementedError

    def observation_string(self, state: State, seat: int) -> str:
        """``state.observation(seat)`` as text."""
        obs = state.observation(seat)
        fields = {f.name: getattr(obs, f.name) for f in dataclasses.fields(obs)}
        fields.pop("config", None)
        return " ".join(f"{k}={v!r}" for k, v in fields.items())

    def max_length(self, config: Any) -> int:
        """An upper bound on the number of actions (chance ones included) in a game."""
        raise NotImplementedError

    def tensor_shapes(self, config: Any) -> list[tuple[str, tuple[int, ...]]]:
        """The named pieces of the observation tensor, in order."""
        raise NotImplementedError

    def fill_tensor(self, state: State, seat: int, out: dict[str, np.ndarray]) -> None:
        """Write what ``observation(seat)`` shows into the zeroed pieces."""
        raise NotImplementedError


class _GarnerAdapter(_Adapter):
    game = GARNER
    short_name = "gamelib_garner"
    long_name = "gamelib Garner"
    information = pyspiel.GameType.Information.PERFECT_INFORMATION
    utility = pyspiel.GameType.Utility.ZERO_SUM
    min_players = max_players = 2

    def deal(self, config: Any) -> list[list[int]]:
        return [list(range(sum(config.suit_sizes)))]

    def build(self, config: Any, orders: list[list[int]], chance: Chance) -> State:
        (deck,) = orders
        h = config.height
        stacks = [deck[i * h : (i + 1) * h] for i in range(config.rows * config.cols)]
        return garner.GarnerState(config, stacks, chance)

    def deal_orders(
        self, config: Any, start: Mapping[str, Any], chance: Sequence[Any]
    ) -> list[list[int]]:
        state = garner.state_from_start(config, start)
        return [[c for st in state.stacks for c in st]]

    def encode(self, move: Move) -> int:
        return garner_encode(move)

    def n_actions(self, config: Any) -> int:
        return int(config.rows * config.cols)

    def move_string(self, state: State, move: Move) -> str:
        cols = state.config.cols

        def at(s: int) -> str:
            return f"({s // cols},{s % cols})"

        if isinstance(move, garner.Lift):
            return "lift the number group at " + " ".join(map(at, move.sites))
        if isinstance(move, garner.Place):
            return f"place the next lifted card on {at(move.site)}"
        if isinstance(move, garner.Collect):
            return "collect the suit group at " + " ".join(map(at, move.sites))
        if isinstance(move, garner.LeaveBehind):
            return f"leave the card on {at(move.site)} behind"
        return repr(move)

    def chance_string(self, config: Any, shuffle: int, item: int) -> str:
        u, n = garner._tables(config).suit_of[item], garner._tables(config).number_of[item]
        return f"deal suit {u} number {n}"

    def returns(self, outcome: Outcome, n: int) -> list[float]:
        if len(outcome.winners) != 1:
            return [0.0, 0.0]
        w = outcome.winners[0]
        return [1.0 if s == w else -1.0 for s in range(2)]

    def utility_range(self) -> tuple[float, float, float]:
        return -1.0, 1.0, 0.0

    def observation_string(self, state: State, seat: int) -> str:
        assert isinstance(state, garner.GarnerState)
        t = state.t
        stacks = "|".join(
            ",".join(f"{t.suit_of[c]}.{t.number_of[c]}" for c in st) for st in state.stacks
        )
        return (
            f"to_move={state.to_move} decision={state.decision} turn={state.turns} "
            f"piles={state.piles} lifted={state.lifted} placed={state.placed} "
            f"origins={state._origins} pending={state.pending} stacks={stacks}"
        )

    def tensor_shapes(self, config: Any) -> list[tuple[str, tuple[int, ...]]]:
        cards, sites = sum(config.suit_sizes), config.rows * config.cols
        return [
            ("to_move", (2,)),
            ("decision", (5,)),
            ("turn", (1,)),
            ("site", (cards, sites)),  # where each card lies in the layout
            ("level", (cards,)),  # its level in that stack (0: the bottom)
            ("pile", (cards, 2)),  # in whose scoring pile
            ("lifted_from", (cards, sites)),  # lifted and still to place: its origin site
            ("origins", (sites,)),
            ("placed", (sites,)),
            ("pending", (sites,)),
        ]

    def fill_tensor(self, state: State, seat: int, out: dict[str, np.ndarray]) -> None:
        assert isinstance(state, garner.GarnerState)
        out["to_move"][state.to_move] = 1
        out["decision"][state.phase] = 1
        out["turn"][0] = state.turns
        for s, stack in enumerate(state.stacks):
            for level, c in enumerate(stack):
                out["site"][c, s] = 1
                out["level"][c] = level
        for p, pile in enumerate(state.collected):
            out["pile"][pile, p] = 1
        for origin, c in state.lifted:
            out["lifted_from"][c, origin] = 1
        out["origins"][state._origins] = 1
        out["placed"][state.placed] = 1
        out["pending"][list(state.pending)] = 1

    def max_length(self, config: Any) -> int:
        sites = config.rows * config.cols
        # a turn: one lift, a placement per lifted card, one collect, one leave-behind
        return int(sum(config.suit_sizes) + config.max_turns * (sites + 3))


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


class _GargonAdapter(_Adapter):
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

    def utility_range(self) -> tuple[float, float, float]:
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


#: Deck the Yard's card kinds: the six colours, bubble (the bulbs), then the specials
_DTY_KINDS = dty_kernel.KIND_NAMES


class _DeckTheYardAdapter(_Adapter):
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

    def utility_range(self) -> tuple[float, float, float]:
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


ADAPTERS: dict[str, _Adapter] = {
    a.short_name: a for a in (_GarnerAdapter(), _GargonAdapter(), _DeckTheYardAdapter())
}
GAME_NAMES = tuple(ADAPTERS)
_BY_GAMELIB_NAME = {a.game.name: a for a in ADAPTERS.values()}


# --- the OpenSpiel game and state ----------------------------------------------------------


_BUILD = object()  # the pending step before play: dealing the starting position


class GamelibSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One gamelib game with one config, as an OpenSpiel game."""

    adapter: _Adapter

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        a = self.adapter
        params = dict(params or {})
        self.config = a.config(params)
        n = a.n_players(self.config)
        lo, hi, total = a.utility_range()
        info = pyspiel.GameInfo(
            num_distinct_actions=a.n_actions(self.config),
            max_chance_outcomes=max(len(items) for items in a.deal(self.config)),
            num_players=n,
            min_utility=lo,
            max_utility=hi,
            utility_sum=total if a.utility != pyspiel.GameType.Utility.GENERAL_SUM else None,
            max_game_length=a.max_length(self.config),
        )
        # the parameters of the config actually played, so the game's name reloads it
        shown = {"setup": params.get("setup", ""), **params_of(self.config)}
        super().__init__(_GAME_TYPES[a.short_name], info, shown)

    def new_initial_state(self) -> GamelibSpielState:
        """The state before the deal (a chance node)."""
        return GamelibSpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> _Observer:
        """Observation strings (perfect_recall: information-state strings) of a seat."""
        if params:
            raise ValueError(f"gamelib observers take no parameters, got {dict(params)}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return _Observer(self.adapter, self.config, recall)


class _Box:
    """The reference state and the logs of a game, copied fast: OpenSpiel clones a Python state
    with ``copy.deepcopy``, which would otherwise copy the config's precomputed tables too."""

    __slots__ = ("chance_log", "moves", "ref", "seen")

    def __init__(
        self,
        ref: State | None,
        moves: list[tuple[int, Move]],
        chance_log: list[list[int]],
        seen: list[list[str]],
    ) -> None:
        self.ref = ref
        self.moves = moves
        self.chance_log = chance_log
        self.seen = seen

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        # moves, orders and strings are never changed once logged, so the lists are copied
        # shallowly; the position is copied by the engine's own clone
        return _Box(
            None if self.ref is None else self.ref.clone(),
            self.moves[:],
            self.chance_log[:],
            [s[:] for s in self.seen],
        )


class GamelibSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state wrapping the reference engine's State (``.ref``, None before the
    deal is complete)."""

    def __init__(self, game: GamelibSpielGame) -> None:
        super().__init__(game)
        self.adapter = game.adapter
        self.config = game.config
        self.n = self.adapter.n_players(self.config)
        self._box = _Box(None, [], [], [[] for _ in range(self.n)])
        self._deal = self.adapter.deal(self.config)
        self._orders: list[list[int]] = []  # the deal's chosen orders
        self._step_orders: list[list[int]] = []  # orders chosen for the step being resolved
        self._pending: Any = _BUILD
        self._pending_seat = -1
        self._left: list[int] | None = None  # items still to come in the current shuffle
        self._drawn: list[int] = []
        self._shuffle_index = 0
        self._legal_map: dict[int, Move] | None = None
        self._advance()

    @property
    def ref(self) -> State | None:
        """The reference engine's position (None until the deal is complete)."""
        return self._box.ref

    @property
    def moves(self) -> list[tuple[int, Move]]:
        """Every decision so far as (seat, reference move)."""
        return self._box.moves

    @property
    def chance_log(self) -> list[list[int]]:
        """Every shuffle's order after the deal, as a gamelib record's ``chance``."""
        return self._box.chance_log

    # -- chance and steps --
    def _start_shuffle(self, items: list[int]) -> None:
        self._left = sorted(items)
        self._drawn = []
        self._maybe_finish_shuffle()

    def _maybe_finish_shuffle(self) -> None:
        assert self._left is not None
        if len(self._left) <= 1:
            order = self._drawn + self._left
            self._left = None
            if self._pending is _BUILD and len(self._orders) < len(self._deal):
                self._orders.append(order)
            else:
                self._step_orders.append(order)
            self._shuffle_index += 1
            self._advance()

    def _advance(self) -> None:
        """Resolve the pending step, or start the chance node it needs."""
        a = self.adapter
        if self._pending is _BUILD:
            if len(self._orders) < len(self._deal):
                self._start_shuffle(list(self._deal[len(self._orders)]))
                return
            chance = _AskingChance(None, replay=self._step_orders)
            try:
                state = a.build(self.config, [o[:] for o in self._orders], chance)
            except _NeedShuffle as need:
                self._start_shuffle(need.items)
                return
        else:
            assert self.ref is not None
            state = self.ref.clone()
            state._chance = _AskingChance(None, replay=self._step_orders)  # type: ignore[attr-defined]
            try:
                state.apply(self._pending)
            except _NeedShuffle as need:
                self._start_shuffle(need.items)
                return
            self.moves.append((self._pending_seat, self._pending))
        self._box.chance_log += self._step_orders
        self._step_orders = []
        self._pending = None
        self._box.ref = state
        self._legal_map = None
        for seat in range(self.n):
            self._box.seen[seat].append(a.observation_string(state, seat))

    # -- the OpenSpiel protocol --
    def current_player(self) -> int:
        """Chance while cards are dealt or reshuffled, else the seat to decide, or terminal."""
        if self._left is not None:
            return int(pyspiel.PlayerId.CHANCE)
        assert self.ref is not None
        if self.ref.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.ref.current_player())

    def legal_map(self) -> dict[int, Move]:
        """The legal decisions by action."""
        if self._legal_map is None:
            assert self.ref is not None
            out: dict[int, Move] = {}
            for m in self.ref.legal_moves():
                code = self.adapter.encode(m)
                if code in out:
                    raise AssertionError(f"{m!r} and {out[code]!r} share action {code}")
                out[code] = m
            self._legal_map = out
        return self._legal_map

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.legal_map())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards that may come next, each equally likely."""
        assert self._left is not None
        p = 1.0 / len(self._left)
        return [(c, p) for c in self._left]

    def _apply_action(self, action: int) -> None:
        if self._left is not None:
            if action not in self._left:
                raise ValueError(f"chance outcome {action} is not one of the cards left")
            self._left.remove(action)
            self._drawn.append(action)
            self._maybe_finish_shuffle()
            return
        legal = self.legal_map()
        if action not in legal:
            raise ValueError(f"action {action} is not legal here; legal: {sorted(legal)}")
        assert self.ref is not None
        self._pending_seat = int(self.ref.current_player())
        self._box.seen[self._pending_seat].append(
            "I: " + self.adapter.move_string(self.ref, legal[action])
        )
        self._pending = legal[action]
        self._advance()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            shuffle = self._shuffle_index if self._pending is _BUILD else -1
            return self.adapter.chance_string(self.config, shuffle, action)
        if self.ref is not None and self._left is None and action in self.legal_map():
            return self.adapter.move_string(self.ref, self.legal_map()[action])
        return f"action {action}"

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._left is None and self.ref is not None and self.ref.is_over()

    def returns(self) -> list[float]:
        """Each seat's return (0 before the end)."""
        if not self.is_terminal():
            return [0.0] * self.n
        assert self.ref is not None
        return self.adapter.returns(self.ref.outcome(), self.n)

    def observation_string_of(self, seat: int) -> str:
        """What ``seat`` sees now (``observation(seat)`` of the reference state)."""
        if self.ref is None:
            return f"dealing: {sum(map(len, self._orders)) + len(self._drawn)} cards dealt"
        text = self.adapter.observation_string(self.ref, seat)
        return text + (" (reshuffling)" if self._left is not None else "")

    def information_state_string_of(self, seat: int) -> str:
        """Everything ``seat`` has seen and done, step by step."""
        return "\n".join([*self._box.seen[seat], self.observation_string_of(seat)])

    def __str__(self) -> str:
        if self.ref is None:
            return self.observation_string_of(0)
        a = self.adapter
        parts = [a.observation_string(self.ref, s) for s in range(self.n)]
        return "\n".join(parts) + f"\nend={self.ref.end()!r}"


class _Observer:
    """OpenSpiel's Python observer: the observation string and tensor of a seat (with
    ``perfect_recall``: the information-state string; no information-state tensor)."""

    def __init__(self, adapter: _Adapter, config: Any, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.adapter = adapter
        shapes = adapter.tensor_shapes(config)
        size = sum(int(np.prod(shape)) for _, shape in shapes)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, shape in shapes:
            k = int(np.prod(shape))
            self.dict[name] = self.tensor[at : at + k].reshape(shape)
            at += k

    def set_from(self, state: GamelibSpielState, player: int) -> None:
        """Fill the tensor with what ``player`` sees (all zeros while the deal goes on)."""
        self.tensor.fill(0)
        if state.ref is not None:
            self.adapter.fill_tensor(state.ref, player, self.dict)

    def string_from(self, state: GamelibSpielState, player: int) -> str:
        """The observation (or information-state) string of ``player``."""
        if self.perfect_recall:
            return state.information_state_string_of(player)
        return state.observation_string_of(player)


def _game_type(a: _Adapter) -> Any:
    return pyspiel.GameType(
        short_name=a.short_name,
        long_name=a.long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=a.information,
        utility=a.utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=a.max_players,
        min_num_players=a.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=a.parameters(),
    )


_GAME_TYPES: dict[str, Any] = {name: _game_type(a) for name, a in ADAPTERS.items()}


def _register() -> None:
    registered = set(pyspiel.registered_names())
    for name, a in ADAPTERS.items():
        cls = type(
            f"GamelibSpiel_{name}",
            (GamelibSpielGame,),
            {"adapter": a, "__doc__": f"{a.long_name} as an OpenSpiel game."},
        )
        if name not in registered:
            pyspiel.register_game(_GAME_TYPES[name], cls)


_register()


# --- conversions ---------------------------------------------------------------------------


def _load(adapter: _Adapter, config: Any) -> Any:
    return pyspiel.load_game(adapter.short_name, params_of(config))


def _adapter_of(state: State) -> _Adapter:
    for a in ADAPTERS.values():
        if isinstance(state.config, a.game.config_type):
            return a
    raise ConfigError(f"{type(state).__name__} is not a state of a gamelib game OpenSpiel knows")


def record_to_actions(record: Mapping[str, Any]) -> tuple[Any, list[int]]:
    """A gamelib game record as (OpenSpiel game, its action history, chance outcomes
    included); playing them reaches the record's final position."""
    from gamelib.records import config_from_json

    name = record.get("game") if isinstance(record, Mapping) else None
    if name not in _BY_GAMELIB_NAME:
        raise RecordError(
            f"the record is of unknown game {name!r}; known: {list(_BY_GAMELIB_NAME)}"
        )
    a = _BY_GAMELIB_NAME[str(name)]
    config = config_from_json(a.game, record["config"])
    game = _load(a, config)
    state = game.new_initial_state()
    actions: list[int] = []

    def play(action: int) -> None:
        actions.append(action)
        state.apply_action(action)

    def feed(order: list[int]) -> None:
        # the last card of a shuffle comes without a chance node
        for c in order[:-1]:
            if not state.is_chance_node():
                raise RecordError("the record's chance outcomes do not match the game's shuffles")
            play(int(c))

    chance = [list(map(int, o)) for o in record.get("chance", [])]
    for order in a.deal_orders(config, record["start"], chance):
        feed(order)
    for i, entry in enumerate(record["moves"]):
        while state.is_chance_node():
            if not chance:
                raise RecordError(f"the record's chance log runs out before move {i}")
            feed(chance.pop(0))
        move = state.ref.move_from_json(entry["move"])
        play(a.encode(move))
    while state.is_chance_node() and chance:
        feed(chance.pop(0))
    return game, actions


def actions_to_record(game: Any, actions: Sequence[int]) -> dict[str, Any]:
    """The gamelib record of an OpenSpiel game played with ``actions``."""
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(int(action))
    return from_openspiel_record(state)


def from_openspiel_record(state: GamelibSpielState) -> dict[str, Any]:
    """The gamelib record (``gamelib-record/2``) of an OpenSpiel state's game so far."""
    ref = state.ref
    if ref is None:
        raise RecordError("the deal is not complete: there is no gamelib position yet")
    a = state.adapter
    rec: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "game": a.game.name,
        "gamelib_version": __version__,
        "config": config_to_json(state.config),
        "seed": None,
        "players": ["openspiel"] * state.n,
        "start": ref.start(),
        "moves": [{"seat": s, "move": ref.move_to_json(m)} for s, m in state.moves],
        "chance": [list(o) for o in state.chance_log],
        "outcome": ref.outcome().to_json(),
    }
    end = ref.end()
    if end is not None:
        rec["end"] = end
    return rec


def to_openspiel(state: State, moves: Sequence[Move] | None = None) -> Any:
    """The OpenSpiel state of a gamelib position: its deal (``state.start()``) as chance
    outcomes, then ``moves`` (the decisions since the start, with the reshuffles of
    ``state.chance.log``); without ``moves`` the state must be at its start."""
    a = _adapter_of(state)
    record = {
        "game": a.game.name,
        "config": config_to_json(state.config),
        "start": state.start(),
        "chance": state.chance.log,
        "moves": [{"move": state.move_to_json(m)} for m in moves or ()],
    }
    game, actions = record_to_actions(record)
    out = game.new_initial_state()
    for action in actions:
        out.apply_action(action)
    if not _same_position(out.ref, state):
        raise ConfigError(
            "replaying the deal and the moves given does not reach this position; pass every "
            "move made since the start as moves="
        )
    return out


def _same_position(ref: State | None, state: State) -> bool:
    return (
        ref is not None
        and ref.end() == state.end()
        and ref.current_player() == state.current_player()
        and ref.legal_moves() == state.legal_moves()
    )


def from_openspiel(state: GamelibSpielState) -> State:
    """The gamelib reference State an OpenSpiel state wraps (a copy)."""
    if state.ref is None:
        raise ConfigError("the deal is not complete: there is no gamelib position yet")
    return state.ref.clone()
