"""The emails' words: subject, text and HTML parts from the templates."""

import re

from engine.text.board import render_plain
from server.notifications.render import commands, render
from tests.client import handmade

BOARD = render_plain(handmade.solo_mid_game(), handmade.SOLO_GAME)
TYPED = ["reveal 3c", "reveal 3c 3d", "move 2b", "give emerald --to supply"]


def _context(**changes):
    context = {
        "game_id": "k3x9",
        "game_url": "https://iridescia.test/games/k3x9",
        "name": "Ada <Lovelace>",
        "seat": 1,
        "your_turn": True,
        "decision_kind": "turn",
        "deadline": "2026-03-04 12:00 UTC",
        "happened": ["Turn 12: Bob", "  Bob moved to 2b: an emerald.",
                     "Turn 13: the Rhom", "  The Rhom revealed 2c."],
        "board": BOARD,
        "typed": TYPED,
        "typed_more": 0,
        "scores": [],
        "score_lines": [],
        "played": [],
        "reason": "",
        "commands": commands("k3x9", TYPED[0]),
    }
    context.update(changes)
    return context


def test_your_turn_email_says_who_plays_at_the_deadline():
    _, text, html = render("your_turn", _context(stand_in="medium"))
    assert ("Play by 2026-03-04 12:00 UTC; after that the server plays the turn for you.\n"
            "Who plays it then: your stand-in, the medium bot.\n") in text
    assert "Who plays it then: your stand-in, the <strong>medium</strong> bot." in html


def test_your_turn_email_tells_what_happened_where_things_stand_and_what_to_type():
    subject, text, html = render("your_turn", _context())
    assert subject == "Your turn (k3x9)"
    assert (
        "Since your last turn:\n"
        "  Turn 12: Bob\n"
        "    Bob moved to 2b: an emerald.\n"
        "  Turn 13: the Rhom\n"
        "    The Rhom revealed 2c.\n"
    ) in text
    assert (
        "Play by 2026-03-04 12:00 UTC; after that the server plays the turn for you.\n"
        "What you may type now (reply with one command a line):\n"
        "  reveal 3c\n"
        "  reveal 3c 3d\n"
        "  move 2b\n"
        "  give emerald --to supply\n"
        "In a terminal, put the game after the first word: iridescia reveal k3x9 3c\n"
        "To look:    iridescia show k3x9\n"
        "What now:   iridescia legal k3x9\n"
    ) in text
    assert "\nThe board:\n" + BOARD + "\n" in text  # as `iridescia show --no-color` draws it
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "https://iridescia.test/games/k3x9" in text
    assert "Hello Ada &lt;Lovelace&gt;," in html and "<Lovelace>" not in html
    assert "<code>iridescia legal k3x9</code>" in html
    assert re.search(r"<pre[^>]*>reveal 3c\nreveal 3c 3d\n", html)


def test_a_long_list_of_commands_says_how_many_more_there_are():
    _, text, _ = render("your_turn", _context(typed=TYPED[:1], typed_more=63))
    assert "  reveal 3c\n  ... and 63 more: `iridescia legal k3x9` lists them all.\n" in text


def test_game_over_email_gives_every_players_score_breakdown_and_no_commands():
    scores = [{"name": "Bob", "total": 41, "rank": 1}, {"name": "Ada", "total": 37, "rank": 2}]
    lines = ["1. Bob (winner): 41 points (30 during the game, 6 tile sets, 5 objective)",
             "2. Ada: 37 points (37 during the game)"]
    subject, text, html = render("game_over", _context(your_turn=False, scores=scores,
                                                      score_lines=lines, deadline=None))
    assert subject == "Game over: Bob won (k3x9)"
    assert ("Final scores:\n  1. Bob (winner): 41 points (30 during the game, 6 tile sets, "
            "5 objective)\n  2. Ada: 37 points (37 during the game)\n") in text
    assert "What you may type" not in text and "<li>2. Ada: 37 points" in html


def test_played_for_you_email_says_why_and_what_was_played():
    context = _context(your_turn=False, reason="the deadline passed",
                       played=["reveal 2c 2d", "move 2c"])
    subject, text, _ = render("played_for_you", context)
    assert subject == "Your turn was played for you (k3x9)"
    assert "was played for you: the deadline passed." in text
    assert "  - move 2c" in text


def test_the_start_email_says_the_game_started_and_never_a_seat_number():
    _, text, html = render("game_started", _context(board=""))
    assert "Game k3x9 of Gems of Iridescia has started.\n" in text
    assert ('Game <a href="https://iridescia.test/games/k3x9">k3x9</a> of Gems of Iridescia has '
            "started.</p>") in html
    assert not re.search(r"seat \d", text + html)


def test_removal_turn_and_deadline_warning_subjects():
    removal = _context(decision_kind="removal", typed=["remove 6b"],
                       commands=commands("k3x9", "remove 6b"))
    subject, text, _ = render("your_turn", removal)
    assert subject == "Your removal turn (k3x9)"
    assert "In a terminal, put the game after the first word: iridescia remove k3x9 6b" in text
    subject, _, _ = render("deadline_warning", _context())
    assert (
        subject
        == "Your turn will be played for you at 2026-03-04 12:00 UTC (k3x9)"
    )


def test_the_turn_subject_tells_the_news_and_the_turn_number():
    context = _context(headline="Ana restored the Emerald Tablet", turn_number=7)
    subject, _, _ = render("your_turn", context)
    assert subject == "Ana restored the Emerald Tablet — your turn 7 (k3x9)"


def test_the_html_mail_is_one_column_with_a_language_and_a_viewport():
    _, _, html = render("your_turn", _context())
    assert '<html lang="en">' in html
    assert 'name="viewport" content="width=device-width' in html
    assert "max-width: 600px" in html
