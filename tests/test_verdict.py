"""gamelib.verdict on real games: the three games, resume after an interrupt, the command line."""

import json

import pandas as pd
import pytest

import gamelib.sim.executors as executors
import gamelib.verdict.run as vrun
from gamelib.cli import main
from gamelib.core import ConfigError, GamelibError
from gamelib.registry import get_game
from gamelib.verdict import Fair, Length, Skill, Stalls, Target, decide, verdict


def garner_a():
    return get_game("garner").config("A")


def test_garner_a_under_greedy_is_unfair_with_seat_0_ahead():
    v = verdict(garner_a(), ["greedy"], [Fair()], seed=1, progress=False, workers=1)
    row = v.iloc[0]
    assert row["decision"] == "fails"
    assert row["measure"] == "seat 0 wins"
    assert row["lo"] > 0.53  # the edge is stated and lies beyond the margin
    assert row["deals"] < 2000  # a clear case stops early


def test_every_game_and_question_decides_or_says_undecided():
    dty = get_game("deck_the_yard").config(None)
    v = verdict(
        dty,
        ["random", "greedy:claim_characters"],
        [Target(0.05, 0.05), Stalls(), Skill(0.0), Length(20, 80)],
        seed=2,
        max_games=2000,
        progress=False,
        workers=1,
    )
    assert set(v["question"]) == {"target", "stalls", "skill", "length"}
    assert set(v["decision"]) <= {"holds", "fails", "undecided"}
    skill = v[v["question"] == "skill"].iloc[0]
    assert skill["level"] == "greedy:claim_characters v random"
    gargon = get_game("gargon").config(None, n_players=3)
    g = verdict(gargon, ["random"], [Fair(0.1)], seed=3, max_games=3000, progress=False)
    assert g.iloc[0]["decision"] in {"holds", "undecided"}
    assert g.iloc[0]["games"] <= 3000


def test_undecided_at_a_small_budget_names_the_deals_it_would_need():
    gargon = get_game("gargon").config(None, n_players=4)
    v = verdict(gargon, ["random"], [Fair(0.03)], seed=4, max_games=60, progress=False)
    row = v.iloc[0]
    assert row["decision"] == "undecided"
    assert row["deals"] == 60
    assert row["more_deals"] is None or row["more_deals"] > 0


def test_same_decision_on_one_worker_and_two():
    args = (garner_a(), ["random", "greedy"], [Fair(), Skill()])
    one = verdict(*args, seed=5, progress=False, workers=1, max_games=3000)
    executors.WORKER_HANDOFF_SECONDS, old = -1.0, executors.WORKER_HANDOFF_SECONDS
    executors.WORKER_START_SECONDS, old_start = -1.0, executors.WORKER_START_SECONDS
    try:  # every batch on the worker pool
        two = verdict(*args, seed=5, progress=False, workers=2, max_games=3000)
    finally:
        executors.WORKER_HANDOFF_SECONDS, executors.WORKER_START_SECONDS = old, old_start
    pd.testing.assert_frame_equal(one, two)


def test_same_decision_on_a_dask_cluster():
    distributed = pytest.importorskip("distributed")
    args = (garner_a(), ["random", "greedy"], [Fair(), Skill()])
    kw = {"seed": 5, "progress": False, "max_games": 1500}
    local = verdict(*args, workers=1, **kw)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = verdict(*args, executor=client, **kw)
    pd.testing.assert_frame_equal(local, on_dask)


def test_an_interrupted_verdict_resumes_to_the_same_decision(tmp_path, monkeypatch):
    args = (garner_a(), ["random"], [Fair(), Stalls()])
    kw = {"seed": 6, "progress": False, "workers": 1, "max_games": 4000}
    whole = verdict(*args, **kw)
    real = vrun.run_chunks
    calls = {"n": 0}

    def flaky(*a, **k):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        yield from real(*a, **k)

    monkeypatch.setattr(vrun, "run_chunks", flaky)
    with pytest.raises(GamelibError, match="kept in"):
        verdict(*args, resume=tmp_path / "r", **kw)
    kept = list((tmp_path / "r").rglob("part-*.parquet"))
    assert kept  # finished deals survived the interrupt
    monkeypatch.setattr(vrun, "run_chunks", real)
    again = verdict(*args, resume=tmp_path / "r", **kw)
    pd.testing.assert_frame_equal(whole, again)
    with pytest.raises(ConfigError, match="another verdict"):
        verdict(*args, resume=tmp_path / "r", **{**kw, "seed": 7})


def test_decide_on_a_stored_table_matches_the_live_verdict():
    from gamelib.sim import simulate

    live = verdict(garner_a(), ["greedy"], [Fair()], seed=8, progress=False, workers=1)
    deals = int(live.iloc[0]["deals"])
    table = simulate(garner_a(), ["greedy", "greedy"], deals, 8, workers=1, progress=False)
    row = decide([table], Fair(), level="greedy")
    assert row["decision"] == live.iloc[0]["decision"]
    assert row["deals"] == deals
    assert row["estimate"] == pytest.approx(live.iloc[0]["estimate"])


def test_bad_verdict_arguments_are_refused():
    with pytest.raises(ConfigError, match="solitaire"):
        verdict(get_game("deck_the_yard").config(None), ["greedy"], [Fair()], progress=False)
    with pytest.raises(ConfigError, match="opponents"):
        verdict(garner_a(), ["greedy"], [Target(0.3, 0.05)], progress=False)
    with pytest.raises(ConfigError, match="two levels"):
        verdict(garner_a(), ["greedy"], [Skill()], progress=False)
    with pytest.raises(ConfigError, match="max_games"):
        verdict(garner_a(), ["greedy"], max_games=0, progress=False)
    with pytest.raises(ValueError, match="margin"):
        Fair(0.7)


def test_verdict_cli_prints_a_table_and_writes_json(tmp_path, capsys):
    out = tmp_path / "v.json"
    argv = ["verdict", "garner", "--setup", "A", "--players", "random,greedy", "--seed", "1"]
    assert main([*argv, "--workers", "1", "--no-progress", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "greedy" in text and "FAILS" in text
    rows = json.loads(out.read_text())
    want = {"level", "question", "decision", "estimate", "lo", "hi", "games", "margin"}
    assert all(want | {"alpha", "beta"} <= set(r) for r in rows)
    assert {r["question"] for r in rows} == {"fair", "stalls", "skill"}
    for bad, message in [
        (["--question", "target"], "needs --target"),
        (["--question", "length"], "needs --turns"),
        (["--alpha", "0.7"], "--alpha must lie"),
        (["--max-games", "0"], "--max-games must be"),
        (["--margin", "0.9"], "margin"),
    ]:
        assert main([*argv, "--no-progress", *bad]) == 2
        assert message in capsys.readouterr().err


def test_a_stored_verdict_is_decided_again_from_its_games_alone(tmp_path):
    from gamelib.sim import load, simulate
    from gamelib.verdict import redecide

    path = tmp_path / "v.parquet"
    dty = get_game("deck_the_yard").config(None)
    levels = ["random", "greedy:claim_characters", "rollout:5"]
    qs = [Target(0.1, 0.05), Stalls(), Skill(0.0)]
    v = verdict(dty, levels, qs, seed=3, max_games=600, progress=False, workers=1, out=path)
    again = redecide(path)
    pd.testing.assert_frame_equal(v, again)
    stored = load(path)
    runs = stored.attrs["provenance"]["runs"]
    # one run per line-up, each kept up to the last deal a unit looked at
    assert [r["players"] for r in runs] == [[p] for p in levels]
    assert max(v["deals"]) == max(r["n_games"] for r in runs)
    # the stored games are the games simulate plays (as tests/test_results.py re-checks)
    first = simulate(dty, ["rollout:5"], 2, 3, workers=1, progress=False)
    mine = stored[stored.player_0 == "rollout:5"].head(2).reset_index(drop=True)
    assert list(first["won"]) == list(mine["won"]) and list(first["turns"]) == list(mine["turns"])
    # a changed stored decision would show: the re-decision reads the stored games
    tampered = stored.copy()
    tampered.attrs = stored.attrs
    tampered.loc[tampered.player_0 == "random", "win_0"] = 1
    assert v.iloc[0]["estimate"] < 0.05 and redecide(tampered).iloc[0]["estimate"] == 1.0


def test_redecide_refuses_a_table_no_verdict_stored(tmp_path):
    from gamelib.sim import simulate
    from gamelib.verdict import redecide

    t = simulate(garner_a(), ["greedy", "greedy"], 5, 1, workers=1, progress=False)
    with pytest.raises(GamelibError, match="not stored by a verdict"):
        redecide(t)


def test_verdict_cli_stores_its_games_and_command(tmp_path, capsys):
    from gamelib.sim import load
    from gamelib.verdict import redecide

    out = tmp_path / "g.parquet"
    argv = [
        "verdict",
        "garner",
        "--setup",
        "A",
        "--players",
        "greedy",
        "--seed",
        "1",
        "--workers",
        "1",
        "--no-progress",
        "--table",
        str(out),
    ]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert f"games: {out}" in printed
    stored = load(out)
    assert stored.attrs["verdict"]["command"].startswith("gamelib verdict garner --setup A")
    assert redecide(out).iloc[0]["decision"] == "fails"
    assert main([*argv[:-1], str(tmp_path / "g.csv")]) == 2
    assert ".parquet" in capsys.readouterr().err
