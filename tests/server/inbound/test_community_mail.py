"""The community by mail (server/inbound/community_words.py): `rematch` in reply to a game's
mail, `open` and `join CODE` to the bare address."""

from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import make_msgid

from sqlmodel import select

from server.storage.db import app_engine, session_scope
from server.storage.models import Game, Seat
from tests.server.inbound.conftest import flat
from tests.server.inbound.post import reply, text_of


def finished(table, game_id):
    with session_scope(app_engine(table.app)) as session:
        session.get(Game, game_id).status = "finished"
        session.commit()


def test_a_rematch_asked_and_accepted_by_mail(post, table, receiver):
    ada, bob = table.register("Ada"), table.register("Bob")
    game_id = table.new_game(ada, [bob])
    post.deliver()
    finished(table, game_id)
    bobs_mail, adas_mail = post.latest(bob.email, game_id), post.latest(ada.email, game_id)

    post.send_smtp(reply(bobs_mail, "rematch"), str(bobs_mail["Reply-To"]), bob.email)
    post.deliver()
    asked = flat(text_of(post.answer(bob.email)))
    rematch_id = asked.split("You asked for a rematch of game ")[1].split(": game ")[1][:8]
    assert (f"You asked for a rematch of game {game_id}: game {rematch_id}. The other players "
            "are invited; it starts by itself when the 1 still missing have accepted") in asked
    assert f"a rematch of game {game_id}" in flat(text_of(post.latest(ada.email, "invites you")))

    post.send_smtp(reply(adas_mail, "rematch"), str(adas_mail["Reply-To"]), ada.email)
    post.deliver()
    assert (f"Game {rematch_id}, the rematch of game {game_id}, has started"
            in flat(text_of(post.answer(ada.email))))
    assert table.game(rematch_id).status == "active"


def test_rematch_before_the_end_is_answered_with_the_reason(post, table, receiver):
    ada, bob = table.register("Ada"), table.register("Bob")
    game_id = table.new_game(ada, [bob])
    post.deliver()
    mail = post.latest(bob.email, game_id)
    post.send_smtp(reply(mail, "rematch"), str(mail["Reply-To"]), bob.email)
    post.deliver()
    assert (f"Your mail was not acted on: game {game_id} is not over: a rematch is offered at "
            "its end." in flat(text_of(post.answer(bob.email))))


def to_bare(sender: str, body: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"] = sender, "play@iridescia.test"
    message["Subject"], message["Message-ID"] = "hello", make_msgid(domain="example.org")
    message.set_content(body)
    return bytes(message)


def test_open_to_the_bare_address_lists_the_open_games_and_join_code_seats(post, table,
                                                                          receiver):
    ada, bob = table.register("Ada"), table.register("Bob")
    assert post.ingest(to_bare(bob.email, "open")).status == "answered"
    post.deliver()
    assert "No public game waits for players now." in flat(text_of(post.latest(bob.email,
                                                                              "Re:")))
    won = table.new_game(ada, [bob], public=True)  # Ada wins a rated game first
    with session_scope(app_engine(table.app)) as session:
        seats = {s.user_id: s.seat for s in session.exec(select(Seat).where(
            Seat.game_id == won))}
        row = session.get(Game, won)
        row.status, row.finished_at = "finished", datetime(2026, 12, 1, tzinfo=UTC)
        row.outcome = {"seats": [{"seat": seats[ada.id], "rank": 1, "total": 30},
                                 {"seat": seats[bob.id], "rank": 2, "total": 20}],
                       "winners": [seats[ada.id]]}
        session.commit()
    [rating] = table._call("get", f"/users/{ada.id}")["ratings"]
    assert rating["rating"] > 1000
    game = table._call("post", "/games", ada, seats=2, public=True)
    table._call("post", "/games", ada, seats=2)  # private: not listed

    post.ingest(to_bare(bob.email, "open"))
    post.deliver()
    listed = flat(text_of(post.latest(bob.email, "Re:")))
    assert (f"{game['id']}: 1 of 2 seats taken by Ada ({rating['rating']}?), pace 3d: write `join "
            f"{game['join_code']}` to play@iridescia.test") in listed
    assert "(the 1 newest of 1)" in listed

    assert post.ingest(to_bare(bob.email, f"join {game['join_code']} kesora")).status == "joined"
    post.deliver()
    assert (f"You have a seat in game {game['id']}." in flat(text_of(post.latest(bob.email,
                                                                                 "Re:"))))
    assert post.ingest(to_bare(bob.email, "join nosuchcode")).status == "refused"
    post.deliver()
    assert ("no game has the join code 'nosuchcode': check it with whoever invited you"
            in flat(text_of(post.answer(bob.email))))
