"""The processes a run measures: the API behind the deployed front, the schedulers, an SMTP sink,
and the database's own backends; the CPU each has used, read from /proc."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes
from pathlib import Path

from bench.api import servers

FRONT = "server.asgi:create_asgi_app()"
UVICORN = "uvicorn_worker.UvicornWorker"


class Sink:
    """aiosmtpd in a thread of this process: each game mail's size, by its dedupe key."""

    def __init__(self) -> None:
        self.sizes: dict[str, int] = {}
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):  # noqa: ANN001
        key = message_from_bytes(envelope.original_content)["X-Iridescia-Key"] or ""
        with self.lock:
            self.sizes[key] = len(envelope.original_content)
        return "250 OK"

    def game_mail(self) -> list[int]:
        """The sizes of the game mails (account mail, keyed without a game, left out)."""
        with self.lock:
            return [size for key, size in self.sizes.items() if "/v" in key]


def process_cpu(pid: int) -> float:
    """User + system CPU of one process so far, in seconds; 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Tracked:
    """Processes whose CPU is summed: each one's latest reading is kept, so a process that ends
    (a database backend whose connection closed) still counts what it used."""

    name: str
    readings: dict[int, float] = field(default_factory=dict)
    start: dict[int, float] = field(default_factory=dict)

    def read(self, pids: list[int]) -> None:
        for pid in pids:
            used = process_cpu(pid)
            if used or pid not in self.readings:
                self.readings[pid] = max(used, self.readings.get(pid, 0.0))

    def mark(self) -> None:
        """From now on: what each process had used so far is not counted."""
        self.start = dict(self.readings)

    def seconds(self) -> float:
        return sum(used - self.start.get(pid, 0.0) for pid, used in self.readings.items())


def postgres_backends(database: str) -> list[int]:
    import psycopg

    with psycopg.connect(servers.POSTGRES_ADMIN_URL, autocommit=True) as connection:
        rows = connection.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s",
                                  (database,)).fetchall()
    return [pid for (pid,) in rows]


class Meter:
    """Reads the CPU of the API processes, the schedulers and (on PostgreSQL) the database's
    backends of the bench's database, every half second and on demand."""

    def __init__(self, api_pids, scheduler_pids, database: str | None) -> None:
        self.api_pids, self.scheduler_pids, self.database = api_pids, scheduler_pids, database
        self.api, self.scheduler, self.db = Tracked("api"), Tracked("scheduler"), Tracked("db")
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def read(self) -> None:
        self.api.read([pid for master in self.api_pids
                       for pid in (master, *servers.child_pids(master))])
        self.scheduler.read(self.scheduler_pids)
        if self.database:
            self.db.read(postgres_backends(self.database))

    def mark(self) -> None:
        self.read()
        for tracked in (self.api, self.scheduler, self.db):
            tracked.mark()

    def figures(self) -> dict[str, float]:
        self.read()
        return {"api": self.api.seconds(), "scheduler": self.scheduler.seconds(),
                "db": self.db.seconds()}

    def _run(self) -> None:
        while not self._stop.wait(0.5):
            self.read()

    def __enter__(self) -> Meter:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()


def scheduler_process(env: dict[str, str], workdir: Path, number: int) -> subprocess.Popen:
    """`iridescia-server scheduler` (as ``python -m server.cli``: py-spy finds it so)."""
    log = (workdir / f"scheduler-{number}.log").open("w")
    return subprocess.Popen([sys.executable, "-m", "server.cli", "scheduler"],
                            env=env, cwd=workdir, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)


@contextmanager
def serving(url: str, workdir: Path, api_processes: int, schedulers: int, smtp_port: int):
    """The API (gunicorn with the deployed front, ``api_processes`` workers) and ``schedulers``
    scheduler processes on ``url``, mail to the sink; yields (port, api master pid, scheduler
    pids)."""
    env = servers.server_env(url, workdir,
                             IRIDESCIA_SMTP_URL=f"smtp://127.0.0.1:{smtp_port}?security=none",
                             IRIDESCIA_BASE_URL="http://127.0.0.1")
    started = [scheduler_process(env, workdir, number) for number in range(schedulers)]
    try:
        with ExitStack() as stack:
            port, pid = stack.enter_context(servers.gunicorn(
                FRONT, env, workdir, "/api/v1/health", workers=api_processes,
                worker_class=UVICORN))
            yield port, pid, [process.pid for process in started]
    finally:
        for process in started:
            os.killpg(process.pid, signal.SIGTERM)
        for process in started:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


@contextmanager
def smtp_sink():
    from aiosmtpd.controller import Controller

    sink = Sink()
    controller = Controller(sink, hostname="127.0.0.1", port=servers.free_port(),
                            data_size_limit=0)
    controller.start()
    try:
        yield sink, controller.port
    finally:
        controller.stop()


def wait(seconds: float, until) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if until():
            return True
        time.sleep(0.5)
    return until()
