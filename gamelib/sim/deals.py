"""The study cache: every deal a run has played, kept under the run's fingerprint, so the same
run asked for again — with as many deals, fewer, or more — plays only the deals it lacks.

A *run* is everything that fixes its games except their number: the game, gamelib's version
(the version of play), the rule fields, the line-up, the seed, the seat and deal rotations and
a forced engine (:func:`~gamelib.sim.run_fingerprint`).  Deal *i* of a run is the same game whatever
its length (seeds are per deal), so a run of 1,000 deals is the first 1,000 deals of any longer
one: a request for *n* deals is served from any stored run of the same fingerprint and plays
deals *k … n−1* when only *k* are stored.

Two tiers are searched, in this order:

1. **the writable cache** — ``$GAMELIB_CACHE`` or ``~/.cache/gamelib`` (or the folder given
   as ``cache=``): ``deals/<game>/<fingerprint>/`` holds the run's manifest and its finished
   chunks (``part-A-B.parquet``, every outcome column), each written under a temporary name and
   renamed, so a killed run keeps every finished chunk and never a half-file;
2. **the stored studies** — every table in ``data/results/`` whose provenance names its runs
   (read only; a table may be slimmed to a few columns, and then serves the requests that
   need no other).

Why not joblib.Memory or DVC's run-cache: both key a *whole call* by its arguments, so a
request for 2,000 deals would miss the stored 1,000 and play them again.  This cache keys by the
run and indexes by deal range, which is what a prefix, an extension, a sweep's missing cells and
a sequential verdict's next batch need; the key (a SHA-256 of the run's JSON spec, gamelib's
version included) is :func:`~gamelib.sim.run_fingerprint`.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gamelib.core import ResultsError
from gamelib.sim.chunks import PROVENANCE, games_per_deal, run_fingerprint
from gamelib.sim.results import results_dir
from gamelib.sim.store import DealRanges, PartStore

if TYPE_CHECKING:  # pandas: imported by the functions that use it
    import pandas as pd

#: outcome columns every request needs from a stored (read-only) run, whatever it asks
ALWAYS = ("winner", "n_winners", "reason", "turns")
#: columns a stored table adds to a run's rows (a ladder's labels; a sweep's ``setup`` too,
#: where the rules have no such field), dropped when its rows serve a request
STORED_EXTRAS = ("matchup", "pairing", "level_a", "level_b")


def default_cache_dir() -> Path:
    """Where the study cache lives: ``$GAMELIB_CACHE`` or ``~/.cache/gamelib``."""
    return Path(os.environ.get("GAMELIB_CACHE", "~/.cache/gamelib")).expanduser()


def cache_root(cache: bool | str | os.PathLike[str]) -> tuple[Path, str]:
    """The study cache folder a ``cache=`` argument names (``True``: the default one), checked
    to be writable, and how to name it in a message."""
    from gamelib.core import ConfigError
    from gamelib.sim.checks import check_folder

    if cache is True:
        folder = default_cache_dir()
        what = "GAMELIB_CACHE" if "GAMELIB_CACHE" in os.environ else "the cache folder"
    elif isinstance(cache, str | os.PathLike) and not isinstance(cache, bool):
        if not str(cache).strip():
            raise ConfigError("cache must name a folder, got an empty name")
        folder, what = Path(cache), "cache"
    else:
        raise ConfigError(f"cache must be True, False or a folder, got {cache!r}")
    return check_folder(folder, what), what


def open_spec(spec: dict[str, Any]) -> dict[str, Any]:
    """A run's spec without its length: what every request of any length shares."""
    return {k: v for k, v in spec.items() if k != "n_games"}


def runs_of(table: pd.DataFrame) -> list[tuple[dict[str, Any], pd.DataFrame]]:
    """A stored table's runs, in order: (provenance, its rows) for each run that made it (a
    ``simulate`` table is one run; a sweep, a combined, a ladder or a packed table several)."""
    import re

    prov = table.attrs.get("provenance")
    if prov is None:
        raise ResultsError("the table has no provenance: not made by simulate, sweep or pack")
    runs = prov.get("runs", [prov])
    out, at = [], 0
    for spec in runs:
        rows = spec["n_games"] * games_per_deal(spec)
        part = table.iloc[at : at + rows].reset_index(drop=True)
        # a sweep over player counts has the largest line-up's seats: a smaller run's extra
        # seats (player_4, win_4, … where seat 0 has the same column) are not its seats
        seats = len(spec["players"])
        extra = [
            c
            for c in part.columns
            if (m := re.fullmatch(r"(.+)_(\d+)", c))
            and int(m.group(2)) >= seats
            and f"{m.group(1)}_0" in part.columns
        ]
        part = part.drop(columns=extra)
        part.attrs = {"provenance": spec}
        out.append((spec, part))
        at += rows
    if at != len(table):
        raise ResultsError("the table holds rows that no run in its provenance made")
    return out


# ---- the stored studies' index: fingerprint -> where a run of it is stored --------------

_INDEX: dict[tuple[str, float, int], list[tuple[str, int, int, list[str]]]] = {}


def _file_runs(path: Path) -> list[tuple[str, int, int, list[str]]]:
    """(fingerprint, run index, deals, columns) of every run a stored table holds, read from
    its Parquet metadata alone (no rows), remembered per file and modification time."""
    st = path.stat()
    key = (str(path), st.st_mtime, st.st_size)
    if key in _INDEX:
        return _INDEX[key]
    import pyarrow.parquet as pq

    out: list[tuple[str, int, int, list[str]]] = []
    try:
        schema = pq.read_schema(path)
        attrs = json.loads((schema.metadata or {}).get(b"PANDAS_ATTRS", b"{}"))
        prov = attrs.get("provenance")
        runs = prov.get("runs", [prov]) if isinstance(prov, dict) else []
        for i, spec in enumerate(runs):
            if isinstance(spec, dict) and "n_games" in spec and "players" in spec:
                out.append((run_fingerprint(spec), i, int(spec["n_games"]), list(schema.names)))
    except Exception:  # not a gamelib table: the index leaves it out
        out = []
    _INDEX[key] = out
    return out


def stored_folders() -> list[Path]:
    """The read-only tier: ``data/results`` and its ``studies/`` folder (what ``make results``
    packs), or the folders ``$GAMELIB_STORED`` lists (separated by ``:``; ``none`` turns the
    tier off, as ``make results`` does to play every study afresh)."""
    env = os.environ.get("GAMELIB_STORED")
    if env is None:
        return [results_dir(), results_dir() / "studies"]
    if env.strip().lower() in ("", "none", "off"):
        return []
    return [Path(p).expanduser() for p in env.split(os.pathsep) if p.strip()]


def stored_runs(
    fingerprint: str, folders: Sequence[Path] | None = None
) -> list[tuple[Path, int, int, list[str]]]:
    """Every stored run of ``fingerprint`` in the read-only tier (:func:`stored_folders`):
    (file, run index, deals, columns), the longest first."""
    found = []
    for folder in folders if folders is not None else stored_folders():
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.parquet")):
            for fp, i, n, cols in _file_runs(path):
                if fp == fingerprint:
                    found.append((path, i, n, cols))
    found.sort(key=lambda r: -r[2])
    return found


_LOADED: dict[tuple[str, float], list[tuple[dict[str, Any], pd.DataFrame]]] = {}


def _stored_rows(path: Path, index: int) -> pd.DataFrame:
    """Run ``index`` of a stored table (the last few files read are kept: a sweep's cells
    are runs of one file)."""
    from gamelib.sim.results import load

    key = (str(path), path.stat().st_mtime)
    if key not in _LOADED:
        if len(_LOADED) >= 4:
            _LOADED.pop(next(iter(_LOADED)))
        _LOADED[key] = runs_of(load(path))
    part = _LOADED[key][index][1].copy()
    part.attrs = {}
    return part


def _in_seat_order(df: pd.DataFrame) -> pd.DataFrame:
    """A stored run's columns in a fresh run's order: a sweep over player counts appended the
    larger line-ups' seats (``player_3``, ``win_3``, …) at the end; each goes back after the
    seat before it."""
    import re

    cols = [c for c in df.columns]
    for c in list(cols):
        m = re.fullmatch(r"(.+)_(\d+)", c)
        if m is None or m.group(2) == "0":
            continue
        before = f"{m.group(1)}_{int(m.group(2)) - 1}"
        if before in cols and cols.index(c) != cols.index(before) + 1:
            cols.remove(c)
            cols.insert(cols.index(before) + 1, c)
    return df[cols]


class RunCache:
    """One run's deals in the study cache: the chunks the writable tier holds, the prefix a
    stored study holds, and where newly played chunks go.

    ``need``: the outcome columns the caller reads (``None``: every column a run makes); a
    stored run that lacks one of them is not used."""

    def __init__(
        self,
        spec: dict[str, Any],
        root: Path,
        per_game: int,
        what: str,
        need: Sequence[str] | None = None,
        stored: Sequence[Path] | None = None,
    ) -> None:
        self.spec = open_spec(spec)
        self.per_game = per_game
        self.need = list(need) if need is not None else None
        self.fingerprint = run_fingerprint(spec)
        folder = root / "deals" / spec["game"] / self.fingerprint
        self.store = PartStore(folder, self.spec, what)
        self.stored_folders = stored

    def parts(self, upto: int, seed: int) -> dict[int, tuple[int, pd.DataFrame]]:
        """The deals below ``upto`` the cache holds, as non-overlapping chunks {start: (stop,
        rows)}; what is missing is played by the caller and handed to :meth:`save`.  A stored
        study is read only when it holds more of the run's first deals than the writable tier."""
        got = {
            a: (b, df)
            for a, (b, df, _) in self.store.load(2**62, self.per_game, seed, False).items()
        }
        from_zero = DealRanges.of(got).prefix()
        for path, index, n, cols in stored_runs(self.fingerprint, self.stored_folders):
            k = min(n, upto)
            if not self._serves(cols) or k <= from_zero:
                continue
            rows = _stored_rows(path, index)
            drop = [
                c for c in (*STORED_EXTRAS, "setup") if c in rows and c not in self.spec["config"]
            ]
            rows = _in_seat_order(rows.drop(columns=drop))
            rows = rows[rows["deal"] < k].reset_index(drop=True)
            later = {}
            for a, (b, df) in got.items():
                if b > k:  # a writable chunk beyond the stored prefix (sliced where it overlaps)
                    later[max(a, k)] = (
                        b,
                        df if a >= k else df[df["deal"] >= k].reset_index(drop=True),
                    )
            got = {0: (k, rows), **later}
            break
        out: dict[int, tuple[int, pd.DataFrame]] = {}
        for a, (b, df) in sorted(got.items()):
            if a >= upto:
                continue
            if b > upto:
                df, b = df[df["deal"] < upto].reset_index(drop=True), upto
            out[a] = (b, df)
        return out

    def tiers(self, seed: int) -> tuple[int, int]:
        """The deals 0 … k−1 each tier holds of this run: (k of the writable cache, k of the
        longest stored run that serves the request; 0 with the stored tier off)."""
        got = self.store.load(2**62, self.per_game, seed, False)
        writable = DealRanges.of(got).prefix()
        stored = [
            n
            for _, _, n, cols in stored_runs(self.fingerprint, self.stored_folders)
            if self._serves(cols)
        ]
        return writable, max(stored, default=0)

    def _serves(self, cols: Sequence[str]) -> bool:
        have = set(cols)
        if self.need is None:
            # a full run: a slimmed table drops winner_player and the decision counters
            return {"winner_player", "decisions", *ALWAYS} <= have
        return {*ALWAYS, *self.need} <= have

    def save(self, a: int, b: int, df: pd.DataFrame) -> None:
        """Keep one finished chunk (written under a temporary name and renamed)."""
        self.store.save(a, b, df, False)


def clear_cache(root: str | os.PathLike[str] | None = None, game: str | None = None) -> int:
    """Delete the writable study cache (or one game's part of it); returns the runs removed.
    The stored studies in ``data/results`` are never touched."""
    import shutil

    base = Path(root) if root is not None else default_cache_dir()
    deals = base / "deals"
    removed = 0
    for g in [deals / game] if game else (deals.iterdir() if deals.is_dir() else []):
        if not g.is_dir():
            continue
        for run in g.iterdir():
            if run.is_dir():
                shutil.rmtree(run, ignore_errors=True)
                removed += 1
        with contextlib.suppress(OSError):
            g.rmdir()
    return removed


def pack_cache(
    dest: str | os.PathLike[str],
    root: str | os.PathLike[str] | None = None,
    search_only: bool = True,
) -> list[Path]:
    """Write the runs the writable cache holds as stored studies in ``dest`` (one Parquet
    table a run, ``<game>-<fingerprint>.parquet``, its provenance the run with the deals it
    holds from deal 0), so a clone serves them from its read-only tier.  ``search_only``: only
    runs with a player that has no compiled version (the slow ones; compiled runs replay in
    seconds and are not worth storing).  Returns the files written."""
    import pandas as pd

    from gamelib.records import engine_for
    from gamelib.registry import GAMES
    from gamelib.sim.results import save, tidy

    base = (Path(root) if root is not None else default_cache_dir()) / "deals"
    out = Path(dest)
    written: list[Path] = []
    for run in sorted(base.glob("*/*")) if base.is_dir() else []:
        manifest = run / "run.json"
        if not manifest.is_file():
            continue
        spec = json.loads(manifest.read_text(encoding="utf-8"))
        game = GAMES.get(spec.get("game", ""))
        if game is None:
            continue
        if search_only and engine_for(game, spec["players"]) == "compiled":
            continue
        per = games_per_deal(spec)
        kept = PartStore(run, spec, "cache").load(2**62, per, spec["seed"], False)
        frames, at = [], 0
        for a in sorted(kept):
            if a > at:
                break
            b, df, _ = kept[a]
            frames.append(df if a == at else df[df["deal"] >= at])
            at = max(at, b)
        if not at:
            continue
        table = tidy(pd.concat(frames, ignore_index=True))
        table = table[table["deal"] < at].reset_index(drop=True)
        table.attrs["provenance"] = {**spec, "n_games": at}
        written.append(save(table, out / f"{spec['game']}-{run.name}.parquet"))
    return written


def cache_size(root: str | os.PathLike[str] | None = None) -> tuple[int, int]:
    """(runs, bytes) the writable study cache holds."""
    base = (Path(root) if root is not None else default_cache_dir()) / "deals"
    runs = total = 0
    if base.is_dir():
        for run in base.glob("*/*"):
            if run.is_dir():
                runs += 1
                total += sum(p.stat().st_size for p in run.iterdir() if p.is_file())
    return runs, total


__all__ = [
    "ALWAYS",
    "PROVENANCE",
    "RunCache",
    "cache_root",
    "cache_size",
    "clear_cache",
    "default_cache_dir",
    "open_spec",
    "pack_cache",
    "runs_of",
    "stored_folders",
    "stored_runs",
]
