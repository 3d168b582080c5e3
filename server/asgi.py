"""The ASGI front: a long-poll waits here, on the event loop, and everything else is the Flask
app, run in a thread pool (server/http/asgi_bridge.py).

    gunicorn -k uvicorn_worker.UvicornWorker 'server.asgi:create_asgi_app()'   # deploy/
    iridescia-server serve                                                     # make run

``GET /api/v1/games/{id}/events?wait=N`` is the one request that may last long. Served by WSGI it
would hold a thread for all of it (8 of them held a gunicorn worker's every thread). Here the
Flask view is called with ``wait=0``: it checks the token and the game, reads the events and
gives its connection back, as for any short read. When it found nothing new, the front waits for
the game's wake-up (server/wakeups: a commit of the game's events, in any process), the deadline
or the client going away, holding neither a thread nor a database connection, then asks the
view again. The answer is always the view's own (statuses, errors, redaction).

A client (its bearer token, else its address) holds at most ``LONG_POLL_MAX_PER_CLIENT`` open
waits in one process; one more answers 429.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections import Counter
from typing import Any
from urllib.parse import parse_qsl, urlencode

from flask import Flask
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from server import create_app, wakeups
from server.config import LONG_POLL_LIMIT_SECONDS, OPEN_WAITS_REFUSED
from server.http.asgi_bridge import WsgiBridge
from server.storage import json_codec

FEED_PATH = re.compile(r"^/api/v1/games/(?P<game>[^/]+)/events$")
# Threads running Flask requests in each process: what the gthread workers had.
WSGI_THREADS = 8
# Connections one process holds at once; one more request is answered 503 at once (uvicorn's
# limit_concurrency). Idle ones are closed after IDLE_SECONDS (see IdleClosingProtocol).
MAX_CONNECTIONS = 900
IDLE_SECONDS = 5


class IdleClosingProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol, closing a connection that sends nothing for ``timeout_keep_alive``
    seconds from its opening too: uvicorn arms that timer only after a response, so 1,100
    connections that never sent a byte held the process's descriptors for good and took the API
    down (issue 32, L9)."""

    def connection_made(self, transport) -> None:  # noqa: ANN001
        super().connection_made(transport)
        self.timeout_keep_alive_task = self.loop.call_later(
            self.timeout_keep_alive, self.timeout_keep_alive_handler)


def uvicorn_options(trusted_proxies: int, forwarded_allow_ips: str = "127.0.0.1") -> dict:
    """What uvicorn is given, under gunicorn (deploy/gunicorn.conf.py) and `serve` alike: idle
    connections closed, connections bounded, and X-Forwarded-For read only when
    ``IRIDESCIA_TRUSTED_PROXIES`` says a proxy writes it (0: ignored, whoever sends it; the
    rate limits then count the address that connected)."""
    return {"http": IdleClosingProtocol, "timeout_keep_alive": IDLE_SECONDS,
            "limit_concurrency": MAX_CONNECTIONS, "proxy_headers": trusted_proxies > 0,
            "forwarded_allow_ips": forwarded_allow_ips if trusted_proxies > 0 else ""}


def create_asgi_app(config: dict[str, Any] | None = None) -> Front:

    return Front(create_app(config))


class Front:
    def __init__(self, app: Flask, threads: int = WSGI_THREADS) -> None:
        self.app = app
        self.wsgi = WsgiBridge(app, threads, lambda: app.config.get("MAX_CONTENT_LENGTH"))
        self.wakeups = wakeups.of(app)
        self.max_seconds = float(app.config["LONG_POLL_MAX_SECONDS"])
        self.per_client = int(app.config["LONG_POLL_MAX_PER_CLIENT"])
        self.open: Counter[str] = Counter()  # open waits by client

    async def __call__(self, scope: dict, receive, send) -> None:
        if scope["type"] == "lifespan":
            return await self._lifespan(receive, send)
        if scope["type"] == "http" and scope["method"] == "GET":
            match = FEED_PATH.match(scope["path"])
            if match is not None:
                query = parse_qsl(scope["query_string"].decode("latin-1"),
                                  keep_blank_values=True)
                wait, after = _number(query, "wait", float), _number(query, "after", int)
                # Anything the view would refuse (422) or not wait for goes to it as it is.
                if (wait is not None and 0 < wait <= LONG_POLL_LIMIT_SECONDS
                        and after is not None and after >= 0):
                    return await self._long_poll(scope, receive, send, match["game"], query,
                                                 min(wait, self.max_seconds), after)
        await self.wsgi(scope, receive, send)

    async def _long_poll(self, scope, receive, send, game_id: str, query, seconds: float,
                         after: int) -> None:
        client = _client(scope)
        if self.open[client] >= self.per_client:  # the feed answers 429 (OPEN_WAITS_REFUSED)
            return await self.wsgi(dict(scope, **{OPEN_WAITS_REFUSED: self.per_client}),
                                   receive, send)
        self.open[client] += 1
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        # Asked without If-None-Match: the wait ends on new events, not on an unchanged answer
        # (a browser revalidating its cached empty feed would otherwise get 304 at once, and
        # poll without waiting). The answer is made conditional at the end.
        once = dict(scope, query_string=urlencode(
            [(k, v) for k, v in query if k != "wait"] + [("wait", "0")]).encode(),
            headers=[(k, v) for k, v in scope["headers"] if k != b"if-none-match"])
        if_none_match = [v for k, v in scope["headers"] if k == b"if-none-match"]
        gone = asyncio.ensure_future(_disconnected(receive))
        try:
            while True:
                # Subscribed before the view looks: a commit in between still wakes us.
                with self.wakeups.hub.async_waiter(f"g:{game_id}", seen=after) as waiter:
                    answer = await self._ask(once)
                    left = deadline - loop.time()
                    if answer[0] != 200 or left <= 0 or _has_events(answer[2]):
                        break
                    await asyncio.wait({waiter.future, gone}, timeout=left,
                                       return_when=asyncio.FIRST_COMPLETED)
                    if gone.done():
                        return  # nobody to answer
            await _send(send, *_conditional(answer, if_none_match))
        finally:
            gone.cancel()
            self.open[client] -= 1
            if not self.open[client]:
                del self.open[client]

    async def _ask(self, scope: dict) -> tuple[int, list, bytes]:
        """The Flask view's answer to ``scope`` (a GET): status, headers, body."""
        started: dict = {}
        body = bytearray()

        async def collect(message: dict) -> None:
            if message["type"] == "http.response.start":
                started.update(message)
            else:
                body.extend(message.get("body", b""))

        await self.wsgi(scope, _no_body, collect)
        return started["status"], started["headers"], bytes(body)

    async def _lifespan(self, receive, send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.wakeups.close()
                self.wsgi.shutdown()
                await send({"type": "lifespan.shutdown.complete"})
                return


def _number(query: list[tuple[str, str]], name: str, kind):
    values = [v for k, v in query if k == name]
    if not values:
        return 0
    try:
        return kind(values[0])
    except ValueError:
        return None


def _conditional(answer: tuple[int, list, bytes], if_none_match: list[bytes]
                 ) -> tuple[int, list, bytes]:
    """304 without a body for a 200 whose ETag the request's If-None-Match names."""
    status, headers, body = answer
    etag = next((v for k, v in headers if k.lower() == b"etag"), None)
    if status != 200 or etag is None or not if_none_match:
        return answer
    named = {tag.strip() for value in if_none_match for tag in value.split(b",")}
    if etag not in named and b"W/" + etag not in named and b"*" not in named:
        return answer
    kept = [(k, v) for k, v in headers if k.lower() not in (b"content-type", b"content-length")]
    return 304, kept, b""


def _has_events(body: bytes) -> bool:
    try:
        return bool(json_codec.loads(body).get("events"))
    except (ValueError, AttributeError):
        return True  # not the feed's shape: hand it over as it is


def _client(scope: dict) -> str:
    """Whose waits these are: the bearer token (the view has refused an unknown one before any
    wait), else the client's address (as the server got it: behind a proxy, the proxy's
    X-Forwarded-For is applied by the server, uvicorn's --forwarded-allow-ips)."""
    for name, value in scope["headers"]:
        if name == b"authorization":
            return "token:" + hashlib.sha256(value).hexdigest()
    host = (scope.get("client") or ("unknown", 0))[0]
    return f"address:{host}"


async def _send(send, status: int, headers: list, body: bytes) -> None:
    headers = [(k, v) for k, v in headers if k.lower() != b"content-length"]
    headers.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _no_body() -> dict:
    return {"type": "http.request", "body": b"", "more_body": False}


async def _disconnected(receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
