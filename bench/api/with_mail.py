"""The ``mail`` phase of bench/api: command posts with the mail they cause delivered in the same
run, so that delivering it counts.

A database of its own (so that the other phases' mail is not delivered here), the app served as
in the other phases but with ``IRIDESCIA_SMTP_URL`` naming an SMTP sink (aiosmtpd, a process of
its own), and ``iridescia-server scheduler`` in its own process at the default settings: it is
woken by each commit that queues mail (server/wakeups) and delivers while the clients post.
Every player's address is confirmed once the clients are set up (unconfirmed addresses get no
game mail, server/mail/consent.py). After a slice of posts, the phase lasts until the last mail
it caused has been sent: its posts per second are over that whole time, and the scheduler's and
the sink's CPU time are counted with the workers'.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from bench.api import servers

DRAIN_SECONDS = 120  # the longest the phase waits for the last mails


class MailSide:
    def __init__(self, url: str, port: int, pid: int, others: list[int]) -> None:
        self.url, self.port, self.pid, self.others = url, port, pid, others

    def pids(self) -> list[int]:
        """The gunicorn workers, the scheduler and the sink: what the phase's CPU counts."""
        return servers.child_pids(self.pid) + self.others

    def confirm_every_address(self) -> None:
        from sqlalchemy import update

        from server.storage.db import get_engine
        from server.storage.models import User

        with get_engine(self.url).begin() as connection:
            connection.execute(update(User).where(User.verified_at.is_(None))
                               .values(verified_at=datetime.now(UTC)))

    def counts(self) -> tuple[int, int]:
        """(mails sent, game mails still pending) so far."""
        from sqlalchemy import func, select

        from server.storage.db import get_engine
        from server.storage.models import Outbox

        with get_engine(self.url).connect() as connection:
            sent = connection.execute(select(func.count()).where(Outbox.status == "sent"))
            pending = connection.execute(select(func.count()).where(
                Outbox.status == "pending", Outbox.version.is_not(None)))
            return sent.scalar_one(), pending.scalar_one()

    def drain(self) -> float:
        """Wait until no game mail is pending; the seconds it took."""
        started = time.perf_counter()
        while self.counts()[1] and time.perf_counter() - started < DRAIN_SECONDS:
            time.sleep(0.02)
        if self.counts()[1]:
            raise RuntimeError(f"mail phase: mail still pending after {DRAIN_SECONDS} s")
        return time.perf_counter() - started


@contextmanager
def serving(backend: str, workdir: Path, extra_env: dict[str, str]):
    """The mail phase's database, sink, app and scheduler; yields a `MailSide`."""
    from bench.api.baseline import create_tables
    from bench.mail.__main__ import start_sink
    from server.storage.db import dispose_engine
    from server.storage.migrate import upgrade

    home = workdir / "with-mail"
    home.mkdir()
    url = (servers.sqlite_url(home) if backend == "sqlite"
           else servers.fresh_postgres_url("iridescia_bench_api_mail"))
    upgrade(url)
    create_tables(url)
    smtp_port = servers.free_port()
    sink = start_sink(smtp_port)
    env = servers.server_env(url, home, IRIDESCIA_SMTP_URL=f"smtp://127.0.0.1:{smtp_port}"
                             "?security=none", **extra_env)
    log = (home / "scheduler.log").open("w")
    scheduler = subprocess.Popen(
        [sys.executable, "-c", "from server.cli import main; main()", "scheduler"],
        env=env, cwd=home, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        with servers.gunicorn("server:create_app()", env, home, "/api/v1/health") as (port, pid):
            yield MailSide(url, port, pid, [scheduler.pid, sink.pid])
    finally:
        for process in (scheduler, sink):
            try:
                process.send_signal(signal.SIGTERM)
                process.wait(timeout=20)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                process.kill()
                process.wait()
        log.close()
        dispose_engine(url)
        if backend != "sqlite":
            servers.drop_postgres("iridescia_bench_api_mail")
