"""The designer's workbench in JupyterLab: explore result tables, playtest a rule set by hand.

* :func:`explore` — choose the game, filter and group by the rule fields a table holds, pick the
  line-up and a metric (a seat's or a player's win rate, seat 0's share of decided games, the
  draw rate, a mean such as turns, the blackout rate, …) and see the chart with 95% intervals
  and the table behind it.  Games of one deal are correlated (seats rotated, or the same deal
  under several rule variants), so every interval is clustered by deal
  (:func:`gamelib.stats.clustered_rate`, :func:`gamelib.stats.clustered_mean_table`).
* :func:`play` — play one game by hand against built-in players: the picture of what your seat
  may see redrawn after each decision, the legal decisions as buttons in the rules' words, the
  opponents moving with their own seeded streams (as in :func:`gamelib.records.play_game`), and
  at the end the game's record to download, checked by :func:`gamelib.records.replay`.

Both return a small object whose ``widget`` is the ipywidgets box (it displays itself in a
notebook) and whose controls are attributes, so tests drive them without a browser.
"""

from __future__ import annotations

import base64
import dataclasses
import html
import io
import json
import os
import random
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as w
import pandas as pd
from matplotlib.figure import Figure

from gamelib.core import (
    ConfigError,
    Move,
    Outcome,
    Player,
    ResultsError,
    Seat,
    State,
    check_seed,
    game_rngs,
)
from gamelib.plots import plot_rates
from gamelib.records import play_game, replay
from gamelib.registry import GAMES
from gamelib.sim import game_of, load, n_seats
from gamelib.stats import clustered_mean_table, clustered_rate

__all__ = ["Explorer", "Playtest", "explore", "play"]

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


HUMAN = "human"


def play(
    config: Any,
    opponents: Sequence[str] = (),
    *,
    seat: int = 0,
    seed: int | None = None,
) -> Playtest:
    """Play one game of ``config`` by hand from ``seat`` against built-in ``opponents`` (names
    as in the game's players, e.g. ``"greedy"``, ``"ismcts:50"``; none for Deck the Yard).
    ``seed`` fixes the deal and the opponents' streams (a fresh one is drawn when omitted and
    shown, so a game can be played again)."""
    return Playtest(config, opponents, seat=seat, seed=seed)


class Playtest:
    """A game played by hand (see :func:`play`).  ``state`` is the position; ``buttons`` the
    legal decisions as buttons (each with its ``move``); in Gargon the hand's cards are
    ``hand_toggles`` and ``play_button`` plays the selected ones; ``picture`` shows what the
    seat may see; ``record`` is the game's record once it is over."""

    def __init__(
        self, config: Any, opponents: Sequence[str] = (), *, seat: int = 0, seed: int | None = None
    ) -> None:
        self.game = game_of(config)
        n = n_seats(config)
        if isinstance(opponents, str) or not isinstance(opponents, Sequence):
            raise ConfigError(f"opponents must be a list of player names, got {opponents!r}")
        if len(opponents) != n - 1:
            raise ConfigError(
                f"this {self.game.name} game has {n} seats: give {n - 1} opponent(s), "
                f"got {len(opponents)}: {list(opponents)}"
            )
        bad = [p for p in opponents if not isinstance(p, str)]
        if bad:
            raise ConfigError(f"opponents are player names (text), got {bad!r}")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
            raise ConfigError(f"seat must be one of 0..{n - 1}, got {seat!r}")
        self.seed = check_seed(random.SystemRandom().getrandbits(63) if seed is None else seed)
        self.config = config
        self.seat: Seat = seat
        others = iter(opponents)
        self.players: list[str] = [HUMAN if s == seat else next(others) for s in range(n)]
        self.agents: dict[Seat, Player] = {
            s: self.game.player(p) for s, p in enumerate(self.players) if s != seat
        }
        chance, self.rngs = game_rngs(self.seed, n)
        self.state: State = self.game.new_state(config, chance)
        self.moves: list[tuple[Seat, Move]] = []
        self.log: list[str] = []
        self.record: dict[str, Any] | None = None
        self.replayed: Outcome | None = None

        self.title = w.HTML()
        self.picture = w.HTML()
        self.prompt = w.HTML()
        self.buttons: list[Any] = []
        self.button_box = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.hand_toggles: list[Any] = []
        self.hand_box = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.play_button = w.Button(description="play the selected cards", disabled=True)
        self.play_button.on_click(lambda _: self._play_selected())
        self.log_html = w.HTML()
        self.download = w.HTML()
        self.record_text = w.Textarea(layout=w.Layout(width="100%", height="6em"))
        self.end_box = w.VBox()
        self.widget = w.VBox(
            [
                self.title,
                self.picture,
                self.prompt,
                self.hand_box,
                self.button_box,
                self.end_box,
                w.Accordion([self.log_html], titles=("moves so far",)),
            ]
        )
        self.widget.add_class("gamelib-playtest")
        self._advance()
        self._refresh()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    # -- moving --
    def choose(self, move: Move) -> None:
        """Make the human's decision ``move`` (what each button does), then let the opponents
        move until it is the human's turn again or the game is over."""
        st = self.state
        if st.is_over() or st.current_player() != self.seat:
            raise ConfigError("it is not your turn")
        if move not in st.legal_moves():
            raise ConfigError(f"{move!r} is not a legal decision now")
        self._apply(self.seat, move)
        self._advance()
        self._refresh()

    def _apply(self, seat: Seat, move: Move) -> None:
        who = "you" if seat == self.seat else f"seat {seat} ({self.players[seat]})"
        self.log.append(f"{who}: {describe(self.state, move, seat, self.seat)}")
        self.state.apply(move)
        self.moves.append((seat, move))

    def _advance(self) -> None:
        """The opponents' decisions, each from its observation and its own seeded stream."""
        st = self.state
        while not st.is_over() and st.current_player() != self.seat:
            s = st.current_player()
            agent = self.agents[s]
            look = getattr(agent, "observes", True)
            obs = st.clone() if look == "state" else st.observation(s) if look else None
            self._apply(s, agent(obs, st.legal_moves(), self.rngs[s]))
        if st.is_over() and self.record is None:
            self._finish()

    def _play_selected(self) -> None:
        from gamelib.gargon.rules import Play

        self.choose(Play(tuple(sorted(self._selected_cards()))))

    def _selected_cards(self) -> list[int]:
        return [t.card for t in self.hand_toggles if t.value]

    # -- what the human sees --
    def view(self, state: State | None = None) -> dict[str, Any]:
        """Everything the widget shows of ``state`` (default: the game's), built from the
        human seat's observation: the picture, the prompt and the decisions offered."""
        st = self.state if state is None else state
        obs = st.observation(self.seat)
        picture = _svg(self.game.name, obs)
        mine = not st.is_over() and st.current_player() == self.seat
        legal = st.legal_moves() if mine else []
        cards: list[tuple[int, str]] = []
        options = []
        for m in legal:
            if type(m).__name__ == "Play":
                continue
            options.append((m, describe(st, m, self.seat, self.seat)))
        if mine and self.game.name == "gargon":
            from gamelib.gargon.rules import COLOUR_OF, COLOURS, VALUE_OF

            cards = [(c, f"{COLOURS[COLOUR_OF[c]]} {VALUE_OF[c]}") for c in obs.hand]
        if st.is_over():
            prompt = "<b>The game is over.</b> " + _result_text(st.outcome(), self.seat)
        elif mine:
            prompt = f"<b>Your decision</b> (seat {self.seat}): {_decision_text(st)}"
        else:  # pragma: no cover - the opponents move before the widget shows
            prompt = f"seat {st.current_player()} to move"
        return {"picture": picture, "prompt": prompt, "options": options, "cards": cards}

    def _refresh(self) -> None:
        st = self.state
        v = self.view()
        self.title.value = f"<b>{self.game.name}</b> · seed {self.seed} · seats: " + ", ".join(
            f"{s}: {p}" for s, p in enumerate(self.players)
        )
        self.picture.value = v["picture"]
        self.prompt.value = v["prompt"]
        self.buttons = []
        for move, label in v["options"]:
            b = w.Button(description=label, layout=w.Layout(width="auto"))
            b.move = move
            b.on_click(lambda _, m=move: self.choose(m))
            b.add_class("gamelib-move")
            self.buttons.append(b)
        self.button_box.children = self.buttons
        self.hand_toggles = []
        for c, label in v["cards"]:
            t = w.ToggleButton(description=label, value=False, layout=w.Layout(width="auto"))
            t.card = c
            t.observe(lambda _: self._update_play_button(), names="value")
            self.hand_toggles.append(t)
        shown = [*self.hand_toggles, self.play_button] if self.hand_toggles else []
        self.hand_box.children = shown
        self._update_play_button()
        self.log_html.value = "<br>".join(html.escape(x) for x in self.log[-200:])
        if st.is_over():
            self._show_end()

    def _update_play_button(self) -> None:
        if not self.hand_toggles:
            self.play_button.disabled = True
            return
        from gamelib.gargon.rules import COLOUR_OF, COLOURS, VALUE_OF, Play

        chosen = tuple(sorted(self._selected_cards()))
        legal = Play(chosen) in self.state.legal_moves() if chosen else False
        words = " + ".join(f"{COLOURS[COLOUR_OF[c]]} {VALUE_OF[c]}" for c in chosen)
        self.play_button.disabled = not legal
        self.play_button.description = (
            "select cards to play"
            if not chosen
            else f"play {words}"
            if legal
            else f"{words}: not a legal play"
        )

    # -- the end: the record, downloadable, and its replay check --
    def _finish(self) -> None:
        """Build the game's record through :func:`play_game` (the human's decisions scripted,
        the opponents deciding again from their seeded streams) and check it replays."""
        mine = iter(m for s, m in self.moves if s == self.seat)

        def human(observation: Any, legal: Sequence[Move], rng: random.Random) -> Move:
            return next(mine)

        human.observes = False  # type: ignore[attr-defined]
        lineup: list[Any] = [human if p == HUMAN else p for p in self.players]
        again = play_game(self.game, self.config, lineup, self.seed, record=True, engine="python")
        if again.outcome != self.state.outcome():  # pragma: no cover - a bug, not bad input
            raise AssertionError("the recorded game differs from the game played; please report")
        assert again.record is not None
        self.record = again.record
        self.replayed = replay(again.record).outcome

    def _show_end(self) -> None:
        assert self.record is not None
        text = json.dumps(self.record)
        same = self.replayed == self.state.outcome()
        name = f"{self.game.name}-seed{self.seed}.json"
        data = base64.b64encode(text.encode()).decode()
        self.download.value = (
            f'<a download="{name}" href="data:application/json;base64,{data}">'
            f"download the record ({name})</a> · "
            + (
                f"replay check: the record replays move by move ({len(self.moves)} decisions) "
                "to the same outcome ✓"
                if same
                else "<b>replay check failed</b>"
            )
        )
        self.record_text.value = text
        self.end_box.children = [self.download, self.record_text]


def _svg(game: str, obs: Any) -> str:
    if game == "garner":
        from gamelib.garner.picture import svg as garner_svg

        return garner_svg(obs)
    if game == "gargon":
        from gamelib.gargon.picture import svg as gargon_svg

        return gargon_svg(obs)
    from gamelib.deck_the_yard.picture import svg as yard_svg

    return yard_svg(obs)


def _result_text(out: Outcome, seat: Seat) -> str:
    scores = ", ".join(f"{s:g}" for s in out.scores)
    if len(out.scores) == 1:
        verdict = "You win!" if out.winners else "You lose."
        return f"{verdict} ({out.reason}, {out.turns} turns)"
    if not out.winners:
        verdict = "A draw."
    elif seat in out.winners:
        verdict = "You win!" if len(out.winners) == 1 else "You share the win."
    else:
        seats = ", ".join(map(str, out.winners))
        verdict = (
            f"Seat {seats} wins." if len(out.winners) == 1 else f"Seats {seats} share the win."
        )
    return f"{verdict} Scores by seat: {scores} ({out.reason}, {out.turns} turns)."


def _decision_text(st: State) -> str:
    """What the next decision is, in the rules' words."""
    name = type(st).__name__
    decision = str(getattr(st, "decision", ""))
    if name == "GarnerState":
        return {
            "lift": "lift a number group from the top layer",
            "place": "place the next lifted card",
            "collect": "collect a suit group",
            "leave": "choose the card left behind (never exactly that many in a pile)",
        }.get(decision, decision)
    if name == "GargonState":
        return {
            "play": "select cards and play them face down, or pass and draw",
            "draw": "draw a card: choose the pile",
            "resolve": "choose the colour to resolve next",
        }.get(decision, decision)
    return {
        "action": "play a bulb, a bubble, or discard a card",
        "plug": "spend a plug on the card just drawn, or keep it",
    }.get(decision, decision)


def describe(state: State, move: Move, mover: Seat, viewer: Seat) -> str:
    """A decision in the rules' words, as seat ``viewer`` may know it (``state`` is the position
    before the decision): another Gargon seat's face-down play shows only its colours."""
    kind = type(move).__name__
    if kind in ("Lift", "Place", "Collect", "LeaveBehind"):
        from gamelib.garner.picture import suit_label

        t = state.t  # type: ignore[attr-defined]
        stacks = state.stacks  # type: ignore[attr-defined]

        def name(c: int) -> str:
            return f"{suit_label(t.suit_of[c])}{t.number_of[c]}"

        if kind == "Lift":
            sites = move.sites  # type: ignore[attr-defined]
            number = t.number_of[stacks[sites[0]][-1]]
            return f"lift the {number}s on site{'s' if len(sites) > 1 else ''} " + ", ".join(
                map(str, sites)
            )
        if kind == "Place":
            origin, card = state.lifted[0]  # type: ignore[attr-defined]
            site = move.site  # type: ignore[attr-defined]
            where = " (back where it was)" if site == origin else ""
            return f"place {name(card)} on site {site}{where}"
        if kind == "Collect":
            sites = move.sites  # type: ignore[attr-defined]
            suit = suit_label(t.suit_of[stacks[sites[0]][-1]])
            count = f"{len(sites)} card{'s' if len(sites) > 1 else ''}"
            return f"collect suit {suit}: {count} on site{'s' if len(sites) > 1 else ''} " + (
                ", ".join(map(str, sites))
            )
        site = move.site  # type: ignore[attr-defined]
        return f"leave {name(stacks[site][-1])} behind on site {site}"
    if kind in ("Play", "Pass", "DrawFrom", "Resolve"):
        from gamelib.gargon.rules import COLOUR_OF, COLOURS, VALUE_OF

        if kind == "Play":
            cards = move.cards  # type: ignore[attr-defined]
            if mover == viewer:
                return "play " + " + ".join(f"{COLOURS[COLOUR_OF[c]]} {VALUE_OF[c]}" for c in cards)
            colours = ", ".join(COLOURS[COLOUR_OF[c]] for c in cards)
            return f"plays {len(cards)} card{'s' if len(cards) > 1 else ''} face down ({colours})"
        if kind == "Pass":
            k = move.draws  # type: ignore[attr-defined]
            return f"pass and draw {k}" if k else "pass (both piles are empty)"
        if kind == "DrawFrom":
            pile = move.pile  # type: ignore[attr-defined]
            top = COLOURS[COLOUR_OF[state.piles[pile][-1]]]  # type: ignore[attr-defined]
            return f"draw from pile {pile} (a {top} card)"
        return f"resolve {COLOURS[move.colour]}"  # type: ignore[attr-defined]
    if kind == "PlayBulb":
        return f"play a {move.colour} bulb"  # type: ignore[attr-defined]
    if kind == "PlayBubble":
        return "play a bubble bulb"
    if kind == "Discard":
        return f"discard a {move.kind}"  # type: ignore[attr-defined]
    if kind == "UsePlug":
        pending = state.observation(viewer).pending
        card = {"broken": "broken bulb", "event": "event (a power outage)"}.get(pending, pending)
        return f"spend a plug on the {card}" if move.use else "keep the plug"  # type: ignore[attr-defined]
    return repr(move)  # pragma: no cover - a fourth game
