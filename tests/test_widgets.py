"""The JupyterLab widgets driven through their models, without a browser: dropdowns are set,
buttons clicked, and the chart, the table, the picture and the record checked."""

from __future__ import annotations

import json
import random

import matplotlib

matplotlib.use("Agg")

import pandas as pd
import pytest

from gamelib import ConfigError, replay
from gamelib.core import ResultsError
from gamelib.deck_the_yard import DECK_THE_YARD
from gamelib.gargon import GARGON
from gamelib.gargon.picture import svg as gargon_svg
from gamelib.gargon.rules import COLOUR_OF, Play, resample_hidden
from gamelib.garner import GARNER
from gamelib.garner.picture import svg as garner_svg
from gamelib.sim import combine, load, results_dir, simulate
from gamelib.stats import player_win_rates
from gamelib.widgets import Playtest, describe, explore, play

# --- explore -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fairness() -> pd.DataFrame:
    return load(results_dir() / "garner-fairness-greedy.parquet")


@pytest.fixture(scope="module")
def fresh() -> pd.DataFrame:
    """Two small fresh runs of different setups and line-ups, combined into one table."""
    a = simulate(
        GARNER.config("A"), ["greedy", "random"], 30, seed=3, rotate_seats=True,
        workers=1, progress=False, engine="python",
    )  # fmt: skip
    d = simulate(
        GARNER.config("D"), ["random", "random"], 30, seed=3, workers=1, progress=False,
        engine="python",
    )  # fmt: skip
    return combine([a, d])


def test_explore_a_stored_study_charts_seat_0_per_setup_with_intervals(fairness):
    e = explore(results_dir() / "garner-fairness-greedy.parquet")
    assert e.game.options == ("garner",)
    assert e.group.value == "setup" and e.metric.value == "seat:0"
    res = e.result.set_index("setup")
    assert list(res.index) == ["A", "B", "C", "D", "E", "standard"]
    for setup, g in fairness.groupby(fairness["setup"].astype(str)):
        r = res.loc[setup]
        assert r["games"] == len(g)
        assert r["rate"] == pytest.approx(float((g["winner"] == 0).mean()))
        assert r["lo"] < r["rate"] < r["hi"]
        assert r["fair"] == pytest.approx(0.5)
    ax = e.figure.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == list(res.index)
    assert e.image.value[:4] == b"\x89PNG"
    assert f"{res.loc['A', 'rate']:.3f}" in e.table_html.value
    assert "21,600 games" in e.message.value


@pytest.mark.parametrize("path", sorted(results_dir().glob("*.parquet")), ids=lambda p: p.stem)
def test_every_stored_study_opens_and_charts_each_kind_of_metric(path):
    e = explore(path)
    kinds = {}
    for _label, key in e.metric.options:
        kinds.setdefault(key.partition(":")[0], key)  # one metric of each kind
    for key in kinds.values():
        e.metric.value = key
        assert not e.result.empty, key
        assert (e.result["lo"] <= e.result["hi"]).all(), key
        assert e.figure is not None and e.image.value[:4] == b"\x89PNG", key


def test_filters_and_colours_change_the_groups(fairness):
    e = explore(fairness)
    e.filters["must_move"].value = "one"
    one = fairness[fairness["must_move"].astype(str) == "one"]
    assert e.result["games"].sum() == len(one)
    e.hue.value = "straight_line"
    assert len(e.result) == 12
    assert set(e.result["straight_line"].astype(str)) == {"False", "True"}
    assert e.figure.axes[0].get_legend().get_title().get_text() == "straight_line"
    e.metric.value = "mean:turns"
    assert "mean" in e.result
    row = e.result.iloc[0]
    sel = one[
        (one["setup"].astype(str) == row["setup"])
        & (one["straight_line"] == (row["straight_line"] == "True"))
    ]
    assert row["mean"] == pytest.approx(sel["turns"].mean())


def test_a_fresh_table_gives_each_players_rate_as_player_win_rates_does(fresh):
    e = explore(fresh)
    assert set(e.filters) == {"suit_sizes", "cols", "setup"}  # A is 3×3, D 3×5
    e.filters["setup"].value = "A"
    e.group.value = "(none)"
    e.metric.value = "players"
    got = e.result.set_index("player")
    want = player_win_rates(fresh[fresh["setup"].astype(str) == "A"]).set_index("player")
    for p in ("greedy", "random"):
        assert got.loc[p, "rate"] == pytest.approx(want.loc[p, "rate"])
        assert got.loc[p, "lo"] == pytest.approx(want.loc[p, "lo"])
        assert got.loc[p, "fair"] == pytest.approx(want.loc[p, "fair_share"])


def test_an_empty_selection_says_so(fresh):
    e = explore(fresh)
    e.filters["setup"].value = "A"
    e.lineup.value = "random, random"  # only setup D was played by two random players
    assert "no games match" in e.message.value
    assert e.result.empty and e.figure is None and e.image.value == b""
    e.filters["setup"].value = "D"
    assert len(e.result) == 1 and e.result["games"].iloc[0] == 30


def test_several_games_in_one_table_are_chosen_one_at_a_time(fresh):
    yard = simulate(DECK_THE_YARD.config(), ["random"], 20, seed=1, workers=1, progress=False)
    both = pd.concat([fresh, yard], ignore_index=True)
    e = explore(both)
    assert set(e.game.options) == {"garner", "deck_the_yard"}
    e.game.value = "deck_the_yard"
    keys = [k for _, k in e.metric.options]
    assert "seat:0" in keys and "blackout" in keys and "seats" not in keys
    e.metric.value = "blackout"
    assert e.result["games"].sum() == 20
    assert e.result["rate"].iloc[0] == pytest.approx(float((yard["blackouts"] > 0).mean()))


def test_bad_tables_are_refused_by_name(fairness, tmp_path):
    with pytest.raises(ResultsError, match="winner"):
        explore(fairness.drop(columns=["winner"]))
    with pytest.raises(ResultsError, match="player_0"):
        explore(fairness.drop(columns=["player_0", "player_1"]))
    with pytest.raises(ResultsError, match="no such result table"):
        explore(tmp_path / "missing.parquet")
    with pytest.raises(ResultsError, match="DataFrame"):
        explore(42)  # type: ignore[arg-type]
    with pytest.raises(ResultsError, match="no games"):
        explore(fairness.iloc[:0])


# --- play ----------------------------------------------------------------------------------


def click_to_the_end(p: Playtest, rng: random.Random) -> int:
    """Play the human's side by clicking: a random legal decision each time (in Gargon, plays
    are made by selecting hand cards and clicking the play button)."""
    clicks = 0
    while p.record is None:
        assert p.picture.value == p.view()["picture"]
        plays = [m for m in p.state.legal_moves() if isinstance(m, Play)]
        if plays and (not p.buttons or rng.random() < 0.7):
            move = rng.choice(plays)
            for t in p.hand_toggles:
                t.value = t.card in move.cards
            assert not p.play_button.disabled, p.play_button.description
            p.play_button.click()
        else:
            assert p.buttons, "no decision offered while the game runs"
            rng.choice(p.buttons).click()
        clicks += 1
        assert clicks < 2000
    return clicks


CASES = [
    (GARNER.config("A"), ["greedy"], 1),
    (GARGON.config("4p"), ["greedy", "random", "greedy"], 2),
    (DECK_THE_YARD.config(), [], 0),
]


@pytest.mark.parametrize(("config", "opponents", "seat"), CASES, ids=["garner", "gargon", "yard"])
def test_a_whole_game_by_clicking_replays_to_the_same_outcome(config, opponents, seat):
    p = play(config, opponents, seat=seat, seed=11)
    assert p.players[seat] == "human"
    clicks = click_to_the_end(p, random.Random(4))
    assert clicks == sum(1 for s, _ in p.moves if s == seat)
    assert p.state.is_over() and not p.buttons and not p.hand_toggles
    rec = p.record
    assert rec["players"][seat] == "human" and rec["seed"] == 11
    assert len(rec["moves"]) == len(p.moves)
    assert replay(rec).outcome == p.state.outcome()
    assert "replays move by move" in p.download.value and "✓" in p.download.value
    assert json.loads(p.record_text.value) == rec
    assert "The game is over" in p.prompt.value


def test_the_same_seed_and_clicks_give_the_same_game():
    a = play(GARGON.config("3p"), ["greedy", "random"], seat=0, seed=5)
    b = play(GARGON.config("3p"), ["greedy", "random"], seat=0, seed=5)
    click_to_the_end(a, random.Random(1))
    click_to_the_end(b, random.Random(1))
    assert a.record == b.record
    c = play(GARGON.config("3p"), ["greedy", "random"], seat=0, seed=6)
    click_to_the_end(c, random.Random(1))
    assert c.record["start"] != a.record["start"]


def test_garner_decisions_are_labelled_in_the_rules_words():
    p = play(GARNER.config("A"), ["random"], seed=2)
    labels = [b.description for b in p.buttons]
    assert labels and all(x.startswith("lift the ") for x in labels)
    assert p.picture.value == garner_svg(p.state)
    p.buttons[0].click()
    assert all(b.description.startswith("place ") for b in p.buttons)
    while p.state.decision == "place":
        p.buttons[0].click()
    assert all(b.description.startswith("collect suit ") for b in p.buttons)


def test_garner_leave_behind_is_offered_under_never_exactly_six():
    p = play(GARNER.config("B"), ["greedy"], seed=1)
    seen = set()
    rng = random.Random(0)
    while p.record is None:
        seen.add(p.state.decision)
        if p.state.decision == "leave":
            assert all(b.description.startswith("leave ") for b in p.buttons)
        # collect the largest group so piles grow towards the forbidden size
        b = max(p.buttons, key=lambda b: len(getattr(b.move, "sites", ())) + rng.random())
        b.click()
    assert {"lift", "place", "collect"} <= seen


def test_gargon_shows_only_the_seats_own_numbers():
    seat = 1
    p = play(GARGON.config("4p"), ["greedy", "greedy", "random"], seat=seat, seed=9)
    rng = random.Random(3)
    checked = own_changes = 0
    while p.record is None:
        view = p.view()
        assert view["picture"] == gargon_svg(p.state.observation(seat))
        for _ in range(3):
            other = resample_hidden(p.state, seat, rng)
            assert p.view(other) == view  # nothing hidden from this seat shows
            checked += 1
        # a control: dealing the seat's own numbers again does change what it sees
        mine = resample_hidden(p.state, (seat + 1) % 4, rng)
        own_changes += p.view(mine)["picture"] != view["picture"]
        click_one(p, rng)
    assert checked > 30 and own_changes > 0


def click_one(p: Playtest, rng: random.Random) -> None:
    plays = [m for m in p.state.legal_moves() if isinstance(m, Play)]
    if plays and (not p.buttons or rng.random() < 0.7):
        move = rng.choice(plays)
        for t in p.hand_toggles:
            t.value = t.card in move.cards
        p.play_button.click()
    else:
        rng.choice(p.buttons).click()


def test_another_seats_face_down_play_is_logged_by_its_colours_only():
    p = play(GARGON.config("3p"), ["greedy", "greedy"], seat=2, seed=4)
    st = p.state
    assert st.current_player() == 2
    hand = sorted(st.hands[0])
    # two cards of one colour, described as seat 2 sees seat 0 play them
    a = hand[0]
    same = [c for c in range(102) if COLOUR_OF[c] == COLOUR_OF[a] and c != a]
    one = describe(st, Play((a,)), 0, 2)
    for c in same:
        assert describe(st, Play((c,)), 0, 2) == one
    assert "face down" in one and not any(ch.isdigit() for ch in one.split("(")[1])
    assert describe(st, Play((a,)), 2, 2) != one  # your own play shows its numbers


def test_gargon_plays_are_made_by_selecting_cards():
    p = play(GARGON.config("4p"), ["random"] * 3, seat=0, seed=1)
    assert p.state.current_player() == 0 and p.state.decision == "play"
    assert p.play_button.disabled and p.play_button.description == "select cards to play"
    for t in p.hand_toggles[:4]:  # four cards are never a legal play
        t.value = True
    assert p.play_button.disabled and "not a legal play" in p.play_button.description
    for t in p.hand_toggles[1:4]:
        t.value = False
    assert not p.play_button.disabled and p.play_button.description.startswith("play ")
    card = p.hand_toggles[0].card
    p.play_button.click()
    assert card not in p.state.hands[0]
    assert any(line.startswith("you: play ") for line in p.log)


def test_deck_the_yard_is_played_alone():
    p = play(DECK_THE_YARD.config(), seed=6)
    assert p.players == ["human"]
    labels = [b.description for b in p.buttons]
    assert labels == [
        "play a blue bulb",
        "play a purple bulb",
        "discard a blue",
        "discard a green",
        "discard a purple",
        "discard a red",
    ]
    p.buttons[0].click()
    assert p.state.observation(0).turn == 1  # (the refill then drew a broken bulb)
    assert p.log == ["you: play a blue bulb"]


def test_bad_playtest_input_is_refused_by_name():
    with pytest.raises(ConfigError, match="nobody"):
        play(GARNER.config("A"), ["nobody"])
    with pytest.raises(ConfigError, match="give 3 opponent"):
        play(GARGON.config("4p"), ["greedy", "greedy"])
    with pytest.raises(ConfigError, match="give 0 opponent"):
        play(DECK_THE_YARD.config(), ["greedy"])
    with pytest.raises(ConfigError, match="list of player names"):
        play(GARNER.config("A"), "greedy")
    with pytest.raises(ConfigError, match=r"seat must be one of 0\.\.1"):
        play(GARNER.config("A"), ["greedy"], seat=2)
    with pytest.raises(ConfigError, match="not the config of any known game"):
        play("garner", ["greedy"])
    with pytest.raises(ConfigError, match="seed"):
        play(GARNER.config("A"), ["greedy"], seed=-1)
    p = play(GARNER.config("A"), ["greedy"], seed=1)
    with pytest.raises(ConfigError, match="not a legal decision"):
        p.choose(("nonsense",))
