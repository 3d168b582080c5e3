"""The Undo button: listed among the legal commands with how many steps it takes back, and
clicking it goes back to the reveal (the page on both databases, then in real Chromium)."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from tests.server.web.conftest import csrf_token, forms, signed_in, whose_turn
from tests.server.web.test_in_a_browser import (  # noqa: F401  (fixtures, by name)
    _buttons,
    _sign_in,
    browser,
    click,
    site,
    table,
)


def test_the_undo_form_takes_the_move_back(app, client, game, ada, bob):
    first, _ = whose_turn(client, game["id"], [ada, bob])
    page = signed_in(app, first)
    path = f"/games/{game['id']}"

    def play(prefix):
        html = page.get(path).get_data(as_text=True)
        words, command, version = next(c for c in forms(html) if c[0].startswith(prefix))
        answer = page.post(f"{path}/play", data={"csrf_token": csrf_token(html),
                                                 "command": command, "expected_version": version})
        assert answer.status_code == 303, answer.get_data(as_text=True)
        return words

    play("reveal ")
    assert "undo" not in [w for w, _c, _v in forms(page.get(path).get_data(as_text=True))]
    move = play("move ")
    html = page.get(path).get_data(as_text=True)
    assert "<legend>Undo: take back your last " in html
    assert "undo" in [w for w, _c, _v in forms(html)]
    play("undo")
    html = page.get(path).get_data(as_text=True)
    assert move in [w for w, _c, _v in forms(html)], "the move is offered again"
    assert "took back" in html and "<legend>Undo" not in html


def test_clicking_undo_in_a_browser(table, browser):  # noqa: F811
    app, url, api, ada, bob, game = table
    first, _ = whose_turn(api, game["id"], [ada, bob])
    _sign_in(browser, app, url, first)
    browser.get(f"{url}/games/{game['id']}")
    click(browser, _buttons(browser, "reveal ")[0])
    assert not _buttons(browser, "undo")
    move = _buttons(browser, "move ")[0]
    words = move.text
    click(browser, move)
    legends = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "fieldset.step legend")]
    assert any(legend.startswith("Undo: take back your last ") for legend in legends), legends
    click(browser, _buttons(browser, "undo")[0])
    assert words in [b.text for b in _buttons(browser, "move ")]
    recent = browser.find_element(By.CSS_SELECTOR, ".recent").text
    assert "You took back " in recent and "It is your turn." in browser.page_source
