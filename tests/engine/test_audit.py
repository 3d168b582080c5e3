"""engine/audit.py's words (issue 30): English by default, as `iridescia verify` prints them,
and the words of the catalog it is given (the /verify page gives the reader's)."""

from __future__ import annotations

from engine import audit
from tests.client.test_offline import mixed_game, write_log

WORDS = {"p1": "tolami", "p2": "veruko"}


class Catalog:
    """A gettext-like catalog of two of the check's messages."""

    WORDS = {"final scores: identical to the replayed game's": "FINAL SCORES: SAME",
             "dice: sha256 of the server's seed and the players' words in table order ({words})":
                 "DICE FROM ({words})"}

    def gettext(self, message: str) -> str:
        return self.WORDS.get(message, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.gettext(singular if n == 1 else plural)


def test_the_lines_are_english_by_default_and_the_catalogs_when_given(tmp_path):
    path = tmp_path / "g1.jsonl"
    write_log(path, mixed_game(WORDS), seed="server-7", words=WORDS)
    export = audit.parse_log(path.read_text())
    english = audit.verify_export(export)
    assert english[1] == ("dice: sha256 of the server's seed and the players' words in table "
                          "order (p1 'tolami', p2 'veruko')")
    assert english[-1] == "final scores: identical to the replayed game's"
    said = audit.verify_export(audit.parse_log(path.read_text()), Catalog())
    assert said[1] == "DICE FROM (p1 'tolami', p2 'veruko')"
    assert said[-1] == "FINAL SCORES: SAME"
    assert said[0] == english[0]  # a message the catalog lacks stays English
