"""Bounded work before any check (issue 32: H1, H2, M5, M7, L1, L10): mail built to cost the
server time, or to crash it, is refused unread; a stranger's mail is not parsed and its record
is capped; a mail that met a database failure is handled again on the retry."""

from email.message import EmailMessage
from email.utils import make_msgid

from sqlmodel import select

from server.storage.db import app_engine, session_scope
from server.storage.models import InboundMessage
from tests.server.inbound.conftest import answer_to, flat
from tests.server.inbound.post import reply


def nested(sender: str, to: str, depth: int) -> bytes:
    """A multipart nested `depth` deep around one line of text."""
    head = (f"From: {sender}\nTo: {to}\nSubject: deep\nMessage-ID: {make_msgid()}\n"
            "MIME-Version: 1.0\n")
    opening = "".join(f"Content-Type: multipart/mixed; boundary=\"b{i}\"\n\n--b{i}\n"
                      for i in range(depth))
    closing = "".join(f"\n--b{i}--\n" for i in reversed(range(depth)))
    return (head + opening + "Content-Type: text/plain\n\nmove 3c\n" + closing).encode()


def rows(app) -> list[InboundMessage]:
    with session_scope(app_engine(app)) as session:
        return session.exec(select(InboundMessage).order_by(InboundMessage.id)).all()


def test_a_multipart_nested_1000_deep_is_refused_unread_with_a_reason(post, table, duel):
    """L1: it raised RecursionError out of ingest (a 500 with the exception's text)."""
    outcome = post.ingest(nested(duel.player.email, str(duel.mail["Reply-To"]), 1000))
    post.deliver()
    assert outcome.status == "unreadable", outcome
    assert "nests more than 40 multipart parts" in flat(answer_to(post, duel.player.email))


def test_a_stranger_s_poison_mail_is_not_answered(post, table, duel):
    sent = post.count()
    outcome = post.ingest(nested("mallory@evil.example", str(duel.mail["Reply-To"]), 1000))
    post.deliver()
    assert outcome.status == "unreadable" and post.count() == sent


def test_ten_thousand_encoded_words_in_a_subject_are_refused_unread(post, table, duel):
    """M7: such a Subject cost 27-28 s of CPU in the header parser."""
    raw = reply(duel.mail, duel.first).replace(
        b"Subject: ", b"Subject: " + b"=?utf-8?q?a?= " * 10_000, 1)
    outcome = post.ingest(raw)
    assert outcome.status == "unreadable", outcome
    assert "encoded words" in outcome.detail


def test_forty_thousand_addresses_in_to_are_not_all_read(post, table, duel):
    """M7: a To: of 40,000 addresses cost 19 s with no envelope recipient; only the first
    addresses are looked at for ours (the header is added to the bytes: the standard library's
    own header writer is as slow as its parser)."""
    many = ", ".join(f"p{i}@example.net" for i in range(40_000)).encode()
    raw = reply(duel.mail, duel.first).replace(b"\nTo: ", b"\nTo: " + many + b",\n ", 1)
    outcome = post.ingest(raw)
    assert outcome.status == "unreadable", outcome
    assert "line over 256 KiB" in outcome.detail or "headers are over" in outcome.detail


def test_a_line_too_long_and_a_mail_of_too_many_lines_are_refused(post, table, duel):
    long_line = post.ingest(reply(duel.mail, duel.first).replace(
        b"\n\n", b"\n\n" + b"x" * 300_000 + b"\n", 1))
    many_lines = post.ingest(reply(duel.mail, duel.first).replace(
        b"\n\n", b"\n\n" + b"\n" * 120_000, 1))
    assert (long_line.status, many_lines.status) == ("unreadable", "unreadable")
    assert "a line over 256 KiB" in long_line.detail
    assert "more than 100000 lines" in many_lines.detail


def test_mail_within_the_bounds_is_read_whole(post, table, duel):
    """A long bottom-posted reply under a quote of 1,500 lines is still read."""
    quote = "\n".join(f"> line {i}" for i in range(1500))
    outcome = post.ingest(reply(duel.mail, f"On Sunday Iridescia wrote:\n{quote}\n\n{duel.first}"))
    assert outcome.status == "applied", outcome


def test_a_strangers_mail_is_not_parsed_and_its_records_are_capped(post, table, duel,
                                                                  monkeypatch):
    """L10: every stranger's mail was stored, with no limit, for ever."""
    from server.inbound import ingest as ingest_module

    parsed = []
    monkeypatch.setattr(ingest_module, "with_lines", lambda *a: parsed.append(a) or None)
    monkeypatch.setattr(ingest_module, "STRANGER_RECORDS_PER_HOUR", 3)
    outcomes = [post.ingest(reply(duel.mail, duel.first, sender=f"s{i}@evil.example"))
                for i in range(5)]
    assert [o.status for o in outcomes] == ["dropped"] * 5
    assert parsed == []
    assert [r.sender for r in rows(post.app)] == [f"s{i}@evil.example" for i in range(3)]


def test_records_older_than_the_keeping_days_are_deleted(post, table, duel):
    from datetime import timedelta

    from server.inbound import record

    post.ingest(reply(duel.mail, duel.first))
    db = app_engine(post.app)
    with session_scope(db) as session:
        row = session.exec(select(InboundMessage)).one()
        row.received_at -= timedelta(days=91)
        session.add(row)
    record._last_expiry.clear()
    post.ingest(reply(duel.mail, "hello"))
    assert [r.subject for r in rows(post.app)] == [rows(post.app)[-1].subject]
    assert len(rows(post.app)) == 1


def test_a_mail_that_met_a_database_failure_is_handled_on_the_retry(post, table, duel,
                                                                    monkeypatch):
    """M5: answered 451 after its Message-ID was claimed, the retry was taken for a duplicate
    and the mail was lost."""
    from sqlalchemy.exc import OperationalError

    from server.inbound import handlers

    real_act = handlers.act

    def failing(*args, **kwargs):
        raise OperationalError("UPDATE games", {}, Exception("database is locked"))

    raw = reply(duel.mail, duel.first)
    monkeypatch.setattr(handlers, "act", failing)
    assert post.ingest(raw).status == "temporary"
    monkeypatch.setattr(handlers, "act", real_act)
    retried = post.ingest(raw)
    assert retried.status == "applied", retried


def test_a_refused_join_answers_at_once_on_sqlite(post, table, duel, app):
    """M5: on SQLite every join the lobby refused held the lock for 10 s, then answered 451."""
    import time

    from server.mail.reply_addresses import ReplyBase, join_address
    from server.storage.models import Game, Invitation, utcnow

    with session_scope(app_engine(app)) as session:
        game = session.get(Game, duel.game_id)  # started: the lobby refuses a join
        invitation = Invitation(game_id=game.id, email="cy@example.org",
                                invited_by=duel.player.id, created_at=utcnow())
        session.add(invitation)
        session.flush()
        address = join_address(ReplyBase.parse("play@iridescia.test"),
                               app.config["SECRET_KEY"], invitation.id, game.id,
                               "cy@example.org")
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "Cy <cy@example.org>", address, "join"
    message["Message-ID"] = make_msgid(domain="example.org")
    message.set_content("join")
    started = time.monotonic()
    outcome = post.ingest(bytes(message))
    assert outcome.status == "refused", outcome
    assert time.monotonic() - started < 5  # no lock waited out



def test_a_join_by_mail_makes_no_name_the_api_would_refuse(post, table, app):
    """N2: a From display name holding U+009B or U+202E made the account with it, where
    POST /users answers 422 for that name."""
    from email.headerregistry import Address

    from server.mail.reply_addresses import ReplyBase, join_address
    from server.storage.models import Invitation, User, utcnow

    ada = table.register("Ada")
    game = table._call("post", "/games", ada, seats=2)
    with session_scope(app_engine(app)) as session:
        invitation = Invitation(game_id=game["id"], email="cy@example.org", invited_by=ada.id,
                                created_at=utcnow())
        session.add(invitation)
        session.flush()
        address = join_address(ReplyBase.parse("play@iridescia.test"), app.config["SECRET_KEY"],
                               invitation.id, game["id"], "cy@example.org")
    message = EmailMessage()
    message["From"] = Address("Cy\u202e ekaf\x9b[31m", addr_spec="cy@example.org")
    message["To"], message["Subject"] = address, "join"
    message["Message-ID"] = make_msgid(domain="example.org")
    message.set_content("join")
    refused_by_the_api = table.client.post("/api/v1/users", json={
        "name": "Cy\u202e ekaf\x9b[31m", "email": "cy2@example.org"})
    outcome = post.ingest(bytes(message))
    assert outcome.status == "joined", outcome
    assert refused_by_the_api.status_code == 422
    with session_scope(app_engine(app)) as session:
        name = session.exec(select(User.name).where(User.email == "cy@example.org")).one()
    assert name == "Cy ekaf [31m"
