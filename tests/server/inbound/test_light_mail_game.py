"""A whole game by mail against the Rhom, over real SMTP both ways (issue 26): the player gets
exactly one answer per reply, and one mail each time the turn comes back to them; the answers
carry no picture, the turn mails one small palette PNG of the hex board."""

from __future__ import annotations

from tests.server.inbound.play_by_mail import MailPlayer, play_to_the_end

ANSWER_BYTES = 12_000
TURN_MAIL_BYTES = 60_000


def _kind(message) -> str:
    """The notice's kind from its key (`GAME/vN/KIND/seatS`); an answer's is `answer:...`."""
    key = str(message["X-Iridescia-Key"])
    return "answer" if key.startswith("answer:") else key.split("/")[2]


def _turns_coming_back(events: list[dict], seat: int) -> int:
    """How often the turn passed to `seat` from another seat for the player to play (an extra
    turn is not a change; a removal turn the server plays at once asks nothing of them)."""
    count, previous = 0, None
    for event in events:
        if event["type"] == "turn_started":
            if event["seat"] == seat and previous != seat and event["kind"] != "removal":
                count += 1
            previous = event["seat"]
    return count


def test_a_whole_game_by_mail_one_answer_per_reply_one_mail_per_turn_change(post, table,
                                                                             receiver):
    ada = table.register("Ada")
    game_id = table.new_game(ada)  # one seat: solo against the Rhom
    post.deliver()
    seat = next(p["seat"] for p in table._call("get", f"/games/{game_id}", ada)["players"]
                if p["user_id"] == ada.id)
    player = MailPlayer(post, table, ada.email, post.send_smtp)
    play_to_the_end(post, table, game_id, {seat: player})
    post.deliver()

    mails = post.mail_to(ada.email)
    kinds = [_kind(m) for m in mails]
    answers = [m for m in mails if _kind(m) == "answer"]
    # One answer per reply, each to its own reply.
    assert len(answers) == player.mails_sent > 10
    assert len({str(m["In-Reply-To"]) for m in answers}) == len(answers)
    # One mail per turn change: the start (which says whose turn), each turn coming back, the
    # end; nothing else.
    turn_mails = [k for k in kinds if k != "answer"]
    started_with_me = "your turn" in str(next(m for m in mails
                                              if _kind(m) == "game_started")["Subject"])
    came_back = _turns_coming_back(table.events(game_id), seat)
    assert turn_mails.count("game_started") == 1 and turn_mails.count("game_over") == 1
    assert turn_mails.count("your_turn") == came_back - started_with_me
    assert len(turn_mails) == 2 + came_back - started_with_me
    # Light: the answers carry no picture; each turn mail one small palette PNG.
    for answer in answers:
        assert len(bytes(answer)) <= ANSWER_BYTES, answer["Subject"]
        assert not [p for p in answer.walk() if p.get_content_maintype() == "image"]
    for mail in mails:
        if _kind(mail) == "your_turn":
            assert len(bytes(mail)) <= TURN_MAIL_BYTES, mail["Subject"]
            [picture] = [p for p in mail.walk() if p.get_content_maintype() == "image"]
            assert picture.get_content()[25] == 3  # IHDR colour type 3: a palette
