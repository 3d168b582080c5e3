"""Starting and stopping the servers a benchmark measures, and the databases they use.
Shared by bench/api and bench/scale."""

from __future__ import annotations

import http.client
import os
import resource
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
POSTGRES_ADMIN_URL = os.environ.get(
    "BENCH_POSTGRES_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres"
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def sqlite_url(directory: Path) -> str:
    return f"sqlite:///{directory / 'bench.db'}"


def fresh_postgres_url(name: str) -> str:
    """Drop and create database ``name`` on the local PostgreSQL; its SQLAlchemy URL."""
    import psycopg

    with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True, connect_timeout=5) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')
    admin = POSTGRES_ADMIN_URL.rsplit("/", 1)[0]
    return admin.replace("postgresql://", "postgresql+psycopg://", 1) + f"/{name}"


def drop_postgres(name: str) -> None:
    import psycopg

    with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True, connect_timeout=5) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def server_env(database_url: str, workdir: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("IRIDESCIA_")}
    env.update(
        IRIDESCIA_DATABASE_URL=database_url,
        IRIDESCIA_OUTBOX_DIR=str(workdir / "outbox"),
        # A benchmark is one user hammering the server on purpose: no rate limit.
        IRIDESCIA_RATE_LIMIT="0",
        PYTHONPATH=str(ROOT),
    )
    env.update(extra)
    return env


@contextmanager
def gunicorn(app: str, env: dict[str, str], workdir: Path, ready_path: str, workers: int = 2,
             worker_class: str = "sync", root: Path = ROOT):
    """Serve ``app`` with gunicorn (sync workers unless told) on a free 127.0.0.1 port; yields
    (port, pid). ``root``: the checkout whose code it serves (another one's, to compare)."""
    port = free_port()
    log = (workdir / f"gunicorn-{port}.log").open("w")
    process = subprocess.Popen(
        [
            sys.executable, "-m", "gunicorn",
            "--workers", str(workers), "--worker-class", worker_class,
            "--bind", f"127.0.0.1:{port}", "--log-level", "warning",
            "--chdir", str(root), app,
        ],
        cwd=workdir,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        wait_until_answering(port, ready_path, process, workdir / f"gunicorn-{port}.log")
        yield port, process.pid
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()


def wait_until_answering(port: int, path: str, process, log_path: Path, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}:\n{log_path.read_text()}")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", path)
            status = connection.getresponse().status
            connection.close()
            if status < 500:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the server did not answer {path} in {seconds} s:\n{log_path.read_text()}")


def child_pids(pid: int) -> list[int]:
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            children.append(int(stat.parent.name))
    return sorted(children)


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time the processes have used so far, in seconds."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / ticks


def children_cpu_seconds() -> float:
    """User + system CPU time of this process's children that have ended and been waited for
    (the client processes, once `load.run` has joined them)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def machine_busy_seconds() -> float:
    """CPU time the whole machine has spent not idle (all cores, /proc/stat), in seconds."""
    values = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]  # idle, iowait
    return (sum(values[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def memory_mib(pid: int) -> dict[str, float]:
    """Resident (RSS) and proportional (PSS: shared pages split between sharers) memory, MiB."""
    values = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("Rss", "Pss"):
            values[key.lower()] = int(rest.split()[0]) / 1024
    return values


def on_each_backend(label: str, backends: list[str] | None, measure: Callable[..., Any],
                    json_path: Path | None = None, keep: bool = False) -> int:
    """Run ``measure(backend, url, workdir)`` on a fresh database of each backend (SQLite in a
    temporary folder, PostgreSQL as database ``iridescia_bench_<label>``, dropped afterwards
    unless ``keep``). A backend that fails is reported and the others still run; the figures go
    to ``json_path`` if given. Returns the exit code: 1 if any backend failed."""
    import json
    import tempfile
    import traceback

    results, failed = {}, []
    for backend in backends or ["sqlite", "postgresql"]:
        with tempfile.TemporaryDirectory(prefix=f"bench-{label}-{backend}-") as tmp:
            workdir = Path(tmp)
            database = f"iridescia_bench_{label}"
            try:
                url = (sqlite_url(workdir) if backend == "sqlite"
                       else fresh_postgres_url(database))
                results[backend] = measure(backend, url, workdir)
                if backend != "sqlite" and not keep:
                    drop_postgres(database)
            except Exception as error:  # noqa: BLE001 - reported, then the exit code says so
                traceback.print_exc()
                print(f"{backend}: FAILED: {type(error).__name__}: {error}", file=sys.stderr)
                failed.append(backend)
    if json_path:
        json_path.write_text(json.dumps(results, indent=2, default=str))
    return 1 if failed else 0
