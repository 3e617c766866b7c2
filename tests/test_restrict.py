"""Restricted players (gamelib.restrict): the classes of moves of each game, the wrapper, the
masks inside search trees, the compiled mask against the reference marks, and the byte-identical
games of a class the player never meets."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from gamelib.core import ConfigError
from gamelib.gargon import GARGON
from gamelib.gargon import kernel as GK
from gamelib.gargon.players import OPTIONS as GARGON_OPTIONS
from gamelib.gargon.rules import PLAY
from gamelib.gargon.search import restrict_options
from gamelib.garner import GARNER
from gamelib.registry import get_game
from gamelib.restrict import keep, restriction
from gamelib.sim import run_fingerprint, run_spec, simulate


def _without_names(table: pd.DataFrame) -> pd.DataFrame:
    return table.drop(columns=[c for c in table.columns if c.startswith(("player", "winner_p"))])


@pytest.mark.parametrize(
    ("config", "restricted", "plain"),
    [
        (
            GARGON.config("4p", allow_three_colours=False),
            "greedy:forbid=three-colours",
            "greedy",
        ),
        (GARGON.config("3p", allow_three_colours=False), "random:forbid=three-colours", "random"),
        (
            GARGON.config("3p", allow_three_colours=False),
            "ismcts:20:forbid=three-colours",
            "ismcts:20",
        ),
        (GARNER.config("A", must_move="all"), "greedy:forbid=stay", "greedy"),
        (GARNER.config("A", must_move="all"), "generic:mcts:12:forbid=stay", "generic:mcts:12"),
        (GARNER.config("standard"), "greedy:forbid=collect-half", "greedy"),  # no half suit
    ],
)
def test_a_class_the_player_never_meets_gives_byte_identical_games(
    config: Any, restricted: str, plain: str
) -> None:
    """Both through the reference engine (restricted players play there; Garner's compiled
    engine deals other games from the same seed)."""
    n = getattr(config, "n_players", 2)
    games = 6 if "mcts" in plain else 30
    a, b = (
        simulate(config, [p] + ["greedy"] * (n - 1), n_games=games, seed=3, workers=1,
                 progress=False, engine="python")
        for p in (restricted, plain)
    )  # fmt: skip
    assert a["player_0"].iloc[0] == restricted
    pd.testing.assert_frame_equal(_without_names(a), _without_names(b))


def _decisions(
    game: Any, config: Any, players: list[str], seed: int, look: Callable[..., None]
) -> None:
    """Play one game; at every decision seat 0 takes with a choice, ``look(view, legal, move)``
    before the move is made (Garner's view is the state itself)."""
    made = [game.player(p) for p in players]
    rng = random.Random(seed)
    state = game.new_state(config, random.Random(seed))
    while not state.is_over():
        seat = state.current_player()
        legal = list(state.legal_moves())
        obs = state.observation(seat)
        move = made[seat](obs, legal, rng)
        if seat == 0 and len(legal) > 1:
            look(obs, legal, move)
        state.apply(move)


@pytest.mark.parametrize(
    ("name", "cls", "player"),
    [
        ("gargon", "pass", "greedy"),
        ("gargon", "three", "random"),
        ("gargon", "new-colour", "greedy"),
        ("gargon", "draw-three", "ismcts:20"),
        ("garner", "lift-small", "greedy"),
        ("garner", "line", "random"),
        ("garner", "collect-half", "greedy"),
        ("deck_the_yard", "plug-character", "greedy"),
        ("deck_the_yard", "discard", "random"),
    ],
)
@pytest.mark.parametrize("mode", ["forbid", "always"])
def test_a_restricted_player_keeps_to_its_restriction(
    name: str, cls: str, player: str, mode: str
) -> None:
    game = get_game(name)
    option = game.options[cls]
    config = game.config("C" if cls == "collect-half" else None)  # C has the half suit
    n = getattr(config, "n_players", 1 if name == "deck_the_yard" else 2)
    met = [0]

    def look(view: Any, legal: list[Any], move: Any) -> None:
        marks = list(option.marks(view, legal))
        if True in marks and False in marks:  # the class and a move it competes with
            met[0] += 1
            taken = marks[legal.index(move)]
            assert taken is not (mode == "forbid"), (cls, mode, move)

    for seed in range(4):
        _decisions(game, config, [f"{player}:{mode}={cls}"] + ["greedy"] * (n - 1), seed, look)
    assert met[0] > 0, f"{name} {cls}: the class and another move were never both offered"


def test_gargon_compiled_mask_marks_what_the_reference_marks() -> None:
    """At every play-out decision of random games (3–5 players, with and without three-colour
    leads), the compiled search's restriction keeps exactly the reference's kept moves."""
    checked = 0
    for n_players, three in ((3, True), (4, True), (5, False)):
        config = GARGON.config(f"{n_players}p", allow_three_colours=three)
        for seed in range(12):
            state = GARGON.new_state(config, random.Random(seed))
            rng = random.Random(seed)
            while not state.is_over():
                legal = state.legal_moves()
                if state.phase == PLAY and len(legal) > 1:
                    t, st = GK.from_reference(state)
                    work = GK.new_work(t)
                    n = GK.legal(t, st, work)
                    for option in GARGON_OPTIONS.values():
                        for mode in ("forbid", "always"):
                            kept = [legal[k] for k in keep(option, mode, state, legal)]
                            w = work.copy()
                            got = restrict_options(t, st, w, n, option.code, mode == "always")
                            assert [GK.decode(PLAY, int(d)) for d in w[:got]] == kept
                            checked += 1
                state.apply(legal[rng.randrange(len(legal))])
    assert checked > 1000


def test_a_strong_players_option_is_taken_and_the_classes_are_offered() -> None:
    """Each Gargon class is offered with another move in greedy games, and greedy takes the
    ones it uses: an option table's rows are not all dead by construction."""
    taken = {cls: 0 for cls in GARGON_OPTIONS}
    offered = dict(taken)

    def look(view: Any, legal: list[Any], move: Any) -> None:
        for cls, option in GARGON_OPTIONS.items():
            marks = list(option.marks(view, legal))
            offered[cls] += True in marks and False in marks
            taken[cls] += marks[legal.index(move)] is True

    for seed in range(6):
        _decisions(GARGON, GARGON.config("4p"), ["greedy"] * 4, seed, look)
    assert all(offered.values()), offered
    assert taken["pass"] > 0 and taken["draw-three"] > 0, taken


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("greedy:forbid=flying", "gargon has no class of moves 'flying'"),
        ("greedy:never=pass", "must be forbid=CLASS or always=CLASS"),
        ("greedy:forbid=pass:always=three", "takes one restriction"),
        ("forbid=pass", "name a player before its restriction"),
    ],
)
def test_a_bad_restriction_is_refused_in_one_line(spec: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as err:
        GARGON.player(spec)
    assert "\n" not in str(err.value)


def test_a_search_that_cannot_mask_its_tree_is_refused() -> None:
    with pytest.raises(ConfigError, match="cannot apply the restriction"):
        GARNER.player("mcts:50:forbid=stay")
    with pytest.raises(ConfigError, match="cannot apply the restriction"):
        get_game("deck_the_yard").player("rollout:5:forbid=discard")


def test_restriction_parses_the_spec() -> None:
    assert restriction("ismcts:100:forbid=three") == ("ismcts:100", ("forbid", "three"))
    assert restriction("greedy") == ("greedy", None)


# --- option worth (gamelib.verdict.options) ---------------------------------------------------


def test_a_class_never_legal_comes_out_dead_on_identical_games() -> None:
    from gamelib.verdict.options import option_worth

    tables: dict[str, Any] = {}
    config = GARGON.config("3p", allow_three_colours=False)
    ask = {"margin": 0.1, "decisive": 0.3, "max_deals": 600, "workers": 1, "seed": 5}
    table = option_worth(config, "greedy", ["three-colours"], progress=False, tables=tables, **ask)
    row = table.iloc[0]
    assert row["decision"] == "holds" and row["estimate"] == 0.0, row.to_dict()
    base, arm = tables["options"]
    pd.testing.assert_frame_equal(_without_names(base), _without_names(arm))


def test_an_option_greedy_leans_on_has_positive_worth_and_always_taking_pass_is_worse() -> None:
    from gamelib.verdict.options import option_rows, option_text, option_worth

    config = GARGON.config("3p")
    table = option_worth(config, "greedy", ["new-colour"], margin=0.03, decisive=0.06,
                         max_deals=400, workers=1, progress=False, seed=2)  # fmt: skip
    new = table.set_index("option").loc["new-colour"]
    assert new["lo"] > 0.03 and new["decision"] == "fails", new.to_dict()
    assert new["decisive"] == "holds" and new["deals"] < 400  # decided, not out of deals
    rows = option_rows(table)
    assert [(r["card"], r["answer"]) for r in rows] == [("new-colour", "decisive")]
    assert set(rows[0]) >= {"card", "estimate", "low", "high", "deals", "decision", "answer"}
    assert "new-colour" in option_text(table)
    forced = option_worth(config, "greedy", ["pass"], mode="always", margin=0.03,
                          max_deals=400, workers=1, progress=False, seed=2)  # fmt: skip
    assert forced.iloc[0]["decision"] == "fails" and forced.iloc[0]["lo"] > 0.03
    assert "worse: pass" in option_text(forced)


def test_option_worth_refuses_bad_input_in_one_line() -> None:
    from gamelib.verdict.options import option_worth

    for kwargs, message in (
        ({"options": ["fly"]}, "no class of moves 'fly'"),
        ({"mode": "never"}, "mode must be one of forbid, always"),
        ({"margin": 0.2, "decisive": 0.1}, "decisive must exceed margin"),
    ):
        with pytest.raises(ConfigError, match=message) as err:
            option_worth(GARGON.config("3p"), "greedy", progress=False, **kwargs)
        assert "\n" not in str(err.value)
    with pytest.raises(ConfigError, match="cannot apply the restriction"):
        option_worth(GARNER.config("A"), "mcts:20", progress=False)


def test_the_command_line_writes_one_row_per_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from gamelib.cli import main

    out = tmp_path / "o.json"
    argv = ["worth", "deck_the_yard", "--options", "bubble", "discard", "--max-deals", "60"]
    assert main([*argv, "--seed", "3", "--json", str(out), "--no-progress", "--workers", "1"]) == 0
    printed = capsys.readouterr().out
    assert "Bonferroni: each of the 4 claims at α/4 and β/4" in printed and "bubble" in printed
    rows = json.loads(out.read_text())
    assert [r["card"] for r in rows] == ["bubble", "discard"]
    assert {"card", "estimate", "low", "high", "deals", "decision", "answer"} <= set(rows[0])
    assert all(r["low"] <= r["estimate"] <= r["high"] for r in rows)
    for bad, words in (
        (["--decisive", "0.01"], "--decisive must exceed --margin"),
        (["--players", "oracle"], "cannot apply the restriction"),
    ):
        assert main([*argv, "--seed", "1", *bad]) == 2
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1, err


def test_a_study_asks_for_option_worth_and_a_rerun_settles_it_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from gamelib.study import Study
    from gamelib.verdict.options import option_worth

    monkeypatch.setenv("GAMELIB_STORED", "none")
    yard = get_game("deck_the_yard").config()
    cache = tmp_path / "cache"
    ask = {"options": ["bubble"], "margin": 0.1, "decisive": 0.3}
    study = Study(9, 5, workers=1, cache=cache)
    study.options("o", yard, "greedy", 80, **ask, at="greedy")
    study.plan()
    assert capsys.readouterr().out.startswith("2 run(s): 0 deals stored, ")  # one run an arm
    got = study.run()["o"]
    alone = option_worth(yard, "greedy", max_deals=80, seed=9, progress=False, **ask)  # type: ignore[arg-type]
    pd.testing.assert_frame_equal(got.drop(columns=["at", "asked"]), alone)
    again = Study(9, 5, workers=1, cache=cache)
    again.options("o", yard, "greedy", 80, **ask, at="greedy")
    again.plan()
    assert capsys.readouterr().out.startswith("1 decision(s) settled by the deals held")
    pd.testing.assert_frame_equal(again.run()["o"], got)


def test_unrestricted_runs_keep_their_keys_and_restricted_runs_get_their_own() -> None:
    """The restriction lives in the player's name: a plain run's key is what it was before
    restricted players existed; each restriction is a key of its own."""
    config = GARGON.config("4p")
    plain = run_spec(config, ["greedy"] * 4, 10, 1, False)
    assert run_fingerprint(plain) == "126201486f9dffd2030f"  # the key from before (test_worth)
    specs = [f"greedy:{mode}={cls}" for mode in ("forbid", "always") for cls in ("pass", "three")]
    keys = {run_fingerprint(run_spec(config, [p] + ["greedy"] * 3, 10, 1, False)) for p in specs}
    assert len(keys) == len(specs) and run_fingerprint(plain) not in keys
