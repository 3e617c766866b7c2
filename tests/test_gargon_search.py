"""Gargon's ``ismcts:N``: spec, determinizations true to the observation, seeded, legal, blind to
hidden numbers, and stronger than greedy."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from gamelib import ConfigError, play_game, replay
from gamelib.core import SplitMixRandom
from gamelib.gargon import GARGON, GargonState, GreedyPlayer, Play, new_state
from gamelib.gargon import kernel as K
from gamelib.gargon.rules import COLOUR_OF, DRAW, N_CARDS, card_id, from_deal, resample_hidden
from gamelib.gargon.search import IsmctsPlayer, Template, determinize, search, template
from gamelib.sim import simulate
from gamelib.stats import clustered_rate


def test_spec_parsing():
    p = GARGON.player("ismcts:200")
    assert isinstance(p, IsmctsPlayer)
    assert (p.iterations, p.playout, p.c) == (200, "random", 0.7)
    p = GARGON.player("ismcts:50:greedy")
    assert (p.iterations, p.playout, p.c) == (50, "greedy", 0.7)
    p = GARGON.player("ismcts:50:random:1.5")
    assert (p.iterations, p.playout, p.c) == (50, "random", 1.5)
    assert GARGON.player("ismcts:50:0.25").c == 0.25
    assert p.__name__ == "ismcts:50:random:1.5"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ismcts", "needs an iteration count"),
        ("ismcts:many", "'many' is not an iteration count"),
        ("ismcts:0", "must be ≥ 1"),
        ("ismcts:-5", "must be ≥ 1"),
        ("ismcts:10:smart", "'smart' is neither a playout"),
        ("ismcts:10:greedy:-1", "exploration constant must be ≥ 0"),
        ("ismcts:10:greedy:nan", "exploration constant must be ≥ 0"),
        ("ismcts:10:greedy:1:2", "unexpected '2'"),
        ("ismcts:10:1:greedy", "unexpected 'greedy'"),
    ],
)
def test_bad_specs_are_refused(spec, message):
    with pytest.raises(ConfigError, match=message):
        GARGON.player(spec)


def _positions(n_players: int, seed: int, every: int = 1) -> list[GargonState]:
    """Positions of one random game (the Python engine), every ``every``-th decision."""
    s = new_state(GARGON.config(None, n_players=n_players), random.Random(seed))
    rng = random.Random(seed + 1)
    out = []
    k = 0
    while not s.is_over():
        if k % every == 0:
            out.append(s.clone())
        legal = s.legal_moves()
        s.apply(legal[rng.randrange(len(legal))])
        k += 1
    return out


def _known(s: GargonState, seat: int) -> set[int]:
    known = set(s.hands[seat]) | set(s.discard)
    for p in range(s.n_players):
        known |= set(s.captured[p])
        if s.turned_up:
            known |= set(s.table[p])
    return known


@pytest.mark.parametrize("n", [3, 4, 5])
def test_determinizations_agree_with_the_observation(n):
    """Every determinization built from a seat's observation is the true position with the
    hidden cards exchanged within their colours: the same header, counts, queue and options,
    every known card where it is, every hidden place holding a card of the right colour."""
    work = K.new_work(K.tables(GARGON.config(None, n_players=n)))
    checked = 0
    for s in _positions(n, 40 + n, every=3):
        seat = s.current_player()
        t, truth = K.from_reference(s)
        tp = template(s.observation(seat))
        rs = np.array([17 + checked], np.uint64)
        st = np.empty(K.STATE_LEN, np.int64)
        scratch = np.empty(17, np.int64)
        determinize(*tp, rs, st, scratch)
        head = [K.TO_MOVE, K.PHASE, K.LEAD, K.POS, K.SHAPE, K.TURNED_UP, K.RESOLVING, K.ROUNDS]
        head += [K.DQ_HEAD, K.DQ_LEN, K.PILE_N0, K.PILE_N1]
        assert st[head].tolist() == truth[head].tolist()
        for o in (K.O_HAND_N, K.O_TABLE_N, K.O_DQ_SEAT, K.O_DQ_COUNT, K.O_DQ_KIND):
            width = K.DQ_CAP if o in (K.O_DQ_SEAT, K.O_DQ_COUNT, K.O_DQ_KIND) else n
            assert st[o : o + width].tolist() == truth[o : o + width].tolist()
        known = _known(s, seat)
        loc, true_loc = st[K.O_LOC : K.O_LOC + N_CARDS], truth[K.O_LOC : K.O_LOC + N_CARDS]
        for c in known:
            assert loc[c] == true_loc[c]
        for where in {int(x) for x in true_loc}:  # each hidden place: the same colours
            hidden = [c for c in range(N_CARDS) if true_loc[c] == where and c not in known]
            dealt = [c for c in range(N_CARDS) if loc[c] == where and c not in known]
            assert sorted(COLOUR_OF[c] for c in dealt) == sorted(COLOUR_OF[c] for c in hidden)
        for o, size in ((K.O_PILE0, K.PILE_N0), (K.O_PILE1, K.PILE_N1)):
            pile = st[o : o + st[size]].tolist()
            true_pile = truth[o : o + truth[size]].tolist()
            assert [COLOUR_OF[c] for c in pile] == [COLOUR_OF[c] for c in true_pile]
        m = K.legal(t, st, work)
        options = work[:m].tolist()
        assert options == [K.encode(x) for x in s.legal_moves()]
        checked += 1
    assert checked > 20


def test_observation_names_the_draws_owed_and_the_colour_resolved():
    """Battles are public: a loser's draw shows who still owes cards and which colour waits."""
    seen = 0
    for s in _positions(4, 5):
        if s.phase == DRAW and s.turned_up:
            obs = s.observation(s.current_player())
            assert obs.resolving == s.resolving
            assert obs.owed == tuple((e[0], e[1]) for e in s.draw_queue)
            assert obs.owed[0][0] == s.current_player()
            seen += 1
    assert seen > 0


def test_same_seed_same_search_and_seeds_matter():
    s = _positions(4, 9)[0]
    p = GARGON.player("ismcts:120")
    obs = s.observation(0)
    a = p.search(obs, 5)
    b = p.search(obs, 5)
    assert a[0] == b[0] and a[2].tolist() == b[2].tolist() and a[3].tolist() == b[3].tolist()
    assert a[2].sum() == 120  # every iteration passes through one root option
    c = p.search(obs, 6)
    assert c[2].tolist() != a[2].tolist()
    move = p(obs, s.legal_moves(), SplitMixRandom(3))
    assert move == p(obs, s.legal_moves(), SplitMixRandom(3))
    assert move in s.legal_moves()


def test_search_finds_the_play_nobody_can_follow():
    """Hands of two colours cannot follow a 1:1:1 lead: leading all three of its cards captures
    them unopposed and ends the game (a pile empties as the others pass and draw). Greedy
    keeps the green 2 back (a 9 and a 12 are out there); the search sees the shape wins."""
    R, B, G, W, Y = 3, 1, 5, 0, 4
    hands = [
        [card_id(R, 1), card_id(B, 14), card_id(G, 2)],
        [card_id(B, 3), card_id(G, 9)],
        [card_id(G, 12), card_id(Y, 6)],
    ]
    s = from_deal(GARGON.config("3p"), hands, [[card_id(W, 1)], [card_id(W, 2)]])
    everything = Play(tuple(sorted(hands[0])))
    assert GreedyPlayer()(s.observation(0), s.legal_moves(), random.Random(0)) != everything
    for spec in ("ismcts:200", "ismcts:200:greedy"):
        for k in range(3):
            move = GARGON.player(spec)(s.observation(0), s.legal_moves(), SplitMixRandom(k))
            assert move == everything


def test_progressive_widening_opens_the_best_options_first():
    """The lead of a fresh hand has far more plays than 30 iterations can try: widened, the
    search opens at most 2 + √29 of them, greedy's choice among them; flat, it tries a new one
    every iteration."""
    s = new_state(GARGON.config("4p"), random.Random(8))
    obs = s.observation(0)
    _, options, visits, _ = IsmctsPlayer(30).search(obs, 1)
    assert len(options) > 60
    assert 2 <= (visits > 0).sum() <= 2 + math.isqrt(29)
    greedy_move = GreedyPlayer()(obs, s.legal_moves(), random.Random(0))
    assert visits[options.tolist().index(K.encode(greedy_move))] > 0
    _, _, flat_visits, _ = IsmctsPlayer(30, widen=False).search(obs, 1)
    assert (flat_visits > 0).sum() == 30


@pytest.mark.parametrize("n", [3, 4, 5])
def test_search_players_play_legal_reproducible_games(n):
    players = ["ismcts:20", "greedy", "ismcts:15:greedy", "random", "ismcts:10:random:2"][:n]
    cfg = GARGON.config(None, n_players=n)
    a = play_game(GARGON, cfg, players, 100 + n, record=True)  # an illegal move would raise
    b = play_game(GARGON, cfg, players, 100 + n, record=True)
    assert a.record == b.record
    assert replay(a.record).outcome == a.outcome
    assert a.outcome.reason in ("pile_empty", "hands_empty")


def _cheat_template(s: GargonState) -> Template:
    """A template with nothing hidden: the true position (a search that peeks)."""
    _, truth = K.from_reference(s)
    empty = np.zeros(0, np.int64)
    starts = np.zeros(7, np.int64)
    return Template(truth, empty, starts, empty, empty, starts)


def test_decisions_do_not_depend_on_hidden_numbers():
    """For a fixed seed, resampling every number the seat cannot see never changes the search:
    the decision and every root option's visits and wins are the same. A search given the true
    cards (a peeking player) does change under the same resampling, so this can fail."""
    p = GARGON.player("ismcts:30")
    p_greedy = GARGON.player("ismcts:30:greedy")
    checked = peeking_changed = 0
    for n, seed in ((3, 1), (4, 2), (5, 3)):
        positions = [x for x in _positions(n, seed, every=4) if len(x.legal_moves()) > 1]
        for s in positions[:12]:
            seat = s.current_player()
            obs = s.observation(seat)
            mine = p.search(obs, 99)
            peek = search(K.tables(s.config), *_cheat_template(s), 30, 0.7, K.RANDOM, 99)
            for k in range(3):
                other = resample_hidden(s, seat, random.Random(k))
                assert other.observation(seat) == obs
                theirs = p.search(other.observation(seat), 99)
                assert theirs[0] == mine[0]
                assert theirs[2].tolist() == mine[2].tolist()
                assert theirs[3].tolist() == mine[3].tolist()
                for player in (p, p_greedy):
                    rng_a, rng_b = SplitMixRandom(7), SplitMixRandom(7)
                    assert player(obs, s.legal_moves(), rng_a) == player(
                        other.observation(seat), other.legal_moves(), rng_b
                    )
                peek_other = search(
                    K.tables(s.config), *_cheat_template(other), 30, 0.7, K.RANDOM, 99
                )
                if peek_other[3].tolist() != peek[3].tolist():
                    peeking_changed += 1
                checked += 1
    assert checked >= 90
    assert peeking_changed > checked // 2


def test_ismcts_beats_greedy_in_four_player_gargon():
    """One ismcts:200 seat against three greedy ones, every deal played from each seat: its
    win share (shared wins counted fractionally), clustered by deal, is above the fair 1/4."""
    spec = "ismcts:200"
    table = simulate(
        GARGON.config("4p"),
        [spec, "greedy", "greedy", "greedy"],
        12,
        seed=2026,
        rotate_seats=True,
        workers=1,
        progress=False,
    )
    assert len(table) == 48
    share = sum(
        table[f"win_{s}"].where(table[f"player_{s}"].astype(str) == spec, 0.0) for s in range(4)
    )
    assert np.allclose(
        sum(table[f"win_{s}"] for s in range(4)), 1.0
    )  # every game's shares add up to one win
    rate = clustered_rate(table.assign(share=share), "share").iloc[0]
    assert rate["lo"] > 0.25, rate


def test_forced_moves_draw_no_random_number():
    for s in _positions(4, 12):
        if len(s.legal_moves()) == 1:
            rng = SplitMixRandom(1)
            obs = s.observation(s.current_player())
            move = GARGON.player("ismcts:10")(obs, s.legal_moves(), rng)
            assert move == s.legal_moves()[0]
            assert rng.next64() == SplitMixRandom(1).next64()  # the stream was not touched
            return
    pytest.fail("no forced move in the game")


def test_template_refuses_another_seats_decision():
    s = new_state(GARGON.config("4p"), random.Random(1))
    with pytest.raises(ValueError, match="its own decision"):
        template(s.observation(2))


@pytest.mark.parametrize("n", [3, 4, 5])
def test_stopping_early_never_changes_the_decision(n):
    """The player's search stops once its most visited root option cannot be overtaken: at
    every searched decision of a random game its decision equals the full budget's, and at some
    it stopped early (fewer root visits than the budget)."""
    p = IsmctsPlayer(200)
    decided = stopped = 0
    for s in _positions(n, 40 + n, every=2):
        seat = s.current_player()
        if s.is_over() or len(s.legal_moves()) < 2:
            continue
        obs = s.observation(seat)
        full, options, visits, _ = p.search(obs, 7)
        short, _, short_visits, _ = p.search(obs, 7, stop_early=True)
        assert short == full, (options, visits, short_visits)
        assert visits.sum() == 200
        stopped += int(short_visits.sum() < 200)
        decided += 1
    assert decided >= 10 and stopped > 0, (decided, stopped)
