"""client.i18n.refusal: the engine's refusals and the notation's reasons in the language of
LANG (issue 30), English under an English LANG, any other error as it is."""

from __future__ import annotations

import pytest

from client.i18n import refusal
from engine.text import notation


def notation_error() -> notation.NotationError:
    with pytest.raises(notation.NotationError) as caught:
        notation.parse("move", 0)
    return caught.value


def test_a_line_that_is_no_command_reads_in_the_language_of_lang(monkeypatch):
    for variable in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    assert refusal(notation_error()) == (
        "'move': move にはマスを1つ指定します（受け取ったもの：なし）（書き方：move HEX）")
    assert refusal(ValueError("as it is")) == "as it is"
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    assert refusal(notation_error()) == "'move': move takes one hex, got nothing (write: move HEX)"
