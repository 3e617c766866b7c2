"""The results table: where stored studies live, save and load (Parquet with provenance),
slimming to a few outcome columns, the column types a table gets (``tidy``), the empty table,
and combining several runs into one table.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gamelib.core import ConfigError, OutputError, ResultsError
from gamelib.sim.checks import check_columns
from gamelib.sim.chunks import PROVENANCE, config_columns

if TYPE_CHECKING:  # pandas: imported by the functions that use it
    import pandas as pd


def results_dir() -> Path:
    """The project's ``data/results`` folder (where stored studies live), from any working
    directory: notebooks, papermill and the tests all find the same files."""
    return Path(__file__).resolve().parents[2] / "data" / "results"


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
    import pandas as pd

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


def tidy(table: pd.DataFrame) -> pd.DataFrame:
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


def empty_table(config: Any, players: Sequence[Any], rotate_deals: bool = False) -> pd.DataFrame:
    import pandas as pd

    head = [*PROVENANCE[:5], "deal_rotation", *PROVENANCE[5:]] if rotate_deals else PROVENANCE
    cols = head + list(config_columns(config)) + [f"player_{s}" for s in range(len(players))]
    return pd.DataFrame(columns=cols)


def combine(tables: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """One table from several runs (e.g. a hand-picked list of rule sets, each simulated on its
    own), keeping every run's provenance so a stored table can be re-checked run by run."""
    import pandas as pd

    if not tables:
        raise ConfigError("combine() needs at least one result table")
    runs: list[dict[str, Any]] = []
    for i, t in enumerate(tables):
        prov = t.attrs.get("provenance")
        if prov is None:
            raise ResultsError(f"table {i} has no provenance: not made by simulate() or sweep()")
        runs.extend(prov.get("runs", [prov]))
    table = tidy(pd.concat(tables, ignore_index=True))
    table.attrs["provenance"] = {"runs": runs}
    return table
