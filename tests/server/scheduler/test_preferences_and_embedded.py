"""Email preferences decide what is queued; `start_embedded` ticks and sends mail inside the web
process."""

import hashlib
import time

from sqlmodel import select

from server.scheduler import start_embedded
from server.scheduler.tick import Ticker
from server.storage.db import app_engine, session_scope
from server.storage.models import Outbox, SchedulerTick
from tests.server.scheduler.helpers import Clock


def _kinds(app, email):
    with session_scope(app_engine(app)) as session:
        return session.exec(
            select(Outbox.kind).where(Outbox.to_email == email).order_by(Outbox.id)
        ).all()


def test_reminders_only_and_none_preferences(app, table):
    ada, bob = table.register("Ada"), table.register("Bob")
    table._call("patch", "/users/me/preferences", ada, email="none")
    table._call("patch", "/users/me/preferences", bob, email="reminders")
    game_id = table.new_game(ada, [bob], reminder_interval_hours=24)
    clock = Clock(table.game(game_id).turn_started_at)
    ticker = Ticker(app, clock, name="test")
    while table.player_at(game_id, table.game(game_id).current_seat) is not bob:
        table.play_at(game_id, clock())
    assert _kinds(app, bob.email) == ["game_started"]  # no "your turn" mail

    clock.advance(hours=24, seconds=1)
    ticker.tick()
    assert _kinds(app, bob.email) == ["game_started", "reminder"]
    table.play_at(game_id, clock())
    clock.advance(hours=24, seconds=1)
    ticker.tick()
    assert _kinds(app, ada.email) == []


def test_embedded_scheduler_ticks_and_sends_mail_in_the_background(app, clock, tmp_path):
    with session_scope(app_engine(app)) as session:
        session.add(Outbox(dedupe_key="hello", to_email="ada@example.org", kind="invitation",
                           subject="Hello", text_body="Join us", created_at=clock(),
                           next_attempt_at=clock()))
    app.config["SCHEDULER_INTERVAL_SECONDS"] = 0.05
    scheduler = start_embedded(app, clock)
    try:
        give_up = time.monotonic() + 10
        while time.monotonic() < give_up:
            with session_scope(app_engine(app)) as session:
                ticks = session.exec(select(SchedulerTick)).all()
            if ticks and list((tmp_path / "outbox").glob("*.eml")):
                break
            time.sleep(0.05)
        assert [tick.last_tick_at for tick in ticks] == [clock()]
        # The name ends with the key's digest: one file per mail (issue 16, finding 11).
        digest = hashlib.sha256(b"hello").hexdigest()[:16]
        assert [f.name for f in (tmp_path / "outbox").glob("*.eml")] == [f"hello_{digest}.eml"]
        assert sorted(scheduler.jobs) == ["mail", "tick", "webhooks"]
        assert {job.interval for job in scheduler.jobs.values()} == {0.05}
    finally:
        scheduler.shutdown(wait=True)
