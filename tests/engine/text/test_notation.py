"""The command notation: every legal command has one line that reads back to it, and a line that
is not a command says what is wrong and what would be accepted."""

from __future__ import annotations

import pytest

import engine
from engine import simulate
from engine.bots import policies
from engine.commands import (
    Buy,
    ChooseGem,
    DiscardObjective,
    EndTurn,
    GiveGem,
    KeepRoll,
    Mine,
    ModifyDie,
    Move,
    PlayItem,
    Relocate,
    RemoveTile,
    Reroll,
    Restore,
    Reveal,
    RhomTurn,
    RollMarket,
    Sell,
)
from engine.data import display_name
from engine.text import notation
from engine.text.notation import NotationError, canonical, parse

TABLES = [(2, False, "n2"), (3, False, "n3"), (4, False, "n4"), (1, True, "n1"), (2, True, "n2r")]


def legal_commands_of_random_games(games_per_table: int = 3):
    for players, rhom, seed in TABLES:
        options = simulate.make_options(players, rhom)
        for index in range(games_per_table):
            for _step, state in simulate.steps(options, f"{seed}-{index}", policies.random_policy):
                seat = engine.current_player(state)
                if seat is not None:
                    yield state, engine.legal_commands(state, seat)


READERS = {0: "Ada", 1: "Ben Okafor", 2: "Chloé", 3: "Dee"}


def same_choice(a, b) -> bool:
    if isinstance(a, Relocate) and isinstance(b, Relocate) and a.discard_tile:
        return (a.hex, display_name(a.discard_tile)) == (b.hex, display_name(b.discard_tile))
    return a == b


def test_every_legal_command_of_random_games_reads_back_from_its_line():
    kinds = set()
    checked = 0
    for state, commands in legal_commands_of_random_games():
        legal = {canonical(c) for c in commands}
        seen_by = {}
        for command in commands:
            if isinstance(command, RhomTurn):
                assert not notation.has_notation(command)
                continue
            line = notation.format(command)
            assert parse(line, command.seat) == canonical(command), line
            assert canonical(command) in legal
            # The seat's own view fills nothing in when the line is complete.
            if command.seat not in seen_by:
                seen_by[command.seat] = engine.view(state, command.seat)
            assert parse(line, command.seat, view=seen_by[command.seat]) == canonical(command)
            # As a person reads it (players and cards by name), it reads back the same.
            # (Identical tiles are one choice: a tile named is one of that name the seat holds.)
            named = notation.format(command, READERS)
            read = parse(named, command.seat, names=READERS, view=seen_by[command.seat])
            assert same_choice(read, canonical(command)), named
            kinds.add(command.type)
            checked += 1
    assert checked > 10_000
    assert {"reveal", "move", "end_turn", "mine", "keep_roll", "buy", "sell", "restore",
            "play_item", "remove_tile", "choose_gem", "discard_objective"} <= kinds


def test_two_hexes_revealed_in_either_order_are_one_command():
    assert parse("reveal 1c 1b", 1) == Reveal(1, ("1b", "1c"))
    assert parse("reveal 1b 1c", 1) == Reveal(1, ("1b", "1c"))
    assert notation.format(Reveal(1, ("2a", "1f"))) == "reveal 1f 2a"


@pytest.mark.parametrize("command,line", [
    (Reveal(0, ("3c", "3d")), "reveal 3c 3d"),
    (Move(0, "4b"), "move 4b"),
    (Relocate(0, "2a", "desert_emerald_2"), "relocate 2a --discard-tile desert_emerald_2"),
    (Relocate(0, "2a", None), "relocate 2a"),
    (ChooseGem(0, "sapphire"), "choose sapphire"),
    (GiveGem(0, "citrine", 2), "give citrine --to 2"),
    (GiveGem(0, "emerald", None), "give emerald --to supply"),
    (DiscardObjective(0, "master_miner"), "discard-objective master_miner"),
    (Mine(0, 0), "mine"),
    (Mine(0, 2), "mine --stone-dice 2"),
    (KeepRoll(0, None), "keep"),
    (KeepRoll(0, "amethyst"), "keep --gem amethyst"),
    (Reroll(0, (0, 2)), "reroll 0 2"),
    (ModifyDie(0, "jolty_jackhammer", "roll:1", 1), "modify roll:1 +1 --item jolty_jackhammer"),
    (RollMarket(0, ("emerald", "sapphire")), "roll-market emerald sapphire"),
    (Buy(0, "epic_elixir"), "buy epic_elixir"),
    (Sell(0, "emerald", 3), "sell emerald 3"),
    (PlayItem(0, "cauldron_of_fortune", give=("emerald", "citrine"), take="sapphire"),
     "play cauldron_of_fortune --give emerald --give citrine --take sapphire"),
    (PlayItem(0, "swapping_stones", target=3), "play swapping_stones --target 3"),
    (Restore(0, "sapphire_spyglass"), "restore sapphire_spyglass"),
    (EndTurn(0), "end"),
    (RemoveTile(0, "6b"), "remove 6b"),
])
def test_each_command_is_written_with_the_cli_words(command, line):
    assert notation.format(command) == line
    assert notation.format_command(command) == line
    assert notation.parse_command(line, 0) == command


@pytest.mark.parametrize("line,command", [
    ("MOVE 4B", Move(2, "4b")),
    ("  move   4b  ", Move(2, "4b")),
    ("choose Em", ChooseGem(2, "emerald")),
    ("give cit --to=supply", GiveGem(2, "citrine", None)),
    ("give --to 1 s", GiveGem(2, "sapphire", 1)),
    ("buy Epic Elixir", Buy(2, "epic_elixir")),
    ("buy epic-elixir", Buy(2, "epic_elixir")),
    ("play cauldron --give e --give c --take a",
     PlayItem(2, "cauldron_of_fortune", give=("emerald", "citrine"), take="amethyst")),
    ('restore "The Book of Iridescia"', Restore(2, "book_of_iridescia")),
    ("restore Citrine Miner's Hat", Restore(2, "citrine_miners_hat")),
    ('move "4b', Move(2, "4b")),
    ("discard_objective Lots-O-Lore", DiscardObjective(2, "lots_o_lore")),
    ("roll_market e s", RollMarket(2, ("emerald", "sapphire"))),
    ("modify 1 -1", ModifyDie(2, "jolty_jackhammer", "roll:1", -1)),
    ("modify emerald +2", ModifyDie(2, "dazzling_dynamite", "market:emerald", 2)),
    ("modify market:citrine 1 --item dazzling-dynamite",
     ModifyDie(2, "dazzling_dynamite", "market:citrine", 1)),
])
def test_what_a_person_writes_is_read_as_they_meant(line, command):
    assert parse(line, 2) == command


def test_the_view_fills_in_what_the_line_leaves_out():
    view = {"players": [{"seat": 1, "hold": {"emerald": 3}, "items": ["dazzling_dynamite"]}]}
    assert parse("sell emerald", 1, view=view) == Sell(1, "emerald", 3)
    assert parse("modify roll:0 +1", 1, view=view) == ModifyDie(1, "dazzling_dynamite", "roll:0", 1)
    with pytest.raises(NotationError) as error:
        parse("sell citrine", 1, view=view)
    assert str(error.value) == "'sell citrine': you hold no citrine to sell (write: sell GEM COUNT)"


@pytest.mark.parametrize("line,message", [
    ("fly 4b", "'fly 4b': unknown command 'fly'; the commands are reveal, move, relocate, choose, "
               "give, discard-objective, mine, keep, reroll, modify, roll-market, buy, sell, play, "
               "restore, end, remove, undo"),
    ("", "'': an empty line; the commands are reveal, move, relocate, choose, give, "
         "discard-objective, mine, keep, reroll, modify, roll-market, buy, sell, play, restore, "
         "end, remove, undo"),
    ("move", "'move': move takes one hex, got nothing (write: move HEX)"),
    ("move 4b 4c", "'move 4b 4c': move takes one hex, got 4b 4c (write: move HEX)"),
    ("move 1g", "'move 1g': hex 1g is off the board: row 1 runs from 1a to 1f (write: move HEX)"),
    ("reveal 3c 3d 3e", "'reveal 3c 3d 3e': reveal takes one or two hexes (write: reveal HEX [HEX])"),
    ("reveal 3c 3c", "'reveal 3c 3c': 3c is named twice (write: reveal HEX [HEX])"),
    ("choose ruby", "'choose ruby': 'ruby' is not a gem: use amethyst, citrine, emerald, sapphire "
                    "(write: choose GEM)"),
    ("give emerald", "'give emerald': say who receives it with --to SEAT, or --to supply "
                     "(write: give GEM --to SEAT|supply)"),
    ("end now", "'end now': end takes no argument, got now (write: end)"),
    ("mine --stone-dice", "'mine --stone-dice': --stone-dice needs a value "
                          "(write: mine [--stone-dice N])"),
    ("mine --gem emerald", "'mine --gem emerald': mine does not take --gem "
                           "(write: mine [--stone-dice N])"),
    ("sell emerald", "'sell emerald': sell takes a gem and how many (write: sell GEM COUNT)"),
    ("sell emerald 0", "'sell emerald 0': '0' is not a number of gems (write: sell GEM COUNT)"),
    ("modify roll:1 +3", "'modify roll:1 +3': '+3' is not a change: use +1, -1, +2 or -2 "
                         "(write: modify DIE +1|-1|+2|-2 [--item ITEM])"),
    ("play jolty_jackhammer", "'play jolty_jackhammer': Jolty Jackhammer is played with modify, "
                              "not play (write: " + notation.USAGE["play"] + ")"),
    ("play axe_of_awesomeness", "'play axe_of_awesomeness': Axe of Awesomeness needs --gem "
                                "(write: " + notation.USAGE["play"] + ")"),
    ("restore emerald", "'restore emerald': 'emerald' is not a relic; it may be "
                        "emerald_jewelry_box, emerald_brooch, emerald_goggles, emerald_lantern, "
                        "emerald_tablet (write: restore RELIC)"),
])
def test_a_line_that_is_not_a_command_says_what_would_be_accepted(line, message):
    with pytest.raises(NotationError) as error:
        parse(line, 0)
    assert str(error.value) == message
    assert error.value.line == line
    assert isinstance(error.value, ValueError)


def test_commands_nobody_types_have_no_line():
    with pytest.raises(ValueError, match="rhom_turn is played by the server"):
        notation.format(RhomTurn(0))


# --- names, several gems, alternatives, near misses (mail and plans) ---

from engine.text.notation import alternatives, meant, parse_many  # noqa: E402

NAMES = {0: "Ada", 1: "Ben Okafor", 2: "Bea"}


def test_players_are_typed_by_name_or_seat():
    assert parse("give em to ben okafor", 0, names=NAMES).to == 1
    assert parse("give em --to Ben", 0, names=NAMES).to == 1
    assert parse("give em --to 2", 0).to == 2
    assert parse("give em to supply", 0, names=NAMES).to is None
    assert parse("play swapping stones --target Bea", 0, names=NAMES).target == 2
    with pytest.raises(NotationError, match="'B' is not a player: the players are Ada, Ben"):
        parse("give em to B", 0, names=NAMES)  # Ben and Bea


def test_a_count_of_gems_is_one_command_each():
    gifts = parse_many("give 2 amethyst to Ben", 0, names=NAMES)
    assert [(g.gem, g.to) for g in gifts] == [("amethyst", 1), ("amethyst", 1)]
    with pytest.raises(NotationError, match="one gem per command"):
        parse("give 2 amethyst to Ben", 0, names=NAMES)


def test_names_are_written_back_and_read_again():
    line = notation.format(parse("give em to ben okafor", 0, names=NAMES), NAMES)
    assert line == "give emerald --to 'Ben Okafor'"
    assert parse(line, 0, names=NAMES).to == 1


def test_cards_by_their_printed_names():
    assert notation.format(parse("buy axe_of_awesomeness", 0), NAMES) == "buy Axe of Awesomeness"
    assert parse("buy Axe of Awesomeness", 0).item == "axe_of_awesomeness"
    assert parse("restore The Book of Iridescia", 0).relic == "book_of_iridescia"


def test_alternatives_in_order():
    assert alternatives("move 3c or move 3d  OR  end") == ["move 3c", "move 3d", "end"]


@pytest.mark.parametrize("line, guess", [
    ("mvoe 2f", "move 2f"), ("mov 3c", "move 3c"), ("kepp", "keep"), ("byu axe of awesomeness",
     "buy axe of awesomeness"), ("ned", "end"), ("rev 1b", "reveal 1b"),
    ("Hello there", None), ("Thanks!", None), ("Love, Ada", None), ("Well", None),
    ("Fine by me", None), ("Best regards", None), ("Sent from my phone", None),
])
def test_a_near_miss_of_a_command_is_guessed_and_prose_is_not(line, guess):
    assert meant(line) == guess
