"""Checking arguments before any work: how messages name a parameter, output paths and
folders (writable, not a file), Dask scheduler addresses, executors, line-ups and result
columns.  Each failure raises a :class:`~gamelib.core.GamelibError` subclass naming the fix.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

from gamelib.core import ClusterError, ConfigError, Game, OutputError


class Names:
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


def check_folder(path: str | os.PathLike[str], what: str) -> Path:
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


def check_players(game: Game, players: Any, n_players: int) -> None:
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


def check_executor(executor: Any, what: str) -> None:
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


def check_columns(known: Sequence[str], columns: Sequence[str], what: str = "columns") -> None:
    """Refuse result columns a table does not have, naming them and the ones it has."""
    unknown = [c for c in columns if c not in known]
    if unknown:
        outcome = list(known)[list(known).index("winner") :] if "winner" in known else known
        raise ConfigError(
            f"{what}: no such result column(s) {', '.join(unknown)}; "
            f"outcome columns are: {', '.join(outcome)}"
        )


def check_rotate_deals(game: Game, value: object, name: str = "rotate_deals") -> bool:
    """``rotate_deals`` checked: True or False, and True only for a game that deals its seats
    something of their own to rotate (``Game.rotate_deal``)."""
    if not isinstance(value, bool):
        raise ConfigError(f"{name} must be True or False, got {value!r}")
    if value and game.rotate_deal is None:
        raise ConfigError(
            f"{name}: {game.name} deals its seats nothing of their own (every seat shares what "
            "is dealt), so a deal has no hands to rotate"
        )
    return value
