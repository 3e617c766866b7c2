"""gamelib.verdict.recommend: verdicts across the ladder turned into print / do not print /
undecided."""

import pandas as pd
import pytest

from gamelib.verdict.recommend import (
    DO_NOT_PRINT,
    ON_MARGIN,
    PRINT,
    choice_text,
    decided_at,
    recommend,
    verdict_grid,
)
from gamelib.verdict.run import COLUMNS


def row(level, question, decision, estimate=0.5, more=0):
    r = dict.fromkeys(COLUMNS)
    r.update(
        level=level,
        question=question,
        decision=decision,
        estimate=estimate,
        lo=estimate - 0.02,
        hi=estimate + 0.02,
        measure="seat 0 wins",
        deals=500,
        more_deals=more,
    )
    return r


def table(*rows):
    return pd.DataFrame(list(rows), columns=COLUMNS)


def test_print_when_every_claim_holds_at_every_level_but_random():
    t = table(
        row("random", "fair", "fails", 0.6),
        row("greedy", "fair", "holds"),
        row("greedy", "stalls", "holds", 0.0),
        row("mcts:200", "fair", "holds"),
        row("mcts:200 v greedy", "skill", "holds", 0.8),
    )
    r = recommend(t)
    assert r.status == PRINT and r.levels == ["greedy", "mcts:200"]
    assert "**print**" in r.words("C") and "`mcts:200`" in r.words("C")
    # random counts when asked for
    assert recommend(t, ["random", "greedy"]).status == DO_NOT_PRINT


def test_one_failing_claim_at_a_level_that_plays_well_decides_against_printing():
    t = table(
        row("greedy", "fair", "holds"),
        row("mcts:200", "fair", "fails", 0.62),
        row("mcts:200", "stalls", "undecided", 0.04, 300),
    )
    r = recommend(t)
    assert r.status == DO_NOT_PRINT
    assert r.reasons == ["`fair` at `mcts:200`: fails (seat 0 wins 0.620 [0.600, 0.640])"]


def test_undecided_names_the_deals_and_skill_steps_are_notes():
    t = table(
        row("greedy", "fair", "holds"),
        row("mcts:200", "fair", "undecided", 0.52, 1234),
        row("mcts:200 v greedy", "skill", "undecided", 0.51, 99),
        row("mcts:400 v mcts:200", "skill", "fails", 0.45),
    )
    r = recommend(t)
    assert r.status == "undecided"
    assert "about 1,234 more deals would decide" in r.reasons[0]
    assert any(n.startswith("a skill step not shown, `mcts:200` over `greedy`") for n in r.notes)
    assert any(n.startswith("warning") for n in r.notes)


def test_an_estimate_on_its_margin_is_said_so():
    t = table(row("greedy", "stalls", "undecided", 0.05, 750_000))
    assert "on the margin" in recommend(t).reasons[0]


def banded(r, lo, hi):
    r.update(band_lo=lo, band_hi=hi)
    return r


def test_a_claim_undecided_at_its_whole_budget_is_on_the_margin_with_its_decided_edges():
    stalls = banded(row("greedy", "stalls", "undecided", 0.051, 2_000), None, 0.05)
    t = table(row("greedy", "fair", "holds"), stalls)
    # inside its budget: undecided, with the deals a decision would need
    assert recommend(t, max_deals=12_000).status == "undecided"
    assert "about 2,000 more deals would decide" in recommend(t).reasons[0]
    # at its whole budget: on the margin, and where the same deals decide it
    r = recommend(t, max_deals=500)
    assert r.status == ON_MARGIN
    assert r.reasons == [
        "`stalls` at `greedy`: undecided (seat 0 wins 0.051 [0.031, 0.071]; on the margin after "
        "500 deals, about 2,000 more would decide; holds at a ceiling of 0.071, fails at 0.031)"
    ]
    assert "**on the margin**" in r.words("5p")
    assert r.alternatives == ["`stalls` at `greedy` with a ceiling of 0.071"]
    # one claim still in reach keeps the rule set undecided; one that fails decides it
    fair = banded(row("mcts:200", "fair", "undecided", 0.53, 900), 0.45, 0.55)
    fair["deals"] = 100
    assert recommend(table(stalls, fair), max_deals=500).status == "undecided"
    assert recommend(table(stalls, row("greedy", "fair", "fails", 0.7)), max_deals=500).status == (
        DO_NOT_PRINT
    )


def test_the_decided_edges_of_each_band_kind():
    fair = banded(row("g", "fair", "undecided", 0.305), 1 / 3 - 0.05, 1 / 3 + 0.05)
    assert decided_at(fair) == "holds at a margin of ±0.048, fails at ±0.008"
    wide = banded(row("g", "fair", "undecided", 1 / 3), 1 / 3 - 0.01, 1 / 3 + 0.01)
    assert decided_at(wide) == "holds at a margin of ±0.020"  # holds the centre: never fails
    floor = banded(row("a v b", "skill", "undecided", 0.3), 0.3, None)
    assert decided_at(floor) == "holds at a floor of 0.280, fails at 0.320"
    ceiling = banded(row("g", "stalls", "undecided", 0.01), float("nan"), 0.02)
    assert decided_at(ceiling) == "holds at a ceiling of 0.030"  # a rate cannot fall below 0


def test_refuses_tables_without_claims_or_levels():
    with pytest.raises(ValueError, match="no claims at"):
        recommend(table(row("greedy", "fair", "holds")), ["mcts:200"])
    with pytest.raises(ValueError, match="holds no claim"):
        recommend(table(row("b v a", "skill", "holds")))


def test_the_grid_puts_rule_sets_side_by_side_without_negative_zeros():
    a = table(row("greedy", "fair", "holds"), row("mcts:200 v greedy", "skill", "holds", 0.8))
    b = table(row("greedy", "fair", "fails", 0.62), row("greedy", "stalls", "holds", -0.0))
    g = verdict_grid({"standard": b, "C": a})
    assert list(g.columns) == ["greedy", "mcts:200"]
    assert g.loc[("C", "skill"), "mcts:200"] == "holds 0.800 [0.780, 0.820]"
    assert g.loc[("standard", "fair"), "greedy"].startswith("fails 0.620")
    assert "-0.000" not in g.loc[("standard", "stalls"), "greedy"]
    assert g.loc[("C", "fair"), "mcts:200"] == ""


def test_one_answer_among_alternatives_says_what_their_verdict_tables_say():
    holds = table(row("greedy", "fair", "holds"), row("greedy", "stalls", "holds", 0.0))
    fails = table(row("greedy", "fair", "fails", 0.62))
    stalls = banded(row("greedy", "stalls", "undecided", 0.051, 2_000), None, 0.05)
    margin = table(row("greedy", "fair", "holds"), stalls)
    opened = table({**row("greedy", "fair", "undecided", 0.52, 1234), "deals": 100})
    recs = {n: recommend(t, max_deals=500) for n, t in
            {"A": holds, "B": fails, "C": margin, "D": opened}.items()}  # fmt: skip
    # print names only the rule sets whose every claim holds (a failing one beside is left out)
    said = choice_text({n: recs[n] for n in "ABD"}, "garner", 0.05, 0.05)
    assert said.startswith("**garner: print** `A` —") and "`B`" not in said
    assert "α = β = 0.05" in said and "α = 0.05, β = 0.1" in choice_text(recs, "g", 0.05, 0.1)
    # on the margin: the band edge the same deals decide it at, from its own table
    said = choice_text({n: recs[n] for n in "BC"}, "gargon at 5 players", 0.05, 0.05, 500)
    assert said.startswith("**gargon at 5 players: on the margin** — `C` would print if")
    assert f"accepts {recs['C'].alternatives[0]}:" in said and "ceiling of 0.071" in said
    assert "after 500 deals" in said and "`B`" not in said
    # every one fails: do not print, naming them all; one still open: undecided
    assert choice_text({"B": recs["B"]}, "g", 0.05, 0.05).startswith("**g: do not print** `B`")
    assert choice_text({n: recs[n] for n in "BD"}, "g", 0.05, 0.05).startswith("**g: undecided**")
    with pytest.raises(ValueError, match="no rule set"):
        choice_text({}, "g", 0.05, 0.05)
