"""An outbox row as the bytes an SMTP server receives, written directly.

`server.mail.message.build_message` builds an `EmailMessage` under `email.policy.default`. For a
game notice with its board picture, building it and flattening it (`as_bytes`) cost about 12 ms
of the 15 ms a delivery took (bench/mail, cProfile): the policy parses every header it is given
back into objects, `set_content` and the generator walk the picture's 220 KB of base64 line by
line, and the generator scans each part for its boundary. A notice always has one of three
shapes (text; text and HTML; text and HTML with the picture inline), so `wire_message` writes
it straight to bytes: headers of printable ASCII as they are (folded at spaces past 78
columns), a non-ASCII subject as RFC 2047 encoded words, each text part 7bit (8bit when it is not
ASCII) with lines of at most 998 bytes and base64 otherwise, the picture as base64. Anything else (a
From name or an address outside ASCII, a header with a control character) is built by the email
package as before. tests/server/mail/test_wire_message.py holds the two equal, header by header
and part by part, as a mail client reads them.
"""

from __future__ import annotations

import base64
import functools
import re
import secrets
from email import message_from_bytes
from email.message import EmailMessage
from email.utils import parseaddr

from server.http.plain_text import body_safe
from server.mail.envelope import envelope_sender
from server.mail.message import POLICY, WIRE_POLICY, build_message, message_headers, wire_bytes
from server.mail.settings import MailSettings
from server.picture.png import BOARD_CID

CRLF = b"\r\n"
_PRINTABLE = re.compile(r"[\x20-\x7e]*")
_FOLD_AT = 78  # columns (RFC 5322's "should"; 998 is the limit)
_LINE_LIMIT = 998
_BASE64_LINE = 76


class WireMessage:
    """One email for one recipient: its envelope, its bytes (CRLF line ends), and its dedupe key.
    Read like the `EmailMessage` it is (``message["To"]``, ``get_body``): parsed when first
    asked, which sending never does."""

    def __init__(self, sender: str, recipient: str, key: str, data: bytes,
                 parsed: EmailMessage | None = None) -> None:
        self.sender, self.recipient, self.key, self.data = sender, recipient, key, data
        self._parsed = parsed

    @property
    def message(self) -> EmailMessage:
        if self._parsed is None:
            self._parsed = message_from_bytes(self.data, policy=POLICY)
        return self._parsed

    def __getitem__(self, name: str):
        return self.message[name]

    def get(self, name: str, default=None):
        return self.message.get(name, default)

    def get_body(self, *preference):
        return self.message.get_body(*preference)

    def __bytes__(self) -> bytes:
        return self.data


class _Unusual(Exception):
    """Not a shape written here: the email package builds it."""


def wire_message(row, settings: MailSettings, thread_root: str | None = None,
                 headers: dict[str, str] | None = None) -> WireMessage:
    """`build_message`'s email, as bytes; raises what it would for a message that cannot be
    built."""
    values = message_headers(row, settings, thread_root, headers)
    try:
        data = _header_block(values) + _body(row)
    except _Unusual:
        message = build_message(row, settings, thread_root, headers)
        return WireMessage(envelope_sender(row, settings, message["From"].addresses[0].addr_spec),
                           message["To"].addresses[0].addr_spec, row.dedupe_key,
                           wire_bytes(message), message)
    return WireMessage(envelope_sender(row, settings, _sender(settings.from_address)),
                       row.to_email, row.dedupe_key, data)


@functools.cache
def _sender(from_address: str) -> str:
    address = parseaddr(from_address)[1]
    if not address or not address.isascii():
        raise _Unusual
    return address


def _header_block(values: list[tuple[str, str]]) -> bytes:
    lines = []
    for name, value in values:
        if _PRINTABLE.fullmatch(value):
            line = f"{name}: {value}"
            lines.append(line if len(line) <= _FOLD_AT else _folded(name, value))
        elif name == "Subject" and value.isprintable():
            # Encoded words, as the package writes them (one header: cheap enough).
            header = WIRE_POLICY.header_factory(name, value)
            lines.append(header.fold(policy=WIRE_POLICY).rstrip("\r\n"))
        else:
            raise _Unusual
    return ("\r\n".join(lines) + "\r\nMIME-Version: 1.0\r\n").encode("ascii")


def _folded(name: str, value: str) -> str:
    """A long header folded at spaces: unfolded (the CRLFs taken out) it is the value again."""
    line, lines, words = f"{name}:", [], 0
    for word in value.split(" "):
        if word and words and len(line) + 1 + len(word) > _FOLD_AT:
            lines.append(line)
            line, words = "", 0
        line += " " + word
        words += 1 if word else 0
    lines.append(line)
    if any(len(part) > _LINE_LIMIT for part in lines):
        raise _Unusual
    return "\r\n".join(lines)


def _body(row) -> bytes:
    text = _text_part("plain", row.text_body)
    if not row.html_body:
        return text
    html, images = _inline_images(row.html_body)
    html_part = _text_part("html", html)
    if images:
        related = [html_part] + [_image_part(cid, encoded) for cid, encoded in images]
        html_part = _multipart("related", related)
    return _multipart("alternative", [text, html_part])


_DATA_URI = 'src="data:image/png;base64,'


def _inline_images(html: str) -> tuple[str, list[tuple[str, str]]]:
    """`server.picture.png.inline_images`, keeping each picture's base64 as it is (its lines are
    cut for the part, not decoded and encoded again): the same cids, the same bytes. (A regular
    expression over the 220 KB of a picture's HTML cost more than the rest of this module.)"""
    pieces, images, start = [], [], 0
    while (found := html.find(_DATA_URI, start)) != -1:
        begin = found + len(_DATA_URI)
        end = html.find('"', begin)
        if end == -1:
            break
        encoded = html[begin:end]
        try:
            if not encoded:
                raise ValueError("empty")
            base64.b64decode(encoded, validate=True)
        except ValueError:  # not a picture of ours: left as it is, as inline_images would
            pieces.append(html[start:begin])
            start = begin
            continue
        cid = BOARD_CID if not images else f"image{len(images)}@iridescia"
        images.append((cid, encoded))
        pieces += [html[start:found], f'src="cid:{cid}"']
        start = end + 1
    pieces.append(html[start:])
    return "".join(pieces), images


def _text_part(subtype: str, text: str) -> bytes:
    """A text part, its body ending in CRLF (as `set_content` writes one); no control
    character but the line ends (`body_safe`)."""
    lines = body_safe(text).encode("utf-8").splitlines()
    if all(len(line) <= _LINE_LIMIT for line in lines):
        # 8bit as the package writes short non-ASCII lines: an .eml file stays readable.
        encoding, body = b"7bit" if text.isascii() else b"8bit", CRLF.join(lines) + CRLF
    else:
        encoding, body = b"base64", _base64(b"\n".join(lines) + b"\n")
    return (b'Content-Type: text/' + subtype.encode() + b'; charset="utf-8"\r\n'
            b"Content-Transfer-Encoding: " + encoding + CRLF + CRLF + body)


def _image_part(cid: str, encoded: str) -> bytes:
    data = encoded.encode("ascii")
    lines = [data[i:i + _BASE64_LINE] for i in range(0, len(data), _BASE64_LINE)]
    return (b"Content-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n"
            b'Content-Disposition: inline; filename="board.png"\r\n'
            b"Content-ID: <" + cid.encode("ascii") + b">\r\n\r\n" + CRLF.join(lines) + CRLF)


def _base64(data: bytes) -> bytes:
    return base64.encodebytes(data).replace(b"\n", CRLF)  # lines of 76 characters


def _multipart(subtype: str, parts: list[bytes]) -> bytes:
    boundary = b"=_iridescia_" + secrets.token_hex(16).encode()
    while any(boundary in part for part in parts):  # (base64 never holds "_")
        boundary = b"=_iridescia_" + secrets.token_hex(16).encode()
    delimiter = CRLF + b"--" + boundary + CRLF
    return (b"Content-Type: multipart/" + subtype.encode() + b';\r\n boundary="' + boundary + b'"'
            + CRLF + CRLF + b"--" + boundary + CRLF + delimiter.join(parts)
            + CRLF + b"--" + boundary + b"--" + CRLF)
