"""Fixtures for the CLI tests: an isolated config/state directory, no retry pauses, a runner,
and a stand-in HTTP server (a real socket on 127.0.0.1) whose answers each test scripts."""

from __future__ import annotations

import json
import logging
import threading

import pytest
from click.testing import CliRunner
from werkzeug.serving import make_server
from werkzeug.wrappers import Request, Response

from client import http
from client.cli import cli


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    # The servers' request log would land in the output CliRunner captures.
    monkeypatch.setattr(logging.getLogger("werkzeug"), "level", logging.ERROR)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.delenv("IRIDESCIA_SERVER", raising=False)
    monkeypatch.delenv("IRIDESCIA_TOKEN", raising=False)
    monkeypatch.setattr(http, "RETRY_DELAYS", (0.01, 0.01))
    return tmp_path


@pytest.fixture
def run():
    """Invoke `iridescia ARGS...` in-process; returns Click's Result."""

    def invoke(*args, env=None, input=None):
        runner = CliRunner()
        return runner.invoke(cli, [str(a) for a in args], env=env, input=input,
                             catch_exceptions=True)

    return invoke


class StandIn:
    """A tiny HTTP server: `answer(method, path, status, body)` scripts it, `requests` records."""

    def __init__(self):
        self.answers: dict[tuple[str, str], list] = {}
        self.requests: list[dict] = []
        self.server = make_server("127.0.0.1", 0, self.app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def answer(self, method: str, path: str, status: int, body=None, raw: str | None = None):
        self.answers.setdefault((method, "/api/v1" + path), []).append((status, body, raw))

    def app(self, environ, start_response):
        request = Request(environ)
        body = request.get_data(as_text=True)
        self.requests.append({
            "method": request.method, "path": request.path, "args": dict(request.args),
            "headers": dict(request.headers), "json": json.loads(body) if body else None,
        })
        queue = self.answers.get((request.method, request.path))
        if not queue:
            response = Response(json.dumps({"code": 404, "message": f"no route {request.path}"}),
                                status=404, mimetype="application/json")
        else:
            status, payload, raw = queue[0] if len(queue) == 1 else queue.pop(0)
            text = raw if raw is not None else json.dumps(payload)
            response = Response(text, status=status,
                                mimetype="text/html" if raw is not None else "application/json")
        return response(environ, start_response)

    def close(self):
        self.server.shutdown()
        self.thread.join(timeout=5)


@pytest.fixture
def standin():
    server = StandIn()
    yield server
    server.close()


@pytest.fixture
def live(tmp_path):
    """The real app over real HTTP (see tests/client/live.py)."""
    from tests.client.live import LiveServer

    server = LiveServer(tmp_path)
    yield server
    server.close()
