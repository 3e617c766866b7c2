"""Playing one seeded game, and game records: write, read and replay them move by move.

A record is one JSON object (one line of a ``.jsonl`` file), readable without gamelib:

* ``format`` — ``"gamelib-record/2"`` (``/1`` records are still read); ``game``;
  ``gamelib_version``
* ``config`` — every config field; ``seed`` — the game's own seed; ``deal_rotation`` (only
  when not 0) — which rotation of the seed's deal was played; ``players`` — names per seat
* ``start`` — the starting arrangement (for Garner: ``layout``, each site's stack bottom to top
  as ``[suit, number]`` pairs, sites numbered ``row * cols + col``)
* ``moves`` — every decision in order, ``{"seat": s, "move": …}`` with the move in the game's
  own words (Garner: ``{"lift": [sites]}``, ``{"place": site}``, ``{"collect": [sites]}``,
  ``{"leave": site}``)
* ``chance`` — every chance outcome after the start, in order (each a shuffled order); with
  ``start`` it implies every card drawn, which is why draws are not listed again
* ``outcome`` — winners, scores, reason, turns, counters, details
* ``end`` (new in ``/2``, optional) — where every card lies at the end

:func:`replay` rebuilds the start, applies every move (refusing an illegal one by its index)
and checks the final outcome, and the final position when the record has ``end``, equal the
recorded ones.
"""

from __future__ import annotations

import importlib
import json
import math
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from gamelib.core import RECORD_FORMAT as RECORD_FORMAT  # re-exported: records name it
from gamelib.core import (
    ConfigError,
    Game,
    GamelibError,
    Outcome,
    Player,
    RecordError,
    State,
    check_seed,
    config_to_json,
    game_rngs,
)
from gamelib.version import __version__

#: formats replay reads (``/1``: no ``end``, and Deck the Yard's outcome lacks ``claims``)
READABLE_FORMATS = ("gamelib-record/1", RECORD_FORMAT)


@dataclass
class PlayedGame:
    """One finished game: its final state, outcome, decision statistics and (optionally) record."""

    state: State
    outcome: Outcome
    decisions: int
    options: int
    multi_option: int
    record: dict[str, Any] | None = field(default=None)


ENGINES = ("auto", "compiled", "python")


def compiled_core(game: Game) -> Any:
    """The module of ``game``'s compiled core (imported on first use), or None."""
    return importlib.import_module(game.kernel) if game.kernel else None


def engine_for(game: Game, players: Sequence[str | Player], engine: str = "auto") -> str:
    """Which engine plays this line-up: ``"compiled"`` when every player is a built-in one with
    a compiled version (and ``engine`` is not ``"python"``), else ``"python"`` (the reference
    engine, through the player protocol).  ``engine="compiled"`` refuses a line-up that cannot
    be compiled, naming the players."""
    if engine not in ENGINES:
        raise ConfigError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    if engine == "python":
        return "python"
    core = compiled_core(game) if all(isinstance(p, str) for p in players) else None
    missing = [  # a restricted player (gamelib.restrict) plays through the reference engine
        p for p in players if core is None or "=" in str(p) or not core.supports(p)
    ]
    if not missing:
        return "compiled"
    if engine == "compiled":
        names = ", ".join(sorted({p if isinstance(p, str) else _name(p) for p in missing}))
        raise ConfigError(
            f"engine 'compiled': no compiled {game.name} player {names} (Python players and "
            "search players play through the protocol; use engine 'auto' or 'python')"
        )
    return "python"


def _name(player: str | Player) -> str:
    return player if isinstance(player, str) else str(getattr(player, "__name__", repr(player)))


def play_game(
    game: Game,
    config: Any,
    players: Sequence[str | Player],
    seed: int,
    *,
    record: bool = False,
    engine: str = "auto",
    deal_rotation: int = 0,
    edit: Any = None,
    holder: int = 0,
) -> PlayedGame:
    """Play one game from (config, seed, players); the same three always give the same game.

    Built-in players with a compiled version play in the game's compiled core (``engine``
    ``"auto"``); the game is then replayed through the reference engine, which gives the final
    :class:`~gamelib.core.State`, the record, and a check that both engines agree.
    ``engine="python"`` plays through the reference engine and the player protocol (what any
    Python player gets).  ``deal_rotation`` ``r`` plays rotation ``r`` of the seed's deal (seat
    ``i`` gets the hand dealt to seat ``i + r``; see :func:`deal_rotations`); ``edit`` then
    edits the deal for seat ``holder`` (``Game.edit_deal``; :func:`check_edit`).
    """
    if not isinstance(config, game.config_type):
        raise ConfigError(
            f"{game.name} plays a {game.config_type.__name__}, got {type(config).__name__} "
            f"{config!r}; make one with {game.name.upper()}.config(...)"
        )
    check_seed(seed)
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise ConfigError(f"players must be a list of player names, one per seat, got {players!r}")
    agents = [game.player(p) for p in players]  # unknown names are refused here
    deal_rotations(game, len(players), deal_rotation)
    check_edit(game, edit, len(players), holder)
    if engine_for(game, players, engine) == "compiled":
        _check_seats(game, game.new_state(config, random.Random(0)), players)
        core = compiled_core(game)
        seeds = np.array([seed], np.int64)
        turn = kernel_rotation(deal_rotation, edit, holder)
        games = core.play_seeds(config, list(players), seeds, record=True, **turn)
        return from_compiled(
            game, config, players, games, 0, record=record, rotation=deal_rotation, edit=edit,
            holder=holder,
        )  # fmt: skip
    return _play_protocol(game, config, players, agents, seed, record, deal_rotation, edit, holder)


def check_edit(game: Game, edit: Any, n_seats: int, holder: int = 0) -> Any:
    """``edit`` checked for ``game`` (None: no edit): the game must trade cards
    (``Game.edit_deal``), the edit be one it knows and ``holder`` one of its seats; returns
    the edit as JSON data (a list), the form a run's key keeps."""
    if edit is None:
        return None
    if game.edit_deal is None:
        raise ConfigError(f"edit: a {game.name} deal has no cards to trade (no card worth)")
    if not isinstance(holder, int) or isinstance(holder, bool) or not 0 <= holder < n_seats:
        raise ConfigError(f"holder must be a seat 0–{n_seats - 1}, got {holder!r}")
    return list(game.check_edit(edit)) if game.check_edit is not None else list(edit)


def deal_rotations(game: Game, n_seats: int, rotation: int | None = None) -> range:
    """The rotations of one deal ``game`` can play (``range(n_seats)``: rotation ``r`` gives
    seat ``i`` what was dealt to seat ``(i + r) mod n``), checking ``rotation`` is one of them;
    a game that deals its seats nothing of their own (``Game.rotate_deal`` is None) has only
    rotation 0."""
    rotations = range(n_seats) if game.rotate_deal is not None else range(1)
    if rotation is not None and (
        not isinstance(rotation, int) or isinstance(rotation, bool) or rotation not in rotations
    ):
        why = (
            f"rotations 0–{n_seats - 1}"
            if game.rotate_deal is not None
            else "nothing dealt to one seat alone to rotate (rotation 0 only)"
        )
        raise ConfigError(f"deal_rotation: a {game.name} deal has {why}, got {rotation!r}")
    return rotations


def kernel_rotation(rotation: int, edit: Any = None, holder: int = 0) -> dict[str, Any]:
    """The compiled core's keywords for a rotated or edited deal (none for rotation 0 and no
    edit, so a core without them is called as before)."""
    out: dict[str, Any] = {"rotation": rotation} if rotation else {}
    return out if edit is None else {**out, "edit": edit, "holder": holder}


def from_compiled(
    game: Game,
    config: Any,
    players: Sequence[str | Player],
    games: Any,
    g: int,
    *,
    record: bool = False,
    rotation: int = 0,
    edit: Any = None,
    holder: int = 0,
) -> PlayedGame:
    """Game ``g`` of a compiled batch (played with ``record``; ``rotation``, ``edit`` and
    ``holder``: the batch's deal rotation and edit), replayed decision by decision through the
    reference engine: the final state, outcome and (optionally) the record.  The compiled
    core's table row must equal the reference outcome, or this raises."""
    core = compiled_core(game)
    decisions = iter(int(d) for d in games.game_decisions(g))

    def compiled_choice(observation: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        d = next(decisions)
        for move in legal:
            if core.encode(move) == d:
                return move
        raise AssertionError(  # a bug, not bad input
            f"the compiled {game.name} core chose decision {d}, which the reference engine "
            f"does not offer ({len(legal)} legal moves); please report it with the seed"
        )

    compiled_choice.observes = False  # type: ignore[attr-defined]
    seed = int(games.table["seed"][g])
    script = [compiled_choice] * len(players)
    played = _play_protocol(game, config, players, script, seed, record, rotation, edit, holder)
    row = games.table[g]
    for key, value in played.outcome.row().items():
        mine = row[key].item() if key in row.dtype.names else None
        if mine != value and not (
            isinstance(value, float) and mine is not None and math.isclose(mine, value)
        ):
            raise AssertionError(  # a bug, not bad input
                f"the compiled and reference {game.name} engines disagree on {key} "
                f"({mine!r} vs {value!r}) for seed {seed}; please report it"
            )
    return played


def _check_seats(game: Game, state: State, players: Sequence[str | Player]) -> None:
    if len(players) != state.n_players:
        raise ConfigError(
            f"{game.name} needs {state.n_players} players, got {len(players)}: {list(players)}"
        )


def _play_protocol(
    game: Game,
    config: Any,
    players: Sequence[str | Player],
    agents: Sequence[Player],
    seed: int,
    record: bool,
    rotation: int = 0,
    edit: Any = None,
    holder: int = 0,
) -> PlayedGame:
    """The reference engine's play loop: each seat's player gets its observation, the legal
    moves and its own random stream (``rotation``: the deal's rotation; the seats' streams
    stay the seats'; ``edit``: the deal's edit for seat ``holder``, after the rotation)."""
    chance_rng, seat_rngs = game_rngs(seed, len(players))
    state = game.new_state(config, chance_rng)
    _check_seats(game, state, players)
    if rotation:
        assert game.rotate_deal is not None  # checked by the caller
        state = game.rotate_deal(state, rotation)
    if edit is not None:
        assert game.edit_deal is not None  # checked by the caller
        state = game.edit_deal(state, holder, edit)
    # a player that declares ``observes = False`` (the random player) gets no observation; one
    # that declares ``observes = "state"`` (a cheating oracle, marked so in its name) gets a
    # copy of the whole state
    observes = [getattr(a, "observes", True) for a in agents]
    start = state.start() if record else None
    moves: list[dict[str, Any]] = []
    decisions = options = multi = 0
    while not state.is_over():
        seat = state.current_player()
        legal = state.legal_moves()
        n = len(legal)
        decisions += 1
        options += n
        if n > 1:
            multi += 1
        look = observes[seat]
        obs = state.clone() if look == "state" else state.observation(seat) if look else None
        move = agents[seat](obs, legal, seat_rngs[seat])
        state.apply(move)
        if record:
            moves.append({"seat": seat, "move": state.move_to_json(move)})
    outcome = state.outcome()
    rec: dict[str, Any] | None = None
    if record:
        rec = {
            "format": RECORD_FORMAT,
            "game": game.name,
            "gamelib_version": __version__,
            "config": config_to_json(config),
            "seed": seed,
            **({"deal_rotation": rotation} if rotation else {}),
            "players": [_name(p) for p in players],
            "start": start,
            "moves": moves,
            "chance": state.chance.log,
            "outcome": outcome.to_json(),
        }
        end = state.end()
        if end is not None:
            rec["end"] = end
    return PlayedGame(state, outcome, decisions, options, multi, rec)


def config_from_json(game: Game, data: Mapping[str, Any]) -> Any:
    """Rebuild a config from a record's ``config`` object (lists become tuples)."""
    if not isinstance(data, Mapping):
        raise RecordError(f"the record's config must be an object, got {type(data).__name__}")
    fields = {k: _tuples(v) for k, v in data.items()}
    for name, harmless in _RETIRED_FIELDS.get(game.name, {}).items():
        if name in fields:
            value = fields.pop(name)
            if not harmless(value):
                raise RecordError(
                    f"the record's config sets {name}={value!r}, a field gamelib no longer has; "
                    "this game cannot be replayed by this version"
                )
    try:
        return game.config(None, **fields)
    except ConfigError as exc:
        raise RecordError(f"the record's config is not a valid {game.name} config: {exc}") from exc


# Config fields older records carry that were removed, and which values had no effect.
# Gargon's max_rounds (in gamelib 0.1.0 records): no game can pass 102 rounds, so a
# limit >= 102 never fired.
_RETIRED_FIELDS: dict[str, dict[str, Any]] = {
    "gargon": {"max_rounds": lambda v: isinstance(v, int) and v >= 102},
}


def _tuples(value: Any) -> Any:
    """JSON lists back to the tuples config fields hold (nested ones too)."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def replay(record: Mapping[str, Any], games: Mapping[str, Game] | None = None) -> PlayedGame:
    """Replay a record move by move; the final state and outcome must equal the recorded ones."""
    try:
        return _replay(record, games)
    except RecursionError:
        raise RecordError("the record is nested too deeply to be a game record") from None


def _replay(record: Mapping[str, Any], games: Mapping[str, Game] | None) -> PlayedGame:
    if games is None:
        games = _games()
    if not isinstance(record, Mapping):
        raise RecordError(f"a record must be a JSON object, got {type(record).__name__}")
    missing = [
        k for k in ("format", "game", "config", "start", "moves", "outcome") if k not in record
    ]
    if missing:
        raise RecordError(f"the record lacks {', '.join(missing)}")
    if record["format"] not in READABLE_FORMATS:
        raise RecordError(
            f"unknown record format {record['format']!r}; expected one of {READABLE_FORMATS}"
        )
    name = record["game"]
    if not isinstance(name, str) or name not in games:
        raise RecordError(f"the record is of unknown game {name!r}; known: {', '.join(games)}")
    game = games[name]
    config = config_from_json(game, record["config"])
    chance = record.get("chance", [])
    if not isinstance(chance, list):
        raise RecordError("the record's chance must be a list")
    if not isinstance(record["start"], Mapping):
        raise RecordError("the record's start must be an object")
    state = game.state_from_start(config, record["start"], list(chance))
    moves = record["moves"]
    if not isinstance(moves, list):
        raise RecordError("the record's moves must be a list")
    decisions = options = multi = 0
    for i, entry in enumerate(moves):
        if state.is_over():
            raise RecordError(
                f"move {i} comes after the game is over ({len(moves)} moves recorded)"
            )
        try:
            seat, data = entry["seat"], entry["move"]
        except (TypeError, KeyError) as exc:
            raise RecordError(f"move {i} is malformed: {entry!r}") from exc
        if seat != state.current_player():
            raise RecordError(
                f"move {i} is by seat {seat}, but seat {state.current_player()} is to move"
            )
        legal = state.legal_moves()
        decisions += 1
        options += len(legal)
        multi += len(legal) > 1
        try:
            state.apply(state.move_from_json(data))
        except GamelibError as exc:
            raise RecordError(f"move {i} ({data!r}) cannot be replayed: {exc}") from exc
    if not state.is_over():
        raise RecordError(f"the record ends after {len(moves)} moves but the game is not over")
    if state.chance.unused():
        raise RecordError(f"{state.chance.unused()} recorded chance outcomes were never used")
    outcome = state.outcome()
    got = outcome.to_json()
    recorded = record["outcome"]
    if record["format"] == "gamelib-record/1" and isinstance(recorded, Mapping):
        # details added since /1 (Deck the Yard's claims) are not in the old record
        old = recorded.get("details")
        if isinstance(old, Mapping):
            got["details"] = {k: v for k, v in got["details"].items() if k in old}
    if not _same_json(got, recorded):
        raise RecordError(
            f"replaying the moves gives outcome {got!r}, but the record says {recorded!r}"
        )
    if "end" in record:
        end = state.end()
        if end is None or not _same_json(end, record["end"]):
            raise RecordError(_end_difference(end, record["end"]))
    return PlayedGame(state, outcome, decisions, options, int(multi), dict(record))


def _end_difference(end: Mapping[str, Any] | None, recorded: Any) -> str:
    """Name the first part of the final position that differs from the record's ``end``."""
    if end is None:
        return "the record has an end position but this game does not describe one"
    if not isinstance(recorded, Mapping):
        return f"the record's end must be an object, got {type(recorded).__name__}"
    for key in sorted(set(end) | set(recorded)):
        if key not in recorded or key not in end or not _same_json(end[key], recorded[key]):
            return (
                f"replaying the moves ends with {key} = {end.get(key)!r}, "
                f"but the record's end says {recorded.get(key)!r}"
            )
    return "the final position differs from the record's end"  # pragma: no cover


def positions(record: Mapping[str, Any], at: Sequence[int]) -> list[State]:
    """The positions of a recorded game just before decisions ``at`` (``len(moves)``: the end)."""
    played = replay(record)
    n = len(record["moves"])
    wanted = sorted({i if i >= 0 else n + 1 + i for i in at})
    bad = [i for i in wanted if not 0 <= i <= n]
    if bad:
        raise RecordError(f"decisions {bad} are outside this game's 0..{n}")
    game = _games()[record["game"]]
    state = game.state_from_start(
        played.state.config, record["start"], list(record.get("chance", []))
    )
    out: dict[int, State] = {}
    for i in range(n + 1):
        if i in wanted:
            out[i] = state.clone()
        if i < n:
            state.apply(state.move_from_json(record["moves"][i]["move"]))
    return [out[i if i >= 0 else n + 1 + i] for i in at]


def _games() -> Mapping[str, Game]:
    from gamelib.registry import GAMES

    return GAMES


def _same_json(a: Any, b: Any) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, int | float) and isinstance(b, int | float) and math.isclose(a, b)
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(_same_json(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_same_json(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def write_records(path: str | Path, records: Iterable[Mapping[str, Any]]) -> int:
    """Append records to a JSON-lines file, one game per line; returns how many were written."""
    n = 0
    with Path(path).open("a", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec, separators=(",", ":")) + "\n")
            n += 1
    return n


def read_records(path: str | Path) -> Iterator[dict[str, Any]]:
    """Read a JSON-lines record file; a file that cannot be read, a line that is not a JSON
    object, or a file without any record is refused by name (and line number)."""
    path = Path(path)
    if not path.exists():
        raise RecordError(f"{path}: no such file")
    if path.is_dir():
        raise RecordError(f"{path} is a folder; give a .jsonl file of game records")
    n = 0
    try:
        with path.open(encoding="utf-8") as fh:
            for lineno, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                yield _parse_line(line, f"{path}:{lineno}")
                n += 1
    except UnicodeDecodeError as exc:
        raise RecordError(
            f"{path} is not a text file of JSON records (not UTF-8 at byte {exc.start})"
        ) from None
    except OSError as exc:
        raise RecordError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    if n == 0:
        raise RecordError(f"{path} holds no records (the file is empty)")


def _parse_line(line: str, where: str) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{where}: not a JSON record ({exc.msg})") from None
    except RecursionError:  # the C parser gives up on absurd nesting
        raise RecordError(f"{where}: JSON nested too deeply to be a record") from None
    if not isinstance(data, dict):
        raise RecordError(f"{where}: a record is a JSON object, got {type(data).__name__}")
    return data
