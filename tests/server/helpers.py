"""Helpers for the server tests."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Player:
    id: int
    name: str
    email: str
    token: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def assert_error(response, status: int, *fragments: str) -> dict:
    """The response is the one JSON error body with this status and a message saying these."""
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    body = response.json
    assert set(body) == {"code", "status", "message", "details"}, body
    assert body["code"] == status
    for fragment in fragments:
        assert fragment in body["message"], (fragment, body["message"])
    return body
