"""Issue 32: what uvicorn is given under the deploy config (deploy/gunicorn.conf.py's worker,
server.asgi.uvicorn_options, which `serve` uses too), served for real on 127.0.0.1:

- with ``IRIDESCIA_TRUSTED_PROXIES=0`` an X-Forwarded-For sent from 127.0.0.1 is ignored (it
  was honoured: the README says 0 ignores it), and with 1 it is read;
- a connection that never sends a byte is closed after the idle time (L9: they were held for
  good, and 1,100 of them took the API down).
"""

from __future__ import annotations

import json
import runpy
import socket
import threading
import time
from pathlib import Path

import pytest
import requests
import uvicorn

DEPLOY_CONFIG = Path(__file__).resolve().parents[2] / "deploy" / "gunicorn.conf.py"


async def _echo_client(scope, receive, send):
    """An ASGI app answering the client address uvicorn gave it."""
    if scope["type"] != "http":
        return
    body = json.dumps({"client": scope["client"][0]}).encode()
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": body})


def _serve(options: dict, idle: float | None = None):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    if idle is not None:
        options = {**options, "timeout_keep_alive": idle}
    server = uvicorn.Server(uvicorn.Config(_echo_client, host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="off", **options))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline
        time.sleep(0.02)
    return server, thread, port


def _deploy_options(monkeypatch, trusted: str) -> dict:
    monkeypatch.setenv("IRIDESCIA_TRUSTED_PROXIES", trusted)
    monkeypatch.delenv("IRIDESCIA_FORWARDED_ALLOW_IPS", raising=False)
    config = runpy.run_path(str(DEPLOY_CONFIG))
    options = dict(config["worker_class"].CONFIG_KWARGS)
    options["forwarded_allow_ips"] = config["forwarded_allow_ips"]
    options["timeout_keep_alive"] = config["keepalive"]
    return options


@pytest.mark.parametrize(("trusted", "seen"), [("0", "127.0.0.1"), ("1", "203.0.113.9")])
def test_x_forwarded_for_is_read_only_when_a_proxy_is_trusted(monkeypatch, trusted, seen):
    server, thread, port = _serve(_deploy_options(monkeypatch, trusted))
    try:
        answer = requests.get(f"http://127.0.0.1:{port}/",
                              headers={"X-Forwarded-For": "203.0.113.9"}, timeout=10)
        assert answer.json() == {"client": seen}
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def test_a_connection_that_sends_nothing_is_closed_when_idle(monkeypatch):
    server, thread, port = _serve(_deploy_options(monkeypatch, "0"), idle=1)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as silent:
            started = time.monotonic()
            assert silent.recv(1) == b""  # closed by the server
            assert time.monotonic() - started < 5
        # A request still gets its answer.
        assert requests.get(f"http://127.0.0.1:{port}/", timeout=10).status_code == 200
    finally:
        server.should_exit = True
        thread.join(timeout=10)
