"""`rematch` in reply to a game's mail (server/inbound/community_words.py): the first player asks,
the other is invited, and their own `rematch` starts the game."""

from server.storage.db import app_engine, session_scope
from server.storage.models import Game
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
    asked = flat(text_of(post.latest(bob.email, "Re:")))
    rematch_id = asked.split("You asked for a rematch of game ")[1].split(": game ")[1][:8]
    assert (f"You asked for a rematch of game {game_id}: game {rematch_id}. The other players "
            "are invited; it starts by itself when the 1 still missing have accepted") in asked
    assert f"a rematch of game {game_id}" in flat(text_of(post.latest(ada.email, "invites you")))

    post.send_smtp(reply(adas_mail, "rematch"), str(adas_mail["Reply-To"]), ada.email)
    post.deliver()
    assert (f"Game {rematch_id}, the rematch of game {game_id}, has started"
            in flat(text_of(post.latest(ada.email, "Re:"))))
    assert table.game(rematch_id).status == "active"


def test_rematch_before_the_end_is_answered_with_the_reason(post, table, receiver):
    ada, bob = table.register("Ada"), table.register("Bob")
    game_id = table.new_game(ada, [bob])
    post.deliver()
    mail = post.latest(bob.email, game_id)
    post.send_smtp(reply(mail, "rematch"), str(mail["Reply-To"]), bob.email)
    post.deliver()
    assert (f"Your mail was not acted on: game {game_id} is not over: a rematch is offered at "
            "its end." in flat(text_of(post.latest(bob.email, "Re:"))))
