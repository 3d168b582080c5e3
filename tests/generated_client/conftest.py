"""A Python client generated from the committed openapi.yaml with openapi-python-client, once
per test session, and the real server it talks to."""

from __future__ import annotations

import importlib
import logging
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "iridescia_client"


@pytest.fixture(scope="session")
def generated(tmp_path_factory):
    """The generated package, imported. Generation failing fails the tests (never a skip)."""
    out = tmp_path_factory.mktemp("generated")
    config = out / "config.yaml"
    config.write_text("post_hooks: []\n")  # no formatter run on the generated code
    command = [str(Path(sys.executable).with_name("openapi-python-client")), "generate",
               "--path", str(ROOT / "openapi.yaml"), "--meta", "none",
               "--output-path", str(out / PACKAGE), "--config", str(config)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"openapi-python-client failed:\n{done.stdout}\n{done.stderr}"
    assert "Warning" not in done.stdout + done.stderr, done.stdout + done.stderr
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(out))


@pytest.fixture
def live(tmp_path, database_url, monkeypatch):
    """The real app over real HTTP on the test database, the scheduler's automatic turns on."""
    from tests.client.live import LiveServer

    monkeypatch.setattr(logging.getLogger("werkzeug"), "level", logging.ERROR)
    server = LiveServer(tmp_path, database_url)
    yield server
    server.close()
