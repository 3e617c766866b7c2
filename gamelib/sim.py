"""simulate(): many seeded games on one core, all cores, or a Dask cluster, into a tidy table.

Game ``i`` of a run always gets the seed ``game_seeds(seed, n)[i]`` (a ``SeedSequence`` child),
so the table is the same whatever the number of workers or the executor, and the first k rows
of a long run are exactly a k-game run.  Work goes out in chunks of consecutive games; each
chunk derives its own seeds and comes back as a small DataFrame, so memory holds rows, never
game states, and a run of any length starts at once.

Every argument is checked before the first game (seed, players, paths, executor), and every
failure gamelib expects raises a :class:`~gamelib.core.GamelibError` subclass whose message
names the value and the fix.  Finished chunks kept in a ``resume`` folder survive every failure.
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
import re
import shutil
import threading
import time
import warnings
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import (
    FIRST_COMPLETED,
    BrokenExecutor,
    Executor,
    Future,
    ProcessPoolExecutor,
    wait,
)
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from gamelib.core import (
    ClusterError,
    ConfigError,
    Game,
    GamelibError,
    GamelibWarning,
    OutputError,
    Player,
    ResultsError,
    ResumeError,
    check_seed,
    config_to_json,
    game_seeds,
)
from gamelib.records import compiled_core, engine_for, from_compiled, play_game, write_records
from gamelib.registry import GAMES
from gamelib.version import __version__

__all__ = [
    "PROVENANCE",
    "ResultsError",
    "ResumeError",
    "SimulationInterrupted",
    "check_output_path",
    "clear_resume",
    "load",
    "run_chunk",
    "save",
    "simulate",
    "simulate_to",
    "slim",
    "sweep",
]

#: columns every table starts with, in this order (config fields and outcome columns follow)
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
) -> tuple[pd.DataFrame, list[dict[str, Any]]]:
    """Play deals ``start … stop-1`` of a run (seeds derived here); the unit of work a worker
    gets.  A line-up of built-in players with compiled versions plays in the game's compiled
    core, a whole chunk per call (see :func:`gamelib.records.engine_for`)."""
    game = game_of(config)
    n_seats = len(players)
    rotations = range(n_seats) if rotate_seats else range(1)
    names = [player_name(p) for p in players]
    fixed = {"game": game.name, "gamelib_version": __version__, **config_columns(config)}
    if engine_for(game, players, engine) == "compiled":
        return _compiled_chunk(game, config, names, seed, start, stop, rotations, records, fixed)
    rows = []
    recs: list[dict[str, Any]] = []
    index = start * len(rotations)
    for deal_offset, game_seed in enumerate(game_seeds(seed, stop - start, start)):
        deal = start + deal_offset
        for rotation in rotations:
            seated = seating(players, rotation)
            pg = play_game(game, config, seated, game_seed, record=records, engine="python")
            out = pg.outcome
            row = {
                **fixed,
                "game_index": index,
                "deal": deal,
                "rotation": rotation,
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
) -> tuple[pd.DataFrame, list[dict[str, Any]]]:
    """``run_chunk`` in compiled code: one batch per seat arrangement, rows in the order (and
    with the columns) the protocol path gives."""
    from gamelib.kernel_rng import seeds_for  # numba loads with the first compiled chunk

    core = compiled_core(game)
    seeds = seeds_for(seed, stop - start, start)
    n_deals, n_rot = len(seeds), len(rotations)
    frames = []
    batches = []
    for rotation in rotations:
        seated = seating(names, rotation)
        games = core.play_seeds(config, seated, seeds, record=records)
        batches.append((seated, games))
        out = pd.DataFrame(games.table)
        seats = [c for c in out.columns if c.startswith("score_")]
        df = pd.DataFrame(dict(fixed), index=range(n_deals))
        df["game_index"] = (start + np.arange(n_deals)) * n_rot + rotation
        df["deal"] = start + np.arange(n_deals)
        df["rotation"] = rotation
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
            for seated, games in batches:
                played = from_compiled(game, config, seated, games, g, record=True)
                assert played.record is not None
                recs.append(played.record)
    return table, recs


def result_columns(config: Any, players: Sequence[str | Player]) -> list[str]:
    """The columns a run of this config and line-up makes (from one game, not stored)."""
    return list(run_chunk(config, players, 0, 0, 1, False)[0].columns)


def _spans(todo: Sequence[tuple[int, int]], size: int) -> Iterator[tuple[int, int]]:
    """Cut the deal ranges still to play into chunks of at most ``size`` deals, lazily (a run
    of 10**12 games must not build its chunk list before the first game)."""
    for a, b in todo:
        for x in range(a, b, size):
            yield x, min(x + size, b)


def _n_spans(todo: Sequence[tuple[int, int]], size: int) -> int:
    return sum(-(-(b - a) // size) for a, b in todo)


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


class SimulationInterrupted(GamelibError):
    """A run stopped before its end (Ctrl-C, a killed worker); finished chunks were kept."""


def run_spec(
    config: Any,
    players: Sequence[str | Player],
    n_games: int,
    seed: int,
    rotate_seats: bool,
    engine: str = "compiled",
) -> dict[str, Any]:
    """Everything that fixes a run's table: its provenance (stored with saved tables).
    ``engine`` is the one that plays (``"compiled"`` or ``"python"``)."""
    spec = {
        "game": game_of(config).name,
        "gamelib_version": __version__,
        "config": config_to_json(config),
        "players": [player_name(p) for p in players],
        "n_games": n_games,
        "seed": seed,
        "rotate_seats": rotate_seats,
    }
    if engine == "python" and engine_for(game_of(config), players) == "compiled":
        spec["engine"] = "python"  # forced: other games than the default engine plays
    return spec


def run_key(spec: dict[str, Any]) -> str:
    """A short stable hash of a run's provenance (names cache files)."""
    text = json.dumps(spec, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def run_fingerprint(spec: dict[str, Any]) -> str:
    """What every chunk of a run carries: a hash of its game, version, config, players, seed
    and seat rotation (not its length: deal i is the same game in a run of any length)."""
    return run_key({k: v for k, v in spec.items() if k != "n_games"})


def default_cache_dir() -> Path:
    """Where ``cache=True`` keeps tables: ``$GAMELIB_CACHE`` or ``~/.cache/gamelib``."""
    return Path(os.environ.get("GAMELIB_CACHE", "~/.cache/gamelib")).expanduser()


# --- checking arguments before any work ----------------------------------------------------


class _Names:
    """How messages name a parameter: ``seed`` for Python callers, ``--seed`` on the CLI."""

    def __init__(self, names: Mapping[str, str] | None) -> None:
        self.names = dict(names or {})

    def __call__(self, param: str) -> str:
        return self.names.get(param, param)

    def give(self, param: str, value: str) -> str:
        """How to pass ``value``: ``resume=FOLDER`` or ``--resume FOLDER``."""
        return f"{self.names[param]} {value}" if param in self.names else f"{param}={value}"


def _probe_writable(folder: Path, what: str) -> None:
    """Create and remove a scratch file in ``folder``: the one honest test of writability."""
    try:
        fd, name = _mkstemp(folder)
    except OSError as exc:
        raise OutputError(
            f"{what}: cannot write in the folder {folder} ({exc.strerror or exc}); "
            "choose a folder you can write to"
        ) from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(name)


def _mkstemp(folder: Path) -> tuple[int, str]:
    import tempfile

    return tempfile.mkstemp(prefix=".gamelib-probe-", dir=folder)


def check_output_path(path: str | os.PathLike[str], what: str, suffix: str | None = None) -> Path:
    """A file path gamelib is about to write, checked before any work: ``suffix`` (if given),
    its folder exists and is writable, and it is not itself a folder.  ``what`` names the
    parameter or flag in the message (``--out``, ``records=``)."""
    if not isinstance(path, str | os.PathLike):
        raise OutputError(f"{what} must be a file path, got {path!r}")
    p = Path(path)
    if suffix is not None and p.suffix != suffix:
        raise OutputError(f"{what} {p}: expected a {suffix} file, e.g. {p.with_suffix(suffix)}")
    if p.is_dir():
        raise OutputError(
            f"{what} {p} is a folder; give a file name, e.g. {p / ('x' + (suffix or ''))}"
        )
    parent = p.parent
    if not parent.exists():
        above = next((a for a in parent.parents if a.exists()), None)
        if above is not None and not above.is_dir():
            raise OutputError(f"{what} {p}: {above} is a file, not a folder")
        raise OutputError(f"{what} {p}: the folder {parent} does not exist; create it first")
    if not parent.is_dir():
        raise OutputError(f"{what} {p}: {parent} is a file, not a folder")
    _probe_writable(parent, f"{what} {p}")
    return p


def _check_folder(path: str | os.PathLike[str], what: str) -> Path:
    """A folder gamelib keeps files in (created with its parents), checked to be writable."""
    if not isinstance(path, str | os.PathLike):
        raise OutputError(f"{what} must be a folder path, got {path!r}")
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise OutputError(f"{what} {p} is a file, not a folder; give a folder path")
    above = next((a for a in (p, *p.parents) if a.exists()), None)
    if above is not None and not above.is_dir():
        raise OutputError(f"{what} {p}: {above} is a file, not a folder")
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(
            f"{what} {p}: cannot create the folder ({exc.strerror or exc}); "
            "choose a folder you can write to"
        ) from None
    _probe_writable(p, f"{what} {p}")
    return p


_ADDRESS = re.compile(r"^(tcp|tls|ws|wss|inproc|ucx)://[^\s/:]+(:\d{1,5})?/?$|^[^\s/:]+:\d{1,5}$")


def check_scheduler_address(address: str, what: str = "executor") -> str:
    """A Dask scheduler address of the form ``tcp://HOST:PORT`` (or ``HOST:PORT``)."""
    if not _ADDRESS.match(address.strip()):
        raise ClusterError(
            f"{what} {address!r} is not a Dask scheduler address; expected tcp://HOST:PORT "
            "(e.g. tcp://127.0.0.1:8786)"
        )
    return address.strip()


def _connect(address: str, what: str) -> Any:
    """A Dask client on ``address``; an unreachable scheduler is one clear error."""
    try:
        from distributed import Client
    except ImportError:
        raise ClusterError(
            f"{what} needs the dask extra: pip install 'gamelib[dask]' (or drop {what})"
        ) from None
    try:
        return Client(address, timeout="5s")  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as exc:
        raise ClusterError(
            f"cannot reach the Dask scheduler at {address} given by {what} ({exc}); start it "
            "with `dask scheduler`, or check the address"
        ) from None


def _check_players(game: Game, players: Any, n_players: int) -> None:
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise ConfigError(f"players must be a list of player names (one per seat), got {players!r}")
    if len(players) != n_players:
        raise ConfigError(
            f"{game.name} needs {n_players} players, got {len(players)}: {list(players)}"
        )
    for p in players:
        if not isinstance(p, str) and not callable(p):
            raise ConfigError(f"a player is a name or a callable, got {p!r}")
        game.player(p)  # refuses unknown names before any work starts


# --- the run -------------------------------------------------------------------------------


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
    keep_resume: bool = False,
    engine: str = "auto",
    _names: Mapping[str, str] | None = None,
    _stream: tuple[Path, Sequence[str] | None] | None = None,
) -> pd.DataFrame:
    """Play ``n_games`` seeded games (× seats with ``rotate_seats``) and return one row per game.

    ``seed``: 0 ≤ seed < 2**128.  ``workers``: local processes (default: every core, for a run
    with enough work to pay for starting them — a small run plays in this process; 1 runs in
    this process; never more than the cores or the chunks of work).  ``executor``: a
    ``dask.distributed.Client``, a scheduler address (``"tcp://host:port"``) or any
    ``concurrent.futures.Executor``; the table is identical whichever runs it.  ``records``:
    a ``.jsonl`` path that receives every game's record, in game order (written whole at the
    end).  ``resume``: a folder where each finished chunk is kept, so an interrupted run
    started again with the same arguments plays only what is missing; it is emptied once the
    run is whole, unless ``keep_resume`` (then call :func:`clear_resume` after using the
    table).  ``cache``: ``True`` (or a folder) loads the table of an identical earlier run
    instead of playing it again.  ``engine``: ``"auto"`` plays a line-up of built-in players
    with compiled versions in the game's compiled core and any other line-up through the
    reference engine; ``"python"`` forces the reference engine (slower; built-in players then
    break ties with other random numbers, so their games differ); ``"compiled"`` refuses a
    line-up it cannot compile.  Every argument is checked before the first game.
    """
    name = _Names(_names)
    game = game_of(config)
    if not isinstance(n_games, int) or isinstance(n_games, bool) or n_games < 0:
        raise ConfigError(f"{name('n_games')} must be a whole number ≥ 0, got {n_games!r}")
    check_seed(seed, name("seed"))
    probe = game.new_state(config, random.Random(0))
    _check_players(game, players, probe.n_players)
    try:
        engine = engine_for(game, players, engine)
    except ConfigError as exc:
        raise ConfigError(str(exc).replace("engine", name("engine"), 1)) from None
    if workers is not None and (
        not isinstance(workers, int) or isinstance(workers, bool) or workers < 1
    ):
        raise ConfigError(f"{name('workers')} must be a positive whole number, got {workers!r}")
    if chunk_size is not None and (
        not isinstance(chunk_size, int) or isinstance(chunk_size, bool) or chunk_size < 1
    ):
        raise ConfigError(f"chunk_size must be a positive whole number, got {chunk_size!r}")
    for flag, value in (("rotate_seats", rotate_seats), ("keep_resume", keep_resume)):
        if not isinstance(value, bool):
            raise ConfigError(f"{name(flag)} must be True or False, got {value!r}")
    _check_executor(executor, name("executor"))
    records_path = (
        check_output_path(records, name("records"), ".jsonl") if records is not None else None
    )
    spec = run_spec(config, players, n_games, seed, rotate_seats, engine)
    cache_file = _cache_file(cache, game, spec, name) if n_games > 0 else None
    if cache_file is not None and records_path is None:
        cached = _load_cached(cache_file)
        if cached is not None:
            return cached
    store = _PartStore(resume, spec, name("resume")) if resume is not None else None
    want_records = records_path is not None
    per_game = len(players) if rotate_seats else 1
    parts: dict[int, tuple[int, pd.DataFrame, Path | None]] = {}
    if store is not None:
        parts.update(store.load(n_games, per_game, seed, want_records))
    # streaming (simulate_to): the chunks live in the resume folder, memory keeps only the
    # few columns of each that the summary needs
    streaming = _stream is not None and store is not None and cache_file is None
    if streaming:
        parts = {a: (b, _summary_columns(df), p) for a, (b, df, p) in parts.items()}
    todo = _missing(n_games, [(a, b) for a, (b, _, _) in parts.items()])

    cores = workers or default_workers()
    if executor is None and workers is not None and workers > default_workers():
        cores = default_workers()
    if chunk_size is None:
        share = -(-n_games // (8 * cores)) if n_games else 1
        # a compiled game costs ~0.1 ms, a worker process a second to start: compiled runs go
        # in chunks of 20,000 games (a small run stays in this process; memory per chunk is
        # the same for any n)
        chunk_size = 20_000 if engine == "compiled" else max(1, min(2000, share))
    n_chunks = _n_spans(todo, chunk_size)
    n_workers = max(1, min(cores, n_chunks))
    # a run through the reference engine comes in small chunks (at most 1/(8·cores) of it):
    # unless workers were asked for, it starts here and goes to workers only once its first
    # chunks show that the rest would take longer than starting them (a few games never do)
    adaptive = executor is None and workers is None and engine == "python"
    if executor is None and workers is not None and n_workers < workers and n_chunks:
        warnings.warn(
            f"{name('workers')} {workers}: using {n_workers} "
            f"(this machine has {default_workers()} cores and the run {n_chunks} chunk(s) "
            "of work)",
            GamelibWarning,
            stacklevel=2,
        )

    # each chunk's records go straight to disk (memory stays flat); the file is joined at the
    # end.  Without a resume folder they wait next to the records file, where a killed run's
    # leftovers are found and removed by the next call.
    scratch = None
    if records_path is not None and store is None:
        scratch = records_path.with_name(f".{records_path.name}.parts")
        shutil.rmtree(scratch, ignore_errors=True)
        _check_folder(scratch, name("records"))
    rec_dir = (store.folder if store is not None else scratch) if want_records else None
    jobs = (
        (config, list(players), seed, a, b, rotate_seats, want_records, engine)
        for a, b in _spans(todo, chunk_size)
    )
    bar = _progress(n_games * per_game, progress, game.name)
    bar.update(sum(len(df) for _, df, _ in parts.values()))
    finished = False
    try:
        run = _run(
            jobs, n_workers, executor, name("executor"), here_first=n_chunks if adaptive else 0
        )
        for start, (df, recs) in run:
            stop = start + len(df) // per_game
            rec_path = None
            if rec_dir is not None:
                rec_path = rec_dir / f"part-{start}-{stop}.jsonl"
                _write_whole(rec_path, recs)
            if store is not None:
                store.save(start, stop, df, want_records)
            parts[start] = (stop, _summary_columns(df) if streaming else df, rec_path)
            bar.update(len(df))
        finished = True
    except (KeyboardInterrupt, BrokenExecutor, OSError) as exc:
        done = sum(b - a for a, (b, _, _) in parts.items())
        kept = (
            f"{done} of {n_games} deals are kept in {store.folder}; run the same call again "
            "to resume"
            if store is not None
            else f"{done} of {n_games} deals had finished; pass {name.give('resume', 'FOLDER')}"
            " to keep finished chunks"
        )
        why = "interrupted" if isinstance(exc, KeyboardInterrupt) else _why(exc)
        raise SimulationInterrupted(f"simulation {why}: {kept}") from exc
    finally:
        bar.close()
        if not finished and scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    ordered = [parts[k] for k in sorted(parts)]
    if records_path is not None:
        _join_files(records_path, [p for _, _, p in ordered if p is not None], name("records"))
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    if streaming:
        assert _stream is not None and store is not None
        spans = [(a, parts[a][0]) for a in sorted(parts)]
        rows = _write_stream(_stream[0], store, spans, spec, _stream[1])
        if rows != n_games * per_game:  # pragma: no cover - a bug, not bad input
            raise AssertionError(f"{rows} rows written for {n_games} deals × {per_game}")
    frames = [df for _, df, _ in ordered]
    table = (
        _tidy(pd.concat(frames, ignore_index=True))
        if frames and n_games
        else _empty_table(config, players)
    )
    if len(table) != n_games * per_game:  # pragma: no cover - a bug, not bad input
        raise AssertionError(f"{len(table)} rows for {n_games} deals × {per_game}")
    table.attrs["provenance"] = spec
    if cache_file is not None:
        save(table, cache_file)
    if store is not None and not keep_resume:
        store.clear()
    return table


def simulate_to(
    path: str | os.PathLike[str],
    config: Any,
    players: Sequence[str | Player],
    n_games: int,
    seed: int,
    *,
    resume: str | os.PathLike[str],
    columns: Sequence[str] | None = None,
    **kwargs: Any,
) -> pd.DataFrame:
    """:func:`simulate` straight into a Parquet file, with memory that does not grow with the
    table: every finished chunk waits in the ``resume`` folder, and the file is written from
    them one chunk at a time (``columns``: the outcome columns to keep, as :func:`slim`).
    ``load(path)`` then gives exactly the table ``simulate`` returns (slimmed).  Returns the
    columns a summary needs (seats' players, ``winner``, ``winner_player``, ``n_winners``,
    ``turns``) for every game.  The command line's ``simulate --out`` runs this."""
    out = check_output_path(path, "out", ".parquet")
    if columns is not None:
        check_columns(result_columns(config, players), columns)
    return simulate(config, players, n_games, seed, resume=resume, _stream=(out, columns), **kwargs)


_SUMMARY = re.compile(r"player_\d+|winner|winner_player|n_winners|turns")


def _summary_columns(df: pd.DataFrame) -> pd.DataFrame:
    return df[[c for c in df.columns if _SUMMARY.fullmatch(c)]].copy()


def _write_stream(
    path: Path,
    store: _PartStore,
    spans: Sequence[tuple[int, int]],
    spec: dict[str, Any],
    columns: Sequence[str] | None,
) -> int:
    """Write the table from the kept chunks, in deal order, one chunk in memory at a time;
    returns the number of rows.  Each chunk is tidied as a whole table is (category columns
    are sorted again when loaded, so ``load`` gives ``simulate``'s table)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    tmp = path.with_name(path.name + ".partial")
    writer = None
    rows = 0
    try:
        for a, b in spans:
            df, _ = store._read(store.folder / f"part-{a}-{b}.parquet")
            df = _tidy(df)
            if columns is not None:
                df = slim(df, columns)
            if writer is None:
                df.attrs = {"provenance": spec, "gamelib_streamed": True}
                table = pa.Table.from_pandas(df, preserve_index=False)
                writer = pq.ParquetWriter(tmp, table.schema)
                schema = table.schema
            else:
                df.attrs = {}
                table = pa.Table.from_pandas(df, preserve_index=False).cast(schema)
            writer.write_table(table)
            rows += len(df)
        if writer is not None:
            writer.close()
            writer = None
            os.replace(tmp, path)
    except OSError as exc:
        raise OutputError(f"{path}: cannot write the table ({exc.strerror or exc})") from None
    finally:
        if writer is not None:
            writer.close()
        tmp.unlink(missing_ok=True)
    return rows


def _why(exc: BaseException) -> str:
    if isinstance(exc, BrokenExecutor):
        return "stopped: a worker process died (killed, or out of memory)"
    if isinstance(exc, OSError):
        return f"stopped: {exc.strerror or exc}" + (f" ({exc.filename})" if exc.filename else "")
    return f"stopped ({exc!r})"


def _check_executor(executor: Any, what: str) -> None:
    if executor is None or isinstance(executor, Executor):
        return
    if isinstance(executor, str):
        check_scheduler_address(executor, what)
        return
    if hasattr(executor, "scheduler_info") and hasattr(executor, "submit"):
        return
    raise ConfigError(
        f"{what} must be a dask Client, a scheduler address or an Executor, got {executor!r}"
    )


def _cache_file(
    cache: bool | str | os.PathLike[str], game: Game, spec: dict[str, Any], name: _Names
) -> Path | None:
    if cache is False:
        return None
    if cache is True:
        folder = default_cache_dir()
        what = "GAMELIB_CACHE" if "GAMELIB_CACHE" in os.environ else "the cache folder"
    elif isinstance(cache, str | os.PathLike):
        folder, what = Path(cache), name("cache")
    else:
        raise ConfigError(f"{name('cache')} must be True, False or a folder, got {cache!r}")
    return _check_folder(folder, what) / f"{game.name}-{run_key(spec)}.parquet"


def _load_cached(path: Path) -> pd.DataFrame | None:
    """A cached table, or None (absent; a damaged entry is played again and overwritten)."""
    if not path.exists():
        return None
    try:
        return load(path)
    except ResultsError as exc:
        warnings.warn(f"ignoring a damaged cache entry: {exc}", GamelibWarning, stacklevel=3)
        return None


def clear_resume(folder: str | os.PathLike[str]) -> None:
    """Remove what simulate/sweep kept in a resume folder (run.json, part-*, run-*/), and the
    folder once empty; other files are left alone."""
    folder = Path(folder)
    if not folder.is_dir():
        return
    for path in folder.glob("part-*"):
        path.unlink(missing_ok=True)
    for sub in folder.glob("run-*"):
        if sub.is_dir():
            clear_resume(sub)
    (folder / "run.json").unlink(missing_ok=True)
    with contextlib.suppress(OSError):
        folder.rmdir()


def slim(table: pd.DataFrame, columns: Sequence[str]) -> pd.DataFrame:
    """Keep the provenance columns (game, config fields, seats, seeds) and only ``columns`` of
    the outcome, so a large stored study stays small; the provenance attrs are kept."""
    check_columns(list(table.columns), columns)
    outcome_start = list(table.columns).index("winner") if "winner" in table else len(table)
    # a sweep over player counts appends the larger line-ups' seats (player_3, …) at the end
    keep = [c for c in table.columns[:outcome_start]] + [
        c for c in table.columns[outcome_start:] if c in columns or re.fullmatch(r"player_\d+", c)
    ]
    out = table[keep].copy()
    out.attrs = table.attrs
    return out


def check_columns(known: Sequence[str], columns: Sequence[str], what: str = "columns") -> None:
    """Refuse result columns a table does not have, naming them and the ones it has."""
    unknown = [c for c in columns if c not in known]
    if unknown:
        outcome = list(known)[list(known).index("winner") :] if "winner" in known else known
        raise ConfigError(
            f"{what}: no such result column(s) {', '.join(unknown)}; "
            f"outcome columns are: {', '.join(outcome)}"
        )


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


def _join_files(path: Path, pieces: Sequence[Path], what: str) -> None:
    """Concatenate chunk files in order under a temporary name, then rename: never a half-file."""
    tmp = path.with_name(path.name + ".partial")
    try:
        with tmp.open("wb") as out:
            for piece in pieces:
                with piece.open("rb") as src:
                    shutil.copyfileobj(src, out)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise OutputError(
            f"{what} {path}: cannot write the records ({exc.strerror or exc})"
        ) from exc


def _write_whole(path: Path, records: Sequence[dict[str, Any]]) -> None:
    """Write a records file under a temporary name and rename it: never a half-file."""
    tmp = path.with_name(path.name + ".partial")
    tmp.unlink(missing_ok=True)
    write_records(tmp, records)
    os.replace(tmp, path)


_PART = re.compile(r"^part-(\d+)-(\d+)\.(parquet|jsonl)$")


class _PartStore:
    """A folder of finished chunks and the run they belong to.

    ``run.json`` holds the run's provenance.  Each chunk is ``part-A-B.parquet`` (deals
    A … B-1), whose metadata say what it holds: the run fingerprint, the deal range, its row
    count and whether its records were kept (then ``part-A-B.jsonl`` holds them, one line per
    row).  Everything is checked on load; a chunk that does not hold exactly what it claims is
    named and refused, never merged.
    """

    def __init__(self, folder: str | os.PathLike[str], spec: dict[str, Any], what: str) -> None:
        self.what = what
        self.folder = _check_folder(folder, what)
        self.fingerprint = run_fingerprint(spec)
        manifest = self.folder / "run.json"
        if manifest.exists():
            try:
                old = json.loads(manifest.read_text(encoding="utf-8"))
                if not isinstance(old, dict):
                    raise ValueError("not a JSON object")
            except (OSError, ValueError) as exc:
                raise ResumeError(
                    f"{manifest} is not a gamelib run manifest ({exc}); "
                    f"use another {what} folder or delete this one"
                ) from None
            if old != spec:
                raise ResumeError(
                    f"{what} {self.folder} holds the chunks of a different run "
                    f"({old.get('game')}, {old.get('n_games')} games, seed {old.get('seed')}); "
                    "use another resume folder or delete it"
                )
        else:
            _atomic_write_text(manifest, json.dumps(spec, sort_keys=True, indent=1))
        for leftover in self.folder.glob("*.partial"):  # a killed run's half-written file
            leftover.unlink(missing_ok=True)

    def load(
        self, n_games: int, per_game: int, seed: int, want_records: bool
    ) -> dict[int, tuple[int, pd.DataFrame, Path | None]]:
        """The verified chunks; chunks without the records now wanted are dropped (their deals
        are played again, records and all: play is deterministic)."""
        found: dict[int, tuple[int, pd.DataFrame, Path | None]] = {}
        ranges: list[tuple[int, int, Path]] = []
        for path in sorted(self.folder.glob("part-*")):
            m = _PART.match(path.name)
            if m is None:
                raise ResumeError(self._bad(path, "is not a chunk gamelib wrote"))
            if m.group(3) == "jsonl":
                if not path.with_suffix(".parquet").exists():
                    path.unlink()  # records whose table never landed: played again
                continue
            a, b = int(m.group(1)), int(m.group(2))
            if not a < b <= n_games:
                raise ResumeError(
                    self._bad(path, f"names deals {a}–{b - 1} of a {n_games}-deal run")
                )
            df, meta = self._read(path)
            rows = (b - a) * per_game
            if meta.get("fingerprint") != self.fingerprint:
                raise ResumeError(
                    self._bad(path, "belongs to another run (its fingerprint differs)")
                )
            if (meta.get("start"), meta.get("stop"), meta.get("rows")) != (a, b, rows):
                raise ResumeError(
                    self._bad(
                        path,
                        f"says it holds deals {meta.get('start')}–{meta.get('stop')} in "
                        f"{meta.get('rows')} rows, its name deals {a}–{b - 1} in {rows}",
                    )
                )
            if len(df) != rows:
                raise ResumeError(self._bad(path, f"holds {len(df)} rows, not {rows} (short)"))
            expected = [s for s in game_seeds(seed, b - a, a) for _ in range(per_game)]
            if (
                "deal" not in df
                or "seed" not in df
                or df["deal"].tolist() != [d for d in range(a, b) for _ in range(per_game)]
                or df["seed"].tolist() != expected
            ):
                raise ResumeError(self._bad(path, f"does not hold deals {a}–{b - 1} of this run"))
            ranges.append((a, b, path))
            rec_path = path.with_suffix(".jsonl")
            if want_records:
                if not meta.get("records") or not rec_path.exists():
                    path.unlink()  # no records kept: these deals are played again with them
                    rec_path.unlink(missing_ok=True)
                    continue
                self._check_records(rec_path, expected)
            found[a] = (b, df, rec_path if want_records else None)
        ranges.sort()
        for (_, b1, p1), (a2, _, p2) in itertools.pairwise(ranges):
            if a2 < b1:
                raise ResumeError(
                    f"{p1} and {p2} overlap: {self.folder} mixes chunks of different layouts; "
                    "delete one of them"
                )
        return found

    def _bad(self, path: Path, why: str) -> str:
        return (
            f"{self.what} chunk {path} {why}; delete that file to play its deals again "
            f"(or delete the folder {self.folder})"
        )

    def _read(self, path: Path) -> tuple[pd.DataFrame, dict[str, Any]]:
        try:
            df = pd.read_parquet(path)
        except Exception as exc:  # pyarrow raises several types for a damaged file
            reason = "is empty" if path.stat().st_size == 0 else f"is not readable ({exc})"
            raise ResumeError(self._bad(path, reason)) from None
        meta = df.attrs.get("gamelib_chunk")
        if not isinstance(meta, dict):
            raise ResumeError(self._bad(path, "carries no gamelib chunk metadata"))
        df.attrs = {}
        return df, meta

    def _check_records(self, path: Path, seeds: Sequence[int]) -> None:
        """One record per row, in order, each for the row's seed."""
        try:
            with path.open(encoding="utf-8") as fh:
                got = [json.loads(line).get("seed") for line in fh if line.strip()]
        except (OSError, ValueError, AttributeError) as exc:
            raise ResumeError(self._bad(path, f"is not a readable records file ({exc})")) from None
        if got != list(seeds):
            raise ResumeError(
                self._bad(path, f"holds {len(got)} records, not the {len(seeds)} of its chunk")
            )

    def save(self, a: int, b: int, df: pd.DataFrame, records: bool) -> None:
        """Keep one finished chunk, written under a temporary name and renamed (never half)."""
        path = self.folder / f"part-{a}-{b}.parquet"
        tmp = path.with_name(path.name + ".partial")
        out = df.copy(deep=False)
        out.attrs = {
            "gamelib_chunk": {
                "fingerprint": self.fingerprint,
                "start": a,
                "stop": b,
                "rows": len(df),
                "records": records,
            }
        }
        out.to_parquet(tmp)
        os.replace(tmp, path)

    def clear(self) -> None:
        """Remove the chunks and the manifest (the run is whole)."""
        clear_resume(self.folder)


def _atomic_write_text(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".partial")
    tmp.write_text(text, encoding="utf-8")
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
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{path}: cannot create its folder ({exc.strerror or exc})") from None
    if path.is_dir():
        raise OutputError(f"{path} is a folder; give a file name for the table")
    tmp = path.with_name(path.name + ".partial")
    try:
        table.to_parquet(tmp)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise OutputError(f"{path}: cannot write the table ({exc.strerror or exc})") from None
    return path


def load(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Load a saved result table; its provenance is in ``table.attrs["provenance"]``."""
    path = Path(path)
    if not path.exists():
        raise ResultsError(f"{path}: no such result table")
    if path.is_dir():
        raise ResultsError(f"{path} is a folder, not a result table")
    try:
        table = pd.read_parquet(path)
    except Exception as exc:  # pyarrow raises several types for a damaged file
        raise ResultsError(f"{path} is not a readable result table: {exc}") from exc
    if "provenance" not in table.attrs:
        raise ResultsError(f"{path} has no gamelib provenance: not saved by gamelib.sim.save")
    streamed = table.attrs.pop("gamelib_streamed", False)
    for col in table.columns if streamed else []:
        # written chunk by chunk (simulate_to): categories come as they came, not sorted
        if isinstance(table[col].dtype, pd.CategoricalDtype):
            cats = table[col].cat.categories
            if list(cats) != sorted(cats):
                table[col] = table[col].cat.reorder_categories(sorted(cats))
    return table


# --- executors -----------------------------------------------------------------------------

Job = tuple[Any, ...]
Done = tuple[int, tuple[pd.DataFrame, list[dict[str, Any]]]]


#: about what starting local worker processes costs, in seconds (spawning Python, importing
#: gamelib, pandas and numba, loading the compiled core: 1–2 s on a 2-core machine)
WORKER_START_SECONDS = 2.0


def _run(
    jobs: Iterator[Job], n_workers: int, executor: Any, what: str, here_first: int = 0
) -> Iterator[Done]:
    """Run chunks, yielding (chunk start, result) as they finish.  ``here_first``: the number of
    chunks, when they may start in this process and go to workers only if the rest would take
    longer than starting them (:data:`WORKER_START_SECONDS`)."""
    if executor is None or isinstance(executor, Executor):
        jobs = _note_if_cold(jobs)
    if executor is None and n_workers > 1 and here_first:
        t0 = time.perf_counter()
        for done, job in enumerate(jobs, 1):
            yield job[3], run_chunk(*job)
            left = here_first - done
            rest = left * (time.perf_counter() - t0) / done
            if left > 1 and rest * (1 - 1 / min(n_workers, left)) > WORKER_START_SECONDS:
                yield from _run(jobs, min(n_workers, left), None, what)
                return
        return
    if executor is None and n_workers == 1:
        for job in jobs:
            yield job[3], run_chunk(*job)
        return
    if executor is None:
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(
            max_workers=n_workers,
            mp_context=ctx,
            initializer=_exit_with_parent,
            initargs=(os.getpid(),),
        ) as pool:
            yield from _run_on(pool, jobs, 2 * n_workers)
        return
    if isinstance(executor, str):
        client = _connect(executor, what)
        with client:
            yield from _run_on_dask(client, jobs)
        return
    if isinstance(executor, Executor):
        yield from _run_on(executor, jobs, 2 * max(n_workers, default_workers()))
        return
    yield from _run_on_dask(executor, jobs)


def _note_if_cold(jobs: Iterator[Job]) -> Iterator[Job]:
    """The jobs, after a one-line note (:func:`gamelib.warm.note_if_cold`) when the first one
    is about to compile its game's engine: numba would otherwise work for a minute silently."""
    first = next(jobs, None)
    if first is None:
        return
    from gamelib.warm import note_if_cold

    config, players, engine = first[0], first[1], first[7]
    game = game_of(config)
    note_if_cold(game.name, players, engine_for(game, players, engine))
    yield first
    yield from jobs


def _exit_with_parent(parent: int) -> None:
    """In each local worker: exit as soon as the process that started it is gone.

    A worker blocked waiting for work never notices that the main process was killed
    (SIGKILL, an OOM kill, a closed terminal), so a watcher thread checks the parent id twice
    a second and ends the worker; the resource tracker then sees its last user leave and
    exits too.  Nothing is lost: a chunk is kept only once the main process has it.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(3)

    threading.Thread(target=watch, name="gamelib-parent-watch", daemon=True).start()


def _run_on(pool: Executor, jobs: Iterator[Job], window: int) -> Iterator[Done]:
    """A few chunks in flight at a time (never the whole run queued), yielded as they end."""
    pending: dict[Future[Any], int] = {}

    def submit(n: int) -> None:
        for job in itertools.islice(jobs, n):
            pending[pool.submit(run_chunk, *job)] = job[3]

    try:
        submit(window)
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                start = pending.pop(fut)
                result = fut.result()
                submit(1)
                yield start, result
    finally:  # on an error or Ctrl-C, do not wait for chunks that have not started
        for fut in pending:
            fut.cancel()


def _run_on_dask(client: Any, jobs: Iterator[Job]) -> Iterator[Done]:
    from distributed import as_completed as dask_completed

    window = 2 * max(1, len(client.scheduler_info().get("workers", {})))
    futures: dict[str, int] = {}
    live: list[Any] = []

    def submit(n: int, into: Any) -> None:
        for job in itertools.islice(jobs, n):
            fut = client.submit(run_chunk, *job, pure=False)
            futures[fut.key] = job[3]
            live.append(fut)
            into.add(fut)

    queue = dask_completed([])  # type: ignore[no-untyped-call]
    try:
        submit(window, queue)
        for fut in queue:
            result = fut.result()
            submit(1, queue)
            yield futures.pop(fut.key), result
    finally:
        client.cancel(live)


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
    if isinstance(game, str):
        if game not in GAMES:
            raise ConfigError(f"unknown game {game!r}; known games: {', '.join(GAMES)}")
        g = GAMES[game]
    else:
        g = game
    if not isinstance(grid, Mapping):
        raise ConfigError(f"grid must map setup and/or config fields to lists, got {grid!r}")
    for k, v in grid.items():
        if isinstance(v, str) or not isinstance(v, Sequence):
            raise ConfigError(f"grid[{k!r}] must be a list of values to try, got {v!r}")
    check_seed(seed)
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
    plan = []
    for setup, cfg in configs:
        seats = n_seats(cfg)
        for lineup in lineups:
            # a one-player line-up fills every seat (so player counts can be swept)
            seated = list(lineup) * seats if len(lineup) == 1 else lineup
            _check_players(g, seated, seats)  # every line-up checked before the first game
            plan.append((setup, cfg, seated))
    tables = []
    runs = []
    for i, (setup, cfg, seated) in enumerate(plan):
        folder = None if resume is None else Path(resume) / f"run-{i}"
        t = simulate(cfg, seated, n_games, seed, resume=folder, **kwargs)
        if setup is not None and "setup" not in t:  # a game whose config has no label
            t.insert(len(PROVENANCE), "setup", setup)
        runs.append(t.attrs["provenance"])
        tables.append(t)
    if resume is not None and not kwargs.get("keep_resume", False):
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
