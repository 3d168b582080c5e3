"""The email written straight to bytes (server/mail/wire.py) reads, in a mail client's parser,
exactly as the one the email package builds (server/mail/message.py): every header, every
part's type, parameters and content, the picture's bytes. And what the fast path does not write
(unusual headers) still goes out, built by the email package."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from email import message_from_bytes, policy
from types import SimpleNamespace

import pytest

from server.mail.message import build_message, wire_bytes
from server.mail.settings import MailSettings
from server.mail.wire import wire_message
from server.picture.png import data_uri

PNG = bytes(range(256)) * 300  # not a picture, but bytes the base64 must carry exactly
SETTINGS = MailSettings(from_address="Iridescia <games@iridescia.test>")
REPLY = {"Reply-To": "play+k3x9.12.abcdef@iridescia.test",
         "List-Unsubscribe": "<mailto:games+prefs.1.0123456789abcdef@iridescia.test?subject="
                             "unsubscribe>, <https://iridescia.test/unsubscribe/1.0123456789ab>",
         "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}


def _row(subject="Gems of Iridescia k3x9q2ab: your turn", text="Your turn, Ada.\n\nmove 2c\n",
         html: str | None = "<p>Your turn</p>", to="ada@example.org", key="turn:k3x9q2ab:12:0"):
    return SimpleNamespace(to_email=to, subject=subject, text_body=text, html_body=html,
                           dedupe_key=key, created_at=datetime(2026, 12, 1, 12, 0, tzinfo=UTC))


def _read(data: bytes):
    message = message_from_bytes(data, policy=policy.default)
    # Stripped: the package folds a first word too long for the header's line onto a line of its
    # own, which its parser reads back with a leading space.
    headers = [(name, str(value).strip()) for name, value in message.items()]
    parts = []
    for part in message.walk():
        params = {k: v for k, v in part.get_params(header="content-type") or [] if k != "boundary"}
        content = None if part.is_multipart() else part.get_content()
        if isinstance(content, str):
            content = content.replace("\r\n", "\n")
        parts.append((part.get_content_type(), params, part.get_content_disposition(),
                      part.get_filename(), part["Content-ID"], content))
    # (The order of headers means nothing to a reader: MIME-Version comes last from the package.)
    # How a part is encoded (7bit, 8bit, base64) is not what it says.
    return sorted(h for h in headers if h[0] != "Content-Transfer-Encoding"
                  and (h[0] != "Content-Type" or "boundary" not in h[1])), parts


def _same(row, thread_root=None, headers=None) -> bytes:
    fast = wire_message(row, SETTINGS, thread_root, headers)
    library = build_message(row, SETTINGS, thread_root, headers)
    assert _read(fast.data) == _read(wire_bytes(library))
    assert (fast.sender, fast.recipient, fast.key) == ("games@iridescia.test", row.to_email,
                                                       row.dedupe_key)
    return fast.data


PICTURE_HTML = f'<p>The board</p><img src="{data_uri(PNG)}" alt="The board of game k3x9q2ab">'


@pytest.mark.parametrize("row", [
    _row(),
    _row(html=None),
    _row(html=PICTURE_HTML),
    _row(subject="Gems of Iridescia k3x9q2ab is over: Zoë and Ægir won " + "très " * 30,
         text="Zoë played «move 2c».\n" * 40, html="<p>Zoë — 💎</p>\n" + PICTURE_HTML),
    _row(text="a line far longer than a mail line may be " * 40 + "\n", html="x" * 5000),
    _row(text="no newline at the end", html="<p>\r\nwindows\r\nline ends</p>"),
    _row(html=PICTURE_HTML + '<img src="data:image/png;base64,not*base64">' + PICTURE_HTML
         + '<img src="data:image/png;base64,">'),
    _row(text="form\x0cfeed and \x0bvertical tab stay in their line\n"),
])
def test_the_written_email_reads_as_the_built_one(row):
    _same(row)


def test_thread_and_reply_headers_read_the_same_and_long_ones_are_folded():
    data = _same(_row(), thread_root="start:k3x9q2ab:0", headers=dict(REPLY, **{
        "In-Reply-To": "<CAF1234@mail.example.org>"}))
    header_lines = data.split(b"\r\n\r\n", 1)[0].split(b"\r\n")
    # Within 78 columns, but for a word longer than that (after its header's name).
    assert all(len(line) <= 78 or line.lstrip().count(b" ") <= 1 for line in header_lines)
    assert len(header_lines) > len({line.split(b":")[0] for line in header_lines
                                    if not line.startswith(b" ")})  # some were folded


def test_random_texts_read_the_same():
    rng = random.Random(7)
    alphabet = "abc xyz\n\t<>&é—💎\r" + "".join(chr(c) for c in range(0x20, 0x7f))
    for _ in range(60):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 400)))
        subject = "".join(rng.choice(alphabet.replace("\n", "").replace("\r", ""))
                          for _ in range(rng.randrange(1, 120)))
        _same(_row(subject=subject, text=text, html=rng.choice([None, text, PICTURE_HTML])))


def test_what_the_fast_path_does_not_write_is_built_by_the_email_package():
    settings = MailSettings(from_address="Iridéscia <games@iridescia.test>")
    row = _row()
    fast = wire_message(row, settings)
    assert fast.data.startswith(b"From: =?utf-8?")  # the name encoded by the email package
    message = message_from_bytes(fast.data, policy=policy.default)
    assert str(message["From"]) == "Iridéscia <games@iridescia.test>"
    assert fast.sender == "games@iridescia.test"
    assert message.get_body(("plain",)).get_content().replace("\r\n", "\n") == row.text_body


def test_an_address_with_a_control_character_is_refused_as_before():
    with pytest.raises(ValueError, match="control character"):
        wire_message(_row(to="ada@example.org\r\nBcc: eve@example.org"), SETTINGS)
