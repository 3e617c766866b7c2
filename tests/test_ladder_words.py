"""A ladder's decisions on its own games (:func:`gamelib.ladder.verdicts`, the same rows as
:func:`gamelib.verdict.verdict` where both read the same runs) and its findings in words
(:func:`~gamelib.ladder.skill_text`, :func:`~gamelib.ladder.solitaire_text`): every word, interval
and order a sentence states is its table's."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from gamelib.core import ResultsError
from gamelib.deck_the_yard import DECK_THE_YARD
from gamelib.gargon import GARGON
from gamelib.garner import GARNER
from gamelib.ladder import (
    matchups,
    matrix,
    ratings,
    skill_text,
    solitaire_table,
    solitaire_text,
    verdicts,
)
from gamelib.stats import direction, interval_text
from gamelib.verdict import Fair, Skill, decide, verdict

NUM = r"(\d\.\d+ \[\d\.\d+, \d\.\d+\])"


@pytest.fixture(scope="module")
def garner() -> pd.DataFrame:
    return matchups(GARNER.config("A"), ["random", "greedy", "cautious"], 60, 11, workers=1,
                    progress=False)  # fmt: skip


@pytest.fixture(scope="module")
def gargon() -> pd.DataFrame:
    return matchups(GARGON.config("3p"), ["random", "greedy"], 60, 4, workers=1, progress=False)


@pytest.fixture(scope="module")
def yard() -> pd.DataFrame:
    return matchups(DECK_THE_YARD.config(), ["random", "greedy"], 60, 2, workers=1, progress=False)


def _same(a: pd.DataFrame, b: pd.DataFrame) -> None:
    cols = ["level", "question", "decision", "estimate", "lo", "hi", "deals", "games", "more_deals"]
    pd.testing.assert_frame_equal(a[cols].reset_index(drop=True), b[cols].reset_index(drop=True),
                                  check_dtype=False)  # fmt: skip


def test_a_ladders_fairness_is_the_verdict_on_its_mirror_runs(garner: pd.DataFrame):
    levels = ["random", "greedy", "cautious"]
    mine = verdicts(garner, [Fair(0.1)], alpha=0.1, beta=0.1)
    played = verdict(GARNER.config("A"), levels, [Fair(0.1)], alpha=0.1, beta=0.1, max_games=60,
                     seed=11, workers=1, progress=False)  # fmt: skip
    _same(mine, played)
    assert list(mine.level) == levels


def test_skill_is_decided_on_the_runs_verdict_plays_for_it(gargon, yard):
    # a one-v-rest run of the stronger level, and a solitaire's levels on the same shuffles, are
    # the very runs verdict() plays for skill: the same rows
    for table, config, seed, per in (
        (gargon, GARGON.config("3p"), 4, 3),
        (yard, DECK_THE_YARD.config(), 2, 2),
    ):
        mine = verdicts(table, [Skill(0.0)])
        played = verdict(config, ["random", "greedy"], [Skill(0.0)], max_games=60 * per, seed=seed,
                         workers=1, progress=False)  # fmt: skip
        assert list(mine.level) == ["greedy v random"]
        _same(mine, played)


def test_a_two_player_step_reads_both_seat_orders_and_a_sub_ladder(garner: pd.DataFrame):
    (row,) = verdicts(garner, [Skill(0.0)], ["random", "cautious"]).to_dict("records")
    pair = garner[(garner.matchup == "pair") & (garner.pairing == "random v cautious")]
    by_hand = decide([pair.reset_index(drop=True)], Skill(0.0), level="cautious v random",
                     stronger="cautious", weaker="random")  # fmt: skip
    assert row == by_hand and row["games"] == 2 * row["deals"]  # both seat orders
    with pytest.raises(Exception, match="not a level"):
        verdicts(garner, [Skill(0.0)], ["random", "mcts:9"])
    with pytest.raises(ResultsError):
        verdicts(garner.iloc[0:0].copy(), [Fair(0.1)])


def test_skill_text_says_each_step_and_the_order_its_tables_give(garner: pd.DataFrame):
    m, r = matrix(garner), ratings(garner)
    text = skill_text(m, r, {"random": ["greedy", "cautious"]})
    said = re.findall(
        rf"`([^`]+)` (beats|loses to|is not distinguishable from) `([^`]+)` \({NUM}\)", text
    )
    assert [(a, b) for a, _, b, _ in said] == [("greedy", "random"), ("cautious", "greedy")]
    for a, word, b, interval in said:
        c = m[(m.level_a == a) & (m.level_b == b)].iloc[0]
        assert interval == interval_text(c.rate, c.lo, c.hi)
        assert word == direction(
            c.lo, c.hi, "beats", "loses to", "is not distinguishable from", c.fair
        )
    n = int(re.search(r"`cautious` beats (\d+) of the 2 other levels", text).group(1))
    assert n == m[m.level_a == "cautious"].beats.sum()
    for a, interval in re.findall(rf"`(greedy|cautious)` {NUM}", text.split("opponents: ")[1]):
        c = m[(m.level_a == a) & (m.level_b == "random")].iloc[0]
        assert interval == interval_text(c.rate, c.lo, c.hi)
    order = re.search(r"best first\): (.+) — (not )?the ladder's order", text)
    assert re.findall(r"`([^`]+)`", order.group(1)) == list(r.level)
    assert (order.group(2) is None) == (list(r.level) == ["cautious", "greedy", "random"])


def test_skill_text_turns_with_a_step_that_loses(garner: pd.DataFrame):
    m = matrix(garner)
    flipped = m.assign(lo=1 - m.hi, hi=1 - m.lo, rate=1 - m.rate, beats=False)
    assert "`greedy` loses to `random`" in skill_text(flipped)
    assert "Ratings" not in skill_text(flipped) and skill_text(flipped).endswith("other levels.")


def test_solitaire_text_gives_each_levels_rate_and_paired_gain(yard: pd.DataFrame):
    solo = solitaire_table(yard)
    text = solitaire_text(solo)
    for r in solo.itertuples():
        assert f"`{r.level}` wins {interval_text(r.win_rate, r.lo, r.hi)}" in text
    g = solo.iloc[1]
    assert f"gain {interval_text(g.gain, g.gain_lo, g.gain_hi)}" in text and text.count("gain") == 1
