"""A turn played on the Japanese page in a real Chromium (issue 30), at a phone's 390x844 and a
laptop's 1280x800: players who chose Japanese (their browser asks for English) open the game,
read it in Japanese (アメジスト, the buttons' words), play a move by touching the board, and the
turn is applied; no text is wider than its button or the screen. The screenshots are kept in
var/screenshots/ (ja_turn_390.png, ja_turn_1280.png) for a person to look at."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.server.play import create_started_game
from tests.server.web.browser import DESKTOP, PHONE, at_size, overflow
from tests.server.web.conftest import link_for, register, whose_turn
from tests.server.web.page_driver import follow, root, shot, tap, visible_text

# The text of a control cut short: wider than the box that shows it.
CUT = ("return [...document.querySelectorAll('main button, main a, main h1, main h2, main label, "
       "main th, main td, header a, header button')].filter(e => e.offsetParent !== null "
       "&& e.scrollWidth > e.clientWidth + 1).map(e => e.textContent.trim())")


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_turn_is_played_on_the_japanese_page_by_touching_the_board(
        site, browser, size):
    app, url = site
    api = app.test_client()
    ada = register(api, "Ada", "ada@example.org")
    bob = register(api, "Bob", "bob@example.org")
    for player in (ada, bob):
        assert api.patch("/api/v1/users/me/preferences", json={"language": "ja"},
                         headers=player.headers).status_code == 200
    game = create_started_game(api, [ada, bob], public=True, pace="none")
    mover, _other = whose_turn(api, game["id"], [ada, bob])
    at_size(browser, size)
    follow(browser, url + link_for(app, mover, f"/games/{game['id']}"))
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "ja"
    text = visible_text(browser)
    for words in ("アメジスト", "宝石市場", "あなたの番です。", "最近のターン", "販売中のアイテム"):
        assert words in text, words
    version = root(browser, "version")
    # A reveal on the board: the hex's own control, or the first choice of its menu.
    target = next(e for e in browser.find_elements(
        By.CSS_SELECTOR, "#board button.hex-button, #board a.hex-link")
                  if e.is_displayed())
    label = target.get_attribute("aria-label")
    assert "公開" in label or "選択肢" in label, label
    shot(browser, f"ja_board_{size[0]}")
    assert overflow(browser) <= 0 and browser.execute_script(CUT) == []
    tap(browser, target)
    if target.tag_name == "a":  # several choices there: its menu opens, in Japanese
        menu = browser.find_element(By.ID, target.get_attribute("data-menu"))
        assert "では：" in menu.text and "閉じる" in menu.text
        tap(browser, menu.find_element(By.CSS_SELECTOR, "button[data-command]"))
    WebDriverWait(browser, 20).until(lambda d: root(d, "version") != version)
    played = api.get(f"/api/v1/games/{game['id']}", headers=mover.headers).json
    assert played["version"] > int(version) and played["current_seat"] == played["my_seat"]
    # The story of the turn and the bar's buttons, in Japanese.
    story = browser.find_element(By.ID, "recent").text
    assert "あなたは" in story and "を公開。" in story, story
    labels = [e.get_attribute("aria-label") for e in browser.find_elements(
        By.CSS_SELECTOR, "#board button.hex-button, #board a.hex-link") if e.is_displayed()]
    assert labels and all("へ移動" in label or "選択肢" in label for label in labels), labels
    shot(browser, f"ja_turn_{size[0]}")
    assert overflow(browser) <= 0, f"{overflow(browser)} px too wide"
    assert browser.execute_script(CUT) == []


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_japanese_pages_off_the_board_fit_the_screen(site, browser, size):
    """Japanese words are longer or shorter than English ones: each page, in Japanese, is no
    wider than the screen and cuts no text short."""
    app, url = site
    api = app.test_client()
    ada = register(api, "Ada", "ada@example.org")
    bob = register(api, "Bob", "bob@example.org")
    assert api.patch("/api/v1/users/me/preferences", json={"language": "ja"},
                     headers=ada.headers).status_code == 200
    game = create_started_game(api, [ada, bob], public=True)
    at_size(browser, size)
    follow(browser, url + link_for(app, ada, "/"))
    for path in ("/", "/settings", "/games/new", "/open", "/leaderboard", "/verify",
                 f"/players/{ada.id}", f"/games/{game['id']}/settings"):
        browser.get(url + path)
        assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "ja", path
        name = {"/": "home", f"/players/{ada.id}": "player",
                f"/games/{game['id']}/settings": "game_settings"}.get(path, path.strip("/"))
        name = name.replace("/", "_")
        shot(browser, f"ja_{name}_{size[0]}")
        assert overflow(browser) <= 0, (path, overflow(browser))
        assert browser.execute_script(CUT) == [], path
