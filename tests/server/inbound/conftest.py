"""Fixtures for the mail-coming-in tests: the app on SQLite and PostgreSQL with its outgoing mail
going to a real SMTP sink (aiosmtpd), the embedded SMTP receiver on a free port, and a post
office that delivers the outbox and writes players' replies, and a real IMAP server (pymap)."""

import asyncio
import imaplib
import os
import socket
import subprocess
import sys
import time
from datetime import UTC, datetime

import pytest

import engine
from engine.text import notation
from tests.server.inbound.post import PostOffice, text_of
from tests.server.scheduler.helpers import Clock, Table

# The scheduler suite's database (both backends) and SMTP server, by name.
from tests.server.scheduler_fixtures import db_url, smtp_server  # noqa: F401


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def sink(smtp_server):  # noqa: F811  (the imported fixture, by name)
    """A real SMTP server catching what the server sends (the scheduler tests' own); yields its
    handler and port."""
    return smtp_server


@pytest.fixture
def clock():
    return Clock(datetime(2026, 3, 1, 12, 0, tzinfo=UTC))


@pytest.fixture
def settings(db_url, sink, tmp_path):  # noqa: F811  (the imported fixture, by name)
    return {
        "DATABASE_URL": db_url,
        "SMTP_URL": f"smtp://127.0.0.1:{sink[1]}?security=none",
        "MAIL_FROM": "Iridescia <iridescia@iridescia.test>",
        "REPLY_ADDRESS": "play@iridescia.test",
        "BASE_URL": "https://iridescia.test",
        "SECRET_KEY": "a test key that is not the default",
        "INBOUND_SMTP": f"127.0.0.1:{free_port()}",
        "INBOUND_RATE_LIMIT": 0,  # a whole game by mail is hundreds of mails in a minute
        "TESTING": True,
    }


@pytest.fixture
def app(settings):
    from server import create_app

    return create_app(settings)


@pytest.fixture
def table(app):
    return Table(app)


@pytest.fixture
def post(app, sink, clock):
    return PostOffice(app, sink[0], clock)


@pytest.fixture
def receiver(app):
    """The embedded SMTP receiver, started as `serve` starts it."""
    from server.inbound.smtp import listen_address, start_receiver

    controller = start_receiver(app, listen_address(app.config["INBOUND_SMTP"]))
    try:
        yield controller
    finally:
        controller.stop()
        asyncio.set_event_loop(None)


@pytest.fixture
def duel(post, table):
    """Ada and Bo in a started game, their first emails delivered; returns a namespace."""
    ada, bo = table.register("Ada"), table.register("Bo")
    game_id = table.new_game(ada, [bo])
    post.deliver()
    state = table.state(game_id)
    seat = engine.current_player(state)
    player = table.player_at(game_id, seat)
    other = bo if player is ada else ada
    first = next(notation.format(c) for c in engine.legal_commands(state, seat)
                 if notation.format(c).startswith("reveal"))

    class Duel:
        pass

    duel = Duel()
    duel.game_id, duel.seat, duel.player, duel.other, duel.first = (
        game_id, seat, player, other, first)
    duel.mail = post.latest(player.email, game_id)
    return duel


def answer_to(post, address):
    return text_of(post.answer(address))


def flat(text: str) -> str:
    """`text` with its line breaks as spaces (the answers wrap their sentences at 76)."""
    return " ".join(text.split())


@pytest.fixture
def imap_server(tmp_path):
    """A real IMAP server (pymap, in-memory) with the mailbox play / secret."""
    port = free_port()
    pymap = os.path.join(os.path.dirname(sys.executable), "pymap")
    process = subprocess.Popen(
        [pymap, "--host", "127.0.0.1", "--port", str(port), "--no-tls", "dict",
         "--demo-user", "play", "--demo-password", "secret"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                imaplib.IMAP4("127.0.0.1", port, timeout=1).logout()
                break
            except OSError:
                time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        process.wait(10)


def imap_mailbox(port: int) -> imaplib.IMAP4:
    connection = imaplib.IMAP4("127.0.0.1", port, timeout=10)
    connection.login("play", "secret")
    return connection
