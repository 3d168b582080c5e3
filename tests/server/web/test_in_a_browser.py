"""The pages in a real browser (headless Chromium, Selenium): the board and the names, signing in
from an email, a whole turn played by clicking, a 409, a replay, /docs offline, a pause and a
vacation.

On SQLite only: these test the pages as a person uses them; the pages' storage is tested on both
databases by test_pages.py."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy

import pytest
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from server import create_app
from server.mail.outbox import flush_outbox
from server.mail.settings import MailSettings
from server.mail.transport import EmlTransport
from server.storage.db import get_engine
from tests.conftest import empty_every_table
from tests.server.play import create_started_game, play_one
from tests.server.web.browser import SCREENSHOTS, LiveServer, chromium, free_port
from tests.server.web.conftest import link_for, register, whose_turn


@pytest.fixture
def site(_migrated_sqlite, tmp_path):
    port = free_port()
    app = create_app({"DATABASE_URL": _migrated_sqlite, "TESTING": True,
                      "BASE_URL": f"http://127.0.0.1:{port}",
                      "OUTBOX_DIR": str(tmp_path / "outbox")})
    server = LiveServer(app, port)
    yield app, server.url
    server.stop()
    empty_every_table(_migrated_sqlite)


@pytest.fixture
def browser():
    driver = chromium()
    yield driver
    driver.quit()


@pytest.fixture
def table(site):
    """(app, url, api client, ada, bob, a public started game)."""
    app, url = site
    api = app.test_client()
    ada = register(api, "Ada", "ada@example.org")
    bob = register(api, "Bob <b>", "bob@example.org")
    game = create_started_game(api, [ada, bob], public=True)
    return app, url, api, ada, bob, game


def click(driver, element) -> None:
    """Click and wait for the next page to replace this one (a click does not wait)."""
    element.click()
    WebDriverWait(driver, 20).until(_replaced(element))


def _replaced(element):
    """`staleness_of`, also when Chromium answers the check of a node of the page just left
    with "Node with given id does not belong to the document" instead of a stale reference."""
    def check(_driver) -> bool:
        try:
            element.is_enabled()
        except StaleElementReferenceException:
            return True
        except WebDriverException as error:
            if "does not belong to the document" in str(error):
                return True
            raise
        return False

    return check


def _buttons(driver, prefix: str):
    return [b for b in driver.find_elements(By.CSS_SELECTOR, "button.choice")
            if b.text.startswith(prefix)]


def test_a_public_games_page_shows_the_board_and_every_players_name(table, browser):
    app, url, api, ada, bob, game = table
    browser.get(f"{url}/games/{game['id']}")
    board = browser.find_element(By.CSS_SELECTOR, "#board svg")
    assert board.size["width"] > 600
    assert board.find_element(By.TAG_NAME, "title").get_attribute("textContent").startswith(
        f"Gems of Iridescia, game {game['id']}")
    players = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "ul.players li")]
    assert any(p.startswith("Ada") for p in players)
    assert any(p.startswith("Bob <b>") for p in players)  # shown as text, not markup
    svg_text = board.get_attribute("textContent")
    assert "Ada" in svg_text and "Bob <b>" in svg_text
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / "board_page.png"))


def test_the_magic_link_in_an_email_opens_the_private_view(table, browser, tmp_path):
    app, url, api, ada, bob, game = table
    outbox = tmp_path / "eml"
    with app.app_context():  # as the scheduler sends mail
        flush_outbox(get_engine(app.config["DATABASE_URL"]), EmlTransport(outbox),
                     MailSettings(outbox_dir=outbox, base_url=url), datetime.now(UTC))
    [eml] = [p for p in outbox.iterdir() if "seat" in p.name and _to(p) == ada.email]
    mail = message_from_bytes(eml.read_bytes(), policy=policy.default)
    html = mail.get_body(("html",)).get_content()
    link = re.search(r'<a href="([^"]+)">Open the game</a>', html).group(1)
    assert link.startswith(f"{url}/sign-in/")
    _follow(browser, link)
    assert browser.current_url == f"{url}/games/{game['id']}"
    assert "Signed in as Ada" in browser.find_element(By.TAG_NAME, "header").text
    me = browser.find_element(By.CSS_SELECTOR, "#board svg g.player text.player-name")
    assert me.get_attribute("textContent") == "Ada (you)"
    lines = [o.get_attribute("textContent")
             for o in browser.find_elements(By.CSS_SELECTOR, "#board svg text.objective")]
    assert len([line for line in lines if line.startswith("Objective: ")]) == 2, lines


def _to(path) -> str:
    return message_from_bytes(path.read_bytes(), policy=policy.default)["To"]


def _sign_in(driver, app, url, player) -> None:
    _follow(driver, url + link_for(app, player, "/"))


def _follow(driver, link: str) -> None:
    """Open a sign-in link and press its page's button, as a player does."""
    driver.get(link)
    driver.find_element(By.CSS_SELECTOR, "form[action^='/sign-in/'] button").click()


def test_a_whole_turn_is_played_by_clicking(table, browser):
    app, url, api, ada, bob, game = table
    first, _ = whose_turn(api, game["id"], [ada, bob])
    _sign_in(browser, app, url, first)
    browser.get(f"{url}/games/{game['id']}")
    assert "It is your turn." in browser.page_source
    played = []
    for wanted in ("reveal ", "move ", "mine", "keep", "end"):
        for _ in range(4):  # first any decision the last click called for (a rainbow's gem...)
            decisions = browser.find_elements(
                By.XPATH, "//fieldset[legend='Decide now']//button")
            if not decisions:
                break
            click(browser, decisions[0])
            played.append("decision")
        buttons = _buttons(browser, wanted)
        if not buttons:
            assert wanted == "keep", f"no '{wanted}' button: {browser.page_source}"
            continue
        click(browser, buttons[0])
        played.append(wanted)
        if wanted == "mine":
            roll = browser.find_element(By.CSS_SELECTOR, "p.roll").text
            assert re.match(r"Mining roll: \d \d", roll), roll
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            browser.save_screenshot(str(SCREENSHOTS / "board_page_playing.png"))
    assert {"reveal ", "move ", "mine", "end"} <= set(played)
    assert "It is your turn." not in browser.page_source
    info = api.get(f"/api/v1/games/{game['id']}", headers=first.headers).json
    assert info["is_my_turn"] is False


def test_a_click_after_the_other_tab_moved_first_answers_with_the_new_choices(table, browser):
    app, url, api, ada, bob, game = table
    first, _ = whose_turn(api, game["id"], [ada, bob])
    _sign_in(browser, app, url, first)
    browser.get(f"{url}/games/{game['id']}")
    stale = _buttons(browser, "reveal ")[0]
    seats = {api.get(f"/api/v1/games/{game['id']}", headers=p.headers).json["my_seat"]: p
             for p in (ada, bob)}
    play_one(api, game["id"], seats, random.Random(1))  # the same player, from the CLI
    click(browser, stale)
    notice = browser.find_element(By.CSS_SELECTOR, ".notice.conflict").text
    assert "Another command landed first." in notice and "What changed:" in notice
    version = api.get(f"/api/v1/games/{game['id']}", headers=ada.headers).json["version"]
    assert f"the game is now at version {version}" in notice
    versions = {i.get_attribute("value") for i in browser.find_elements(
        By.CSS_SELECTOR, "input[name=expected_version]")}
    assert versions == {str(version)}
    click(browser, _buttons(browser, "")[0])  # the new choice goes through
    assert api.get(f"/api/v1/games/{game['id']}").json["version"] > version


def test_stepping_through_a_replay(table, browser):
    app, url, api, ada, bob, game = table
    seats = {api.get(f"/api/v1/games/{game['id']}", headers=p.headers).json["my_seat"]: p
             for p in (ada, bob)}
    rng = random.Random(2)
    for _ in range(6):
        play_one(api, game["id"], seats, rng)
    latest = api.get(f"/api/v1/games/{game['id']}").json["version"]
    browser.get(f"{url}/games/{game['id']}?at=1")

    def shown() -> str:
        return browser.find_element(By.CSS_SELECTOR, "nav.replay strong, nav.replay").text

    assert f"Replay: after event 1 of {latest}." in shown()
    click(browser, browser.find_element(By.LINK_TEXT, "next"))
    click(browser, browser.find_element(By.LINK_TEXT, "next"))
    assert f"after event 3 of {latest}" in shown()
    board_at_3 = browser.find_element(By.CSS_SELECTOR, "#board svg").get_attribute("innerHTML")
    click(browser, browser.find_element(By.LINK_TEXT, "previous"))
    assert f"after event 2 of {latest}" in shown()
    slider = browser.find_element(By.CSS_SELECTOR, "input[type=range][name=at]")
    browser.execute_script("arguments[0].value = 3", slider)
    click(browser, browser.find_element(By.XPATH, "//form[@class='slider']//button"))
    assert f"after event 3 of {latest}" in shown()
    assert browser.find_element(By.CSS_SELECTOR, "#board svg").get_attribute(
        "innerHTML") == board_at_3
    click(browser, browser.find_element(By.LINK_TEXT, "last"))
    assert f"After event {latest} (now)." in shown()
    click(browser, browser.find_element(By.LINK_TEXT, "first"))
    assert f"after event 1 of {latest}" in shown()


def test_docs_load_with_the_network_off_and_list_the_operations(site):
    app, url = site
    driver = chromium(offline_except="127.0.0.1")
    try:
        with pytest.raises(WebDriverException, match="net::ERR_"):
            driver.get("https://cdn.jsdelivr.net/npm/swagger-ui-dist/")  # the network is off
        driver.get(f"{url}/docs")
        driver.implicitly_wait(10)
        operations = driver.find_elements(By.CSS_SELECTOR, ".opblock-summary-path")
        paths = {o.get_attribute("data-path") or o.text for o in operations}
        assert "/api/v1/games/{game_id}/commands" in paths
        assert "/api/v1/users" in paths
        loaded = driver.execute_script(
            "return performance.getEntriesByType('resource').map(e => e.name)")
        assert loaded and all(name.startswith(url) for name in loaded), loaded
    finally:
        driver.quit()


def test_table_talk_is_typed_posted_and_shown_as_text(table, browser):
    """Issue 21: a message typed into the page's form shows on the page as its text (a script
    in it is text, never run), with the writer's name escaped as well."""
    app, url, api, ada, bob, game = table
    _sign_in(browser, app, url, bob)
    browser.get(f"{url}/games/{game['id']}")
    box = browser.find_element(By.CSS_SELECTOR, "form.say textarea[name=text]")
    box.send_keys("<script>document.title='pwned'</script> good luck")
    click(browser, browser.find_element(By.CSS_SELECTOR, "form.say button"))
    assert browser.current_url.endswith(f"/games/{game['id']}#talk")
    [message] = browser.find_elements(By.CSS_SELECTOR, "#talk li.message")
    assert message.find_element(By.CSS_SELECTOR, ".author").text == "Bob <b>"
    assert message.find_element(By.CSS_SELECTOR, ".text").text == (
        "<script>document.title='pwned'</script> good luck")
    assert browser.title != "pwned"


def test_pausing_by_clicking_and_a_vacation_from_the_home_page(table, browser):
    app, url, api, ada, bob, game = table
    page = f"{url}/games/{game['id']}"
    api.post(f"/api/v1/games/{game['id']}/pause", headers=bob.headers)  # Bob asked already
    _sign_in(browser, app, url, ada)
    browser.get(page)
    click(browser, browser.find_element(By.XPATH, "//button[.='Ask to pause the game']"))
    assert browser.current_url == page
    assert "The game is paused" in browser.find_element(By.CSS_SELECTOR, "p.status").text
    click(browser, browser.find_element(By.XPATH, "//button[.='Resume the game']"))
    assert "The game is paused" not in browser.find_element(By.CSS_SELECTOR, "p.status").text
    assert api.get(f"/api/v1/games/{game['id']}", headers=bob.headers).json["paused"] is False

    browser.get(f"{url}/")
    day = browser.find_element(By.CSS_SELECTOR, "input[name=until]")
    until = datetime.now(UTC).date() + timedelta(days=5)
    # A date input takes what a person types, in the browser's locale order: set it directly.
    browser.execute_script("arguments[0].value = arguments[1]", day, until.isoformat())
    click(browser, browser.find_element(By.XPATH, "//button[.='Go on vacation']"))
    text = browser.find_element(By.CSS_SELECTOR, "p.vacation").text
    assert text.startswith(f"Away until {until.isoformat()} 00:00 UTC"), text
    browser.get(page)
    assert f"away until {until.isoformat()}" in browser.find_element(
        By.CSS_SELECTOR, "ul.players").text
