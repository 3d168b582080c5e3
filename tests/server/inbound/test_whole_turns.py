"""Replies that work (docs/mail.md): an interruption's answer waits until the game asks for it
(engine/text/script.py plays a rainbow tile's whole turn: tests/engine/text/test_script.py),
a mistyped command is answered with what it may have meant, and `explain NAME` is answered in
the same answer."""

import random

import engine
from engine.text import notation
from tests.server.inbound.conftest import answer_to, flat
from tests.server.inbound.post import reply


def _a_move_after(state, seat, reveal_line):
    reveal = notation.parse(reveal_line, seat)
    after = engine.replay(engine.decide(state, reveal, random.Random(0)), state)
    return next(notation.format(c) for c in engine.legal_commands(after, seat)
                if c.type == "move")


def test_an_answer_the_game_never_asks_for_waits_and_is_reported_unused(post, table, duel):
    move = _a_move_after(table.state(duel.game_id), duel.seat, duel.first)
    outcome = post.ingest(reply(duel.mail, f"choose emerald\n{duel.first}\n{move}"))
    post.deliver()
    answer = answer_to(post, duel.player.email)
    assert outcome.status == "applied", answer
    assert f"Applied:\n    {duel.first}\n    {move}\n" in answer
    assert "Not used (the game never asked for them):\n    choose emerald\n" in answer
    assert table.state(duel.game_id).players[duel.seat].position == move.split()[1]


def test_a_mistyped_command_gets_did_you_mean_and_stops_the_run(post, table, duel):
    before = table.game(duel.game_id).version
    outcome = post.ingest(reply(duel.mail, f"Hi Bo,\n{duel.first}\nmvoe 2f\nend\nCheers"))
    post.deliver()
    answer = answer_to(post, duel.player.email)
    assert outcome.status == "stopped"
    assert f"Applied:\n    {duel.first}\n" in answer
    assert 'Refused: line 3, "mvoe 2f"\n    not a command: did you mean `move 2f`?' in answer
    assert "Not run (send them again if you still mean them):\n    end\n" in answer
    assert "Not commands, skipped:\n    Hi Bo,\n" in answer
    assert table.game(duel.game_id).version > before


def test_explain_board_and_legal_are_answered_in_the_same_answer(post, table, duel):
    outcome = post.ingest(reply(duel.mail, "explain wishing well\nboard\nlegal"))
    post.deliver()
    answer = answer_to(post, duel.player.email)
    assert outcome.status == "answered", answer
    assert "Wishing Well: item" in answer
    assert "Effect: " in flat(answer)
    assert "The board:" in answer and "You may type now" in answer
    unknown = post.ingest(reply(duel.mail, "explain wishng wel"))
    post.deliver()
    assert unknown.status == "answered"
    assert "no card named 'wishng wel'; did you mean Wishing Well?" in flat(
        answer_to(post, duel.player.email))
