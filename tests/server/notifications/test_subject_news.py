"""The news a turn mail's subject tells (server/notifications/headline.py): the others' most
telling act since the player's last turn, never the player's own, never a hidden fact."""

from server.notifications.headline import news, subject_with_news

NAMES = {0: "the Rhom", 1: "Ana", 2: "Bo"}


def test_a_restored_relic_beats_a_bought_item_and_a_collected_tile():
    events = [
        {"type": "tile_collected", "seat": 2, "tile": "desert_amethyst_1", "hex": "2c"},
        {"type": "relic_restored", "seat": 1, "relic": "emerald_tablet"},
        {"type": "item_bought", "seat": 2, "item": "regal_reference_book", "cost": 5},
    ]
    assert news(events, NAMES, seat=0) == "Ana restored the Emerald Tablet"


def test_the_players_own_acts_and_quiet_turns_make_no_news():
    mine = [{"type": "relic_restored", "seat": 1, "relic": "emerald_tablet"},
            {"type": "dice_rolled", "seat": 2, "dice": [1, 2]}]
    assert news(mine, NAMES, seat=1) is None
    assert subject_with_news(None, "your turn 7", "q1h7sz6b") == "Your turn 7 (q1h7sz6b)"


def test_a_long_headline_is_cut_for_a_phones_list_of_mail():
    subject = subject_with_news("Ana " + "very " * 40 + "long", "your turn 7", "q1h7sz6b")
    assert subject.endswith("… (q1h7sz6b)") and len(subject) <= 121
