"""Deck the Yard: every card effect pinned with a stacked deck, properties, players."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamelib import ConfigError, IllegalMoveError, RecordError, play_game, replay
from gamelib.core import Move, Outcome, game_seeds
from gamelib.deck_the_yard import (
    DECK_THE_YARD,
    DeckTheYardConfig,
    Discard,
    GreedyPlayer,
    PlayBubble,
    PlayBulb,
    UsePlug,
    generate_patterns,
    load_patterns,
    new_state,
    stacked,
)
from gamelib.deck_the_yard.rules import PATTERN_FILE, DeckTheYardState


@pytest.fixture(autouse=True)
def dty_kernel_shadow() -> Iterator[None]:
    """Every legal ``DeckTheYardState.apply`` and every ``outcome()`` of this module's tests is
    also made by the compiled kernel on the same position (``kernel.from_reference``): its legal
    options before and after the move must equal ``legal_moves()`` in order, its position after
    the move must equal the reference's, and its outcome the reference's. So each rule test
    checks both engines. A reshuffle is the one place the two may differ: each engine draws its
    own order, so then the draw piles are compared as sets of cards."""
    from gamelib.deck_the_yard import kernel as K

    apply, outcome = DeckTheYardState.apply, DeckTheYardState.outcome

    def shadow_apply(self: DeckTheYardState, move: Move) -> None:
        legal = self.legal_moves()
        if move not in legal:  # the reference refuses it with its reason
            apply(self, move)
            return
        t, kst = K.from_reference(self)
        work, clog = K.new_work(t), K.new_log(t)
        assert K.legal_moves(t, kst, work) == legal, "kernel legal options"
        shuffles = len(self.chance.log)
        apply(self, move)
        K.apply(t, kst, K.decision(move), K.rng_streams(0), clog, work)
        got, want = K.describe(t, kst), K.describe_reference(self)
        reshuffled = len(self.chance.log) - shuffles
        assert len(K.KernelGames.chance_log_of(clog)) == reshuffled, "kernel reshuffles"
        if reshuffled:
            got["pile"], want["pile"] = sorted(got["pile"]), sorted(want["pile"])
        assert got == want, f"kernel position after {move!r}"
        assert K.legal_moves(t, kst, work) == self.legal_moves(), f"kernel options after {move!r}"

    def shadow_outcome(self: DeckTheYardState) -> Outcome:
        out = outcome(self)
        t, kst = K.from_reference(self)
        assert K.outcome(t, kst) == out, "kernel outcome"
        return out

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(DeckTheYardState, "apply", shadow_apply)
        mp.setattr(DeckTheYardState, "outcome", shadow_outcome)
        yield


CFG = DeckTheYardConfig()
# pattern 0: purple green red pink yellow · 1: red blue green pink yellow · 2: red pink blue ...
FILLER = ["yellow", "yellow", "pink", "pink", "red", "red"]


def test_default_patterns_are_the_seeded_set():
    assert CFG.patterns == tuple(generate_patterns())
    assert load_patterns(PATTERN_FILE) == CFG.patterns
    assert len(CFG.patterns) == 18 and len(set(CFG.patterns)) == 18
    assert all(len(set(p)) == 5 for p in CFG.patterns)
    assert CFG.n_cards == 70


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ("red,blue,green,pink\n", "has 4 bulbs"),
        ("red,red,green,pink,blue\n", "repeats a colour"),
        ("red,blue,green,pink,orange\n", "unknown colours"),
        ("red,blue,green,pink,purple\nred,blue,green,pink,purple\n", "appears twice"),
    ],
)
def test_a_user_pattern_file_is_validated(tmp_path, rows, message):
    path = tmp_path / "p.csv"
    path.write_text("slot1,slot2,slot3,slot4,slot5\n" + rows)
    with pytest.raises(ConfigError, match=message):
        load_patterns(path)


def test_a_valid_user_pattern_file_is_used(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("red,blue,green,pink,purple\nblue,red,green,pink,purple\n")
    pats = load_patterns(path)
    cfg = DECK_THE_YARD.config(None, patterns=pats)
    s = new_state(cfg, random.Random(1))
    assert sorted(s.observation().row) == sorted(pats)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"plugs": -1}, "plugs"),
        ({"strand_length": 7}, "needs more than"),
        ({"hand_size": 0}, "hand_size"),
        (
            {
                "bulbs_per_colour": 0,
                "bubbles": 0,
                "plugs": 1,
                "broken": 0,
                "events": 0,
                "characters": 0,
            },
            "cannot deal a hand",
        ),
    ],
)
def test_bad_configs_are_refused(fields, message):
    with pytest.raises(ConfigError, match=message):
        DECK_THE_YARD.config(None, **fields)


def test_setup_sets_specials_aside_and_shuffles_them_back():
    for seed in range(40):
        s = new_state(CFG, random.Random(seed))
        kinds = [s.kind[c] for c in s.hand]
        assert len(kinds) == 5
        assert not set(kinds) & {"broken", "event", "character"}
        assert len(s.pile) == 65
        if s.chance.log:  # specials were drawn and reshuffled into the pile
            assert sorted(s.chance.log[0]) == sorted(s.pile)


def test_coloured_bulbs_must_follow_a_face_up_pattern():
    s = stacked(CFG, ["purple", "green", "red", "blue", "pink"], FILLER)
    assert PlayBulb("red") in s.legal_moves()  # first colour of pattern 1
    assert PlayBulb("green") not in s.legal_moves()
    s.apply(PlayBulb("purple"))  # now only pattern 0 matches
    assert s.strand[:2] == ["purple", None]
    with pytest.raises(IllegalMoveError, match="does not continue any face-up pattern"):
        s.apply(PlayBulb("red"))
    with pytest.raises(IllegalMoveError, match="no orange card in hand"):
        s.apply(Discard("orange"))
    s.apply(PlayBulb("green"))
    s.apply(PlayBulb("red"))
    assert s.strand == ["purple", "green", "red", None, None]


def test_a_bubble_completes_a_strand_early_and_the_pattern_is_claimed():
    s = stacked(
        CFG,
        ["bubble", "blue", "blue", "blue", "blue"],
        FILLER,
        strand=["purple", "green", "red", "pink"],
    )
    s.apply(PlayBubble())
    assert s.claimed == [0] and s.strand == [None] * 5
    assert s.row == [2, 1]  # the next pattern card takes the claimed one's place
    assert len(s.discard) == 5  # the strand's bulbs, bubble included


def test_a_bubble_goes_last_and_only_once_per_strand():
    s = stacked(CFG, ["bubble", "bubble", "purple", "green", "blue"], FILLER)
    s.apply(PlayBubble())
    assert s.strand == [None, None, None, None, "bubble"]
    assert PlayBubble() not in s.legal_moves()
    s.apply(PlayBulb("purple"))
    assert s.strand[0] == "purple"
    t = stacked(
        CFG,
        ["red", "blue", "green", "pink", "blue"],
        FILLER,
        strand=[None, None, None, None, "bubble"],
    )
    for colour in ("red", "blue", "green", "pink"):  # pattern 1, slot 5 wild
        t.apply(PlayBulb(colour))
    assert t.claimed == [1]


def test_an_event_with_a_plug_does_nothing():
    s = stacked(CFG, ["plug", "blue", "blue", "blue", "blue"], ["event", "red"])
    s.apply(Discard("blue"))
    assert s.decision == "plug" and s.legal_moves() == [UsePlug(True), UsePlug(False)]
    s.apply(UsePlug(True))
    out = s.outcome().counters
    assert out["events_drawn"] == 1 and out["events_cancelled"] == 1
    assert out["blackouts"] == 0 and out["plugs_on_events"] == 1
    assert sorted(s.kind[c] for c in s.hand) == ["blue", "blue", "blue", "red"]


def test_an_event_without_a_plug_is_a_blackout_with_a_clean_redraw():
    pile = ["event", "character", "red", "broken", "green", "blue", "pink", "yellow", "red"]
    s = stacked(CFG, ["blue", "blue", "blue", "blue", "purple"], pile, rng=random.Random(3))
    s.apply(Discard("purple"))  # refill draws the event: no plug, so a blackout
    kinds = sorted(s.kind[c] for c in s.hand)
    assert kinds == ["blue", "green", "pink", "red", "yellow"]
    out = s.outcome()
    assert out.counters["blackouts"] == 1 and out.details["blackout_turns"] == (1,)
    pile_kinds = sorted(s.kind[c] for c in s.pile)
    assert pile_kinds == ["broken", "character", "red"]  # set aside, shuffled back
    assert len(s.chance.log) == 1
    assert sorted(s.kind[c] for c in s.discard) == ["blue"] * 4 + ["event", "purple"]


def test_a_blackout_when_the_pile_runs_dry_leaves_specials_out_of_play():
    s = stacked(CFG, ["blue", "blue", "blue", "blue", "purple"], ["event", "character", "red"])
    s.apply(Discard("purple"))
    assert [s.kind[c] for c in s.hand] == ["red"]
    assert [s.kind[c] for c in s.out_of_play] == ["character"]
    assert s.outcome().counters["out_of_play"] == 1


@pytest.mark.parametrize("use", [True, False])
def test_a_character_is_claimed_with_a_plug_or_lost(use):
    s = stacked(CFG, ["plug", "blue", "blue", "blue", "blue"], ["character", "red"])
    s.apply(Discard("blue"))
    s.apply(UsePlug(use))
    assert len(s.characters) == (1 if use else 0)
    assert s.outcome().counters["claimed_characters"] == (1 if use else 0)
    assert ("character" in [s.kind[c] for c in s.discard]) is not use


def test_without_a_plug_there_is_no_plug_decision():
    s = stacked(CFG, ["blue"] * 5, ["character", "red"])
    s.apply(Discard("blue"))
    assert s.decision == "action" and not s.characters


@pytest.mark.parametrize("use", [True, False])
def test_a_broken_bulb_with_and_without_a_plug(use):
    s = stacked(
        CFG,
        ["plug", "blue", "blue", "blue", "pink"],
        ["broken", "red"],
        strand=["purple", "green", None, None, "bubble"],
    )
    s.apply(Discard("blue"))
    s.apply(UsePlug(use))
    c = s.outcome().counters
    assert c["broken_drawn"] == 1 and c["broken_cancelled"] == (1 if use else 0)
    if use:
        assert s.strand == ["purple", "green", None, None, "bubble"]
    else:
        assert s.strand == [None] * 5 and c["strands_lost"] == 1
        assert sorted(s.kind[x] for x in s.discard) == sorted(
            ["blue", "broken", "purple", "green", "bubble"]
        )


def test_a_broken_bulb_on_an_empty_strand_changes_nothing_else():
    s = stacked(CFG, ["blue"] * 5, ["broken", "red"])
    s.apply(Discard("blue"))
    assert s.outcome().counters["strands_lost"] == 0 and s.strand == [None] * 5


def test_the_game_goes_on_after_the_pile_runs_dry_until_the_hand_is_empty():
    s = stacked(CFG, ["blue"] * 5, [])
    s.characters = list(range(60, 68))[:0]
    s.claimed = list(range(8))  # already eight claims: the game does not stop early
    s.claims = [[0, p, 0] for p in s.claimed]
    for _ in range(4):
        s.apply(Discard("blue"))
        assert not s.is_over()
    s.apply(Discard("blue"))
    assert s.is_over() and s.outcome().winners == (0,) and s.outcome().reason == "won"
    assert s.outcome().turns == 5


def test_when_the_pattern_deck_is_empty_the_row_shrinks():
    s = stacked(
        CFG,
        ["bubble", "blue", "blue", "blue", "blue"],
        FILLER,
        strand=["purple", "green", "red", "pink"],
    )
    s.deck = []
    s.apply(PlayBubble())
    assert s.row == [1]


seeds = st.integers(min_value=0, max_value=2**63 - 1)


@settings(max_examples=50, deadline=None)
@given(seeds, st.sampled_from([2, 3]), st.integers(min_value=0, max_value=10))
def test_every_card_is_accounted_for_and_games_end(seed, face_up, plugs):
    cfg = DECK_THE_YARD.config(None, face_up=face_up, plugs=plugs)
    s = new_state(cfg, random.Random(seed))
    rng = random.Random(seed ^ 5)
    steps = 0
    while not s.is_over():
        legal = s.legal_moves()
        assert legal
        s.apply(legal[rng.randrange(len(legal))])
        held = [*s.hand, *s.pile, *s.strand_cards, *s.discard, *s.characters, *s.out_of_play]
        if s.pending is not None:
            held.append(s.pending)
        assert sorted(held) == list(range(cfg.n_cards))
        steps += 1
        assert steps < 2000
    assert not s.hand and not s.pile


@settings(max_examples=20, deadline=None)
@given(seeds, st.sampled_from(["random", "greedy", "greedy:never", "greedy:claim_characters"]))
def test_same_seed_same_game_and_records_replay_with_reshuffles(seed, player):
    a = play_game(DECK_THE_YARD, CFG, [player], seed, record=True)
    b = play_game(DECK_THE_YARD, CFG, [player], seed, record=True)
    assert a.record == b.record
    again = replay(a.record)
    assert again.outcome == a.outcome


def test_a_record_with_a_tampered_reshuffle_is_refused():
    for seed in game_seeds(2, 50):
        rec = play_game(DECK_THE_YARD, CFG, ["random"], seed, record=True).record
        if rec["chance"]:
            break
    bad = copy.deepcopy(rec)
    bad["chance"][0] = bad["chance"][0][:-1]
    with pytest.raises(RecordError, match="not a reordering"):
        replay(bad)
    bad = copy.deepcopy(rec)
    bad["start"]["draw_pile"][0] = "plug#0"
    with pytest.raises(RecordError, match="malformed Deck the Yard start"):
        replay(bad)


@pytest.mark.parametrize(
    "policy", ["save_for_events", "claim_characters", "protect_strand", "never"]
)
def test_plug_policies_change_plug_use(policy):
    plays = [
        play_game(DECK_THE_YARD, CFG, [f"greedy:{policy}"], s).outcome.counters
        for s in game_seeds(4, 40)
    ]
    spent = {k: sum(c[f"plugs_on_{k}"] for c in plays) for k in ("events", "characters", "broken")}
    if policy == "never":
        assert spent == {"events": 0, "characters": 0, "broken": 0}
    elif policy == "save_for_events":
        assert spent["events"] > 0 and spent["characters"] == spent["broken"] == 0
    elif policy == "claim_characters":
        assert spent["characters"] > spent["events"] and spent["broken"] == 0
    else:
        assert spent["broken"] > 0 and spent["characters"] == 0


def test_greedy_claims_more_than_random():
    greedy = [
        play_game(DECK_THE_YARD, CFG, ["greedy"], s).outcome.counters["claimed_patterns"]
        for s in game_seeds(6, 60)
    ]
    rnd = [
        play_game(DECK_THE_YARD, CFG, ["random"], s).outcome.counters["claimed_patterns"]
        for s in game_seeds(6, 60)
    ]
    assert sum(greedy) > 2 * sum(rnd)
    with pytest.raises(ConfigError, match="unknown plug policy"):
        GreedyPlayer("hoard")


def test_picture_shows_the_moment():
    import matplotlib

    matplotlib.use("Agg")
    from gamelib.deck_the_yard.picture import draw

    s = stacked(CFG, ["bubble", "plug", "red", "blue", "pink"], FILLER, strand=["purple", "green"])
    ax = draw(s)
    gids = [p.get_gid() for p in ax.patches]
    assert gids.count("strand") == 2 and gids.count("hand") == 5
    assert gids.count("pattern") == 2 * 5


def test_a_move_of_the_wrong_kind_with_equal_fields_is_refused():
    s = stacked(CFG, ["purple", "green", "red", "blue", "pink"], FILLER)
    assert Discard("green") in s.legal_moves()
    with pytest.raises(IllegalMoveError, match="does not continue"):
        s.apply(PlayBulb("green"))


# --- the open reading `hand_counts`: what "a hand of 5" counts ----------------------------

BULBS = DeckTheYardConfig(hand_counts="bulbs")


def test_an_unknown_hand_count_reading_is_refused_by_name():
    with pytest.raises(ConfigError, match="hand_counts must be one of cards, bulbs, got 'plugs'"):
        DECK_THE_YARD.config(None, hand_counts="plugs")
    assert CFG.hand_counts == "cards"  # today's behaviour stays the default


@pytest.mark.parametrize(("reading", "hand"), [("cards", 5), ("bulbs", 6)])
def test_a_held_plug_counts_toward_the_hand_only_when_cards_count(reading, hand):
    cfg = DeckTheYardConfig(hand_counts=reading)
    s = stacked(cfg, ["plug", "blue", "blue", "blue", "blue"], ["red", "green", "pink"])
    s.apply(Discard("blue"))
    kinds = sorted(s.kind[c] for c in s.hand)
    assert len(kinds) == hand and kinds.count("plug") == 1
    assert len(s.pile) == 3 - (hand - 4)  # "bulbs" draws one card more


@pytest.mark.parametrize(("reading", "drawn"), [("cards", ["plug"]), ("bulbs", ["plug", "red"])])
def test_a_drawn_plug_ends_the_refill_only_when_cards_count(reading, drawn):
    cfg = DeckTheYardConfig(hand_counts=reading)
    s = stacked(cfg, ["blue"] * 5, ["plug", "red", "green"])
    s.apply(Discard("blue"))
    assert sorted(s.kind[c] for c in s.hand) == sorted(["blue"] * 4 + drawn)


@pytest.mark.parametrize("reading", ["cards", "bulbs"])
def test_a_blackout_redraw_uses_the_same_count(reading):
    pile = ["event", "plug", "red", "green", "blue", "pink", "yellow", "red"]
    cfg = DeckTheYardConfig(hand_counts=reading)
    s = stacked(cfg, ["blue", "blue", "blue", "blue", "purple"], pile)
    s.apply(Discard("purple"))  # the refill draws the event: no plug in hand, a blackout
    assert s.outcome().counters["blackouts"] == 1
    kinds = sorted(s.kind[c] for c in s.hand)
    if reading == "cards":
        assert kinds == ["blue", "green", "pink", "plug", "red"]
    else:
        assert kinds == ["blue", "green", "pink", "plug", "red", "yellow"]


def test_setup_hands_hold_five_bulbs_and_any_plugs_on_top_when_bulbs_count():
    plugs_seen = 0
    for seed in range(60):
        cards = new_state(CFG, random.Random(seed))
        bulbs = new_state(BULBS, random.Random(seed))
        assert len(cards.hand) == 5
        kinds = [bulbs.kind[c] for c in bulbs.hand]
        assert len(kinds) - kinds.count("plug") == 5
        assert not set(kinds) & {"broken", "event", "character"}
        # the same shuffle: the "bulbs" hand is the "cards" hand drawn further
        assert bulbs.hand[: len(cards.hand)] == cards.hand or cards.chance.log
        plugs_seen += kinds.count("plug")
    assert plugs_seen > 0  # the seeds exercise the difference


def test_under_the_bulbs_reading_a_hand_of_plugs_alone_is_played_out():
    s = stacked(BULBS, ["plug", "plug", "blue"], [])
    s.apply(Discard("blue"))
    assert not s.is_over() and s.legal_moves() == [Discard("plug")]
    s.apply(Discard("plug"))
    s.apply(Discard("plug"))
    assert s.is_over()


@settings(max_examples=30, deadline=None)
@given(seeds, st.integers(min_value=0, max_value=12))
def test_every_card_is_accounted_for_when_bulbs_count(seed, plugs):
    cfg = DECK_THE_YARD.config(None, plugs=plugs, hand_counts="bulbs")
    s = new_state(cfg, random.Random(seed))
    rng = random.Random(seed ^ 7)
    steps = 0
    while not s.is_over():
        legal = s.legal_moves()
        s.apply(legal[rng.randrange(len(legal))])
        if s.decision == "action":
            bulbs = sum(1 for c in s.hand if s.kind[c] != "plug")
            assert bulbs == 5 or not s.pile  # full by the bulbs count, or the pile is empty
        held = [*s.hand, *s.pile, *s.strand_cards, *s.discard, *s.characters, *s.out_of_play]
        if s.pending is not None:
            held.append(s.pending)
        assert sorted(held) == list(range(cfg.n_cards))
        steps += 1
        assert steps < 2000
    assert not s.hand and not s.pile


def test_the_readings_differ_in_play_on_the_same_shuffles():
    seeds_ = game_seeds(11, 30)
    cards = [play_game(DECK_THE_YARD, CFG, ["greedy"], s).outcome for s in seeds_]
    bulbs = [play_game(DECK_THE_YARD, BULBS, ["greedy"], s).outcome for s in seeds_]
    assert [o.turns for o in bulbs] != [o.turns for o in cards]


def test_win_threshold_decides_only_the_result_not_the_play():
    for seed in game_seeds(12, 20):
        a = play_game(DECK_THE_YARD, CFG, ["greedy:claim_characters"], seed).outcome
        b = DECK_THE_YARD.config(None, win_threshold=6)
        o = play_game(DECK_THE_YARD, b, ["greedy:claim_characters"], seed).outcome
        assert a.counters["claimed"] == o.counters["claimed"] and a.turns == o.turns
        assert o.counters["won"] == int(o.counters["claimed"] >= 6)


def test_the_hand_counts_reading_is_a_cli_flag(tmp_path, capsys):
    from gamelib.cli import main

    out = tmp_path / "b.parquet"
    argv = ["simulate", "deck_the_yard", "--players", "greedy", "-n", "3", "--seed", "1"]
    assert (
        main(
            [*argv, "--hand-counts", "bulbs", "--workers", "1", "--no-progress", "--out", str(out)]
        )
        == 0
    )
    from gamelib.sim import load

    assert set(load(out)["hand_counts"].astype(str)) == {"bulbs"}
    assert main([*argv, "--hand-counts", "plugs", "--workers", "1", "--no-progress"]) == 2
    assert "hand_counts must be one of cards, bulbs" in capsys.readouterr().err
