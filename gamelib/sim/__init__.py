"""simulate(): many seeded games on one core, all cores, or a Dask cluster, into a tidy table.

Game ``i`` of a run always gets the seed ``game_seeds(seed, n)[i]`` (a ``SeedSequence`` child),
so the table is the same whatever the number of workers or the executor, and the first k rows
of a long run are exactly a k-game run.  Work goes out in chunks of consecutive games; each
chunk derives its own seeds and comes back as a small DataFrame, so memory holds rows, never
game states, and a run of any length starts at once.

Every argument is checked before the first game (seed, players, paths, executor), and every
failure gamelib expects raises a :class:`~gamelib.core.GamelibError` subclass whose message
names the value and the fix.  Finished chunks kept in a ``resume`` folder survive every failure.

The package has six rooms, each importing only the ones listed before it:

- :mod:`gamelib.sim.checks` — checking arguments before any work (paths, executors, columns);
- :mod:`gamelib.sim.chunks` — one chunk of games into rows (or only its summary columns), a
  table's columns, a run's spec;
- :mod:`gamelib.sim.results` — the results table: save, load, slim, combine, ``results_dir``;
- :mod:`gamelib.sim.store` — the resume folder of finished chunks;
- :mod:`gamelib.sim.executors` — where chunks run (in process, worker processes, Dask);
- :mod:`gamelib.sim.run` — the entry points :func:`simulate`, :func:`simulate_to`, :func:`sweep`
  and :func:`simulate_summary`.

pandas is imported once a table is made: :func:`simulate_summary` plays the same games into the
few columns a summary needs, as plain lists (what ``gamelib simulate`` prints when it writes no
table).

Every name is importable from :mod:`gamelib.sim` as before the split.  To change what a run
does in a test, patch the room that uses a name (``gamelib.sim.chunks.run_chunk``,
``gamelib.sim.executors.default_workers``, ``.ProcessPoolExecutor``, ``.WORKER_START_SECONDS``):
the rooms never import this package's top, so names bound here are copies.
"""

from __future__ import annotations

from gamelib.core import ResultsError, ResumeError
from gamelib.sim.checks import (
    check_columns,
    check_output_path,
    check_scheduler_address,
)
from gamelib.sim.chunks import (
    PROVENANCE,
    Summary,
    config_columns,
    game_of,
    games_per_deal,
    n_seats,
    player_name,
    result_columns,
    run_chunk,
    run_fingerprint,
    run_key,
    run_spec,
    seating,
)
from gamelib.sim.deals import cache_size, clear_cache, default_cache_dir
from gamelib.sim.executors import (
    WORKER_START_SECONDS,
    default_workers,
)
from gamelib.sim.results import combine, load, results_dir, save, slim
from gamelib.sim.run import (
    SimulationInterrupted,
    simulate,
    simulate_summary,
    simulate_to,
    sweep,
)
from gamelib.sim.store import clear_resume

__all__ = [
    "PROVENANCE",
    "WORKER_START_SECONDS",
    "ResultsError",
    "ResumeError",
    "SimulationInterrupted",
    "Summary",
    "cache_size",
    "check_columns",
    "check_output_path",
    "check_scheduler_address",
    "clear_cache",
    "clear_resume",
    "combine",
    "config_columns",
    "default_cache_dir",
    "default_workers",
    "game_of",
    "games_per_deal",
    "load",
    "n_seats",
    "player_name",
    "result_columns",
    "results_dir",
    "run_chunk",
    "run_fingerprint",
    "run_key",
    "run_spec",
    "save",
    "seating",
    "simulate",
    "simulate_summary",
    "simulate_to",
    "slim",
    "sweep",
]
