"""An outbox row becomes an email: text and HTML parts, a stable Message-ID, List-Unsubscribe,
and the headers that thread every email of a game for one recipient (In-Reply-To and
References name the game's first email to them)."""

import hashlib
from email.message import EmailMessage
from email.utils import format_datetime, parseaddr

from server.mail.settings import MailSettings


def message_id(dedupe_key: str, settings: MailSettings) -> str:
    """The Message-ID of the notification `dedupe_key`: stable, so a message sent twice after a
    crash is one message to mail clients, and a later one can name it before it is re-read."""
    digest = hashlib.sha256(dedupe_key.encode()).hexdigest()[:32]
    domain = parseaddr(settings.from_address)[1].rpartition("@")[2] or "iridescia.invalid"
    return f"<{digest}@{domain}>"


def build_message(row, settings: MailSettings, thread_root: str | None = None) -> EmailMessage:
    """`row` has to_email, subject, text_body, html_body, dedupe_key and created_at.
    `thread_root` is the dedupe key of the game's first email to the same address (None or the
    row's own key when this is that first one)."""
    message = EmailMessage()
    message["From"] = settings.from_address
    message["To"] = row.to_email
    message["Subject"] = row.subject
    message["Date"] = format_datetime(row.created_at)
    message["Message-ID"] = message_id(row.dedupe_key, settings)
    if thread_root is not None and thread_root != row.dedupe_key:
        root = message_id(thread_root, settings)
        message["In-Reply-To"] = root
        message["References"] = root
    message["X-Iridescia-Key"] = row.dedupe_key
    message["List-Unsubscribe"] = unsubscribe_header(settings)
    message["Auto-Submitted"] = "auto-generated"
    message.set_content(row.text_body)
    if row.html_body:
        from server.web.picture import inline_images

        html, images = inline_images(row.html_body)
        message.add_alternative(html, subtype="html")
        html_part = message.get_payload()[-1]
        for cid, png in images:  # the board picture, shown by cid: in the HTML
            html_part.add_related(png, "image", "png", cid=f"<{cid}>", filename="board.png",
                                  disposition="inline")
    return message


def unsubscribe_header(settings: MailSettings) -> str:
    address = parseaddr(settings.from_address)[1] or "iridescia@localhost"
    return f"<mailto:{address}?subject=unsubscribe>"
