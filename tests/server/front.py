"""The ASGI front of server/asgi.py served by a real uvicorn on 127.0.0.1, in a thread of the
test: real HTTP, so chunked bodies and long polls go through what production runs."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn
from flask import Flask

from server.asgi import Front


@contextmanager
def served_front(app: Flask) -> Iterator[str]:
    """The base URL of uvicorn serving ``Front(app)``."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(Front(app), host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)
