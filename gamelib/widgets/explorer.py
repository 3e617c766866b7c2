"""Explore a result table in JupyterLab (:func:`explore`, :class:`Explorer`): choose the game,
filter and group by the rule fields a table holds, pick the line-up and a metric, and see the
chart with 95% intervals clustered by deal and the table behind it."""

from __future__ import annotations

import dataclasses
import html
import io
import os
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as w
import pandas as pd
from matplotlib.figure import Figure

from gamelib.core import (
    ResultsError,
)
from gamelib.plots import plot_rates
from gamelib.registry import GAMES
from gamelib.sim import load
from gamelib.stats import clustered_mean_table, clustered_rate

__all__ = ["Explorer", "explore"]


ALL = "(all)"
NONE = "(none)"
LINEUP = "players"
#: columns a table needs for every metric the explorer offers
REQUIRED = ("game", "winner", "n_winners")
#: columns a ladder table adds that are worth grouping by
LADDER_FIELDS = ("matchup", "pairing", "level_a", "level_b")
#: provenance and per-seat columns that are never a metric of their own
NOT_METRICS = {
    "game_index",
    "deal",
    "rotation",
    "seed",
    "winner",
    "n_winners",
    "decisions",
    "options",
    "multi_option_decisions",
}


# --- explore -------------------------------------------------------------------------------


def explore(table: pd.DataFrame | str | os.PathLike[str]) -> Explorer:
    """An explorer of a result table (or the path of a stored one): filters, grouping, a metric,
    its chart with 95% intervals clustered by deal, and the table behind the chart."""
    if isinstance(table, str | os.PathLike):
        table = load(table)
    return Explorer(table)


def _labels(values: pd.Series) -> pd.Series:
    """A column as ordered text categories (numbers in numeric order, missing values as
    'None'), so groups sort naturally and None is a group of its own."""
    present = values.dropna()
    try:
        order = sorted(present.unique())
    except TypeError:  # mixed types
        order = sorted(present.unique(), key=str)
    names = [str(v) for v in order]
    text = values.astype(object).map(lambda v: "None" if pd.isna(v) else str(v))
    if values.isna().any():
        names.append("None")
    return pd.Series(
        pd.Categorical(text, categories=list(dict.fromkeys(names)), ordered=True),
        index=values.index,
    )


class Explorer:
    """The result explorer (see :func:`explore`).  Controls: ``game``, ``group``, ``hue``,
    ``lineup``, ``metric`` and ``filters`` (one dropdown per rule field that varies); outputs:
    ``result`` (the table charted), ``figure`` (the matplotlib figure), ``image`` (its PNG),
    ``table_html`` and ``message``."""

    def __init__(self, table: pd.DataFrame) -> None:
        if not isinstance(table, pd.DataFrame):
            raise ResultsError(
                f"explore() takes a result table (a DataFrame from simulate, sweep or "
                f"gamelib.sim.load) or the path of a stored one, got {type(table).__name__}"
            )
        missing = [c for c in REQUIRED if c not in table]
        seats = _seats(table)
        if not seats:
            missing.append("player_0")
        if missing:
            raise ResultsError(
                f"the table lacks the column(s) {', '.join(missing)}: explore() needs a result "
                "table from simulate, sweep or ladder (keep these columns when using columns=)"
            )
        if len(table) == 0:
            raise ResultsError("the table has no games to explore")
        unknown = sorted(set(table["game"].astype(str)) - set(GAMES))
        if unknown:
            raise ResultsError(f"the table holds games gamelib does not know: {unknown}")
        self.table = table
        self.result = pd.DataFrame()
        self.figure: Figure | None = None
        style = {"description_width": "initial"}
        games = sorted(set(table["game"].astype(str)))
        self.game = w.Dropdown(options=games, value=games[0], description="game", style=style)
        self.group = w.Dropdown(description="group by", style=style)
        self.hue = w.Dropdown(description="colour by", style=style)
        self.lineup = w.Dropdown(description="players", style=style)
        self.metric = w.Dropdown(description="metric", style=style)
        self.filters: dict[str, Any] = {}
        self.filter_box = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.image = w.Image(format="png")
        self.table_html = w.HTML()
        self.message = w.HTML()
        self._busy = False
        controls = w.HBox(
            [self.game, self.metric, self.group, self.hue, self.lineup],
            layout=w.Layout(flex_flow="row wrap"),
        )
        self.widget = w.VBox([controls, self.filter_box, self.message, self.image, self.table_html])
        self.widget.add_class("gamelib-explorer")
        self.game.observe(lambda _: self._choose_game(), names="value")
        for c in (self.group, self.hue, self.lineup, self.metric):
            c.observe(lambda _: self.update(), names="value")
        self._choose_game()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    # -- the rows of the chosen game, with every grouping column as ordered labels --
    def _choose_game(self) -> None:
        name = str(self.game.value)
        rows = self.table[self.table["game"].astype(str) == name]
        rows = rows.dropna(axis=1, how="all")
        self.rows = rows
        config_fields = [f.name for f in dataclasses.fields(GAMES[name].config_type)]
        fields = [c for c in [*config_fields, "setup", *LADDER_FIELDS] if c in rows]
        fields = list(dict.fromkeys(fields))
        self.labels = pd.DataFrame(index=rows.index)
        varying = []
        for f in fields:
            lab = _labels(rows[f])
            if len(lab.cat.categories) > 1:
                self.labels[f] = lab
                varying.append(f)
        seats = _seats(rows)
        lineup = rows[f"player_{seats[0]}"].astype(str)
        for s in seats[1:]:
            lineup = lineup + ", " + rows[f"player_{s}"].astype(object).fillna("").astype(str)
        self.labels[LINEUP] = _labels(lineup.str.rstrip(", "))
        self.fields = varying
        self._busy = True
        try:
            groups = [NONE, *varying]
            if len(self.labels[LINEUP].cat.categories) > 1:
                groups.append(LINEUP)
            self.group.options = groups
            self.group.value = "setup" if "setup" in varying else varying[0] if varying else NONE
            self.hue.options = groups
            self.hue.value = NONE
            self.lineup.options = [ALL, *self.labels[LINEUP].cat.categories]
            self.lineup.value = ALL
            self.metric.options = _metrics(rows)
            keys = [k for _, k in self.metric.options]
            # two seats: seat 0's rate says it all, and leaves the colours to a rule field
            self.metric.value = "seat:0" if len(_seats(rows)) == 2 else keys[0]
            self.filters = {}
            for f in varying:
                d = w.Dropdown(
                    options=[ALL, *self.labels[f].cat.categories],
                    value=ALL,
                    description=f,
                    style={"description_width": "initial"},
                    layout=w.Layout(width="auto"),
                )
                d.observe(lambda _: self.update(), names="value")
                self.filters[f] = d
            self.filter_box.children = list(self.filters.values())
        finally:
            self._busy = False
        self.update()

    def selected(self) -> pd.DataFrame:
        """The rows of the chosen game that pass every filter and the line-up choice."""
        keep = pd.Series(True, index=self.rows.index)
        for f, d in self.filters.items():
            if d.value != ALL:
                keep &= self.labels[f] == d.value
        if self.lineup.value != ALL:
            keep &= self.labels[LINEUP] == self.lineup.value
        return self.rows[keep]

    def update(self) -> None:
        """Recompute the metric per group, redraw the chart and the table."""
        if self._busy:
            return
        rows = self.selected()
        if len(rows) == 0:
            self._show_nothing("no games match these filters")
            return
        key = str(self.metric.value)
        label = dict((v, k) for k, v in self.metric.options)[key]
        values, kind, forced_hue = _metric_values(rows, key)
        if len(values) == 0:
            self._show_nothing(f"no games in this selection count for '{label}'")
            return
        x = self.group.value if self.group.value != NONE else "all games"
        hue = forced_hue or (self.hue.value if self.hue.value not in (NONE, x) else None)
        names = [x] if hue is None else [x, hue]
        for n in names:
            if n == "all games":
                values[n] = "all games"
            elif n in self.labels:
                lab = self.labels[n]
                values[n] = pd.Categorical(
                    lab.loc[values.index].to_numpy(), categories=lab.cat.categories, ordered=True
                )
        values = values[values["weight"] > 0].reset_index(drop=True)
        self.hue.disabled = forced_hue is not None
        if kind == "rate":
            res = clustered_rate(values, "value", cluster="deal", by=names, weight="weight")
            res = res[[*names, "games", "clusters", "rate", "lo", "hi"]]
            y = "rate"
        else:
            res = clustered_mean_table(values, names, "value")
            res = res.rename(columns={"n": "games"})[
                [*names, "games", "clusters", "mean", "lo", "hi"]
            ]
            y = "mean"
        if "fair" in values:
            fair = values.groupby(names, observed=True)["fair"].mean()
            res = res.merge(fair.rename("fair").reset_index(), on=names, how="left")
        self.result = res
        fig = Figure(figsize=(7.5, 3.6))
        ax = fig.subplots()
        plot_rates(
            res,
            x,
            y=y,
            hue=hue,
            ax=ax,
            reference="fair" if "fair" in res else None,
        )
        if hue is not None:
            ax.legend(title=hue, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
        ax.set_ylabel(label if len(label) < 40 else y)
        ax.set_title(f"{self.game.value}: {label} (95% CI, clustered by deal)", fontsize=10)
        if len(res[x].unique()) > 4:
            ax.tick_params(axis="x", labelrotation=30)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=80, bbox_inches="tight")
        self.figure = fig
        png = buf.getvalue()
        self.image.width = str(int.from_bytes(png[16:20], "big"))  # natural size, not stretched
        self.image.value = png
        shown = res.copy()
        for c in ("rate", "mean", "lo", "hi", "fair"):
            if c in shown:
                shown[c] = shown[c].round(3)
        self.table_html.value = shown.to_html(index=False, classes="gamelib-table", border=0)
        note = "fair share drawn dashed; " if "fair" in res else ""
        self.message.value = (
            f"<small>{len(rows):,} games · {note}intervals are 95%, clustered by deal</small>"
        )

    def _show_nothing(self, why: str) -> None:
        self.result = pd.DataFrame()
        self.figure = None
        self.image.value = b""
        self.table_html.value = ""
        self.message.value = f"<b>{html.escape(why)}</b>"


def _seats(table: pd.DataFrame) -> list[int]:
    return sorted(
        int(c.split("_")[1])
        for c in table.columns
        if c.startswith("player_") and c.split("_")[1].isdigit()
    )


def _metrics(rows: pd.DataFrame) -> list[tuple[str, str]]:
    """The metrics a table's columns support, as (label, key) dropdown options."""
    seats = _seats(rows)
    out: list[tuple[str, str]] = []
    multi = len(seats) > 1
    if multi:
        out.append(("win rate of every seat", "seats"))
        players = sorted({str(p) for s in seats for p in rows[f"player_{s}"].dropna().unique()})
        if len(players) > 1:
            out.append(("win rate of every player", "players"))
        out += [(f"win rate of seat {s}", f"seat:{s}") for s in seats]
        out += [(f"win rate of player {p}", f"player:{p}") for p in players]
        out.append(("seat 0's share of decided games", "decided0"))
        out.append(("draw or shared-win rate", "draws"))
    else:
        out.append(("win rate", "seat:0"))
    if "blackouts" in rows:
        out.append(("blackout rate (games with a blackout)", "blackout"))
    reasons = sorted(rows["reason"].astype(str).unique()) if "reason" in rows else []
    if len(reasons) > 1:
        out += [(f"rate of games ending by {r}", f"reason:{r}") for r in reasons]
    for c in rows.columns:
        if (
            c in NOT_METRICS
            or c.startswith(("player_", "win_"))
            or not pd.api.types.is_numeric_dtype(rows[c])
            or pd.api.types.is_bool_dtype(rows[c])
            or c in _config_like(rows)
        ):
            continue
        binary = set(pd.unique(rows[c].dropna())) <= {0, 1}
        out.append(
            (f"rate of {c}" if binary else f"mean {c}", f"{'rate' if binary else 'mean'}:{c}")
        )
    return out


def _config_like(rows: pd.DataFrame) -> set[str]:
    name = str(rows["game"].iloc[0])
    return {f.name for f in dataclasses.fields(GAMES[name].config_type)} | {"setup"}


def _win_share(rows: pd.DataFrame, seat: int) -> pd.Series:
    """Seat ``seat``'s share of each game: 1 for a win, 1/k for a win shared by k, else 0."""
    if f"win_{seat}" in rows:
        return pd.to_numeric(rows[f"win_{seat}"]).astype(float).fillna(0.0)
    return (rows["winner"] == seat).astype(float)


def _metric_values(rows: pd.DataFrame, key: str) -> tuple[pd.DataFrame, str, str | None]:
    """Per game (or per game and seat/player): ``value``, ``weight`` (does the row count),
    ``deal`` (the cluster) and, for win rates, the ``fair`` share; the kind (rate or mean) and
    a column the chart must colour by (seat or player), if any."""
    seats = [s for s in _seats(rows)]
    n = rows[[f"player_{s}" for s in seats]].notna().sum(axis=1)
    deal = rows["deal"] if "deal" in rows else pd.Series(range(len(rows)), index=rows.index)
    base = pd.DataFrame({"deal": deal.to_numpy()}, index=rows.index)

    def frame(value: pd.Series, weight: pd.Series, fair: pd.Series | None = None) -> pd.DataFrame:
        f = base.assign(value=value.astype(float), weight=weight.astype(float))
        return f if fair is None else f.assign(fair=fair.astype(float))

    kind, what = key.partition(":")[0], key.partition(":")[2]
    if key == "seats":
        parts = [
            frame(_win_share(rows, s), rows[f"player_{s}"].notna(), 1.0 / n).assign(seat=str(s))
            for s in seats
        ]
        return pd.concat(parts), "rate", "seat"
    if key == "players":
        names = sorted({str(p) for s in seats for p in rows[f"player_{s}"].dropna().unique()})
        parts = [_player_frame(rows, seats, p, n, frame).assign(player=p) for p in names]
        return pd.concat(parts), "rate", "player"
    one = pd.Series(1.0, index=rows.index)
    if kind == "seat":
        s = int(what)
        fair = 1.0 / n if len(seats) > 1 else None
        return frame(_win_share(rows, s), rows[f"player_{s}"].notna(), fair), "rate", None
    if kind == "player":
        return _player_frame(rows, seats, what, n, frame), "rate", None
    if key == "decided0":
        decided = rows["n_winners"] == 1
        return frame(rows["winner"] == 0, decided, 1.0 / n), "rate", None
    if key == "draws":
        return frame(rows["n_winners"] != 1, one), "rate", None
    if key == "blackout":
        return frame(rows["blackouts"] > 0, one), "rate", None
    if kind == "reason":
        return frame(rows["reason"].astype(str) == what, one), "rate", None
    col = pd.to_numeric(rows[what]).astype(float)
    return frame(col.fillna(0.0), col.notna()), kind, None


def _player_frame(
    rows: pd.DataFrame,
    seats: Sequence[int],
    name: str,
    n: pd.Series,
    frame: Callable[..., pd.DataFrame],
) -> pd.DataFrame:
    """Player ``name``'s share of each game it sat in (its seats' win shares added up), with
    its fair share: the share of the seats it holds."""
    held = sum((rows[f"player_{s}"].astype(str) == name).astype(int) for s in seats)
    won = sum(
        _win_share(rows, s) * (rows[f"player_{s}"].astype(str) == name).astype(float) for s in seats
    )
    return frame(won, held > 0, held / n)


# --- play ----------------------------------------------------------------------------------
