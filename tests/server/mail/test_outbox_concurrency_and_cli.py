"""Two flushers at once send each message once; `iridescia-server outbox` lists and retries;
the tick is recorded where the health endpoint finds it."""

import logging
import threading
import time

from click.testing import CliRunner
from sqlmodel import select

from server.cli import main as server_cli
from server.mail import MailSettings
from server.mail.outbox import flush_outbox
from server.scheduler.tick import Ticker
from server.storage.db import session_scope
from server.storage.models import Outbox
from tests.accounts import add_confirmed_user


class SlowRecorder:
    """A transport that takes a moment per message, so two flushers overlap."""

    def __init__(self, log, lock):
        self.log, self.lock = log, lock

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass

    def send(self, message):
        time.sleep(0.01)
        with self.lock:
            self.log.append(message["X-Iridescia-Key"])


def _queue(engine, clock, count, status="pending", error=None):
    with session_scope(engine) as session:
        for n in range(count):
            add_confirmed_user(session, f"p{n}@example.org")
            session.add(
                Outbox(
                    dedupe_key=f"k{n}",
                    to_email=f"p{n}@example.org",
                    kind="your_turn",
                    subject=f"Turn {n}",
                    text_body="hello",
                    status=status,
                    last_error=error,
                    created_at=clock(),
                    next_attempt_at=clock(),
                )
            )


def test_two_flushers_at_once_send_every_message_exactly_once(db_engine, clock):
    _queue(db_engine, clock, 30)
    sent, lock = [], threading.Lock()
    settings = MailSettings()
    threads = [
        threading.Thread(
            target=flush_outbox, args=(db_engine, SlowRecorder(sent, lock), settings, clock())
        )
        for _ in range(2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(sent) == sorted(f"k{n}" for n in range(30))
    with session_scope(db_engine) as session:
        assert {row.status for row in session.exec(select(Outbox))} == {"sent"}


def test_outbox_command_lists_parked_mail_and_queues_it_again(db_url, db_engine, clock):
    _queue(db_engine, clock, 2, status="parked", error="SMTP server answered 550 No such user")
    runner = CliRunner()
    env = {"IRIDESCIA_DATABASE_URL": db_url}

    listed = runner.invoke(server_cli, ["outbox"], env=env)
    assert listed.exit_code == 0, listed.output
    assert listed.output.splitlines() == [
        "1\tparked\t0 attempt(s)\t2026-03-01 12:00\tyour_turn\tp0@example.org\tTurn 0",
        "\tlast error: SMTP server answered 550 No such user",
        "2\tparked\t0 attempt(s)\t2026-03-01 12:00\tyour_turn\tp1@example.org\tTurn 1",
        "\tlast error: SMTP server answered 550 No such user",
    ]

    retried = runner.invoke(server_cli, ["outbox", "--retry", "2"], env=env)
    assert retried.output == "queued again: 2 your_turn to p1@example.org\n"
    assert runner.invoke(server_cli, ["outbox", "--status", "pending"], env=env).output.startswith(
        "2\tpending\t0 attempt(s)"
    )
    missing = runner.invoke(server_cli, ["outbox", "--retry", "99"], env=env)
    assert missing.exit_code == 1
    assert "no parked message with id 99" in missing.output


def test_tick_flushes_to_eml_files_and_is_recorded_for_the_health_endpoint(
    app, db_engine, clock, tmp_path
):
    _queue(db_engine, clock, 1)
    report = Ticker(app, clock, name="test-scheduler").tick()
    assert report.sent == 1
    assert len(list((tmp_path / "outbox").glob("*.eml"))) == 1
    health = app.test_client().get("/api/v1/health").get_json()
    assert health["scheduler"]["last_tick_at"].startswith("2026-03-01T12:00:00")


def test_the_due_work_sends_no_mail_and_delivery_does(app, db_engine, clock, tmp_path):
    _queue(db_engine, clock, 2)
    ticker = Ticker(app, clock, name="test-scheduler")
    assert ticker.due_work().sent == 0
    assert list((tmp_path / "outbox").glob("*.eml")) == []
    assert len(ticker.deliver().sent) == 2
    assert len(list((tmp_path / "outbox").glob("*.eml"))) == 2


def test_scheduler_once_runs_one_tick_and_says_what_it_did(
    db_url, db_engine, clock, tmp_path, caplog
):
    _queue(db_engine, clock, 2)
    env = {"IRIDESCIA_DATABASE_URL": db_url, "IRIDESCIA_OUTBOX_DIR": str(tmp_path / "mail")}
    with caplog.at_level(logging.INFO):
        result = CliRunner().invoke(server_cli, ["scheduler", "--once"], env=env)
    assert result.exit_code == 0, result.output
    assert result.output == "0 automatic turn(s), 0 reminder(s), 2 mail(s) sent\n"
    assert (
        f"IRIDESCIA_SMTP_URL is not set: emails are written as .eml files under {tmp_path / 'mail'}/"
        in caplog.text
    )
    assert len(list((tmp_path / "mail").glob("*.eml"))) == 2


def test_scheduler_refuses_a_bad_smtp_url_with_a_clear_message(db_url):
    env = {"IRIDESCIA_DATABASE_URL": db_url, "IRIDESCIA_SMTP_URL": "mail.example.org:25"}
    result = CliRunner().invoke(server_cli, ["scheduler", "--once"], env=env)
    assert result.exit_code == 1
    assert (
        "Error: IRIDESCIA_SMTP_URL 'mail.example.org:25' must start with smtp:// or smtps://"
        in result.output
    )


def test_scheduler_refuses_a_budget_of_no_time(db_url):
    env = {"IRIDESCIA_DATABASE_URL": db_url, "IRIDESCIA_SCHEDULER_BUDGET_SECONDS": "0"}
    result = CliRunner().invoke(server_cli, ["scheduler", "--once"], env=env)
    assert result.exit_code == 1
    assert "Error: IRIDESCIA_SCHEDULER_BUDGET_SECONDS must be above 0, got 0.0" in result.output


def test_a_notice_queued_twice_is_one_mail_and_does_not_undo_the_transaction(app, table):
    from server.notifications import enqueue, participants
    from server.notifications.policy import reminder
    from server.storage.models import Game

    ada, bob = table.register("Ada"), table.register("Bob")
    game_id = table.new_game(ada, [bob])
    with session_scope(app.extensions["iridescia_db"]) as session:
        game = session.get(Game, game_id)
        notice = reminder(game_id, participants(session, game)[0], 1234, 1)
        first = enqueue(session, game, [notice], game.turn_started_at)
        second = enqueue(session, game, [notice], game.turn_started_at)
        game.reminder_interval_hours = 5  # written in the same transaction
        session.add(game)
    assert (len(first), len(second)) == (1, 0)
    with session_scope(app.extensions["iridescia_db"]) as session:
        keys = session.exec(select(Outbox.dedupe_key).where(Outbox.kind == "reminder")).all()
        assert keys == [f"{game_id}/t1234/reminder/seat0/1"]
        assert session.get(Game, game_id).reminder_interval_hours == 5
