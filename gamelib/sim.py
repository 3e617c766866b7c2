"""simulate(): many seeded games on one core, all cores, or a Dask cluster, into a tidy table.

Game ``i`` of a run always gets the seed ``game_seeds(seed, n)[i]`` (a ``SeedSequence`` child),
so the table is the same whatever the number of workers or the executor, and the first k rows
of a long run are exactly a k-game run.  Work goes out in chunks of consecutive games; each
chunk comes back as a small DataFrame, so memory holds rows, never game states.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import random
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import pandas as pd

from gamelib import __version__
from gamelib.core import ConfigError, Game, Player, game_seeds
from gamelib.records import play_game, write_records
from gamelib.registry import GAMES

#: columns every table starts with, in this order (config fields and outcome columns follow)
PROVENANCE = ["game", "gamelib_version", "game_index", "deal", "rotation", "seed"]


def game_of(config: Any) -> Game:
    """The registered game whose config type ``config`` is."""
    for game in GAMES.values():
        if isinstance(config, game.config_type):
            return game
    raise ConfigError(f"{type(config).__name__} is not the config of any known game")


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
    seeds: Sequence[int],
    first_index: int,
    rotate_seats: bool,
    records: bool = False,
) -> tuple[pd.DataFrame, list[dict[str, Any]]]:
    """Play consecutive games ``first_index, …`` of a run; the unit of work sent to a worker."""
    game = game_of(config)
    n_seats = len(players)
    rotations = range(n_seats) if rotate_seats else range(1)
    names = [player_name(p) for p in players]
    fixed = {"game": game.name, "gamelib_version": __version__, **config_columns(config)}
    rows = []
    recs: list[dict[str, Any]] = []
    index = first_index * len(rotations)
    for deal_offset, seed in enumerate(seeds):
        deal = first_index + deal_offset
        for rotation in rotations:
            seated = seating(players, rotation)
            pg = play_game(game, config, seated, seed, record=records)
            out = pg.outcome
            row = {
                **fixed,
                "game_index": index,
                "deal": deal,
                "rotation": rotation,
                "seed": seed,
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


def _chunks(n_games: int, size: int) -> Iterator[tuple[int, int]]:
    for start in range(0, n_games, size):
        yield start, min(start + size, n_games)


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def simulate(
    config: Any,
    players: Sequence[str | Player],
    n_games: int,
    seed: int,
    *,
    workers: int | None = None,
    executor: Any = None,
    rotate_seats: bool = False,
    progress: bool = True,
    chunk_size: int | None = None,
    records: str | os.PathLike[str] | None = None,
) -> pd.DataFrame:
    """Play ``n_games`` seeded games (× seats with ``rotate_seats``) and return one row per game.

    ``workers``: local processes (default: every core; 1 runs in this process).  ``executor``:
    a ``dask.distributed.Client``, a scheduler address (``"tcp://host:port"``) or any
    ``concurrent.futures.Executor``; the table is identical whichever runs it.  ``records``:
    a ``.jsonl`` path that receives every game's record, in game order.
    """
    game = game_of(config)
    if not isinstance(n_games, int) or n_games < 0:
        raise ConfigError(f"n_games must be a non-negative int, got {n_games!r}")
    if not isinstance(seed, int):
        raise ConfigError(f"seed must be an int, got {seed!r}")
    probe = game.new_state(config, random.Random(0))
    if len(players) != probe.n_players:
        raise ConfigError(f"{game.name} needs {probe.n_players} players, got {len(players)}")
    for p in players:
        game.player(p)  # refuses unknown names before any work starts
    if workers is not None and (not isinstance(workers, int) or workers < 1):
        raise ConfigError(f"workers must be a positive int, got {workers!r}")
    n_workers = workers or default_workers()
    if chunk_size is None:
        chunk_size = max(1, min(2000, -(-n_games // (8 * n_workers)) if n_games else 1))
    seeds = game_seeds(seed, n_games)
    want_records = records is not None
    spans = list(_chunks(n_games, chunk_size))
    args = [(config, list(players), seeds[a:b], a, rotate_seats, want_records) for a, b in spans]
    per_game = len(players) if rotate_seats else 1
    bar = _progress(n_games * per_game, progress, game.name)
    parts: dict[int, tuple[pd.DataFrame, list[dict[str, Any]]]] = {}
    try:
        for key, part in _run(args, n_workers, executor):
            parts[key] = part
            bar.update(len(part[0]))
    finally:
        bar.close()
    ordered = [parts[k] for k in sorted(parts)]
    if want_records and records is not None:
        write_records(Path(records), (r for _, recs in ordered for r in recs))
    frames = [df for df, _ in ordered]
    if not frames or n_games == 0:
        return _empty_table(config, players)
    table = pd.concat(frames, ignore_index=True)
    return _tidy(table)


def _run(
    args: list[tuple[Any, ...]], n_workers: int, executor: Any
) -> Iterator[tuple[int, tuple[pd.DataFrame, list[dict[str, Any]]]]]:
    """Run chunks, yielding (chunk start, result) as they finish."""
    if executor is None and (n_workers == 1 or len(args) <= 1):
        for a in args:
            yield a[3], run_chunk(*a)
        return
    if executor is None:
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=n_workers, mp_context=ctx) as pool:
            yield from _run_on(pool, args)
        return
    if isinstance(executor, str):
        from distributed import Client

        with Client(executor) as client:  # type: ignore[no-untyped-call]
            yield from _run_on_dask(client, args)
        return
    if isinstance(executor, Executor):
        yield from _run_on(executor, args)
        return
    if hasattr(executor, "scheduler_info") and hasattr(executor, "submit"):
        yield from _run_on_dask(executor, args)
        return
    raise ConfigError(
        f"executor must be a dask Client, a scheduler address or an Executor, got {executor!r}"
    )


def _run_on(
    pool: Executor, args: list[tuple[Any, ...]]
) -> Iterator[tuple[int, tuple[pd.DataFrame, list[dict[str, Any]]]]]:
    futures = {pool.submit(run_chunk, *a): a[3] for a in args}
    for fut in as_completed(futures):
        yield futures[fut], fut.result()


def _run_on_dask(
    client: Any, args: list[tuple[Any, ...]]
) -> Iterator[tuple[int, tuple[pd.DataFrame, list[dict[str, Any]]]]]:
    from distributed import as_completed as dask_completed

    futures = [client.submit(run_chunk, *a, pure=False) for a in args]
    starts = {f.key: a[3] for f, a in zip(futures, args, strict=True)}
    for fut in dask_completed(futures):  # type: ignore[no-untyped-call]
        yield starts[fut.key], fut.result()


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _progress(total: int, enabled: bool, name: str) -> Any:
    if not enabled:
        return _NoBar()
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="game", desc=name, smoothing=0.1)


def _tidy(table: pd.DataFrame) -> pd.DataFrame:
    """Categories for labels; nullable numbers for config fields that may be None."""
    for col in table.columns:
        if table[col].dtype == object:
            present = table[col].dropna()
            if len(present) and all(type(v) is int for v in present):
                table[col] = table[col].astype("Int64")
            elif len(present) and all(type(v) in (int, float) for v in present):
                table[col] = table[col].astype("Float64")
            else:
                table[col] = table[col].astype("string")
    for col in ("game", "reason", "winner_player"):
        if col in table:
            table[col] = table[col].astype("category")
    for col in [c for c in table.columns if c.startswith("player_")]:
        table[col] = table[col].astype("category")
    return table


def _empty_table(config: Any, players: Sequence[Any]) -> pd.DataFrame:
    cols = PROVENANCE + list(config_columns(config)) + [f"player_{s}" for s in range(len(players))]
    return pd.DataFrame(columns=cols)
