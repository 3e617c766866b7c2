"""The entry points: :func:`simulate` (check every argument, then play the missing chunks
through an executor, keeping them in a resume folder or the cache), :func:`simulate_to`
(straight into a Parquet file, memory flat) and :func:`sweep` (every combination of rule values
on the same seeds); the progress bar and the cache.  :func:`simulate_summary` plays as
:func:`simulate` does, keeping only the summary columns, without pandas (the command line's run
that writes no table).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import random
import shutil
import warnings
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import BrokenExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from gamelib.core import (
    ConfigError,
    Game,
    GamelibError,
    GamelibWarning,
    OutputError,
    Player,
    check_seed,
)
from gamelib.records import check_edit, engine_for
from gamelib.registry import GAMES
from gamelib.sim import executors
from gamelib.sim.checks import (
    Names,
    check_columns,
    check_executor,
    check_folder,
    check_output_path,
    check_players,
    check_rotate_deals,
)
from gamelib.sim.chunks import (
    PROVENANCE,
    SUMMARY,
    ChunkJob,
    Summary,
    game_of,
    games_per_deal,
    n_seats,
    result_columns,
    run_spec,
)
from gamelib.sim.deals import RunCache, cache_root
from gamelib.sim.executors import run_chunks
from gamelib.sim.results import empty_table, slim, tidy
from gamelib.sim.store import DealRanges, PartStore, join_files, write_whole

if TYPE_CHECKING:  # pandas: imported once a table is made
    import pandas as pd


def _spans(todo: Sequence[tuple[int, int]], size: int) -> Iterator[tuple[int, int]]:
    """Cut the deal ranges still to play into chunks of at most ``size`` deals, lazily (a run
    of 10**12 games must not build its chunk list before the first game)."""
    for a, b in todo:
        for x in range(a, b, size):
            yield x, min(x + size, b)


def _n_spans(todo: Sequence[tuple[int, int]], size: int) -> int:
    return sum(-(-(b - a) // size) for a, b in todo)


class SimulationInterrupted(GamelibError):
    """A run stopped before its end (Ctrl-C, a killed worker); finished chunks were kept."""


def simulate(
    config: Any,
    players: Sequence[str | Player],
    n_games: int,
    seed: int,
    *,
    workers: int | None = None,
    executor: Any = None,
    rotate_seats: bool = False,
    rotate_deals: bool = False,
    progress: bool = True,
    chunk_size: int | None = None,
    records: str | os.PathLike[str] | None = None,
    resume: str | os.PathLike[str] | None = None,
    cache: bool | str | os.PathLike[str] = False,
    keep_resume: bool = False,
    engine: str = "auto",
    columns: Sequence[str] | None = None,
    edit: Any = None,
    _names: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    """Play ``n_games`` seeded deals (one game each; × seats with ``rotate_seats``, × seats
    again with ``rotate_deals``) and return one row per game.

    ``seed``: 0 ≤ seed < 2**128.  ``workers``: local processes (default: every core, for a run
    with enough work to pay for starting them — a small run plays in this process; 1 runs in
    this process; never more than the cores or the chunks of work).  ``executor``: a
    ``dask.distributed.Client``, a scheduler address (``"tcp://host:port"``) or any
    ``concurrent.futures.Executor``; the table is identical whichever runs it.  ``records``:
    a ``.jsonl`` path that receives every game's record, in game order (written whole at the
    end).  ``resume``: a folder where each finished chunk is kept, so an interrupted run
    started again with the same arguments plays only what is missing; it is emptied once the
    run is whole, unless ``keep_resume`` (then call :func:`~gamelib.sim.clear_resume` after
    using the table).  ``cache``: ``True`` (the study cache, ``$GAMELIB_CACHE`` or
    ``~/.cache/gamelib``) or a folder: the deals of this run that the cache or a stored study
    in ``data/results`` already holds are read, not played — a longer earlier run serves a
    shorter one, and a shorter one is extended by the missing deals only, which are kept there
    (:mod:`gamelib.sim.deals`).  ``columns``: the outcome columns to keep (as
    :func:`~gamelib.sim.slim`; a stored study slimmed to them can then serve the run).
    ``engine``: ``"auto"`` plays a line-up of built-in players with compiled versions in the
    game's compiled core and any other line-up through the reference engine; ``"python"``
    forces the reference engine (slower; built-in players then break ties with other random
    numbers, so their games differ); ``"compiled"`` refuses a line-up it cannot compile.
    ``rotate_deals``: play every rotation of each deal's hands (a seat-rotated deal: rotation
    ``r`` gives seat ``i`` the hand dealt to seat ``(i + r) mod n``, the rest of the deal as
    dealt; column ``deal_rotation``), so each hand starts once from each seat — for a game that
    deals its seats hands (``Game.rotate_deal``; Gargon), refused for one that does not.
    ``edit``: a deal edit (``Game.edit_deal``; Gargon's ``("value", v)`` or ``("colour", c)``)
    applied to every deal for the seat of the line-up's first player (with ``rotate_seats``,
    the seat it sits in each arrangement): the instrument of :mod:`gamelib.verdict.worth`; a run
    with an edit has its own key.  Every argument is checked before the first game.
    """
    run = _play(
        config, players, n_games, seed, "table", workers=workers, executor=executor,
        rotate_seats=rotate_seats, rotate_deals=rotate_deals, progress=progress,
        chunk_size=chunk_size, records=records, resume=resume, cache=cache,
        keep_resume=keep_resume, engine=engine, columns=columns, names=_names, edit=edit,
    )  # fmt: skip
    table = _table(run, config, players, n_games, rotate_deals, columns)
    if run.store is not None and not keep_resume:
        run.store.clear()
    return table


class _Played(NamedTuple):
    """A run played: its chunks in deal order (last deal + 1, rows, records file) and their
    deal ranges, where they are kept, its provenance and its games a deal."""

    ordered: list[tuple[int, Any, Path | None]]
    spans: list[tuple[int, int]]
    store: PartStore | None
    spec: dict[str, Any]
    per_game: int


def _table(
    run: _Played,
    config: Any,
    players: Sequence[str | Player],
    n_games: int,
    rotate_deals: bool,
    columns: Sequence[str] | None,
) -> pd.DataFrame:
    """The run's table: its chunks joined in deal order (slimmed to ``columns``), tidied."""
    import pandas as pd

    frames = [df for _, df, _ in run.ordered]
    if columns is not None:
        check_columns(list(frames[0].columns) if frames else [], columns)
        frames = [slim(df, columns) for df in frames]
    table = (
        tidy(pd.concat(frames, ignore_index=True))
        if frames and n_games
        else empty_table(config, players, rotate_deals)
    )
    if len(table) != n_games * run.per_game:  # pragma: no cover - a bug, not bad input
        raise AssertionError(f"{len(table)} rows for {n_games} deals × {run.per_game}")
    table.attrs["provenance"] = run.spec
    return table


def _play(
    config: Any,
    players: Sequence[str | Player],
    n_games: int,
    seed: int,
    keep: str,
    *,
    workers: int | None = None,
    executor: Any = None,
    rotate_seats: bool = False,
    rotate_deals: bool = False,
    progress: bool = True,
    chunk_size: int | None = None,
    records: str | os.PathLike[str] | None = None,
    resume: str | os.PathLike[str] | None = None,
    cache: bool | str | os.PathLike[str] = False,
    keep_resume: bool = False,
    engine: str = "auto",
    columns: Sequence[str] | None = None,
    names: Mapping[str, str] | None = None,
    edit: Any = None,
) -> _Played:
    """Check every argument, then play the run's missing chunks (see :func:`simulate`),
    keeping each whole (``keep="table"``), only its summary columns when they wait in the
    resume folder for :func:`simulate_to` (``"stream"``), or only its summary, without pandas
    (``"summary"``: no resume folder, cache or columns)."""
    name = Names(names)
    game = game_of(config)
    if not isinstance(n_games, int) or isinstance(n_games, bool) or n_games < 0:
        raise ConfigError(f"{name('n_games')} must be a whole number ≥ 0, got {n_games!r}")
    check_seed(seed, name("seed"))
    probe = game.new_state(config, random.Random(0))
    check_players(game, players, probe.n_players)
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
    check_rotate_deals(game, rotate_deals, name("rotate_deals"))
    try:
        edit = check_edit(game, edit, probe.n_players)
    except ConfigError as exc:
        raise ConfigError(str(exc).replace("edit", name("edit"), 1)) from None
    if edit is not None and rotate_deals:
        raise ConfigError(f"{name('edit')} and {name('rotate_deals')}: give one")
    check_executor(executor, name("executor"))
    records_path = (
        check_output_path(records, name("records"), ".jsonl") if records is not None else None
    )
    spec = run_spec(config, players, n_games, seed, rotate_seats, engine, rotate_deals, edit)
    if columns is not None:
        if isinstance(columns, str) or not isinstance(columns, Sequence):
            raise ConfigError(
                f"{name('columns')} must be a list of outcome columns, got {columns!r}"
            )
        columns = list(columns)
    per_game = games_per_deal(spec)
    deal_cache = (
        _deal_cache(cache, spec, per_game, name, columns, resume is not None or records is not None)
        if n_games > 0
        else None
    )
    store = PartStore(resume, spec, name("resume")) if resume is not None else None
    want_records = records_path is not None
    parts: dict[int, tuple[int, Any, Path | None]] = {}  # DataFrames (Summary: _summary)
    if store is not None:
        parts.update(store.load(n_games, per_game, seed, want_records))
    elif deal_cache is not None:
        parts.update({a: (b, df, None) for a, (b, df) in deal_cache.parts(n_games, seed).items()})
    # streaming (simulate_to): the chunks live in the resume folder, memory keeps only the
    # few columns of each that the summary needs
    streaming = keep == "stream" and store is not None
    if streaming:
        parts = {a: (b, _summary_columns(df), p) for a, (b, df, p) in parts.items()}
    todo = DealRanges.of(parts).missing(n_games)

    cores = workers or executors.default_workers()
    if executor is None and workers is not None and workers > executors.default_workers():
        cores = executors.default_workers()
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
            f"(this machine has {executors.default_workers()} cores and the run "
            f"{n_chunks} chunk(s) of work)",
            GamelibWarning,
            stacklevel=3,  # the caller of simulate (or simulate_summary, simulate_to)
        )

    # each chunk's records go straight to disk (memory stays flat); the file is joined at the
    # end.  Without a resume folder they wait next to the records file, where a killed run's
    # leftovers are found and removed by the next call.
    scratch = None
    if records_path is not None and store is None:
        scratch = records_path.with_name(f".{records_path.name}.parts")
        shutil.rmtree(scratch, ignore_errors=True)
        check_folder(scratch, name("records"))
    rec_dir = (store.folder if store is not None else scratch) if want_records else None
    if keep == "summary" and (store, deal_cache, columns) != (None, None, None):
        raise AssertionError("a summary run keeps no table")  # pragma: no cover - internal
    jobs = (
        ChunkJob(
            config,
            list(players),
            seed,
            a,
            b,
            rotate_seats,
            records=want_records,
            engine=engine,
            summary=keep == "summary",
            rotate_deals=rotate_deals,
            edit=edit,
        )
        for a, b in _spans(todo, chunk_size)
    )
    bar = _progress(n_games * per_game, progress, game.name)
    bar.update(sum(len(df) for _, df, _ in parts.values()))
    finished = False
    try:
        run = run_chunks(jobs, n_workers, executor, name("executor"), here_first=adaptive)
        for start, (df, recs) in run:
            stop = start + len(df) // per_game
            rec_path = None
            if rec_dir is not None:
                rec_path = rec_dir / f"part-{start}-{stop}.jsonl"
                write_whole(rec_path, recs)
            if store is not None:
                store.save(start, stop, df, want_records)
            elif deal_cache is not None:
                deal_cache.save(start, stop, df)
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
        join_files(records_path, [p for _, _, p in ordered if p is not None], name("records"))
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    return _Played(ordered, [(a, parts[a][0]) for a in sorted(parts)], store, spec, per_game)


def simulate_summary(
    config: Any,
    players: Sequence[str | Player],
    n_games: int,
    seed: int,
    **kwargs: Any,
) -> Summary:
    """:func:`simulate`, keeping of each game only the columns a summary needs (each seat's
    player, ``winner``, ``winner_player``, ``n_winners``, ``turns``: the values the table
    holds), as plain lists in table order, without importing pandas: the same games, for a
    caller that prints a summary and keeps no table (the command line's ``simulate`` without
    ``--out``).  Takes :func:`simulate`'s keywords but ``resume``, ``cache`` and ``columns``."""
    names = kwargs.pop("_names", None)
    run = _play(config, players, n_games, seed, "summary", names=names, **kwargs)
    summary = Summary.joined([df for _, df, _ in run.ordered])
    if len(summary) != n_games * run.per_game:  # pragma: no cover - a bug, not bad input
        raise AssertionError(f"{len(summary)} rows for {n_games} deals × {run.per_game}")
    return summary


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
    them one chunk at a time (``columns``: the outcome columns to keep, as
    :func:`~gamelib.sim.slim`).
    ``load(path)`` then gives exactly the table ``simulate`` returns (slimmed).  Returns the
    columns a summary needs (seats' players, ``winner``, ``winner_player``, ``n_winners``,
    ``turns``) for every game.  The command line's ``simulate --out`` runs this."""
    out = check_output_path(path, "out", ".parquet")
    if columns is not None:
        check_columns(result_columns(config, players, kwargs.get("rotate_deals", False)), columns)
    keep_resume = kwargs.pop("keep_resume", False)
    names = kwargs.pop("_names", None)
    run = _play(
        config, players, n_games, seed, "stream", resume=resume, keep_resume=keep_resume,
        names=names, **kwargs
    )  # fmt: skip
    assert run.store is not None  # a resume folder: the chunks wait there
    rows = _write_stream(out, run.store, run.spans, run.spec, columns)
    if rows != n_games * run.per_game:  # pragma: no cover - a bug, not bad input
        raise AssertionError(f"{rows} rows written for {n_games} deals × {run.per_game}")
    table = _table(run, config, players, n_games, kwargs.get("rotate_deals", False), None)
    if not keep_resume:
        run.store.clear()
    return table


def _summary_columns(df: pd.DataFrame) -> pd.DataFrame:
    return df[[c for c in df.columns if SUMMARY.fullmatch(c)]].copy()


def _write_stream(
    path: Path,
    store: PartStore,
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
            df, _ = store.read(store.folder / f"part-{a}-{b}.parquet")
            df = tidy(df)
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


def _deal_cache(
    cache: bool | str | os.PathLike[str],
    spec: dict[str, Any],
    per_game: int,
    name: Names,
    columns: Sequence[str] | None,
    other_store: bool,
) -> RunCache | None:
    """The run's entry in the study cache (None without ``cache``).  A run with a resume
    folder or records keeps its chunks there instead."""
    if cache is False:
        return None
    try:
        folder, what = cache_root(cache)
    except ConfigError as exc:
        raise ConfigError(str(exc).replace("cache", name("cache"), 1)) from None
    if other_store:
        return None
    return RunCache(spec, folder, per_game, what, need=columns)


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
            check_players(g, seated, seats)  # every line-up checked before the first game
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
    import pandas as pd

    table = tidy(pd.concat(tables, ignore_index=True))
    table.attrs["provenance"] = {
        "sweep": {k: [str(v) for v in grid[k]] for k in names},
        "runs": runs,
    }
    return table
