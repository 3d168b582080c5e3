"""The lobby on the web, on SQLite and PostgreSQL: a game created from the form (its fields named
as POST /api/v1/games names them), solo in one click, the join link, an invitation, joining,
starting and leaving; the home page's list; the page's version for the live updates."""

from __future__ import annotations

import re

from sqlmodel import select

from server.api.games.schemas import GameCreateSchema, VariantsSchema
from server.storage.db import get_engine, session_scope
from server.storage.models import Outbox
from tests.server.play import create_started_game
from tests.server.web.conftest import csrf_token, signed_in, whose_turn


def _form(html: str, action: str) -> str:
    return re.search(rf'<form [^>]*data-action="{action}".*?</form>', html, re.S).group(0)


def test_the_new_game_forms_fields_are_named_as_the_apis_body(app, ada):
    html = signed_in(app, ada).get("/games/new").get_data(as_text=True)
    names = set(re.findall(r'name="([^"]+)"', _form(html, "new-game"))) - {"csrf_token"}
    body = set(GameCreateSchema().fields) | {f"variants.{v}" for v in VariantsSchema().fields}
    assert names <= body, names - body
    assert {"seats", "bots", "bot_policy", "rhom", "pace", "public", "rules_version",
            "variants.mining_cost", "variants.leftover_gems"} <= names


def test_a_game_is_created_joined_by_its_link_and_started_from_the_pages(app, client, ada, bob):
    at_ada = signed_in(app, ada)
    html = at_ada.get("/games/new").get_data(as_text=True)
    made = at_ada.post("/games/new", data={
        "csrf_token": csrf_token(html), "seats": "2", "pace": "1d", "public": "true",
        "variants.mining_cost": "3", "bots": "0", "bot_policy": "strong"})
    assert made.status_code == 303
    game_id = made.headers["Location"].rsplit("/", 1)[-1]
    info = client.get(f"/api/v1/games/{game_id}", headers=ada.headers).json
    assert info["status"] == "open" and info["public"] is True and info["pace"] == "1d"
    assert info["variants"]["mining_cost"] == 3

    lobby = at_ada.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'data-status="open"' in lobby
    link = re.search(r'<code class="join-link">([^<]+)</code>', lobby).group(1)
    assert link == f"http://iridescia.test/join/{info['join_code']}"
    assert 'data-action="invite"' in lobby and 'data-action="leave"' in lobby
    assert 'data-action="start"' not in lobby  # a seat is still free

    at_bob = signed_in(app, bob)
    page = at_bob.get(link.removeprefix("http://iridescia.test")).get_data(as_text=True)
    joined = at_bob.post("/join", data={"csrf_token": csrf_token(page),
                                        "code": re.search(r'name="code" value="([^"]+)"',
                                                          _form(page, "join")).group(1)})
    assert joined.status_code == 303 and joined.headers["Location"] == f"/games/{game_id}"

    lobby = at_ada.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Bob" in lobby and 'data-action="start"' in lobby
    started = at_ada.post(f"/games/{game_id}/start", data={"csrf_token": csrf_token(lobby)})
    assert started.status_code == 303
    assert client.get(f"/api/v1/games/{game_id}", headers=ada.headers).json["status"] == "active"
    assert 'data-status="active"' in at_bob.get(f"/games/{game_id}").get_data(as_text=True)


def test_solo_against_the_rhom_is_one_click_and_starts_at_once(app, client, ada):
    at_ada = signed_in(app, ada)
    home = at_ada.get("/").get_data(as_text=True)
    form = _form(home, "solo")
    made = at_ada.post("/games/new", data={
        "csrf_token": csrf_token(home),
        **dict(re.findall(r'name="(seats|pace)" value="([^"]+)"', form))})
    game_id = made.headers["Location"].rsplit("/", 1)[-1]
    info = client.get(f"/api/v1/games/{game_id}", headers=ada.headers).json
    assert info["status"] == "active" and info["rhom"] is True and info["seats"] == 1


def test_a_bad_game_form_is_refused_with_what_to_change(app, ada):
    at_ada = signed_in(app, ada)
    token = csrf_token(at_ada.get("/games/new").get_data(as_text=True))
    too_many = at_ada.post("/games/new", data={"csrf_token": token, "seats": "2", "bots": "2"})
    assert too_many.status_code == 422
    assert "has room for at most 1 bot" in too_many.get_data(as_text=True)
    words = at_ada.post("/games/new", data={"csrf_token": token, "seats": "two"})
    assert words.status_code == 400 and "whole number" in words.get_data(as_text=True)
    assert at_ada.post("/games/new", data={"seats": "1"}).status_code == 400  # no CSRF token
    assert signed_in(app, ada).application.test_client().get("/games/new").status_code == 401


def test_an_invitation_by_address_mails_the_join_code(app, client, ada):
    at_ada = signed_in(app, ada)
    game = client.post("/api/v1/games", json={"seats": 2}, headers=ada.headers).json
    lobby = at_ada.get(f"/games/{game['id']}").get_data(as_text=True)
    sent = at_ada.post(f"/games/{game['id']}/invite", data={"csrf_token": csrf_token(lobby),
                                                            "email": "Zed@Example.org"})
    assert sent.status_code == 200
    assert f"/join/{game['join_code']}" in sent.get_data(as_text=True)
    with session_scope(get_engine(app.config["DATABASE_URL"])) as session:
        rows = session.exec(select(Outbox).where(Outbox.kind == "invitation")).all()
        assert [row.to_email for row in rows] == ["zed@example.org"]
    bad = at_ada.post(f"/games/{game['id']}/invite", data={"csrf_token": csrf_token(lobby),
                                                           "email": "not an address"})
    assert bad.status_code == 400 and "email address" in bad.get_data(as_text=True)


def test_leaving_an_open_game_from_its_page(app, client, ada, bob):
    game = client.post("/api/v1/games", json={"seats": 3}, headers=ada.headers).json
    client.post("/api/v1/games/join", json={"code": game["join_code"]}, headers=bob.headers)
    at_bob = signed_in(app, bob)
    lobby = at_bob.get(f"/games/{game['id']}").get_data(as_text=True)
    left = at_bob.post(f"/games/{game['id']}/leave", data={"csrf_token": csrf_token(lobby)})
    assert left.status_code == 303
    players = client.get(f"/api/v1/games/{game['id']}", headers=ada.headers).json["players"]
    assert [p["name"] for p in players] == ["Ada"]


def test_the_home_page_lists_my_games_with_mine_to_play_first_and_the_time_left(app, client,
                                                                               ada, bob):
    waiting = create_started_game(client, [ada, bob], pace="1d")
    other = create_started_game(client, [ada, bob], pace="1d")
    first, _ = whose_turn(client, other["id"], [ada, bob])
    html = signed_in(app, first).get("/").get_data(as_text=True)
    entries = re.findall(r'<li class="(waiting)?">\s*<a class="open-game" href="/games/(\w+)">'
                         r'([^<]+)</a>\s*<br>With (.+?)</li>', html, re.S)  # a rating: a <span>
    assert {e[1] for e in entries} == {waiting["id"], other["id"]}
    mine = [e for e in entries if e[0]]
    assert entries[:len(mine)] == mine and mine and mine[0][2].startswith("Your turn")
    assert all("time left: " in e[3] for e in entries)


def test_the_pages_version_answers_what_the_live_page_polls(app, client, game, ada):
    answer = client.get(f"/games/{game['id']}/version")
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    assert answer.json == {"version": game["version"], "status": "active"}
    private = create_started_game(client, [ada], seats=1)
    assert client.get(f"/games/{private['id']}/version").status_code == 404
    assert signed_in(app, ada).get(f"/games/{private['id']}/version").status_code == 200


def test_the_download_of_the_log_waits_for_the_end(app, client, game):
    refused = client.get(f"/games/{game['id']}/export")
    assert refused.status_code == 409 and "is not over" in refused.get_data(as_text=True)
