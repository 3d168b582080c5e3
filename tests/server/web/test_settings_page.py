"""The settings page: a player chooses Japanese and how tiles and relics are sorted; the pages
then follow the choice, and before any choice the browser's Accept-Language."""

from __future__ import annotations

import re

from tests.server.web.conftest import csrf_token, signed_in


def test_the_settings_page_saves_language_and_display_settings(app, client, ada):
    browser = signed_in(app, ada)
    page = browser.get("/settings", headers={"Accept-Language": "en"})
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "Sort your collected tiles" in html and "Vacation" in html
    answer = browser.post("/settings/display", data={"csrf_token": csrf_token(html), "language": "ja",
                                             "tile_sort": "region", "relic_sort": "category"})
    assert answer.status_code == 303
    # The choice wins over the browser's language from now on.
    saved = browser.get(answer.headers["Location"], headers={"Accept-Language": "en"})
    html = saved.get_data(as_text=True)
    assert "保存しました。" in html and "獲得したタイルのソート法" in html
    assert 'value="region" checked' in html and 'value="category" checked' in html
    prefs = client.get("/api/v1/users/me", headers=ada.headers).json["preferences"]
    assert (prefs["language"], prefs["tile_sort"], prefs["relic_sort"]) == (
        "ja", "region", "category")
    refused = browser.post("/settings/display", data={"csrf_token": csrf_token(html), "tile_sort": "x"})
    assert refused.status_code == 422 and "tile_sort は gem, region のいずれかです" in refused.get_data(
        as_text=True)


def test_before_a_choice_the_page_follows_the_browsers_language(app, ada):
    browser = signed_in(app, ada)
    japanese = browser.get("/settings", headers={"Accept-Language": "ja,en;q=0.8"})
    assert "設定" in japanese.get_data(as_text=True)
    english = browser.get("/settings", headers={"Accept-Language": "en-GB,en;q=0.8"})
    assert "Settings" in english.get_data(as_text=True)


def test_the_settings_page_asks_to_sign_in(client):
    assert client.get("/settings").status_code == 401


def _language_of(answer) -> str:
    html = answer.get_data(as_text=True)
    return re.search(r'<html lang="(\w+)"', html).group(1)


def test_a_visitor_reads_the_browsers_language_and_a_player_their_choice(app, client, ada):
    """Signed out: the best of Accept-Language (English when it names neither). Signed in: the
    same until the player chooses; then the choice, whatever the browser asks."""
    for header, shown in (("ja", "ja"), ("ja-JP,ja;q=0.9,en;q=0.8", "ja"), ("en-US", "en"),
                          ("fr-FR,fr;q=0.9,ja;q=0.5", "ja"), ("fr", "en"), (None, "en")):
        headers = {"Accept-Language": header} if header else {}
        home = client.get("/", headers=headers)
        assert _language_of(home) == shown, header
        assert ("ログイン用リンクをメールで送る" if shown == "ja" else "Mail me a sign-in link") in (
            home.get_data(as_text=True))
    browser = signed_in(app, ada)
    assert _language_of(browser.get("/", headers={"Accept-Language": "ja"})) == "ja"
    assert _language_of(browser.get("/", headers={"Accept-Language": "en"})) == "en"
    html = browser.get("/settings", headers={"Accept-Language": "ja"}).get_data(as_text=True)
    assert browser.post("/settings/display", data={"csrf_token": csrf_token(html),
                                                   "language": "en"}).status_code == 303
    english = browser.get("/", headers={"Accept-Language": "ja"})
    assert _language_of(english) == "en" and "Your games" in english.get_data(as_text=True)
    assert browser.post("/settings/display", data={"csrf_token": csrf_token(html),
                                                   "language": "ja"}).status_code == 303
    japanese = browser.get("/", headers={"Accept-Language": "en"})
    assert _language_of(japanese) == "ja" and "あなたのゲーム" in japanese.get_data(as_text=True)
    # Signing out: the browser's language again.
    signed_out = app.test_client().get("/", headers={"Accept-Language": "en"})
    assert _language_of(signed_out) == "en"
