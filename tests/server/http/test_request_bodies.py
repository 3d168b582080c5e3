"""Request bodies: JSON only (415 otherwise), chunked ones read, and refused past the limit.

The chunked cases go through real HTTP (uvicorn and the ASGI front, as `serve` and gunicorn run
the app): the Flask test client always sends a Content-Length."""

from __future__ import annotations

import http.client
from urllib.parse import urlsplit

import pytest
from sqlmodel import select

from server import create_app
from server.storage.db import app_engine, session_scope
from server.storage.models import Outbox
from tests.server.front import served_front
from tests.server.helpers import assert_error

BODY_LIMIT = 4096


@pytest.fixture
def small_bodies_app(database_url):
    return create_app({"DATABASE_URL": database_url, "TESTING": True, "RATE_LIMIT": 0,
                       "MAX_BODY_BYTES": BODY_LIMIT})


def chunked_post(base: str, path: str, chunks: list[bytes], token: str | None = None):
    """POST ``chunks`` with Transfer-Encoding: chunked; (status, JSON body)."""
    import json

    address = urlsplit(base)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        connection.request("POST", path, body=iter(chunks), headers=headers,
                           encode_chunked=True)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def test_a_small_chunked_body_is_read(small_bodies_app):
    with served_front(small_bodies_app) as base:
        status, body = chunked_post(base, "/api/v1/users",
                                    [b'{"name": "ada", "email": "ada', b'@example.org"}'])
    assert status == 202, body
    assert body["message"].startswith("a mail is on its way to ada@example.org")


def test_a_chunked_body_over_the_limit_is_413(small_bodies_app):
    filler = [b"x" * 1000] * 5  # 5,000 bytes of a string: past the 4,096-byte limit
    with served_front(small_bodies_app) as base:
        status, body = chunked_post(base, "/api/v1/users",
                                    [b'{"name": "ada", "email": "ada@example.org", "x": "',
                                     *filler, b'"}'])
        assert status == 413, body
        assert body["message"] == (f"the request body is larger than {BODY_LIMIT} bytes: send "
                                   "a smaller one")
        # Nothing was registered: the same address still gets its account (its mail).
        status, again = chunked_post(base, "/api/v1/users",
                                     [b'{"name": "ada", "email": "ada@example.org"}'])
    assert status == 202, again
    with session_scope(app_engine(small_bodies_app)) as session:
        assert session.exec(select(Outbox.kind).where(Outbox.to_email == "ada@example.org")
                            ).all() == ["verify_email"]


def test_a_chunked_body_of_exactly_the_limit_is_read(small_bodies_app):
    head = b'{"name": "ada", "email": "ada@example.org", "x": "'
    padding = b"y" * (BODY_LIMIT - len(head) - 2)
    with served_front(small_bodies_app) as base:
        status, body = chunked_post(base, "/api/v1/users", [head, padding, b'"}'])
    # Read whole: the schema refuses the unknown field "x" (not a 400 of truncated JSON).
    assert status == 422, body
    assert "x" in body["details"]["fields"]["json"]


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x"])
def test_a_body_that_is_not_json_is_415(client, ada, content_type):
    response = client.post("/api/v1/games", data='{"seats": 2}', content_type=content_type,
                           headers=ada.headers)
    body = assert_error(response, 415, "Content-Type: application/json",
                        content_type.split(";")[0])
    assert body["details"]["content_type"] == content_type.split(";")[0]
    assert client.get("/api/v1/games", headers=ada.headers).json == []


def test_a_body_without_a_content_type_is_415(client):
    response = client.post("/api/v1/users", data=b'{"name": "ada", "email": "a@example.org"}')
    assert_error(response, 415, "no Content-Type")


def test_json_with_a_suffix_type_is_json(client):
    response = client.post("/api/v1/users", data='{"name": "ada", "email": "a@example.org"}',
                           content_type="application/merge-patch+json")
    assert response.status_code == 202, response.json


def test_415_is_documented_on_every_operation_with_a_body(client):
    spec = client.get("/openapi.json").json
    with_body = [(path, method) for path, item in spec["paths"].items()
                 for method, operation in item.items() if "requestBody" in operation]
    assert len(with_body) >= 8
    for path, method in with_body:
        assert "415" in spec["paths"][path][method]["responses"], (method, path)
