"""Chart helpers: the fair-share line each rate is compared with is drawn where it belongs."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pandas as pd
import pytest

from gamelib.plots import plot_rates


def _rates() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "player": ["greedy", "random"],
            "win_rate": [0.4, 0.2],
            "lo": [0.35, 0.15],
            "hi": [0.45, 0.25],
            "fair_share": [0.25, 0.5],  # random holds two of four seats
        }
    )


def test_a_reference_column_draws_each_rows_own_fair_share():
    ax = plot_rates(_rates(), "player", reference="fair_share")
    segments = ax.collections[-2:]
    heights = sorted(float(seg.get_segments()[0][0][1]) for seg in segments)
    assert heights == pytest.approx([0.25, 0.5])
    xs = [tuple(p[0] for p in seg.get_segments()[0]) for seg in segments]
    assert sorted(xs) == [pytest.approx((-0.4, 0.4)), pytest.approx((0.6, 1.4))]
    plt.close("all")


def test_a_number_draws_one_line_and_a_missing_column_is_named():
    ax = plot_rates(_rates(), "player", reference=0.5)
    assert [line.get_ydata()[0] for line in ax.get_lines() if line.get_linestyle() == "--"] == [0.5]
    with pytest.raises(ValueError, match="fair_shares"):
        plot_rates(_rates(), "player", reference="fair_shares")
    plt.close("all")
