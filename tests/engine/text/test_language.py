"""The engine's words in another language: narration takes the reader's catalog as an argument,
and the Japanese verbs are read as the notation's own words."""

from __future__ import annotations

import pytest

from engine.simulate import make_options, play_game
from engine.text import notation
from engine.text.narrate import narrate_lines


class Shouting:
    """A catalog that writes every message in capitals: proof each word goes through it."""

    def gettext(self, message: str) -> str:
        return message.upper().replace("{", "<").replace("}", ">").replace("<", "{").replace(
            ">", "}") if "{" not in message else _upper_outside_fields(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.gettext(singular if n == 1 else plural)


def _upper_outside_fields(message: str) -> str:
    out, field = [], False
    for char in message:
        field = True if char == "{" else False if char == "}" else field
        out.append(char if field or char == "}" else char.upper())
    return "".join(out)


def test_narration_is_written_with_the_catalog_it_is_given():
    record = play_game(make_options(2), "catalog")
    events = [event for step in record.steps for event in step.events]
    english = narrate_lines(events, {0: "ada", 1: "bo"}, seat=0)
    shouted = narrate_lines(events, {0: "ada", 1: "bo"}, seat=0, translations=Shouting())
    assert len(english) == len(shouted)
    assert english[0] == "Setup" and shouted[0] == "SETUP"
    assert any("revealed" in line for line in english)
    # The players' names and the hexes are not words of the catalog: they stay as they are.
    assert any(line.strip().startswith("ada REVEALED") or "YOU REVEALED" in line
               for line in shouted)
    assert not any("revealed" in line or "moved to" in line for line in shouted)


@pytest.mark.parametrize(("japanese", "english"), [
    ("公開 1b 1c", "reveal 1b 1c"), ("移動 1b", "move 1b"), ("採掘", "mine"),
    ("売る emerald 2", "sell emerald 2"), ("買う epic elixir", "buy epic elixir"),
    ("使う epic elixir", "play epic elixir"), ("復元 amethyst ring", "restore amethyst ring"),
    ("終了", "end"), ("公開\u30001b", "reveal 1b"),
])
def test_the_japanese_verbs_are_the_same_commands(japanese, english):
    assert notation.parse(japanese, 1) == notation.parse(english, 1)


def test_a_japanese_verb_used_wrongly_quotes_the_usage():
    with pytest.raises(notation.NotationError) as error:
        notation.parse("公開", 1)
    assert "write: reveal HEX [HEX]" in str(error.value)
