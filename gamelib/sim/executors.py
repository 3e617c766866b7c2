"""Where chunks run: in this process, in local worker processes (started only when the rest
of the run would take longer than starting them), on any ``concurrent.futures.Executor`` or on
a Dask cluster; the workers' start-up (exit with the parent) and the cold-cache note.

A run looks up ``chunks.run_chunk`` and this module's ``default_workers``,
``ProcessPoolExecutor``, ``WORKER_START_SECONDS`` and ``WORKER_HANDOFF_SECONDS`` when it
starts, so patching them on :mod:`gamelib.sim.chunks` and :mod:`gamelib.sim.executors`
changes what runs (the start-up tests do).
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from typing import Any

from gamelib.core import ClusterError
from gamelib.records import engine_for
from gamelib.sim import chunks


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


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


Job = chunks.ChunkJob
#: a finished chunk: its first deal, its rows (a DataFrame, or a chunks.Summary) and records
Done = tuple[int, tuple[Any, list[dict[str, Any]]]]


#: about what starting local worker processes costs, in seconds (spawning Python, importing
#: gamelib, pandas and numba, loading the compiled core: 1–2 s on a 2-core machine)
WORKER_START_SECONDS = 2.0
#: about what handing a batch to workers already started costs, in seconds (pickling the jobs
#: and the tables back, waiting for the slowest worker)
WORKER_HANDOFF_SECONDS = 0.5


class Timing:
    """The seconds a deal of one run took in this process (0.0 until some were played here)."""

    def __init__(self) -> None:
        self.seconds_per_deal = 0.0


#: the warning filter handed to multiprocessing's resource tracker (it takes the interpreter's
#: -W options): after the main process is killed, the tracker unlinks the pool's semaphores
#: itself and has nothing to tell the user, yet would print "There appear to be N leaked
#: semaphore objects" into the next command's terminal
_TRACKER_QUIET = "ignore:resource_tracker:UserWarning"


def quiet_resource_tracker() -> None:
    """Start worker pools with the resource tracker's leaked-semaphore note silenced (only
    that note: the tracker still cleans up)."""
    if _TRACKER_QUIET not in sys.warnoptions:
        sys.warnoptions.append(_TRACKER_QUIET)


def local_pool(n_workers: int) -> ProcessPoolExecutor:
    """Local worker processes, the one way gamelib starts them: spawned (never forked: a
    forked numba or thread state is not safe), each exiting with this process, the resource
    tracker's leaked-semaphore note silenced."""
    quiet_resource_tracker()
    return ProcessPoolExecutor(
        max_workers=n_workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_exit_with_parent,
        initargs=(os.getpid(),),
    )


class LazyPool:
    """Local worker processes kept across a run's batches (a verdict's looks, a ladder's
    pairings), started only when first asked for."""

    def __init__(self, n_workers: int) -> None:
        self.n_workers = n_workers
        self.pool: ProcessPoolExecutor | None = None

    @property
    def started(self) -> bool:
        return self.pool is not None

    def get(self) -> ProcessPoolExecutor:
        if self.pool is None:
            self.pool = local_pool(self.n_workers)
        return self.pool

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=wait, cancel_futures=cancel_futures)


def worth_workers(seconds: float, n_workers: int, pool: LazyPool | None = None) -> bool:
    """The one rule for where local chunks play: on ``n_workers`` workers when the work left,
    ``seconds`` of it in this process, would end sooner there by more than what they cost
    (starting them, :data:`WORKER_START_SECONDS`, or, for a ``pool`` already started, handing
    them the batch, :data:`WORKER_HANDOFF_SECONDS`); otherwise in this process."""
    cost = WORKER_HANDOFF_SECONDS if pool is not None and pool.started else WORKER_START_SECONDS
    return n_workers > 1 and seconds * (1 - 1 / n_workers) > cost


def run_chunks(
    jobs: Iterator[Job],
    n_workers: int,
    executor: Any,
    what: str,
    here_first: bool = False,
    pool: LazyPool | None = None,
    timing: Timing | None = None,
) -> Iterator[Done]:
    """Run chunks, yielding (chunk start, result) as they finish: the one runner of gamelib.

    With ``executor`` (a ``concurrent.futures.Executor``, a Dask client or a scheduler
    address) every chunk goes there; with one worker all play in this process.  Otherwise,
    with ``here_first``, chunks play in this process, timed (into ``timing``), until
    :func:`worth_workers` says the rest would end sooner on the workers (from the second chunk
    on: the first may pay the engine's compile or cache load); without it, all go to the
    workers.  The workers are ``pool`` (kept across calls: a verdict's looks) or, without one,
    local workers started here for this call.  Deal *i* is the same game wherever it plays."""
    if executor is None or isinstance(executor, Executor):
        jobs = _note_if_cold(jobs)
    timing = timing or Timing()
    if executor is None and n_workers == 1:
        yield from _here(jobs, timing)
        return
    if executor is None and here_first:
        left, played = list(jobs), 0
        while left:
            job = left.pop(0)
            yield from _here(iter([job]), timing)
            played += 1
            rest = timing.seconds_per_deal * sum(j.stop - j.start for j in left)
            if played > 1 and worth_workers(rest, min(n_workers, len(left)), pool):
                break
        if not left:
            return
        jobs, n_workers = iter(left), min(n_workers, len(left))
    if executor is None and pool is not None:
        yield from _run_on(pool.get(), jobs, 2 * pool.n_workers)
        return
    if executor is None:
        with local_pool(n_workers) as workers:
            yield from _run_on(workers, jobs, 2 * n_workers)
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


def _here(jobs: Iterator[Job], timing: Timing) -> Iterator[Done]:
    """Every chunk in this process, each timed into ``timing``."""
    for job in jobs:
        t0 = time.perf_counter()
        yield job.start, run_here(job)
        seconds = (time.perf_counter() - t0) / max(1, job.stop - job.start)
        timing.seconds_per_deal = seconds


def run_here(job: Job) -> tuple[Any, list[dict[str, Any]]]:
    """One chunk in this process; Ctrl-C during it is a ``KeyboardInterrupt``.

    Python runs the SIGINT handler between bytecodes; a compiled kernel runs none, so the
    handler's ``KeyboardInterrupt`` is only raised when the kernel returns, and CPython then
    reports the call as ``SystemError: … returned a result with an exception set`` (the
    interrupt at the end of its chain of causes, one SystemError per compiled frame it
    crossed).  That is the interrupt, and is raised as one, so every path (one process, a
    pool, a notebook cell) ends the same way and keeps its finished chunks."""
    try:
        return chunks.run_chunk(*job)
    except SystemError as exc:
        cause: BaseException | None = exc
        while isinstance(cause, SystemError):  # one per compiled frame the interrupt crossed
            cause = cause.__cause__ or cause.__context__
        if isinstance(cause, KeyboardInterrupt):
            raise KeyboardInterrupt from None
        raise


def _note_if_cold(jobs: Iterator[Job]) -> Iterator[Job]:
    """The jobs, after a one-line note (:func:`gamelib.warm.note_if_cold`) when the first one
    is about to compile its game's engine: numba would otherwise work for a minute silently."""
    first = next(jobs, None)
    if first is None:
        return
    from gamelib.warm import note_if_cold

    config, players, engine = first.config, first.players, first.engine
    game = chunks.game_of(config)
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
            pending[pool.submit(chunks.run_chunk, *job)] = job.start

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
            fut = client.submit(chunks.run_chunk, *job, pure=False)
            futures[fut.key] = job.start
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
