"""A sentence kept in a row (server/i18n/stored.py): JSON that reads back as the same sentence,
said in each reader's language; a row kept before (its English, a string) reads as it was."""

from __future__ import annotations

import json

from engine.errors import IllegalCommand, Listed, Name, Reasons, Refusal, Seat
from server import i18n
from server.i18n import N_, Said
from server.i18n.stored import restored, stored


def kept(value):
    return restored(json.loads(json.dumps(stored(value))))


def test_a_refusal_with_names_seats_and_lists_reads_back_the_same_in_both_languages():
    refusal = Refusal("none of its alternatives can be played now: {reasons}", reasons=Reasons([
        Refusal("`{text}`: {reason}", text="sell ruby 2",
                reason=Refusal("{text!r} is not a gem: use {gems}", text="ruby",
                               gems=Listed(["amethyst", "citrine"]))),
        Refusal("`{text}`: {reason}", text="buy axe",
                reason=IllegalCommand("you do not have the {item}",
                                      item=Name("Jolty Jackhammer")).refusal)]))
    again = kept(refusal)
    assert again == refusal
    assert i18n.refusal(again, "ja") == i18n.refusal(refusal, "ja")
    assert "、" in i18n.refusal(again, "ja") and "ガタガタ削岩機" in i18n.refusal(again, "ja")
    assert kept(Refusal("seat {seat}", seat=Seat(2))).values["seat"] == Seat(2)


def test_a_said_around_a_refusal_is_said_in_the_readers_language():
    said = Said(N_('line {number}, "{text}": {reason}'), number=2, text="sell ruby 2",
                reason=Refusal("sell takes a gem and how many"))
    again = kept(said)
    assert again == 'line 2, "sell ruby 2": sell takes a gem and how many'
    assert i18n.say(again, "en") == again
    assert i18n.say(again, "ja") == "2行目「sell ruby 2」：sell には宝石と個数を指定します"


def test_a_row_kept_before_reads_as_its_english():
    old = 'line 2, "restore The Book of Iridescia": you can restore relics only after moving'
    assert kept(old) == old
    assert i18n.say(restored(old), "ja") == old
