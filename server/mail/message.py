"""An outbox row becomes an email: text and HTML parts, a stable Message-ID, List-Unsubscribe."""

import hashlib
from email.message import EmailMessage
from email.utils import format_datetime, parseaddr

from server.mail.settings import MailSettings
from server.plain_text import UNSAFE, describe, header_safe


def build_message(row, settings: MailSettings) -> EmailMessage:
    """`row` has to_email, subject, text_body, html_body, dedupe_key and created_at."""
    message = EmailMessage()
    message["From"] = settings.from_address
    message["To"] = _address(row.to_email)
    # A name with a CR/LF (from before the API refused one) would make the header check refuse
    # the whole message: it is folded to a space instead.
    message["Subject"] = header_safe(row.subject)
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
        message.add_alternative(row.html_body, subtype="html")
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
