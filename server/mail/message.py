"""An outbox row becomes an email: text and HTML parts, a stable Message-ID, List-Unsubscribe."""

import hashlib
from email.message import EmailMessage
from email.utils import format_datetime, parseaddr

from server.mail.settings import MailSettings


def build_message(row, settings: MailSettings) -> EmailMessage:
    """`row` has to_email, subject, text_body, html_body, dedupe_key and created_at."""
    message = EmailMessage()
    message["From"] = settings.from_address
    message["To"] = row.to_email
    message["Subject"] = row.subject
    message["Date"] = format_datetime(row.created_at)
    # Stable per notification, so a message sent twice after a crash is one message to clients.
    digest = hashlib.sha256(row.dedupe_key.encode()).hexdigest()[:32]
    domain = parseaddr(settings.from_address)[1].rpartition("@")[2] or "iridescia.invalid"
    message["Message-ID"] = f"<{digest}@{domain}>"
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
