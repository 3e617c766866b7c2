"""A picture of a Garner position: every stack level by level, top layer outlined, both piles."""

from __future__ import annotations

from typing import Any

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.patches import Rectangle

from gamelib.garner.rules import GarnerState

SUIT_LETTERS = "ABCDEFGHIJ"
SUIT_COLOURS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3")


def suit_label(suit: int) -> str:
    """The letter a picture uses for a suit (A for suit 0, B for suit 1, …)."""
    return SUIT_LETTERS[suit] if suit < len(SUIT_LETTERS) else str(suit)


def draw(state: GarnerState, ax: Axes | None = None, *, title: str | None = None) -> Axes:
    """Draw the layout (each card as suit letter + number, bottom to top), the top layer
    outlined in black, the cards waiting to be placed, and both scoring piles by suit."""
    cfg = state.config
    t = state.t
    rows, cols = cfg.rows, cfg.cols
    levels = max(cfg.height, max(map(len, state.stacks)), 1)
    if ax is None:
        _, ax = plt.subplots(figsize=(1.3 * cols + 1.5, 1.3 * rows + 1.6))
    top = set(state.top_sites())
    card_h = 0.84 / levels
    for site, stack in enumerate(state.stacks):
        r, c = divmod(site, cols)
        x0, y0 = c, rows - 1 - r + 0.9  # (x0, y0 - 0.9) is the cell's bottom-left corner
        ax.add_patch(
            Rectangle((x0 + 0.04, y0 - 0.9 + 0.04), 0.92, 0.92, fill=False, ec="#bbbbbb", lw=0.8)
        )
        for level, card in enumerate(stack):
            u, n = t.suit_of[card], t.number_of[card]
            is_top = level == len(stack) - 1 and site in top
            y = y0 - 0.9 + 0.08 + level * card_h
            ax.add_patch(
                Rectangle(
                    (x0 + 0.12, y),
                    0.76,
                    card_h * 0.92,
                    fc=SUIT_COLOURS[u % len(SUIT_COLOURS)],
                    ec="black" if is_top else "white",
                    lw=2.2 if is_top else 0.5,
                    alpha=1.0 if is_top else 0.55,
                    gid="top-card" if is_top else "card",
                )
            )
            ax.text(
                x0 + 0.5,
                y + card_h * 0.46,
                f"{suit_label(u)}{n}",
                ha="center",
                va="center",
                fontsize=max(6.0, 11 - levels),
                color="white" if is_top else "#222222",
                fontweight="bold" if is_top else "normal",
            )
        ax.text(x0 + 0.06, y0 - 0.9 + 0.06, str(site), fontsize=6, color="#888888")
    _draw_piles(ax, state, rows, cols)
    ax.set_xlim(-0.1, cols + 0.1)
    ax.set_ylim(-1.25, rows + 0.1)
    ax.set_aspect("equal")
    ax.axis("off")
    if title is None:
        title = _default_title(state)
    ax.set_title(title, fontsize=10)
    return ax


def _draw_piles(ax: Axes, state: GarnerState, rows: int, cols: int) -> None:
    n_suits = state.config.n_suits
    width = cols / (n_suits + 1)
    for seat in (0, 1):
        y = -0.45 - 0.5 * seat
        ax.text(0.0, y + 0.2, f"seat {seat}", fontsize=8, va="center")
        for u in range(n_suits):
            count = state.piles[seat][u]
            winner = state.suit_winner(u)
            x = (u + 1) * width
            ax.add_patch(
                Rectangle(
                    (x, y),
                    width * 0.85,
                    0.4,
                    fc=SUIT_COLOURS[u % len(SUIT_COLOURS)],
                    alpha=0.9 if winner == seat else 0.35,
                    ec="none",
                    gid="pile",
                )
            )
            ax.text(
                x + width * 0.42,
                y + 0.2,
                f"{suit_label(u)}: {count}",
                ha="center",
                va="center",
                fontsize=8,
            )


def _default_title(state: GarnerState) -> str:
    if state.is_over():
        out = state.outcome()
        who = f"seat {out.winners[0]} wins" if len(out.winners) == 1 else "draw"
        return f"Garner — over after {state.turns} turns ({out.reason}): {who}"
    lifted = ""
    if state.lifted:
        cards = ", ".join(
            f"{suit_label(state.t.suit_of[c])}{state.t.number_of[c]}" for _, c in state.lifted
        )
        lifted = f" — to place: {cards}"
    return f"Garner — turn {state.turns + 1}, seat {state.to_move} to {state.decision}{lifted}"


def draw_many(
    states: list[GarnerState], titles: list[str] | None = None, *, per_row: int = 2, **kw: Any
) -> Any:
    """Several positions in a grid of pictures, ``per_row`` to a row; returns the figure."""
    cfg = states[0].config
    ncols = min(per_row, len(states))
    nrows = -(-len(states) // ncols)
    fig, axes = plt.subplots(
        nrows,
        ncols,
        figsize=((1.3 * cfg.cols + 1) * ncols, (1.3 * cfg.rows + 1.8) * nrows),
        squeeze=False,
    )
    flat = [ax for row in axes for ax in row]
    for i, s in enumerate(states):
        draw(s, flat[i], title=titles[i] if titles else None, **kw)
    for ax in flat[len(states) :]:
        ax.axis("off")
    fig.tight_layout()
    return fig


def svg(state: GarnerState, *, cell: int = 64) -> str:
    """The position as an SVG picture for a browser (what the playtest widget shows): each site
    with its stack bottom to top, top-layer cards outlined, the cards waiting to be placed and
    both scoring piles by suit.  Garner hides nothing, so the position is its own observation."""
    cfg = state.config
    t = state.t
    rows, cols = cfg.rows, cfg.cols
    levels = max(cfg.height, max(map(len, state.stacks)), 1)
    top = set(state.top_sites())
    card_h = (cell - 14) / levels
    width = cols * cell + 4
    n_suits = cfg.n_suits
    height = rows * cell + 24 + 22 * 2 + (22 if state.lifted else 0)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="gamelib-picture" width="{width}" '
        f'height="{height}" font-family="sans-serif">'
    ]
    for site, stack in enumerate(state.stacks):
        r, c = divmod(site, cols)
        x0, y0 = 2 + c * cell, 2 + r * cell
        out.append(
            f'<rect x="{x0 + 1}" y="{y0 + 1}" width="{cell - 2}" height="{cell - 2}" '
            'fill="#fafafa" stroke="#bbbbbb"/>'
        )
        out.append(f'<text x="{x0 + 3}" y="{y0 + 10}" font-size="8" fill="#888888">{site}</text>')
        for level, card in enumerate(stack):
            u, n = t.suit_of[card], t.number_of[card]
            is_top = level == len(stack) - 1 and site in top
            y = y0 + cell - 4 - (level + 1) * card_h
            out.append(
                f'<rect x="{x0 + 12}" y="{y:.1f}" width="{cell - 16}" height="{card_h - 1:.1f}" '
                f'fill="{SUIT_COLOURS[u % len(SUIT_COLOURS)]}" '
                f'fill-opacity="{1.0 if is_top else 0.45}" '
                f'stroke="{"black" if is_top else "white"}" stroke-width="{2 if is_top else 0.5}"/>'
            )
            out.append(
                f'<text x="{x0 + 4 + cell / 2:.1f}" y="{y + card_h / 2 + 4:.1f}" font-size="10" '
                f'text-anchor="middle" fill="{"white" if is_top else "#222222"}" '
                f'font-weight="{"bold" if is_top else "normal"}">{suit_label(u)}{n}</text>'
            )
    y = rows * cell + 8
    if state.lifted:
        cards = ", ".join(
            f"{suit_label(t.suit_of[card])}{t.number_of[card]} (from site {s})"
            for s, card in state.lifted
        )
        out.append(f'<text x="2" y="{y + 10}" font-size="11">to place: {cards}</text>')
        y += 22
    box = (width - 50) / n_suits
    for seat in (0, 1):
        yy = y + 22 * seat
        out.append(f'<text x="2" y="{yy + 13}" font-size="11">seat {seat}</text>')
        for u in range(n_suits):
            won = state.suit_winner(u) == seat
            x = 48 + u * box
            out.append(
                f'<rect x="{x:.1f}" y="{yy}" width="{box - 4:.1f}" height="18" '
                f'fill="{SUIT_COLOURS[u % len(SUIT_COLOURS)]}" '
                f'fill-opacity="{0.9 if won else 0.3}"/>'
            )
            out.append(
                f'<text x="{x + box / 2 - 2:.1f}" y="{yy + 13}" font-size="11" '
                f'text-anchor="middle">{suit_label(u)}: {state.piles[seat][u]}</text>'
            )
    out.append("</svg>")
    return "".join(out)
