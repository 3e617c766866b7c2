"""A picture of a Deck the Yard moment: pattern row, strand, hand and claim pile."""

from __future__ import annotations

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.patches import Circle, Rectangle

from gamelib.deck_the_yard.rules import DeckTheYardObservation, DeckTheYardState

BULB_FACES = {
    "red": "#d62728",
    "green": "#2ca02c",
    "yellow": "#f2c314",
    "blue": "#1f77b4",
    "purple": "#8c56b4",
    "pink": "#f08cc8",
    "bubble": "#e8f4fa",
}
OTHER_FACES = {"plug": "#555555", "broken": "#8c564b", "event": "#111111", "character": "#17becf"}


def draw(state: DeckTheYardState, ax: Axes | None = None, *, title: str | None = None) -> Axes:
    """The face-up patterns (bulbs as discs), the strand (empty slots as rings), the hand's cards
    and the claim pile, draw pile and blackout counts."""
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 4.2))
    obs = state.observation()
    length = state.config.strand_length
    for r, pattern in enumerate(obs.row):
        y = 3.4 - 0.7 * r
        ax.text(0, y, f"pattern {r + 1}", fontsize=8, va="center")
        for i, colour in enumerate(pattern):
            ax.add_patch(
                Circle(
                    (1.6 + 0.55 * i, y), 0.22, fc=BULB_FACES[colour], ec="#333333", gid="pattern"
                )
            )
    y = 3.4 - 0.7 * max(len(obs.row), 1) - 0.3
    ax.text(0, y, "strand", fontsize=9, va="center", fontweight="bold")
    for i in range(length):
        slot = obs.strand[i]
        x = 1.6 + 0.55 * i
        if slot is None:
            ax.add_patch(Circle((x, y), 0.22, fill=False, ec="#999999", ls="--"))
        else:
            ax.add_patch(
                Circle(
                    (x, y),
                    0.22,
                    fc=BULB_FACES[slot],
                    ec="#333333",
                    gid="strand",
                    hatch="oo" if slot == "bubble" else None,
                )
            )
    y -= 0.9
    ax.text(0, y, "hand", fontsize=9, va="center")
    for i, kind in enumerate(obs.hand):
        face = BULB_FACES.get(kind) or OTHER_FACES.get(kind, "#cccccc")
        ax.add_patch(
            Rectangle((1.4 + 0.75 * i, y - 0.3), 0.65, 0.6, fc=face, ec="#333333", gid="hand")
        )
        ax.text(1.4 + 0.75 * i + 0.325, y - 0.45, kind, fontsize=6, ha="center", va="top")
    counts = state.outcome().counters
    ax.text(
        5.4,
        3.4,
        f"claimed: {obs.claimed_patterns} patterns + {obs.claimed_characters} characters\n"
        f"(win at {state.config.win_threshold})\n"
        f"draw pile: {obs.pile_left}   patterns left: {obs.patterns_left}\n"
        f"blackouts: {counts['blackouts']}   strands lost: {counts['strands_lost']}",
        fontsize=8,
        va="top",
    )
    ax.set_xlim(-0.2, 8.5)
    ax.set_ylim(y - 0.9, 3.9)
    ax.set_aspect("equal")
    ax.axis("off")
    if title is None:
        title = (
            f"Deck the Yard — turn {state.turns + 1}, {state.decision}"
            if not state.is_over()
            else f"Deck the Yard — over after {state.turns} turns ({state.outcome().reason})"
        )
    ax.set_title(title, fontsize=10)
    return ax


def _svg_bulb(x: float, y: float, kind: str | None) -> str:
    if kind is None:
        return (
            f'<circle cx="{x}" cy="{y}" r="11" fill="none" stroke="#999999" '
            'stroke-dasharray="3,2"/>'
        )
    return f'<circle cx="{x}" cy="{y}" r="11" fill="{BULB_FACES[kind]}" stroke="#333333"/>' + (
        "<title>bubble</title>" if kind == "bubble" else ""
    )


def svg(obs: DeckTheYardObservation) -> str:
    """What the player sees, as an SVG picture for a browser (the playtest widget's view): the
    face-up patterns, the strand (empty slots dashed), the hand, the card awaiting the plug
    decision, and the claim, draw-pile and pattern counts — never the order of a pile."""
    length = obs.config.strand_length
    rows = max(len(obs.row), 1)
    height = 40 * rows + 150
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="gamelib-picture" width="640" '
        f'height="{height}" font-family="sans-serif">'
    ]
    for r, pattern in enumerate(obs.row):
        y = 20 + 40 * r
        out.append(f'<text x="4" y="{y + 4}" font-size="11">pattern {r + 1}</text>')
        for i, colour in enumerate(pattern):
            out.append(_svg_bulb(90 + 30 * i, y, colour))
    y = 20 + 40 * rows + 6
    out.append(f'<text x="4" y="{y + 4}" font-size="11" font-weight="bold">strand</text>')
    for i in range(length):
        out.append(_svg_bulb(90 + 30 * i, y, obs.strand[i]))
    y += 40
    out.append(f'<text x="4" y="{y + 4}" font-size="11">hand</text>')
    for i, kind in enumerate(obs.hand):
        face = BULB_FACES.get(kind) or OTHER_FACES.get(kind, "#cccccc")
        x = 80 + 62 * i
        ink = "#222222" if kind in ("yellow", "pink", "bubble") else "white"
        out.append(
            f'<rect x="{x}" y="{y - 14}" width="58" height="28" rx="4" fill="{face}" '
            f'stroke="#333333"/><text x="{x + 29}" y="{y + 4}" font-size="10" '
            f'text-anchor="middle" fill="{ink}">{kind}</text>'
        )
    y += 34
    if obs.pending is not None:
        out.append(
            f'<text x="4" y="{y}" font-size="11" fill="#b00000">drawn: a {obs.pending} '
            "— spend a plug on it?</text>"
        )
    y += 22
    out.append(
        f'<text x="4" y="{y}" font-size="11">claimed {obs.claimed_patterns} patterns + '
        f"{obs.claimed_characters} characters (win at {obs.config.win_threshold}) · "
        f"draw pile {obs.pile_left} · patterns left {obs.patterns_left} · "
        f"turn {obs.turn + 1}</text>"
    )
    out.append("</svg>")
    return "".join(out)
