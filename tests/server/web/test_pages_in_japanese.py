"""No page string is left in English: every page a player or a visitor opens, rendered in
Japanese (the browser's Accept-Language, or the player's choice), has no English word in its
text, its titles, labels or placeholders, but for names (players, hexes, the game's id), code
and the product names it quotes. A string a template or page module shows without `_()` fails
here; one wrapped but untranslated fails tests/server/i18n/test_catalogs.py too."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser

from server.scheduler.tick import Ticker
from tests.server.play import create_started_game, play_one, seat_map
from tests.server.scheduler.helpers import Clock

JA = {"Accept-Language": "ja,en;q=0.5", "Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
SHOWN_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt", "value")
# What stays as it is in Japanese: product, format and protocol names, units of code.
KEPT = {"Iridescia", "iridescia", "API", "JSON", "Discord", "Slack", "URL", "POST", "OpenSkill",
        "sha", "UTC", "OK", "Webhook", "Incoming", "GET", "YYYY", "MM", "DD", "docs",
        "webhooks", "md", "Referer",
        "English"}  # the settings page names each language in its own words
LATIN = re.compile(r"[A-Za-z]{2,}")


class Shown(HTMLParser):
    """The words a reader sees or hears: text outside <code>, <pre>, <script>, <style>, and the
    attributes read aloud or shown (a submit button's value is its label); an element marked
    translate="no" (HTML's own mark: the notation's example lines) is left as it is."""

    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("code", "pre", "script", "style"):
            self._skipping += 1
        attributes = dict(attrs)
        if attributes.get("translate") == "no":
            return
        for name in SHOWN_ATTRIBUTES:
            if attributes.get(name) and (name != "value" or attributes.get("type") in (
                    "submit", "button")):
                self.words.append(attributes[name])

    def handle_endtag(self, tag):
        if tag in ("code", "pre", "script", "style") and self._skipping:
            self._skipping -= 1

    def handle_data(self, data):
        if not self._skipping:
            self.words.append(data)


def english_left(html: str, names: tuple[str, ...] = ()) -> list[str]:
    parser = Shown()
    parser.feed(html)
    left = []
    for words in parser.words:
        for name in names:
            words = words.replace(name, " ")
        words = re.sub(r"\b\d[a-i]\b|[\w.+-]+@[\w.-]+|https?://\S+", " ", words)
        left += [w for w in LATIN.findall(words) if w not in KEPT]
    return left


def assert_japanese(answer, *names: str) -> str:
    html = answer.get_data(as_text=True)
    assert answer.status_code < 500, html
    assert '<html lang="ja"' in html
    left = english_left(html, names)
    assert not left, f"English left on the Japanese page: {sorted(set(left))}"
    return html


def test_a_visitors_pages_follow_the_browsers_japanese(client, ada, bob):
    game = create_started_game(client, [ada, bob], public=True)
    waiting = client.post("/api/v1/games", json={"seats": 3, "public": True},
                          headers=ada.headers).json
    names = ("Ada", "Bob", game["id"], waiting["id"], waiting["join_code"])
    for path in ("/", "/register", "/open", "/leaderboard", "/leaderboard?track=solo", "/verify",
                 f"/join/{waiting['join_code']}", f"/games/{game['id']}",
                 f"/games/{waiting['id']}", f"/players/{ada.id}"):
        assert_japanese(client.get(path, headers=JA), *names)
    html = assert_japanese(client.get(f"/games/{game['id']}", headers=JA), *names)
    assert "アメジスト" in html and "宝石市場" in html and "観戦中です。" in html
    assert_japanese(client.post("/sign-in", data={"email": "nobody@example.org"}, headers=JA))
    refused = client.get(f"/games/{game['id']}?turn=x", headers=JA)
    assert refused.status_code == 400
    assert "不正なリクエスト" in assert_japanese(refused, *names, "turn", "x")
    assert_japanese(client.get("/settings", headers=JA))  # 401: sign in first


def choose_japanese(client, player) -> None:
    chosen = client.patch("/api/v1/users/me/preferences", json={"language": "ja"},
                          headers=player.headers)
    assert chosen.status_code == 200, chosen.json


def test_a_whole_game_on_the_pages_of_players_who_chose_japanese(app, client, ada, bob):
    """Both players chose Japanese (their browsers ask for English): their pages at every few
    commands of a whole game, the game over included, and the pages off the board."""
    from tests.server.web.conftest import signed_in, whose_turn

    english = {"Accept-Language": "en", "Accept": JA["Accept"]}
    game = create_started_game(client, [ada, bob], public=True, pace="none")
    names = ("Ada", "Bob", game["id"])
    browsers = {}
    for player in (ada, bob):
        choose_japanese(client, player)
        browsers[player.id] = signed_in(app, player)
    at_ada = browsers[ada.id]
    for path in ("/", "/settings", "/games/new", "/open", f"/players/{bob.id}",
                 f"/games/{game['id']}/settings"):
        assert_japanese(at_ada.get(path, headers=english), *names)
    first, _other = whose_turn(client, game["id"], [ada, bob])
    hint = browsers[first.id].get(f"/games/{game['id']}/hint", headers=english)
    assert "ボットなら" in assert_japanese(hint, *names)
    seats = seat_map(client, game["id"], [ada, bob])
    rng = random.Random(30)
    clock = Clock(datetime.now(UTC))
    ticker = Ticker(app, clock, name="test")
    seen = set()
    for step in range(3000):
        if step % 7 == 0:
            for player in (ada, bob):
                html = assert_japanese(browsers[player.id].get(
                    f"/games/{game['id']}", headers=english), *names)
                seen.update(re.findall(r'<section class="(decide|roll)"', html))
        if play_one(client, game["id"], seats, rng) is None:
            if client.get(f"/api/v1/games/{game['id']}", headers=ada.headers).json[
                    "status"] != "active":
                break
            clock.now = max(clock.now, datetime.now(UTC)) + timedelta(days=1)
            assert ticker.due_work().automatic  # the removal the server plays
    assert client.get(f"/api/v1/games/{game['id']}", headers=ada.headers).json[
        "status"] == "finished"
    html = assert_japanese(at_ada.get(f"/games/{game['id']}", headers=english), *names)
    assert "最終得点" in html and "点で勝利しました。" in html
    assert "roll" in seen
    assert_japanese(at_ada.get(f"/games/{game['id']}?turn=3", headers=english), *names)
    assert_japanese(at_ada.get(f"/players/{ada.id}", headers=english), *names)
