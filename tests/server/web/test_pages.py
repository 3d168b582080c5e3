"""The pages through Flask's test client, on SQLite and PostgreSQL: who sees what, playing a
command from a form, the 409, the replay, the end, and the pages around them."""

from __future__ import annotations

import re

from sqlmodel import select

from server.storage.db import get_engine, session_scope
from server.storage.models import Outbox
from tests.server.play import create_started_game, play_one
from tests.server.web.conftest import csrf_token, follow, forms, signed_in, whose_turn


def test_a_public_game_shows_to_anyone_with_its_board_players_and_turn(client, game):
    page = client.get(f"/games/{game['id']}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "<svg" in html and "Ada" in html and "Bob" in html
    assert " is to play." in html and "Deadline: " in html
    assert "You are watching." in html
    assert forms(html) == []  # a spectator has no forms
    assert re.search(r'<html lang="en" data-version="\d+" data-status="active"', html)


def test_a_private_game_shows_only_to_its_players(app, client, ada, bob, register_eve):
    game = create_started_game(client, [ada, bob])  # private by default
    assert client.get(f"/games/{game['id']}").status_code == 404
    eve = signed_in(app, register_eve)
    outsider = eve.get(f"/games/{game['id']}")
    assert outsider.status_code == 404 and "you can see" in outsider.get_data(as_text=True)
    assert signed_in(app, ada).get(f"/games/{game['id']}").status_code == 200


def test_the_private_view_shows_my_objectives_and_not_the_others(app, client, game, ada, bob):
    state = _state(app, game["id"])
    seats = {p.seat: p for p in state.players}
    ada_seat = client.get(f"/api/v1/games/{game['id']}", headers=ada.headers).json["my_seat"]
    html = signed_in(app, ada).get(f"/games/{game['id']}").get_data(as_text=True)
    for objective in seats[ada_seat].objectives:
        assert engine_name(objective) in html
    for objective in seats[1 - ada_seat].objectives:
        if objective not in seats[ada_seat].objectives:
            assert engine_name(objective) not in html


def engine_name(component_id: str) -> str:
    from engine.data import display_name

    return display_name(component_id)


def _state(app, game_id):
    from server.games.service import load_state
    from server.storage.models import Game

    with session_scope(get_engine(app.config["DATABASE_URL"])) as session:
        return load_state(session, session.get(Game, game_id))


def test_playing_a_command_from_the_page_moves_the_game_on(app, client, game, ada, bob):
    first, _ = whose_turn(client, game["id"], [ada, bob])
    browser = signed_in(app, first)
    html = browser.get(f"/games/{game['id']}").get_data(as_text=True)
    assert "It is your turn." in html
    choices = forms(html)
    words, command, version = next(c for c in choices if c[0].startswith("reveal "))
    assert re.fullmatch(r"reveal \d[a-g]( \d[a-g])?", words), words
    hex_name = words.split()[1]
    # On the board: the hex's own control (or its menu), placed over the hex by board.css.
    assert re.search(rf'class="(control on-hex|on-hex hex-link) at-{hex_name}"', html)
    # Every legal command has its form, its notation in data-command as `iridescia legal`
    # prints it (once each).
    from client.commands.acting import notation_line

    legal = client.get(f"/api/v1/games/{game['id']}/legal", headers=first.headers).json
    printed = list(dict.fromkeys(filter(None, map(notation_line, legal["commands"]))))
    assert sorted(w for w, _c, _v in choices) == sorted(printed)
    answer = browser.post(f"/games/{game['id']}/play", data={
        "csrf_token": csrf_token(html), "command": command, "expected_version": version})
    assert answer.status_code == 303
    assert answer.headers["Location"] == f"/games/{game['id']}#board"  # the page keeps its place
    after = client.get(f"/api/v1/games/{game['id']}", headers=first.headers).json
    assert after["version"] > int(version)
    html = browser.get(f"/games/{game['id']}").get_data(as_text=True)
    assert any(w.startswith("move ") for w, _c, _v in forms(html))  # the next step's forms


def test_a_stale_form_answers_409_with_what_changed_and_the_new_choices(app, client, game, ada,
                                                                       bob):
    import random

    first, _ = whose_turn(client, game["id"], [ada, bob])
    browser = signed_in(app, first)
    html = browser.get(f"/games/{game['id']}").get_data(as_text=True)
    _words, command, version = forms(html)[0]
    # Meanwhile the same player plays from the API (another tab, the CLI).
    seats = {client.get(f"/api/v1/games/{game['id']}", headers=p.headers).json["my_seat"]: p
             for p in (ada, bob)}
    play_one(client, game["id"], seats, random.Random(3))
    answer = browser.post(f"/games/{game['id']}/play", data={
        "csrf_token": csrf_token(html), "command": command, "expected_version": version})
    assert answer.status_code == 409
    page = answer.get_data(as_text=True)
    assert "Another move landed first." in page
    assert re.search(r"What changed:</p>\s*<ul><li>.+<ul><li>[A-Z]", page)
    shown = re.sub(r"<[^>]*>", " ", page.split("<main", 1)[1])  # the text, not the markup
    assert "version" not in shown
    now = client.get(f"/api/v1/games/{game['id']}", headers=ada.headers).json["version"]
    assert forms(page) and all(v == str(now) for _w, _c, v in forms(page))


def test_the_replay_steps_by_turn_and_refuses_what_is_not_there(client, game, ada, bob):
    import random

    seats = {client.get(f"/api/v1/games/{game['id']}", headers=p.headers).json["my_seat"]: p
             for p in (ada, bob)}
    rng = random.Random(5)
    for _ in range(30):
        play_one(client, game["id"], seats, rng)
    now = client.get(f"/games/{game['id']}").get_data(as_text=True)
    turns = re.findall(r'<li><a href="\?turn=(\d+)" data-replay>Turn (\d+): ([^<]+)</a>', now)
    assert len(turns) >= 3 and [int(i) for i, _n, _w in turns] == list(range(1, len(turns) + 1))
    first = client.get(f"/games/{game['id']}?turn=1").get_data(as_text=True)
    assert f"Replay of turn {turns[0][1]}." in first and 'data-replay="' in first
    assert 'href="?turn=2" rel="next"' in first and '<span class="off">Previous turn</span>' in first
    second = client.get(f"/games/{game['id']}?turn=2").get_data(as_text=True)
    assert 'href="?turn=1" rel="prev"' in second and 'href="?turn=3" rel="next"' in second
    assert first != second and forms(first) == []  # nothing is played in a replay
    refused = client.get(f"/games/{game['id']}?turn=first")
    assert refused.status_code == 400 and "1 is the first" in refused.get_data(as_text=True)
    version = client.get(f"/api/v1/games/{game['id']}").json["version"]
    refused = client.get(f"/games/{game['id']}?at={version + 1}")
    assert refused.status_code == 400
    assert f"from 1 to {version}" in refused.get_data(as_text=True)


def test_a_finished_game_shows_the_scores_and_the_revealed_seed(client, ada, bob):
    import random

    # A removal grace: the players choose their removals (the server would play them at once).
    game = create_started_game(client, [ada, bob], public=True, removal_grace_hours=1)
    seats = {client.get(f"/api/v1/games/{game['id']}", headers=p.headers).json["my_seat"]: p
             for p in (ada, bob)}
    before = client.get(f"/games/{game['id']}").get_data(as_text=True)
    rng = random.Random(11)
    while play_one(client, game["id"], seats, rng) is not None:
        pass
    export = client.get(f"/api/v1/games/{game['id']}/export").json
    assert export["seed"] not in before
    html = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert "The game is over." in html and "Final scores" in html
    assert export["seed"] in html and "The seed matches it." in html
    winners = [s for s in export["outcome"]["seats"] if s["rank"] == 1]
    names = {p["seat"]: p["name"] for p in export["players"]}
    heading = re.search(r'<h2 id="over-title" class="winner">([^<]+)</h2>', html).group(1)
    assert heading.startswith(names[winners[0]["seat"]])  # the winner named first
    assert f"with {winners[0]['total']} points." in heading
    for seat in export["outcome"]["seats"]:
        assert f"<strong>{seat['total']}</strong>" in html
    # The download works for anyone on a public game, as the API's export.
    download = client.get(f"/games/{game['id']}/export")
    assert download.status_code == 200 and "attachment" in download.headers[
        "Content-Disposition"]
    assert download.json["seed"] == export["seed"] and download.json["events"] == export["events"]


def test_the_home_page_lists_my_games_with_my_turn_first(app, client, ada, bob):
    waiting = create_started_game(client, [ada, bob])
    other = create_started_game(client, [ada, bob])
    first, _ = whose_turn(client, other["id"], [ada, bob])
    html = signed_in(app, first).get("/").get_data(as_text=True)
    assert "Your games" in html and "Your turn" in html
    ids = re.findall(r'<a class="open-game" href="/games/(\w+)">', html)
    assert set(ids) == {waiting["id"], other["id"]}
    mine = [game_id for game_id in ids if _is_turn_of(client, game_id, first)]
    assert ids[: len(mine)] == mine


def _is_turn_of(client, game_id, player):
    return client.get(f"/api/v1/games/{game_id}", headers=player.headers).json["is_my_turn"]


def test_asking_for_a_sign_in_link_answers_the_same_and_mails_only_a_registered_address(
        app, client, ada):
    html = client.get("/").get_data(as_text=True)
    assert "Mail me a sign-in link" in html
    token = csrf_token(html)
    known = client.post("/sign-in", data={"csrf_token": token, "email": "ADA@example.org"})
    unknown = client.post("/sign-in", data={"csrf_token": token, "email": "zed@example.org"})
    assert known.status_code == unknown.status_code == 200
    assert known.get_data() == unknown.get_data()
    again = client.post("/sign-in", data={"csrf_token": token, "email": "ada@example.org"})
    assert again.get_data() == known.get_data()  # the same answer, but no second mail yet
    with session_scope(get_engine(app.config["DATABASE_URL"])) as session:
        rows = session.exec(select(Outbox).where(Outbox.kind == "sign_in")).all()
        assert [row.to_email for row in rows] == ["ada@example.org"]
        link = re.search(r"(/sign-in/\S+)", rows[0].text_body).group(1)
    browser = app.test_client()
    assert follow(browser, link).status_code == 303
    assert 'Signed in as <strong class="me">Ada</strong>' in browser.get("/").get_data(
        as_text=True)


def test_the_invitations_register_link_is_a_page_that_registers(app, client, ada):
    game = client.post("/api/v1/games", json={"seats": 2}, headers=ada.headers).json
    client.post(f"/api/v1/games/{game['id']}/invitations", json={"email": "zed@example.org"},
                headers=ada.headers)
    with session_scope(get_engine(app.config["DATABASE_URL"])) as session:
        [invite] = session.exec(select(Outbox).where(Outbox.kind == "invitation")).all()
        text = " ".join(invite.text_body.split())  # the paragraph may wrap anywhere
        link = re.search(r"register on the web page, (\S+), and join", text).group(1)
    assert link == f"http://iridescia.test/register?join={game['join_code']}"
    page = client.get(link.removeprefix("http://iridescia.test"))
    assert page.status_code == 200 and "text/html" in page.content_type
    html = page.get_data(as_text=True)
    assert f"iridescia join {game['join_code']}" in html
    done = client.post("/register", data={"csrf_token": csrf_token(html), "name": "Zed",
                                          "email": "zed@example.org"})
    first = done.get_data(as_text=True)
    assert done.status_code == 200 and "A mail is on its way to zed@example.org" in first
    assert '<pre class="token">' not in first  # the token travels by mail only
    token, _html = _confirmed_by_the_mailed_link(app, client, "zed@example.org")
    me = client.get("/api/v1/users/me", headers={"Authorization": f"Bearer {token}"})
    assert me.json["name"] == "Zed"
    # Signing in begins a new session (and a new CSRF token): a form from before is refused.
    html = client.get("/register").get_data(as_text=True)
    again = client.post("/register", data={"csrf_token": csrf_token(html), "name": "Zed",
                                           "email": "zed@example.org"})
    # A taken address is not told apart on the page: its owner is mailed a way back in instead.
    answer = again.get_data(as_text=True)
    assert again.status_code == 200 and answer == first
    with session_scope(get_engine(app.config["DATABASE_URL"])) as session:
        kinds = session.exec(select(Outbox.kind).where(Outbox.to_email == "zed@example.org"))
        assert "registered_again" in set(kinds)


def test_docs_are_served_from_the_package_not_a_cdn(client):
    html = client.get("/docs").get_data(as_text=True)
    assert "cdn" not in html.lower() and "https://" not in html
    for asset in re.findall(r'(?:src|href)="(/docs/assets/[^"]+)"', html):
        response = client.get(asset)
        assert response.status_code == 200 and len(response.data) > 1000, asset


def test_unknown_pages_are_pages_for_a_browser_and_json_for_the_api(client):
    page = client.get("/nothing-here", headers={"Accept": "text/html,*/*;q=0.8"})
    assert page.status_code == 404 and "text/html" in page.content_type
    api = client.get("/api/v1/nothing-here", headers={"Accept": "text/html"})
    assert api.status_code == 404 and api.json["code"] == 404


def test_the_register_page_refuses_what_the_api_refuses(client):
    html = client.get("/register").get_data(as_text=True)
    for name, email in (("", "a@example.org"), ("Zed", "not an address"), ("x" * 81, "b@x.org")):
        refused = client.post("/register", data={"csrf_token": csrf_token(html), "name": name,
                                                 "email": email})
        assert refused.status_code == 400, (name, email)
        assert "correct it and retry" in refused.get_data(as_text=True)


def _confirmed_by_the_mailed_link(app, browser, email: str,
                                  join: str | None = None) -> tuple[str, str]:
    """Open the confirmation link mailed to ``email`` and press its button, as the player does
    (the browser is then signed in); the API token the page shows, and the page."""
    with session_scope(get_engine(app.config["DATABASE_URL"])) as session:
        mail = session.exec(select(Outbox).where(Outbox.kind == "verify_email",
                                                 Outbox.to_email == email)).one()
        link = re.search(r"http://iridescia.test(/verify\?\S+)", mail.text_body).group(1)
    assert ("join=" in link) == (join is not None) and (join is None or join in link)
    page = browser.get(link).get_data(as_text=True)
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', page))
    done = browser.post("/verify", data=fields)
    html = done.get_data(as_text=True)
    assert done.status_code == 200, html
    return re.search(r'<pre class="token">([^<]+)</pre>', html).group(1), html


def test_an_invited_player_registers_and_joins_from_the_pages(app, client, ada):
    game = client.post("/api/v1/games", json={"seats": 2}, headers=ada.headers).json
    page = client.get(f"/register?join={game['join_code']}").get_data(as_text=True)
    client.post("/register", data={"csrf_token": csrf_token(page), "name": "Zed",
                                   "email": "zed@example.org", "join": game["join_code"]})
    _token, html = _confirmed_by_the_mailed_link(app, client, "zed@example.org",
                                                 join=game["join_code"])
    assert "Join the game you were invited to" in html
    assert f'name="code" value="{game["join_code"]}"' in html
    joined = client.post("/join", data={"csrf_token": csrf_token(html),
                                        "code": game["join_code"]})
    assert joined.status_code == 303 and joined.headers["Location"] == f"/games/{game['id']}"
    info = client.get(f"/api/v1/games/{game['id']}", headers=ada.headers).json
    assert [p["name"] for p in info["players"]] == ["Ada", "Zed"]
    again = client.post("/join", data={"csrf_token": csrf_token(html), "code": "nope"})
    assert again.status_code == 404 and "check it with whoever invited you" in again.get_data(
        as_text=True)
    anonymous = app.test_client()
    form = anonymous.get("/").get_data(as_text=True)
    refused = anonymous.post("/join", data={"csrf_token": csrf_token(form),
                                            "code": game["join_code"]})
    assert refused.status_code == 401
