import pytest

from engine.board import (
    ALL_HEXES,
    HexNameError,
    ahead_or_side,
    distance,
    hex_name,
    parse_hex,
    playable_hexes,
    row_hexes,
)


def test_rulings_1_rows_and_doubled_columns():
    assert [len(row_hexes(r)) for r in range(1, 10)] == [6, 7, 6, 7, 6, 7, 6, 7, 6]
    assert len(ALL_HEXES) == 58
    assert parse_hex("1a") == (1, 1) and parse_hex("2a") == (2, 0) and parse_hex("2g") == (2, 12)
    assert hex_name(5, 5) == "5c"


def test_rulings_1_ahead_or_side_never_behind():
    assert set(ahead_or_side("3b")) == {"3a", "3c", "4b", "4c"}
    assert set(ahead_or_side("2a")) == {"2b", "3a"}
    assert ahead_or_side(None) == row_hexes(1)


def test_rulings_1_small_board_leaves_edges_empty():
    hexes = playable_hexes(2)
    assert len(hexes) == 42
    assert "1a" not in hexes and "1f" not in hexes and "9a" in hexes and "9f" in hexes
    assert len(playable_hexes(3)) == 58


def test_bad_hex_names_quote_the_input():
    with pytest.raises(HexNameError, match="'zz'"):
        parse_hex("zz")
    with pytest.raises(HexNameError, match="1g is off the board"):
        parse_hex("1g")


def test_distance():
    assert distance("1a", "1c") == 2
    assert distance(None, "1c") == 1
    assert distance("3b", "4c") == 1
