"""Narration: a recorded game told as one seat and as a spectator may know it (golden files), and
nothing hidden from that reader changes a word of it."""

from __future__ import annotations

import copy
import json
import os
import re
from pathlib import Path

import pytest

import engine
from engine.data import OBJECTIVES, display_name
from engine.text import narrate

ENGINE_TESTS = Path(__file__).parents[1]  # tests/engine: its recorded games and golden files
RECORDED = ENGINE_TESTS / "recorded" / "v1"  # the golden files tell version 1 games
EXPECTED = ENGINE_TESTS / "expected"
LOGS = sorted(RECORDED.glob("*.json"))
NAMES = {0: "the Rhom", 1: "Ada", 2: "Bob"}


def recorded(name: str) -> dict:
    return json.loads((RECORDED / name).read_text())


def names_of(log: dict) -> dict:
    return {i: ("the Rhom" if p == "rhom" else f"Player {p}")
            for i, p in enumerate(log["events"][0]["seats"])}


def check_golden(name: str, text: str) -> None:
    path = EXPECTED / name
    if os.environ.get("IRIDESCIA_UPDATE_GOLDEN"):
        path.write_text(text + "\n")
    assert text + "\n" == path.read_text()


@pytest.mark.parametrize("seat,golden", [(1, "narration_two_players_rhom_seat1.txt"),
                                         (None, "narration_two_players_rhom_spectator.txt")])
def test_a_recorded_game_is_told_turn_by_turn(seat, golden):
    log = recorded("two_players_rhom.json")
    check_golden(golden, narrate.narrate_text(log["events"], NAMES, seat))


def test_the_example_of_the_issue_reads_as_written():
    events = [
        {"type": "turn_started", "seat": 1, "kind": "turn", "number": 31},
        {"type": "tiles_revealed", "seat": 1, "hexes": ["7c", "7d"],
         "tiles": ["ruins_emerald_points", "ruins_citrine_coins"]},
        {"type": "explorer_moved", "seat": 1, "hex": "7c", "via": "move"},
        {"type": "gems_gained", "seat": 1, "gem": "emerald", "count": 1, "source": "tile"},
        {"type": "points_scored", "seat": 1, "points": 3, "reason": "tile"},
    ]
    [story] = narrate.narrate(events, {1: "Ada"}, seat=2)
    assert story.heading == "Turn 31: Ada"
    assert story.sentences == ("Ada revealed 7c and 7d and moved to 7c: an emerald and 3 points.",)
    [mine] = narrate.narrate(events, {1: "Ada"}, seat=1)
    assert mine.heading == "Turn 31: Ada (you)"
    assert mine.sentences == ("You revealed 7c and 7d and moved to 7c: an emerald and 3 points.",)


def test_events_that_start_mid_turn_are_told_too():
    events = [{"type": "tile_collected", "seat": 2, "hex": "1c", "tile": "desert_sapphire_1"},
              {"type": "market_adjusted", "gem": "sapphire", "value": 3},
              {"type": "royalty_token_taken", "seat": 2, "token": "throne", "points": 7}]
    [story] = narrate.narrate(events, NAMES, seat=1)
    assert story.heading == "Continued"
    assert story.sentences == (
        "Bob collected the Desert Sapphire tile from 1c; sapphire is now worth 3 coins.",
        "Bob reached the Castle and took the Throne: 7 points.",
    )


def hide_what_seat_may_not_see(log: dict, seat: int | None) -> list[dict]:
    """The same log with every secret from `seat` replaced by something else."""
    events = copy.deepcopy(log["events"])
    start = events[0]
    start["layout"] = {h: "castle_iridia_stone" for h in start["layout"]}
    start["removed_tiles"] = list(reversed(start["removed_tiles"]))
    for deck in ("item_deck", "relic_deck", "rhom_deck"):
        start[deck] = list(reversed(start[deck]))
    others = [o for o in OBJECTIVES]
    start["objectives"] = [objs if s == seat else others[: len(objs)]
                           for s, objs in enumerate(start["objectives"])]
    for e in events:
        if e["type"] in ("item_deck_reshuffled", "market_refreshed", "rhom_deck_reshuffled"):
            e["deck"] = list(reversed(e["deck"]))
        elif e["type"] == "objective_discarded" and e["seat"] != seat:
            e["objective"] = "master_miner"
        elif e["type"] == "tile_removed":
            e["tile"] = "castle_iridia_stone"
    return events


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_nothing_hidden_from_the_reader_changes_the_story(path):
    log = json.loads(path.read_text())
    names = names_of(log)
    for seat in [None, *range(len(names))]:
        told = narrate.narrate_text(log["events"], names, seat)
        assert narrate.narrate_text(hide_what_seat_may_not_see(log, seat), names, seat) == told
        for other, objectives in enumerate(log["events"][0]["objectives"]):
            if other != seat:
                for objective in objectives:
                    assert display_name(objective) not in told, (seat, objective)


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_no_raw_identifier_reaches_a_reader(path):
    log = json.loads(path.read_text())
    for seat in (None, 1):
        told = narrate.narrate_text(log["events"], names_of(log), seat)
        assert not re.search(r"[a-z]_[a-z]|=|\{|\[", told), re.findall(r"\S*[_={\[]\S*", told)[:5]
        assert "None" not in told


def test_untrusted_names_lose_their_control_characters():
    events = [{"type": "turn_started", "seat": 1, "kind": "turn", "number": 2},
              {"type": "gems_sold", "seat": 1, "gem": "emerald", "count": 2, "coins": 6}]
    text = narrate.narrate_text(events, {1: "Ada\x1b[31m\u202e"})
    assert text == "Turn 2: Ada[31m\n  Ada[31m sold 2 emeralds for 6 coins."


def test_the_final_scores_say_where_each_total_came_from():
    log = recorded("two_players.json")
    assert narrate.score_lines(log["outcome"], {0: "Ada", 1: "Bob"}) == [
        "1. Ada (winner): 88 points (61 during the game, 10 tile sets, 12 relic sets, "
        "5 objective, objective Jazzy Jeweler met)",
        "2. Bob: 30 points (24 during the game, 6 tile sets, objective Remarkable Restorer "
        "not met)",
    ]


@pytest.mark.parametrize("seat", [None, 1, 2])
def test_events_redacted_by_the_server_tell_the_same_story(seat):
    log = recorded("two_players_rhom.json")
    served = [engine.redact_event(e, seat) for e in log["events"]]
    assert narrate.narrate_text(served, NAMES, seat) == narrate.narrate_text(
        log["events"], NAMES, seat)


def test_every_event_of_random_games_is_told(monkeypatch):
    """No handler fails on a real event (a failure would be swallowed in production), and every
    kind of event the games produce is narrated without a raw identifier."""
    from engine import simulate
    from engine.bots import policies
    from engine.text.narrate.narrator import Narrator

    def strict(handler, event):
        handler(event)

    monkeypatch.setattr(Narrator, "tell", staticmethod(strict))
    kinds = set()
    for players, rhom in ((4, False), (2, True), (1, True), (3, False)):
        options = simulate.make_options(players, rhom)
        for index in range(4):
            record = simulate.play_game(options, f"told-{index}", policies.random_policy)
            kinds |= {e.type for e in record.events}
            for seat in (None, 1):
                told = narrate.narrate_text(record.events, {}, seat)
                assert not re.search(r"[a-z]_[a-z]|=|\{|\[|None", told)
    assert len(kinds) >= 38


def test_r25_a_relic_deck_shuffle_is_told_without_its_order():
    from engine.events import RelicDeckShuffled
    from engine.text.narrate import narrate_text

    text = narrate_text([RelicDeckShuffled(("amethyst_ring", "citrine_plate"))], {0: "Ada"})
    assert "relic deck was shuffled" in text
    assert "Ring" not in text and "Plate" not in text and "amethyst" not in text
