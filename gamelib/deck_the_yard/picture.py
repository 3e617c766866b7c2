"""A picture of a Deck the Yard moment: pattern row, strand, hand and claim pile."""

from __future__ import annotations

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.patches import Circle, Rectangle

from gamelib.deck_the_yard.rules import DeckTheYardState

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
