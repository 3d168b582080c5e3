"""The emails' words: subject, text and HTML parts from the templates."""

from server.notifications.board_text import board_text
from server.notifications.render import commands, render

VIEW = {
    "board": [
        {
            "row": 1,
            "region": "desert",
            "hexes": [
                {"hex": "1a", "state": "empty", "tile": None, "barricade": False, "explorers": []},
                {
                    "hex": "1b",
                    "state": "face_down",
                    "tile": None,
                    "barricade": False,
                    "explorers": [],
                },
                {
                    "hex": "1c",
                    "state": "revealed",
                    "barricade": False,
                    "explorers": [1],
                    "tile": {
                        "id": "desert-emerald-2",
                        "gem": "emerald",
                        "rainbow": False,
                        "iridia": False,
                        "bonus": None,
                    },
                },
            ],
        },
        {
            "row": 2,
            "region": "forest",
            "hexes": [
                {
                    "hex": "2a",
                    "state": "face_down",
                    "tile": None,
                    "barricade": True,
                    "explorers": [],
                },
                {
                    "hex": "2b",
                    "state": "revealed",
                    "barricade": False,
                    "explorers": [0, 2],
                    "tile": {
                        "id": "forest-rainbow",
                        "gem": None,
                        "rainbow": True,
                        "iridia": False,
                        "bonus": None,
                    },
                },
            ],
        },
    ]
}


def _context(**changes):
    context = {
        "game_id": "k3x9",
        "game_url": "https://iridescia.test/games/k3x9",
        "name": "Ada <Lovelace>",
        "seat": 1,
        "your_turn": True,
        "decision_kind": "turn",
        "deadline": "2026-03-04 12:00 UTC",
        "happened": ["Bob moved to 2b", "the Rhom revealed 2c"],
        "board": board_text(VIEW),
        "me": {
            "coins": 5,
            "points": 3,
            "position": "1c",
            "hold": "1 citrine, 2 emerald",
            "items_held": "Jolty Jackhammer",
            "objectives": "Master Miner",
        },
        "scores": [],
        "played": [],
        "reason": "",
        "commands": commands("k3x9", "turn"),
    }
    context.update(changes)
    return context


def test_board_text_draws_rows_top_down_with_tiles_barricades_and_explorers():
    assert board_text(VIEW).splitlines()[:2] == [
        "2 forest     2a #       2b *@0@2",
        "1 desert     1a .       1b ?       1c E@1",
    ]


def test_your_turn_email_tells_what_happened_where_things_stand_and_what_to_type():
    subject, text, html = render("your_turn", _context())
    assert subject == "Gems of Iridescia k3x9: your turn"
    assert "To look:    iridescia show k3x9" in text
    assert "What now:   iridescia legal k3x9" in text
    assert "To play:    iridescia reveal k3x9 HEX [HEX]" in text
    assert "Play by 2026-03-04 12:00 UTC" in text
    assert "  - Bob moved to 2b" in text
    assert "1 desert     1a .       1b ?       1c E@1" in text
    assert "Hold: 1 citrine, 2 emerald" in text and "Objective: Master Miner" in text
    assert "Items: Jolty Jackhammer" in text
    assert "https://iridescia.test/games/k3x9" in text
    assert "Hello Ada &lt;Lovelace&gt;," in html and "<Lovelace>" not in html
    assert "<code>iridescia legal k3x9</code>" in html


def test_game_over_email_lists_scores_and_no_commands_to_play():
    scores = [{"name": "Bob", "total": 41, "rank": 1}, {"name": "Ada", "total": 37, "rank": 2}]
    subject, text, _ = render("game_over", _context(your_turn=False, scores=scores, deadline=None))
    assert subject == "Gems of Iridescia k3x9 is over: Bob won"
    assert "  1. Bob: 41 points\n  2. Ada: 37 points" in text
    assert "To play" not in text


def test_played_for_you_email_says_why_and_what_was_played():
    context = _context(
        your_turn=False, reason="the deadline passed", played=["revealed 2c and 2d", "moved to 2c"]
    )
    subject, text, _ = render("played_for_you", context)
    assert subject == "Gems of Iridescia k3x9: your turn was played for you"
    assert "was played for you: the deadline passed." in text
    assert "  - moved to 2c" in text


def test_removal_turn_and_deadline_warning_subjects():
    removal = _context(decision_kind="removal", commands=commands("k3x9", "removal"))
    subject, text, _ = render("your_turn", removal)
    assert subject == "Gems of Iridescia k3x9: your removal turn"
    assert "To play:    iridescia remove k3x9 HEX" in text
    subject, _, _ = render("deadline_warning", _context())
    assert (
        subject
        == "Gems of Iridescia k3x9: your turn will be played for you at 2026-03-04 12:00 UTC"
    )
