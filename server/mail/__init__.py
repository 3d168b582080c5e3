"""Mail delivery: SMTP when `IRIDESCIA_SMTP_URL` is set, otherwise `.eml` files on disk."""

from server.mail.settings import MailSettings, SmtpSettings, SmtpUrlError
from server.mail.transport import (
    DeliveryError,
    EmlTransport,
    PermanentDeliveryError,
    SmtpTransport,
    TemporaryDeliveryError,
    transport_for,
)

__all__ = [
    "DeliveryError",
    "EmlTransport",
    "MailSettings",
    "PermanentDeliveryError",
    "SmtpSettings",
    "SmtpTransport",
    "SmtpUrlError",
    "TemporaryDeliveryError",
    "transport_for",
]
