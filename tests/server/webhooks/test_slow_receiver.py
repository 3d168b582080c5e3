"""Issue 32, M6: a webhook receiver that trickles its answer a byte per read (each read well
inside the timeout) held its delivery for as long as it liked, and every other webhook waited
behind it. Each delivery now has a deadline for the whole exchange, and the deliveries of a
claim go out side by side: the slow one is cut off and retried later, the others arrive at once.
"""

import random
import socket
import threading
import time
from datetime import UTC, datetime, timedelta

import pytest

from server import create_app
from server.scheduler.tick import Ticker
from server.storage.db import app_engine, session_scope
from server.storage.models import WebhookDelivery
from tests.server.scheduler.helpers import Clock
from tests.webhook_sink import serve

TIMEOUT = 2.0
DRIP_SECONDS = 0.4  # a byte per read: no single read waits TIMEOUT
DRIP_FOR = 30.0


class TricklingReceiver:
    """A real TCP server on 127.0.0.1 that reads a request, then answers a byte at a time."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.stopping = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        self.listener.settimeout(0.2)
        while not self.stopping.is_set():
            try:
                connection, _ = self.listener.accept()
            except OSError:
                continue
            threading.Thread(target=self._trickle, args=(connection,), daemon=True).start()

    def _trickle(self, connection):
        started = time.monotonic()
        answer = b"HTTP/1.1 200 OK\r\n" + b"X-Slow: " + b"z" * 2000 + b"\r\n\r\n"
        with connection:
            try:
                connection.recv(65536)
                for byte in answer:
                    if self.stopping.wait(DRIP_SECONDS) or time.monotonic() - started > DRIP_FOR:
                        return
                    connection.sendall(bytes([byte]))
            except OSError:
                return  # the client hung up

    def close(self):
        self.stopping.set()
        self.listener.close()


@pytest.fixture
def app(db_url, tmp_path):
    return create_app({"DATABASE_URL": db_url, "OUTBOX_DIR": str(tmp_path / "outbox"),
                       "BASE_URL": "https://iridescia.test", "TESTING": True,
                       "WEBHOOK_ALLOW_PRIVATE": 1, "WEBHOOK_TIMEOUT_SECONDS": TIMEOUT})


@pytest.fixture
def receivers():
    slow = TricklingReceiver()
    fast, server = serve()
    yield slow, fast
    slow.close()
    server.shutdown()
    server.server_close()


def test_a_trickling_receiver_is_cut_off_and_holds_no_other_delivery(app, table, receivers):
    slow, fast = receivers
    ada, bob = table.register("Ada"), table.register("Bob")
    created = table._call("post", "/games", ada, seats=2,
                          webhook={"url": f"http://127.0.0.1:{slow.port}/slow"})
    table._call("post", "/games/join", bob, code=created["join_code"])
    game_id = created["id"]
    table._call("put", f"/games/{game_id}/webhook", bob, url=fast.url("/fast"))
    table._call("post", f"/games/{game_id}/start", ada)
    ticker = Ticker(app, Clock(datetime.now(UTC) + timedelta(hours=1)), rng=random.Random(7))

    started = time.monotonic()
    report = ticker.deliver_webhooks()
    took = time.monotonic() - started

    assert len(report.sent) == 1 and len(report.retrying) == 1, report
    assert [r.path for r in fast.received] == ["/fast"]
    assert took < TIMEOUT + 3, f"the deliveries took {took:.1f} s"
    with session_scope(app_engine(app)) as session:
        slow_row = session.get(WebhookDelivery, report.retrying[0])
    assert slow_row.status == "pending"
    assert "took longer than 2 s to take the delivery: cut off, retrying later" \
        in slow_row.last_error
    print(f"\nM6: a trickling receiver and a fast one delivered in {took:.1f} s "
          f"(timeout {TIMEOUT:g} s)")
