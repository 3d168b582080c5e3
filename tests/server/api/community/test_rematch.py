"""POST /api/v1/games/{id}/rematch (server/games/rematch.py): the first player of a finished
game to ask makes the rematch, the others are invited, and it starts by itself once they have
all accepted (asking too, or joining with the code)."""

from __future__ import annotations

import pytest
from sqlmodel import select

from server import create_app
from server.storage.db import app_engine, session_scope
from server.storage.models import Game, Outbox
from tests.server.scheduler.helpers import Table


@pytest.fixture
def table(database_url):
    return Table(create_app({"DATABASE_URL": database_url, "TESTING": True}))


def finished(table, game_id: str) -> None:
    """The game over (its end played out is the export tests' business)."""
    with session_scope(app_engine(table.app)) as session:
        session.get(Game, game_id).status = "finished"
        session.commit()


def rematch(table, game_id: str, player, **body):
    return table.client.post(f"/api/v1/games/{game_id}/rematch", json=body,
                             headers={"Authorization": f"Bearer {player.token}"})


def test_the_table_plays_again_with_the_same_settings_and_a_new_seed(table):
    ada, bob = table.register("Ada"), table.register("Bob")
    old_id = table.new_game(ada, [bob], public=True, pace="7d", variants={"mining_cost": 3})
    finished(table, old_id)
    old = table._call("get", f"/games/{old_id}", ada)

    asked = rematch(table, old_id, bob, contribution="tolami")
    assert asked.status_code == 201
    new = asked.get_json()
    assert asked.headers["Location"] == f"/api/v1/games/{new['id']}"
    assert new["status"] == "open" and new["id"] != old_id
    assert [p["name"] for p in new["players"]] == ["Bob"]
    for same in ("seats", "rhom", "variants", "public", "settings", "pace"):
        assert new[same] == old[same], same
    assert new["seed_hash"] != old["seed_hash"]
    with session_scope(app_engine(table.app)) as session:
        invitation = session.exec(select(Outbox).where(Outbox.to_email == ada.email,
                                                       Outbox.kind == "invitation")).one()
    assert invitation.subject == "Bob invites you to a game of Gems of Iridescia"
    assert (f"game {new['id']}, a rematch of game {old_id}: it starts when every player has "
            "accepted.") in " ".join(invitation.text_body.split())

    accepted = rematch(table, old_id, ada)
    assert accepted.status_code == 201 and accepted.get_json()["id"] == new["id"]
    started = accepted.get_json()
    assert started["status"] == "active"
    assert sorted(p["name"] for p in started["players"]) == ["Ada", "Bob"]
    # Asking again answers the same rematch.
    assert rematch(table, old_id, bob).get_json()["id"] == new["id"]


def test_joining_with_the_invitations_code_accepts_too(table):
    ada, bob = table.register("Ada"), table.register("Bob")
    old_id = table.new_game(ada, [bob])
    finished(table, old_id)
    new = rematch(table, old_id, ada).get_json()
    bob_sees = table._call("post", "/games/join", bob, code=table.game(new["id"]).join_code)
    assert bob_sees["status"] == "active"


def test_bot_seats_come_back_as_bots_and_a_table_without_other_humans_starts_at_once(table):
    ada = table.register("Ada")
    game = table._call("post", "/games", ada, seats=2, bots=1, bot_policy="greedy")
    finished(table, game["id"])
    new = rematch(table, game["id"], ada).get_json()
    assert new["status"] == "active"
    [old_bot] = [p["bot_policy"] for p in game["players"] if p["kind"] == "bot"]
    assert sorted((p["kind"], p["bot_policy"] or "") for p in new["players"]) == [
        ("bot", old_bot), ("human", "")]


def test_only_the_players_of_a_finished_game_may_ask(table):
    ada, bob, eve = table.register("Ada"), table.register("Bob"), table.register("Eve")
    game_id = table.new_game(ada, [bob], public=True)
    running = rematch(table, game_id, ada)
    assert running.status_code == 409
    assert running.get_json()["message"] == (
        f"game {game_id} is not over: a rematch is offered at its end")
    finished(table, game_id)
    outsider = rematch(table, game_id, eve)
    assert outsider.status_code == 403
    assert outsider.get_json()["message"] == (
        f"you did not play in game {game_id}: only its players may ask for a rematch")
    unknown = table.client.post("/api/v1/games/nosuchgame/rematch", json={},
                                headers={"Authorization": f"Bearer {ada.token}"})
    assert unknown.status_code == 404


def test_a_rematch_that_started_without_you_says_so(table):
    ada, bob, cy = table.register("Ada"), table.register("Bob"), table.register("Cy")
    game_id = table.new_game(ada, [bob, cy])
    finished(table, game_id)
    new = rematch(table, game_id, ada).get_json()
    with session_scope(app_engine(table.app)) as session:
        session.get(Game, new["id"]).status = "active"  # as if started (an operator's doing)
        session.commit()
    late = rematch(table, game_id, cy)
    assert late.status_code == 409
    assert late.get_json()["message"] == (
        f"the rematch of game {game_id}, game {new['id']}, has already started without you")
