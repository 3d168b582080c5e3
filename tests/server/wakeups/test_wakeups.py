"""The scheduler wakes when there is work: a command that queues mail wakes the mail job, one that
makes the Rhom's turn due wakes the tick, in the same process and from another one. The interval
here is ten minutes, so without the wake-ups nothing in these tests would happen in time.
(How soon it happens is measured in bench/wakeups, not asserted here beyond "long before the
interval".)"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import engine
from server.scheduler import start_embedded
from tests.server.scheduler.helpers import Table

ROOT = Path(__file__).resolve().parents[3]
INTERVAL = 600  # the safety net: far longer than any test waits
PATIENCE = 20  # seconds a test waits for what a wake-up should bring at once


def _eventually(predicate, seconds: float = PATIENCE):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    return predicate()


def _rhom_game(table: Table):
    ada = table.register("Ada")
    return ada, table.new_game(ada, rhom=True, rhom_delay_seconds=0, turn_deadline_hours=0)


def _rhom_to_act(table: Table, game_id: str) -> bool:
    return engine.pending_kind(table.state(game_id)) == "rhom"


def _play_until_the_rhom_is_to_act(table: Table, game_id: str) -> int:
    """Ada plays until the decision is the server's (the Rhom's turn, or a removal it plays at
    once); the version before her last command (the server may have played already)."""
    while True:
        before = table.game(game_id).version
        if not table.play_one(game_id):  # the server's decision now (the Rhom, a removal)
            assert table.game(game_id).status == "active", "the game ended first"
            return before
        if _rhom_to_act(table, game_id) or _server_moved(table, game_id, before):
            return before


def _server_moved(table: Table, game_id: str, after: int) -> bool:
    """Whether the server (the Rhom) appended events after version ``after``."""
    from sqlmodel import select

    from server.games.service import SERVER_ACTOR
    from server.storage.db import app_engine, session_scope
    from server.storage.models import Event

    with session_scope(app_engine(table.app)) as session:
        return session.exec(select(Event.seq).where(
            Event.game_id == game_id, Event.seq > after, Event.actor == SERVER_ACTOR)).first() \
            is not None


def test_a_command_wakes_the_embedded_scheduler(app, smtp_server):
    handler, port = smtp_server
    app.config.update(SCHEDULER_INTERVAL_SECONDS=INTERVAL, SMTP_URL=f"smtp://127.0.0.1:{port}")
    table = Table(app)
    scheduler = start_embedded(app)
    try:
        assert _eventually(lambda: all(job.runs for job in scheduler.jobs.values()))
        ada, game_id = _rhom_game(table)  # queues "game started" for Ada
        assert _eventually(lambda: handler.received), "the game's mail did not go out"
        assert handler.received[0].recipients == [ada.email]
        version = _play_until_the_rhom_is_to_act(table, game_id)
        assert _eventually(lambda: _server_moved(table, game_id, version)), "the Rhom did not play"
    finally:
        scheduler.shutdown(wait=True)


@pytest.mark.parametrize("channel", ["database", "redis"])
def test_a_command_post_that_queues_mail_wakes_the_mail_job_at_once(db_url, tmp_path,
                                                                    smtp_server, channel):
    """The post commits on a plain Connection (server/games/posting.py), not a Session: its
    commit, not the interval, sends the mail job to work, whichever channel carries wake-ups
    (with Redis, only what the post publishes after its commit does)."""
    from server import create_app

    handler, port = smtp_server
    app = create_app({
        "DATABASE_URL": db_url, "OUTBOX_DIR": str(tmp_path / "outbox"), "TESTING": True,
        "BASE_URL": "https://iridescia.test", "SCHEDULER_INTERVAL_SECONDS": INTERVAL,
        "SMTP_URL": f"smtp://127.0.0.1:{port}",
        **({"WAKEUP_URL": "redis://127.0.0.1:6379/0"} if channel == "redis" else {})})
    table = Table(app)
    scheduler = start_embedded(app)
    try:
        assert _eventually(lambda: all(job.runs for job in scheduler.jobs.values()))
        ada, bob = table.register("Ada"), table.register("Bob")
        game_id = table.new_game(ada, [bob], turn_deadline_hours=0)
        assert _eventually(lambda: len(handler.received) >= 2), "the start's mails"
        before = len(handler.received)
        first = table.player_at(game_id, engine.current_player(table.state(game_id)))
        table.play_turn(game_id)  # through POST /commands until the turn passes
        following = table.player_at(game_id, engine.current_player(table.state(game_id)))
        assert following is not None and following != first
        assert _eventually(lambda: any(mail.recipients == [following.email]
                                       for mail in handler.received[before:])), \
            "the next player's turn mail did not go out"
    finally:
        scheduler.shutdown(wait=True)


def test_a_command_in_another_process_wakes_the_scheduler(app, db_url, smtp_server, tmp_path):
    handler, port = smtp_server
    env = {k: v for k, v in os.environ.items() if not k.startswith("IRIDESCIA_")}
    env.update(IRIDESCIA_DATABASE_URL=db_url, IRIDESCIA_SMTP_URL=f"smtp://127.0.0.1:{port}",
               IRIDESCIA_SCHEDULER_INTERVAL_SECONDS=str(INTERVAL), PYTHONPATH=str(ROOT))
    log = (tmp_path / "scheduler.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-c", "from server.cli import main; main()", "scheduler"],
        env=env, cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    table = Table(app)
    try:
        # Its first runs (at start) are over once it has recorded its tick.
        assert _eventually(lambda: "running" in (tmp_path / "scheduler.log").read_text()
                           and _ticked(table)), (tmp_path / "scheduler.log").read_text()
        time.sleep(0.5)
        ada, game_id = _rhom_game(table)
        assert _eventually(lambda: handler.received), (tmp_path / "scheduler.log").read_text()
        assert handler.received[0].recipients == [ada.email]
        version = _play_until_the_rhom_is_to_act(table, game_id)
        assert _eventually(lambda: _server_moved(table, game_id, version)), "the Rhom did not play"
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)
        log.close()


def _ticked(table: Table) -> bool:
    from sqlmodel import select

    from server.storage.db import app_engine, session_scope
    from server.storage.models import SchedulerTick

    with session_scope(app_engine(table.app)) as session:
        return session.exec(select(SchedulerTick)).first() is not None


@pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)
def test_a_commands_reactions_wake_everyone_with_one_notify(table, db_url):
    """Each reaction notes its own wake-ups (the game's long-polls, the mail job, the tick); on
    PostgreSQL they leave the command's transaction as one NOTIFY, not a round trip each: the
    command that ends a turn wakes the game and the mail job at once."""
    import psycopg
    from sqlalchemy.engine import make_url

    from server.wakeups.channels import CHANNEL

    url = make_url(db_url)
    listener = psycopg.connect(host=url.host, port=url.port, user=url.username,
                               dbname=url.database, autocommit=True)
    try:
        listener.execute(f"LISTEN {CHANNEL}")
        ada, bob = table.register("Ada"), table.register("Bob")
        game_id = table.new_game(ada, [bob])
        list(listener.notifies(timeout=0.5))  # the lobby's own wake-ups
        before = table.game(game_id).version
        commands = 0
        seat = engine.current_player(table.state(game_id))
        while engine.current_player(table.state(game_id)) == seat and table.play_one(game_id):
            commands += 1
        assert table.game(game_id).version > before and commands > 1
        payloads = [n.payload.split() for n in listener.notifies(timeout=1, stop_after=100)]
    finally:
        listener.close()
    assert len(payloads) == commands, payloads
    assert all(f"g:{game_id}" in topics for topics in payloads)
    assert "mail" in payloads[-1], "the turn's end queued the next player's mail"
