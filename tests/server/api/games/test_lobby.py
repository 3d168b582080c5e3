"""The lobby: create, invite, join, leave, list; visibility of private and public games."""

from __future__ import annotations

import hashlib

import sqlalchemy as sa

from server.storage.db import get_engine
from tests.server.helpers import assert_error


def create(client, player, **options):
    body = {"seats": 2, **options}
    response = client.post("/api/v1/games", json=body, headers=player.headers)
    assert response.status_code == 201, response.json
    return response.json


def test_creating_a_game_seats_the_creator_and_publishes_the_seed_hash(client, database_url, ada):
    game = create(client, ada, variants={"mining_cost": 3}, turn_deadline_hours=48)
    assert game["status"] == "open"
    assert game["version"] == 0
    assert game["players"] == [{"seat": None, "user_id": ada.id, "name": "ada", "kind": "human",
                                "absent": False, "bot_policy": None,
                                "away_until": None, "wants_pause": False,
                                "rating": 1000, "rating_provisional": True}]  # as GET reads it
    assert game["variants"] == {"mining_cost": 3, "leftover_gems": "any", "catapult_4th": False}
    assert game["settings"]["turn_deadline_hours"] == 48
    assert game["join_code"]
    with get_engine(database_url).connect() as connection:
        seed = connection.execute(sa.text("SELECT seed FROM games")).scalar_one()
    assert seed not in str(game)
    assert game["seed_hash"] == hashlib.sha256(seed.encode()).hexdigest()


def test_game_options_are_validated(client, ada):
    assert_error(client.post("/api/v1/games", json={"seats": 0}, headers=ada.headers), 422, "seats")
    assert_error(client.post("/api/v1/games", json={"seats": 3, "rhom": True},
                             headers=ada.headers), 422, "Rhom")
    assert_error(client.post("/api/v1/games", json={"seats": 2,
                                                    "variants": {"catapult_4th": True}},
                             headers=ada.headers), 422, "4 players")
    assert_error(client.post("/api/v1/games", json={"seats": 2, "variants": {"mining_cost": 2}},
                             headers=ada.headers), 422, "mining_cost")
    assert_error(client.post("/api/v1/games", json={"seats": 2}), 401)


def test_by_default_the_rhom_plays_at_once_and_the_server_removes_at_once(client, ada):
    settings = create(client, ada)["settings"]
    assert settings == {"reminder_interval_hours": 24, "turn_deadline_hours": 72,
                        "absent_after_missed": 2, "rhom_delay_seconds": 0,
                        "removal_grace_hours": 0}


def test_zero_turns_reminders_and_deadlines_off_but_fractions_are_refused(client, ada):
    settings = create(client, ada, reminder_interval_hours=0, turn_deadline_hours=0,
                      absent_after_missed=0)["settings"]
    assert settings["reminder_interval_hours"] == 0
    assert settings["turn_deadline_hours"] == 0
    assert settings["absent_after_missed"] == 0  # never treated as absent
    # 0.5 would be truncated to 0 and silently turn the deadline off.
    assert_error(client.post("/api/v1/games", json={"seats": 2, "turn_deadline_hours": 0.5},
                             headers=ada.headers), 422, "turn_deadline_hours")
    assert_error(client.post("/api/v1/games", json={"seats": 2, "reminder_interval_hours": -1},
                             headers=ada.headers), 422, "reminder_interval_hours")


def test_join_with_the_code_and_leave_before_the_start(client, ada, bob):
    game = create(client, ada)
    joined = client.post("/api/v1/games/join", json={"code": game["join_code"]},
                         headers=bob.headers)
    assert joined.status_code == 200
    assert [p["name"] for p in joined.json["players"]] == ["ada", "bob"]
    assert_error(client.post("/api/v1/games/join", json={"code": game["join_code"]},
                             headers=bob.headers), 409, "already play")
    left = client.post(f"/api/v1/games/{game['id']}/leave", headers=bob.headers)
    assert left.status_code == 200
    assert [p["name"] for p in left.json["players"]] == ["ada"]
    assert left.json["join_code"] is None  # bob no longer sits there
    assert_error(client.get(f"/api/v1/games/{game['id']}", headers=bob.headers), 404)


def test_a_full_game_and_an_unknown_code_refuse_joiners(client, ada, bob, eve):
    game = create(client, ada)
    client.post("/api/v1/games/join", json={"code": game["join_code"]}, headers=bob.headers)
    assert_error(client.post("/api/v1/games/join", json={"code": game["join_code"]},
                             headers=eve.headers), 409, "full")
    assert_error(client.post("/api/v1/games/join", json={"code": "nope"}, headers=eve.headers),
                 404, "'nope'")
    assert_error(client.post("/api/v1/games/join", json={}, headers=eve.headers), 422, "code")


def test_leaving_needs_a_seat(client, ada, bob):
    private = create(client, ada)
    public = create(client, ada, public=True)
    assert_error(client.post(f"/api/v1/games/{private['id']}/leave", headers=bob.headers), 404)
    assert_error(client.post(f"/api/v1/games/{public['id']}/leave", headers=bob.headers), 403,
                 "do not play")


def test_private_games_are_invisible_to_others_and_public_ones_watchable(client, ada, bob):
    private = create(client, ada)
    public = create(client, ada, public=True)
    body = assert_error(client.get(f"/api/v1/games/{private['id']}", headers=bob.headers), 404)
    assert private["join_code"] not in str(body)
    assert_error(client.get(f"/api/v1/games/{private['id']}"), 404)
    watched = client.get(f"/api/v1/games/{public['id']}")
    assert watched.status_code == 200
    assert watched.json["join_code"] is None
    assert watched.json["my_seat"] is None
    assert_error(client.get("/api/v1/games/doesnotexist", headers=ada.headers), 404)


def test_invitations_mail_the_join_code(client, database_url, ada, bob):
    client.application.config["BASE_URL"] = "https://iridescia.test/"  # IRIDESCIA_BASE_URL
    game = create(client, ada)
    response = client.post(f"/api/v1/games/{game['id']}/invitations",
                           json={"email": "Carol@Example.org"}, headers=ada.headers)
    assert response.status_code == 201
    assert response.json == {"email": "carol@example.org", "join_code": game["join_code"],
                             "mailed": True, "message": "carol@example.org is mailed the join code"}
    invitations = "SELECT to_email, kind, text_body FROM outbox WHERE kind = 'invitation'"
    with get_engine(database_url).connect() as connection:
        mail = connection.execute(sa.text(invitations)).one()
    assert mail.to_email == "carol@example.org"
    code, game_id = game["join_code"], game["id"]
    assert "\n    join\n" in mail.text_body and f"\n    iridescia join {code}\n" in mail.text_body
    assert all(len(line) <= 76 for line in mail.text_body.splitlines() if "--server" not in line)
    assert " ".join(mail.text_body.split()) == " ".join((
        f"{ada.name} invites you to play Gems of Iridescia (2 players), game {game_id}. "
        "To play by email, reply to this message with the one word join "
        "and you are seated (an account is made for this address). Then every move is a reply "
        "too: each email tells what happened, shows the board and lists what you may type. "
        "To play from a terminal instead, with the iridescia command line client: "
        "iridescia --server https://iridescia.test register --name YOUR-NAME "
        "--email carol@example.org "
        f"iridescia join {code} "
        f"(the join code is {code}; the server is https://iridescia.test). "
        f"Or register on the web page, https://iridescia.test/register?join={code}, and join "
        "with the code from there.").split())
    # inviting again queues no second mail
    client.post(f"/api/v1/games/{game['id']}/invitations", json={"email": "carol@example.org"},
                headers=ada.headers)
    with get_engine(database_url).connect() as connection:
        assert len(connection.execute(sa.text(invitations)).all()) == 1
    assert_error(client.post(f"/api/v1/games/{game['id']}/invitations",
                             json={"email": "x@example.org"}, headers=bob.headers), 404)
    assert_error(client.post(f"/api/v1/games/{game['id']}/invitations",
                             json={"email": "not-an-email"}, headers=ada.headers), 422, "email")


def test_starting_needs_every_seat(client, ada, bob):
    game = create(client, ada)
    assert_error(client.post(f"/api/v1/games/{game['id']}/start", headers=ada.headers), 409,
                 "waiting for 1 more player")
    assert_error(client.post(f"/api/v1/games/{game['id']}/start", headers=bob.headers), 404)


def test_views_feed_and_export_of_an_open_game(client, ada):
    game = create(client, ada)
    assert_error(client.get(f"/api/v1/games/{game['id']}/view", headers=ada.headers), 409,
                 "not started")
    assert_error(client.get(f"/api/v1/games/{game['id']}/export", headers=ada.headers), 409,
                 "not over")
    feed = client.get(f"/api/v1/games/{game['id']}/events", headers=ada.headers)
    assert feed.status_code == 200 and feed.json == {"version": 0, "events": []}
    legal = client.get(f"/api/v1/games/{game['id']}/legal", headers=ada.headers)
    assert legal.json == {"version": 0, "seat": None, "commands": [], "server_decides_at": None,
                          "undo_steps": 0}
    assert_error(client.post(f"/api/v1/games/{game['id']}/commands",
                             json={"command": {"type": "end_turn"}, "expected_version": 0},
                             headers=ada.headers), 409, "not started")


def test_the_game_list_holds_only_my_games(client, ada, bob):
    mine = create(client, ada)
    create(client, bob)
    listed = client.get("/api/v1/games", headers=ada.headers)
    assert listed.status_code == 200
    assert [g["id"] for g in listed.json] == [mine["id"]]
    assert_error(client.get("/api/v1/games"), 401)


def test_the_game_list_puts_my_turn_first_then_the_nearest_deadline(client, database_url, ada, bob):
    from datetime import timedelta

    from server.storage.db import session_scope
    from server.storage.models import Game, utcnow
    from tests.server.play import create_started_game

    games = [create_started_game(client, [ada, bob]) for _ in range(4)]
    open_game = create(client, ada)
    now = utcnow()
    hours = {game["id"]: h for game, h in zip(games, (3, 1, 4, 2), strict=True)}
    with session_scope(get_engine(database_url)) as session:
        for game_id, h in hours.items():
            session.get(Game, game_id).deadline_at = now + timedelta(hours=h)
    for player in (ada, bob):
        listed = client.get("/api/v1/games", headers=player.headers).json
        mine = sorted((g for g in listed if g["is_my_turn"]), key=lambda g: hours[g["id"]])
        others = sorted((g for g in listed if not g["is_my_turn"] and g["id"] in hours),
                        key=lambda g: hours[g["id"]])
        expected = [g["id"] for g in mine + others]
        if player is ada:
            expected.append(open_game["id"])
        assert [g["id"] for g in listed] == expected
        assert all(g["is_my_turn"] == (g["my_seat"] == g["current_seat"]) for g in listed[:4])
        assert listed[0]["deadline_at"] is not None


def test_each_listed_game_reads_exactly_as_the_game_itself(client, database_url, ada, bob):
    """The list is serialized without marshmallow (it is the hot read); every entry must still be
    what GameSchema makes of the game: GET /games/{id} goes through the schema."""
    from datetime import timedelta

    from server.storage.db import session_scope
    from server.storage.models import Game, Seat, utcnow
    from tests.server.play import create_started_game

    active = create_started_game(client, [ada, bob], public=True,
                                 variants={"mining_cost": 3, "leftover_gems": "same_type"})
    solo = client.post("/api/v1/games", json={"seats": 1}, headers=ada.headers).json
    waiting = create(client, ada)
    with session_scope(get_engine(database_url)) as session:
        session.get(Game, active["id"]).deadline_at = utcnow() + timedelta(hours=5)
        seat = session.exec(sa.select(Seat).where(Seat.game_id == active["id"],
                                                  Seat.user_id == bob.id)).scalar_one()
        seat.absent = True
    for player in (ada, bob):
        listed = client.get("/api/v1/games", headers=player.headers).json
        assert listed, player
        for game in listed:
            alone = client.get(f"/api/v1/games/{game['id']}", headers=player.headers).json
            assert game == alone
    ids = {g["id"] for g in client.get("/api/v1/games", headers=ada.headers).json}
    assert ids == {active["id"], solo["id"], waiting["id"]}
