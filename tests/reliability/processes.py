"""Real ``iridescia-server`` processes for the crash, mail and scheduler tests.

    with ServerProcess(workdir, database_url, "serve", port=free_port()) as server:
        requests.get(server.base + "/api/v1/health")
        server.kill()            # SIGKILL, no goodbye

Each process runs in its own session (process group) in ``workdir`` with no inherited
IRIDESCIA_* settings; its output goes to a log file the failure messages quote.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

STARTUP_SECONDS = 60


def server_command() -> str:
    beside = Path(sys.executable).with_name("iridescia-server")
    found = str(beside) if beside.exists() else shutil.which("iridescia-server")
    if found is None:
        pytest.fail("the iridescia-server console script is not installed (pip install -e .)")
    return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ServerProcess:
    """``iridescia-server <args>`` in ``workdir`` against ``database_url``."""

    def __init__(self, workdir: Path, database_url: str, *args: str, port: int | None = None,
                 settings: dict[str, str] | None = None, name: str = "server") -> None:
        self.workdir, self.port, self.name = workdir, port, name
        self.base = f"http://127.0.0.1:{port}" if port else ""
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("IRIDESCIA_")}
        self.env.update({"IRIDESCIA_DATABASE_URL": database_url, "IRIDESCIA_RATE_LIMIT": "0",
                         "IRIDESCIA_OUTBOX_DIR": str(workdir / "outbox"),
                         # serve's SMTP receiver off: 2525 may be another server's
                         "IRIDESCIA_INBOUND_SMTP": "off",
                         **(settings or {})})
        self.args = [server_command(), *args]
        if port:
            self.args += ["--host", "127.0.0.1", "--port", str(port)]
        self.log_path = workdir / f"{name}.log"
        self.process: subprocess.Popen | None = None

    def start(self) -> ServerProcess:
        with self.log_path.open("a") as log:
            self.process = subprocess.Popen(self.args, cwd=self.workdir, env=self.env,
                                            stdout=log, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        if self.port:
            self._wait_for_health()
        return self

    def _wait_for_health(self) -> None:
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"{self.name} exited with {self.process.returncode}:\n{self.log()}")
            try:
                if requests.get(f"{self.base}/api/v1/health", timeout=2).status_code == 200:
                    return
            except requests.ConnectionError:
                pass
            time.sleep(0.1)
        pytest.fail(f"{self.name} did not answer within {STARTUP_SECONDS} s:\n{self.log()}")

    def log(self, tail: int | None = 5000) -> str:
        """The process's output (its last ``tail`` characters; None: all of it)."""
        text = self.log_path.read_text()
        return text if tail is None else text[-tail:]

    def kill(self) -> None:
        """SIGKILL the whole process group at once, as a power cut would."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()
