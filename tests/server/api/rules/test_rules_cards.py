"""GET /api/v1/rules/cards (issue 21): public card help, typed, per rules version, and never
about who holds which card."""

from __future__ import annotations

from engine.data import ITEMS, OBJECTIVES, RELICS, TILES
from engine.text import card_help
from tests.server.helpers import assert_error
from tests.server.play import create_started_game


def test_the_cards_are_public_and_complete(client):
    response = client.get("/api/v1/rules/cards")
    assert response.status_code == 200, response.json
    cards = response.json
    assert cards["rules_version"] == "2"
    assert [c["id"] for c in cards["items"]] == list(ITEMS)
    assert [c["id"] for c in cards["objectives"]] == list(OBJECTIVES)
    assert [c["id"] for c in cards["relics"]] == list(RELICS)
    assert len(cards["tiles"]) == len(TILES) == 58
    wishing_well = next(c for c in cards["items"] if c["id"] == "wishing_well")
    assert wishing_well == {
        "kind": "item", "id": "wishing_well", "name": "Wishing Well", "cost": 5, "copies": 3,
        "start_of_turn": False, "timing": "your turn, during the optional actions (step 3)",
        "effect": "Roll your two mining dice and gain one gem whose market value is at most one "
                  "of the dice. This is not mining: the Mine Cart and the Pickaxe do not apply."}
    droid = next(c for c in cards["relics"] if c["id"] == "sapphire_droid")
    assert (droid["category"], droid["lead_gem"], droid["points"], droid["gems"]) == (
        "tech", "sapphire", 7, {"amethyst": 0, "citrine": 2, "emerald": 0, "sapphire": 2})
    tile = next(c for c in cards["tiles"] if c["id"] == "ruins_emerald_coins")
    assert tile["bonus"] == {"kind": "coins", "amount": 3}
    assert tile["text"] == "Gem: emerald. Bonus: 3 coins."


def test_each_rules_version_has_its_words_and_an_unknown_one_is_refused(client):
    v1 = client.get("/api/v1/rules/cards?rules_version=1").json
    assert v1 == card_help.catalogue("1") and v1 != card_help.catalogue("2")
    assert_error(client.get("/api/v1/rules/cards?rules_version=9"), 422, "rules version '9'")


def test_the_cards_never_say_who_holds_what(client, ada, bob):
    """The same answer for anyone, before and after objectives are dealt: nothing of a game."""
    before = client.get("/api/v1/rules/cards").json
    game = create_started_game(client, [ada, bob])
    for headers in ({}, ada.headers, bob.headers):
        assert client.get("/api/v1/rules/cards", headers=headers).json == before
    assert game["id"] not in str(before)


def test_the_cards_in_japanese_for_a_japanese_browser(client):
    answer = client.get("/api/v1/rules/cards", headers={"Accept-Language": "ja,en;q=0.5"})
    assert answer.headers["Content-Language"] == "ja"
    assert "Accept-Language" in answer.headers["Vary"]
    chalice = next(r for r in answer.json["relics"] if r["id"] == "iridia_chalice")
    assert chalice["name"] == "イリディアの聖杯" and chalice["category"] == "iridia"
    elixir = next(i for i in answer.json["items"] if i["id"] == "epic_elixir")
    assert elixir["effect"] == ("この手番の後にもう1手番行う。その追加ターンには伝説のエリクサーを"
                                "買えない。")
    english = client.get("/api/v1/rules/cards").json
    assert next(r for r in english["relics"] if r["id"] == "iridia_chalice")["name"] == (
        "Iridia Chalice")
