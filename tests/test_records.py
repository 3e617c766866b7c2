"""Game records: written, read back, replayed; corrupt or mismatched records are refused."""

from __future__ import annotations

import copy
import json

import pytest

from gamelib import RecordError, play_game, read_records, replay, write_records
from gamelib.garner import GARNER


@pytest.fixture(scope="module")
def record() -> dict:
    pg = play_game(GARNER, GARNER.config("B"), ["greedy", "random"], seed=11, record=True)
    assert pg.record is not None
    return pg.record


def test_record_holds_everything_needed_to_check_the_game(record: dict):
    assert record["format"] == "gamelib-record/2"
    assert record["game"] == "garner" and record["seed"] == 11
    assert record["players"] == ["greedy", "random"]
    assert record["config"]["forbidden_pile_size"] == 6
    layout = record["start"]["layout"]
    assert len(layout) == 9 and all(len(st) == 4 for st in layout)
    assert sorted(map(tuple, (c for st in layout for c in st))) == [
        (u, n) for u in range(3) for n in range(1, 13)
    ]
    kinds = {next(iter(m["move"])) for m in record["moves"]}
    assert {"lift", "place", "collect"} <= kinds
    assert record["chance"] == []
    json.dumps(record)  # plain JSON


def test_replay_reproduces_the_final_state_and_outcome(record: dict):
    again = replay(record)
    assert again.outcome.to_json() == record["outcome"]
    original = play_game(GARNER, GARNER.config("B"), ["greedy", "random"], seed=11)
    assert again.state.stacks == original.state.stacks
    assert again.state.collected == original.state.collected


def test_records_round_trip_through_jsonl(tmp_path, record: dict):
    path = tmp_path / "games.jsonl"
    assert write_records(path, [record, record]) == 2
    back = list(read_records(path))
    assert back == [record, record]
    path.write_text(path.read_text() + "{not json\n")
    with pytest.raises(RecordError, match=r"games.jsonl:3: not a JSON record"):
        list(read_records(path))


def _corrupt(record: dict, change) -> dict:
    bad = copy.deepcopy(record)
    change(bad)
    return bad


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.pop("moves"), "lacks moves"),
        (lambda r: r.update(format="other/9"), "unknown record format"),
        (lambda r: r.update(game="chess"), "unknown game 'chess'"),
        (lambda r: r["config"].update(height=5), "not a valid garner config"),
        (lambda r: r["start"]["layout"][0].__setitem__(0, [0, 99]), "card or field"),
        (lambda r: r["start"]["layout"][0].__setitem__(0, r["start"]["layout"][1][0]), "once"),
        (lambda r: r["moves"].__setitem__(0, {"seat": 0, "move": {"lift": [99]}}), "move 0"),
        (lambda r: r["moves"].__setitem__(0, {"seat": 1, "move": r["moves"][0]["move"]}), "seat"),
        (lambda r: r["moves"].__setitem__(1, {"seat": 0, "move": {"jump": 1}}), "unknown Garner"),
        (lambda r: r["moves"].pop(), "not over"),
        (lambda r: r["moves"].append(r["moves"][-1]), "after the game is over"),
        (lambda r: r["outcome"].update(winners=[1 - r["outcome"]["winners"][0]]), "record says"),
        (lambda r: r["chance"].append([1, 2]), "never used"),
    ],
)
def test_corrupt_records_are_refused_by_name(record: dict, change, message: str):
    with pytest.raises(RecordError, match=message):
        replay(_corrupt(record, change))


def test_a_record_is_a_value_error_not_a_traceback(record: dict):
    with pytest.raises(ValueError):
        replay({"format": "gamelib-record/1"})
    with pytest.raises(RecordError, match="JSON object"):
        replay([1, 2, 3])  # type: ignore[arg-type]


# --- gamelib-record/2: the final position, Deck the Yard's claims, /1 still read -----------


@pytest.fixture(scope="module")
def yard() -> dict:
    from gamelib.deck_the_yard import DECK_THE_YARD

    for seed in range(50):  # a game with claims and at least one reshuffle
        pg = play_game(DECK_THE_YARD, DECK_THE_YARD.config(None), ["greedy"], seed, record=True)
        assert pg.record is not None
        if pg.outcome.counters["claimed_patterns"] >= 2 and pg.record["chance"]:
            return pg.record
    raise AssertionError("no seed gave a game with claims and a reshuffle")


@pytest.mark.parametrize("game", ["garner", "gargon", "deck_the_yard"])
def test_every_record_carries_its_end_and_replay_compares_it(game: str):
    from gamelib import get_game

    g = get_game(game)
    seats = {"garner": 2, "gargon": 4, "deck_the_yard": 1}[game]
    rec = play_game(g, g.config(None), ["random"] * seats, 3, record=True).record
    assert rec is not None and rec["format"] == "gamelib-record/2"
    assert isinstance(rec["end"], dict) and rec["end"]
    replay(rec)
    key = next(iter(rec["end"]))
    bad = copy.deepcopy(rec)
    bad["end"][key] = ["not", "this"]
    with pytest.raises(RecordError, match=f"ends with {key} = "):
        replay(bad)


def test_deck_the_yard_records_list_each_claim(yard: dict):
    claims = yard["outcome"]["details"]["claims"]
    assert len(claims) == yard["outcome"]["counters"]["claimed_patterns"]
    assert [p for _, p, _ in claims] == yard["end"]["claimed"]
    n = len(yard["start"]["patterns"])
    face_up = 2
    for turn, pattern, slot in claims:
        assert 0 <= pattern < n and 0 <= slot < face_up and 0 <= turn <= yard["outcome"]["turns"]
    bad = copy.deepcopy(yard)
    bad["outcome"]["details"]["claims"][0][1] = (claims[0][1] + 1) % n
    with pytest.raises(RecordError, match="record says"):
        replay(bad)


def test_deck_the_yard_draws_are_checked_through_the_chance_log_and_the_end(yard: dict):
    bad = copy.deepcopy(yard)
    first = bad["chance"][0]
    first[0], first[-1] = first[-1], first[0]  # a different reshuffle: different draws
    with pytest.raises(RecordError):
        replay(bad)
    bad = copy.deepcopy(yard)
    pile = bad["start"]["draw_pile"]
    aside = {"broken", "character", "event"}  # drawn specials are set aside and reshuffled
    kinds = [c.split("#")[0] for c in pile]
    other = max(i for i, k in enumerate(kinds) if k != kinds[0] and {k, kinds[0]} - aside)
    pile[other], pile[0] = pile[0], pile[other]  # another kind of card drawn first
    with pytest.raises(RecordError):
        replay(bad)


def test_version_1_records_are_still_read(record: dict, yard: dict):
    for rec in (record, yard):
        old = copy.deepcopy(rec)
        old["format"] = "gamelib-record/1"
        del old["end"]
        old["outcome"]["details"].pop("claims", None)
        assert replay(old).outcome.to_json()["scores"] == rec["outcome"]["scores"]
