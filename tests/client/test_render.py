"""Board pictures: fixed views drawn as text, compared with the stored expectation files in
tests/client/expected/ (rewrite them with IRIDESCIA_UPDATE_EXPECTED=1 after a deliberate change),
and the 80-column promise."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

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
    check_expected(name, render_view(build(), game, version=57))


@pytest.mark.parametrize("name", sorted(HANDMADE))
def test_pictures_fit_80_columns_in_colour_too(name):
    build, game = HANDMADE[name]
    plain = render_view(build(), game, version=57)
    coloured = render_view(build(), game, version=57, color=True)
    assert "\x1b[" in coloured
    assert ANSI.sub("", coloured).splitlines() == plain.splitlines()
    assert max(len(line) for line in plain.splitlines()) <= 80


def test_the_picture_shows_what_the_issue_lists():
    text = render_view(handmade.solo_mid_game(), handmade.SOLO_GAME, version=57)
    lines = text.splitlines()
    canyon = next(line for line in lines if line.startswith("Canyon"))
    # 4d: the rainbow tile with the Rhom (seat 0) on it; 4e: sapphire with a stone-die bonus.
    assert "4d R   0" in canyon and "4e Ssd" in canyon
    assert "5c ##" in text and "5d ##" in text  # barricades
    assert "Roll: mine: dice 4 2, stone 5, needs 5 or more" in lines
    assert "Objectives  Glimmering Gold, Master Miner" in lines
    assert "Rhom deck   11 cards, next weathervane left, last card 7" in lines


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
    ranks = [line.split()[:3] for line in text.splitlines()[-3:]]
    assert ranks == [["1", "1", "Babbage"], ["2", "0", "Ada"], ["3", "2", "Countess"]]
