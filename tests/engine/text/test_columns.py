"""Text laid out by terminal columns, where a Japanese character takes two: the players' table
stays aligned under a Japanese name, and a wrapped Japanese list never starts a line with a
closing mark."""

from __future__ import annotations

from pathlib import Path

from babel.support import Translations

import engine
from engine.simulate import make_options, play_game
from engine.text.board import view_lines
from engine.text.columns import columns, cut, wrap

JA = Translations.load(str(Path(engine.__file__).parent / "translations"), ["ja"], domain="engine")


def _table(names: dict[int, str], translations=None) -> list[str]:  # noqa: ANN001
    record = play_game(make_options(2), "columns")
    state = engine.replay([event for step in record.steps[:40] for event in step.events])
    game = {"id": "g1", "players": [{"seat": s, "name": n} for s, n in names.items()]}
    text = [line.plain for line in view_lines(engine.view(state, 0), game, translations)]
    start = next(i for i, line in enumerate(text) if "Coins" in line or "プレイヤー" in line)
    return text[start:start + 3]


def test_the_players_table_is_aligned_under_a_japanese_name_and_headings():
    heading, *rows = _table({0: "綾", 1: "Bo"}, JA)
    assert heading == "   プレイヤー      位置    金 倉庫            石   得点 タイル  遺物 王室"
    # Every row is as wide as the English one, its values in the same places: the name takes
    # 15 columns, whatever its characters.
    english_heading, *english_rows = _table({0: "綾", 1: "Bo"})
    assert english_heading.startswith("   Player          At   Coins")
    for row, english in zip(rows, english_rows, strict=True):
        assert columns(row) == columns(english)
        assert row[3:].split() == english[3:].split()


def test_a_long_japanese_name_is_cut_by_columns():
    assert cut("綾いろは長い名前ですよ", 13) == "綾いろは長い"
    assert cut("Bartholomew the Bold", 15) == "Bartholomew the"


def test_a_wrapped_japanese_list_starts_no_line_with_a_closing_mark():
    items = ["エメラルドのランタン（知識の遺物、1A1C1E、6点）"] * 5
    lines = wrap("遺物", items, comma="、")
    assert len(lines) > 1 and all(columns(line) <= 80 for line in lines)
    assert not any(line.strip()[0] in "、。）" for line in lines[1:])
    assert "".join(line.removeprefix("遺物").lstrip() for line in lines) == "、".join(items)
