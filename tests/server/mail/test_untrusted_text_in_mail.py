"""Issue 16, findings 9 and 2: a name holding CR/LF (an account from before the API refused it)
no longer parks every mail whose subject quotes it: the invitation Ada sends goes out through a
real SMTP server with the line break folded to a space, and no header is injected. An address
holding ESC is parked with the reason, and `iridescia-server outbox` prints every field of it
escaped."""

from datetime import UTC, datetime

import sqlalchemy as sa
from click.testing import CliRunner

from server.cli import main as server_cli
from server.mail import EmlTransport, MailSettings, SmtpSettings, SmtpTransport
from server.mail.outbox import flush_outbox, list_messages
from server.storage.db import get_engine, session_scope
from server.storage.models import Outbox
from tests.accounts import sign_up


def test_a_name_with_cr_lf_is_folded_in_the_subject_and_the_mail_is_sent(app, db_url,
                                                                          smtp_server):
    handler, port = smtp_server
    client = app.test_client()
    ada = sign_up(client, "Ada", "ada@example.org")  # confirmed: the inviter's mail goes out
    headers = {"Authorization": f"Bearer {ada['token']}"}
    engine = get_engine(db_url)
    with engine.begin() as connection:
        connection.execute(sa.text("UPDATE users SET name = :name"),
                           {"name": "Ada\r\nBcc: victim@example.org"})
    game = client.post("/api/v1/games", json={"seats": 2}, headers=headers).json
    invited = client.post(f"/api/v1/games/{game['id']}/invitations",
                          json={"email": "bob@example.org"}, headers=headers)
    assert invited.status_code == 201, invited.json

    settings = MailSettings(smtp=SmtpSettings(host="127.0.0.1", port=port, security="none"),
                            from_address="Iridescia <games@iridescia.test>",
                            base_url="https://iridescia.test")
    report = flush_outbox(engine, SmtpTransport(settings.smtp), settings, datetime.now(UTC))

    assert report.parked == [] and len(report.sent) == 1, report
    [received] = handler.received
    assert received.recipients == ["bob@example.org"]
    subject = received.message["Subject"].strip()
    assert "\r" not in subject and "\n" not in subject, subject
    assert subject.startswith("Ada") and subject.endswith(
        "Bcc: victim@example.org invites you to a game of Gems of Iridescia")
    assert received.message["Bcc"] is None
    with session_scope(engine) as session:
        assert [row.status for row in list_messages(session, None)] == ["sent"]


def test_the_outbox_command_prints_an_old_rows_control_characters_escaped(db_url, tmp_path):
    engine = get_engine(db_url)
    now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    with session_scope(engine) as session:
        session.add(Outbox(dedupe_key="invite:g1:\x1b", to_email='"a\x1b[2J"@example.org',
                           kind="invitation", subject="Mallory\x07\x1b]0;pwned invites you",
                           text_body="join", created_at=now, next_attempt_at=now))
    settings = MailSettings(from_address="Iridescia <games@iridescia.test>",
                            outbox_dir=tmp_path / "mail")
    report = flush_outbox(engine, EmlTransport(settings.outbox_dir), settings, now)
    assert len(report.parked) == 1

    runner = CliRunner()
    env = {"IRIDESCIA_DATABASE_URL": db_url}
    listed = runner.invoke(server_cli, ["outbox"], env=env)

    assert listed.exit_code == 0, listed.output
    assert listed.output.splitlines() == [
        '1\tparked\t1 attempt(s)\t2026-03-01 12:00\tinvitation\t"a\\x1b[2J"@example.org'
        "\tMallory\\x07\\x1b]0;pwned invites you",
        "\tlast error: the address holds a control character (U+001B ESC); it cannot be mailed",
    ]
    retried = runner.invoke(server_cli, ["outbox", "--retry", "1"], env=env)
    assert retried.output == 'queued again: 1 invitation to "a\\x1b[2J"@example.org\n'


def test_a_subject_queued_with_cr_lf_is_folded_when_the_message_is_built():
    from types import SimpleNamespace

    from server.mail.message import build_message

    row = SimpleNamespace(to_email="bob@example.org", subject="Ada\r\nBcc: victim@example.org won",
                          text_body="over", html_body=None, dedupe_key="g1/over",
                          created_at=datetime(2026, 3, 1, tzinfo=UTC), game_id=None, kind="x",
                          user_id=None, id=1, version=None, seat=None, extra=None)
    message = build_message(row, MailSettings(from_address="Iridescia <games@iridescia.test>"))
    assert message["Subject"] == "Ada Bcc: victim@example.org won"
    assert message["Bcc"] is None
