"""Issue 32: sign-in links and page sessions. A link opens a page whose button signs in (a GET
signs nobody in: no login CSRF), once (a forwarded mail hands over nothing), and signing out
ends the session on the server (a copied cookie no longer works); on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlmodel import select

from server.scheduler.tick import Ticker
from server.storage.db import app_engine, session_scope
from server.storage.models import PageSession, User
from tests.server.web.conftest import csrf_token, follow, link_for


def _me(browser) -> str:
    return browser.get("/").get_data(as_text=True)


def test_opening_a_link_signs_nobody_in_until_its_button_is_pressed(app, ada):
    browser = app.test_client()
    page = browser.get(link_for(app, ada))
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "Sign in as Ada" in html
    assert 'method="post"' in html and "Signed in as" not in _me(browser)
    # Another site's form cannot press it: it has no CSRF token of this browser's session.
    forged = app.test_client().post(link_for(app, ada), data={})
    assert forged.status_code == 400
    assert browser.post(link_for(app, ada), data={"csrf_token": csrf_token(html)}
                        ).status_code == 303
    assert "Signed in as <strong class=\"me\">Ada</strong>" in _me(browser)


def test_a_link_signs_in_once(app, ada):
    link = link_for(app, ada)
    assert follow(app.test_client(), link).status_code == 303
    forwarded = app.test_client()
    again = follow(forwarded, link)
    assert again.status_code == 403 and "used already" in again.get_data(as_text=True)
    assert "Signed in as" not in _me(forwarded)


def test_signing_out_ends_the_session_even_for_a_copy_of_the_cookie(app, ada):
    browser = app.test_client()
    assert follow(browser, link_for(app, ada)).status_code == 303
    cookie = browser.get_cookie("iridescia_session").value
    copy = app.test_client()
    copy.set_cookie("iridescia_session", cookie)
    assert "Signed in as" in _me(copy)
    signed_out = browser.post("/sign-out", data={"csrf_token": csrf_token(_me(browser))})
    assert signed_out.status_code == 303 and "Signed in as" not in _me(browser)
    copy.set_cookie("iridescia_session", cookie)
    assert "Signed in as" not in _me(copy)


def _sessions(app) -> list[PageSession]:
    with session_scope(app_engine(app)) as db:
        return list(db.exec(select(PageSession)).all())


def _sign_out(browser) -> None:
    assert browser.post("/sign-out", data={"csrf_token": csrf_token(_me(browser))}
                        ).status_code == 303


def test_the_scheduler_deletes_sessions_that_are_over_once_their_link_is_dead(app, ada):
    """Signed-out and expired sessions do not pile up: the scheduler's hourly housekeeping
    deletes them, but keeps a signed-out session's row while its link could still be used
    (the row is what refuses the link a second time)."""
    link = link_for(app, ada)
    browser = app.test_client()
    assert follow(browser, link).status_code == 303
    _sign_out(browser)
    still_on = app.test_client()
    assert follow(still_on, link_for(app, ada)).status_code == 303
    [ended] = [row for row in _sessions(app) if row.ended_at is not None]
    assert len(_sessions(app)) == 2
    Ticker(app, clock=lambda: datetime.now(UTC)).deliver()
    assert len(_sessions(app)) == 2  # the signed-out row refuses its link for 72 hours yet
    assert follow(app.test_client(), link).status_code == 403
    hours = app.config["MAGIC_LINK_HOURS"]
    Ticker(app, clock=lambda: datetime.now(UTC) + timedelta(hours=hours, minutes=1)).deliver()
    assert [row.id_hash for row in _sessions(app)] != [ended.id_hash]
    assert len(_sessions(app)) == 1 and "Signed in as" in _me(still_on)
    lifetime = app.permanent_session_lifetime
    Ticker(app, clock=lambda: datetime.now(UTC) + lifetime + timedelta(minutes=1)).deliver()
    assert _sessions(app) == []  # past its 30 days: over, and deleted


def test_signing_out_deletes_a_session_no_link_started_and_signing_in_clears_old_ones(app, ada):
    with app.test_request_context("/"):
        from server.users import sign_in

        with session_scope(app_engine(app)) as db:
            user = db.get(User, ada.id)
            sign_in.sign_in(db, user, datetime.now(UTC))  # as the register page does
            sign_in.sign_out(db, datetime.now(UTC))
    assert _sessions(app) == []
    with session_scope(app_engine(app)) as db:  # a session of 31 days ago, never signed out
        db.add(PageSession(id_hash="0" * 64, user_id=ada.id,
                           created_at=datetime.now(UTC) - timedelta(days=31)))
    assert len(_sessions(app)) == 1
    browser = app.test_client()
    assert follow(browser, link_for(app, ada)).status_code == 303
    assert [row.id_hash for row in _sessions(app)] != ["0" * 64] and len(_sessions(app)) == 1
