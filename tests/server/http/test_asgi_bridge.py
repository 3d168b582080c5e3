"""The front's bridge to the Flask app (server/http/asgi_bridge.py), driven as uvicorn drives it:
whole answers in one piece, streamed ones piece by piece, request bodies cut past the limit."""

import asyncio
import json

from flask import Flask, Response, request

from server.http.asgi_bridge import WsgiBridge


def _app() -> Flask:
    app = Flask("bridge-test")

    @app.post("/echo")
    def echo():
        data = request.get_data()
        return {"length": len(data), "said": request.headers.get("X-Said"),
                "client": request.remote_addr, "path": request.path, "query": request.args}

    @app.get("/stream")
    def stream():
        return Response((f"line {n}\n" for n in range(3)), mimetype="text/plain")

    return app


def _call(bridge, scope: dict, pieces: list[bytes]) -> list[dict]:
    incoming = [{"type": "http.request", "body": piece, "more_body": n < len(pieces) - 1}
                for n, piece in enumerate(pieces)]
    sent: list[dict] = []

    async def receive():
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    asyncio.run(bridge(scope, receive, send))
    return sent


def _scope(method: str, path: str, query: bytes = b"", headers=()) -> dict:
    return {"type": "http", "method": method, "path": path, "query_string": query,
            "headers": list(headers), "client": ("203.0.113.9", 5555),
            "server": ("127.0.0.1", 8000), "scheme": "http", "http_version": "1.1"}


def test_a_whole_answer_comes_in_one_piece_with_the_request_as_sent():
    bridge = WsgiBridge(_app(), threads=2)
    sent = _call(bridge, _scope("POST", "/echo", b"game=q1h7sz6b",
                                [(b"x-said", b"hello"), (b"content-type", b"text/plain")]),
                 [b"abc", b"def"])
    start, body = sent
    assert start["status"] == 200
    assert (b"content-length", str(len(body["body"])).encode()) in start["headers"]
    assert body.get("more_body", False) is False
    assert json.loads(body["body"]) == {"length": 6, "said": "hello", "client": "203.0.113.9",
                                        "path": "/echo", "query": {"game": "q1h7sz6b"}}


def test_a_streamed_answer_is_passed_on_piece_by_piece():
    bridge = WsgiBridge(_app(), threads=2)
    sent = _call(bridge, _scope("GET", "/stream"), [b""])
    assert sent[0]["status"] == 200
    pieces = [message["body"] for message in sent[1:]]
    assert pieces == [b"line 0\n", b"line 1\n", b"line 2\n", b""]
    assert [message.get("more_body", False) for message in sent[1:]] == [True, True, True, False]


def test_a_body_past_the_limit_is_read_only_one_piece_past_it():
    bridge = WsgiBridge(_app(), threads=2, body_limit=lambda: 4)
    sent = _call(bridge, _scope("POST", "/echo"), [b"ab", b"cd", b"ef", b"gh"])
    # The app is told of 6 bytes (past its limit: it answers 413); the last piece is never read.
    assert json.loads(sent[1]["body"])["length"] == 6
