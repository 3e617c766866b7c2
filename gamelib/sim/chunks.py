"""What one chunk of a run is: its games played (reference or compiled engine) into rows, the
columns a table has, and the provenance that fixes a run (its spec, key and fingerprint).

``run_chunk`` is the unit of work a worker gets; it stays a module-level function so it pickles
for process pools and Dask.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

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

#: columns every table starts with, in this order (config fields and outcome columns follow);
#: a run with ``rotate_deals`` has ``deal_rotation`` after ``rotation``
PROVENANCE = ["game", "gamelib_version", "game_index", "deal", "rotation", "seed"]


def game_of(config: Any) -> Game:
    """The registered game whose config type ``config`` is."""
    for game in GAMES.values():
        if isinstance(config, game.config_type):
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


def run_chunk(
    config: Any,
    players: Sequence[str | Player],
    seed: int,
    start: int,
    stop: int,
    rotate_seats: bool,
    records: bool = False,
    engine: str = "auto",
    rotate_deals: bool = False,
) -> tuple[pd.DataFrame, list[dict[str, Any]]]:
    """Play deals ``start … stop-1`` of a run (seeds derived here); the unit of work a worker
    gets.  A line-up of built-in players with compiled versions plays in the game's compiled
    core, a whole chunk per call (see :func:`gamelib.records.engine_for`).  A deal's games:
    each seat arrangement (``rotate_seats``), and within it each rotation of the deal's hands
    (``rotate_deals``: column ``deal_rotation``)."""
    game = game_of(config)
    n_seats = len(players)
    rotations = range(n_seats) if rotate_seats else range(1)
    hands = deal_rotations(game, n_seats) if rotate_deals else None
    names = [player_name(p) for p in players]
    fixed = {"game": game.name, "gamelib_version": __version__, **config_columns(config)}
    if engine_for(game, players, engine) == "compiled":
        return _compiled_chunk(
            game, config, names, seed, start, stop, rotations, records, fixed, hands
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
    hands: range | None = None,
) -> tuple[pd.DataFrame, list[dict[str, Any]]]:
    """``run_chunk`` in compiled code: one batch per seat arrangement (and deal rotation), rows
    in the order (and with the columns) the protocol path gives."""
    from gamelib.kernel_rng import seeds_for  # numba loads with the first compiled chunk

    core = compiled_core(game)
    seeds = seeds_for(seed, stop - start, start)
    turns = hands or [None]
    n_deals, per = len(seeds), len(rotations) * len(turns)
    frames = []
    batches = []
    for k, (rotation, turn) in enumerate(itertools.product(rotations, turns)):
        seated = seating(names, rotation)
        games = core.play_seeds(config, seated, seeds, record=records, **kernel_rotation(turn or 0))
        batches.append((seated, games, turn or 0))
        out = pd.DataFrame(games.table)
        seats = [c for c in out.columns if c.startswith("score_")]
        df = pd.DataFrame(dict(fixed), index=range(n_deals))
        df["game_index"] = (start + np.arange(n_deals)) * per + k
        df["deal"] = start + np.arange(n_deals)
        df["rotation"] = rotation
        if turn is not None:
            df["deal_rotation"] = turn
        df["seed"] = seeds
        for s, name in enumerate(seated):
            df[f"player_{s}"] = name
        head = ["winner", "n_winners", "reason", "turns", *seats]
        head += [f"win_{s}" for s in range(len(seats))]
        tail = ["decisions", "options", "multi_option_decisions"]
        rest = [c for c in out.columns if c not in {"game", "seed", *head, *tail}]
        for c in head + rest:
            df[c] = out[c].to_numpy()
        df["reason"] = df["reason"].astype(object).astype("str")  # as pandas reads Python strs
        sole = out["winner"].to_numpy()
        df["winner_player"] = np.where(
            sole >= 0, np.asarray(seated, dtype=object)[np.maximum(sole, 0)], ""
        )
        for c in tail:
            df[c] = out[c].to_numpy()
        frames.append(df)
    table = pd.concat(frames, ignore_index=True)
    order = np.argsort(table["game_index"].to_numpy(), kind="stable")
    table = table.iloc[order].reset_index(drop=True)
    recs: list[dict[str, Any]] = []
    if records:
        for g in range(n_deals):
            for seated, games, turn in batches:
                played = from_compiled(game, config, seated, games, g, record=True, rotation=turn)
                assert played.record is not None
                recs.append(played.record)
    return table, recs


def result_columns(
    config: Any, players: Sequence[str | Player], rotate_deals: bool = False
) -> list[str]:
    """The columns a run of this config and line-up makes (from one game, not stored)."""
    return list(run_chunk(config, players, 0, 0, 1, False, rotate_deals=rotate_deals)[0].columns)


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
) -> dict[str, Any]:
    """Everything that fixes a run's table: its provenance (stored with saved tables).
    ``engine`` is the one that plays (``"compiled"`` or ``"python"``); ``rotate_deals`` is
    written only when true, so every run without it keeps its key."""
    spec = {
        "game": game_of(config).name,
        "gamelib_version": __version__,
        "config": config_to_json(config),
        "players": [player_name(p) for p in players],
        "n_games": n_games,
        "seed": seed,
        "rotate_seats": rotate_seats,
    }
    if rotate_deals:
        spec["rotate_deals"] = True
    if engine == "python" and engine_for(game_of(config), players) == "compiled":
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
