"""A player's lines played as a whole turn (engine/text/script.py): interruption answers used when
the engine asks for them, alternatives in order, the first line that cannot be played stops."""

import engine
from engine.text.script import Script, ScriptLine, dry_run
from tests.engine.engine_helpers import new_game, place_tile, set_player


def script(*texts, seat=0, names=None):
    return Script([ScriptLine(n, t) for n, t in enumerate(texts, start=1)], seat, names)


def run(state, s: Script):
    return dry_run(state, s, "seed", 1)


def on_rainbow():
    return place_tile(new_game(2), "1b", "desert_rainbow")


def test_a_rainbow_turn_with_the_choice_written_anywhere_plays_whole():
    for order in (("move 1b", "choose emerald", "mine", "keep", "end"),
                  ("move 1b", "mine", "keep", "end", "choose emerald"),
                  ("choose emerald", "move 1b", "mine", "keep", "end")):
        s = run(on_rainbow(), script(*order))
        assert s.complete(), (order, s.stop)
        played = [step.line.text for step in s.steps]
        assert played == ["move 1b", "choose emerald", "mine", "keep", "end"]


def test_an_answer_never_asked_for_is_reported_unused():
    s = run(on_rainbow(), script("move 1b", "choose emerald", "give 2 amethyst to Ben", "end",
                                 names={0: "Ada", 1: "Ben"}))
    assert s.complete()
    assert [line.text for line in s.unused_answers()] == ["give 2 amethyst to Ben"]


def test_gems_over_seven_are_given_by_name_when_asked():
    state = set_player(on_rainbow(), 0, hold={"amethyst": 8})  # one too many, and one more won
    s = run(state, script("move 1b", "choose citrine", "end", "give 2 amethyst to Ben",
                          names={0: "Ada", 1: "Ben"}))
    assert s.complete(), s.stop
    assert [step.line.text for step in s.steps] == [
        "give 2 amethyst to Ben", "move 1b", "choose citrine", "give 2 amethyst to Ben", "end"]
    gift = s.steps[0].command
    assert (gift.type, gift.gem, gift.to) == ("give_gem", "amethyst", 1)


def test_alternatives_are_taken_in_order():
    state = place_tile(new_game(2), "1c", "desert_rainbow")
    s = run(state, script("move 1b or move 1c", "choose emerald", "end"))
    assert s.stop is None
    assert s.steps[0].command.hex == "1c"  # 1b is face down: not a move


def test_the_first_line_that_cannot_be_played_stops_and_the_rest_are_not_run():
    s = run(on_rainbow(), script("move 1b", "choose emerald", "mvoe 2f", "mine", "end"))
    assert s.stop.line.text == "mvoe 2f" and "did you mean `move 2f`?" in s.stop.reason
    assert [line.text for line in s.not_run()] == ["mine", "end"]
    assert not s.complete()


def test_the_run_ends_when_the_turn_passes():
    s = run(new_game(2), script("reveal 1b", "end", "reveal 1c"))
    assert [line.text for line in s.not_run()] == ["reveal 1c"]
    assert engine.current_player(new_game(2)) == 0


def test_a_refused_line_names_the_players_not_their_seats():
    state = set_player(on_rainbow(), 0, hold={"amethyst": 8})  # she must give gems away
    s = run(state, script("give 2 amethyst to Ada", names={0: "Ada", 1: "Ben"}))
    assert s.stop.line.text == "give 2 amethyst to Ada"
    assert str(s.stop.reason) == "give the gem to another player, not Ada"
    # A caller without names keeps the engine's own words.
    assert str(run(state, script("give amethyst --to 0")).stop.reason).endswith("not seat 0")
