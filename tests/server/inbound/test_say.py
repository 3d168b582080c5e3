"""A `say ...` line in a reply posts a message to the game's players (issue 21), through the real
inbound path: the answer says it was posted, the commands around it still run, the other
player reads it through the API and in their next email, and a repeat of the mail posts it once."""

from sqlmodel import select

from server.storage.db import app_engine, session_scope
from server.storage.models import Message
from tests.server.inbound.conftest import answer_to, flat
from tests.server.inbound.post import reply, text_of


def _messages(app):
    with session_scope(app_engine(app)) as session:
        return [(m.user_id, m.channel, m.text) for m in session.exec(select(Message))]


def test_a_say_line_posts_a_message_and_the_commands_still_run(post, table, duel):
    before = table.game(duel.game_id).version
    raw = reply(duel.mail, f"say Good luck, {duel.other.name}! #1 fan\n{duel.first}",
                style="gmail")
    outcome = post.ingest(raw)
    post.deliver()
    assert outcome.status == "applied"
    answer = answer_to(post, duel.player.email)
    assert f"Posted to the players: Good luck, {duel.other.name}! #1 fan\n" in answer
    assert f"Applied:\n    {duel.first}\n" in answer
    assert table.game(duel.game_id).version > before
    assert _messages(post.app) == [(duel.player.id, "players",
                                    f"Good luck, {duel.other.name}! #1 fan")]
    # The same mail handled again (a second delivery) posts nothing more.
    post.ingest(raw)
    assert len(_messages(post.app)) == 1
    # The other player reads it.
    listed = table._call("get", f"/games/{duel.game_id}/messages", duel.other)["messages"]
    assert [(m["name"], m["text"]) for m in listed] == [
        (duel.player.name, f"Good luck, {duel.other.name}! #1 fan")]


def test_a_say_alone_is_answered_and_shown_in_the_next_email(post, table, duel):
    outcome = post.ingest(reply(duel.mail, "say <b>hello</b>\x1b[2J there"))
    post.deliver()
    assert outcome.status == "said"
    answer = answer_to(post, duel.player.email)
    assert "Posted to the players: <b>hello</b>[2J there" in answer
    assert "Your mail had no command in it." not in answer
    answer_html = post.answer(duel.player.email).get_body(("html",)).get_content()
    assert "Posted to the players: &lt;b&gt;hello&lt;/b&gt;" in answer_html
    # Then the player plays their turn; the other's turn mail carries the message, escaped.
    table.play_turn(duel.game_id)
    post.deliver()
    mail = post.latest(duel.other.email, "your turn")
    assert "Messages since your last turn:" in text_of(mail)
    assert f"[players] {duel.player.name}, " in text_of(mail)
    html = mail.get_body(("html",)).get_content()
    assert "&lt;b&gt;hello&lt;/b&gt;[2J there" in html and "<b>hello" not in html


def test_a_message_too_long_is_refused_in_the_answer(post, table, duel):
    outcome = post.ingest(reply(duel.mail, "say " + "x" * 1001))
    post.deliver()
    assert outcome.status == "said"
    answer = flat(answer_to(post, duel.player.email))
    assert "Not posted, line 1" in answer
    assert "a message has at most 1,000 characters; yours has 1,001" in answer
    assert _messages(post.app) == []
