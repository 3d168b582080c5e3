"""Board pictures: fixed views drawn as text, compared with the stored expectation files in
tests/client/expected/ (rewrite them with IRIDESCIA_UPDATE_EXPECTED=1 after a deliberate change),
and the 80-column promise."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

import engine
from client.render import render_view
from tests.client import handmade

EXPECTED = Path(__file__).parent / "expected"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def check_expected(name: str, text: str) -> None:
    path = EXPECTED / f"{name}.txt"
    if os.environ.get("IRIDESCIA_UPDATE_EXPECTED"):
        path.write_text(text + "\n", encoding="utf-8")
    assert path.exists(), f"no expectation file {path}: run with IRIDESCIA_UPDATE_EXPECTED=1"
    assert text + "\n" == path.read_text(encoding="utf-8")


HANDMADE = {
    "solo_mid_game": (handmade.solo_mid_game, handmade.SOLO_GAME),
    "finished_three_players": (handmade.finished_three_players, handmade.THREE_GAME),
}


@pytest.mark.parametrize("name", sorted(HANDMADE))
def test_handmade_views_match_their_pictures(name):
    build, game = HANDMADE[name]
    check_expected(name, render_view(build(), game))


@pytest.mark.parametrize("name", sorted(HANDMADE))
def test_pictures_fit_80_columns_in_colour_too(name):
    build, game = HANDMADE[name]
    plain = render_view(build(), game)
    coloured = render_view(build(), game, color=True)
    assert "\x1b[" in coloured
    assert ANSI.sub("", coloured).splitlines() == plain.splitlines()
    assert max(len(line) for line in plain.splitlines()) <= 80


def test_the_picture_shows_what_the_issue_lists():
    text = render_view(handmade.solo_mid_game(), handmade.SOLO_GAME)
    lines = text.splitlines()
    canyon = next(line for line in lines if line.startswith("Canyon"))
    # 4d: the rainbow tile with the Rhom (r) on it; 4e: sapphire with a stone-die bonus; 3c:
    # Ada's explorer (a). The key names the players behind the letters, and no line numbers a
    # seat or says a version.
    assert "4d R   r" in canyon and "4e Ssd" in canyon
    assert "3c E1c a" in next(line for line in lines if "3c" in line)
    assert "letters after a tile: the explorers there (r the Rhom, a Ada)" in lines
    assert lines[:2] == ["Game solo1 (mining cost 1, leftover gems any)",
                         "Turn 9: Ada (you), actions phase"]
    assert " r the Rhom        4d       - A2 C0 E1 S3      0     11     3      1 -" in lines
    assert ">a Ada *           3c       3 A1 C2 E3 S0      1      4     2      0 -" in lines
    assert "seat" not in text.lower() and "version" not in text
    assert "5c ##" in text and "5d ##" in text  # barricades
    assert "Roll: mine: dice 4 2, stone 5, needs 5 or more" in lines
    assert "Objectives  Glimmering Gold (7p): The most coins at the end of the game (a tie" in lines
    assert "            Master Miner (7p): A restored relic of each category: Jewelry, Tech" in lines
    assert "Relics      Sapphire Spyglass (tech, 1C2S, 5p)," in lines
    assert "Rhom deck   11 cards, next weathervane left, last card 7" in lines


def test_show_gives_my_items_texts_every_relics_category_and_tiles_per_gem():
    """Card help in `show` (issue 21): the text of my items, the category of every restored
    relic, each player's victory pile counted by gem (rainbow and Iridia Stone tiles wild)."""
    lines = render_view(handmade.solo_mid_game(), handmade.SOLO_GAME).splitlines()
    assert "Items       Dazzling Dynamite (3c): Change one die by up to +2 or -2: a die of" in lines
    assert "            When: your turn, during the optional actions, before a mining roll." in lines
    assert "  the Rhom relics Citrine Amulet (jewelry)" in lines
    # The Rhom's pile: desert_amethyst_1, canyon_rainbow, desert_sapphire_2.
    assert "  the Rhom tiles A1 C0 E0 S1 wild 1" in lines
    assert "  Ada tiles A0 C0 E2 S0 wild 0" in lines
    assert "You: hold A1 C2 E3 S0 (6/7), coins 3, stone dice 1, points 4" in lines


def test_other_players_objectives_never_appear():
    view = handmade.solo_mid_game()
    view["viewer"] = None
    text = render_view(view, handmade.SOLO_GAME)
    assert "Glimmering Gold" not in text  # the handmade view still carries them: not drawn
    assert "You are watching (no seat in this game)." in text


def test_json_views_round_trip_through_the_picture():
    view = json.loads(json.dumps(handmade.finished_three_players()))
    text = render_view(view, handmade.THREE_GAME)
    assert "Final scores" in text
    ranks = [line.split()[:2] for line in text.splitlines()[-3:]]
    assert ranks == [["1", "Babbage"], ["2", "Ada"], ["3", "Countess"]]


ENGINE_PICTURES = {
    # name: (players, rhom, viewer, steps, stop)
    "engine_solo_pending_roll": (1, True, 1, 20, lambda view: view["roll"] is not None),
    "engine_three_players_turn_21": (3, False, 1, 120, None),
    "engine_two_players_finished": (2, False, 0, None, None),
}


def engine_view(name):
    import engine
    from tests.client import engine_views

    players, rhom, viewer, steps, stop = ENGINE_PICTURES[name]
    state = engine_views.state_after(
        players, "pictures", steps,
        stop=(lambda st: stop(engine.view(st, viewer))) if stop else None,
    )
    return state, engine.view(state, viewer), engine_views.game_info(players, rhom, name)


@pytest.mark.parametrize("name", sorted(ENGINE_PICTURES))
def test_engine_states_match_their_pictures(name):
    _state, view, game = engine_view(name)
    text = render_view(view, game)
    check_expected(name, text)
    assert max(len(line) for line in text.splitlines()) <= 80


def test_a_seat_sees_no_other_seats_objectives():
    import engine

    state, view, game = engine_view("engine_three_players_turn_21")
    text = render_view(view, game)
    mine = set(view["players"][1]["objectives"])
    for seat in (0, 2):
        for objective in engine.view(state, seat)["players"][seat]["objectives"]:
            if objective not in mine:
                assert engine.data.display_name(objective) not in text


def test_a_finished_game_shows_every_objective_and_the_ranking():
    _state, view, game = engine_view("engine_two_players_finished")
    text = render_view(view, game)
    other = view["players"][1]["objectives"][0]
    names = {p["seat"]: p["name"] for p in game["players"]}
    assert f"  {names[1]} objective {engine.data.display_name(other)}" in text.splitlines()
    ranking = text.splitlines()[-2:]
    totals = {e["seat"]: e["total"] for e in view["outcome"]["seats"]}
    assert [line.split()[1] for line in ranking] == [
        names[s] for s in sorted(totals, key=lambda s: -totals[s])]


def test_long_names_and_ids_still_fit_80_columns():
    view = handmade.solo_mid_game()
    view["turn"].update(kind="removal", extra_turn=True)
    game = {"id": "x" * 30, "players": [
        {"seat": 1, "name": "Countess Augusta Ada Lovelace-Byron of Ockham", "kind": "human"}]}
    text = render_view(view, game)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert ("Turn 9: Countess Augusta Ada Lo… (you), removal turn: remove one tile below the\n"
            "  Castle (extra turn)\n") in text


@pytest.mark.parametrize("name", sorted(HANDMADE))
def test_show_in_japanese_when_lang_is_japanese_fits_80_columns(name, monkeypatch):
    from engine.text.columns import columns

    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    build, game = HANDMADE[name]
    text = render_view(build(), game)
    assert "宝石市場" in text and "タイルの後の文字：そこにいる探検家" in text
    assert "Gem market" not in text and "Supply" not in text
    assert max(columns(line) for line in text.splitlines()) <= 80
