"""Vacations with an injected clock (the same one for the requests and the scheduler): the turns
waiting for a player away stand still, no automatic turn and no reminder, and run again at
their return with the time they had left; the yearly allowance; the table is told."""

from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import select

import engine
from server.mail.outbox import render_pending
from server.scheduler.tick import Ticker
from server.storage.db import app_engine, session_scope
from server.storage.models import Outbox
from server.vacations.allowance import day_start, days_by_year

pytestmark = pytest.mark.clocked


def _mail(app, to=None):
    render_pending(app_engine(app))
    with session_scope(app_engine(app)) as session:
        rows = session.exec(select(Outbox).order_by(Outbox.id)).all()
        return [(row.to_email, row.kind, row.text_body) for row in rows
                if to is None or row.to_email == to]


def _vacation(table, player, until):
    return table.client.post("/api/v1/users/me/vacation", json={"until": until},
                             headers={"Authorization": f"Bearer {player.token}"})


def _players(table, game_id, viewer):
    return {p["name"]: p for p in table._call("get", f"/games/{game_id}", viewer)["players"]}


def test_days_count_each_utc_day_touched_by_year():
    noon = datetime(2026, 12, 29, 12, tzinfo=UTC)
    assert days_by_year(noon, day_start(datetime(2027, 1, 3).date())) == {2026: 3, 2027: 2}
    assert days_by_year(noon, noon + timedelta(hours=1)) == {2026: 1}
    assert days_by_year(noon, noon) == {}


def test_a_vacation_midway_stops_the_clock_and_the_server_plays_nothing_for_them(
        app, table, clock):
    ada, bob = table.register("Ada"), table.register("Bob")
    game_id = table.new_game(ada, [bob])  # 3 days a turn, a reminder a day
    ticker = Ticker(app, clock, name="test")
    ticker.tick()
    table.play_at(game_id, clock())  # the first player's turn; now the other's
    seat = table.game(game_id).current_seat
    away = table.player_at(game_id, seat)
    other = ada if away is bob else bob
    ticker.tick()
    clock.advance(hours=10)  # 10 of their 72 hours spent
    until = (clock().date() + timedelta(days=5)).isoformat()
    answer = _vacation(table, away, until)
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    assert body["days_used"] == 5 and body["days_left"] == 16 and body["days_per_year"] == 21
    back_at = day_start(clock().date() + timedelta(days=5))
    game = table.game(game_id)
    assert game.deadline_at is None and game.next_reminder_at is None
    assert game.automatic_due_at == back_at  # the scheduler looks again at their return
    seen = _players(table, game_id, other)[away.name]
    assert datetime.fromisoformat(seen["away_until"]) == back_at
    assert table._call("get", "/games", other)[0]["time_left"] is None

    before = len(_mail(app, away.email))
    clock.advance(hours=80)  # far past the deadline they had
    report = ticker.tick()
    assert report.automatic == [] and report.nudges == []
    assert len(_mail(app, away.email)) == before  # no reminder, no warning, nothing played
    assert engine.current_player(table.state(game_id)) == seat

    clock.now = back_at + timedelta(minutes=1)  # back: the clock runs again, 62 hours left
    assert ticker.tick().automatic == []
    game = table.game(game_id)
    assert game.deadline_at == clock() + timedelta(hours=62)
    assert _players(table, game_id, other)[away.name]["away_until"] is None  # seen back
    assert table._call("get", "/games", other)[0]["time_left"] == "2 days 14 hours left"

    clock.now = game.deadline_at - timedelta(minutes=1)
    assert ticker.tick().automatic == []
    clock.advance(minutes=2)  # the absence rules are back: the deadline passes, it is played
    assert [(t.seat, t.kind) for t in ticker.tick().automatic] == [(seat, "deadline")]


def test_a_turn_reaching_a_player_away_waits_and_the_table_is_told(app, table, clock):
    ada, bob, cy = table.register("Ada"), table.register("Bob"), table.register("Cy")
    game_id = table.new_game(ada, [bob, cy])
    ticker = Ticker(app, clock, name="test")
    ticker.tick()
    order = [table.game(game_id).current_seat]
    by_seat = {}
    for _ in range(3):
        seat = engine.current_player(table.state(game_id))
        by_seat[seat] = table.player_at(game_id, seat)
        table.play_at(game_id, clock())
        order.append(engine.current_player(table.state(game_id)))
    first, second, third = (by_seat[s] for s in order[:3])  # the turn order
    ticker.tick()
    # The third player goes away while the first is to play.
    until = (clock().date() + timedelta(days=3)).isoformat()
    left = clock()
    assert _vacation(table, third, until).status_code == 200
    table.play_at(game_id, clock())  # the first player
    ticker.tick()
    told = [text for _to, kind, text in _mail(app, second.email) if kind == "your_turn"][-1]
    assert f"{third.name} is away on vacation until {until} 00:00 UTC" in told
    table.play_at(game_id, clock())  # the second: the turn reaches the third, away
    game = table.game(game_id)
    assert game.current_seat == order[2]
    assert game.deadline_at is None and game.next_reminder_at is None
    clock.advance(hours=30)
    assert ticker.tick().automatic == []

    # Back early: the turn gets its whole time from now; days not begun are given back.
    back = table.client.delete("/api/v1/users/me/vacation",
                               headers={"Authorization": f"Bearer {third.token}"})
    assert back.status_code == 200, back.get_json()
    assert back.get_json()["away_until"] is None
    assert back.get_json()["days_used"] == (clock().date() - left.date()).days + 1
    assert table.game(game_id).deadline_at == clock() + timedelta(hours=72)
    again = table.client.delete("/api/v1/users/me/vacation",
                                headers={"Authorization": f"Bearer {third.token}"})
    assert again.status_code == 409 and "you are not on vacation" in again.get_json()["message"]


def test_the_yearly_allowance_and_bad_dates_are_refused_clearly(app, table, clock):
    ada = table.register("Ada")
    clock.now = datetime(2026, 12, 25, 12, tzinfo=UTC)
    today = _vacation(table, ada, "2026-12-25")
    assert today.status_code == 422
    assert ("2026-12-25 is not after today (2026-12-25, UTC): give the day you are back, "
            "e.g. 2027-01-01") in today.get_json()["message"]
    assert _vacation(table, ada, "2026-12-01").status_code == 422
    assert _vacation(table, ada, "24 December").status_code == 422
    far = _vacation(table, ada, "2028-01-10")
    assert far.status_code == 422 and "more than a year ahead" in far.get_json()["message"]
    # Across the new year: 7 days of 2026 (25-31 December), 9 of 2027.
    spanning = _vacation(table, ada, "2027-01-10")
    assert spanning.status_code == 200
    assert spanning.get_json()["days_used"] == 7 and spanning.get_json()["year"] == 2026

    clock.now = datetime(2027, 2, 1, 9, tzinfo=UTC)
    too_many = _vacation(table, ada, "2027-02-14")
    assert too_many.status_code == 422
    assert ("away until 2027-02-14 is 13 days in 2027, and you have 12 of your 21 left that "
            "year") in too_many.get_json()["message"]
    fits = _vacation(table, ada, "2027-02-10")
    assert fits.status_code == 200 and fits.get_json()["days_left"] == 21 - 9 - 9
    longer = _vacation(table, ada, "2027-02-13")  # changing the end counts the vacation once
    assert longer.status_code == 200 and longer.get_json()["days_left"] == 0
    clock.advance(days=1)
    back = table.client.delete("/api/v1/users/me/vacation",
                               headers={"Authorization": f"Bearer {ada.token}"})
    assert back.get_json()["days_used"] == 9 + 2  # 1 and 2 February
    shown = table._call("get", "/users/me/vacation", ada)
    assert shown["away_until"] is None and shown["days_left"] == 10

    app.config["VACATION_DAYS_PER_YEAR"] = 0
    off = _vacation(table, ada, "2027-02-20")
    assert off.status_code == 422 and "vacations are turned off" in off.get_json()["message"]
