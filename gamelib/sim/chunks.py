"""What one chunk of a run is: its games played (reference or compiled engine) into rows, the
columns a table has, and the provenance that fixes a run (its spec, key and fingerprint).

``run_chunk`` is the unit of work a worker gets; it stays a module-level function so it pickles
for process pools and Dask.  pandas is imported by the chunks that make a table: a chunk asked
for its summary only (:class:`Summary`, what the command line prints) is plain lists.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import random
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from gamelib.core import ConfigError, Game, Player, config_to_json, game_seeds
from gamelib.records import (
    compiled_core,
    deal_rotations,
    engine_for,
    from_compiled,
    kernel_rotation,
    play_game,
)
from gamelib.registry import GAMES
from gamelib.version import __version__

if TYPE_CHECKING:  # pandas: imported by the chunks that make a table
    import pandas as pd

#: columns every table starts with, in this order (config fields and outcome columns follow);
#: a run with ``rotate_deals`` has ``deal_rotation`` after ``rotation``
PROVENANCE = ["game", "gamelib_version", "game_index", "deal", "rotation", "seed"]

#: the columns a run's summary needs (each seat's player, who won, how many won, turns)
SUMMARY = re.compile(r"player_\d+|winner|winner_player|n_winners|turns")


@dataclasses.dataclass
class Summary:
    """The summary columns (:data:`SUMMARY`) of some games as plain lists, in table order: what
    a run makes when only its summary is wanted, without pandas (the command line's small runs).
    ``len()`` is the number of games."""

    columns: dict[str, list[Any]]

    def __len__(self) -> int:
        return len(self.columns["turns"])

    @classmethod
    def of_rows(cls, rows: Sequence[Mapping[str, Any]]) -> Summary:
        """The summary columns of table rows (dicts, all with the same keys)."""
        names = [c for c in rows[0] if SUMMARY.fullmatch(c)] if rows else ["turns"]
        return cls({c: [row[c] for row in rows] for c in names})

    @classmethod
    def joined(cls, parts: Sequence[Summary]) -> Summary:
        """The parts one after the other."""
        if not parts:
            return cls({"turns": []})
        return cls({c: [v for p in parts for v in p.columns[c]] for c in parts[0].columns})


def game_of(config: Any) -> Game:
    """The registered game whose config type ``config`` is."""
    game = GAMES.of_config(config)
    if game is not None:
        return game
    raise ConfigError(
        f"{config!r} is not the config of any known game; make one with e.g. "
        "GARNER.config('A') or get_game(name).config()"
    )


def n_seats(config: Any) -> int:
    """How many seats a game with this config has."""
    return game_of(config).new_state(config, random.Random(0)).n_players


def player_name(player: str | Player) -> str:
    """The name a table uses for a player (its spec string, or its ``__name__``)."""
    return player if isinstance(player, str) else str(getattr(player, "__name__", repr(player)))


def seating(players: Sequence[Any], rotation: int) -> list[Any]:
    """The players by seat in seat arrangement ``rotation`` (0: as given; r: shifted r seats)."""
    n = len(players)
    return [players[(s - rotation) % n] for s in range(n)]


def config_columns(config: Any) -> dict[str, Any]:
    """Every config field as a table column (tuples become strings so the column is hashable)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(config):
        v = getattr(config, f.name)
        out[f.name] = ",".join(map(str, v)) if isinstance(v, tuple) else v
    return out


class ChunkJob(NamedTuple):
    """One chunk of a run, the unit of work a worker gets: :func:`run_chunk`'s arguments
    (``run_chunk(*job)``), built by name wherever a run is cut into chunks."""

    config: Any
    players: list[Any]
    seed: int
    start: int
    stop: int
    rotate_seats: bool
    records: bool = False
    engine: str = "auto"
    summary: bool = False
    rotate_deals: bool = False
    edit: Any = None


def run_chunk(
    config: Any,
    players: Sequence[str | Player],
    seed: int,
    start: int,
    stop: int,
    rotate_seats: bool,
    records: bool = False,
    engine: str = "auto",
    summary: bool = False,
    rotate_deals: bool = False,
    edit: Any = None,
) -> tuple[pd.DataFrame | Summary, list[dict[str, Any]]]:
    """Play deals ``start … stop-1`` of a run (seeds derived here); the unit of work a worker
    gets.  A line-up of built-in players with compiled versions plays in the game's compiled
    core, a whole chunk per call (see :func:`gamelib.records.engine_for`).  ``summary``: only
    the summary columns, as a :class:`Summary` (the same values as the table's), not a
    DataFrame.  A deal's games: each seat arrangement (``rotate_seats``), and within it each
    rotation of the deal's hands (``rotate_deals``: column ``deal_rotation``).  ``edit``: each
    deal edited (``Game.edit_deal``) for the seat of the line-up's first player — in each seat
    arrangement, the seat it sits in."""
    game = game_of(config)
    n_seats = len(players)
    rotations = range(n_seats) if rotate_seats else range(1)
    names = [player_name(p) for p in players]
    fixed = {"game": game.name, "gamelib_version": __version__, **config_columns(config)}
    hands = deal_rotations(game, n_seats) if rotate_deals else None
    if engine_for(game, players, engine) == "compiled":
        return _compiled_chunk(
            game, config, names, seed, start, stop, rotations, records, fixed, summary, hands, edit
        )
    rows = []
    recs: list[dict[str, Any]] = []
    index = start * len(rotations) * len(hands or range(1))
    for deal_offset, game_seed in enumerate(game_seeds(seed, stop - start, start)):
        deal = start + deal_offset
        for rotation, turn in itertools.product(rotations, hands or [None]):
            seated = seating(players, rotation)
            pg = play_game(
                game,
                config,
                seated,
                game_seed,
                record=records,
                engine="python",
                deal_rotation=turn or 0,
                edit=edit,
                holder=rotation,
            )
            out = pg.outcome
            row: dict[str, Any] = {
                **fixed,
                "game_index": index,
                "deal": deal,
                "rotation": rotation,
                **({} if turn is None else {"deal_rotation": turn}),
                "seed": game_seed,
            }
            seat_names = seating(names, rotation)
            for s, name in enumerate(seat_names):
                row[f"player_{s}"] = name
            row.update(out.row())
            row["winner_player"] = seat_names[out.winners[0]] if len(out.winners) == 1 else ""
            row["decisions"] = pg.decisions
            row["options"] = pg.options
            row["multi_option_decisions"] = pg.multi_option
            rows.append(row)
            if pg.record is not None:
                recs.append(pg.record)
            index += 1
    if summary:
        return Summary.of_rows(rows), recs
    import pandas as pd

    return pd.DataFrame(rows), recs


def _compiled_chunk(
    game: Game,
    config: Any,
    names: Sequence[str],
    seed: int,
    start: int,
    stop: int,
    rotations: range,
    records: bool,
    fixed: Mapping[str, Any],
    summary: bool = False,
    hands: range | None = None,
    edit: Any = None,
) -> tuple[pd.DataFrame | Summary, list[dict[str, Any]]]:
    """``run_chunk`` in compiled code: one batch per seat arrangement (and deal rotation), rows
    in the order (and with the columns) the protocol path gives."""
    from gamelib.kernel_rng import seeds_for  # numba loads with the first compiled chunk

    core = compiled_core(game)
    seeds = seeds_for(seed, stop - start, start)
    n_deals = len(seeds)
    batches = []
    for rotation, turn in itertools.product(rotations, hands or [None]):
        seated = seating(names, rotation)
        how = kernel_rotation(turn or 0, edit, rotation)
        games = core.play_seeds(config, seated, seeds, record=records, **how)
        batches.append(_Batch(seated, games, rotation, turn))
    recs: list[dict[str, Any]] = []
    if records:
        for g in range(n_deals):
            for b in batches:
                played = from_compiled(
                    game, config, b.seated, b.games, g, record=True, rotation=b.turn or 0,
                    edit=edit, holder=b.rotation,
                )  # fmt: skip
                assert played.record is not None
                recs.append(played.record)
    if summary:
        return _compiled_summary(batches, n_deals), recs
    return _compiled_table(batches, seeds, start, fixed), recs


@dataclasses.dataclass
class _Batch:
    """One compiled batch of a chunk: its seating, games, seat arrangement and (``None``
    without ``rotate_deals``) rotation of the deals' hands."""

    seated: list[str]
    games: Any
    rotation: int
    turn: int | None


def _compiled_summary(batches: Sequence[_Batch], n_deals: int) -> Summary:
    """The summary columns of compiled batches (one per seat arrangement), in table order
    (deal by deal, each deal's arrangements in turn), with the values the table has."""
    rows = []
    for g in range(n_deals):
        for b in batches:
            seated, games = b.seated, b.games
            row: dict[str, Any] = {f"player_{s}": name for s, name in enumerate(seated)}
            winner = int(games.table["winner"][g])
            row["winner"] = winner
            row["n_winners"] = int(games.table["n_winners"][g])
            row["turns"] = int(games.table["turns"][g])
            row["winner_player"] = seated[winner] if winner >= 0 else ""
            rows.append(row)
    return Summary.of_rows(rows)


def _compiled_table(
    batches: Sequence[_Batch],
    seeds: Any,
    start: int,
    fixed: Mapping[str, Any],
) -> pd.DataFrame:
    """The table of compiled batches (one per seat arrangement and deal rotation): the rows in
    the order (and with the columns) the protocol path gives."""
    import pandas as pd

    n_deals, per = len(seeds), len(batches)
    frames = []
    for k, b in enumerate(batches):
        seated, out = b.seated, b.games.table
        names = out.dtype.names
        seats = [c for c in names if c.startswith("score_")]
        # the columns gathered first, one frame made from them (a column at a time costs a
        # copy of the frame's blocks each: most of a short chunk's time)
        cols: dict[str, Any] = dict(fixed)
        cols["game_index"] = (start + np.arange(n_deals)) * per + k
        cols["deal"] = start + np.arange(n_deals)
        cols["rotation"] = b.rotation
        if b.turn is not None:
            cols["deal_rotation"] = b.turn
        cols["seed"] = seeds
        for s, name in enumerate(seated):
            cols[f"player_{s}"] = name
        head = ["winner", "n_winners", "reason", "turns", *seats]
        head += [f"win_{s}" for s in range(len(seats))]
        tail = ["decisions", "options", "multi_option_decisions"]
        rest = [c for c in names if c not in {"game", "seed", *head, *tail}]
        for c in head + rest:
            cols[c] = out[c]
        sole = out["winner"]
        cols["winner_player"] = np.where(
            sole >= 0, np.asarray(seated, dtype=object)[np.maximum(sole, 0)], ""
        )
        for c in tail:
            cols[c] = out[c]
        df = pd.DataFrame(cols, index=range(n_deals))
        df["reason"] = df["reason"].astype(object).astype("str")  # as pandas reads Python strs
        frames.append(df)
    table = pd.concat(frames, ignore_index=True)
    order = np.argsort(table["game_index"].to_numpy(), kind="stable")
    return table.iloc[order].reset_index(drop=True)


def result_columns(
    config: Any, players: Sequence[str | Player], rotate_deals: bool = False
) -> list[str]:
    """The columns a run of this config and line-up makes (from one game, not stored)."""
    table = run_chunk(config, players, 0, 0, 1, False, rotate_deals=rotate_deals)[0]
    assert not isinstance(table, Summary)
    return list(table.columns)


def games_per_deal(spec: Mapping[str, Any]) -> int:
    """How many games a run plays a deal: one per seat arrangement (``rotate_seats``) times one
    per rotation of the deal's hands (``rotate_deals``; absent from the runs before it)."""
    n = len(spec["players"])
    return (n if spec["rotate_seats"] else 1) * (n if spec.get("rotate_deals") else 1)


def run_spec(
    config: Any,
    players: Sequence[str | Player],
    n_games: int,
    seed: int,
    rotate_seats: bool,
    engine: str = "compiled",
    rotate_deals: bool = False,
    edit: Any = None,
) -> dict[str, Any]:
    """Everything that fixes a run's table: its provenance (stored with saved tables).
    ``engine`` is the one that plays (``"compiled"`` or ``"python"``); ``rotate_deals`` is
    written only when true and ``edit`` (a deal edit, as JSON data) only when given, so every
    run without them keeps its key, and the game's ``play_revision`` only when above 0."""
    game = game_of(config)
    spec = {
        "game": game.name,
        "gamelib_version": __version__,
        "config": config_to_json(config),
        "players": [player_name(p) for p in players],
        "n_games": n_games,
        "seed": seed,
        "rotate_seats": rotate_seats,
    }
    if rotate_deals:
        spec["rotate_deals"] = True
    if edit is not None:
        spec["edit"] = list(edit)
    if game.play_revision:
        spec["play_revision"] = game.play_revision
    if engine == "python" and engine_for(game, players) == "compiled":
        spec["engine"] = "python"  # forced: other games than the default engine plays
    return spec


def _canonical(value: Any) -> Any:
    """Equal values spelled alike: a whole float is its int (``zero_multiplier`` 1.0 from the
    command line and 1 from Python are one rule), so equal runs share a key."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _canonical(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_canonical(v) for v in value]
    return value


def run_key(spec: dict[str, Any]) -> str:
    """A short stable hash of a run's provenance (names its entry in the study cache); equal
    rule values hash alike however they were spelled (1 or 1.0)."""
    text = json.dumps(_canonical(spec), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def run_fingerprint(spec: dict[str, Any]) -> str:
    """What every chunk of a run carries: a hash of its game, version, config, players, seed
    and seat and deal rotations (not its length: deal i is the same game in a run of any length)."""
    return run_key({k: v for k, v in spec.items() if k != "n_games"})
