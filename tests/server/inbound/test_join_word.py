"""A mail joiner's word for the dice (engine/seeds.py): written after `join`, kept as their
seat's word; a word that is not one plain word gets an answer saying what to send."""

from sqlmodel import select

from server.storage.db import app_engine, session_scope
from server.storage.models import Seat, User
from tests.server.inbound.conftest import flat
from tests.server.inbound.post import reply, text_of

FRIEND = "friend@example.org"


def invited(post, table):
    ada = table.register("Ada")
    game = table._call("post", "/games", ada, seats=2)
    table._call("post", f"/games/{game['id']}/invitations", ada, email=FRIEND)
    post.deliver()
    return game, post.latest(FRIEND, "invites you")


def friends_word(table):
    with session_scope(app_engine(table.app)) as session:
        return session.exec(select(Seat.seed_contribution).join(User, User.id == Seat.user_id)
                            .where(User.email == FRIEND)).first()


def test_the_word_after_join_is_the_players_word_for_the_dice(post, table, receiver):
    game, invitation = invited(post, table)
    post.send_smtp(reply(invitation, "join tolami-veruko"), str(invitation["Reply-To"]), FRIEND)
    post.deliver()
    assert f"You have a seat in game {game['id']}" in flat(text_of(post.answer(FRIEND)))
    assert friends_word(table) == "tolami-veruko"


def test_a_word_that_is_not_one_plain_word_is_answered_and_seats_no_one(post, table, receiver):
    game, invitation = invited(post, table)
    post.send_smtp(reply(invitation, "join my lucky word"), str(invitation["Reply-To"]), FRIEND)
    post.deliver()
    answer = flat(text_of(post.answer(FRIEND)))
    assert ("your word for the dice 'my lucky word' is not one word of up to 64 letters, "
            "digits, '-' or '_': leave it out or send one such word") in answer
    assert friends_word(table) is None
    assert len(table._call("get", f"/games/{game['id']}", table.players[min(table.players)])
               ["players"]) == 1
