"""Delivered mail's bodies are cleared a day after delivery; what may still be sent keeps them."""

from sqlmodel import select

from server.scheduler.tick import Ticker
from server.storage.db import session_scope
from server.storage.models import Outbox
from tests.accounts import add_confirmed_user


def _queue(engine, clock, keys, to="ada@example.org"):
    with session_scope(engine) as session:
        add_confirmed_user(session, to)
        for key in keys:
            session.add(Outbox(
                dedupe_key=key, to_email=to, kind="your_turn", subject=f"Your turn ({key})",
                text_body=f"The board of {key}\n", html_body=f"<p>The board of {key}</p>",
                created_at=clock(), next_attempt_at=clock(),
            ))


def _rows(engine):
    with session_scope(engine) as session:
        return {row.dedupe_key: (row.status, row.subject, row.text_body, row.html_body)
                for row in session.exec(select(Outbox))}


def test_delivered_bodies_are_cleared_a_day_later_and_the_row_stays(app, db_engine, clock):
    ticker = Ticker(app, clock)
    _queue(db_engine, clock, ["delivered"])
    ticker.deliver()  # to the app's .eml outbox
    assert _rows(db_engine)["delivered"][0] == "sent"

    clock.advance(hours=23)
    _queue(db_engine, clock, ["parked", "pending"])
    with session_scope(db_engine) as session:
        parked = session.exec(select(Outbox).where(Outbox.dedupe_key == "parked")).one()
        parked.status = "parked"
        pending = session.exec(select(Outbox).where(Outbox.dedupe_key == "pending")).one()
        pending.next_attempt_at = clock.now.replace(year=2100)  # not due: stays pending
    ticker = Ticker(app, clock)  # a fresh scheduler prunes at its first delivery
    ticker.deliver()
    assert _rows(db_engine)["delivered"][2] == "The board of delivered\n"  # not a day old yet

    clock.advance(hours=2)
    Ticker(app, clock).deliver()
    rows = _rows(db_engine)
    assert rows["delivered"] == ("sent", "Your turn (delivered)", None, None)
    assert rows["parked"] == ("parked", "Your turn (parked)", "The board of parked\n",
                              "<p>The board of parked</p>")
    assert rows["pending"][0] == "pending" and rows["pending"][2] == "The board of pending\n"


def test_a_scheduler_clears_bodies_at_most_once_an_hour(app, db_engine, clock):
    ticker = Ticker(app, clock)
    _queue(db_engine, clock, ["sent"])
    ticker.deliver()
    clock.advance(hours=23, minutes=30)
    ticker.deliver()  # clears what is a day old: nothing yet
    clock.advance(minutes=40)
    ticker.deliver()  # a day old now, but this scheduler looked 40 minutes ago
    assert _rows(db_engine)["sent"][2] == "The board of sent\n"
    clock.advance(minutes=21)
    ticker.deliver()
    assert _rows(db_engine)["sent"][2] is None
