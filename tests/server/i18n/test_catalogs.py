"""No string shown to players lacks its Japanese: every message Babel extracts from the source
(babel.cfg, babel-engine.cfg, babel-client.cfg) has a msgstr in the ja catalogs, the committed .mo
files are those catalogs compiled, and a whole game told in Japanese has no English word left."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from engine.text.narrate import narrate_lines
from server import i18n

ROOT = Path(__file__).resolve().parents[3]
KEYWORDS = {"_": None, "_h": None, "N_": None, "gettext": None, "ngettext": (1, 2), "lazy_gettext": None}
CATALOGS = [
    ("babel.cfg", ROOT / "server/translations/ja/LC_MESSAGES/messages"),
    ("babel-engine.cfg", ROOT / "engine/translations/ja/LC_MESSAGES/engine"),
    ("babel-client.cfg", ROOT / "client/translations/ja/LC_MESSAGES/client"),
]


def extracted(cfg: str) -> set:
    with open(ROOT / cfg) as config:
        method_map, options_map = parse_mapping_cfg(config)
    return {found[2] for found in extract_from_dir(ROOT, method_map, options_map,
                                                   keywords=KEYWORDS) if found[2]}


def msgids(messages) -> set:
    return {m.id if isinstance(m.id, str) else tuple(m.id) for m in messages if m.id}


@pytest.mark.parametrize(("cfg", "catalog"), CATALOGS, ids=[c[0] for c in CATALOGS])
def test_every_message_has_its_japanese(cfg, catalog):
    with open(catalog.with_suffix(".po"), "rb") as po:
        japanese = read_po(po)
    missing = sorted(str(m) for m in extracted(cfg)
                     if not (japanese.get(m if isinstance(m, str) else m[0])
                             and all(japanese.get(m if isinstance(m, str) else m[0]).string)))
    assert missing == [], f"no Japanese in {catalog.with_suffix('.po').name} for {missing}"


@pytest.mark.parametrize(("cfg", "catalog"), CATALOGS, ids=[c[0] for c in CATALOGS])
def test_the_committed_mo_is_the_po_compiled(cfg, catalog):
    with open(catalog.with_suffix(".po"), "rb") as po, open(catalog.with_suffix(".mo"), "rb") as mo:
        source, compiled = read_po(po), read_mo(mo)
    assert strings(source) == strings(compiled), "run `make translations` to compile them"


def strings(catalog) -> dict:
    return {(m.id if isinstance(m.id, str) else m.id[0]):
            (m.string if isinstance(m.string, str) else tuple(m.string))
            for m in catalog if m.id}


RECORDED = ROOT / "tests/engine/recorded/v1"
HEX = re.compile(r"\b\d[a-i]\b")


@pytest.mark.parametrize("log", sorted(p.name for p in RECORDED.glob("*.json")))
def test_a_whole_game_told_in_japanese_has_no_english_word_left(log):
    events = json.loads((RECORDED / log).read_text())["events"]
    names = {0: "甲", 1: "乙", 2: "丙", 3: "丁"}
    lines = narrate_lines(events, names, seat=1, translations=i18n.engine_catalog("ja"))
    assert len(lines) > 20
    for line in lines:
        assert not re.search(r"[A-Za-z]{2,}", HEX.sub("", line)), line
