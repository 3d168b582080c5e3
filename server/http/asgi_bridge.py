"""The Flask app called from the ASGI front (server/asgi.py): one hop to a worker thread a request.

a2wsgi, which this replaces, hands every piece of a request and of its answer between the event
loop and the thread on its own: a do-nothing request cost 0.60 ms of CPU behind it against
0.40 ms under gunicorn's plain worker (x1.5; bench/turn_cost, issue 31). Our answers are small
and whole (werkzeug gives them a Content-Length), so the bridge reads the request body first, at
most one byte past the app's limit, calls the app in a thread and takes the whole answer back
at once: 0.44 ms in the same measurement (x1.1). An answer without a Content-Length (a stream)
is still passed on piece by piece, each piece fetched in the thread.

The body read first is also given to the app with its length, so a chunked body needs no server
support from werkzeug (server/http/chunked_bodies.py reads it from there as from any server),
and one larger than the limit is cut there: the app answers it 413.
"""

from __future__ import annotations

import asyncio
import io
import sys
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

_END = object()  # the last piece of a streamed answer was sent


class WsgiBridge:
    """An ASGI app (HTTP only) that calls the WSGI ``app`` in one of ``threads`` threads.

    ``body_limit()`` is the largest request body the app takes (None: no limit): the bridge
    reads at most one byte more before calling it."""

    def __init__(self, app: Callable, threads: int,
                 body_limit: Callable[[], int | None] = lambda: None) -> None:
        self.app = app
        self.body_limit = body_limit
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="wsgi")

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        body = await _read_body(receive, self.body_limit())
        loop = asyncio.get_running_loop()
        status, headers, answer = await loop.run_in_executor(
            self.pool, self._call, build_environ(scope, body))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        if isinstance(answer, bytes):
            await send({"type": "http.response.body", "body": answer})
            return
        try:  # a stream: each piece fetched in a thread, sent as it comes
            while (piece := await loop.run_in_executor(self.pool, next, answer, _END)) \
                    is not _END:
                if piece:
                    await send({"type": "http.response.body", "body": piece,
                                "more_body": True})
            await send({"type": "http.response.body", "body": b""})
        finally:
            close = getattr(answer, "close", None)
            if close is not None:
                await loop.run_in_executor(self.pool, close)

    def _call(self, environ: dict) -> tuple[int, list, bytes | Iterator[bytes]]:
        started: list = []

        def start_response(status: str, headers: list, exc_info=None):
            if exc_info is not None and started:
                raise exc_info[1].with_traceback(exc_info[2])
            started[:] = [status, headers]
            return _no_write

        result: Iterable[bytes] = self.app(environ, start_response)
        pieces = iter(result)
        first = next(pieces, b"")  # a generator's answer calls start_response only now
        status, headers = started
        wire = [(name.lower().encode("latin-1"), value.encode("latin-1"))
                for name, value in headers]
        if not any(name == b"content-length" for name, _ in wire):
            return int(status[:3]), wire, _Stream(first, pieces, result)
        try:
            return int(status[:3]), wire, first + b"".join(pieces)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()

    def shutdown(self) -> None:
        self.pool.shutdown(wait=False)


class _Stream:
    """A streamed answer: its first piece (already read), the rest, and the app's close."""

    def __init__(self, first: bytes, rest: Iterator[bytes], result: Any) -> None:
        self.first, self.rest, self.result = first, rest, result

    def __iter__(self) -> _Stream:
        return self

    def __next__(self) -> bytes:
        if self.first is not None:
            first, self.first = self.first, None
            return first
        return next(self.rest)

    def close(self) -> None:
        close = getattr(self.result, "close", None)
        if close is not None:
            close()


def _no_write(data: bytes) -> None:
    raise NotImplementedError("write() is not supported: return the body")


async def _read_body(receive: Callable, limit: int | None) -> bytes:
    """The request body, at most ``limit + 1`` bytes of it (the app refuses more)."""
    pieces, size = [], 0
    while limit is None or size <= limit:
        message = await receive()
        if message["type"] != "http.request":
            break  # the client went away: the app answers an empty request, to no one
        piece = message.get("body", b"")
        pieces.append(piece)
        size += len(piece)
        if not message.get("more_body"):
            break
    return b"".join(pieces)


def build_environ(scope: dict, body: bytes) -> dict:
    """The WSGI environ of an ASGI HTTP ``scope`` whose body has been read (PEP 3333)."""
    script_name = scope.get("root_path", "").encode().decode("latin-1")
    path = scope["path"].encode().decode("latin-1")
    if script_name and path.startswith(script_name):
        path = path[len(script_name):]
    server_name, server_port = scope.get("server") or ("localhost", 80)
    environ = {
        "asgi.scope": scope,  # what the front tells the app (server/asgi.py), as a2wsgi gave it
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": script_name,
        "PATH_INFO": path,
        "QUERY_STRING": scope["query_string"].decode("latin-1"),
        "SERVER_NAME": server_name,
        "SERVER_PORT": str(server_port or 0),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    client = scope.get("client")
    if client is not None:
        environ["REMOTE_ADDR"], environ["REMOTE_PORT"] = client[0], str(client[1])
    for raw_name, raw_value in scope.get("headers", []):
        name = raw_name.decode("latin-1").upper().replace("-", "_")
        if name not in ("CONTENT_LENGTH", "CONTENT_TYPE"):
            name = f"HTTP_{name}"
        value = raw_value.decode("latin-1")
        environ[name] = f"{environ[name]},{value}" if name in environ else value
    # The body is read: its length is known, whatever the request said (a chunked one too).
    environ["CONTENT_LENGTH"] = str(len(body))
    environ.pop("HTTP_TRANSFER_ENCODING", None)
    return environ
