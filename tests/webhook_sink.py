"""A real HTTP receiver for webhook tests: a threaded http.server on loopback that records every
POST and answers the statuses a test lines up (204 once they run out)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Sink:
    port: int
    received: list[Received] = field(default_factory=list)
    answers: list[int] = field(default_factory=list)  # statuses still to answer, in order

    def url(self, path: str = "/hook", host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}{path}"


def serve() -> tuple[Sink, ThreadingHTTPServer]:
    sink = Sink(0)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 - http.server's name
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            sink.received.append(Received(self.path, dict(self.headers.items()), body))
            status = sink.answers.pop(0) if sink.answers else 204
            self.send_response(status)
            if status in (301, 302):
                self.send_header("Location", "http://127.0.0.1:1/elsewhere")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):  # quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    sink.port = server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return sink, server
