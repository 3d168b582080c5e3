"""Driving the pages in the real Chromium as a player does: clicks that wait for the next page,
taps on the board, signing in from a mail's link, playing a game to its end by its controls, and
the checks every page passes (no engine id, no seat number or version in its text)."""

from __future__ import annotations

import random
import re
import time

from selenium.common.exceptions import (
    StaleElementReferenceException,
    TimeoutException,
    WebDriverException,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from engine.data import ITEMS, OBJECTIVES, RELICS, TILES
from tests.server.web.browser import SCREENSHOTS, overflow
from tests.server.web.conftest import link_for

ENGINE_IDS = re.compile(r"\b(" + "|".join(sorted({*ITEMS, *RELICS, *OBJECTIVES, *TILES},
                                                  key=len, reverse=True)) + r")\b")
NOT_FOR_PLAYERS = re.compile(r"\bseat \d|\bversion \d|\([a-z]+_[a-z_]+\)")
def click(driver, element) -> None:
    """Click and wait for the next page to replace this one (a click does not wait)."""
    element.click()
    WebDriverWait(driver, 20).until(replaced(element))


def replaced(element):
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


def until(driver, condition) -> None:
    """Wait up to 10 s for `condition(driver)`, through the page's redrawing of itself."""
    WebDriverWait(driver, 10, ignored_exceptions=(StaleElementReferenceException,)).until(
        condition)


def sign_in(driver, app, url, player) -> None:
    follow(driver, url + link_for(app, player, "/"))


def shot(driver, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


def visible_text(driver) -> str:
    return driver.execute_script("return document.body.innerText")


def assert_names_only(driver) -> None:
    text = visible_text(driver)
    assert not ENGINE_IDS.search(text), ENGINE_IDS.search(text).group(0)
    assert not NOT_FOR_PLAYERS.search(text), NOT_FOR_PLAYERS.search(text).group(0)


def root(driver, name: str) -> str | None:
    return driver.find_element(By.TAG_NAME, "html").get_attribute(f"data-{name}")


def controls(driver) -> list:
    """The visible controls of the board and its panels, but the undo (a random player who
    takes back never ends)."""
    found = []
    for element in driver.find_elements(By.CSS_SELECTOR, "#game button[data-command], "
                                                         "#game a.hex-link"):
        command = element.get_attribute("data-command") or ""
        if command == "undo" or not element.is_displayed():
            continue
        if element.tag_name == "button" and element.find_elements(
                By.XPATH, "ancestor::div[contains(@class, 'hex-menu')]"):
            continue  # in a hex's menu: reached by tapping the hex
        found.append(element)
    return found


def wait_for_my_move_or_the_end(driver, timeout: float = 60) -> bool:
    """True when a control is offered, False when the game is over (the Rhom's and the bots'
    turns arrive without a reload)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if root(driver, "status") == "finished":
            return False
        try:
            if controls(driver):
                return True
        except StaleElementReferenceException:
            pass
        time.sleep(0.1)
    raise AssertionError(f"no control and no end after {timeout}s: {visible_text(driver)[:600]}")


def tap(driver, element) -> None:
    """A click in the middle of the screen's height (as a thumb does: the bar along the
    bottom is never in the way)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def play_to_the_end(driver, rng: random.Random, name: str) -> int:
    """Click the board's controls at random until the game is over; no horizontal scrolling
    after any click. The number of clicks."""
    clicks = 0
    while wait_for_my_move_or_the_end(driver):
        try:
            choice = rng.choice(controls(driver))
            version = root(driver, "version")
            if choice.tag_name == "a":  # a hex with several choices: its menu opens
                tap(driver, choice)
                menu = driver.find_element(By.ID, choice.get_attribute("data-menu"))
                buttons = [b for b in menu.find_elements(By.CSS_SELECTOR, "button[data-command]")
                           if b.get_attribute("data-command") != "undo"]
                choice = rng.choice(buttons)
            tap(driver, choice)
        except StaleElementReferenceException:
            continue  # the page was redrawn (a live update) just then: look again
        try:
            WebDriverWait(driver, 20).until(
                lambda d, v=version: root(d, "version") != v or d.find_elements(
                    By.CSS_SELECTOR, ".notice"))
        except TimeoutException:
            shot(driver, f"{name}_stuck")
            raise AssertionError(f"click {clicks + 1} did nothing: "
                                 f"{visible_text(driver)[:800]}") from None
        clicks += 1
        assert overflow(driver) <= 0, f"{overflow(driver)} px too wide after click {clicks}"
        if clicks == 3:
            shot(driver, f"{name}_playing")
            assert_names_only(driver)
        assert clicks < 2000, "the game does not end"
    return clicks


def create_from_the_lobby(driver, url: str, **fields) -> str:
    driver.get(f"{url}/games/new")
    form = driver.find_element(By.CSS_SELECTOR, "form[data-action=new-game]")
    for name, value in fields.items():
        field = form.find_element(By.NAME, name)
        if field.get_attribute("type") == "checkbox":
            if field.is_selected() != bool(value):
                field.click()
        else:
            driver.execute_script("arguments[0].value = arguments[1]", field, str(value))
    click(driver, form.find_element(By.CSS_SELECTOR, "button"))
    return driver.current_url.rsplit("/", 1)[-1]


def follow(driver, link: str) -> None:
    """Open a sign-in link and press its page's button, as a player does."""
    driver.get(link)
    click(driver, driver.find_element(By.CSS_SELECTOR, "form[action^='/sign-in/'] button"))
