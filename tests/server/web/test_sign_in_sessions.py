"""Issue 32: sign-in links and page sessions. A link opens a page whose button signs in (a GET
signs nobody in: no login CSRF), once (a forwarded mail hands over nothing), and signing out
ends the session on the server (a copied cookie no longer works); on SQLite and PostgreSQL."""

from __future__ import annotations

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
