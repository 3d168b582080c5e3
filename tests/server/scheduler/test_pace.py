"""Time controls: a game's pace (1d, 3d, 7d, none) sets its deadline and reminders; the list,
the page and the emails show the time left."""

from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import select

import engine
from server.games.pace import time_left
from server.mail.outbox import render_pending
from server.scheduler.tick import Ticker
from server.storage.db import app_engine, session_scope
from server.storage.models import Outbox
from tests.server.scheduler.helpers import Clock


def _mail(app):
    render_pending(app_engine(app))
    with session_scope(app_engine(app)) as session:
        return [(row.to_email, row.kind, row.text_body)
                for row in session.exec(select(Outbox).order_by(Outbox.id))]


NOON = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(("deadline", "words"), [
    (NOON + timedelta(days=2, hours=4, minutes=30), "2 days 4 hours left"),
    (NOON + timedelta(days=1), "1 day left"),
    (NOON + timedelta(hours=3, minutes=10), "3 hours 10 minutes left"),
    (NOON + timedelta(hours=1), "1 hour left"),
    (NOON + timedelta(minutes=1), "1 minute left"),
    (NOON + timedelta(seconds=30), "under a minute left"),
    (NOON - timedelta(minutes=5), "due now"),
])
def test_time_left_in_words(deadline, words):
    assert time_left(deadline, NOON) == words
    assert time_left(None, NOON) is None


def test_the_pace_names_the_deadline_and_the_reminders(app, table):
    ada = table.register("Ada")
    client = table.client
    auth = {"Authorization": f"Bearer {ada.token}"}
    for pace, deadline, reminders in [("1d", 24, 12), ("3d", 72, 24), ("7d", 168, 48),
                                      ("none", 0, 72)]:
        game = client.post("/api/v1/games", json={"seats": 2, "pace": pace}, headers=auth)
        assert game.status_code == 201, game.get_json()
        body = game.get_json()
        assert body["pace"] == pace
        assert body["settings"]["turn_deadline_hours"] == deadline
        assert body["settings"]["reminder_interval_hours"] == reminders
    default = client.post("/api/v1/games", json={"seats": 2}, headers=auth).get_json()
    assert default["pace"] == "3d"  # as before: 72 hours a turn, a reminder a day
    own = client.post("/api/v1/games", json={"seats": 2, "turn_deadline_hours": 48,
                                             "reminder_interval_hours": 6}, headers=auth)
    assert own.get_json()["pace"] == "48h"
    paced = client.post("/api/v1/games", json={"seats": 2, "pace": "1d",
                                               "reminder_interval_hours": 6}, headers=auth)
    assert paced.get_json()["settings"]["reminder_interval_hours"] == 6


def test_a_pace_is_refused_clearly(app, table):
    ada = table.register("Ada")
    auth = {"Authorization": f"Bearer {ada.token}"}
    both = table.client.post("/api/v1/games", json={"seats": 2, "pace": "1d",
                                                    "turn_deadline_hours": 48}, headers=auth)
    assert both.status_code == 422
    assert "give the pace (1d, 3d, 7d or none) or turn_deadline_hours, not both" in str(
        both.get_json())
    unknown = table.client.post("/api/v1/games", json={"seats": 2, "pace": "2d"}, headers=auth)
    assert unknown.status_code == 422
    assert "1d, 3d, 7d, none" in str(unknown.get_json())


def test_a_one_day_pace_reminds_warns_and_plays_on_its_own_schedule(app, table):
    ada, bob = table.register("Ada"), table.register("Bob")
    game_id = table.new_game(ada, [bob], pace="1d")
    game = table.game(game_id)
    assert game.deadline_at == game.turn_started_at + timedelta(hours=24)
    clock = Clock(game.turn_started_at)
    ticker = Ticker(app, clock, name="test")
    late = table.player_at(game_id, game.current_seat)
    ticker.tick()
    started = [text for to, kind, text in _mail(app) if to == late.email]
    assert "(23 hours 59 minutes left)" in started[0] or "(1 day left)" in started[0]

    def kinds():
        return [kind for to, kind, _ in _mail(app) if to == late.email]

    clock.advance(hours=12, minutes=1)
    ticker.tick()
    assert kinds() == ["game_started", "reminder"]
    clock.advance(hours=6)  # 18 h: a quarter of the day is left, the warning
    ticker.tick()
    assert kinds() == ["game_started", "reminder", "deadline_warning"]
    warning = [text for to, kind, text in _mail(app) if kind == "deadline_warning"][0]
    assert "(5 hours 59 minutes left)" in warning
    clock.advance(hours=6)  # past the day: the server plays the turn
    report = ticker.tick()
    assert [t.kind for t in report.automatic] == ["deadline"]


def test_no_pace_never_plays_a_turn_and_reminds_every_three_days(app, table):
    ada, bob = table.register("Ada"), table.register("Bob")
    game_id = table.new_game(ada, [bob], pace="none")
    game = table.game(game_id)
    assert game.deadline_at is None and game.automatic_due_at is None
    listed = table._call("get", "/games", ada)[0]
    assert listed["pace"] == "none" and listed["time_left"] is None
    clock = Clock(game.turn_started_at)
    ticker = Ticker(app, clock, name="test")
    seat = game.current_seat
    late = table.player_at(game_id, seat)
    ticker.tick()
    clock.advance(hours=71)
    assert ticker.tick().nudges == []
    clock.advance(hours=2)
    assert [n.kind for n in ticker.tick().nudges] == ["reminder"]
    clock.advance(days=30)
    report = ticker.tick()
    assert report.automatic == []  # no deadline: never played for them
    assert [n.kind for n in report.nudges] == ["reminder"]  # one, not one per missed interval
    assert engine.current_player(table.state(game_id)) == seat
    assert not [k for to, k, _ in _mail(app) if to == late.email and k == "deadline_warning"]


def test_the_list_and_the_page_show_the_pace_and_time_left(app, table):
    ada, bob = table.register("Ada"), table.register("Bob")
    game_id = table.new_game(ada, [bob], pace="7d")
    listed = table._call("get", "/games", ada)[0]
    assert listed["pace"] == "7d"
    assert listed["time_left"] in ("6 days 23 hours left", "7 days left")
    shown = table._call("get", f"/games/{game_id}", bob)
    assert shown["time_left"] == listed["time_left"] or shown["time_left"].endswith("left")
