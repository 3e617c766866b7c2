"""Seat-rotated deals (issue 33): rotation r of a deal gives seat i the hand dealt to seat
(i + r) mod n and keeps the draw piles; the reference engine and the compiled core play the
same rotated games; ``simulate(rotate_deals=True)`` and ``verdict(rotate_deals=True)`` use
them, and runs without the option keep their keys and games."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gamelib.core import ConfigError, game_rngs, game_seeds
from gamelib.gargon import GARGON
from gamelib.gargon import kernel as K
from gamelib.gargon.rules import GargonConfig, new_state, rotate_deal
from gamelib.records import play_game, replay
from gamelib.registry import get_game
from gamelib.sim import games_per_deal, run_fingerprint, run_spec, simulate
from gamelib.verdict import Fair, verdict
from gamelib.verdict.questions import credit, per_deal


@pytest.mark.parametrize("n", [3, 4, 5])
def test_rotation_r_gives_seat_i_the_hand_of_seat_i_plus_r_and_the_same_piles(n: int):
    cfg = GargonConfig(n_players=n)
    dealt = new_state(cfg, random.Random(7))
    for r in range(n):
        turned = rotate_deal(dealt, r)
        for i in range(n):
            assert turned.hands[i] == dealt.hands[(i + r) % n]
        assert turned.piles == dealt.piles
        assert turned.lead == 0 and turned.current_player() == 0
    assert rotate_deal(dealt, 0).start() == dealt.start()
    # over the n rotations every hand starts once from every seat
    seats_of_hand = {tuple(h): set() for h in dealt.hands}
    for r in range(n):
        for i, hand in enumerate(rotate_deal(dealt, r).hands):
            seats_of_hand[tuple(hand)].add(i)
    assert all(s == set(range(n)) for s in seats_of_hand.values())


def test_only_a_fresh_deal_and_a_rotation_of_its_seats_are_accepted():
    cfg = GargonConfig(n_players=4)
    state = new_state(cfg, random.Random(1))
    for bad in (-1, 4, True, 1.0):
        with pytest.raises(ConfigError, match="rotations 0–3"):
            rotate_deal(state, bad)  # type: ignore[arg-type]
    state.apply(state.legal_moves()[0])
    with pytest.raises(ConfigError, match="fresh deal"):
        rotate_deal(state, 1)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_the_kernel_deals_the_rotated_deck_the_reference_deals(n: int):
    cfg = GargonConfig(n_players=n)
    h = cfg.hand_size
    seeds = np.array(game_seeds(5, 6), np.int64)
    plain = K.play_seeds(cfg, "random", seeds, record=True)
    for r in range(n):
        games = K.play_seeds(cfg, "random", seeds, record=True, rotation=r)
        for g, s in enumerate(seeds):
            deck, base = games.deals[g], plain.deals[g]
            for i in range(n):
                j = (i + r) % n
                assert (deck[i * h : (i + 1) * h] == base[j * h : (j + 1) * h]).all()
            assert (deck[n * h :] == base[n * h :]).all()  # the piles stay
            chance, _ = game_rngs(int(s), n)
            ref = rotate_deal(new_state(cfg, chance), r)
            assert K.reference_state(cfg, deck).start() == ref.start()
    with pytest.raises(ConfigError, match="rotations 0–2"):
        K.play_seeds(GargonConfig(n_players=3), "random", seeds, rotation=3)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_reference_and_kernel_play_the_same_rotated_games(n: int):
    # the random player draws from its seat's stream in both engines, so the reference engine
    # playing on its own must reach the kernel's games decision for decision; play_game's
    # compiled path also replays every kernel decision through the reference and compares
    cfg = GargonConfig(n_players=n)
    for seed in game_seeds(9, 3):
        for r in range(n):
            ref = play_game(GARGON, cfg, ["random"] * n, seed, engine="python", deal_rotation=r)
            ker = play_game(GARGON, cfg, ["greedy"] * n, seed, deal_rotation=r, record=True)
            games = K.play_seeds(cfg, "random", np.array([seed], np.int64), rotation=r)
            row = games.table[0]
            for key, value in ref.outcome.row().items():
                assert row[key] == pytest.approx(value), (seed, r, key)
            assert ker.record is not None and ker.record.get("deal_rotation", 0) == r
            replay(ker.record)  # the rotated record replays from its own start
    with pytest.raises(ConfigError, match="rotations 0–3"):
        play_game(GARGON, GargonConfig(), ["random"] * 4, 1, deal_rotation=4)


def test_simulate_plays_every_rotation_of_each_deal_in_both_engines():
    cfg = GARGON.config("4p")
    players = ["greedy"] * 4
    rot = simulate(cfg, players, 12, 3, rotate_deals=True, progress=False, workers=1)
    assert len(rot) == 48 and list(rot["deal"]) == [d for d in range(12) for _ in range(4)]
    assert list(rot["deal_rotation"]) == [0, 1, 2, 3] * 12
    assert list(rot["game_index"]) == list(range(48))
    plain = simulate(cfg, players, 12, 3, progress=False, workers=1)
    first = rot[rot["deal_rotation"] == 0].reset_index(drop=True)
    for c in ("seed", "score_0", "score_1", "score_2", "score_3", "winner", "turns"):
        assert first[c].tolist() == plain[c].tolist(), c  # rotation 0 is the plain game
    slow = simulate(cfg, players, 3, 3, rotate_deals=True, progress=False, engine="python")
    for c in ("deal_rotation", "seed", "score_0", "score_3", "winner", "turns"):
        assert slow[c].tolist() == rot[c][:12].tolist(), c
    # with seat arrangements too: each arrangement plays every rotation of the deal
    both = simulate(cfg, players, 2, 3, rotate_deals=True, rotate_seats=True, progress=False)
    assert len(both) == 2 * 16 and list(both["deal_rotation"][:8]) == [0, 1, 2, 3] * 2
    assert list(both["rotation"][:8]) == [0] * 4 + [1] * 4


def test_rotation_is_not_a_no_op():
    # greedy draws no random number: a no-op rotation would replay the same game n times
    cfg = GARGON.config("4p")
    rot = simulate(cfg, ["greedy"] * 4, 40, 8, rotate_deals=True, progress=False, workers=1)
    scores = rot[[f"score_{s}" for s in range(4)]].to_numpy().reshape(40, 4, 4)
    differ = [not (scores[d] == scores[d, 0]).all() for d in range(40)]
    assert sum(differ) >= 35
    # and the hand dealt to seat 0 in rotation 0 is played from seat 3 in rotation 1: the
    # hand-seat pairs of the n games cover every seat once (checked on the records)
    recs = [
        play_game(GARGON, cfg, ["greedy"] * 4, int(rot["seed"][0]), deal_rotation=r, record=True)
        for r in range(4)
    ]
    hands = [[tuple(map(tuple, h)) for h in p.record["start"]["hands"]] for p in recs]  # type: ignore[index]
    for r in range(4):
        assert hands[r] == [hands[0][(i + r) % 4] for i in range(4)]


def test_runs_without_rotated_deals_keep_their_key_and_rotated_runs_get_their_own():
    cfg = GARGON.config("4p")
    old = run_spec(cfg, ["greedy"] * 4, 10, 1, False)
    assert (
        "rotate_deals" not in old
        and run_spec(cfg, ["greedy"] * 4, 10, 1, False, "compiled", False) == old
    )
    new = run_spec(cfg, ["greedy"] * 4, 10, 1, False, rotate_deals=True)
    assert new["rotate_deals"] is True and run_fingerprint(new) != run_fingerprint(old)
    assert games_per_deal(old) == 1 and games_per_deal(new) == 4
    assert games_per_deal({**new, "rotate_seats": True}) == 16


def test_the_study_cache_keeps_rotated_runs_apart(tmp_path):
    cfg = GARGON.config("3p")
    a = simulate(cfg, ["greedy"] * 3, 6, 2, rotate_deals=True, cache=tmp_path, progress=False)
    plain = simulate(cfg, ["greedy"] * 3, 6, 2, cache=tmp_path, progress=False)
    b = simulate(cfg, ["greedy"] * 3, 9, 2, rotate_deals=True, cache=tmp_path, progress=False)
    assert len(a) == 18 and len(plain) == 6 and len(b) == 27
    assert b.iloc[:18][a.columns].reset_index(drop=True).equals(a)


def test_a_game_without_hands_is_refused_by_name():
    garner = get_game("garner").config("A")
    with pytest.raises(ConfigError, match="nothing of their own"):
        simulate(garner, ["greedy"] * 2, 2, 1, rotate_deals=True, progress=False)
    with pytest.raises(ConfigError, match="nothing of their own"):
        verdict(garner, ["greedy"], [Fair()], rotate_deals=True, progress=False)
    with pytest.raises(ConfigError, match="True or False"):
        simulate(GARGON.config("3p"), ["greedy"] * 3, 2, 1, rotate_deals=1, progress=False)  # type: ignore[arg-type]


def test_the_verdict_on_rotated_deals_decides_a_fair_mirror_with_the_deal_as_unit():
    # greedy 4p Gargon: every seat's share within 0.25 ± 0.02 over 4000 rotated deals
    # (bench/rotation.py), so fairness at ±0.05 holds
    cfg = GARGON.config("4p")
    tables: dict = {}
    v = verdict(
        cfg,
        ["greedy"],
        [Fair(0.05)],
        seed=4,
        rotate_deals=True,
        progress=False,
        workers=1,
        tables=tables,
    )
    row = v.iloc[0]
    assert row["decision"] == "holds"
    assert row["games"] == 4 * row["deals"]
    (t,) = tables["greedy"]
    assert list(t["deal_rotation"][:4]) == [0, 1, 2, 3]
    # the estimate is the seats' shares over each deal's n games, the deal the unit
    shares = [per_deal(t, credit(t, s)).mean() for s in range(4)]
    worst = max(shares, key=lambda m: abs(m - 0.25))
    assert row["estimate"] == pytest.approx(worst)
    assert v.attrs["verdict"]["rotate_deals"] is True
    plain = verdict(cfg, ["greedy"], [Fair(0.05)], seed=4, progress=False, workers=1)
    assert "rotate_deals" not in plain.attrs["verdict"]
    assert plain.iloc[0]["games"] == plain.iloc[0]["deals"]


def test_a_stored_rotated_verdict_redecides_from_its_games(tmp_path):
    from gamelib.sim import load
    from gamelib.verdict import redecide

    cfg = GARGON.config("3p")
    out = tmp_path / "v.parquet"
    v = verdict(
        cfg,
        ["greedy"],
        [Fair(0.1)],
        seed=2,
        rotate_deals=True,
        progress=False,
        workers=1,
        out=out,
        max_games=600,
    )
    again = redecide(load(out))
    assert again.drop(columns=["more_deals"]).equals(v.drop(columns=["more_deals"]))
    assert load(out).attrs["provenance"]["runs"][0]["rotate_deals"] is True


def test_the_command_line_rotates_deals_where_a_game_deals_hands(tmp_path, capsys):
    from gamelib.cli import main
    from gamelib.sim import load

    out = tmp_path / "rot.parquet"
    argv = ["simulate", "gargon", "--setup", "3p", "--players", "greedy", "-n", "5"]
    assert main([*argv, "--seed", "1", "--rotate-deals", "--no-progress", "--out", str(out)]) == 0
    table = load(out)
    assert len(table) == 15 and table.attrs["provenance"]["rotate_deals"] is True
    verdict_argv = ["verdict", "gargon", "--setup", "4p", "--players", "greedy", "--seed", "4"]
    verdict_argv += ["--question", "fair", "--margin", "0.05", "--rotate-deals", "--workers", "1"]
    assert main([*verdict_argv, "--no-progress"]) == 0
    assert "HOLDS" in capsys.readouterr().out
    garner = ["simulate", "garner", "--setup", "A", "--players", "greedy", "-n", "2"]
    with pytest.raises(SystemExit):  # no such flag: Garner deals no hands
        main([*garner, "--seed", "1", "--rotate-deals"])
