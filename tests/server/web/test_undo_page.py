"""The Undo button: in the bar with the end of the turn, saying how many steps it takes back, and
clicking it goes back to the reveal (the page on both databases, then in real Chromium)."""

from __future__ import annotations

import re

from selenium.webdriver.common.by import By

from tests.server.web.conftest import csrf_token, forms, signed_in, whose_turn
from tests.server.web.page_driver import sign_in


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
    assert re.search(r'<span class="undo-note">Undo takes back \d steps?\.</span>', html)
    assert "undo" in [w for w, _c, _v in forms(html)]
    play("undo")
    html = page.get(path).get_data(as_text=True)
    assert move in [w for w, _c, _v in forms(html)], "the move is offered again"
    assert "took back" in html and "undo-note" not in html


def _command(driver, prefix: str):
    return [b for b in driver.find_elements(By.CSS_SELECTOR, "button[data-command]")
            if b.get_attribute("data-command").startswith(prefix)]


def test_clicking_undo_in_a_browser(table, browser):  # noqa: F811
    app, url, api, ada, bob, game = table
    first, _ = whose_turn(api, game["id"], [ada, bob])
    sign_in(browser, app, url, first)
    browser.get(f"{url}/games/{game['id']}")
    browser.execute_script("arguments[0].click()", _command(browser, "reveal ")[0])
    _wait(browser, lambda: _command(browser, "move "))
    assert not _command(browser, "undo")
    move = _command(browser, "move ")[0]
    words = move.get_attribute("data-command")
    browser.execute_script("arguments[0].click()", move)
    _wait(browser, lambda: _command(browser, "undo"))
    note = browser.find_element(By.CSS_SELECTOR, ".actions .undo-note").text
    assert re.fullmatch(r"Undo takes back \d steps?\.", note), note
    _command(browser, "undo")[0].click()
    _wait(browser, lambda: words in [b.get_attribute("data-command")
                                     for b in _command(browser, "move ")]
          or words in browser.page_source)
    recent = browser.find_element(By.CSS_SELECTOR, ".recent").text
    assert "You took back " in recent and "It is your turn." in browser.page_source


def _wait(driver, condition) -> None:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    def check(_driver):
        try:
            return condition()
        except StaleElementReferenceException:
            return False

    WebDriverWait(driver, 20).until(check)
