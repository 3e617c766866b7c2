"""gamelib report: the verdicts rendered to one HTML file through the report notebook."""

import base64
import html as htmllib
import json
import re

import pytest

import gamelib
from gamelib.cli import main
from gamelib.registry import get_game
from gamelib.report import read_results, report, write_results
from gamelib.verdict import Fair, Stalls, Target, verdict


def text_of(page: str) -> str:
    """The words a reader sees (no markup, no styles, no scripts)."""
    body = re.sub(r"<style.*?</style>|<script.*?</script>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]+>", " ", body)))


def charts_of(page: str) -> list[bytes]:
    return [
        base64.b64decode(b)
        for b in re.findall(r"data:image/png;base64,([A-Za-z0-9+/=\n]+)", page)
        if len(b) > 2000  # the charts, not the page's icons
    ]


def test_cli_report_states_the_same_decisions_as_verdict(tmp_path, capsys):
    flags = ["garner", "--setup", "A", "--players", "random,greedy", "--seed", "11"]
    flags += ["--max-games", "600", "--workers", "1", "--no-progress"]
    out = tmp_path / "garner-a.html"
    assert main(["report", *flags, "--out", str(out)]) == 0
    assert main(["verdict", *flags, "--json", str(tmp_path / "v.json")]) == 0
    page = out.read_text(encoding="utf-8")
    words = text_of(page)
    assert "Garner: balance report" in words
    # no code cells: the template's imports and calls are not in the page
    assert "import gamelib" not in page and "read_results(" not in page
    rows = json.loads((tmp_path / "v.json").read_text())
    assert {r["question"] for r in rows} == {"fair", "stalls", "skill"}
    for r in rows:  # every decision and its interval, as the verdict command decides it
        line = f"{r['level']} {r['question']} {r['decision']}"
        assert line in words, line
        assert f"{r['estimate']:.3f} [{r['lo']:.3f}, {r['hi']:.3f}]" in words
    greedy_fair = next(r for r in rows if r["level"] == "greedy" and r["question"] == "fair")
    assert greedy_fair["decision"] == "fails"
    assert "fair: fails at greedy" in words
    # provenance and the command that reproduces it
    assert "gamelib report garner --setup A --players random,greedy --seed 11" in words
    assert f"gamelib {gamelib.__version__}" in words
    assert "seed 11" in words
    # the verdict chart, the seat shares, the length and margin distributions
    assert len(charts_of(page)) == 3
    assert "report:" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("game", "setup", "levels", "questions", "expect"),
    [
        ("gargon", "3p", ["random"], [Fair(0.1), Stalls(0.2)], "shared or drawn"),
        ("deck_the_yard", None, ["greedy"], [Target(0.1, 0.1), Stalls()], "win rate"),
    ],
)
def test_report_on_every_game(tmp_path, game, setup, levels, questions, expect):
    config = get_game(game).config(setup)
    out = report(
        config,
        levels,
        questions,
        out=tmp_path / "r.html",
        seed=3,
        max_games=300,
        workers=1,
        progress=False,
    )
    words = text_of(out.read_text(encoding="utf-8"))
    assert expect in words
    for q in questions:
        assert re.search(rf"{levels[0]} {q.name} (holds|fails|undecided)", words), q.name
    assert "made from Python" in words  # no command line given: it says so
    assert len(charts_of(out.read_text(encoding="utf-8"))) == (3 if game == "gargon" else 2)


def test_results_round_trip_keeps_the_decisions(tmp_path):
    config = get_game("garner").config("A")
    tables: dict = {}
    v = verdict(config, ["greedy"], [Fair()], seed=1, progress=False, workers=1, tables=tables)
    assert list(tables) == ["greedy"] and len(tables["greedy"][0]) >= v.iloc[0]["deals"]
    write_results(tmp_path, v, tables)
    back, run, again = read_results(tmp_path)
    assert back.decision.tolist() == v.decision.tolist()
    assert run["seed"] == 1 and run["levels"] == ["greedy"]
    assert again["greedy"][0].turns.tolist() == tables["greedy"][0].turns.tolist()


def test_bad_report_arguments_fail_before_any_game(tmp_path, capsys):
    base = ["report", "garner", "--setup", "A", "--players", "greedy", "--seed", "1"]
    assert main([*base, "--out", str(tmp_path / "r.pdf")]) == 2
    assert "--out" in capsys.readouterr().err
    assert main([*base, "--out", str(tmp_path / "nowhere" / "r.html")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main([*base, "--out", str(tmp_path / "r.html"), "--alpha", "0.7"]) == 2
    assert "--alpha" in capsys.readouterr().err
    assert not (tmp_path / "r.html").exists()


def test_a_report_with_card_worth_shows_each_card_as_gamelib_worth_decides_it(tmp_path, capsys):
    flags = ["gargon", "--setup", "4p", "--players", "random,greedy", "--seed", "3"]
    flags += ["--max-games", "200", "--workers", "1", "--no-progress"]
    out = tmp_path / "gargon.html"
    worth_flags = ["--worth-deals", "150", "--worth-margin", "0.05"]
    assert main(["report", *flags, "--out", str(out), *worth_flags]) == 0
    assert main(["worth", "gargon", "--setup", "4p", "--cards", "--players", "greedy",
                 "--max-deals", "150", "--margin", "0.05", "--seed", "3", "--workers", "1",
                 "--no-progress", "--json", str(tmp_path / "w.json")]) == 0  # fmt: skip
    words = text_of(out.read_text(encoding="utf-8"))
    assert "What each card is worth" in words and "Bonferroni: each of the 16 rows" in words
    for r in json.loads((tmp_path / "w.json").read_text()):  # the same rows as gamelib worth
        assert f"{r['estimate']:+.4f} [{r['low']:+.4f}, {r['high']:+.4f}]" in words
    # a game without cards to trade has no such flag; a bad value is one line
    assert main(["report", *flags, "--out", str(out), "--worth-deals", "0"]) == 2
    assert "--worth-deals must be a whole number ≥ 1" in capsys.readouterr().err


def test_a_report_with_option_worth_leaves_out_a_search_that_cannot_be_restricted(tmp_path):
    flags = ["garner", "--setup", "A", "--players", "random,mcts:20", "--seed", "3"]
    flags += ["--max-games", "60", "--workers", "1", "--no-progress"]
    out = tmp_path / "garner.html"
    assert main(["report", *flags, "--out", str(out), "--option-deals", "30"]) == 0
    assert main(["worth", "garner", "--setup", "A", "--options", "--players", "random",
                 "--max-deals", "30", "--seed", "3", "--workers", "1", "--no-progress",
                 "--json", str(tmp_path / "o.json")]) == 0  # fmt: skip
    words = text_of(out.read_text(encoding="utf-8"))
    assert "What each option is worth" in words and "(random, random)" in words
    assert "Left out: 'mcts:20:forbid=lift-small': mcts:20 searches ahead" in words
    for r in json.loads((tmp_path / "o.json").read_text()):  # the same rows as gamelib worth
        assert f"{r['card']} {r['estimate']:+.4f} [{r['low']:+.4f}, {r['high']:+.4f}]" in words
