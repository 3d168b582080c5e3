"""The database tables (SQLModel), one module a concern. The schema itself is managed by the
Alembic migrations in ``server/storage/migrations``; a test checks that the two agree.

All times are timezone-aware UTC in Python (stored as UTC on both SQLite and PostgreSQL).
Importing this package registers every table with ``SQLModel.metadata``.
"""

from server.storage.models.accounts import AuditRecord, PageSession, User
from server.storage.models.columns import UTCDateTime, utcnow
from server.storage.models.games import (
    Command,
    Event,
    Game,
    IdempotencyRecord,
    Invitation,
    Message,
    Plan,
    SchedulerTick,
    Seat,
    Seek,
    Snapshot,
    Vacation,
)
from server.storage.models.mail import (
    DEDUPE_KEY_LENGTH,
    InboundMessage,
    MailBounce,
    Outbox,
    dedupe_key,
)
from server.storage.models.webhooks import Webhook, WebhookDelivery

__all__ = [
    "DEDUPE_KEY_LENGTH", "AuditRecord", "Command", "Event", "Game", "IdempotencyRecord",
    "InboundMessage", "Invitation", "MailBounce", "Message", "Outbox", "PageSession", "Plan",
    "SchedulerTick", "Seat", "Seek", "Snapshot", "UTCDateTime", "User", "Vacation", "Webhook",
    "WebhookDelivery", "dedupe_key", "utcnow",
]
