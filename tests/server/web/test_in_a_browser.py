"""The pages in a real browser (headless Chromium, Selenium), at a phone's 390x844 and a laptop's
1280x800: games created from the lobby and played to the end by clicking the board's controls,
with no horizontal scrolling after any click; a move posted to the API showing on another
player's page without a reload; axe-core on every kind of page; no engine id in any page's text;
signing in from an email; a stale click; the replay by turn; /docs offline; table talk; pausing
and a vacation from the settings.

The two games played to the end and the live update run on PostgreSQL too (the scheduler's turns,
the polling, the lobby's writes on both databases); the rest on SQLite only: they test the pages as
a person uses them, and the pages' storage is tested on both databases by test_pages.py and
test_lobby_pages.py."""

from __future__ import annotations

import random
import re
import time
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy

import pytest
from selenium.common.exceptions import (
    WebDriverException,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.server.play import create_started_game, play_one, seat_map
from tests.server.web.browser import (
    DESKTOP,
    PHONE,
    at_size,
    axe_violations,
    chromium,
    overflow,
)
from tests.server.web.conftest import midnight, page_time, register, whose_turn
from tests.server.web.page_driver import (
    assert_names_only,
    click,
    create_from_the_lobby,
    follow,
    play_to_the_end,
    replaced,
    root,
    shot,
    sign_in,
    until,
)

# A whole game takes a while: each is played at both sizes on SQLite, and once on PostgreSQL.
GAMES = pytest.mark.parametrize(
    ("size", "site"), [(PHONE, "sqlite"), (DESKTOP, "sqlite"), (DESKTOP, "postgresql")],
    ids=["phone-sqlite", "desktop-sqlite", "desktop-postgresql"], indirect=["site"])
BOTH_DATABASES = pytest.mark.parametrize("site", ["sqlite", "postgresql"], indirect=True)



@GAMES
def test_a_solo_game_from_the_lobby_is_played_to_the_end_on_the_board(site, browser, size):
    app, url = site
    api = app.test_client()
    ada = register(api, "Ada", "ada@example.org")
    at_size(browser, size)
    sign_in(browser, app, url, ada)
    assert overflow(browser) <= 0
    click(browser, browser.find_element(By.CSS_SELECTOR, "form[data-action=solo] button"))
    game_id = browser.current_url.rsplit("/", 1)[-1]
    assert root(browser, "status") == "active"
    name = f"solo_{size[0]}"
    shot(browser, f"{name}_start")
    board = browser.find_element(By.CSS_SELECTOR, ".board-picture")
    if size == PHONE:  # the board fills the phone's width
        assert board.size["width"] >= size[0] - 30
    for target in browser.find_elements(By.CSS_SELECTOR, "#game button[data-command]"):
        if target.is_displayed():
            assert target.size["width"] >= 32 and target.size["height"] >= 32, (
                target.get_attribute("data-command"), target.size)
    clicks = play_to_the_end(browser, random.Random(size[0]), name)
    assert clicks > 10
    shot(browser, f"{name}_over")
    assert overflow(browser) <= 0
    heading = browser.find_element(By.CSS_SELECTOR, ".game-over h2")
    winner = heading.text
    # The winner is named first: above the board and, on a desktop, the panels beside it.
    below = [browser.find_element(By.CSS_SELECTOR, f"#game > {part}") for part in (
        ".board", ".panels", "#seed")]
    assert all(heading.location["y"] < part.location["y"] for part in below), (
        heading.location, [part.location for part in below])
    # and the page, which keeps its place after a click, showed it when the game ended.
    assert browser.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return r.top >= 0 && r.bottom <= "
        "innerHeight", heading), browser.execute_script("return scrollY")
    assert re.match(r"(Ada|The Rhom)( and \S+)? wins? with \d+ points\.", winner), winner
    assert browser.find_element(By.CSS_SELECTOR, "table.scores").size["width"] <= size[0]
    assert "The seed matches it." in browser.find_element(By.CSS_SELECTOR, "#seed").text
    assert_names_only(browser)
    exported = browser.execute_script(
        "return fetch(arguments[0]).then(r => r.status)", f"/games/{game_id}/export")
    assert exported == 200
    info = api.get(f"/api/v1/games/{game_id}", headers=ada.headers).json
    assert info["status"] == "finished"


@GAMES
def test_a_game_with_a_bot_seat_from_the_lobby_is_played_to_the_end(site, browser, size):
    app, url = site
    api = app.test_client()
    ada = register(api, "Ada", "ada@example.org")
    at_size(browser, size)
    sign_in(browser, app, url, ada)
    game_id = create_from_the_lobby(browser, url, seats=2, bots=1, bot_policy="medium",
                                     pace="none")
    info = api.get(f"/api/v1/games/{game_id}", headers=ada.headers).json
    assert info["status"] == "active" and [p["kind"] for p in info["players"]].count("bot") == 1
    play_to_the_end(browser, random.Random(size[1]), f"bot_{size[0]}")
    shot(browser, f"bot_{size[0]}_over")
    assert browser.find_element(By.CSS_SELECTOR, ".game-over h2").text.split()[0]
    assert overflow(browser) <= 0


@BOTH_DATABASES
def test_a_move_posted_to_the_api_shows_on_the_other_players_page_without_a_reload(
        table, browser):
    app, url, api, ada, bob, game = table
    mover, watcher = whose_turn(api, game["id"], [ada, bob])
    sign_in(browser, app, url, watcher)
    browser.get(f"{url}/games/{game['id']}")
    browser.execute_script("window.__not_reloaded = true")
    before = int(root(browser, "version"))
    play_one(api, game["id"], seat_map(api, game["id"], [ada, bob]), random.Random(3))
    after = api.get(f"/api/v1/games/{game['id']}").json["version"]
    assert after > before
    start = time.monotonic()
    WebDriverWait(browser, 5, poll_frequency=0.05).until(
        lambda d: root(d, "version") == str(after))
    assert time.monotonic() - start < 2.0
    assert browser.execute_script("return window.__not_reloaded") is True
    assert mover.name in browser.find_element(By.ID, "recent").text


def test_axe_finds_nothing_serious_on_the_home_lobby_game_and_game_over_pages(site, browser):
    app, url = site
    api = app.test_client()
    ada = register(api, "Ada", "ada@example.org")
    bob = register(api, "Bob", "bob@example.org")
    at_size(browser, PHONE)
    browser.get(f"{url}/")
    pages = {"signed out home": axe_violations(browser)}
    sign_in(browser, app, url, ada)
    pages["home"] = axe_violations(browser)
    assert_names_only(browser)
    browser.get(f"{url}/games/new")
    pages["new game"] = axe_violations(browser)
    assert_names_only(browser)
    shot(browser, "new_game_390")
    opened = api.post("/api/v1/games", json={"seats": 2}, headers=ada.headers).json
    browser.get(f"{url}/games/{opened['id']}")
    pages["lobby"] = axe_violations(browser)
    assert_names_only(browser)
    assert overflow(browser) <= 0
    shot(browser, "lobby_390")
    # A removal grace: the players choose their removals (the scheduler has nothing to play).
    game = create_started_game(api, [ada, bob], removal_grace_hours=1)
    browser.get(f"{url}/games/{game['id']}")
    pages["game"] = axe_violations(browser)
    assert_names_only(browser)
    seats, rng = seat_map(api, game["id"], [ada, bob]), random.Random(4)
    while play_one(api, game["id"], seats, rng) is not None:
        pass
    browser.get(f"{url}/games/{game['id']}")
    assert root(browser, "status") == "finished"
    pages["game over"] = axe_violations(browser)
    assert_names_only(browser)
    browser.get(f"{url}/settings")
    pages["settings"] = axe_violations(browser)
    browser.get(f"{url}/games/{game['id']}/settings")
    pages["game settings"] = axe_violations(browser)
    assert_names_only(browser)
    assert {page: found for page, found in pages.items() if found} == {}


def test_a_move_on_the_board_is_a_few_presses_of_tab_away_in_board_order(table, browser):
    from selenium.webdriver.common.keys import Keys

    app, url, api, ada, bob, game = table
    first, _ = whose_turn(api, game["id"], [ada, bob])
    sign_in(browser, app, url, first)
    browser.get(f"{url}/games/{game['id']}")
    reached = []
    for presses in range(1, 40):
        browser.switch_to.active_element.send_keys(Keys.TAB)
        focused = browser.switch_to.active_element
        command = focused.get_attribute("data-command") or focused.get_attribute("data-menu")
        if command:
            reached.append((presses, command))
            if len(reached) == 3:
                break
    assert reached and reached[0][0] <= 8, reached  # the skip link, the header, then the board
    hexes = [re.search(r"\d[a-g]", c).group(0) for _p, c in reached]
    rows = [int(h[0]) for h in hexes]
    assert rows == sorted(rows, reverse=True), hexes  # the top row first, as the board reads


def test_the_magic_link_in_an_email_opens_the_private_view(table, browser, tmp_path):
    app, url, api, ada, bob, game = table
    outbox = tmp_path / "outbox"  # where the site's scheduler writes its mail
    end = time.monotonic() + 20
    while not [p for p in outbox.glob("*") if "seat" in p.name and _to(p) == ada.email]:
        assert time.monotonic() < end, "no turn mail for Ada"
        time.sleep(0.2)
    [eml] = [p for p in outbox.iterdir() if "seat" in p.name and _to(p) == ada.email]
    mail = message_from_bytes(eml.read_bytes(), policy=policy.default)
    html = mail.get_body(("html",)).get_content()
    link = re.search(r'<a href="([^"]+)">Open the game</a>', html).group(1)
    assert link.startswith(f"{url}/sign-in/")
    follow(browser, link)
    assert browser.current_url == f"{url}/games/{game['id']}"
    assert "Ada" in browser.find_element(By.CSS_SELECTOR, "header .me").text
    me = browser.find_element(By.CSS_SELECTOR, ".player.me h3").text
    assert me.startswith("Ada (you)")
    objectives = browser.find_elements(By.CSS_SELECTOR, ".player.me li.objective")
    assert len(objectives) == 2


def _to(path) -> str:
    return message_from_bytes(path.read_bytes(), policy=policy.default)["To"]


def test_a_click_after_the_other_tab_moved_first_answers_with_the_new_choices(table, browser):
    app, url, api, ada, bob, game = table
    first, _ = whose_turn(api, game["id"], [ada, bob])
    sign_in(browser, app, url, first)
    browser.get(f"{url}/games/{game['id']}")
    browser.execute_script("window.__not_reloaded = true")
    stale = browser.find_elements(By.CSS_SELECTOR, "#board .on-hex button")[0]
    play_one(api, game["id"], seat_map(api, game["id"], [ada, bob]), random.Random(1))
    browser.execute_script("arguments[0].click()", stale)  # before the poll redraws the page
    WebDriverWait(browser, 10).until(replaced(stale))
    version = api.get(f"/api/v1/games/{game['id']}", headers=ada.headers).json["version"]
    WebDriverWait(browser, 10).until(lambda d: root(d, "version") == str(version))
    versions = {i.get_attribute("value") for i in browser.find_elements(
        By.CSS_SELECTOR, "input[name=expected_version]")}
    assert versions == {str(version)}


def test_stepping_through_a_replay_by_turn_without_a_reload(table, browser):
    app, url, api, ada, bob, game = table
    seats, rng = seat_map(api, game["id"], [ada, bob]), random.Random(2)
    for _ in range(40):
        play_one(api, game["id"], seats, rng)
    browser.get(f"{url}/games/{game['id']}")
    browser.execute_script("window.__not_reloaded = true")
    turns = browser.find_elements(By.CSS_SELECTOR, ".turn-list li")
    assert len(turns) >= 3
    browser.find_element(By.LINK_TEXT, "First turn").click()
    until(browser, lambda d: root(d, "replay") is not None)
    first = browser.find_element(By.TAG_NAME, "h1").text
    assert re.search(r"turn \d+$", first), first
    board_first = browser.find_element(By.CSS_SELECTOR, ".board-picture").get_attribute(
        "innerHTML")
    browser.find_element(By.LINK_TEXT, "Next turn").click()
    until(browser, lambda d: d.find_element(By.TAG_NAME, "h1").text != first)
    browser.find_element(By.LINK_TEXT, "Previous turn").click()
    until(browser, lambda d: d.find_element(By.TAG_NAME, "h1").text == first)
    assert browser.find_element(By.CSS_SELECTOR, ".board-picture").get_attribute(
        "innerHTML") == board_first
    assert "turn=1" in browser.current_url
    browser.find_element(By.LINK_TEXT, "Now").click()
    until(browser, lambda d: root(d, "replay") is None)
    assert browser.execute_script("return window.__not_reloaded") is True


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
    sign_in(browser, app, url, bob)
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


def test_pausing_and_a_vacation_from_the_settings_pages(table, browser):
    app, url, api, ada, bob, game = table
    settings = f"{url}/games/{game['id']}/settings"
    api.post(f"/api/v1/games/{game['id']}/pause", headers=bob.headers)  # Bob asked already
    sign_in(browser, app, url, ada)
    browser.get(f"{url}/games/{game['id']}")
    click(browser, browser.find_element(By.LINK_TEXT, "This game's settings"))
    click(browser, browser.find_element(By.XPATH, "//button[.='Ask to pause the game']"))
    assert browser.current_url == settings
    assert "The game is paused" in browser.find_element(By.CSS_SELECTOR, ".pause").text
    click(browser, browser.find_element(By.XPATH, "//button[.='Resume the game']"))
    assert api.get(f"/api/v1/games/{game['id']}", headers=bob.headers).json["paused"] is False

    browser.get(f"{url}/")
    click(browser, browser.find_element(By.LINK_TEXT, "Settings"))
    day = browser.find_element(By.CSS_SELECTOR, "input[name=until]")
    until = datetime.now(UTC).date() + timedelta(days=5)
    # A date input takes what a person types, in the browser's locale order: set it directly.
    browser.execute_script("arguments[0].value = arguments[1]", day, until.isoformat())
    click(browser, browser.find_element(By.XPATH, "//button[.='Go on vacation']"))
    text = browser.find_element(By.CSS_SELECTOR, "p.vacation").text
    away = page_time(app, midnight(until.isoformat()))
    assert text.startswith(f"Away until {away}"), text
