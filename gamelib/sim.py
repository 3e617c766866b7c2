"""simulate(): many seeded games on one core, all cores, or a Dask cluster, into a tidy table.

Game ``i`` of a run always gets the seed ``game_seeds(seed, n)[i]`` (a ``SeedSequence`` child),
so the table is the same whatever the number of workers or the executor, and the first k rows
of a long run are exactly a k-game run.  Work goes out in chunks of consecutive games; each
chunk comes back as a small DataFrame, so memory holds rows, never game states.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import itertools
import json
import multiprocessing
import os
import random
import shutil
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import pandas as pd

from gamelib import __version__
from gamelib.core import ConfigError, Game, GamelibError, Player, config_to_json, game_seeds
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


def _spans(todo: Sequence[tuple[int, int]], size: int) -> list[tuple[int, int]]:
    """Cut the deal ranges still to play into chunks of at most ``size`` deals."""
    out = []
    for a, b in todo:
        out += [(x, min(x + size, b)) for x in range(a, b, size)]
    return out


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


class SimulationInterrupted(GamelibError):
    """A run stopped before its end (Ctrl-C, a killed worker); finished chunks were kept."""


def run_spec(
    config: Any, players: Sequence[str | Player], n_games: int, seed: int, rotate_seats: bool
) -> dict[str, Any]:
    """Everything that fixes a run's table: its provenance (stored with saved tables)."""
    return {
        "game": game_of(config).name,
        "gamelib_version": __version__,
        "config": config_to_json(config),
        "players": [player_name(p) for p in players],
        "n_games": n_games,
        "seed": seed,
        "rotate_seats": rotate_seats,
    }


def run_key(spec: dict[str, Any]) -> str:
    """A short stable hash of a run's provenance (names cache files)."""
    text = json.dumps(spec, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def default_cache_dir() -> Path:
    """Where ``cache=True`` keeps tables: ``$GAMELIB_CACHE`` or ``~/.cache/gamelib``."""
    return Path(os.environ.get("GAMELIB_CACHE", "~/.cache/gamelib")).expanduser()


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
    resume: str | os.PathLike[str] | None = None,
    cache: bool | str | os.PathLike[str] = False,
) -> pd.DataFrame:
    """Play ``n_games`` seeded games (× seats with ``rotate_seats``) and return one row per game.

    ``workers``: local processes (default: every core; 1 runs in this process).  ``executor``:
    a ``dask.distributed.Client``, a scheduler address (``"tcp://host:port"``) or any
    ``concurrent.futures.Executor``; the table is identical whichever runs it.  ``records``:
    a ``.jsonl`` path that receives every game's record, in game order (written whole at the
    end).  ``resume``: a folder where each finished chunk is kept, so an interrupted run
    started again with the same arguments plays only what is missing.  ``cache``: ``True`` (or
    a folder) loads the table of an identical earlier run instead of playing it again.
    """
    game = game_of(config)
    if not isinstance(n_games, int) or isinstance(n_games, bool) or n_games < 0:
        raise ConfigError(f"n_games must be a non-negative int, got {n_games!r}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ConfigError(f"seed must be an int, got {seed!r}")
    probe = game.new_state(config, random.Random(0))
    if len(players) != probe.n_players:
        raise ConfigError(f"{game.name} needs {probe.n_players} players, got {len(players)}")
    for p in players:
        game.player(p)  # refuses unknown names before any work starts
    if workers is not None and (not isinstance(workers, int) or workers < 1):
        raise ConfigError(f"workers must be a positive int, got {workers!r}")
    spec = run_spec(config, players, n_games, seed, rotate_seats)
    cache_file = None
    if cache is not False and n_games > 0:
        folder = default_cache_dir() if cache is True else Path(cache)
        cache_file = folder / f"{game.name}-{run_key(spec)}.parquet"
        if cache_file.exists() and records is None:
            return load(cache_file)
    n_workers = workers or default_workers()
    if chunk_size is None:
        chunk_size = max(1, min(2000, -(-n_games // (8 * n_workers)) if n_games else 1))
    store = _PartStore(Path(resume), spec) if resume is not None else None
    parts: dict[int, tuple[int, pd.DataFrame, Path | None]] = {}
    want_records = records is not None
    if store is not None:
        parts.update(store.load(want_records))
    # each chunk's records go straight to disk (memory stays flat); the file is joined at the end
    scratch = Path(tempfile.mkdtemp(prefix="gamelib-records-")) if want_records else None
    rec_dir = store.folder if store is not None else scratch
    todo = _missing(n_games, [(a, b) for a, (b, _, _) in parts.items()])
    seeds = game_seeds(seed, n_games)
    args = [
        (config, list(players), seeds[a:b], a, rotate_seats, want_records)
        for a, b in _spans(todo, chunk_size)
    ]
    per_game = len(players) if rotate_seats else 1
    bar = _progress(n_games * per_game, progress, game.name)
    bar.update(sum(len(df) for _, df, _ in parts.values()))
    finished = False
    try:
        for start, (df, recs) in _run(args, n_workers, executor):
            stop = start + len(df) // per_game
            rec_path = None
            if rec_dir is not None:
                rec_path = rec_dir / f"part-{start}-{stop}.jsonl"
                _write_whole(rec_path, recs)
            parts[start] = (stop, df, rec_path)
            if store is not None:
                store.save(start, stop, df)
            bar.update(len(df))
        finished = True
    except (KeyboardInterrupt, BrokenExecutor, OSError) as exc:
        done = sum(b - a for a, (b, _, _) in parts.items())
        kept = (
            f"{done} of {n_games} deals are kept in {store.folder}; run the same call again "
            "to resume"
            if store is not None
            else f"{done} of {n_games} deals had finished; pass resume=FOLDER to keep them"
        )
        why = "interrupted" if isinstance(exc, KeyboardInterrupt) else f"stopped ({exc!r})"
        raise SimulationInterrupted(f"simulation {why}: {kept}") from exc
    finally:
        bar.close()
        if not finished and scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    ordered = [parts[k] for k in sorted(parts)]
    if records is not None:
        _join_files(Path(records), [p for _, _, p in ordered if p is not None])
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    frames = [df for _, df, _ in ordered]
    table = (
        _tidy(pd.concat(frames, ignore_index=True))
        if frames and n_games
        else _empty_table(config, players)
    )
    table.attrs["provenance"] = spec
    if cache_file is not None:
        save(table, cache_file)
    if store is not None:
        store.clear()
    return table


def slim(table: pd.DataFrame, columns: Sequence[str]) -> pd.DataFrame:
    """Keep the provenance columns (game, config fields, seats, seeds) and only ``columns`` of
    the outcome, so a large stored study stays small; the provenance attrs are kept."""
    unknown = [c for c in columns if c not in table]
    if unknown:
        raise ConfigError(f"no such result columns {unknown}; columns: {list(table.columns)}")
    outcome_start = list(table.columns).index("winner") if "winner" in table else len(table)
    keep = [c for c in table.columns[:outcome_start]] + [
        c for c in table.columns[outcome_start:] if c in columns
    ]
    out = table[keep].copy()
    out.attrs = table.attrs
    return out


def _missing(n: int, done: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The ranges of ``range(n)`` not covered by the finished ranges ``done``."""
    out = []
    at = 0
    for a, b in sorted(done):
        if a > at:
            out.append((at, a))
        at = max(at, b)
    if at < n:
        out.append((at, n))
    return out


def _join_files(path: Path, pieces: Sequence[Path]) -> None:
    """Concatenate chunk files in order under a temporary name, then rename: never a half-file."""
    tmp = path.with_name(path.name + ".partial")
    with tmp.open("wb") as out:
        for piece in pieces:
            with piece.open("rb") as src:
                shutil.copyfileobj(src, out)
    os.replace(tmp, path)


def _write_whole(path: Path, records: Sequence[dict[str, Any]]) -> None:
    """Write a records file under a temporary name and rename it: never a half-file."""
    tmp = path.with_name(path.name + ".partial")
    tmp.unlink(missing_ok=True)
    write_records(tmp, records)
    os.replace(tmp, path)


class _PartStore:
    """A folder of finished chunks (``part-START-STOP.parquet``) and the run they belong to."""

    def __init__(self, folder: Path, spec: dict[str, Any]) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        manifest = folder / "run.json"
        if manifest.exists():
            try:
                old = json.loads(manifest.read_text())
            except (OSError, json.JSONDecodeError) as exc:
                raise ResultsError(f"{manifest} is not a run manifest: {exc}") from exc
            if old != spec:
                raise ResultsError(
                    f"{folder} holds the chunks of a different run ({old.get('game')}, "
                    f"{old.get('n_games')} games, seed {old.get('seed')}); "
                    "use another resume folder or delete it"
                )
        else:
            _atomic_write_text(manifest, json.dumps(spec, sort_keys=True, indent=1))

    def load(self, want_records: bool) -> dict[int, tuple[int, pd.DataFrame, Path | None]]:
        found: dict[int, tuple[int, pd.DataFrame, Path | None]] = {}
        for path in sorted(self.folder.glob("part-*-*.parquet")):
            a, b = (int(x) for x in path.stem.split("-")[1:3])
            rec_path = path.with_suffix(".jsonl")
            if want_records and not rec_path.exists():
                continue  # played without records: play it again
            found[a] = (b, pd.read_parquet(path), rec_path if want_records else None)
        return found

    def save(self, a: int, b: int, df: pd.DataFrame) -> None:
        path = self.folder / f"part-{a}-{b}.parquet"
        tmp = path.with_name(path.name + ".partial")
        df.to_parquet(tmp)
        os.replace(tmp, path)

    def clear(self) -> None:
        for path in self.folder.glob("part-*"):
            path.unlink()
        (self.folder / "run.json").unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            self.folder.rmdir()


class ResultsError(GamelibError):
    """A saved result table or resume folder that cannot be used."""


def _atomic_write_text(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".partial")
    tmp.write_text(text)
    os.replace(tmp, path)


def results_dir() -> Path:
    """The project's ``data/results`` folder (where stored studies live), from any working
    directory: notebooks, papermill and the tests all find the same files."""
    return Path(__file__).resolve().parents[1] / "data" / "results"


def save(table: pd.DataFrame, path: str | os.PathLike[str]) -> Path:
    """Save a result table as Parquet with its provenance; written whole or not at all."""
    path = Path(path)
    if path.suffix != ".parquet":
        raise ResultsError(f"{path}: result tables are saved as .parquet files")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".partial")
    table.to_parquet(tmp)
    os.replace(tmp, path)
    return path


def load(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Load a saved result table; its provenance is in ``table.attrs["provenance"]``."""
    path = Path(path)
    if not path.exists():
        raise ResultsError(f"{path}: no such result table")
    try:
        table = pd.read_parquet(path)
    except Exception as exc:  # pyarrow raises several types for a damaged file
        raise ResultsError(f"{path} is not a readable result table: {exc}") from exc
    if "provenance" not in table.attrs:
        raise ResultsError(f"{path} has no gamelib provenance: not saved by gamelib.sim.save")
    return table


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
    try:
        for fut in as_completed(futures):
            yield futures[fut], fut.result()
    finally:  # on an error or Ctrl-C, do not wait for chunks that have not started
        for fut in futures:
            fut.cancel()


def _run_on_dask(
    client: Any, args: list[tuple[Any, ...]]
) -> Iterator[tuple[int, tuple[pd.DataFrame, list[dict[str, Any]]]]]:
    from distributed import as_completed as dask_completed

    futures = [client.submit(run_chunk, *a, pure=False) for a in args]
    starts = {f.key: a[3] for f, a in zip(futures, args, strict=True)}
    try:
        for fut in dask_completed(futures):  # type: ignore[no-untyped-call]
            yield starts[fut.key], fut.result()
    finally:
        client.cancel(futures)


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


def sweep(
    game: Game | str,
    grid: Mapping[str, Sequence[Any]],
    players: Sequence[str | Player] | Sequence[Sequence[str | Player]],
    n_games: int,
    seed: int,
    *,
    resume: str | os.PathLike[str] | None = None,
    **kwargs: Any,
) -> pd.DataFrame:
    """Simulate every combination of rule values in ``grid`` on the same seeds, into one table.

    ``grid`` maps ``"setup"`` and/or config fields to the values to try; ``players`` is one
    line-up, or a list of line-ups to try too (a line-up of one name fills every seat).
    Every combination replays the same deals
    (common random numbers), so variants can be compared game by game with
    :func:`gamelib.stats.paired_difference`.  Other keywords go to :func:`simulate`.
    """
    g = GAMES[game] if isinstance(game, str) else game
    lineups: list[Sequence[str | Player]]
    if players and not isinstance(players[0], str) and isinstance(players[0], Sequence):
        lineups = [list(p) for p in players]  # type: ignore[arg-type]
    else:
        lineups = [list(players)]  # type: ignore[arg-type]
    names = list(grid)
    combos = list(itertools.product(*(list(grid[k]) for k in names)))
    if not combos:
        raise ConfigError("the sweep grid has an empty list of values")
    configs = []
    for values in combos:
        fields = dict(zip(names, values, strict=True))
        setup = fields.pop("setup", None)
        cfg = g.config(setup, **fields) if setup else g.config(None, **fields)
        configs.append((setup, cfg))
    tables = []
    runs = []
    i = 0
    for setup, cfg in configs:
        seats = n_seats(cfg)
        for lineup in lineups:
            # a one-player line-up fills every seat (so player counts can be swept)
            seated = list(lineup) * seats if len(lineup) == 1 else lineup
            folder = None if resume is None else Path(resume) / f"run-{i}"
            t = simulate(cfg, seated, n_games, seed, resume=folder, **kwargs)
            if setup is not None and "setup" not in t:  # a game whose config has no label
                t.insert(len(PROVENANCE), "setup", setup)
            runs.append(t.attrs["provenance"])
            tables.append(t)
            i += 1
    if resume is not None:
        with contextlib.suppress(OSError):
            Path(resume).rmdir()  # every run's chunks were cleared: drop the empty folder
    table = _tidy(pd.concat(tables, ignore_index=True))
    table.attrs["provenance"] = {
        "sweep": {k: [str(v) for v in grid[k]] for k in names},
        "runs": runs,
    }
    return table


def combine(tables: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """One table from several runs (e.g. a hand-picked list of rule sets, each simulated on its
    own), keeping every run's provenance so a stored table can be re-checked run by run."""
    if not tables:
        raise ConfigError("combine() needs at least one result table")
    runs: list[dict[str, Any]] = []
    for i, t in enumerate(tables):
        prov = t.attrs.get("provenance")
        if prov is None:
            raise ResultsError(f"table {i} has no provenance: not made by simulate() or sweep()")
        runs.extend(prov.get("runs", [prov]))
    table = _tidy(pd.concat(tables, ignore_index=True))
    table.attrs["provenance"] = {"runs": runs}
    return table
