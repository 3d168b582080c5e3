"""The SVG board: golden files for fixed states, for a seat and for a spectator; it shows what
the view shows and nothing the view hides; names are escaped.

Regenerate the golden files after a deliberate change of the picture with
`IRIDESCIA_UPDATE_GOLDEN=1 pytest tests/server/picture/test_board_svg.py`, and look at them."""

from __future__ import annotations

import os
import random
import re
import xml.etree.ElementTree as ElementTree
from dataclasses import replace
from pathlib import Path

import pytest

import engine
from engine.data import OBJECTIVES, TILES, display_name
from server.picture.svg import board_svg
from tests.server.picture.boards import NAMES, states

GOLDEN = Path(__file__).parent / "golden"
SVG = "{http://www.w3.org/2000/svg}"


def _draw(state, seat):
    return board_svg(engine.view(state, seat), NAMES, "Gems of Iridescia, game golden")


@pytest.mark.parametrize("moment", ["start", "mid", "end"])
@pytest.mark.parametrize("seat", [1, None], ids=["seat1", "spectator"])
def test_the_picture_matches_its_golden_file(moment, seat):
    svg = _draw(states()[moment], seat)
    path = GOLDEN / f"{moment}_{'spectator' if seat is None else f'seat{seat}'}.svg"
    if os.environ.get("IRIDESCIA_UPDATE_GOLDEN"):
        path.write_text(svg)
    assert svg == path.read_text(), f"{path.name} differs: regenerate it if the change is meant"


def test_the_picture_is_well_formed_with_a_title_a_description_and_text_labels():
    svg = _draw(states()["mid"], 1)
    root = ElementTree.fromstring(svg)
    assert root.find(f"{SVG}title").text == "Gems of Iridescia, game golden"
    desc = root.find(f"{SVG}desc").text
    assert "Ada on " in desc and "Bo on " in desc and "to play" in desc
    texts = {t.text for t in root.iter(f"{SVG}text")}
    assert {"Desert", "Canyon", "Forest", "Ruins", "Castle"} <= texts  # region names
    assert "barricade" in texts
    assert any(t and t.startswith("Mining roll: ") for t in texts)  # the pending roll's dice


def test_every_hex_is_drawn_in_its_row_with_the_real_offset():
    svg = _draw(states()["start"], None)
    root = ElementTree.fromstring(svg)
    hexes = {g.get("id")[4:]: g for g in root.iter(f"{SVG}g") if (g.get("id") or "").startswith("hex-")}
    assert len(hexes) == 6 * 5 + 7 * 4  # rows of 6 and 7 hexes, 1 to 9
    # A 7-hex row starts half a hex left of the 6-hex rows around it (RULINGS §1).
    def left(name):
        return float(hexes[name].find(f"{SVG}polygon").get("points").split()[3].split(",")[0])
    assert left("2a") < left("1a") and left("2a") < left("3a")
    assert left("1a") == pytest.approx(left("3a"))


def test_gems_are_told_apart_without_colour_and_each_tile_shows_its_gem_and_bonus():
    state = states()["end"]
    svg = _draw(state, None)
    root = ElementTree.fromstring(svg)
    for cell in (c for row in engine.view(state, None)["board"] for c in row["hexes"]):
        if cell["state"] != "revealed":
            continue
        group = next(g for g in root.iter(f"{SVG}g") if g.get("id") == f"hex-{cell['hex']}")
        words = [t.text for t in group.iter(f"{SVG}text")]
        tile = cell["tile"]
        if tile["gem"]:
            assert {"amethyst": "A", "citrine": "C", "emerald": "E", "sapphire": "S"}[
                tile["gem"]] in words
        if tile["bonus"]:
            assert any(w and w.startswith("+") for w in words), (cell, words)


def _hide_differently(state, viewer):
    """The same position, with every secret the viewer cannot see changed: the face-down tiles
    swapped among themselves, the other seats' objectives replaced."""
    face_down = sorted(h for h in state.board if h not in state.revealed)
    tiles = [state.board[h] for h in face_down]
    random.Random(7).shuffle(tiles)
    board = dict(state.board) | dict(zip(face_down, tiles, strict=True))
    spare = [o for o in OBJECTIVES if all(o not in p.objectives for p in state.players)]
    players = tuple(
        p if p.seat == viewer or not p.objectives
        else replace(p, objectives=tuple(spare.pop() for _ in p.objectives))
        for p in state.players
    )
    return replace(state, board=board, players=players)


@pytest.mark.parametrize("moment", ["start", "mid"])
def test_a_seats_picture_names_no_other_seats_objective_and_no_face_down_tile(moment):
    state = states()[moment]
    svg = _draw(state, 1)
    # Changing what seat 1 must not know changes nothing in its picture...
    assert _draw(_hide_differently(state, 1), 1) == svg
    # ...and no secret is written in it.
    for player in state.players:
        if player.seat != 1:
            for objective in player.objectives:
                if objective not in state.players[1].objectives:
                    assert display_name(objective) not in svg
    for hex_name, tile_id in state.board.items():
        if hex_name not in state.revealed:
            assert tile_id not in svg
            group = re.search(rf'<g class="hex [^"]*" id="hex-{hex_name}">.*?</g>', svg).group(0)
            assert "face down" in group and display_name(tile_id) not in group
    # Its own objectives are there, with their text.
    for objective in state.players[1].objectives:
        assert f"Objective: {display_name(objective)} (" in svg
    assert TILES  # the tile table the ids come from


def test_player_names_are_escaped_and_control_characters_dropped():
    names = {0: "the Rhom", 1: "<script>alert('x')</script>", 2: "Bo & \x1b[31mRed\x07"}
    svg = board_svg(engine.view(states()["mid"], 1), names, "<b>game</b>")
    assert "<script>" not in svg and "<b>" not in svg and "\x1b" not in svg
    root = ElementTree.fromstring(svg)  # still well-formed XML
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert any("<script>alert('x')</script>" in t for t in texts)
    assert any("Bo & [31mRed" in t for t in texts)
