"""Chart helpers the notebooks share: rates drawn with their intervals."""

from __future__ import annotations

from typing import Any

import matplotlib.pyplot as plt
import pandas as pd
import seaborn as sns
from matplotlib.axes import Axes


def theme() -> None:
    """The notebooks' common look."""
    sns.set_theme(style="whitegrid", context="notebook")


def plot_rates(
    rates: pd.DataFrame,
    x: str,
    *,
    y: str = "win_rate",
    lo: str = "lo",
    hi: str = "hi",
    hue: str | None = None,
    ax: Axes | None = None,
    reference: float | str | None = None,
    **kw: Any,
) -> Axes:
    """Each rate as a point with its interval drawn as an error bar (one colour per ``hue``).

    ``reference``: a number draws one dashed line across the chart (e.g. a fair share of 1/2);
    the name of a column draws each row's own value as a short dashed line at its ``x`` (e.g.
    each player's fair share when one player holds several seats)."""
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3.5))
    groups = [(None, rates)] if hue is None else list(rates.groupby(hue, sort=False, observed=True))
    palette = sns.color_palette(n_colors=max(1, len(groups)))
    cats = list(dict.fromkeys(rates[x].astype(str)))
    width = 0.6
    for i, (name, g) in enumerate(groups):
        shift = (i - (len(groups) - 1) / 2) * (width / max(1, len(groups)))
        pos = [cats.index(str(v)) + shift for v in g[x]]
        err = [(g[y] - g[lo]).clip(lower=0), (g[hi] - g[y]).clip(lower=0)]
        ax.errorbar(
            pos,
            g[y],
            yerr=err,
            fmt="o",
            capsize=4,
            color=palette[i],
            label=None if name is None else str(name),
            **kw,
        )
    ax.set_xticks(range(len(cats)), cats)
    ax.set_xlabel(x)
    ax.set_ylabel(y.replace("_", " "))
    if isinstance(reference, str):
        if reference not in rates:
            raise ValueError(f"reference column {reference!r} is not in the rates table")
        for v, ref in zip(rates[x].astype(str), rates[reference], strict=True):
            i = cats.index(v)
            ax.hlines(float(ref), i - 0.4, i + 0.4, color="grey", lw=1, ls="--")
    elif reference is not None:
        ax.axhline(reference, color="grey", lw=1, ls="--")
    if hue is not None:
        ax.legend(title=hue)
    return ax


def plot_matrix(
    m: pd.DataFrame, *, ax: Axes | None = None, digits: int = 2, cmap: str = "vlag"
) -> Axes:
    """A ladder's matchup matrix (:func:`gamelib.ladder.matrix`) as a heatmap: row level A
    against column level B, coloured by A's rate around the fair share, each cell written
    ``rate`` over its interval ``[lo, hi]``; a level that cheats is marked ``*``."""
    levels = [str(x) for x in m["level_a"].cat.categories]
    fair = float(m.attrs.get("fair", 0.5))
    rate = m.pivot_table(index="level_a", columns="level_b", values="rate", observed=False)
    rate = rate.reindex(index=levels, columns=levels)
    text = pd.DataFrame("", index=levels, columns=levels)
    for r in m.to_dict("records"):
        text.loc[str(r["level_a"]), str(r["level_b"])] = (
            f"{r['rate']:.{digits}f}\n[{r['lo']:.{digits}f}, {r['hi']:.{digits}f}]"
        )
    cheats = set(m.loc[m["cheating_a"], "level_a"].astype(str))
    labels = [lv + (" *" if lv in cheats else "") for lv in levels]
    if ax is None:
        side = 1.2 + 1.1 * len(levels)
        _, ax = plt.subplots(figsize=(side + 1.5, side))
    sns.heatmap(
        rate,
        annot=text.to_numpy(),
        fmt="",
        cmap=cmap,
        center=fair,
        vmin=0.0,
        vmax=1.0,
        linewidths=0.5,
        cbar_kws={"label": "row's share against column"},
        xticklabels=labels,
        yticklabels=labels,
        ax=ax,
    )
    ax.set_xlabel("against")
    ax.set_ylabel("level")
    ax.tick_params(axis="y", labelrotation=0)
    ax.set_title(f"matchup matrix (fair {fair:.2f}; 95% CI)")
    return ax


#: a verdict's colour: green holds, red fails, grey undecided
VERDICT_COLOURS = {"holds": "tab:green", "fails": "tab:red", "undecided": "tab:grey"}


def plot_verdicts(
    table: pd.DataFrame, axes: Any = None, *, title: str | None = None, caption: bool = True
) -> Any:
    """A verdict table (:func:`gamelib.verdict.verdict`) as one panel per question: each level's
    estimate with its interval, coloured by its decision, over the band where the claim holds
    (shaded).  ``axes``: one Axes per question (default: a new row of them); returns them."""
    import numpy as np

    qs = list(dict.fromkeys(table["question"]))
    if axes is None:
        n_levels = table["level"].nunique()
        _, grid = plt.subplots(
            1, len(qs), figsize=(4.4 * len(qs), 1.6 + 0.45 * n_levels), squeeze=False
        )
        axes = list(grid[0])
    for ax, q in zip(axes, qs, strict=False):
        part = table[table["question"] == q].reset_index(drop=True)
        y = np.arange(len(part))[::-1]
        for yi, r in zip(y, part.itertuples(), strict=False):
            ax.errorbar(
                r.estimate,
                yi,
                xerr=[[r.estimate - r.lo], [r.hi - r.estimate]],
                fmt="o",
                capsize=4,
                color=VERDICT_COLOURS[r.decision],
            )
        lo, hi = part["band_lo"].iloc[0], part["band_hi"].iloc[0]
        x0, x1 = ax.get_xlim()
        ax.axvspan(
            x0 if pd.isna(lo) else lo, x1 if pd.isna(hi) else hi, color="tab:green", alpha=0.1, lw=0
        )
        ax.set_xlim(min(x0, lo if not pd.isna(lo) else x0), max(x1, hi if not pd.isna(hi) else x1))
        ax.set_yticks(y, part["level"])
        ax.set_title(f"{q}: {part['measure'].iloc[0]}", fontsize=10)
    if title is not None:
        axes[0].set_ylabel(title)
    if caption and len(axes):
        axes[0].figure.suptitle(
            "estimate and interval; shaded: where the claim holds "
            "(green holds, red fails, grey undecided)",
            fontsize=9,
            y=1.02,
        )
    return axes
