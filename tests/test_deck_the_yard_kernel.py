"""The compiled Deck the Yard core against the reference engine, decision by decision.

Kernel games (random and greedy play, entirely in compiled code) are replayed through the
reference ``DeckTheYardState`` — built from the kernel's deal, its reshuffles fed from the
kernel's chance log as a record's are — and through the kernel's own ``apply``: at every
decision the kernel's legal options must equal ``legal_moves()`` in order and the two positions
(hand, strand, row, pattern deck, draw pile by card id, claims, pending card, every count) must
agree; the outcome must match the kernel batch's table row, and the record the kernel writes
must replay. In greedy games the Python ``GreedyPlayer`` must choose the kernel's decision at
every step. ``make crosscheck`` runs the same check on 10^5 random games
(``DTY_CROSSCHECK_GAMES``), and for each greedy case a quarter of one config's share.
"""

from __future__ import annotations

import math
import os
import random
from collections import Counter

import numpy as np
import pytest

from gamelib.core import ConfigError, rule_variants
from gamelib.deck_the_yard import DECK_THE_YARD, DeckTheYardConfig
from gamelib.deck_the_yard import kernel as K
from gamelib.deck_the_yard.players import POLICIES
from gamelib.deck_the_yard.rules import PHASE_NAMES, generate_patterns
from gamelib.records import replay

BASE = DeckTheYardConfig()
FEW_PATTERNS = tuple(generate_patterns(4, 2, seed=1))
CONFIGS = {
    "standard": BASE,
    "bulbs": DeckTheYardConfig(hand_counts="bulbs"),
    "bulbs-plugs12": DeckTheYardConfig(hand_counts="bulbs", plugs=12),
    "events0": DeckTheYardConfig(events=0),
    "broken0": DeckTheYardConfig(broken=0),
    "plugs0": DeckTheYardConfig(plugs=0),
    "plugs20": DeckTheYardConfig(plugs=20),
    "win3": DeckTheYardConfig(win_threshold=3),
    "face_up1": DeckTheYardConfig(face_up=1),
    "face_up4": DeckTheYardConfig(face_up=4, win_threshold=4),
    "strand3-hand4": DeckTheYardConfig(
        strand_length=3, hand_size=4, bubbles=10, patterns=tuple(generate_patterns(10, 3))
    ),
    "bubbles0-chars0": DeckTheYardConfig(bubbles=0, characters=0),
    # four 2-bulb patterns: the pattern deck runs out and the row shrinks
    "few-patterns": DeckTheYardConfig(strand_length=2, patterns=FEW_PATTERNS, win_threshold=4),
    # specials crowd the pile: redraws run dry and set-aside cards stay out of play
    "crowded": DeckTheYardConfig(bulbs_per_colour=1, events=8, broken=10, characters=12),
}
# and every rule field moved off its default, as the config declares (one place per field)
CONFIGS.update(
    {
        f"variant-{n}": v
        for n, v in rule_variants(DeckTheYardConfig).items()
        if v not in CONFIGS.values()
    }
)
TOTAL_GAMES = int(os.environ.get("DTY_CROSSCHECK_GAMES", 12 * len(CONFIGS)))
GAMES_PER_CONFIG = max(1, math.ceil(TOTAL_GAMES / len(CONFIGS)))
N_RECORDS = 3  # kernel records written and replayed per config


def crosscheck(name: str, n_games: int, seed: int, player: str = "random") -> Counter[str]:
    """Replay ``n_games`` kernel games through the reference; counts what the games exercised.

    With a greedy ``player``, the Python ``GreedyPlayer`` must also choose the kernel's decision
    at every step, from the reference's observation."""
    cfg = CONFIGS[name]
    games = K.play(cfg, player, n_games, seed, record=True)
    python_player = None if player == "random" else DECK_THE_YARD.player(player)
    seen: Counter[str] = Counter()
    for g in range(n_games):
        ref = K.reference_state(games, g)
        t, st, rs, clog, work = games.start_state(g)
        assert np.array_equal(games.patterns[g], [p[-1] for p in ref.start()["patterns"]])
        decisions = games.game_decisions(g)
        where = f"{name} game {g} start"
        assert K.describe(t, st) == K.describe_reference(ref), where
        for i, d in enumerate(decisions):
            where = f"{name} game {g} decision {i}"
            moves = K.legal_moves(t, st, work)
            assert moves == ref.legal_moves(), where
            move = K.reference_move(int(d))
            assert move in moves, f"{where}: {move!r} is not legal"
            if python_player is not None:
                chosen = python_player(ref.observation(), moves, random.Random(0))
                assert chosen == move, f"{where}: {player} in Python chose {chosen!r}"
            seen[PHASE_NAMES[int(st[K.PHASE])]] += 1
            seen[type(move).__name__] += 1
            rows_before, blackouts_before = len(ref.row), ref.counts["blackouts"]
            shuffles_before = len(ref.chance.log)
            ref.apply(move)
            K.apply(t, st, int(d), rs, clog, work)
            assert K.describe(t, st) == K.describe_reference(ref), where
            seen["row_shrank"] += len(ref.row) < rows_before
            seen["reshuffle_after_blackout"] += (
                ref.counts["blackouts"] > blackouts_before and len(ref.chance.log) > shuffles_before
            )
        assert ref.is_over() and K.is_over(st), f"{name} game {g} did not end"
        assert K.legal(t, st, work) == 0
        assert ref.chance.unused() == 0, f"{name} game {g}: unused reshuffles"
        assert np.array_equal(clog, games.chance[g]), f"{name} game {g}: chance log"
        outcome = ref.outcome()
        assert K.outcome(t, st) == outcome, f"{name} game {g}"
        kernel_row = games.table[g]
        for col, value in outcome.row().items():
            assert kernel_row[col] == value, f"{name} game {g}: {col}"
        assert kernel_row["decisions"] == len(decisions)
        seen["games"] += 1
        seen[outcome.reason] += 1
        seen["reshuffles"] += len(ref.chance.log)
        for key in ("out_of_play", "strands_lost", "plugs_on_events", "plugs_on_characters"):
            seen[key] += outcome.counters[key] > 0
        for key in ("plugs_on_broken", "blackouts", "bubbles_played"):
            seen[key] += outcome.counters[key] > 0
        seen["claims"] += outcome.counters["claimed_patterns"]
    for g in range(min(N_RECORDS, n_games)):
        record = games.record(g)  # written from the kernel alone; replay refuses a difference
        played = replay(record)
        assert played.decisions == games.table["decisions"][g] == len(record["moves"])
        seen["records_replayed"] += 1
    return seen


@pytest.fixture(scope="module")
def exercised() -> Counter[str]:
    return Counter()


@pytest.mark.parametrize("name", list(CONFIGS))
def test_kernel_games_replay_through_the_reference(name: str, exercised: Counter[str]):
    exercised.update(crosscheck(name, GAMES_PER_CONFIG, seed=11))


GREEDY_CASES = [
    (name, f"greedy:{policy}")
    for policy in POLICIES
    for name in ("standard", "bulbs-plugs12", "few-patterns", "crowded")
]


@pytest.mark.parametrize(
    ("name", "player"), GREEDY_CASES, ids=[f"{n}-{p}" for n, p in GREEDY_CASES]
)
def test_kernel_greedy_games_replay_and_choose_as_the_python_player(name: str, player: str):
    seen = crosscheck(name, max(2, GAMES_PER_CONFIG // 4), seed=5, player=player)
    assert seen["games"] > 0 and seen["action"] > 0


def test_the_crosscheck_sample_exercised_every_rule(exercised: Counter[str]):
    # runs after the parametrized cross-check in this module; on its own it replays a few games
    if not exercised:
        for name in CONFIGS:
            exercised.update(crosscheck(name, 4, seed=11))
    for key in (
        "action",
        "plug",
        "PlayBulb",
        "PlayBubble",
        "Discard",
        "UsePlug",
        "won",
        "lost",
        "row_shrank",
        "reshuffles",
        "reshuffle_after_blackout",
        "out_of_play",
        "strands_lost",
        "plugs_on_events",
        "plugs_on_characters",
        "plugs_on_broken",
        "blackouts",
        "claims",
        "records_replayed",
    ):
        assert exercised[key] > 0, f"the sample never saw {key}: {dict(exercised)}"


def test_a_record_that_differs_from_the_kernel_is_refused():
    # the record check can fail: a changed move, a changed reshuffle, a changed outcome
    from gamelib.core import RecordError

    games = K.play_random(BASE, 3, seed=2, record=True)
    record = games.record(0)
    assert record["chance"], "the standard setup reshuffles at least once"
    bad_outcome = {**record, "outcome": {**record["outcome"], "turns": -1}}
    with pytest.raises(RecordError, match="outcome"):
        replay(bad_outcome)
    shuffle = record["chance"][0]
    bad_chance = {**record, "chance": [shuffle[1:] + shuffle[:1], *record["chance"][1:]]}
    with pytest.raises(RecordError):
        replay(bad_chance)
    moves = record["moves"]
    discard = next(i for i, m in enumerate(moves) if "discard" in m["move"])
    bad_move = {**record, "moves": [*moves[:discard], {"seat": 0, "move": {"discard": "plug"}}]}
    bad_move["moves"] += moves[discard + 1 :]
    with pytest.raises(RecordError):
        replay(bad_move)


def test_same_seed_same_games_and_first_k_of_n():
    a = K.play_random(BASE, 6, seed=3, record=True)
    b = K.play_random(BASE, 6, seed=3, record=True)
    assert np.array_equal(a.table, b.table) and np.array_equal(a.decisions, b.decisions)
    assert np.array_equal(a.chance, b.chance)
    first = K.play_random(BASE, 2, seed=3, record=True)
    assert np.array_equal(a.table[:2], first.table)
    assert np.array_equal(a.piles[:2], first.piles)
    later = K.play_random(BASE, 4, seed=3, start=2)
    assert np.array_equal(a.table[2:], later.table)
    other = K.play_random(BASE, 6, seed=4)
    assert not np.array_equal(a.table["seed"], other.table["seed"])
    # every game of a batch gets its own deal
    assert len({d.tobytes() for d in a.piles}) == len(a.piles)


def test_unrecorded_batches_give_the_same_table():
    a = K.play_random(CONFIGS["bulbs"], 30, seed=9, record=True)
    b = K.play_random(CONFIGS["bulbs"], 30, seed=9)
    assert np.array_equal(a.table, b.table)
    assert len(b.decisions) == 0 and len(b.piles) == 0
    with pytest.raises(ConfigError, match="not recorded"):
        K.reference_state(b, 0)


def test_decision_codes_name_every_reference_move():
    moves = [K.reference_move(d) for d in range(K.N_DECISIONS)]
    assert len(set(moves)) == K.N_DECISIONS
    assert [K.move_to_json(d) for d in range(K.N_DECISIONS)] == [
        K.reference_state(K.play_random(BASE, 1, 0, record=True), 0).move_to_json(m) for m in moves
    ]
    with pytest.raises(ValueError, match="not a Deck the Yard kernel decision"):
        K.reference_move(K.N_DECISIONS)


def test_bad_input_is_refused_by_name():
    with pytest.raises(ConfigError, match="n_games must be a non-negative int"):
        K.play_random(BASE, -1, seed=1)
    with pytest.raises(ConfigError, match="the kernel needs a DeckTheYardConfig, got str"):
        K.play_random("standard", 1, seed=1)  # type: ignore[arg-type]


def test_a_position_whose_claims_disagree_is_refused_by_name():
    from gamelib.deck_the_yard import stacked

    s = stacked(BASE, ["blue"] * 5, [])
    s.claimed = [3]
    with pytest.raises(ValueError, match=r"claimed patterns \[3\] disagree with its claims"):
        K.from_reference(s)


def test_unknown_kernel_players_are_refused_by_name():
    with pytest.raises(ConfigError, match="greedy:POLICY"):
        K.play(BASE, "cautious", 1, seed=1)
    with pytest.raises(ConfigError, match="got 'greedy:sometimes'"):
        K.play(BASE, "greedy:sometimes", 1, seed=1)
    assert K.play(BASE, "greedy", 1, seed=1).player == "greedy"


def test_greedy_claims_more_than_random_in_the_kernel_too():
    greedy = K.play(BASE, "greedy", 300, seed=8).table
    rand = K.play(BASE, "random", 300, seed=8).table
    # as in the Python engine's test: greedy claims patterns, random hardly ever
    assert greedy["claimed_patterns"].sum() > 2 * rand["claimed_patterns"].sum()
