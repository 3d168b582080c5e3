"""`undo` as a reply line: it takes back the lines before it back to the reveal, the answer
says so, and an undo with nothing to take back is refused with the engine's reason."""

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


def test_undo_in_a_reply_takes_back_the_move_and_then_has_nothing_left(post, table, duel):
    state = table.state(duel.game_id)
    move = _a_move_after(state, duel.seat, duel.first)
    outcome = post.ingest(reply(duel.mail, f"{duel.first}\n{move}\nundo"))
    post.deliver()
    answer = answer_to(post, duel.player.email)
    assert outcome.status == "applied", answer
    assert f"Applied:\n    {duel.first}\n    {move}\n    undo\n" in answer
    assert f"You took back a step: moved to {move.split()[1]}" in flat(answer)
    now = table.state(duel.game_id)
    assert now.players[duel.seat].position == state.players[duel.seat].position
    assert engine.current_player(now) == duel.seat

    answered = post.answer(duel.player.email)
    again = post.ingest(reply(answered, "undo"))
    post.deliver()
    assert again.status == "stopped"
    hexes = " and ".join(duel.first.split()[1:])
    assert (f"nothing to take back since your reveal of {hexes}: a step that revealed "
            "something or drew chance cannot be taken back") in flat(answer_to(post,
                                                                               duel.player.email))
