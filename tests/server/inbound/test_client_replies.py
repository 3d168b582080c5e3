"""A corpus of replies in the structure of each mail client named in issue 26 (Gmail in several
languages and as HTML, Outlook with localized headers, QQ Mail, Foxmail, Yahoo Mail for Android,
Thunderbird and mutt bottom-posting, Apple Mail), and of the machine mail that must never be
answered (out-of-office replies in nine languages, Lotus Notes, auto-reply and list headers, the
null sender, a DSN). Each is written by us under fixtures/replies/, sent to the embedded receiver
over real SMTP as the reply to a player's game mail, and must either apply exactly the command
typed (nothing of its quote: our mail, quoted, lists commands that are legal too) or be ignored
with no answer and nothing played."""

import quopri
from email.utils import make_msgid
from html import escape
from pathlib import Path

import pytest
from sqlmodel import select

from server.storage.db import app_engine, session_scope
from server.storage.models import InboundMessage
from tests.server.inbound.post import text_of, typeable

FIXTURES = Path(__file__).parent / "fixtures" / "replies"
NAMES = sorted(path.stem for path in FIXTURES.glob("*.eml"))


def written(name: str, duel) -> tuple[bytes, str, str]:
    """The fixture filled in for this game: (raw mail, expectation, envelope sender)."""
    quote = text_of(duel.mail).rstrip("\n")
    unmarked = quote.split("\n", 2)[2] if quote.startswith("## ") else quote
    others = [line for line in typeable(duel.mail) if line != duel.first]
    fill = {
        "{FROM}": duel.player.email, "{TO}": str(duel.mail["Reply-To"]),
        "{SUBJECT}": str(duel.mail["Subject"]), "{MSGID}": make_msgid(domain="example.org"),
        "{TYPED}": duel.first, "{QUOTE}": quote, "{QUOTE_OLD}": unmarked,
        "{QUOTE_GT}": "\n".join(("> " + line).rstrip() for line in unmarked.splitlines()),
        "{QUOTE_HTML}": "<br>".join(escape(line) for line in unmarked.splitlines()),
        "{QUOTE_RUN_ON}": "   ".join(line.strip() for line in unmarked.splitlines()),
        "{QUOTED_COMMAND}": others[0] if others else duel.first,
    }
    text = (FIXTURES / f"{name}.eml").read_text(encoding="utf-8")
    for key, value in fill.items():
        text = text.replace(key, value)
    head, _, body = text.partition("\n\n")
    expect, mail_from = "applied", duel.player.email
    kept = []
    for line in head.splitlines():
        if line.startswith("X-Fixture-Expect:"):
            expect = line.partition(":")[2].strip()
        elif line.startswith("X-Fixture-Mail-From:"):
            mail_from = ""
        else:
            kept.append(line)
    encoded = body.encode("utf-8")
    if "Content-Transfer-Encoding: quoted-printable" in kept:  # as those clients send it
        encoded = quopri.encodestring(encoded)
    return ("\n".join(kept) + "\n\n").encode("utf-8") + encoded, expect, mail_from


def row_of(app, raw: bytes) -> InboundMessage | None:
    message_id = next(line.partition(":")[2].strip() for line in raw.decode().splitlines()
                      if line.lower().startswith("message-id:"))
    with session_scope(app_engine(app)) as session:
        return session.exec(select(InboundMessage)
                            .where(InboundMessage.message_key == message_id)).first()


def test_the_corpus_covers_every_client_and_machine_named_in_issue_26():
    for client in ("gmail_en", "gmail_pt_html", "outlook_ja", "outlook_zh", "outlook_he",
                   "outlook_sv", "outlook_pl", "outlook_ru", "qq_mail", "foxmail",
                   "yahoo_android", "yahoo_android_run_on", "thunderbird_bottom", "mutt_bottom",
                   "lotus_notes", "precedence_auto_reply", "list_id_only", "null_envelope_sender",
                   "return_path_null", "x_auto_response_suppress_alone"):
        assert client in NAMES
    assert len([n for n in NAMES if n.startswith("oof_")]) >= 9


@pytest.mark.parametrize("name", NAMES)
def test_a_client_reply_over_smtp_applies_only_what_was_typed_or_is_ignored(
        name, post, table, duel, receiver):
    raw, expect, mail_from = written(name, duel)
    version, sent = table.game(duel.game_id).version, post.count()
    post.send_smtp(raw, str(duel.mail["Reply-To"]), mail_from)
    row = row_of(post.app, raw)
    if expect == "applied":
        assert row is not None and (row.outcome, row.applied) == ("applied", [duel.first]), (
            row and (row.outcome, row.detail, row.applied))
        return
    post.deliver()
    assert post.count() == sent, "machine mail was answered"
    assert table.game(duel.game_id).version == version, "machine mail was played"
    assert row is not None and row.outcome not in ("applied", "stopped", "answered", "refused")


def test_every_mail_the_server_sends_starts_with_the_reply_marker(post, table, duel):
    """The marker is the last line of defence for clients that quote without `>` in a language
    the classifier does not know: the game mail and the answer to a reply both carry it."""
    from server.inbound.quotes import REPLY_MARKER
    from tests.server.inbound.conftest import answer_to
    from tests.server.inbound.post import reply

    assert text_of(duel.mail).startswith(REPLY_MARKER)
    post.ingest(reply(duel.mail, "help"))
    post.deliver()
    assert answer_to(post, duel.player.email).startswith(REPLY_MARKER)
    html = duel.mail.get_body(preferencelist=("html",))
    assert html is None or REPLY_MARKER in html.get_content()
