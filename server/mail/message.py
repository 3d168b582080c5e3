"""An outbox row becomes an email: text and HTML parts, a stable Message-ID, List-Unsubscribe."""

import hashlib
from email.message import EmailMessage
from email.utils import format_datetime, parseaddr

from server.mail.settings import MailSettings


def build_message(row, settings: MailSettings, headers: dict[str, str] | None = None
                  ) -> EmailMessage:
    """`row` has to_email, subject, text_body, html_body, dedupe_key and created_at; `headers`
    (server.inbound.outgoing: Reply-To, List-Unsubscribe, ...) are set as given."""
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
    headers = headers or {}
    message["List-Unsubscribe"] = headers.get("List-Unsubscribe") or unsubscribe_header(settings)
    message["Auto-Submitted"] = "auto-generated"
    for name, value in headers.items():
        if name != "List-Unsubscribe":
            message[name] = value
    message.set_content(row.text_body)
    if row.html_body:
        message.add_alternative(row.html_body, subtype="html")
    return message


def unsubscribe_header(settings: MailSettings) -> str:
    address = parseaddr(settings.from_address)[1] or "iridescia@localhost"
    return f"<mailto:{address}?subject=unsubscribe>"
