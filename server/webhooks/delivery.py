"""The scheduler's `webhooks` job: POST the deliveries due, with the outbox's machinery.

As for mail (server/mail/outbox.py, with the leases and bookkeeping of server/delivery/leases.py):
due deliveries are claimed in small batches (`FOR UPDATE SKIP LOCKED` on PostgreSQL, SQLite's
write lock), each claim a lease that counts an attempt and is renewed, fenced by that count,
just before the POST, so two schedulers never send one delivery at once; the POST is made
outside any transaction and its outcome marked in a transaction of its own. A failure worth
retrying (no answer, a 5xx, a 429, a name that does not resolve) waits
`server.delivery.backoff.retry_delay`; after `MAX_ATTEMPTS`, or at once for an answer that will not change (a 404, a 3xx, an address the
SSRF guard refuses), the delivery is parked for an operator (`iridescia-server outbox`).

The deliveries of a claim are POSTed side by side, one sender per webhook (up to `SENDERS` at
once; a webhook's own deliveries keep their order), each within its own deadline
(server/webhooks/http.py): one slow receiver holds only its own deliveries, never the others'
(issue 32, M6).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import or_, update
from sqlmodel import select

from server.delivery.backoff import MAX_ATTEMPTS, retry_delay
from server.delivery.leases import CLAIM_BATCH, CLAIM_LEASE, bookkeeping, release_leases
from server.storage.db import read_only, session_scope
from server.storage.models import Game, Seat, Webhook, WebhookDelivery
from server.webhooks import addresses, http, payload, signing

log = logging.getLogger(__name__)
# POSTs made at once: a claim's deliveries (CLAIM_BATCH) go out side by side.
SENDERS = CLAIM_BATCH
_TABLE = WebhookDelivery.__table__


@dataclass
class DeliveryReport:
    sent: list[int] = field(default_factory=list)
    retrying: list[int] = field(default_factory=list)
    parked: list[int] = field(default_factory=list)
    skipped: list[int] = field(default_factory=list)  # taken over by another scheduler


@dataclass
class _Claimed:
    """A leased delivery and its webhook, as plain values (no session outlives the claim)."""

    id: int
    attempts: int
    game_id: str
    version: int
    event: str
    body: str | None
    url: str
    format: str
    secret: str
    user_id: int
    webhook_id: int


def _claim(session, now: datetime, count: int) -> list[_Claimed]:
    rows = list(session.exec(
        select(WebhookDelivery, Webhook)
        .join(Webhook, Webhook.id == WebhookDelivery.webhook_id)
        .where(WebhookDelivery.status == "pending")
        .where(or_(WebhookDelivery.next_attempt_at.is_(None),
                   WebhookDelivery.next_attempt_at <= now))
        .order_by(WebhookDelivery.id).limit(count)
        .with_for_update(skip_locked=True, of=WebhookDelivery)))
    claimed = []
    for row, hook in rows:
        row.attempts += 1
        row.next_attempt_at = now + CLAIM_LEASE
        session.add(row)
        claimed.append(_Claimed(row.id, row.attempts, row.game_id, row.version, row.event,
                                row.body, hook.url, hook.format, hook.secret, hook.user_id,
                                hook.id))
    return claimed


def _held(item: _Claimed):
    return (_TABLE.c.id == item.id) & (_TABLE.c.attempts == item.attempts) \
        & (_TABLE.c.status == "pending")


def _render(engine, items: list[_Claimed]) -> dict[int, str | Exception]:
    """The body of each delivery not rendered yet, from the game at its version."""
    todo = [item for item in items if item.body is None]
    if not todo:
        return {}
    bodies: dict[int, str | Exception] = {}
    with session_scope(read_only(engine)) as session:
        for item in todo:
            try:
                game = session.get(Game, item.game_id)
                seat = session.exec(select(Seat.seat).where(
                    Seat.game_id == item.game_id, Seat.user_id == item.user_id)).first()
                document = payload.document(session, game, item.version, item.event, seat, item.id)
                bodies[item.id] = payload.body(document, item.format).decode()
            except Exception as error:  # one that cannot be rendered must not stop the rest
                log.exception("webhook delivery %d cannot be rendered", item.id)
                bodies[item.id] = error
    return bodies


def deliver_webhooks(engine, clock: Callable[[], datetime], rng: random.Random | None = None,
                     limit: int = 100, allow_private: bool = False,
                     timeout: float = 10.0,
                     stopping: Callable[[], bool] = lambda: False) -> DeliveryReport:
    """POST up to ``limit`` due deliveries; see the module's docstring. No more is claimed once
    ``stopping()`` says the scheduler is stopping."""
    rng = rng or random.Random()
    report = DeliveryReport()
    remaining = limit
    while remaining > 0 and not stopping():
        with session_scope(engine) as session:
            items = _claim(session, clock(), min(CLAIM_BATCH, remaining))
        if not items:
            break
        remaining -= len(items)
        unstarted = list(items)
        try:
            bodies = _render(engine, items)
            _send_side_by_side(engine, clock, rng, unstarted, bodies, report, allow_private,
                               timeout)
        finally:
            _release(engine, unstarted, clock())
    return report


def _send_side_by_side(engine, clock, rng, unstarted: list[_Claimed], bodies: dict,
                       report: DeliveryReport, allow_private: bool, timeout: float) -> None:
    """Send the items of ``unstarted``, each webhook's in order and the webhooks side by side
    (taking each item off as it starts); the first unexpected error is raised once all ended."""
    by_webhook: dict[int, list[_Claimed]] = {}
    for item in unstarted:
        by_webhook.setdefault(item.webhook_id, []).append(item)

    def send(items: list[_Claimed]) -> None:
        for item in items:
            unstarted.remove(item)
            _send_one(engine, clock, rng, item, bodies.get(item.id), report, allow_private,
                      timeout)

    with ThreadPoolExecutor(max_workers=min(SENDERS, len(by_webhook)),
                            thread_name_prefix="webhook") as senders:
        futures = [senders.submit(send, items) for items in by_webhook.values()]
    for future in futures:
        future.result()


def _send_one(engine, clock, rng, item: _Claimed, rendered, report: DeliveryReport,
              allow_private: bool, timeout: float) -> None:
    failure: Exception | None = None
    temporary = False
    values: dict = {}
    if isinstance(rendered, Exception):
        failure = rendered
    else:
        if rendered is not None:
            item.body = values["body"] = rendered
        try:
            target = addresses.check(item.url, allow_private)  # again: DNS may have changed
        except addresses.WebhookUrlError as error:
            failure, temporary = error, error.temporary
        else:
            with bookkeeping(engine) as connection:
                renewed = connection.execute(update(_TABLE).where(_held(item)).values(
                    next_attempt_at=clock() + CLAIM_LEASE)).rowcount == 1
            if not renewed:
                log.warning("webhook delivery %d: its lease ran out and another scheduler took "
                            "it over; not sent here", item.id)
                report.skipped.append(item.id)
                return
            body = item.body.encode()
            headers = {**signing.headers(item.secret, int(clock().timestamp()), body),
                       "X-Iridescia-Event": item.event, "X-Iridescia-Delivery": str(item.id)}
            try:
                http.post(target, body, headers, timeout)
            except http.DeliveryFailed as error:
                failure, temporary = error, error.temporary
    now = clock()
    if failure is None:
        values.update(status="sent", sent_at=now, last_error=None)
        report.sent.append(item.id)
    elif temporary and item.attempts < MAX_ATTEMPTS:
        values.update(last_error=str(failure)[:2000],
                      next_attempt_at=now + retry_delay(item.attempts, rng))
        report.retrying.append(item.id)
        log.warning("webhook delivery %d failed (attempt %d), retrying at %s: %s", item.id,
                    item.attempts, values["next_attempt_at"].isoformat(), failure)
    else:
        values.update(last_error=str(failure)[:2000], status="parked")
        report.parked.append(item.id)
        log.error("webhook delivery %d parked after %d attempt(s): %s (see `iridescia-server "
                  "outbox`)", item.id, item.attempts, failure)
    with bookkeeping(engine) as connection:
        connection.execute(update(_TABLE).where(_TABLE.c.id == item.id).values(**values))


def _release(engine, items: list[_Claimed], now: datetime) -> None:
    release_leases(engine, _TABLE, items, _held, now, "webhook deliveries")


def list_deliveries(session, status: str | None = "parked") -> list[WebhookDelivery]:
    statement = select(WebhookDelivery).order_by(WebhookDelivery.id)
    if status is not None:
        statement = statement.where(WebhookDelivery.status == status)
    return list(session.exec(statement))


def retry_parked(session, now: datetime, ids: list[int] | None = None) -> list[WebhookDelivery]:
    """Put parked deliveries (all, or those named) back in the queue, due now."""
    statement = select(WebhookDelivery).where(WebhookDelivery.status == "parked")
    if ids:
        statement = statement.where(WebhookDelivery.id.in_(ids))
    rows = list(session.exec(statement))
    for row in rows:
        row.status, row.attempts, row.next_attempt_at = "pending", 0, now
        session.add(row)
    session.commit()
    return rows
