"""Bounces (issue 26): every mail's envelope sender is a signed per-recipient address (VERP); a
DSN or a failure notice coming back to it is recorded by any way in, a hard bounce or three soft
ones in a week mark the address bouncing, no more game mail goes to it, the player and the
operator see it, and confirming the address again clears it. A bounce is never answered."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

from click.testing import CliRunner

from server.cli import main as server_cli
from server.inbound.ingest import ingest
from server.storage.db import app_engine, session_scope
from server.storage.models import MailBounce, Outbox, User
from tests.accounts import mailed_code
from tests.server.inbound.post import reply


def dsn(final_recipient: str, action: str = "failed", status: str = "5.1.1",
        to: str = "play@iridescia.test") -> bytes:
    """A delivery status notification as Postfix writes one (RFC 3464)."""
    message = EmailMessage()
    message["From"] = "MAILER-DAEMON@mx.example.org (Mail Delivery System)"
    message["To"] = to
    message["Subject"] = "Undelivered Mail Returned to Sender"
    message["Message-ID"] = make_msgid(domain="mx.example.org")
    message["Auto-Submitted"] = "auto-replied"
    message.set_content("I'm sorry to have to inform you that your message could not be "
                        "delivered to one or more recipients.\n")
    report = (f"Reporting-MTA: dns; mx.example.org\n\n"
              f"Final-Recipient: rfc822; {final_recipient}\nOriginal-Recipient: rfc822;"
              f"{final_recipient}\nAction: {action}\nStatus: {status}\n"
              f"Diagnostic-Code: smtp; 550 {status} <{final_recipient}>: mailbox unknown\n")
    raw = message.as_bytes().decode()
    boundary = "=_dsn_boundary"
    head, _, body = raw.partition("\n\n")
    head = "\n".join(line for line in head.splitlines()
                     if not line.lower().startswith(("content-type", "content-transfer",
                                                     "mime-version")))
    return (f"{head}\nMIME-Version: 1.0\nContent-Type: multipart/report; "
            f"report-type=delivery-status; boundary=\"{boundary}\"\n\n"
            f"--{boundary}\nContent-Type: text/plain\n\n{body}\n"
            f"--{boundary}\nContent-Type: message/delivery-status\n\n{report}\n"
            f"--{boundary}--\n").encode()


def _status(table, player) -> str:
    return table._call("get", "/users/me", player)["email_status"]


def _bounces(app, user_id: int) -> list[bool]:
    with session_scope(app_engine(app)) as session:
        return [b.hard for b in session.exec(
            MailBounce.__table__.select().where(MailBounce.user_id == user_id)).all()]


def test_a_hard_bounce_to_the_verp_address_stops_game_mail_until_the_address_is_confirmed(
        duel, post, table, app, receiver, sink):
    handler = sink[0]
    turn_mail = next(r for r in reversed(handler.received) if duel.player.email in r.recipients)
    # VERP: the envelope sender names the recipient's account, signed; the From stays ours.
    assert turn_mail.sender.startswith(f"play+bounce-u{duel.player.id}-")
    assert turn_mail.sender.endswith("@iridescia.test")
    assert "bounce" not in str(turn_mail.message["From"])
    other_mail = next(r for r in handler.received if duel.other.email in r.recipients)
    assert other_mail.sender != turn_mail.sender  # per recipient

    answers_before = post.count()
    post.send_smtp(dsn(duel.player.email, to=turn_mail.sender), turn_mail.sender,
                   "MAILER-DAEMON@mx.example.org")
    post.deliver()
    assert post.count() == answers_before  # never answered
    assert _bounces(app, duel.player.id) == [True]
    assert _status(table, duel.player) == "bouncing"
    assert _status(table, duel.other) == "ok"

    # No more game mail: the next turn's mail to them is withheld, with the reason.
    table.play_turn(duel.game_id)
    table.play_turn(duel.game_id)
    post.deliver()
    post.deliver()
    with session_scope(app_engine(app)) as session:
        withheld = [row for row in session.query(Outbox).filter(
            Outbox.to_email == duel.player.email, Outbox.status != "sent").all()]
    assert withheld and all("bounces" in (row.last_error or "") for row in withheld)

    # The operator sees it.
    result = CliRunner().invoke(server_cli, ["users", "list", "--bouncing"],
                                env={"IRIDESCIA_DATABASE_URL": app.config["DATABASE_URL"]})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) == 1 and duel.player.email in lines[0]
    assert "bouncing since" in lines[0]

    # Confirming the address again clears the mark.
    table._call("post", "/users/me/verification", duel.player)
    again = table.client.post("/api/v1/users/verify", json={
        "code": mailed_code(table.client, duel.player.email)})
    assert again.status_code == 200 and again.json["token"] is None  # the token is kept
    assert _status(table, duel.player) == "ok"


def test_three_soft_bounces_in_a_week_mark_the_address_by_any_way_in(duel, post, table, app,
                                                                     receiver, sink):
    handler = sink[0]
    verp = next(r.sender for r in handler.received if duel.player.email in r.recipients)
    delayed = [dsn(duel.player.email, action="delayed", status="4.4.1", to=verp)
               for _ in range(3)]
    post.send_smtp(delayed[0], verp, "MAILER-DAEMON@mx.example.org")  # the SMTP receiver
    assert ingest(delayed[1], app=app, recipients=[verp], way_in="pipe").status == "bounce"
    assert _status(table, duel.player) == "ok"  # two soft bounces: not yet
    assert ingest(delayed[2], app=app, recipients=[verp], way_in="imap").status == "bounce"
    assert _bounces(app, duel.player.id) == [False, False, False]
    assert _status(table, duel.player) == "bouncing"


def test_a_forged_or_unsigned_bounce_never_marks_an_address_alone(duel, app, table):
    # To a VERP address whose signature is not ours: recorded as a bounce for no account.
    forged = f"play+bounce-u{duel.player.id}-aaaaaaaaaaaaaaaa@iridescia.test"
    outcome = ingest(dsn(duel.player.email, to=forged), app=app, recipients=[forged])
    assert outcome.status == "bounce" and "no account" in outcome.detail
    # A DSN to the bare address (nothing signed): a soft bounce at most.
    outcome = ingest(dsn(duel.player.email), app=app, recipients=["play@iridescia.test"])
    assert outcome.status == "bounce" and "soft bounce" in outcome.detail
    assert _status(table, duel.player) == "ok"
    # A player's reply is no bounce: it still plays.
    assert ingest(reply(duel.mail, duel.first, sender=duel.player.email), app=app,
                  recipients=[str(duel.mail["Reply-To"])]).status == "applied"


def test_the_users_me_answer_says_unconfirmed_before_the_address_is_confirmed(table, app):
    with session_scope(app_engine(app)) as session:
        ada = table.register("Ada")
        user = session.get(User, ada.id)
        user.verified_at = None
        session.add(user)
    assert _status(table, ada) == "unconfirmed"
