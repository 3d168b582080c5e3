"""Issue 32, N4: a token guesser locked out its neighbours. After the address's failed tokens
were spent, a valid token the process had not seen yet (a fresh worker, a restart) got 429 for
the rest of the minute; anyone behind the same NAT or proxy could keep others out. A valid
token is now let through; guesses are still refused."""

from __future__ import annotations

from server import create_app
from server.http.auth import hash_token
from server.http.rate_limits import KNOWN_TOKENS
from tests.accounts import sign_up


def test_a_valid_token_is_not_refused_for_a_neighbours_guesses(database_url):
    app = create_app({"DATABASE_URL": database_url, "TESTING": True, "AUTH_FAILURE_LIMIT": 3,
                      "RATE_LIMIT": 1000, "ACCOUNT_REQUESTS_PER_HOUR": 100,
                      "RATE_LIMIT_KEY_PREFIX": f"n4-{database_url[:5]}"})
    client = app.test_client()
    token = sign_up(client, "Ada", "ada@example.org")["token"]
    KNOWN_TOKENS.forget(hash_token(token))  # as a worker that has not seen it yet
    guesses = [client.get("/api/v1/users/me", headers={"Authorization": f"Bearer guess{n:040d}"}
                          ).status_code for n in range(6)]
    assert guesses == [401, 401, 401, 429, 429, 429]
    mine = client.get("/api/v1/users/me", headers={"Authorization": f"Bearer {token}"})
    assert mine.status_code == 200 and mine.json["name"] == "Ada"
    again = client.get("/api/v1/users/me", headers={"Authorization": "Bearer guess-again" + "x" * 30})
    assert again.status_code == 429
