"""Issue 32, N3: the home page's sign-in form mailed any confirmed address once a minute with no
daily cap (up to 1,440 a day) and did not count against the client's account-request limit. It
now counts against both: the address's account mails a day and the client's requests an hour."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import select

from server import create_app
from server.storage.db import app_engine, session_scope
from server.storage.models import Outbox, utcnow
from tests.server.web.conftest import BASE_URL, csrf_token, register


@pytest.fixture
def app(database_url, tmp_path):
    return create_app({"DATABASE_URL": database_url, "TESTING": True, "BASE_URL": BASE_URL,
                       "OUTBOX_DIR": str(tmp_path / "outbox"), "ACCOUNT_MAILS_PER_ADDRESS_DAY": 3,
                       "ACCOUNT_REQUESTS_PER_HOUR": 4, "RATE_LIMIT_KEY_PREFIX":
                       f"n3-{database_url[:5]}-{tmp_path.name}"})


def _sign_in_mails(app) -> list[Outbox]:
    with session_scope(app_engine(app)) as session:
        return list(session.exec(select(Outbox).where(Outbox.kind == "sign_in")))


def test_the_sign_in_form_keeps_the_daily_cap_of_account_mails(app):
    client = app.test_client()
    ada = register(client, "Ada", "ada@example.org")
    with session_scope(app_engine(app)) as session:
        for hours in (2, 3, 4):  # three links asked for earlier today: the cap
            moment = utcnow() - timedelta(hours=hours)
            session.add(Outbox(dedupe_key=f"sign-in:{ada.id}:{hours}", user_id=ada.id,
                               to_email=ada.email, kind="sign_in", subject="link",
                               text_body="link", status="sent", created_at=moment,
                               next_attempt_at=moment))
        session.commit()
    form = client.get("/").get_data(as_text=True)
    answer = client.post("/sign-in", data={"csrf_token": csrf_token(form), "email": ada.email})
    assert answer.status_code == 200 and "Check your email" in answer.get_data(as_text=True)
    assert len(_sign_in_mails(app)) == 3  # nothing more today


def test_the_sign_in_form_counts_against_the_clients_account_requests(app):
    client = app.test_client()
    token = csrf_token(client.get("/").get_data(as_text=True))
    statuses = [client.post("/sign-in", data={"csrf_token": token,
                                              "email": f"someone{n}@example.org"}).status_code
                for n in range(6)]
    assert statuses == [200, 200, 200, 200, 429, 429]
