"""A picture of a Gargon table: hands as colour counts, the table, captures and both piles."""

from __future__ import annotations

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.patches import Rectangle

from gamelib.gargon.rules import (
    COLOUR_OF,
    COLOURS,
    N_COLOURS,
    VALUE_OF,
    GargonObservation,
    GargonState,
)

COLOUR_FACES = ("#f2f2f2", "#4c72b0", "#8172b3", "#c44e52", "#e5c33a", "#55a868")


def _card(ax: Axes, x: float, y: float, colour: int, text: str, gid: str, w: float = 0.5) -> None:
    ax.add_patch(Rectangle((x, y), w, 0.6, fc=COLOUR_FACES[colour], ec="#444444", lw=0.8, gid=gid))
    dark = colour in (0, 4)
    ax.text(
        x + w / 2,
        y + 0.3,
        text,
        ha="center",
        va="center",
        fontsize=7,
        color="#222222" if dark else "white",
    )


def draw(state: GargonState, ax: Axes | None = None, *, title: str | None = None) -> Axes:
    """One row per player: hand colour counts (numbers hidden), cards on the table (face down
    as '?', or turned up), captured cards by colour with the current score; piles at the top."""
    n = state.n_players
    if ax is None:
        _, ax = plt.subplots(figsize=(13, 1.1 * n + 2.2))
    scores = state.scores()
    y_top = n * 1.1 + 0.4
    for i, pile in enumerate(state.piles):
        ax.text(0, y_top + 0.9 * i + 0.3, f"pile {i} ({len(pile)})", fontsize=8, va="center")
        for k, c in enumerate(reversed(pile[-40:])):
            ax.add_patch(
                Rectangle(
                    (2.2 + 0.2 * k, y_top + 0.9 * i),
                    0.18,
                    0.6,
                    fc=COLOUR_FACES[COLOUR_OF[c]],
                    ec="#888888",
                    lw=0.4,
                    gid="pile",
                )
            )
    for s in range(n):
        y = (n - 1 - s) * 1.1
        tag = " (lead)" if s == state.lead else ""
        arrow = "▶ " if s == state.current_player() else "  "
        ax.text(
            0,
            y + 0.3,
            f"{arrow}seat {s}{tag}",
            fontsize=9,
            va="center",
            fontweight="bold" if arrow.strip() else "normal",
        )
        counts = [0] * N_COLOURS
        for c in state.hands[s]:
            counts[COLOUR_OF[c]] += 1
        x = 2.2
        for col in range(N_COLOURS):
            if counts[col]:
                _card(ax, x, y, col, str(counts[col]), "hand", w=0.35)
                x += 0.4
        x = 5.0
        for c in sorted(state.table[s]):
            _card(ax, x, y, COLOUR_OF[c], str(VALUE_OF[c]) if state.turned_up else "?", "table")
            x += 0.55
        x = 7.0
        for col in range(N_COLOURS):
            caps = sorted(VALUE_OF[c] for c in state.captured[s] if COLOUR_OF[c] == col)
            if caps:
                _card(
                    ax, x, y, col, ",".join(map(str, caps)), "captured", w=0.25 + 0.22 * len(caps)
                )
                x += 0.32 + 0.22 * len(caps)
        ax.text(x + 0.2, y + 0.3, f"{scores[s]:g}", fontsize=9, va="center")
    ax.text(2.2, -0.35, "hand (colour counts)", fontsize=7, color="#666666")
    ax.text(5.0, -0.35, "table", fontsize=7, color="#666666")
    ax.text(7.0, -0.35, "captured (values) · score", fontsize=7, color="#666666")
    ax.set_xlim(-0.1, 13.5)
    ax.set_ylim(-0.6, y_top + 1.8)
    ax.axis("off")
    if title is None:
        title = (
            f"Gargon — round {state.rounds + 1}, seat {state.current_player()} to {state.decision}"
            if not state.is_over()
            else f"Gargon — over after {state.rounds} rounds ({state.outcome().reason})"
        )
    ax.set_title(title, fontsize=10)
    return ax


def _svg_card(x: float, y: float, colour: int, text: str, w: float = 22) -> str:
    ink = "#222222" if colour in (0, 4) else "white"
    return (
        f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="26" rx="3" '
        f'fill="{COLOUR_FACES[colour]}" stroke="#444444" stroke-width="0.8"/>'
        f'<text x="{x + w / 2:.1f}" y="{y + 17}" font-size="11" text-anchor="middle" '
        f'fill="{ink}">{text}</text>'
    )


def svg(obs: GargonObservation) -> str:
    """What one seat sees, as an SVG picture for a browser (the playtest widget's view): its
    own hand with numbers; every other hand as colour counts; the table face down (colours and
    '?') until turned up; captures by colour with their values; both piles' sizes and the
    colours of their top cards.  Built from the observation alone, so it cannot show a hidden
    number."""
    n = len(obs.hand_colours)
    row_h = 36
    width = 900
    height = 78 + n * row_h + 24
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="gamelib-picture" width="{width}" '
        f'height="{height}" font-family="sans-serif">'
    ]
    for i, pile in enumerate(obs.pile_colours):
        y = 4 + 30 * i
        out.append(f'<text x="4" y="{y + 17}" font-size="11">pile {i} ({len(pile)})</text>')
        for k, colour in enumerate(pile[:12]):
            out.append(_svg_card(90 + 16 * (11 - k), y, colour, "", w=14))
        if pile:
            out.append(
                f'<text x="290" y="{y + 17}" font-size="10" fill="#666666">'
                f"top: {COLOURS[pile[0]]}</text>"
            )
    y0 = 76
    for label, lx in (("hand", 120), ("table", 420), ("captured (values)", 560)):
        out.append(f'<text x="{lx}" y="{y0 - 4}" font-size="9" fill="#666666">{label}</text>')
    for s in range(n):
        y = y0 + s * row_h
        marks = ("▶ " if s == obs.to_move and obs.phase != "over" else "") + f"seat {s}"
        if s == obs.seat:
            marks += " (you)"
        if s == obs.lead:
            marks += " · lead"
        if obs.passed[s]:
            marks += " · passed"
        weight = "bold" if s == obs.seat else "normal"
        out.append(f'<text x="4" y="{y + 17}" font-size="11" font-weight="{weight}">{marks}</text>')
        x = 120.0
        if s == obs.seat:
            for c in obs.hand:
                out.append(_svg_card(x, y, COLOUR_OF[c], str(VALUE_OF[c])))
                x += 24
        else:
            counts = [0] * N_COLOURS
            for colour in obs.hand_colours[s]:
                counts[colour] += 1
            for colour in range(N_COLOURS):
                if counts[colour]:
                    out.append(_svg_card(x, y, colour, f"{counts[colour]}×"))
                    x += 24
        x = 420.0
        if obs.turned_up is not None:
            for c in obs.turned_up[s]:
                out.append(_svg_card(x, y, COLOUR_OF[c], str(VALUE_OF[c])))
                x += 24
        else:
            for colour in obs.table_colours[s]:
                out.append(_svg_card(x, y, colour, "?"))
                x += 24
        x = 560.0
        for colour in range(N_COLOURS):
            values = [VALUE_OF[c] for c in obs.captured[s] if COLOUR_OF[c] == colour]
            if values:
                text = ",".join(map(str, values))
                w = 8 + 6.5 * len(text)
                out.append(_svg_card(x, y, colour, text, w=w))
                x += w + 3
    notes = [f"round {obs.round + 1}", f"{obs.phase}"]
    if obs.shape is not None:
        notes.append("lead's shape " + ":".join(map(str, obs.shape)))
    if obs.resolving is not None:
        notes.append(f"resolving {COLOURS[obs.resolving]}")
    if obs.owed:
        notes.append("draws owed: " + ", ".join(f"seat {s} {k}" for s, k in obs.owed))
    if obs.discard:
        notes.append(f"{len(obs.discard)} discarded")
    out.append(
        f'<text x="4" y="{height - 8}" font-size="10" fill="#444444">{" · ".join(notes)}</text>'
    )
    out.append("</svg>")
    return "".join(out)
