"""The issue's user story, end to end over real SMTP: an organiser invites a friend who has never
installed anything; the friend replies `join`, then plays the whole game by replying to the
server's emails (the embedded SMTP receiver in, an SMTP sink out), to the final scores; the
export verifies. The invited player makes no API call."""

import re

from engine.text import notation
from tests.server.inbound.conftest import flat
from tests.server.inbound.play_by_mail import MailPlayer, play_to_the_end, verify_export
from tests.server.inbound.post import reply, text_of

FRIEND = "friend@example.org"


def test_an_invited_player_plays_a_whole_game_by_replying(post, table, receiver, tmp_path):
    ada = table.register("Ada")
    game = table._call("post", "/games", ada, seats=2)
    table._call("post", f"/games/{game['id']}/invitations", ada, email=FRIEND)
    post.deliver()

    invitation = post.latest(FRIEND, "invites you")
    assert str(invitation["Reply-To"]).startswith("play+join-")
    assert "reply to this message with the one word" in text_of(invitation)
    post.send_smtp(reply(invitation, "join"), str(invitation["Reply-To"]), FRIEND)
    post.deliver()
    seated = post.answer(FRIEND)
    assert f"You have a seat in game {game['id']}" in flat(text_of(seated))
    assert str(seated["In-Reply-To"]).startswith("<")

    table._call("post", f"/games/{game['id']}/start", ada)
    post.deliver()
    started = post.latest(FRIEND, game["id"])
    assert str(started["Reply-To"]).startswith("play+play-")
    assert "List-Unsubscribe=One-Click" == str(started["List-Unsubscribe-Post"])

    friend_seat = next(p["seat"] for p in table._call("get", f"/games/{game['id']}", ada)
                       ["players"] if p["user_id"] != ada.id)
    friend = MailPlayer(post, table, FRIEND, post.send_smtp)
    play_to_the_end(post, table, game["id"], {friend_seat: friend})

    assert friend.mails_sent > 10
    post.deliver()
    over = post.latest(FRIEND, "Game over")
    assert "Final scores" in text_of(over)
    assert "OK" in verify_export(table, game["id"], ada, tmp_path)


def test_an_illegal_line_in_the_middle_stops_there_and_the_answer_says_so(post, table,
                                                                           receiver):
    ada, bo = table.register("Ada"), table.register("Bo")
    game_id = table.new_game(ada, [bo])
    post.deliver()
    import engine

    state = table.state(game_id)
    seat = engine.current_player(state)
    player = table.player_at(game_id, seat)
    mail = post.latest(player.email, game_id)
    reveal = next(notation.format(c) for c in engine.legal_commands(state, seat)
                  if notation.format(c).startswith("reveal"))
    version = table.game(game_id).version
    body = f"Hello!\n{reveal}\nend\nmove 1a\n\nthanks\nBo"
    post.send_smtp(reply(mail, body, style="gmail"), str(mail["Reply-To"]), player.email)
    post.deliver()

    answered = post.answer(player.email)
    answer = text_of(answered)
    # The answer stays light (issue 26): no picture inline; its HTML part links to the board's
    # picture and the game's page.
    html = answered.get_body(("html",)).get_content()
    assert not [part for part in answered.walk() if part.get_content_maintype() == "image"]
    assert re.search(r'<a href="https://iridescia\.test/sign-in/[^"]+">See the board</a>', html)
    assert "Not commands, skipped:\n    Hello!\n" in answer
    assert f"Applied:\n    {reveal}\n" in answer
    assert 'Refused: line 3, "end"' in answer
    assert "Not run (send them again if you still mean them):\n    move 1a\n" in answer
    assert "Not commands, skipped:\n    thanks\n    Bo\n" in answer
    assert "You may type now" in answer
    assert table.game(game_id).version > version  # the reveal stayed applied
    assert engine.current_player(table.state(game_id)) == seat
