"""Issue 32, N1: a name stored before the API refused control characters (OSC 0 … BEL retitles
a terminal, the 8-bit CSI clears it) reached other players' mail bodies raw, in text and HTML
parts. Every body is now cleaned when the mail is built (both builders: the fast wire writer and
the email package's), and the migration 0005_hardening_sessions cleaned the stored rows."""

import re
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from server.mail import MailSettings, SmtpSettings, SmtpTransport
from server.mail.outbox import flush_outbox
from server.mail.wire import wire_message
from server.storage.db import get_engine
from server.storage.models import Outbox
from tests.accounts import sign_up
from tests.server.helpers import Player
from tests.server.play import create_started_game

HOSTILE = "Ada\x1b]0;pwned\x07\x9b2J\u202e"
RAW = re.compile("[\x1b\x07\x9b\u202e]")


def _player(client, name):
    body = sign_up(client, name, f"{name}@example.org")
    return Player(body["id"], body["name"], body["email"], body["token"])


def test_a_stored_hostile_name_reaches_no_mail_body_raw(app, db_url, smtp_server):
    handler, port = smtp_server
    client = app.test_client()
    ada, bob = _player(client, "ada"), _player(client, "bob")
    engine = get_engine(db_url)
    with engine.begin() as connection:
        connection.execute(sa.text("UPDATE users SET name = :name WHERE id = :id"),
                           {"name": HOSTILE, "id": ada.id})
    game = create_started_game(client, [ada, bob])
    client.post(f"/api/v1/games/{game['id']}/messages", json={"text": "hello"},
                headers=ada.headers)
    settings = MailSettings(smtp=SmtpSettings(host="127.0.0.1", port=port, security="none"),
                            from_address="Iridescia <games@iridescia.test>",
                            base_url="https://iridescia.test")
    report = flush_outbox(engine, SmtpTransport(settings.smtp), settings, datetime.now(UTC))
    assert report.sent and not report.parked, report
    to_bob = [m.message for m in handler.received if m.recipients == ["bob@example.org"]]
    assert to_bob
    parts = [part.get_content() for mail in to_bob for part in mail.walk()
             if part.get_content_type() in ("text/plain", "text/html")]
    assert any("Ada]0;pwned2J" in part for part in parts)  # the name, shown as text
    assert [RAW.findall(part) for part in parts if RAW.search(part)] == []


@pytest.mark.parametrize("html", [None, "<p>\x1b]0;x\x07 Ada</p>"])
def test_both_builders_take_control_characters_out_of_bodies(html):
    row = Outbox(dedupe_key="k", to_email="bob@example.org", kind="turn", subject="s",
                 text_body="line one \x1b[2J\x9b\nline\ttwo\n", html_body=html,
                 created_at=datetime(2026, 3, 1, tzinfo=UTC))
    settings = MailSettings(from_address="Iridescia <games@iridescia.test>")
    data = bytes(wire_message(row, settings))
    assert b"\x1b" not in data and b"\x07" not in data and "\x9b".encode() not in data
    assert b"line one [2J\r\nline\ttwo" in data
