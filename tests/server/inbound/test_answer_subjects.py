"""The answer to a reply has a subject that tells its news, like the game's own mails (issue 26):
what the reply did, then what comes next, then the game, with no "Re:"; it stays in the
player's thread by In-Reply-To and References, as mail clients thread."""

from email.utils import make_msgid

import engine
from engine.text import notation
from tests.server.inbound.post import reply


def _turn_number(table, game_id: str) -> int:
    return engine.view(table.state(game_id), None)["turn"]["number"]


def test_the_answer_says_what_was_applied_and_whose_turn_comes_in_the_thread(post, table, duel):
    number = _turn_number(table, duel.game_id)
    message_id = make_msgid(domain="example.org")
    post.ingest(reply(duel.mail, duel.first, message_id=message_id))
    post.deliver()
    answer = post.answer(duel.player.email)
    assert answer["Subject"] == f"You played {duel.first} — your turn {number} ({duel.game_id})"
    assert answer["In-Reply-To"] == message_id
    # The whole thread, as the reply's client listed it, then the reply: the game's mail that
    # was answered stays in it, so clients that thread by References keep one conversation.
    assert answer["References"].split() == [
        *str(duel.mail["References"] or "").split(), str(duel.mail["Message-ID"]), message_id]

    # A mistyped line: where the run stopped, and that the turn is still theirs.
    post.ingest(reply(answer, "mvoe 2f"))
    post.deliver()
    assert post.answer(duel.player.email)["Subject"] == (
        f"Stopped at line 1: mvoe 2f — your turn {number} ({duel.game_id})")

    # The rest of the turn, line by line, each reply to the last answer: the one that ends it
    # names the next player and their turn.
    other = duel.other.name
    for _ in range(30):
        state = table.state(duel.game_id)
        if engine.current_player(state) != duel.seat:
            break
        lines = [notation.format(c) for c in engine.legal_commands(state, duel.seat)
                 if notation.has_notation(c)]
        line = next((w for w in ("end", "keep") if w in lines), lines[0])
        post.ingest(reply(post.answer(duel.player.email), line))
        post.deliver()
    subject = str(post.answer(duel.player.email)["Subject"])
    assert subject.endswith(f" — {other}'s turn {number + 1} ({duel.game_id})"), subject
    assert not subject.startswith("Re:")
