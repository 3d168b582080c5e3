"""An outbox row becomes an email: text and HTML parts, a stable Message-ID, List-Unsubscribe,
and the headers that thread every email of a game for one recipient (In-Reply-To and
References name the game's first email to them)."""

import functools
import hashlib
from email import policy
from email.headerregistry import HeaderRegistry
from email.message import EmailMessage
from email.utils import format_datetime, parseaddr

from server.http.plain_text import UNSAFE, body_safe, describe, header_safe
from server.mail.settings import MailSettings
from server.picture.png import inline_images


class _CachedHeaderClasses(HeaderRegistry):
    """The standard registry makes a new class with `type()` for every header it parses (17 per
    mail): a fifth of building a message. The class for a name never changes: made once."""

    @functools.cache  # noqa: B019 - one registry for the process, never collected anyway
    def __getitem__(self, name):
        return super().__getitem__(name)


# email.policy.default (headers parsed and checked: CR/LF in a value is refused), faster.
POLICY = policy.default.clone(header_factory=_CachedHeaderClasses())
# What goes on the wire: the same, with CRLF line ends (what smtplib.send_message writes).
WIRE_POLICY = POLICY.clone(linesep="\r\n")


def wire_bytes(message: EmailMessage) -> bytes:
    """The message as an SMTP server receives it, flattened once."""
    return message.as_bytes(policy=WIRE_POLICY)


def message_id(dedupe_key: str, settings: MailSettings) -> str:
    """The Message-ID of the notification `dedupe_key`: stable, so a message sent twice after a
    crash is one message to mail clients, and a later one can name it before it is re-read."""
    digest = hashlib.sha256(dedupe_key.encode()).hexdigest()[:32]
    domain = parseaddr(settings.from_address)[1].rpartition("@")[2] or "iridescia.invalid"
    return f"<{digest}@{domain}>"


def message_headers(row, settings: MailSettings, thread_root: str | None = None,
                    headers: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """The headers of `row`'s email (before its MIME ones), in order: what `build_message` and
    `server.mail.wire.wire_message` both write. See `build_message` for the arguments."""
    headers = dict(headers or {})
    # A name with a CR/LF (from before the API refused one) would make the header check refuse
    # the whole message: it is folded to a space instead.
    values = [("From", settings.from_address), ("To", _address(row.to_email)),
              ("Subject", header_safe(row.subject)), ("Date", format_datetime(row.created_at)),
              ("Message-ID", message_id(row.dedupe_key, settings))]
    replied_to = headers.pop("In-Reply-To", None)  # an answer replies to the player's mail
    headers.pop("References", None)
    references = []
    if thread_root is not None and thread_root != row.dedupe_key:
        references.append(message_id(thread_root, settings))
    if replied_to:
        references.append(replied_to)
    if references:
        values += [("In-Reply-To", references[-1]), ("References", " ".join(references))]
    values += [("X-Iridescia-Key", row.dedupe_key),
               ("List-Unsubscribe", headers.get("List-Unsubscribe") or unsubscribe_header(settings)),
               ("Auto-Submitted", "auto-generated")]
    values += [(name, value) for name, value in headers.items() if name != "List-Unsubscribe"]
    return values


def build_message(row, settings: MailSettings, thread_root: str | None = None,
                  headers: dict[str, str] | None = None) -> EmailMessage:
    """`row` has to_email, subject, text_body, html_body, dedupe_key and created_at.
    `thread_root` is the dedupe key of the game's first email to the same address (None or the
    row's own key when this is that first one). `headers` (server.mail.reply_headers: Reply-To,
    List-Unsubscribe, the In-Reply-To of an answer to a player's mail) are set as given."""
    message = EmailMessage(policy=POLICY)
    for name, value in message_headers(row, settings, thread_root, headers):
        message[name] = value
    message.set_content(body_safe(row.text_body))
    if row.html_body:

        html, images = inline_images(body_safe(row.html_body))
        message.add_alternative(html, subtype="html")
        html_part = message.get_payload()[-1]
        for cid, png in images:  # the board picture, shown by cid: in the HTML
            html_part.add_related(png, "image", "png", cid=f"<{cid}>", filename="board.png",
                                  disposition="inline")
    return message


def _address(address: str) -> str:
    """The To address; one holding a control character (possible only in a row from before the
    API refused them) is not guessed at: the message is parked with the reason."""
    found = UNSAFE.search(address)
    if found is not None:
        raise ValueError(f"the address holds a control character ({describe(found.group())}); "
                         "it cannot be mailed")
    return address


def unsubscribe_header(settings: MailSettings) -> str:
    address = parseaddr(settings.from_address)[1] or "iridescia@localhost"
    return f"<mailto:{address}?subject=unsubscribe>"
