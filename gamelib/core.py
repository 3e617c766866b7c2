"""The one protocol every gamelib game speaks, its result type, errors and seeding helpers.

A game is a frozen config dataclass plus a mutable state.  The state answers the same small
set of questions for every game (whose turn, legal moves, apply a move, is it over, result,
what a seat may see), so players, the simulation runner and the records never need to know
which game they are driving.  Chance is explicit: a state draws every random outcome through
a :class:`Chance` object that either uses a seeded RNG and logs what it drew, or replays a log,
so a game is fully determined by (config, seed, players) and can be replayed from its record.
"""

from __future__ import annotations

import dataclasses
import os
import random
import re
import socket
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

import numpy as np

Seat = int
Move = Hashable

#: ``current_player()`` of a state whose game is over.
TERMINAL: Seat = -1


class GamelibError(ValueError):
    """Base of every error gamelib raises on bad input or a failure it expects (a file it cannot
    write, a corrupt resume folder, an unreachable cluster).

    The message names the offending value, file or parameter and, where there is one, the fix;
    the command line prints it as one line ``gamelib: error: …``.  (A ``ValueError`` too, so
    code written against the first releases keeps catching it.)
    """


class ConfigError(GamelibError):
    """A game configuration or run argument that cannot be used (unknown setup, impossible deck
    or grid, a seed out of range, an unknown player)."""


class IllegalMoveError(GamelibError):
    """A move that is not among the legal moves of the state it was applied to."""


#: the format every game record is written in (a compiled core writing its own records, like
#: Deck the Yard's, needs it without importing gamelib.records, which sits above the games)
RECORD_FORMAT = "gamelib-record/2"


class RecordError(GamelibError):
    """A game record that is corrupt or does not match the game it claims to describe."""


class OutputError(GamelibError):
    """A file or folder gamelib was asked to write (or read) that it cannot use: a missing or
    unwritable folder, a path that is a folder, a file in the way."""


class ResultsError(GamelibError):
    """A saved result table or a cache entry that cannot be used."""


class ResumeError(ResultsError):
    """A resume folder whose chunks do not belong to this run, or are short or corrupt."""


class ClusterError(GamelibError):
    """A Dask scheduler address that is malformed or cannot be reached."""


class GamelibWarning(UserWarning):
    """Something gamelib changed on the user's behalf (fewer workers, a re-played chunk)."""


#: the most cards a deck may hold: far beyond any table game, small enough to lay out in memory
MAX_CARDS = 1_000_000

#: seeds are 0 <= seed < 2**128 (numpy's SeedSequence takes any non-negative int; a bound keeps
#: provenance and messages readable)
MAX_SEED = 2**128


def check_seed(seed: object, name: str = "seed") -> int:
    """The seed if it is an int in 0 ≤ seed < 2**128, else a :class:`ConfigError` naming it."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ConfigError(f"{name} must be a whole number, got {seed!r}")
    if not 0 <= seed < MAX_SEED:
        raise ConfigError(f"{name} must be at least 0 and below 2**128, got {seed}")
    return seed


@dataclass(frozen=True)
class Outcome:
    """The structured result of one finished game, ready to become one table row.

    ``winners`` lists the winning seats: one seat for an outright win, several for a shared win,
    none for a draw (or, in a solitaire game, a loss).  ``scores`` has one entry per seat.
    ``counters`` are flat per-game numbers (ints or floats) that become columns; ``details`` holds
    structured extras (per-turn lists and the like) that do not fit one cell.
    """

    winners: tuple[Seat, ...]
    scores: tuple[float, ...]
    reason: str
    turns: int
    counters: Mapping[str, int | float] = field(default_factory=dict)
    details: Mapping[str, Any] = field(default_factory=dict)

    @property
    def n_players(self) -> int:
        """How many seats the game had."""
        return len(self.scores)

    @property
    def is_draw(self) -> bool:
        """True when nobody won outright (no winner, or a shared win)."""
        return len(self.winners) != 1

    def row(self) -> dict[str, Any]:
        """Flatten to one tidy row: winner, reason, turns, per-seat scores and win shares
        (``win_<seat>``: 1 for a sole win, 1/k for a win shared by k, else 0), counters."""
        out: dict[str, Any] = {
            "winner": self.winners[0] if len(self.winners) == 1 else -1,
            "n_winners": len(self.winners),
            "reason": self.reason,
            "turns": self.turns,
        }
        share = 1.0 / len(self.winners) if self.winners else 0.0
        for seat, score in enumerate(self.scores):
            out[f"score_{seat}"] = score
        for seat in range(len(self.scores)):
            out[f"win_{seat}"] = share if seat in self.winners else 0.0
        out.update(self.counters)
        return out

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (the ``outcome`` part of a game record)."""
        return {
            "winners": list(self.winners),
            "scores": list(self.scores),
            "reason": self.reason,
            "turns": self.turns,
            "counters": dict(self.counters),
            "details": _jsonable(dict(self.details)),
        }


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


class Chance:
    """Every random outcome of a game, drawn from a seeded RNG and logged, or replayed from a log.

    A state calls :meth:`shuffle` (the only chance primitive card games need) and gets a new
    order of the items.  In live play the order comes from ``rng`` and is appended to ``log``;
    in replay it comes, in order, from the log of a record and is checked to be a permutation.
    """

    __slots__ = ("_replay", "_rng", "log")

    def __init__(self, rng: random.Random | None, replay: Sequence[Any] | None = None) -> None:
        self._rng = rng
        self._replay = list(replay) if replay is not None else None
        self.log: list[list[Any]] = []

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        """Return the items in a new random order, logging (or replaying) that order."""
        if self._replay is None:
            if self._rng is None:
                raise RecordError("a chance event happened but no RNG and no chance log were given")
            order = list(items)
            self._rng.shuffle(order)
        else:
            if not self._replay:
                raise RecordError("the record's chance log ran out before the game did")
            entry = self._replay.pop(0)
            if not isinstance(entry, list):
                raise RecordError(f"a recorded shuffle must be a list of cards, got {entry!r}")
            order = list(entry)
            if sorted(map(repr, order)) != sorted(map(repr, items)):
                raise RecordError(
                    f"a recorded shuffle {order!r} is not a reordering of the cards "
                    f"being shuffled {list(items)!r}"
                )
        self.log.append(order)
        return order

    def unused(self) -> int:
        """How many replayed chance outcomes were never asked for (0 in live play)."""
        return len(self._replay) if self._replay is not None else 0


class State(ABC):
    """The mutable position of one game; every game's state answers these questions."""

    config: Any

    @abstractmethod
    def current_player(self) -> Seat:
        """The seat that makes the next decision, or ``TERMINAL`` when the game is over."""

    #: the legal moves of the current decision, once computed (None: not yet)
    _legal: list[Move] | None

    def legal_moves(self) -> list[Move]:
        """Every move the current player may make now; never empty while the game runs.

        Computed once per decision (``apply`` resets ``_legal``), since players, the play loop
        and the legality check all ask for it.
        """
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    @abstractmethod
    def _compute_legal(self) -> list[Move]:
        """The legal moves of the current decision, computed afresh."""

    @abstractmethod
    def apply(self, move: Move) -> None:
        """Make ``move``; raises :class:`IllegalMoveError` if it is not legal."""

    def is_over(self) -> bool:
        """True once the game has ended (nobody is to move)."""
        return self.current_player() == TERMINAL

    @abstractmethod
    def outcome(self) -> Outcome:
        """The result of the finished game."""

    @abstractmethod
    def observation(self, seat: Seat) -> Any:
        """Exactly what ``seat`` may see now (the state itself in a perfect-information game)."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy (for search players)."""

    @property
    @abstractmethod
    def n_players(self) -> int:
        """How many seats the game has."""

    @abstractmethod
    def start(self) -> dict[str, Any]:
        """The starting arrangement as JSON data (what a record stores to rebuild the game)."""

    def end(self) -> dict[str, Any] | None:
        """Where every card lies now, as JSON data (a record's ``end``, which replay compares);
        None for a game that does not describe it."""
        return None

    @property
    @abstractmethod
    def chance(self) -> Chance:
        """The chance source of this game (its log holds every shuffle after the start)."""

    @abstractmethod
    def move_to_json(self, move: Move) -> Any:
        """A move as JSON data, in the words of the rules (used by records)."""

    @abstractmethod
    def move_from_json(self, data: Any) -> Move:
        """Inverse of :meth:`move_to_json`; raises :class:`RecordError` on malformed data."""


#: a move class (a NamedTuple type), as :func:`move_type` receives and returns it
M = TypeVar("M", bound=type)


def move_type(cls: M) -> M:
    """Make a NamedTuple move class equal only to moves of its own type.

    Plain NamedTuples compare as tuples, so ``Pass(1) == DrawFrom(1)``; a legality check
    (``move in legal``) would then accept a move of the wrong kind.
    """

    def __eq__(self: tuple[Any, ...], other: object) -> bool:
        return type(self) is type(other) and tuple.__eq__(self, other)

    def __ne__(self: tuple[Any, ...], other: object) -> bool:
        return not __eq__(self, other)

    def __hash__(self: tuple[Any, ...]) -> int:
        return hash((cls.__name__, *self))

    cls.__eq__ = __eq__  # type: ignore[assignment]
    cls.__ne__ = __ne__  # type: ignore[assignment]
    cls.__hash__ = __hash__  # type: ignore[assignment]
    return cls


class Player(Protocol):
    """A player: sees an observation and the legal moves, returns one of them."""

    def __call__(self, observation: Any, legal: Sequence[Move], rng: random.Random) -> Move: ...


def random_player(observation: Any, legal: Sequence[Move], rng: random.Random) -> Move:
    """Uniform over the legal options (the baseline player of every game); a forced move draws
    no random number (as in the compiled cores)."""
    return legal[0] if len(legal) == 1 else legal[rng.randrange(len(legal))]


# it never looks at its observation, so the play loop may skip building one (a copy of all it sees)
random_player.observes = False  # type: ignore[attr-defined]


#: a game's config type (a frozen dataclass), as :class:`Game` carries it
C = TypeVar("C")


@dataclass(frozen=True)
class Game:
    """A registered game: its name, config type, setups, state factories and named players."""

    name: str
    config_type: type
    new_state: Callable[[Any, random.Random], State]
    state_from_start: Callable[[Any, Mapping[str, Any], Sequence[Any]], State]
    players: Mapping[str, Callable[..., Player]]
    setups: Mapping[str, Any] = field(default_factory=dict)
    kernel: str | None = None
    """The module of the game's compiled core that plays whole batches (``supports(spec)``,
    ``play_seeds(config, players, seeds, record=)``, ``encode(move)``), imported on first use."""
    resample: Callable[[Any, random.Random], State] | None = None
    """For a game that hides something from its seats: ``resample(observation, rng)``, a whole
    state that agrees with a seat's observation, every card the seat has not seen dealt again
    uniformly at random from ``rng`` (a *determinization*). Information-set search
    (``gamelib.search``'s ``ismcts`` and ``rollout``) searches these; a game whose observation
    is the whole state needs none."""
    moves: Callable[[Any], Sequence[Move]] | None = None
    """``moves(config)``: every move the game can ever offer under a config, in a fixed order —
    the action numbers of the game in OpenSpiel (``gamelib.openspiel``); a game without it is
    not offered to OpenSpiel unless it has an adapter of its own."""
    rotate_deal: Callable[[Any, int], State] | None = None
    """For a game that deals each seat something of its own (a hand): ``rotate_deal(state, r)``,
    the fresh deal ``state`` with seat ``i`` given what was dealt to seat ``(i + r) mod n`` and
    everything else of the deal as it was.  ``simulate(..., rotate_deals=True)`` plays every
    rotation of each deal (a seat-rotated deal); a game whose seats share everything dealt has
    nothing to rotate and none."""
    edit_deal: Callable[[Any, int, Any], State] | None = None
    """For a game whose cards can be worth different amounts: ``edit_deal(state, seat, edit)``,
    the fresh deal ``state`` with one card of ``seat``'s traded for another wherever that one
    was dealt (the deal stays a shuffle of the same cards); ``simulate(..., edit=...)`` plays
    each deal so edited for the seat of the line-up's first player, and card worth
    (:mod:`gamelib.verdict.worth`) compares the same deals under each edit.  A game without it
    has no card worth."""
    check_edit: Callable[[Any], Any] | None = None
    """With ``edit_deal``: an edit checked (a bad one is a one-line ConfigError) and returned
    in its one spelling, the form a run's key keeps."""
    edit_kinds: tuple[str, ...] = ()
    """With ``edit_deal``: the kinds of trade an edit names (``("value", "colour")``), the
    first the game's card table."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """Its classes of moves in the rules' words (:class:`gamelib.restrict.Options`)."""
    play_revision: int = 0
    """Raised when the same players given the same seeds play different games (a change of a
    player's choices, such as the order it breaks ties in): it is part of every run's key, so a
    study played before the change is never read as current (``gamelib.sim.run_spec``; written
    only when above 0, so the other games' runs keep their keys)."""

    def config(self, setup: str | None = None, /, **overrides: Any) -> Any:
        """A config from a named setup (or the defaults) with fields overridden."""
        if setup is None:
            base = self.config_type()
        elif setup in self.setups:
            base = self.setups[setup]
        else:
            raise ConfigError(
                f"unknown {self.name} setup {setup!r}; known setups: {', '.join(self.setups)}"
            )
        return replace_config(base, **overrides)

    def player(self, spec: str | Player) -> Player:
        """A player by name (``'random'``, ``'greedy'``, …) or a callable passed through."""
        if callable(spec):
            return spec
        if "=" in spec and hasattr(self.options, "player"):  # restricted: gamelib.restrict
            return self.options.player(self, spec)  # type: ignore[no-any-return]
        name, _, arg = spec.partition(":")
        if name not in self.players:
            raise ConfigError(
                f"unknown {self.name} player {spec!r}; known players: {', '.join(self.players)}"
            )
        factory = self.players[name]
        if time_budget(spec) is not None:
            raise ConfigError(
                f"{spec!r} asks for a time per decision, which is measured on this machine and "
                f"resolved before play to a concrete player: gamelib.timed.resolve(config, "
                f"{spec!r}) gives it (the command line resolves it for you)"
            )
        try:
            return factory(arg) if arg else factory()
        except TypeError:  # a player without options
            raise ConfigError(
                f"the {self.name} player {name!r} takes no ':' option, got {spec!r}"
            ) from None


#: a time-per-decision budget as a player's first option (``mcts:25ms``, ``ismcts:2.5ms``)
_TIME_BUDGET = re.compile(r"^[^:]+:(\d+(?:\.\d+)?)ms(?::|$)")


def time_budget(spec: object) -> float | None:
    """The milliseconds per decision a player spec asks for (``mcts:25ms`` → 25.0;
    ``ismcts:40ms:cut:1`` → 40.0), or None when its first option is not a time."""
    if not isinstance(spec, str):
        return None
    m = _TIME_BUDGET.match(spec)
    return float(m.group(1)) if m else None


def replace_config(config: C, **overrides: Any) -> C:
    """A copy of a config dataclass with fields replaced; unknown fields are refused by name."""
    names = {f.name for f in dataclasses.fields(config)}  # type: ignore[arg-type]
    unknown = sorted(set(overrides) - names)
    if unknown:
        raise ConfigError(
            f"unknown config field(s) {', '.join(unknown)} for {type(config).__name__}; "
            f"fields are: {', '.join(sorted(names))}"
        )
    try:
        return dataclasses.replace(config, **overrides)  # type: ignore[type-var]
    except (TypeError, ValueError) as exc:
        if isinstance(exc, GamelibError):
            raise
        raise ConfigError(str(exc)) from exc


def rule_variants(config_type: type) -> dict[str, Any]:
    """One config per rule field, each the defaults with that field moved (and what must move
    with it): the config class's ``RULE_VARIANTS``, checked to name every field but its
    ``LABELS`` and to move the field it is listed under.  The kernels' cross-checks replay each
    one, and a test requires each to reach the kernel's tables."""
    names = [f.name for f in dataclasses.fields(config_type)]
    declared: Mapping[str, Mapping[str, Any]] = getattr(config_type, "RULE_VARIANTS", {})
    labels = set(getattr(config_type, "LABELS", ()))
    missing = [n for n in names if n not in declared and n not in labels]
    if missing:
        raise ConfigError(
            f"{config_type.__name__}.RULE_VARIANTS names no variant for {', '.join(missing)}: "
            "give each rule field a variant that moves it (see CONTRIBUTING.md)"
        )
    unknown = [n for n in declared if n not in names]
    if unknown:
        raise ConfigError(f"{config_type.__name__}.RULE_VARIANTS names no field {unknown}")
    default = config_type()
    out = {}
    for name, overrides in declared.items():
        variant = replace_config(default, **overrides)
        if getattr(variant, name) == getattr(default, name):
            raise ConfigError(
                f"{config_type.__name__}.RULE_VARIANTS[{name!r}] leaves {name} as it is"
            )
        out[name] = variant
    return out


def config_to_json(config: Any) -> dict[str, Any]:
    """A config dataclass as JSON data (tuples become lists)."""
    return {str(k): _jsonable(v) for k, v in dataclasses.asdict(config).items()}


# --- seeding -------------------------------------------------------------------------------


def game_seeds(seed: int, n_games: int, start: int = 0) -> list[int]:
    """The per-game seeds of a run: game ``i`` always gets the same seed, whatever the batch.

    Derived with :class:`numpy.random.SeedSequence` so neighbouring games are independent; the
    first k seeds of a long run equal the seeds of a k-game run.  Seeds are below 2**63 so a
    table column holds them as int64 exactly.
    """
    root = np.random.SeedSequence(seed)
    return [
        int(np.random.SeedSequence(root.entropy, spawn_key=(i,)).generate_state(1, np.uint64)[0])
        >> 1
        for i in range(start, start + n_games)
    ]


_MASK64 = (1 << 64) - 1


class SplitMixRandom(random.Random):
    """The compiled cores' SplitMix64 stream (``gamelib.kernel_rng``) as a :class:`random.Random`.

    ``_randbelow`` (behind ``randrange``, ``choice``, ``sample``) is the kernels' ``rng_below``
    and :meth:`shuffle` their Fisher–Yates, so a game played through the Python protocol with
    these streams gets the same deal, the same reshuffles and — for players that draw the same
    numbers (the random player) — the same decisions as the compiled game of the same seed.
    """

    def __init__(self, state: int = 0) -> None:
        self._state = 0
        super().__init__(state)

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Set the stream's 64-bit state (``None`` means 0)."""
        self._state = int(a or 0) & _MASK64

    def next64(self) -> int:
        """The next 64 random bits (SplitMix64, as ``kernel_rng.rng_next``)."""
        z = self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def random(self) -> float:
        """A float in [0, 1) from the top 53 bits of one draw."""
        return (self.next64() >> 11) * 2.0**-53

    def getrandbits(self, k: int) -> int:
        """``k`` random bits, 64 per draw (low words first)."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        out = shift = 0
        while shift < k:
            out |= self.next64() << shift
            shift += 64
        return out & ((1 << k) - 1)

    def _randbelow(self, n: int) -> int:
        """Uniform in [0, n): the kernels' ``rng_below`` (rejection on 31 bits) for n ≤ 2**31."""
        if n > 1 << 31:
            bits = n.bit_length()
            while True:
                x = self.getrandbits(bits)
                if x < n:
                    return x
        span = 1 << 31
        limit = span - span % n
        while True:
            x = self.next64() >> 33
            if x < limit:
                return x % n

    def shuffle(self, x: Any) -> None:
        """Fisher–Yates from the last position, as the kernels shuffle."""
        for c in range(len(x) - 1, 0, -1):
            k = self._randbelow(c + 1)
            x[c], x[k] = x[k], x[c]

    def getstate(self) -> tuple[str, int]:  # type: ignore[override]
        """The stream's state (for ``setstate``, copies and pickles)."""
        return ("splitmix64", self._state)

    def setstate(self, state: Any) -> None:
        """Restore a state from :meth:`getstate`."""
        if not (isinstance(state, tuple) and len(state) == 2 and state[0] == "splitmix64"):
            raise ValueError(f"not a SplitMixRandom state: {state!r}")
        self._state = int(state[1]) & _MASK64


def game_rngs(game_seed: int, n_players: int) -> tuple[random.Random, list[random.Random]]:
    """The chance stream and one stream per seat of one game, all derived from its seed.

    They are the compiled cores' streams (``rng_streams`` of each kernel): stream ``k`` starts
    at the ``k``-th SplitMix64 output of the seed; 0 is chance (deals, reshuffles), ``1 + seat``
    a seat's.  So the protocol and the kernels deal the same cards for the same seed.
    """
    root = SplitMixRandom(game_seed)
    rngs = [SplitMixRandom(root.next64()) for _ in range(n_players + 1)]
    return rngs[0], list(rngs[1:])


# --- files written whole ------------------------------------------------------------------------


def temporary_name(path: Path) -> Path:
    """The name ``path`` is written under before its rename: one of this process's own, so two
    writers of one file at once (two notebooks, two workers) never write or rename the other's."""
    return path.with_name(f"{path.name}.{os.getpid()}@{socket.gethostname()}.partial")


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: under this writer's own temporary name
    (:func:`temporary_name`), then renamed over ``path``; a failed write leaves no temporary
    file."""
    tmp = temporary_name(path)
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
