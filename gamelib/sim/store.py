"""Resume storage: a folder of finished chunks (``part-A-B.parquet`` and their records) with
the run's manifest, verified on load; clearing it; and the never-half-written file helpers
(records joined from chunk files, whole-file writes).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import shutil
import socket
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gamelib.core import OutputError, ResumeError, atomic_write_text, game_seeds, temporary_name
from gamelib.records import write_records
from gamelib.sim.checks import check_folder
from gamelib.sim.chunks import run_fingerprint

if TYPE_CHECKING:  # pandas: imported by the functions that use it
    import pandas as pd


#: a shared folder's temporary file names carry their writer (``.PID@HOST.partial``)
_WRITER = re.compile(r"\.(\d+)@(.+)\.partial$")


def _abandoned(path: Path) -> bool:
    """Whether a ``*.partial`` file's writer is gone, so the file is a killed run's half-write:
    it names no writer (an older gamelib), or a process of this host that no longer runs. Another
    host's file (a folder shared by a cluster) is left to that host."""
    m = _WRITER.search(path.name)
    if m is None:
        return True
    pid, host = int(m.group(1)), m.group(2)
    if host != socket.gethostname() or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # alive, another user's
        return False
    return False


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


@dataclass(frozen=True)
class DealRanges:
    """The deals a run holds, as half-open ranges ``[a, b)`` sorted by start (they may touch or
    overlap: chunks of two tiers) — the one place deal ranges are added up: the prefix a run
    holds from deal 0, and the gaps still to play."""

    ranges: tuple[tuple[int, int], ...]

    @classmethod
    def of(cls, chunks: Mapping[int, Sequence[Any]] | Iterable[tuple[int, int]]) -> DealRanges:
        """From ``(start, stop)`` pairs, or from chunks ``{start: (stop, …)}``."""
        if isinstance(chunks, Mapping):
            return cls(tuple(sorted((a, int(v[0])) for a, v in chunks.items())))
        return cls(tuple(sorted(chunks)))

    def prefix(self) -> int:
        """k: the deals 0 … k−1 are held without a gap."""
        at = 0
        for a, b in self.ranges:
            if a > at:
                break
            at = max(at, b)
        return at

    def missing(self, n: int) -> list[tuple[int, int]]:
        """The ranges of ``range(n)`` not held, in order."""
        gaps, at = [], 0
        for a, b in self.ranges:
            if at >= n:
                break
            if a > at:
                gaps.append((at, min(a, n)))
            at = max(at, b)
        if at < n:
            gaps.append((at, n))
        return gaps


def join_files(path: Path, pieces: Sequence[Path], what: str) -> None:
    """Concatenate chunk files in order under a temporary name, then rename: never a half-file."""
    tmp = temporary_name(path)
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


def write_whole(path: Path, records: Sequence[dict[str, Any]]) -> None:
    """Write a records file under a temporary name and rename it: never a half-file."""
    tmp = temporary_name(path)
    write_records(tmp, records)
    os.replace(tmp, path)


_PART = re.compile(r"^part-(\d+)-(\d+)\.(parquet|jsonl)$")


class PartStore:
    """A folder of finished chunks and the run they belong to.

    ``run.json`` holds the run's provenance.  Each chunk is ``part-A-B.parquet`` (deals
    A … B-1), whose metadata say what it holds: the run fingerprint, the deal range, its row
    count and whether its records were kept (then ``part-A-B.jsonl`` holds them, one line per
    row).  Everything is checked on load; a chunk that does not hold exactly what it claims is
    named and refused, never merged.
    """

    def __init__(self, folder: str | os.PathLike[str], spec: dict[str, Any], what: str) -> None:
        self.what = what
        self.folder = check_folder(folder, what)
        self.fingerprint = run_fingerprint(spec)
        for other in ("verdict", "compare"):
            if (self.folder / f"{other}.json").exists():
                raise ResumeError(
                    f"{what} {self.folder} holds a gamelib {other} run's deals, not this run's; "
                    "use another folder"
                )
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
            atomic_write_text(manifest, json.dumps(spec, sort_keys=True, indent=1))
        for leftover in self.folder.glob("*.partial"):  # a killed run's half-written file
            if _abandoned(leftover):  # (not another live writer's file in flight)
                leftover.unlink(missing_ok=True)

    def load(
        self, n_games: int, per_game: int, seed: int, want_records: bool
    ) -> dict[int, tuple[int, pd.DataFrame, Path | None]]:
        """The verified chunks; chunks without the records now wanted are dropped (their deals
        are played again, records and all: play is deterministic)."""
        found: dict[int, tuple[int, pd.DataFrame, Path | None]] = {}
        ranges: list[tuple[int, int, Path]] = []
        for path in sorted(self.folder.glob("part-*")):
            if path.name.endswith(".partial"):
                continue  # another writer's chunk, not renamed yet
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
            df, meta = self.read(path)
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

    def read(self, path: Path) -> tuple[pd.DataFrame, dict[str, Any]]:
        """One kept chunk's rows and its metadata (a damaged file is named in one line)."""
        import pandas as pd

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
        tmp = temporary_name(path)
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
