"""One leased message at a time: made ready (rendered if it was queued unrendered, built into
bytes), sent, and its outcome decided; the SMTP exchange of one overlapping the bookkeeping
around it.

`Sender` sends in a thread of its own, one message at a time, in two steps. Profiled before
(bench/mail, 17 ms a mail): the SMTP exchange 7.0 ms (4.7 of it waiting for the server's
replies), building the bytes 2.7 ms, the commit that renews the lease and writes the previous
outcome 2.1 ms, all one after the other. Now, while the sender sends a message's envelope and
lines, the delivery run commits that message's lease renewal with the previous message's
outcome; the final ".", which is what delivers the message, is sent only after that commit. And
while the server answers that ".", the next message's bytes are built. A crash therefore still
leaves at most one delivered message with its outcome unwritten (resent once, same Message-ID);
a message whose lease was lost during its lines is dropped before its final line.

A notice's board picture is drawn by Pillow (server/picture/raster.py, ~10 ms on a quiet
machine, once per game version: server/picture/cache.py; it was resvg's 100 ms before), which
holds the interpreter's lock while it draws: rendering beside a send would hold up that send's
replies for as long. A message to render therefore waits until the one on the wire is done, and
is rendered just before it is sent, not with the rest of its batch.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

from server.delivery.backoff import MAX_ATTEMPTS, retry_delay
from server.delivery.leases import Outcome
from server.mail.transport import DeliveryError
from server.mail.wire import WireMessage, wire_message
from server.notifications import render_messages
from server.storage.db import read_only, session_scope
from server.storage.models import Outbox

log = logging.getLogger(__name__)


class RenderingFailed(Exception):
    """Reading the games for rendering failed (not a fault of the messages): retried."""

    temporary = True


def words(session, rows: list[Outbox]) -> dict[int, tuple[str, str, str] | Exception]:

    return render_messages(session, rows)


def render(engine, row: Outbox) -> tuple[str, str, str] | Exception:
    """The words of a notice queued unrendered (an error when it cannot be rendered)."""
    try:
        with session_scope(read_only(engine)) as session:
            return words(session, [row])[row.id]
    except Exception as error:  # the database blinked: not the message's fault, retry it
        log.exception("could not render mail %s; retrying it later", row.dedupe_key)
        return RenderingFailed(str(error))


@dataclass
class Ready:
    """A claimed message made ready to send: its bytes, or why it cannot be sent."""

    row: Outbox
    attempts: int
    rendered: tuple[str, str, str] | None = None  # words rendered now, stored with the outcome
    message: WireMessage | None = None
    failure: Exception | None = None
    permanent: bool = True  # a failure before sending that retrying would not cure


def make_ready(engine, row: Outbox, settings, thread_root: str | None,
               headers: dict | None) -> Ready:
    ready = Ready(row, row.attempts)
    if row.text_body is None:
        rendered = render(engine, row)
        if isinstance(rendered, Exception):
            # A message that cannot be rendered (a bug, a version the game does not have) is
            # parked like one that cannot be built; a database that failed while rendering is
            # retried.
            ready.failure = rendered
            ready.permanent = not isinstance(rendered, RenderingFailed)
            return ready
        ready.rendered = rendered
        row.subject, row.text_body, row.html_body = rendered
    try:
        ready.message = wire_message(row, settings, thread_root, headers)
    except Exception as error:  # a message that cannot be built would block the queue
        log.exception("mail %s to %s cannot be built", row.dedupe_key, row.to_email)
        ready.failure = error
    return ready


def outcome(ready: Ready, now, rng, report) -> Outcome:
    """What ``ready`` is marked with after its send (or its failure to get that far), and the
    report's line for it."""
    row_id, key, to, attempts = ready.row.id, ready.row.dedupe_key, ready.row.to_email, \
        ready.attempts
    failure = ready.failure
    values: dict = {}
    if ready.rendered is not None:
        values["subject"], values["text_body"], values["html_body"] = ready.rendered
    if failure is None:
        values.update(status="sent", sent_at=now, last_error=None)
        report.sent.append(row_id)
    elif not ready.permanent and failure.temporary and attempts < MAX_ATTEMPTS:
        values.update(last_error=str(failure)[:2000],
                      next_attempt_at=now + retry_delay(attempts, rng))
        report.retrying.append(row_id)
        log.warning("mail %s to %s failed (attempt %d), retrying at %s: %s", key, to, attempts,
                    values["next_attempt_at"].isoformat(), failure)
    else:
        values.update(last_error=str(failure)[:2000], status="parked")
        report.parked.append(row_id)
        log.error("mail %s to %s parked after %d attempt(s): %s (see `iridescia-server outbox`)",
                  key, to, attempts, failure)
    return row_id, values


class Sender:
    """Sends one message at a time through ``transport`` in a thread of its own, in two steps:
    `start` has the thread begin it (the transport's `begin`: everything but the final line),
    `deliver` lets it finish (`end`) once the previous message's outcome and this one's lease
    are written, `drop` has it dropped instead; `finish` waits for it and gives its outcome. A
    transport with only `send` sends the whole message at `deliver`."""

    def __init__(self, transport, clock, rng, report) -> None:
        self.transport, self.clock, self.rng, self.report = transport, clock, rng, report
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mail-sender")
        self._on_the_wire: tuple[Ready, Future, _Go] | None = None

    def __enter__(self) -> Sender:
        return self

    def __exit__(self, *exc_info) -> None:
        if self._on_the_wire is not None:  # left by an error: dropped, unless delivered
            self._on_the_wire[2].decide(False)
            self._on_the_wire[1].exception()
            self._on_the_wire = None
        self._thread.shutdown(wait=True)

    def start(self, ready: Ready) -> None:
        assert self._on_the_wire is None, "one message at a time"
        ready.permanent = False
        go = _Go()
        self._on_the_wire = ready, self._thread.submit(self._send, ready.message, go), go

    def deliver(self) -> None:
        self._on_the_wire[2].decide(True)

    def drop(self) -> None:
        self._on_the_wire[2].decide(False)

    def _send(self, message: WireMessage, go: _Go) -> bool:
        transport = self.transport
        begin = getattr(transport, "begin", None)
        if begin is not None:
            begin(message)
        if not go.wait():
            if begin is not None:
                transport.abort()
            return False
        (transport.end if begin is not None else transport.send)(message)
        return True

    def finish(self) -> list[Outcome]:
        """The outcome of the message on the wire, once its send is over ([] when none is, or
        it was dropped: it stays leased, untouched). An error that is not a delivery failure (a
        bug) is raised, the message left leased."""
        if self._on_the_wire is None:
            return []
        ready, sending, go = self._on_the_wire
        self._on_the_wire = None
        # Undecided only when the run stops on an error: then it is dropped, never delivered.
        delivered = go.decide(False)
        try:
            sending.result()
        except DeliveryError as error:
            ready.failure = error
        if not delivered:
            return []
        return [outcome(ready, self.clock(), self.rng, self.report)]


class _Go:
    """Whether a begun message is to be delivered, decided once by the delivery run."""

    def __init__(self) -> None:
        self._decided = threading.Event()
        self._deliver = False

    def decide(self, deliver: bool) -> bool:
        """Decide, unless it was decided already; what was decided."""
        if not self._decided.is_set():
            self._deliver = deliver
            self._decided.set()
        return self._deliver

    def wait(self) -> bool:
        self._decided.wait()
        return self._deliver
