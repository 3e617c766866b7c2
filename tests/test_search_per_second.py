"""Search players by time per decision (``mcts:25ms``, :mod:`gamelib.timed`) and Gargon's
evaluation cut-off (``ismcts:N:cut:K``): the new forms parse, resolve to concrete names and play
legal, reproducible games; the existing specs play exactly the moves they played before."""

from __future__ import annotations

import hashlib
import json
import math
import warnings

import numpy as np
import pytest

from gamelib import ConfigError, play_game, timed
from gamelib.core import GamelibWarning, SplitMixRandom, time_budget
from gamelib.gargon import GARGON, new_state
from gamelib.gargon import kernel as K
from gamelib.gargon.search import (
    EVAL_WEIGHTS,
    FEATURES,
    PROFILE,
    IsmctsPlayer,
    evaluate,
    features,
    template,
)
from gamelib.garner import GARNER
from gamelib.sim import simulate

# Move lists of seeded games recorded before the cut-off and time forms existed (gamelib at
# 74a215e): sha256 of the record's moves as JSON, first 16 hex digits, and the move count. The
# Garner standard game was recorded again at Garner's play revision 1 (greedy's ties among
# equally valued placements taken in site order; before: 34a65547301a8a32, also 126 moves).
BEFORE = [
    (GARGON, "4p", ["ismcts:50", "greedy", "greedy", "greedy"], 11, "18d8264188fc89be", 122),
    (
        GARGON,
        "4p",
        ["greedy", "ismcts:50:greedy:0.5", "random", "ismcts:30"],
        12,
        "0d8cff9e69630642",
        110,
    ),
    (GARNER, "A", ["mcts:50", "greedy"], 13, "6bdbd8a7cf080960", 46),
    (GARNER, "standard", ["greedy", "mcts:50:random"], 14, "867d16a04f1ff268", 126),
]


@pytest.mark.parametrize(("game", "setup", "players", "seed", "digest", "n_moves"), BEFORE)
def test_existing_specs_play_the_moves_they_played_before(
    game, setup, players, seed, digest, n_moves
):
    rec = play_game(game, game.config(setup), players, seed, record=True).record
    assert rec is not None
    moves = rec["moves"]
    text = json.dumps(moves, default=repr)
    assert (hashlib.sha256(text.encode()).hexdigest()[:16], len(moves)) == (digest, n_moves)


# --- Gargon's evaluation cut-off --------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "want"),
    [
        ("ismcts:200:cut:2", (200, "random", 0.7, 2)),
        ("ismcts:50:greedy:cut:1", (50, "greedy", 0.7, 1)),
        ("ismcts:50:random:0.3:cut:3", (50, "random", 0.3, 3)),
        ("ismcts:50:0.3:cut:1", (50, "random", 0.3, 1)),
        ("ismcts:50:greedy:0.5", (50, "greedy", 0.5, 0)),
    ],
)
def test_cut_off_specs_parse(spec, want):
    p = GARGON.player(spec)
    assert isinstance(p, IsmctsPlayer)
    assert (p.iterations, p.playout, p.c, p.cutoff) == want
    if want[3]:
        assert p.__name__.endswith(f":cut:{want[3]}")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ismcts:50:cut", "cut:K takes a whole number K ≥ 1"),
        ("ismcts:50:cut:0", "cut:K takes a whole number K ≥ 1"),
        ("ismcts:50:cut:two", "got 'two'"),
        ("ismcts:50:cut:2:greedy", "unexpected 'greedy'"),
        ("ismcts:50:cut:2:1", "unexpected '1'"),
    ],
)
def test_bad_cut_off_specs_are_refused_by_name(spec, message):
    with pytest.raises(ConfigError, match=message) as err:
        GARGON.player(spec)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_evaluation_is_a_distribution_that_follows_the_score(n):
    """The evaluation gives win chances that sum to 1, and a seat whose captures are given to
    it (everything else equal) is rated higher than before."""
    cfg = GARGON.config(None, n_players=n)
    t = K.tables(cfg)
    s = new_state(cfg, __import__("random").Random(n))
    _, st = K.from_reference(s)
    row = np.zeros(K.N_RESULTS, np.int64)
    seat_rows = np.zeros((n, K.N_SEAT_RESULTS), np.int64)
    scores, amulets, share = np.zeros(n), np.zeros(n), np.zeros(n)
    feats = np.zeros((n, len(FEATURES)))
    evaluate(t, st, row, seat_rows, scores, amulets, feats, share)
    assert math.isclose(share.sum(), 1.0)
    before = share[0]
    for c in range(3):  # the 1s of three colours (5 amulets each) captured by seat 0
        st[K.O_LOC + 17 * c + 2] = K.L_CAPTURED + 0
    features(t, st, row, seat_rows, scores, amulets, feats)
    assert feats[0, 0] == pytest.approx(1.5)
    evaluate(t, st, row, seat_rows, scores, amulets, feats, share)
    assert share[0] > before
    assert EVAL_WEIGHTS.shape == (6, len(FEATURES))


def test_cut_off_search_profile_counts_every_stage():
    s = new_state(GARGON.config("4p"), __import__("random").Random(5))
    obs = s.observation(0)
    prof = np.zeros(len(PROFILE), np.int64)
    p = GARGON.player("ismcts:200:cut:1")
    a = p.search(obs, 3, False, prof)
    b = p.search(obs, 3)
    assert a[0] == b[0] and (a[2] == b[2]).all()  # the profile does not change the search
    assert (prof[:4] > 0).all()
    assert template(obs).base[K.PHASE] == K.PLAY


@pytest.mark.parametrize("spec", ["ismcts:40:cut:1", "ismcts:30:greedy:cut:2"])
def test_cut_off_players_play_legal_reproducible_games(spec):
    cfg = GARGON.config("4p")
    players = [spec, "greedy", "random", spec]
    a = simulate(cfg, players, 2, 9, workers=1, progress=False)
    b = simulate(cfg, players, 2, 9, workers=1, progress=False)
    assert a.equals(b)
    assert set(a["player_0"]) == {spec}


# --- time per decision --------------------------------------------------------------------------


def test_time_budget_reads_only_the_first_option():
    assert time_budget("mcts:25ms") == 25.0
    assert time_budget("ismcts:2.5ms:cut:1") == 2.5
    assert time_budget("mcts:25") is None
    assert time_budget("mcts:greedy:25ms") is None
    assert time_budget("greedy") is None


@pytest.mark.parametrize(
    ("game", "spec"),
    [(GARGON, "ismcts:25ms"), (GARNER, "mcts:25ms"), (GARNER, "solver:25ms:6")],
)
def test_an_unresolved_time_spec_is_refused_with_the_way_to_resolve_it(game, spec):
    with pytest.raises(ConfigError, match=r"timed\.resolve") as err:
        game.player(spec)
    assert spec in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize(
    ("game", "spec", "message"),
    [
        (GARGON, "ismcts:0ms", "'ismcts:0ms': the time per decision must be more than 0 ms"),
        (GARGON, "greedy:25ms", "'greedy:25ms': greedy does not take an iteration count"),
        (GARNER, "nobody:25ms", "unknown garner player 'nobody:25ms'"),
        (GARNER, "mcts:fast", "got 'fast' in 'mcts:fast'"),
    ],
)
def test_bad_time_specs_are_refused_in_one_line_naming_them(game, spec, message, tmp_path):
    with pytest.raises(ConfigError, match=message) as err:
        timed.resolve(game.config(), spec, cache=tmp_path)
        game.player(spec)
    assert "\n" not in str(err.value)


def test_a_time_spec_resolves_once_to_a_concrete_name_that_replays(tmp_path, monkeypatch):
    cfg = GARGON.config("4p")
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always", GamelibWarning)
        name = timed.resolve(cfg, "ismcts:3ms:cut:1", cache=tmp_path)
    assert isinstance(name, str) and name.startswith("ismcts:") and name.endswith(":cut:1")
    n = int(name.split(":")[1])
    assert n >= 1 and int(str(n)[:2].ljust(len(str(n)), "0")) == n  # two significant digits
    assert any(name in str(w.message) for w in said)
    kept = json.loads((tmp_path / timed.CACHE_FILE).read_text())
    (rec,) = kept.values()
    assert rec["resolved"] == name and len(rec["points"]) >= 2

    def no_measuring(*args, **kwargs):
        raise AssertionError("measured again")

    monkeypatch.setattr(timed, "measure", no_measuring)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", GamelibWarning)
        assert timed.resolve(cfg, "ismcts:3ms:cut:1", cache=tmp_path) == name
        seated = timed.resolve_players(cfg, ["ismcts:3ms:cut:1", "greedy"] * 2, cache=tmp_path)
    assert seated == [name, "greedy", name, "greedy"]
    a = simulate(cfg, seated, 2, 4, workers=1, progress=False)
    b = simulate(cfg, seated, 2, 4, workers=1, progress=False)
    assert a.equals(b) and set(a["player_0"]) == {name}


def test_the_sample_positions_are_fixed():
    cfg = GARNER.config("A")
    a = timed.positions(GARNER, cfg, "mcts:5ms")
    b = timed.positions(GARNER, cfg, "mcts:5ms")
    assert len(a) == timed.SAMPLE_POSITIONS
    assert [(s, len(legal)) for s, _, legal in a] == [(s, len(legal)) for s, _, legal in b]
    _, state, legal = a[3]
    player = GARNER.player("mcts:20")
    assert player(state, legal, SplitMixRandom(1)) in legal


def test_two_digits():
    assert [timed.two_digits(x) for x in (0.3, 7.4, 97, 973, 1234.5, 15_501)] == [
        1,
        7,
        97,
        970,
        1200,
        16_000,
    ]


# --- Garner's tree reuse ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "want"),
    [
        ("mcts:50:reuse", (50, "greedy", 2, 0.1, True)),
        ("mcts:50:random:0:0.5:reuse", (50, "random", 0, 0.5, True)),
        ("mcts:50", (50, "greedy", 2, 0.1, False)),
    ],
)
def test_reuse_specs_parse(spec, want):
    from gamelib.garner.search import parse_spec

    s = parse_spec(spec.partition(":")[2])
    assert (s.iterations, s.policy, s.cutoff, s.c, s.reuse) == want


@pytest.mark.parametrize("spec", ["mcts:reuse", "mcts:50:reuse:greedy", "mcts:50:greedy:2:0.1:1"])
def test_bad_reuse_specs_are_refused(spec):
    with pytest.raises(ConfigError, match=spec) as err:
        GARNER.player(spec)
    assert "\n" not in str(err.value)


def test_reuse_keeps_the_turns_tree_and_plays_legal_reproducible_games():
    cfg = GARNER.config("A")
    players = ["mcts:40:reuse", "mcts:40"]
    a = simulate(cfg, players, 3, 21, workers=1, progress=False, rotate_seats=True)
    b = simulate(cfg, players, 3, 21, workers=1, progress=False, rotate_seats=True)
    assert a.equals(b)
    # within a turn the next search starts at the node of the decision taken
    from gamelib.garner import new_state
    from gamelib.garner.search import F_VISITS

    s = new_state(cfg, __import__("random").Random(2))
    p = GARNER.player("mcts:40:reuse")
    rng = SplitMixRandom(3)
    reused = 0
    while s.current_player() == 0 and not s.is_over():
        legal = s.legal_moves()
        kept = p._tree  # type: ignore[attr-defined]
        before = None if kept is None or kept[6] < 0 else int(kept[3][kept[6], F_VISITS])
        n_before = None if kept is None else kept[5]
        s.apply(p(s, legal, rng))
        now = p._tree  # type: ignore[attr-defined]
        if before is not None and len(legal) > 1:
            # the kept node was the root: the tree grew from it, adding visits to its own
            assert now[5] > n_before and now[3][kept[6], F_VISITS] > before
            reused += 1
    assert reused >= 1
