"""Deadlines with an injected clock: reminders, the warning, the turn played past the deadline,
the seat marked absent and played at once, and the player coming back."""

import logging
import re
from datetime import timedelta

from sqlmodel import select

import engine
from server.mail.outbox import render_pending
from server.scheduler.tick import Ticker
from server.storage.db import app_engine, session_scope
from server.storage.models import Game, Outbox, Seat
from tests.server.scheduler.helpers import Clock


def _mail(app, after_id=0):
    render_pending(app_engine(app))  # the words of what is not sent yet
    with session_scope(app_engine(app)) as session:
        rows = session.exec(select(Outbox).where(Outbox.id > after_id).order_by(Outbox.id)).all()
        return [(row.to_email, row.kind, row.subject) for row in rows], max(
            [after_id] + [r.id for r in rows]
        )


def _seat(app, game_id, seat):
    with session_scope(app_engine(app)) as session:
        row = session.exec(select(Seat).where(Seat.game_id == game_id, Seat.seat == seat)).one()
        return row.missed_turns, row.absent


def test_reminders_warning_automatic_turn_and_absent_seat(app, table, caplog):
    ada, bob = table.register("Ada"), table.register("Bob")
    game_id = table.new_game(
        ada, [bob], reminder_interval_hours=24, turn_deadline_hours=72, absent_after_missed=2
    )
    game = table.game(game_id)
    clock = Clock(game.turn_started_at)
    ticker = Ticker(app, clock, name="test")
    late_seat = game.current_seat
    late, punctual = (ada, bob) if table.player_at(game_id, late_seat) is ada else (bob, ada)
    g = f"({game_id})"  # every subject ends with the game

    ticker.tick()
    mail, last = _mail(app)
    assert sorted(kind for _, kind, _ in mail) == ["game_started", "game_started"]

    clock.advance(hours=23, minutes=59)
    ticker.tick()
    assert _mail(app, last)[0] == []

    clock.advance(minutes=2)  # 24 h
    ticker.tick()
    ticker.tick()
    mail, last = _mail(app, last)
    assert [(to, kind, subject.endswith(f" is waiting {g}")) for to, kind, subject in mail] == [
        (late.email, "reminder", True)]

    clock.advance(hours=24)  # 48 h
    ticker.tick()
    mail, last = _mail(app, last)
    assert [(to, kind, subject.endswith(f" is waiting {g}")) for to, kind, subject in mail] == [
        (late.email, "reminder", True)]

    clock.advance(hours=12)  # 60 h: 12 hours left
    ticker.tick()
    mail, last = _mail(app, last)
    deadline = (game.turn_started_at + timedelta(hours=72)).strftime("%Y-%m-%d %H:%M UTC")
    [(to, kind, subject)] = mail
    assert (to, kind) == (late.email, "deadline_warning")
    assert re.fullmatch(rf"Your turn \d+ will be played for you at {deadline} \({game_id}\)",
                        subject)

    clock.advance(hours=11, minutes=58)  # just before the deadline: nothing
    ticker.tick()
    assert _mail(app, last)[0] == [] and engine.current_player(table.state(game_id)) == late_seat

    clock.advance(minutes=2)  # past the deadline
    with caplog.at_level(logging.INFO, logger="server.scheduler"):
        report = ticker.tick()
    assert [(t.seat, t.kind) for t in report.automatic] == [(late_seat, "deadline")]
    assert f"game {game_id}: seat {late_seat} missed the deadline" in caplog.text
    assert engine.current_player(table.state(game_id)) != late_seat
    mail, last = _mail(app, last)
    assert (late.email, "played_for_you", f"Your turn was played for you {g}") in mail
    assert [(to, kind, re.search(rf"your turn \d+ {re.escape(g)}$", subject) is not None)
            for to, kind, subject in mail if to == punctual.email] == [
        (punctual.email, "your_turn", True)]
    assert _seat(app, game_id, late_seat) == (1, False)

    # The second missed deadline in a row makes the seat absent.
    table.play_at(game_id, clock())
    clock.advance(hours=72, minutes=1)
    ticker.tick()
    assert _seat(app, game_id, late_seat) == (2, True)
    render_pending(app_engine(app))
    with session_scope(app_engine(app)) as session:
        rows = session.exec(
            select(Outbox).where(Outbox.id > last, Outbox.kind == "played_for_you")
        ).all()
        assert [(row.to_email, row.subject) for row in rows] == [
            (late.email, f"Your turn was played for you {g}")
        ]
        assert "your seat is now absent" in " ".join(rows[0].text_body.split())
        assert f"iridescia back {game_id}" in rows[0].text_body  # how to take the seat back
    mail, last = _mail(app, last)

    # Absent: played as soon as it is their turn, without a mail each time.
    table.play_at(game_id, clock())
    report = ticker.tick()
    assert [(t.seat, t.kind) for t in report.automatic] == [(late_seat, "absent")]
    mail, last = _mail(app, last)
    assert [m for m in mail if m[0] == late.email] == []
    assert any(to == punctual.email and kind == "your_turn" and subject.endswith(g)
               for to, kind, subject in mail)
    assert _seat(app, game_id, late_seat) == (2, True)

    # A command from the player brings them back: their next turn waits for them again.
    table.play_at(game_id, clock())
    table.play_at(game_id, clock(), player=late)
    assert _seat(app, game_id, late_seat) == (0, False)
    assert ticker.tick().automatic == []


def test_reminders_are_sent_in_batches_and_a_failing_game_only_waits_itself(
    app, table, monkeypatch, caplog
):
    from server.scheduler import nudges

    monkeypatch.setattr(nudges, "NUDGE_BATCH", 2)
    players = [table.register(f"P{n}") for n in range(6)]
    games = [
        table.new_game(
            players[2 * n], [players[2 * n + 1]], seed=f"s{n}", reminder_interval_hours=1
        )
        for n in range(3)
    ]
    now = max(table.game(g).turn_started_at for g in games) + timedelta(hours=1, minutes=1)
    with session_scope(app_engine(app)) as session:
        order = [g.id for g in nudges.claim_games(session, Game.next_reminder_at, now, set(), 3)]
    assert sorted(order) == sorted(games)
    real = nudges._notice

    def failing(game, seat, now):
        if game.id == order[1]:
            raise RuntimeError("this game cannot be nudged")
        return real(game, seat, now)

    monkeypatch.setattr(nudges, "_notice", failing)
    with caplog.at_level(logging.ERROR, logger="server.scheduler"):
        sent = nudges.send_due_nudges(app_engine(app), now)
    assert sorted(n.game_id for n in sent) == sorted([order[0], order[2]])
    assert f"game {order[1]}: could not work out its reminder" in caplog.text
    reminded = [key.split("/")[0] for key in _keys(app) if "/reminder/" in key]
    assert sorted(reminded) == sorted([order[0], order[2]])
    assert table.game(order[1]).next_reminder_at == now + nudges.RETRY_AFTER_ERROR

    monkeypatch.setattr(nudges, "_notice", real)
    assert nudges.send_due_nudges(app_engine(app), now) == []  # not due again at once
    later = now + nudges.RETRY_AFTER_ERROR
    assert [n.game_id for n in nudges.send_due_nudges(app_engine(app), later)] == [order[1]]
    assert sorted(key.split("/")[0] for key in _keys(app) if "/reminder/" in key) == sorted(games)


def _keys(app):
    with session_scope(app_engine(app)) as session:
        return list(session.exec(select(Outbox.dedupe_key).order_by(Outbox.id)))
