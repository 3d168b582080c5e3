"""The mail players choose, with an injected clock shared by the requests and the scheduler:
the daily digest (one mail for all the games waiting, none per turn), a game's own choice,
quiet hours holding a mail until they end, the one-click link, and what the digest keeps
hidden."""

import html
import re
from datetime import datetime, time, timedelta
from urllib.parse import parse_qs, urlparse
from zoneinfo import ZoneInfo

import pytest
from sqlmodel import select

import engine
from engine.data import display_name
from server.mail.outbox import render_pending
from server.scheduler.tick import Ticker
from server.storage.db import app_engine, session_scope
from server.storage.models import Outbox, User
from server.users.mail_choices import next_digest, quiet_until
from tests.server.web.conftest import follow

PARIS = ZoneInfo("Europe/Paris")


pytestmark = pytest.mark.clocked


def _rows(app, to=None):
    with app.app_context():  # as the scheduler renders: the app's links
        render_pending(app_engine(app))
    with session_scope(app_engine(app)) as session:
        rows = session.exec(select(Outbox).order_by(Outbox.id)).all()
        for row in rows:
            session.expunge(row)
        return [row for row in rows if to is None or row.to_email == to]


def _prefs(table, player, **changes):
    return table.client.patch("/api/v1/users/me/preferences", json=changes,
                              headers={"Authorization": f"Bearer {player.token}"})


def _my_turn_in(table, game_id, player, clock):
    """Play the others' turns until it is `player`'s turn."""
    while table.player_at(game_id, engine.current_player(table.state(game_id))) is not player:
        table.play_at(game_id, clock())


def test_quiet_hours_and_the_next_digest_in_the_players_time_zone():
    late = datetime(2026, 7, 1, 21, 30, tzinfo=ZoneInfo("UTC"))  # 23:30 in Paris (summer)
    assert quiet_until("22-7", "Europe/Paris", late) == datetime(2026, 7, 2, 7, tzinfo=PARIS)
    assert quiet_until("22-7", "Europe/Paris", late.replace(hour=10)) is None
    assert quiet_until("1-6", "UTC", late.replace(hour=3)) == late.replace(hour=6, minute=0)
    assert quiet_until(None, "UTC", late) is None
    assert next_digest(8, "Europe/Paris", late) == datetime(2026, 7, 2, 8, tzinfo=PARIS)
    assert next_digest(23, "UTC", late) == late.replace(hour=23, minute=0)


def test_a_digest_day_with_three_games_sends_exactly_one_digest(app, table, clock):
    ada = table.register("Ada")
    others = [table.register(name) for name in ("Bob", "Cy", "Di")]
    answer = _prefs(table, ada, email="digest", digest_hour=8, time_zone="Europe/Paris")
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["preferences"]["email"] == "digest"
    games = [table.new_game(ada, [other], seed=f"digest-{n}") for n, other in
             enumerate(others)]
    for game_id in games:
        _my_turn_in(table, game_id, ada, clock)
    ticker = Ticker(app, clock, name="test")
    ticker.tick()
    turn_mail = [r for r in _rows(app, ada.email) if r.kind in ("your_turn", "reminder")]
    assert turn_mail == []  # no mail per turn for a digest player

    with session_scope(app_engine(app)) as session:
        due = session.exec(select(User.next_digest_at).where(User.id == ada.id)).one()
    assert due.astimezone(PARIS).time() == time(8) and due > clock()
    clock.now = due - timedelta(minutes=1)
    ticker.tick()
    assert [r for r in _rows(app, ada.email) if r.kind == "digest"] == []
    clock.now = due + timedelta(minutes=1)
    assert ticker.tick().digests == [ada.id]
    clock.advance(hours=5)
    ticker.tick()
    digests = [r for r in _rows(app, ada.email) if r.kind == "digest"]
    assert len(digests) == 1  # exactly one, for the three games
    digest = digests[0]
    assert digest.subject.startswith("Gems of Iridescia: your turn in 3 games (")
    assert digest.status == "sent"
    for game_id in games:
        block = digest.text_body.split(f"Game {game_id}: your turn")[1].split("\n\n")[0]
        assert re.search(r"The board: +https://iridescia.test/sign-in/\S+", block)
        assert re.search(r"Reply to play: +play\+play-\S+@localhost", block)
    assert "left)" in digest.text_body
    assert all(r.to_email == ada.email for r in _rows(app) if r.kind == "digest")
    # Nothing secret: no objective of anyone, no seed.
    for game_id in games:
        for player in table.state(game_id).players:
            for objective in player.objectives:
                assert display_name(objective) not in digest.text_body + digest.html_body
        assert table.game(game_id).seed not in digest.text_body + digest.html_body
    # The picture link opens the board as Ada may see it.
    link = re.search(rf"Game {games[0]}: your turn.*?The board: +(\S+)", digest.text_body,
                     re.S).group(1)
    browser = app.test_client()
    picture = browser.get(follow(browser, urlparse(link).path).headers["Location"])
    assert picture.status_code == 200 and picture.mimetype == "image/png"
    assert picture.data.startswith(b"\x89PNG")
    assert app.test_client().get(f"/games/{games[0]}/board.png").status_code == 404  # private

    clock.advance(days=1)  # the next day, the games still wait: the next digest
    ticker.tick()
    assert len([r for r in _rows(app, ada.email) if r.kind == "digest"]) == 2


def test_a_game_of_its_own_choice_wins_over_the_accounts(app, table, clock):
    ada, bob = table.register("Ada"), table.register("Bob")
    _prefs(table, ada, email="digest")
    game_id = table.new_game(ada, [bob])
    auth = {"Authorization": f"Bearer {ada.token}"}
    put = table.client.put(f"/api/v1/games/{game_id}/notifications", json={"email": "every_turn"},
                           headers=auth)
    assert put.status_code == 200 and put.get_json() == {"email": "every_turn"}
    _my_turn_in(table, game_id, ada, clock)
    table.play_at(game_id, clock())  # Ada's turn, then Bob's, then Ada's again
    _my_turn_in(table, game_id, ada, clock)
    assert any(r.kind == "your_turn" for r in _rows(app, ada.email))
    bad = table.client.put(f"/api/v1/games/{game_id}/notifications", json={"email": "often"},
                           headers=auth)
    assert bad.status_code == 422
    outsider = table.register("Eve")
    refused = table.client.put(f"/api/v1/games/{game_id}/notifications",
                               json={"email": "none"},
                               headers={"Authorization": f"Bearer {outsider.token}"})
    assert refused.status_code == 404


def test_bad_preferences_are_refused_clearly(app, table):
    ada = table.register("Ada")
    zone = _prefs(table, ada, time_zone="Mars/Olympus")
    assert zone.status_code == 422 and "is not a time zone" in str(zone.get_json())
    quiet = _prefs(table, ada, quiet_hours="22-22")
    assert quiet.status_code == 422 and "two whole hours" in str(quiet.get_json())
    hour = _prefs(table, ada, digest_hour=24)
    assert hour.status_code == 422
    choice = _prefs(table, ada, email="weekly")
    assert choice.status_code == 422


def test_quiet_hours_hold_a_mail_until_they_end(app, table, clock):
    ada, bob = table.register("Ada"), table.register("Bob")
    game_id = table.new_game(ada, [bob])
    assert _prefs(table, ada, quiet_hours="22-7", time_zone="Europe/Paris").status_code == 200
    ticker = Ticker(app, clock, name="test")
    local = clock().astimezone(PARIS)
    clock.now = datetime.combine(local.date() + timedelta(days=1), time(23), PARIS)
    _my_turn_in(table, game_id, bob, clock)
    table.play_at(game_id, clock())  # Bob plays at 23:00 in Paris: Ada's turn
    ticker.tick()
    held = [r for r in _rows(app, ada.email) if r.kind == "your_turn"]
    assert len(held) == 1 and held[0].status == "pending"
    morning = datetime.combine(clock().astimezone(PARIS).date() + timedelta(days=1), time(7),
                               PARIS)
    assert held[0].next_attempt_at == morning
    clock.now = morning - timedelta(minutes=1)
    ticker.tick()
    assert [r.status for r in _rows(app, ada.email) if r.kind == "your_turn"] == ["pending"]
    clock.now = morning + timedelta(minutes=1)
    ticker.tick()
    assert [r.status for r in _rows(app, ada.email) if r.kind == "your_turn"] == ["sent"]


def test_the_one_click_link_shows_then_changes_the_choice(app, table, clock):
    ada, bob = table.register("Ada"), table.register("Bob")
    table.new_game(ada, [bob])
    Ticker(app, clock, name="test").tick()
    mail = next(r for r in _rows(app, ada.email) if r.kind == "game_started")
    assert "To change it, reply `notify digest 8`" in mail.text_body
    link = re.search(r"one digest a day: (\S+)", mail.text_body).group(1)
    assert re.search(r'<a href="https://iridescia.test/mail-choice\?code=[^"]+">one digest a day'
                     r"</a>", mail.html_body)
    page = table.client.get(urlparse(link).path + "?" + urlparse(link).query)
    assert page.status_code == 200
    assert "Mail for all your games to ada@example.org: one digest a day." in html.unescape(
        page.get_data(as_text=True))
    assert table._call("get", "/users/me", ada)["preferences"]["email"] == "every_turn"  # a GET
    code = parse_qs(urlparse(link).query)["code"][0]
    done = table.client.post("/mail-choice", data={"code": code})
    assert done.status_code == 200
    assert "Mail for all your games: one digest a day at 8:00 (UTC)." in html.unescape(
        done.get_data(as_text=True))
    assert table._call("get", "/users/me", ada)["preferences"]["email"] == "digest"
    forged = table.client.post("/mail-choice", data={"code": code[:-3] + "abc"})
    assert forged.status_code == 422 and "this link is not valid" in forged.get_data(as_text=True)
    table._call("post", "/users/me/token", ada)  # a new token ends the old links
    stale = table.client.post("/mail-choice", data={"code": code})
    assert stale.status_code == 422 and "no longer works" in stale.get_data(as_text=True)
